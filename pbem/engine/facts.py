"""Facts: the state changes a command caused, one dataclass per kind.

A fact carries everything its change needs: ``apply`` copies its values into the state
and never works anything out by the rules (where a station lands when a tile replaces
another, what leaves the map when a company closes: the decision worked that out and
the fact says it).  So a stored fact means the same under any later pbem.

Stored as JSON (``to_json``): ``{"f": kind, "v": version, ...}``, ``"v"`` left out for
version 1 (every fact stored before facts had versions is version 1).  A kind's
VERSION goes up when what it carries changes; pbem.engine.upcast reads the facts an
older pbem stored into the current kinds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .board.map import tile_at
from .board.track import tokens_after_lay
from .state import BANK, CLOSED, GameState, holder_name, plain_copy

#: a fact as stored: JSON, written by this or an older pbem
Record = dict[str, Any]


#: the types plain() returns as they are (tested first: most values of a fact are one)
_SCALARS = frozenset({str, int, bool, float, type(None)})


def plain(value: Any) -> Any:
    """``value`` as JSON reads it back: tuples as lists, at any depth."""
    if type(value) in _SCALARS:
        return value
    if isinstance(value, dict):
        return {k: v if type(v) in _SCALARS else plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [v if type(v) in _SCALARS else plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Fact:
    """One state change.  Subclasses name their KIND and VERSION and apply themselves."""

    KIND: ClassVar[str] = ""
    VERSION: ClassVar[int] = 1
    #: attribute -> JSON key, where they differ
    JSON_NAMES: ClassVar[Mapping[str, str]] = {}

    def apply(self, state: GameState) -> None:
        raise NotImplementedError

    def to_json(self) -> Record:
        data: Record = {"f": self.KIND}
        if self.VERSION > 1:
            data["v"] = self.VERSION
        for name, key in _json_names(type(self)):
            data[key] = plain(getattr(self, name))
        return data

    def is_record(self, record: Mapping[str, Any]) -> bool:
        """Whether ``record`` is this fact as stored: ``to_json() == record``, without
        making the record."""
        names = _json_names(type(self))
        if self.VERSION > 1:
            if record.get("v") != self.VERSION or len(record) != len(names) + 2:
                return False
        elif len(record) != len(names) + 1 or "v" in record:
            return False
        if record.get("f") != self.KIND:
            return False
        for name, key in names:
            value = getattr(self, name)
            if key not in record or record[key] != (value if type(value) in _SCALARS
                                                    else plain(value)):
                return False
        return True

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Fact:
        """The fact of a record of this kind and version."""
        names = _json_names(cls)
        values = {name: data[key] for name, key in names if key in data}
        if len(values) < len(names):
            return cls(**values)  # the defaults of the fields the record leaves out
        fact = object.__new__(cls)
        fact.__dict__.update(values)  # what __init__ sets, without a frozen setattr each
        return fact


_JSON_NAMES: dict[type[Fact], tuple[tuple[str, str], ...]] = {}


def _json_names(kind: type[Fact]) -> tuple[tuple[str, str], ...]:
    """(attribute, JSON key) of each field of a kind of fact, in order, once per kind
    (dataclasses.fields() builds its answer at each call)."""
    found = _JSON_NAMES.get(kind)
    if found is None:
        found = _JSON_NAMES[kind] = tuple(
            (f.name, kind.JSON_NAMES.get(f.name, f.name)) for f in fields(kind))
    return found


# -- money and certificates -----------------------------------------------------------------


def _add_cash(state: GameState, holder: str, delta: int) -> None:
    if holder == BANK:
        state.bank += delta
        return
    kind, name = holder.split(":", 1)
    if kind == "p":
        state.player(name).cash += delta
    else:
        state.corps[name].cash += delta


@dataclass(frozen=True)
class Cash(Fact):
    """``amount`` dollars move from ``payer`` to ``payee`` (holders)."""

    KIND = "cash"
    JSON_NAMES = {"payer": "from", "payee": "to"}
    payer: str
    payee: str
    amount: int

    def apply(self, state: GameState) -> None:
        _add_cash(state, self.payer, -self.amount)
        _add_cash(state, self.payee, self.amount)


@dataclass(frozen=True)
class Cert(Fact):
    """Certificate ``index`` of ``corp`` (0: the president's) goes to holder ``to``."""

    KIND = "cert"
    corp: str
    index: int
    to: str

    def apply(self, state: GameState) -> None:
        state.corps[self.corp].certs[self.index] = self.to


# -- private companies ----------------------------------------------------------------------


@dataclass(frozen=True)
class PrivateOwner(Fact):
    KIND = "private"
    sym: str
    owner: str

    def apply(self, state: GameState) -> None:
        state.privates[self.sym].owner = self.owner


@dataclass(frozen=True)
class PrivatePrice(Fact):
    KIND = "private_price"
    sym: str
    price: int

    def apply(self, state: GameState) -> None:
        state.privates[self.sym].price = self.price


@dataclass(frozen=True)
class PrivateClosed(Fact):
    KIND = "private_closed"
    sym: str

    def apply(self, state: GameState) -> None:
        state.privates[self.sym].closed = True


@dataclass(frozen=True)
class PrivateUsed(Fact):
    KIND = "private_used"
    sym: str

    def apply(self, state: GameState) -> None:
        state.privates[self.sym].used = True


# -- the stock market -----------------------------------------------------------------------


@dataclass(frozen=True)
class Par(Fact):
    """``corp`` is parred at ``price``: its token arrives in cell (row, col) as arrival
    number ``arrival`` (lower arrived earlier and lies on top)."""

    KIND = "par"
    VERSION = 2
    corp: str
    price: int
    row: int
    col: int
    arrival: int

    @classmethod
    def at(cls, state: GameState, corp: str, price: int, row: int, col: int) -> Par:
        """The par fact now: the token arrives after every token placed so far."""
        return cls(corp, price, row, col, state.arrivals + 1)

    def apply(self, state: GameState) -> None:
        c = state.corps[self.corp]
        c.par = self.price
        c.cell, c.arrival = (self.row, self.col), self.arrival
        state.arrivals = self.arrival


@dataclass(frozen=True)
class MarketMove(Fact):
    """A share value token arrives in cell (row, col) as arrival number ``arrival``:
    under the tokens already there (the decision numbers it; a token that stays in its
    cell has no fact)."""

    KIND = "market"
    VERSION = 2
    corp: str
    row: int
    col: int
    arrival: int

    @classmethod
    def to(cls, state: GameState, corp: str, row: int, col: int) -> MarketMove:
        """The token's move now: it arrives after every token placed so far."""
        return cls(corp, row, col, state.arrivals + 1)

    def apply(self, state: GameState) -> None:
        c = state.corps[self.corp]
        c.cell, c.arrival = (self.row, self.col), self.arrival
        state.arrivals = self.arrival


@dataclass(frozen=True)
class MarketRestore(Fact):
    """A token goes back to a cell and its old place in the stack there (a protected
    sale, a forced purchase called off)."""

    KIND = "market_restore"
    corp: str
    row: int
    col: int
    arrival: int

    def apply(self, state: GameState) -> None:
        c = state.corps[self.corp]
        c.cell, c.arrival = (self.row, self.col), self.arrival


# -- corporations -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CorpSet(Fact):
    """Fields of a corporation take the values given (floated, funded, operated...)."""

    KIND = "corp"
    corp: str
    values: dict[str, Any]

    def apply(self, state: GameState) -> None:
        corp = state.corps[self.corp]
        for key, value in self.values.items():
            setattr(corp, key, plain_copy(value))


@dataclass(frozen=True)
class CorpClosed(Fact):
    """The company is out of the game: its certificates are removed, it neither floats
    nor has a share value or frozen money.  What leaves the map and the other changes
    are facts of their own (StationRemoved, MarkerRemoved, OverLimit...)."""

    KIND = "corp_closed"
    VERSION = 2
    corp: str

    def apply(self, state: GameState) -> None:
        c = state.corps[self.corp]
        c.certs = [CLOSED] * len(c.certs)
        c.closed, c.floated, c.funded, c.cell, c.frozen = True, False, False, None, 0


@dataclass(frozen=True)
class OverLimit(Fact):
    """The companies ``player`` may hold over the share limit (price protection)."""

    KIND = "over_limit"
    player: str
    corps: list[str]

    def apply(self, state: GameState) -> None:
        if self.corps:
            state.over_limit[self.player] = list(self.corps)
        else:
            state.over_limit.pop(self.player, None)


@dataclass(frozen=True)
class Note(Fact):
    """A title's variant remembers ``value`` under ``key`` (GameState.notes); None
    forgets it."""

    KIND = "note"
    key: str
    value: Any

    def apply(self, state: GameState) -> None:
        if self.value is None:
            state.notes.pop(self.key, None)
        else:
            state.notes[self.key] = plain_copy(self.value)


# -- turn order, phases, rounds, the end ------------------------------------------------------


@dataclass(frozen=True)
class Priority(Fact):
    KIND = "priority"
    player: str

    def apply(self, state: GameState) -> None:
        state.priority = self.player


@dataclass(frozen=True)
class Phase(Fact):
    KIND = "phase"
    name: str

    def apply(self, state: GameState) -> None:
        state.phase = self.name


@dataclass(frozen=True)
class RoundNew(Fact):
    KIND = "round_new"
    round: dict[str, Any]

    def apply(self, state: GameState) -> None:
        state.round = plain_copy(self.round)


@dataclass(frozen=True)
class RoundSet(Fact):
    KIND = "round_set"
    values: dict[str, Any]

    def apply(self, state: GameState) -> None:
        for key, value in self.values.items():
            state.round[key] = plain_copy(value)


@dataclass(frozen=True)
class Bid(Fact):
    """A bid on a private company; a raised bid moves to the end (the latest)."""

    KIND = "bid"
    private: str
    player: str
    amount: int

    def apply(self, state: GameState) -> None:
        bids = state.round.setdefault("bids", {}).setdefault(self.private, {})
        bids.pop(self.player, None)
        bids[self.player] = self.amount


@dataclass(frozen=True)
class BidsCleared(Fact):
    KIND = "bids_cleared"
    private: str

    def apply(self, state: GameState) -> None:
        state.round.get("bids", {}).pop(self.private, None)


@dataclass(frozen=True)
class Ending(Fact):
    """How the game ends: {"reason": ..., "after": "set" | "next set" | "turn"}."""

    KIND = "ending"
    ending: dict[str, Any]

    def apply(self, state: GameState) -> None:
        state.ending = plain_copy(self.ending)


@dataclass(frozen=True)
class GameOver(Fact):
    KIND = "game_over"
    result: dict[str, Any]

    def apply(self, state: GameState) -> None:
        state.finished = True
        state.result = plain_copy(self.result)


# -- trains -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Train(Fact):
    """A train moves: from the bank (sold), a corporation or the pool, to a corporation,
    the pool or the scrap heap (obsolete)."""

    KIND = "train"
    name: str
    source: str
    dest: str

    def apply(self, state: GameState) -> None:
        name = self.name
        if self.source == BANK:
            state.trains_sold[name] = state.trains_sold.get(name, 0) + 1
        elif self.source == "pool":
            state.pool_trains.remove(name)
        else:
            state.corps[holder_name(self.source)].trains.remove(name)
        if self.dest == "scrap":
            state.trains_scrapped[name] = state.trains_scrapped.get(name, 0) + 1
        elif self.dest == "pool":
            state.pool_trains.append(name)
        else:
            state.corps[holder_name(self.dest)].trains.append(name)


# -- the map ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TileLaid(Fact):
    """Tile ``tile`` lies on ``hex`` at ``rotation``; the tile it replaces (None: the
    printed hex) goes back to the supply; ``tokens``: the stations on the hex, one
    list per stop of the new tile, where the lay put them (None: the hex had none)."""

    KIND = "tile"
    VERSION = 2
    hex: str
    tile: str
    rotation: int
    replaced: str | None
    tokens: list[list[str]] | None

    @classmethod
    def on(cls, state: GameState, coord: str, tile_id: str, rotation: int) -> TileLaid:
        """The lay of ``tile_id`` on ``coord`` now (the decision has checked it fits)."""
        board = state.board
        replaced = board.tiles[coord][0] if coord in board.tiles else None
        tokens = tokens_after_lay(state.map, board, coord, tile_id, rotation)
        return cls(coord, tile_id, rotation, replaced, tokens)

    def apply(self, state: GameState) -> None:
        board = state.board
        if self.replaced is not None:
            board.tiles_left[self.replaced] = board.tiles_left.get(self.replaced, 0) + 1
        board.tiles_left[self.tile] = board.tiles_left.get(self.tile, 0) - 1
        board.tiles[self.hex] = (self.tile, self.rotation)
        if self.tokens is not None:
            board.tokens[self.hex] = [list(s) for s in self.tokens]


def _stops_of(state: GameState, coord: str, count: int) -> list[list[str]]:
    stops = state.board.tokens.setdefault(coord, [])
    while len(stops) < count:
        stops.append([])
    return stops


@dataclass(frozen=True)
class Station(Fact):
    """``corp`` puts a station on stop ``stop`` of ``hex``, whose tile has ``stops``
    stops."""

    KIND = "token"
    VERSION = 2
    hex: str
    stop: int
    corp: str
    stops: int

    @classmethod
    def on(cls, state: GameState, coord: str, stop: int, corp: str) -> Station:
        return cls(coord, stop, corp, len(tile_at(state.map, state.board, coord)[0].stops))

    def apply(self, state: GameState) -> None:
        _stops_of(state, self.hex, self.stops)[self.stop].append(self.corp)


@dataclass(frozen=True)
class StationMoved(Fact):
    """``corp``'s station on ``hex`` goes to stop ``stop`` (of ``stops``)."""

    KIND = "token_move"
    VERSION = 2
    hex: str
    stop: int
    corp: str
    stops: int

    @classmethod
    def on(cls, state: GameState, coord: str, stop: int, corp: str) -> StationMoved:
        return cls(coord, stop, corp, len(tile_at(state.map, state.board, coord)[0].stops))

    def apply(self, state: GameState) -> None:
        for corps in state.board.tokens.get(self.hex, []):
            while self.corp in corps:
                corps.remove(self.corp)
        _stops_of(state, self.hex, self.stops)[self.stop].append(self.corp)


@dataclass(frozen=True)
class StationRemoved(Fact):
    """``corp``'s station on stop ``stop`` of ``hex`` leaves the map."""

    KIND = "token_removed"
    hex: str
    stop: int
    corp: str

    def apply(self, state: GameState) -> None:
        state.board.tokens[self.hex][self.stop].remove(self.corp)


@dataclass(frozen=True)
class Marker(Fact):
    """A marker (cattle, port, destination) is put on the map or changed."""

    KIND = "marker"
    name: str
    marker: dict[str, Any]

    def apply(self, state: GameState) -> None:
        state.board.markers[self.name] = plain_copy(self.marker)


@dataclass(frozen=True)
class MarkerRemoved(Fact):
    KIND = "marker_removed"
    name: str

    def apply(self, state: GameState) -> None:
        state.board.markers.pop(self.name, None)


#: every kind of fact, by the name stored
KINDS: dict[str, type[Fact]] = {cls.KIND: cls for cls in (
    Cash, Cert, PrivateOwner, PrivatePrice, PrivateClosed, PrivateUsed, Par, MarketMove,
    MarketRestore, CorpSet, CorpClosed, OverLimit, Note, Priority, Phase, RoundNew, RoundSet,
    Bid, BidsCleared, Ending, GameOver, Train, TileLaid, Station, StationMoved, StationRemoved,
    Marker, MarkerRemoved)}

