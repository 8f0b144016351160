"""The positions in which a log's corporations ran their trains: the board, the
corporation, its trains, the revenue column and (1870) its revenue modifiers just before
each ``run_routes`` (for the route tests and bench/routes.py).

An 1870 connection run (the bench's step ``ConnectionRoute``) is marked by ``step``: one
train runs from the home city to the destination, the others normally.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.board.map import BoardState
from ..engine.board.search import RevenueRules, StopKey, TrainSpec, best_connection_run, best_run
from ..engine.maps import title_map
from ..engine.orrun import revenue_column, revenue_rules, train_specs
from ..engine.state import GameState
from ..engine.title import load_title
from ..store import open_store
from .replay import replay_log
from .sitelog import SiteAction, SiteLog

ROUTE, CONNECTION = "Route", "ConnectionRoute"


def _key_json(key: StopKey | str) -> Any:
    return key if isinstance(key, str) else [key[0], key[1]]


def _key(data: Any) -> StopKey | str:
    return data if isinstance(data, str) else (str(data[0]), int(data[1]))


def rules_json(rules: RevenueRules | None) -> dict[str, Any] | None:
    """routes.RevenueRules as JSON (None: the corporation has no modifiers)."""
    if rules is None:
        return None
    return {"values": [[_key_json(k), v] for k, v in rules.values.items()],
            "end_bonus": [[_key_json(k), v] for k, v in rules.end_bonus.items()],
            "bonuses": [[_key_json(k), v] for k, v in rules.bonuses.items()],
            "destination": None if rules.destination is None else _key_json(rules.destination)}


def rules_from_json(data: dict[str, Any] | None) -> RevenueRules:
    if not data:
        return RevenueRules()
    values: dict[StopKey, int] = {}
    for k, v in data.get("values", []):
        key = _key(k)
        assert not isinstance(key, str)
        values[key] = int(v)
    return RevenueRules(
        values,
        {_key(k): int(v) for k, v in data.get("end_bonus", [])},
        {_key(k): int(v) for k, v in data.get("bonuses", [])},
        None if data.get("destination") is None else _key(data["destination"]))


@dataclass(frozen=True)
class Position:
    title: str
    action_id: int
    corp: str
    trains: tuple[TrainSpec, ...]
    column: int
    board: dict[str, Any]  # BoardState.to_dict()
    claimed: int  # the revenue the players ran
    step: str = ROUTE  # CONNECTION: an 1870 connection run
    rules: dict[str, Any] | None = field(default=None)  # rules_json(revenue modifiers)

    def board_state(self) -> BoardState:
        return BoardState.from_dict(self.board)

    @property
    def revenue_rules(self) -> RevenueRules:
        """The corporation's revenue modifiers (1870 port, cattle, destination marker)."""
        return rules_from_json(self.rules)

    def best_total(self) -> int:
        board_map, board, rules = title_map(self.title), self.board_state(), self.revenue_rules
        if self.step == CONNECTION:
            corp = load_title(self.title).corporations[self.corp]
            assert corp.destination is not None
            found = best_connection_run(board_map, board, self.corp, list(self.trains),
                                        self.column, (corp.home, corp.home_city or 0),
                                        corp.destination, rules)
            return found.total if found is not None else 0
        return best_run(board_map, board, self.corp, list(self.trains), self.column,
                        rules).total

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "action_id": self.action_id, "corp": self.corp,
                "trains": [list(t) for t in self.trains], "column": self.column,
                "board": self.board, "claimed": self.claimed, "step": self.step,
                "rules": self.rules}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Position:
        return cls(data["title"], data["action_id"], data["corp"],
                   tuple((str(n), d) for n, d in data["trains"]), data["column"],
                   data["board"], data["claimed"], data.get("step", ROUTE), data.get("rules"))


def position_of(state: GameState, site: SiteAction) -> Position:
    """The position just before the ``run_routes`` action ``site``."""
    corp = str(site["entity"])
    claimed = sum(int(r.get("revenue", 0)) for r in site.get("routes") or [])
    connection = state.round.get("connection") or {}
    step = CONNECTION if connection.get("corp") == corp else ROUTE
    return Position(state.title, int(site["id"]), corp, tuple(train_specs(state, corp)),
                    revenue_column(state), state.board.to_dict(), claimed, step,
                    rules_json(revenue_rules(state, corp)))


def run_positions(log: SiteLog) -> tuple[dict[int, Position], str | None]:
    """Every run_routes position of ``log`` (by action id), and why the replay stopped
    early (None when it went through)."""
    found: dict[int, Position] = {}

    def watch(site: SiteAction, state: GameState) -> None:
        if site.get("type") != "run_routes" or site.get("auto"):
            return
        found[int(site["id"])] = position_of(state, site)

    store = open_store(":memory:", now="1970-01-01T00:00:00+00:00")
    try:
        imported = replay_log(store, log, watch=watch)
    finally:
        store.close()
    stopped = imported.refusal.reason if imported.refusal is not None else None
    return found, stopped
