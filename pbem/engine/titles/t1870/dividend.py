"""The half dividend (1870 Declare Dividends, p.21): the company keeps half of the
revenue, rounded up to $10 (option half_dividend=round-down: down, as 18xx.games;
docs/1870.md D3), the shareholders get 10% of the rest per share; the share value does
not move."""

from __future__ import annotations

from ...context import Ctx, money
from ...dividends import distribute
from ...state import BANK, GameState, corp_holder


def half_kept(state: GameState, revenue: int) -> int:
    """What the company keeps of a half dividend."""
    if state.options.get("half_dividend", "round-up") == "round-down":
        return revenue // 20 * 10
    return -(-revenue // 20) * 10


def pay_half(ctx: Ctx, corp: str, revenue: int) -> None:
    kept = half_kept(ctx.state, revenue)
    rest = revenue - kept
    per_share = rest // 10
    ctx.pay(BANK, corp_holder(corp), kept)
    ctx.log(f"{corp} pays a half dividend of {money(revenue)}: it keeps {money(kept)} and pays "
            f"{money(per_share)} per share.")
    distribute(ctx, corp, per_share)
    ctx.log(f"{corp} share value stays at ${ctx.state.price(corp)} (half dividend).")
