"""The site's route graph after a company closes: the 18xx.games engine caches each
corporation's reach (``Graph``) and clears the cache only when a tile is laid or a
station placed (``Step::Tracker``, ``Step::Tokener``); ``close_corporation`` takes the
closed company's stations off the map without clearing it.  Until the next lay or
station, the site judges track and stations as if those stations still stood (1870
seed 3009: MKT closed in a stock round; SLSF could reach Kansas City only through
MKT's former station at B9, and the site refused its tile there, "5 is not legally
rotated for 15").

``StaleGraph`` keeps the stations removed that way since the site last cleared its
graph, and tells whether a move the site refused is one pbem refuses too with those
stations back on the map: then the site's stale graph explains the refusal, a defect
of the site's engine, not a reading of the rules (pbem is right: a closed company's
stations leave the map, 1870 p.7).

The same cache answers whether a company may place a station at all
(``Graph#can_token?``, kept per company): a company that could place none before a
closure is still refused its station step after it, and the site skips that step
(1870 seed 30079 of run 8: TP closed at its dividend, which freed its home city J5;
FW, next to operate, reaches J5, but the site went from its track step straight to its
runs and refused the pass pbem wrote for FW's station step, "Blocking step Run Routes
cannot process action pass").
"""

from __future__ import annotations

from typing import Any

from pbem.engine.errors import RulesError
from pbem.engine.facts import CorpClosed, Fact, StationRemoved
from pbem.engine.game import decide
from pbem.engine.ortrack import token_options
from pbem.engine.state import GameState

#: the site actions after which the site clears its graph
CLEARING = frozenset({"lay_tile", "place_token"})


class StaleGraph:
    def __init__(self) -> None:
        self.stations: list[tuple[str, int, str]] = []  # (hex, stop, corporation)

    def note(self, facts: list[Fact]) -> None:
        """The stations of companies that close in a command's facts."""
        closed = {f.corp for f in facts if isinstance(f, CorpClosed)}
        self.stations += [(f.hex, f.stop, f.corp) for f in facts
                          if isinstance(f, StationRemoved) and f.corp in closed]

    def sent(self, site_action: dict[str, Any]) -> None:
        """A site action the site accepted."""
        if site_action["type"] in CLEARING:
            self.stations.clear()

    def explains(self, before: GameState, name: str, action: dict[str, Any],
                 site_action: dict[str, Any], error: str = "") -> bool:
        """Whether pbem refuses ``action`` in ``before`` with the stations back, or the
        site refused the pass of a station step that pbem, with the stations back,
        would not have offered (the site skipped it)."""
        if not self.stations:
            return False
        if site_action["type"] == "pass" and "cannot process action pass" in error:
            return self.skipped_station_step(before, site_action.get("entity"))
        if site_action["type"] not in CLEARING:
            return False
        try:
            decide(self.with_stations(before), name, action)
        except RulesError:
            return True
        return False

    def skipped_station_step(self, before: GameState, corp: Any) -> bool:
        """Whether the company ``corp`` may place a station in ``before`` and may not
        with the closed companies' stations back on the map."""
        if not isinstance(corp, str) or corp not in before.corps:
            return False
        return bool(token_options(before, corp)) and \
            not token_options(self.with_stations(before), corp)

    def with_stations(self, before: GameState) -> GameState:
        """A copy of ``before`` with the removed stations back on the map."""
        state = before.clone()
        for coord, stop, corp in self.stations:
            state.board.tokens[coord][stop].append(corp)
        return state
