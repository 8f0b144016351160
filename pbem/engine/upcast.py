"""Reading stored facts: a record written by this pbem or an older one becomes the facts
of today, so that every stored game still rebuilds and audits.

A record of the current VERSION of its kind is read as it is.  An older record is
upcast by what it meant when it was written, worked out from the state before it (the
caller applies each fact before reading the next).  Engine version 1 stored every
fact as version 1; its appliers worked out some changes themselves:

* tile: the tile replaced went back to the supply, the stations moved to the cities
  of the new tile (TileLaid carries both now);
* token, token_move: the hex's station lists grew to the tile's stops (Station and
  StationMoved carry the number of stops);
* par, market: the token arrived after every token placed so far (the facts carry its
  arrival number); a market fact for the cell the token stood in changed nothing
  unless ``restack`` was set;
* corp_closed: the company's stations and its destination marker left the map and
  it was no longer held over the share limit (now StationRemoved, MarkerRemoved and
  OverLimit facts before CorpClosed).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .errors import SetupError
from .facts import (
    KINDS,
    CorpClosed,
    Fact,
    MarkerRemoved,
    MarketMove,
    OverLimit,
    Par,
    Record,
    Station,
    StationMoved,
    StationRemoved,
    TileLaid,
)
from .state import GameState


def read_fact(state: GameState, record: Mapping[str, Any]) -> list[Fact]:
    """The facts ``record`` stands for now, read against ``state`` (the state just
    before it)."""
    kind = record["f"]
    cls = KINDS.get(kind)
    if cls is None:
        raise SetupError(f"A stored fact of kind '{kind}' is unknown to this pbem.")
    version = int(record.get("v", 1))
    if version == cls.VERSION:
        return [cls.from_json(record)]
    if version > cls.VERSION:
        raise SetupError(f"A stored '{kind}' fact is of version {version}, newer than this "
                         f"pbem's ({cls.VERSION}): the game was recorded by a newer pbem.")
    upcast = UPCASTS.get((kind, version))
    if upcast is None:
        raise SetupError(f"This pbem cannot read '{kind}' facts of version {version}.")
    return upcast(state, dict(record))


def _tile_1(state: GameState, r: Record) -> list[Fact]:
    return [TileLaid.on(state, r["hex"], r["tile"], r["rotation"])]


def _token_1(state: GameState, r: Record) -> list[Fact]:
    return [Station.on(state, r["hex"], r["stop"], r["corp"])]


def _token_move_1(state: GameState, r: Record) -> list[Fact]:
    return [StationMoved.on(state, r["hex"], r["stop"], r["corp"])]


def _par_1(state: GameState, r: Record) -> list[Fact]:
    return [Par.at(state, r["corp"], r["price"], r["row"], r["col"])]


def _market_1(state: GameState, r: Record) -> list[Fact]:
    cell = state.corps[r["corp"]].cell
    if cell is not None and tuple(cell) == (r["row"], r["col"]) and not r.get("restack"):
        return []
    return [MarketMove.to(state, r["corp"], r["row"], r["col"])]


def _corp_closed_1(state: GameState, r: Record) -> list[Fact]:
    corp = r["corp"]
    facts: list[Fact] = []
    for coord, stops in sorted(state.board.tokens.items()):
        for stop, corps in enumerate(stops):
            facts += [StationRemoved(coord, stop, corp)] * corps.count(corp)
    for key, marker in sorted(state.board.markers.items()):
        if key == f"destination:{corp}" or (key.startswith("destination")
                                            and marker.get("corp") == corp):
            facts.append(MarkerRemoved(key))
    for name, corps in sorted(state.over_limit.items()):
        if corp in corps:
            facts.append(OverLimit(name, [c for c in corps if c != corp]))
    return facts + [CorpClosed(corp)]


UPCASTS: dict[tuple[str, int], Callable[[GameState, Record], list[Fact]]] = {
    ("tile", 1): _tile_1,
    ("token", 1): _token_1,
    ("token_move", 1): _token_move_1,
    ("par", 1): _par_1,
    ("market", 1): _market_1,
    ("corp_closed", 1): _corp_closed_1,
}
