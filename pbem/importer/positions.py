"""The positions in which a log's corporations ran their trains: the board, the
corporation, its trains and the revenue column just before each ``run_routes``
(for the route tests and bench/routes.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.board import BoardState
from ..engine.orrun import revenue_column, train_specs
from ..engine.routes import TrainSpec, best_run
from ..engine.state import GameState, title_map
from ..store import open_store
from .replay import replay_log
from .sitelog import SiteAction, SiteLog


@dataclass(frozen=True)
class Position:
    title: str
    action_id: int
    corp: str
    trains: tuple[TrainSpec, ...]
    column: int
    board: dict[str, Any]  # BoardState.to_dict()
    claimed: int  # the revenue the players ran

    def board_state(self) -> BoardState:
        return BoardState.from_dict(self.board)

    def best_total(self) -> int:
        return best_run(title_map(self.title), self.board_state(), self.corp,
                        list(self.trains), self.column).total

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "action_id": self.action_id, "corp": self.corp,
                "trains": [list(t) for t in self.trains], "column": self.column,
                "board": self.board, "claimed": self.claimed}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Position:
        return cls(data["title"], data["action_id"], data["corp"],
                   tuple((str(n), d) for n, d in data["trains"]), data["column"],
                   data["board"], data["claimed"])


def run_positions(log: SiteLog) -> tuple[dict[int, Position], str | None]:
    """Every run_routes position of ``log`` (by action id), and why the replay stopped
    early (None when it went through)."""
    found: dict[int, Position] = {}

    def watch(site: SiteAction, state: GameState) -> None:
        if site.get("type") != "run_routes" or site.get("auto"):
            return
        corp = str(site["entity"])
        claimed = sum(int(r.get("revenue", 0)) for r in site.get("routes") or [])
        found[int(site["id"])] = Position(
            state.title, int(site["id"]), corp, tuple(train_specs(state, corp)),
            revenue_column(state), state.board.to_dict(), claimed)

    store = open_store(":memory:", now="1970-01-01T00:00:00+00:00")
    try:
        imported = replay_log(store, log, watch=watch)
    finally:
        store.close()
    stopped = imported.refusal.reason if imported.refusal is not None else None
    return found, stopped
