"""The steps of 1830's rounds that differ from the common ones with the game's options
(pbem/engine/steps.py): the dividend with a split (V-7.1)."""

from __future__ import annotations

from ... import operating
from ...state import GameState


class Dividend1830(operating.Dividend):
    """Pay out or withhold (6.5); with option split_revenue=yes also split (V-7.1)."""

    def kinds_for(self, state: GameState, corp: str) -> tuple[str, ...]:
        if state.options.get("split_revenue", "no") == "yes":
            return ("payout", "withhold", "half")
        return self.kinds
