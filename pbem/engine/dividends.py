"""Collecting revenue: pay out to shareholders, withhold in the treasury (1830 6.5), and
1870's half dividend and connection-run dividends (Declare Dividends, p.21; Connection
Run, p.23).

Who is paid for a share that no player holds: 1830 pays the corporation for bank pool
shares and nobody for initial-offering shares; 1870 pays the company for shares in the
initial offering and in its own treasury (redeemed shares, holder ``c:<CORP>``), and
the bank for open-market shares (p.21)."""

from __future__ import annotations

from . import market
from .context import Ctx, money
from .state import BANK, IPO, POOL, GameState, corp_holder, holder_name
from .trains import rules_1870

DIVIDEND_RULE_1870 = "1870 Declare Dividends, p.21"


def share_units(state: GameState, corp: str) -> dict[str, int]:
    """Holder -> 10% units of ``corp`` it holds (the president's certificate is two)."""
    holders: dict[str, int] = {}
    for i, holder in enumerate(state.corps[corp].certs):
        units = 2 if i == 0 else 1
        holders[holder] = holders.get(holder, 0) + units
    return holders


def payee(state: GameState, corp: str, holder: str) -> str | None:
    """Who receives the dividend on a share held by ``holder`` (None: nobody)."""
    if rules_1870(state):
        if holder in (IPO, corp_holder(corp)):
            return corp_holder(corp)
        return None if holder == POOL else holder
    if holder == IPO:
        return None
    return corp_holder(corp) if holder == POOL else holder


def _who(corp: str, holder: str) -> str:
    if holder == POOL:
        return f"{corp} (bank pool shares)"
    if holder == IPO:
        return f"{corp} (initial offering shares)"
    if holder == corp_holder(corp):
        return f"{corp} (its own shares)"
    return holder_name(holder)


def distribute(ctx: Ctx, corp: str, per_share: int) -> None:
    """``per_share`` for each 10% share to its payee."""
    state = ctx.state
    for holder, units in share_units(state, corp).items():
        to = payee(state, corp, holder)
        if to is None:
            continue
        amount = per_share * units
        ctx.pay(BANK, to, amount)
        ctx.log(f"{_who(corp, holder)} receives {money(amount)}.")


def pay_out(ctx: Ctx, corp: str, revenue: int, moves: bool = True) -> None:
    """10% of the revenue per 10% share to its holder; the share value moves right
    (1830 4.5; 1870 p.21).  ``moves`` False: no move (not used: a connection run paid
    out moves right too, p.23)."""
    per_share = revenue // 10
    ctx.log(f"{corp} pays out {money(revenue)}: {money(per_share)} per share.")
    distribute(ctx, corp, per_share)
    if moves:
        market.move(ctx, corp, "right")


def half_kept(state: GameState, revenue: int) -> int:
    """What the company keeps of a half dividend: half, rounded up to $10 (p.21; option
    half_dividend=round-down: rounded down, 18xx.games; docs/1870.md D3)."""
    if state.options.get("half_dividend", "round-up") == "round-down":
        return revenue // 20 * 10
    return -(-revenue // 20) * 10


def pay_half(ctx: Ctx, corp: str, revenue: int) -> None:
    """1870: the company keeps half (rounded up to $10), the shareholders get 10% of the
    rest per share; the share value does not move (Declare Dividends, p.21)."""
    kept = half_kept(ctx.state, revenue)
    rest = revenue - kept
    per_share = rest // 10
    ctx.pay(BANK, corp_holder(corp), kept)
    ctx.log(f"{corp} pays a half dividend of {money(revenue)}: it keeps {money(kept)} and pays "
            f"{money(per_share)} per share.")
    distribute(ctx, corp, per_share)
    ctx.log(f"{corp} share value stays at ${ctx.state.price(corp)} (half dividend).")


def withhold(ctx: Ctx, corp: str, revenue: int, moves: bool = True) -> None:
    """All revenue to the treasury; the share value moves left (1830 4.5; 1870 p.21: a $0
    dividend is a withholding).  ``moves`` False: a withheld connection run, whose share
    value does not move (p.23)."""
    if revenue:
        ctx.pay(BANK, corp_holder(corp), revenue)
        ctx.log(f"{corp} withholds {money(revenue)}.")
    else:
        ctx.log(f"{corp} has no revenue and pays no dividend.")
    if moves:
        market.move(ctx, corp, "left")
    else:
        ctx.log(f"{corp} share value stays at ${ctx.state.price(corp)} (connection run).")
