"""Collecting revenue (1830 6.5): pay out to shareholders, or withhold in the treasury."""

from __future__ import annotations

from . import market
from .context import Ctx, money
from .state import BANK, IPO, POOL, corp_holder, holder_name


def pay_out(ctx: Ctx, corp: str, revenue: int) -> None:
    """10% of the revenue per 10% share to its holder; pool shares pay the corporation;
    initial-offering shares pay nobody.  The share value moves right (4.5)."""
    state = ctx.state
    per_share = revenue // 10
    ctx.log(f"{corp} pays out {money(revenue)}: {money(per_share)} per share.")
    holders: dict[str, int] = {}
    for i, holder in enumerate(state.corps[corp].certs):
        units = 2 if i == 0 else 1
        holders[holder] = holders.get(holder, 0) + units
    for holder, units in holders.items():
        if holder == IPO:
            continue
        payee = corp_holder(corp) if holder == POOL else holder
        amount = per_share * units
        ctx.pay(BANK, payee, amount)
        who = f"{corp} (bank pool shares)" if holder == POOL else holder_name(holder)
        ctx.log(f"{who} receives {money(amount)}.")
    market.move(ctx, corp, "right")


def withhold(ctx: Ctx, corp: str, revenue: int) -> None:
    """All revenue to the treasury; the share value moves left (4.5)."""
    if revenue:
        ctx.pay(BANK, corp_holder(corp), revenue)
        ctx.log(f"{corp} withholds {money(revenue)}.")
    else:
        ctx.log(f"{corp} has no revenue and pays no dividend.")
    market.move(ctx, corp, "left")
