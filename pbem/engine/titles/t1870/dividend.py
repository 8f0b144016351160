"""The half dividend (1870 Declare Dividends, p.21): the company keeps half of the
revenue, rounded up to $10 (option half_dividend=round-down: down, as 18xx.games;
docs/1870.md D3), the shareholders get 10% of the rest per share; the share value does
not move (the payment: pbem/engine/dividends.py, shared with 1830's V-7.1)."""

from __future__ import annotations

from ...dividends import half_kept as kept_of
from ...state import GameState


def half_kept(state: GameState, revenue: int) -> int:
    """What the company keeps of a half dividend."""
    return kept_of(revenue, state.options.get("half_dividend", "round-up") != "round-down")

