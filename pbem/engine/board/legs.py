"""A written run realised leg by leg on the track itself, without a route graph.

A route a player writes names its stops in order; between two consecutive stops it
travels through hex sides only (a route counts every stop it passes, 1830 6.4.1, 1870
p.21).  When each leg has exactly one such way on the board, the run is that track: it
is legal when the routes' stops are distinct, each route includes a station of the
company, passes no stop that blocks it, and no two legs share track (a segment or a hex
side).  Every segment of such a run lies in the region of the company's stations (from
its station along the route only sides and stops it may pass), so the run is the one a
route graph of that region realises (written.check_run): the same stops, track and
revenue.

direct_run() answers only that case; anything else (a leg with no way or with more than
one, a stop named two ways, a route that breaks a rule) is None, and the caller checks
the run on a route graph, for the same run or the same sentence.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from ..memo import ByWhatWasRead
from .localtrack import LocalTrack, State
from .map import BoardState, Map, tile_at
from .routegraph import StopKey
from .search import Reach, RevenueRules, Route, Run, TrainSpec, fits
from .track import Node

#: A leg's one way: its directed states in order, and the track it uses (segments and
#: hex sides).
Way = tuple[tuple[State, ...], frozenset[Any]]

#: The steps a leg's walk may take before the route graph is asked instead.
WALK_STEPS = 2_000



class _Several(Exception):
    """A leg has more than one way: the route graph chooses among them."""


def direct_run(
    board_map: Map,
    track: LocalTrack,
    corp: str,
    trains: Sequence[TrainSpec],
    written: Sequence[tuple[str, list[list[StopKey]]]],
    column: str | int,
    rules: RevenueRules,
) -> Run | None:
    """The run of the `written` routes ((train as written, per token the stops it may
    mean), in the order given) when exactly one reading of them is legal and each of its
    legs has one way on the track; else None (check it on a route graph)."""
    board = track.board
    specs = _assigned(trains, [name for name, _ in written])
    if specs is None:
        return None
    for (_, options), reach in zip(written, specs, strict=True):
        if len(options) < 2 or not fits(reach, [_kind(board_map, board, o[0]) for o in options]):
            return None
    found: list[list[tuple[list[StopKey], list[Way]]]] = []
    ways: dict[tuple[StopKey, StopKey], list[Way]] = {}
    stations = set(board.route_stations(corp))
    for reading in itertools.product(*(itertools.product(*o) for _, o in written)):
        try:
            routes = _realised(track, corp, reading, stations, ways)
        except _Several:
            return None
        if routes is not None:
            found.append(routes)
            if len(found) > 1:
                return None  # ambiguous: the route graph's sentence
    if not found:
        return None
    if isinstance(column, int):
        column = board_map.revenue_columns[column]
    values = rules.stop_values(board_map, board, column)
    ends = rules.end_values(board_map, board, column)
    result = []
    for (name, _), (stops, legs) in zip(written, found[0], strict=True):
        revenue = sum(_value(board_map, board, key, column, values) for key in stops)
        revenue += ends.get(stops[0], 0) + ends.get(stops[-1], 0)
        segments = tuple((coord, index) for way in legs for coord, index, _ in way[0])
        result.append(Route(name, tuple(stops), segments, revenue))
    return Run(tuple(result), sum(r.revenue for r in result))


class NoTrainLeft(LookupError):
    """TrainsByName.take: every train of that name (if any) already has its route."""


class TrainsByName:
    """The company's trains by name (upper case), handed to written routes as check_run
    assigns them: the n-th route of a train name runs the n-th train of that name."""

    def __init__(self, trains: Sequence[TrainSpec]) -> None:
        self.owned: dict[str, list[Reach]] = {}
        for name, reach in trains:
            self.owned.setdefault(name.upper(), []).append(reach)
        self.given: dict[str, int] = {}

    def owns(self, name: str) -> bool:
        return name.upper() in self.owned

    def count(self, name: str) -> int:
        return len(self.owned.get(name.upper(), ()))

    def take(self, name: str) -> Reach:
        """The reach of the next train of that name (None is a reach: no limit); raises
        NoTrainLeft when the company has none left, or none at all."""
        key = name.upper()
        self.given[key] = self.given.get(key, 0) + 1
        if self.given[key] > self.count(name):
            raise NoTrainLeft(name)
        return self.owned[key][self.given[key] - 1]


def _assigned(trains: Sequence[TrainSpec], names: list[str]) -> list[Reach] | None:
    """Each written train's reach (TrainsByName); None when a name is not the company's
    or is given too often."""
    owned = TrainsByName(trains)
    try:
        return [owned.take(name) for name in names]
    except NoTrainLeft:
        return None


def _kind(board_map: Map, board: BoardState, stop: StopKey) -> str:
    return tile_at(board_map, board, stop[0])[0].stops[stop[1]].kind


def _value(board_map: Map, board: BoardState, stop: StopKey, column: str,
           values: Mapping[StopKey, int]) -> int:
    if stop in values:
        return values[stop]
    return tile_at(board_map, board, stop[0])[0].stops[stop[1]].value(column)


def _realised(
    track: LocalTrack,
    corp: str,
    reading: Sequence[Sequence[StopKey]],
    stations: set[StopKey],
    ways: dict[tuple[StopKey, StopKey], list[Way]],
) -> list[tuple[list[StopKey], list[Way]]] | None:
    """One reading's routes with their legs' ways; None when it is not a legal run
    (_Several: a leg has more than one way)."""
    areas_of = track.map.hexes
    used: set[Any] = set()
    routes = []
    for stops in reading:
        if len(set(stops)) < len(stops) or not stations.intersection(stops):
            return None
        areas = [areas_of[coord].area for coord, _ in stops]
        named = [a for a in areas if a is not None]
        if len(set(named)) < len(named):
            return None
        if any(track.blocks(("stop", *stop), corp) for stop in stops[1:-1]):
            return None
        legs = []
        for leg in itertools.pairwise(stops):
            got = ways.get(leg)
            if got is None:
                got = ways[leg] = _ways(track, ("stop", *leg[0]), ("stop", *leg[1]))
            if not got:
                return None
            if len(got) > 1:
                raise _Several
            way = got[0]
            if not used.isdisjoint(way[1]):
                return None
            used.update(way[1])
            legs.append(way)
        routes.append((list(stops), legs))
    return routes


#: the ways of legs walked before, by (map, start, goal): the tiles of the hexes the
#: walk read, and the ways found
#: the ways of a leg, remembered with the tiles of the hexes the walk read: where they
#: are the same, so are the ways (a company runs much the same routes turn after turn)
_WAYS: ByWhatWasRead[str, list[Way]] = ByWhatWasRead(2048)


def forget_ways() -> None:
    """Empty the memo of _ways (a benchmark timing a replay starts from nothing)."""
    _WAYS.clear()


def _ways(track: LocalTrack, start: Node, goal: Node) -> list[Way]:
    """_walk(...), remembered with the tiles of the hexes it read (_WAYS)."""
    tiles = track.board.tiles

    def walk(read: set[str]) -> list[Way]:
        read.add(start[1])
        return _walk(track, start, goal, read)

    return _WAYS.get((track.map,), (start, goal), tiles.get, walk)


def _walk(track: LocalTrack, start: Node, goal: Node, read: set[str]) -> list[Way]:
    """The ways from stop `start` to stop `goal` through hex sides only, using no
    segment or side twice: all of them when there are none or one, else two
    (_Several when the walk takes more than WALK_STEPS steps).  `read` gets the hexes
    whose track the walk read."""
    empty: frozenset[Any] = frozenset()
    todo: list[tuple[State, tuple[State, ...], frozenset[Any]]] = [
        (state, (), empty) for state in track.leaving(start)]
    found: list[Way] = []
    steps = 0
    while todo:
        state, states, used = todo.pop()
        steps += 1
        if steps > WALK_STEPS:
            raise _Several
        seg, node = state[:2], track.arrival(state)
        if seg in used or node in used:
            continue
        states += (state,)
        if node == goal:
            found.append((states, used | {seg}))
            if len(found) > 1:
                break
        elif node[0] == "side":
            used = used | {seg, node}
            across = node[1] if node[1] != state[0] else track.map.neighbour(node[1], node[2])
            if across is not None:
                read.add(across)
            todo.extend((after, states, used) for after in track.onward(state))
    return found
