"""Collecting revenue: pay out to shareholders, withhold in the treasury.

Who is paid for a share no player holds is the title's rule (Rulebook.dividend_payee):
by default the corporation for bank pool shares and nobody for initial-offering shares.
A title's other dividends (a half dividend) are its own (Rulebook.pay_dividend)."""

from __future__ import annotations

from . import market
from .context import Ctx, money
from .registry import book
from .state import BANK, IPO, POOL, GameState, corp_holder, holder_name


def share_units(state: GameState, corp: str) -> dict[str, int]:
    """Holder -> 10% units of ``corp`` it holds (the president's certificate is two, and
    so is a 20% certificate of V-6.5)."""
    holders: dict[str, int] = {}
    unit = state.rules.ordinary_percent
    for i, holder in enumerate(state.corps[corp].certs):
        units = state.cert_percent(corp, i) // unit
        holders[holder] = holders.get(holder, 0) + units
    return holders


def payee(state: GameState, corp: str, holder: str) -> str | None:
    """Who receives the dividend on a share held by ``holder`` (None: nobody)."""
    return book(state).dividend_payee(state, corp, holder)


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
    """10% of the revenue per 10% share to its holder; the share value moves right (as
    far as the title's rule says: Rulebook.payout_moves).  ``moves`` False: no move (not
    used: a connection run paid out moves right too, p.23)."""
    state = ctx.state
    per_share = revenue // 10
    ctx.log(f"{corp} pays out {money(revenue)}: {money(per_share)} per share.")
    distribute(ctx, corp, per_share)
    steps = book(state).payout_moves(state, corp, revenue) if moves else 0
    if steps:
        market.move(ctx, corp, "right", steps)
    elif moves:
        ctx.log(f"{corp} share value stays at ${state.price(corp)}.")


def half_kept(revenue: int, round_up: bool = True) -> int:
    """What the company keeps of a split (half) dividend: half the revenue rounded up to
    $10 (down with ``round_up`` False), so that each share is paid whole dollars."""
    return -(-revenue // 20) * 10 if round_up else revenue // 20 * 10


def pay_half(ctx: Ctx, corp: str, revenue: int, kept: int) -> None:
    """A split dividend: the company keeps ``kept``, the shareholders get 10% of the rest
    per share; the share value does not move (a title's half dividend or split revenue)."""
    rest = revenue - kept
    per_share = rest // 10
    ctx.pay(BANK, corp_holder(corp), kept)
    ctx.log(f"{corp} pays a half dividend of {money(revenue)}: it keeps {money(kept)} and pays "
            f"{money(per_share)} per share.")
    distribute(ctx, corp, per_share)
    ctx.log(f"{corp} share value stays at ${ctx.state.price(corp)} (half dividend).")


def withhold(ctx: Ctx, corp: str, revenue: int, moves: bool = True) -> None:
    """All revenue to the treasury; the share value moves left (a $0
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
