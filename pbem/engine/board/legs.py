"""A written run realised leg by leg on the track itself, without a route graph.

A route a player writes names its stops in order; between two consecutive stops it
travels through hex sides only (a route counts every stop it passes, 1830 6.4.1, 1870
p.21).  The ways of each leg are walked on the board's track: the run is legal when the
routes' stops are distinct, each route includes a station of the company, passes no stop
that blocks it, and the legs can take ways that share no track (a segment or a hex
side).  Every segment of such a run lies in the region of the company's stations (from
its station along the route only sides and stops it may pass), so the run is the one a
route graph of that region realises (written.check_run): the same stops and revenue,
and the same track, for the ways are taken in the order the route graph's search meets
them (_in_search_order) and the first ways that share nothing are the run's, as
search.find_track takes them.

direct_run() answers a legal run read one way only; anything else (a leg with no way,
a stop named two ways, a route that breaks a rule, a leg with too many ways) is None,
and the caller checks the run on a route graph, for the same run or the same sentence.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..memo import ByWhatWasRead
from .hexes import coord_sort_key
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

#: The ways of one leg, and the ways tried for a reading's legs, beyond which the route
#: graph is asked instead.
MOST_WAYS = 16
ASSIGN_STEPS = 2_000


class _Several(Exception):
    """A leg has too many ways, or its walk too many steps: the route graph is asked."""


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
    mean), in the order given) when exactly one reading of them is legal; else None
    (check it on a route graph)."""
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
    if isinstance(column, int):
        column = board_map.revenue_columns[column]
    values = rules.stop_values(board_map, board, column)
    order = _SearchOrder(track, lambda stop: (-_value(board_map, board, stop, column, values),
                                              coord_sort_key(stop[0]), stop[1]))
    for reading in itertools.product(*(itertools.product(*o) for _, o in written)):
        try:
            routes = _realised(track, corp, reading, stations, ways, order)
        except _Several:
            return None
        if routes is not None:
            found.append(routes)
            if len(found) > 1:
                return None  # ambiguous: the route graph's sentence
    if not found:
        return None
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
    order: _SearchOrder,
) -> list[tuple[list[StopKey], list[Way]]] | None:
    """One reading's routes with their legs' ways; None when it is not a legal run
    (_Several: a leg has too many ways, or the ways too many combinations)."""
    areas_of = track.map.hexes
    legs: list[list[Way]] = []
    for stops in reading:
        if len(set(stops)) < len(stops) or not stations.intersection(stops):
            return None
        areas = [areas_of[coord].area for coord, _ in stops]
        named = [a for a in areas if a is not None]
        if len(set(named)) < len(named):
            return None
        if any(track.blocks(("stop", *stop), corp) for stop in stops[1:-1]):
            return None
        for leg in itertools.pairwise(stops):
            got = ways.get(leg)
            if got is None:
                got = ways[leg] = order.sorted(
                    ("stop", *leg[0]), _ways(track, ("stop", *leg[0]), ("stop", *leg[1])))
            if not got:
                return None
            legs.append(got)
    chosen = _first_apart(legs)
    if chosen is None:
        return None
    routes, at = [], 0
    for stops in reading:
        routes.append((list(stops), chosen[at:at + len(stops) - 1]))
        at += len(stops) - 1
    return routes


def _first_apart(legs: list[list[Way]]) -> list[Way] | None:
    """A way for each leg, no two sharing track: the first such choice with the ways
    of each leg in their order, the first leg's way deciding first (search.find_track's
    answer); None when there is none."""
    chosen: list[Way] = []
    steps = 0

    def place(i: int, used: frozenset[Any]) -> bool:
        nonlocal steps
        if i == len(legs):
            return True
        for way in legs[i]:
            steps += 1
            if steps > ASSIGN_STEPS:
                raise _Several
            if used.isdisjoint(way[1]):
                chosen.append(way)
                if place(i + 1, used | way[1]):
                    return True
                chosen.pop()
        return False

    return chosen if place(0, frozenset()) else None


class _SearchOrder:
    """The order in which a route graph's search (search._walk_ways) meets the ways of a
    leg.  It follows a way move by move: a move leaves a stop by one of its segments,
    or a hex side where track branches by one of the branches (TrackGraph.onward), and
    follows the track to the next stop or branch.  At each, the route graph takes the
    moves toward its most valuable stop first (RouteGraph._order: the stop it arrives
    at, else the best stop the branch's track reaches through hex sides), the stops
    ranked by value, then hex, then index, as RouteGraph numbers them; moves alike in
    that in the track's order."""

    def __init__(self, track: LocalTrack, rank: Callable[[StopKey], Any]) -> None:
        self.track = track
        self.rank = rank
        self._best: dict[State, Any] = {}

    def sorted(self, start: Node, ways: list[Way]) -> list[Way]:
        return ways if len(ways) < 2 else sorted(ways, key=lambda way: self._key(start, way))

    def _key(self, start: Node, way: Way) -> list[tuple[Any, int]]:
        states, track = way[0], self.track
        key = []
        branch = track.leaving(start)
        i = 0
        while True:
            best, end = self._move(states, i)
            key.append((best, branch.index(states[i])))
            if end == len(states) - 1:
                return key
            branch, i = track.onward(states[end]), end + 1

    def _move(self, states: tuple[State, ...], i: int) -> tuple[Any, int]:
        """The rank of the move starting with states[i] (RouteGraph._order), and the
        index of its last state."""
        track = self.track
        for end in range(i, len(states)):
            node = track.arrival(states[end])
            if node[0] == "stop":
                return self.rank((node[1], node[2])), end
            if len(track.onward(states[end])) >= 2:
                return self._nearest(states[end]), end
        raise AssertionError("a way ends at a stop")

    def _nearest(self, state: State) -> Any:
        """The rank of the best stop that track onward from the branch at `state`
        reaches through hex sides only."""
        found = self._best.get(state)
        if found is None:
            track = self.track
            ranks = []
            seen = {state}
            work = list(track.onward(state))
            while work:
                after = work.pop()
                if after in seen:
                    continue
                seen.add(after)
                node = track.arrival(after)
                if node[0] == "stop":
                    ranks.append(self.rank((node[1], node[2])))
                else:
                    work.extend(track.onward(after))
            found = self._best[state] = min(ranks)
        return found


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
    segment or side twice: all of them (_Several when there are more than MOST_WAYS,
    or the walk takes more than WALK_STEPS steps).  `read` gets the hexes whose track
    the walk read."""
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
            if len(found) > MOST_WAYS:
                raise _Several
        elif node[0] == "side":
            used = used | {seg, node}
            across = node[1] if node[1] != state[0] else track.map.neighbour(node[1], node[2])
            if across is not None:
                read.add(across)
            todo.extend((after, states, used) for after in track.onward(state))
    return found
