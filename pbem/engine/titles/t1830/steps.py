"""The steps of 1830's rounds that differ from the common ones with the game's options
(pbem/engine/steps.py): the dividend with a split (V-7.1) and of an insolvent company
(base game 7.7)."""

from __future__ import annotations

from ... import operating
from ...context import money
from ...errors import RulesError
from ...state import GameState
from . import insolvency


class Dividend1830(operating.Dividend):
    """Pay out or withhold (6.5); with option split_revenue=yes also split (V-7.1); an
    insolvent company withholds (7.7)."""

    def kinds_for(self, state: GameState, corp: str) -> tuple[str, ...]:
        if insolvency.insolvent(state, corp):
            return ("withhold",)
        if state.options.get("split_revenue", "no") == "yes":
            return ("payout", "withhold", "half")
        return self.kinds

    def check_kind(self, state: GameState, corp: str, kind: str) -> None:
        if kind != "withhold" and insolvency.insolvent(state, corp):
            raise RulesError(f"{corp} is insolvent: it pays no dividend until its loan of "
                             f"{money(state.corps[corp].loan)} is repaid; withhold.",
                             insolvency.RULE)
        super().check_kind(state, corp, kind)
