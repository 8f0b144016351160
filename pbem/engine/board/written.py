"""Routes a player writes: "run 3: H12-I15-J14; 2: ..." read stop by stop, checked by
the route rules (1830 6.4, 6.4.1, 6.4.2) and realised on the track.

check_run() returns the run or raises RulesError with a sentence naming what is wrong
(a stop not on the map, no track between two stops, a city full of other stations, a
train too short...), or AmbiguousError when the stops can be read in several ways
(a hex with two cities: write G19.1 or G19.2).  The caller adds the title's rule.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import AmbiguousError, RulesError
from .legs import NoTrainLeft, TrainsByName, direct_run
from .localtrack import LocalTrack
from .map import BoardState, Map, tile_at
from .routegraph import RouteGraph, StopKey
from .search import (
    GraphMaker,
    Reach,
    RevenueRules,
    Route,
    RouteSearch,
    Run,
    TrainSpec,
    find_track,
    fits,
    search_for,
)

_STOP = re.compile(r"^\s*([A-Za-z]\s*\d{1,3})\s*(?:[./]\s*(\d))?\s*$")


def train_phrase(name: str) -> str:
    """"3" -> "3-train", "D" -> "diesel"."""
    return "diesel" if name.upper() == "D" else f"{name}-train"


def stop_label(board_map: Map, board: BoardState, stop: StopKey) -> str:
    """"H12", or "G19.2" where the hex has more than one stop."""
    coord, index = stop
    tile, _ = tile_at(board_map, board, coord)
    return f"{coord}.{index + 1}" if len(tile.stops) > 1 else coord


def route_text(board_map: Map, board: BoardState, stops: Sequence[StopKey]) -> str:
    """"H12-I15-J14" as a player would write the route."""
    return "-".join(stop_label(board_map, board, s) for s in stops)


class _Fail(Exception):
    """A route problem found while trying one reading of the player's stops."""

    def __init__(self, stage: int, message: str) -> None:
        super().__init__(message)
        self.stage = stage
        self.message = message


class _Outside(Exception):
    """A written stop has track outside the region of the company's stations (the
    RouteGraph has no number for it): check_run checks on the whole board's track."""


@dataclass
class _Written:
    train: str
    distance: Reach
    text: str
    options: list[list[int]]  # per written stop: the stop numbers it may mean
    tokens: list[str]


def check_run(
    board_map: Map,
    board: BoardState,
    corp: str,
    trains: Sequence[TrainSpec],
    explicit: Sequence[Mapping[str, Any]],
    column: str | int,
    rules: RevenueRules | None = None,
    cite: Callable[[str], str | None] = lambda key: None,
    make_graph: GraphMaker = RouteGraph,
    near_only: bool = False,
    local: Callable[[Map, BoardState], LocalTrack] = LocalTrack,
) -> Run:
    """Check routes a player wrote and realise them on the track.

    explicit: [{"train": "3", "stops": ["H12", "I15", "J14"]}, ...], the stops of each
    route in order, by hex; "G19.1"/"G19.2" name one stop of a hex with two (a plain
    hex is enough when only one of its stops fits).  Raises RulesError with a sentence
    for the player when a route is illegal or the routes cannot all be run at once.

    `near_only`: first on the track the legs between the written hexes' stops may
    travel (RouteGraph ``near``: a small part of a late board), when the caller needs no
    route search on the graph afterwards (no best run to compare); the same run when the
    routes are legal, and anything else is checked again on the company's region, for
    the same sentences.  Before that, on the board's track itself when each leg has one
    way (legs.direct_run: no route graph at all, only the hexes the legs walk, on the
    LocalTrack `local` makes).
    """
    rules = rules or RevenueRules()
    if near_only:
        parsed = _parsed(board_map, board, explicit)
        if parsed is not None:
            run = direct_run(board_map, local(board_map, board), corp, trains, parsed,
                             column, rules)
            if run is not None:
                return run
        near = _written_stops(board_map, board, explicit)
        if near is not None:
            graph = make_graph(board_map, board, corp, column,
                               rules.stop_values(board_map, board, column), near=near)
            try:
                return _checked(RouteSearch(graph, rules), board_map, board, corp, trains,
                                explicit, {}, cite)
            except (RulesError, _Outside):
                pass  # checked again below, on the region
    search = search_for(board_map, board, corp, column, rules, make_graph)
    untracked: dict[StopKey, int] = {}
    try:
        written = _read_written(board_map, board, corp, trains, explicit, search.graph,
                                untracked, cite)
    except _Outside:  # the whole board's track, for the same sentences as on the region
        search = search_for(board_map, board, corp, column, rules, make_graph, whole=True)
        untracked = {}
        written = _read_written(board_map, board, corp, trains, explicit, search.graph,
                                untracked, cite)
    return _realised(search, corp, written, untracked)


def _checked(search: RouteSearch, board_map: Map, board: BoardState, corp: str,
             trains: Sequence[TrainSpec], explicit: Sequence[Mapping[str, Any]],
             untracked: dict[StopKey, int], cite: Callable[[str], str | None]) -> Run:
    written = _read_written(board_map, board, corp, trains, explicit, search.graph,
                            untracked, cite)
    return _realised(search, corp, written, untracked)


def _parsed(board_map: Map, board: BoardState, explicit: Sequence[Mapping[str, Any]]
            ) -> list[tuple[str, list[list[StopKey]]]] | None:
    """Each written route's train (as written, stripped) and, per written stop, the
    stops of the board it may mean (as _read_stop reads them); None when a name is not
    a stop of the map (check_run words it)."""
    found = []
    for entry in explicit:
        options = []
        for token in entry.get("stops", []):
            match = _STOP.match(str(token))
            if match is None:
                return None
            try:
                coord = board_map.hex(match.group(1)).coord
            except KeyError:
                return None
            count = len(tile_at(board_map, board, coord)[0].stops)
            if match.group(2) is None:
                indexes = list(range(count))
            else:
                indexes = [int(match.group(2)) - 1]
            if not indexes or not all(0 <= i < count for i in indexes):
                return None
            options.append([(coord, i) for i in indexes])
        found.append((str(entry.get("train", "")).strip(), options))
    return found


def _written_stops(board_map: Map, board: BoardState, explicit: Sequence[Mapping[str, Any]]
                   ) -> frozenset[StopKey] | None:
    """Every stop of the hexes the routes name (None: a name that is not a hex)."""
    found: set[StopKey] = set()
    for entry in explicit:
        for token in entry.get("stops", []):
            match = _STOP.match(str(token))
            if match is None:
                return None
            try:
                coord = board_map.hex(match.group(1)).coord  # as _read_stop reads it
            except KeyError:
                return None
            tile, _ = tile_at(board_map, board, coord)
            found.update((coord, index) for index in range(len(tile.stops)))
    return frozenset(found)


def _realised(search: RouteSearch, corp: str, written: list[_Written],
              untracked: dict[StopKey, int]) -> Run:
    """The run of the written routes on the search's graph (RulesError: not legal)."""
    graph = search.graph
    readings = list(itertools.product(*(itertools.product(*w.options) for w in written)))
    results: list[list[tuple[list[int], list[int]]]] = []
    failure: _Fail | None = None
    for reading in readings:
        try:
            results.append(_realise(search, corp, written, [list(r) for r in reading],
                                    untracked))
        except _Fail as fail:
            if failure is None or fail.stage > failure.stage:
                failure = fail
    if not results:
        assert failure is not None
        raise RulesError(failure.message)
    if len(results) > 1:
        raise AmbiguousError(_ambiguity(graph.map, written, readings, results))
    routes = []
    for w, (stops, states) in zip(written, results[0], strict=True):
        revenue = sum(graph.value[x] for x in stops)
        revenue += search.end_bonus[stops[0]] + search.end_bonus[stops[-1]]
        routes.append(Route(w.train, tuple(graph.stops[x] for x in stops),
                            tuple(graph.segments_of(states)), revenue))
    return Run(tuple(routes), sum(r.revenue for r in routes))


def _ambiguity(
    board_map: Map, written: list[_Written], readings: list[Any], results: list[Any]
) -> str:
    stops_of = [[stops for stops, _ in result] for result in results]
    for i, w in enumerate(written):
        for j, token in enumerate(w.tokens):
            if len({tuple(r[i])[j] for r in stops_of}) > 1:
                coord = _STOP.match(token)
                hex_ = coord.group(1).upper().replace(" ", "") if coord else token
                return (f"{hex_} has more than one city on the {train_phrase(w.train)}'s "
                        f"route {w.text}: write {hex_}.1 or {hex_}.2.")
    return "These routes can be read in more than one way; number the cities (G19.1)."


def _read_written(
    board_map: Map,
    board: BoardState,
    corp: str,
    trains: Sequence[TrainSpec],
    explicit: Sequence[Mapping[str, Any]],
    graph: RouteGraph,
    untracked: dict[StopKey, int],
    cite: Callable[[str], str | None],
) -> list[_Written]:
    owned = TrainsByName(trains)
    written = []
    for entry in explicit:
        name = str(entry.get("train", "")).strip()
        if not owned.owns(name):
            raise RulesError(f"{corp} has no {train_phrase(name)}.")
        try:
            distance = owned.take(name)
        except NoTrainLeft:
            count = owned.count(name)
            if count == 1:
                raise RulesError(f"The {train_phrase(name)} is given more than one route; "
                                 "each train runs once.") from None
            raise RulesError(f"{corp} has {count} {train_phrase(name)}s but more routes are "
                             "given for them; each train runs once.", cite("run")) from None
        tokens = [str(t) for t in entry.get("stops", [])]
        options = [_read_stop(board_map, board, graph, token, untracked) for token in tokens]
        text = "-".join(t.strip().upper() for t in tokens)
        phrase = train_phrase(name)
        if len(tokens) < 2:
            raise RulesError(f"The {phrase}'s route {text} needs at least two cities.",
                             cite("route_stops"))
        _check_count(distance, [_kind(board_map, board, token) for token in tokens],
                     phrase, text, cite)
        written.append(_Written(name, distance, text, options, tokens))
    return written


def _check_count(distance: Reach, kinds: list[str], phrase: str, text: str,
                 cite: Callable[[str], str | None]) -> None:
    """The stops a train counts (6.4.1; a plus train's large cities and towns, 1830
    V-7.9)."""
    if fits(distance, kinds):
        return
    if not isinstance(distance, tuple):
        raise RulesError(f"The {phrase} counts at most {distance} stops; {text} has "
                         f"{len(kinds)}.", cite("route_stops"))
    towns = kinds.count("town")
    raise RulesError(f"The {phrase} counts at most {distance[0]} large cities (cities and "
                     f"off-boards) and {distance[1]} towns; {text} has "
                     f"{len(kinds) - towns} and {towns}.", cite("route_stops"))


def _kind(board_map: Map, board: BoardState, token: str) -> str:
    """What a written stop (read by _read_stop) is: city, town or offboard (G19.2: the
    second stop of G19; the stops of a hex of the rulebooks' maps are of one kind)."""
    match = _STOP.match(token)
    assert match is not None
    tile, _ = tile_at(board_map, board, board_map.hex(match.group(1)).coord)
    return tile.stops[int(match.group(2) or 1) - 1].kind


def _read_stop(
    board_map: Map, board: BoardState, graph: RouteGraph, token: str,
    untracked: dict[StopKey, int],
) -> list[int]:
    """The stop numbers a written stop may mean (a stop without track gets a negative
    number of its own: no track reaches it)."""
    match = _STOP.match(token)
    if not match:
        raise RulesError(f"{token.strip()!r} is not a city; write a hex like H12, or G19.1 "
                         "for one city of a hex with two.")
    try:
        coord = board_map.hex(match.group(1)).coord
    except KeyError as error:
        raise RulesError(str(error.args[0])) from None
    tile, _ = tile_at(board_map, board, coord)
    if not tile.stops:
        raise RulesError(f"{board_map.hex(coord).describe()} has no city, town or off-board "
                         "area to count.")
    if match.group(2) is not None:
        index = int(match.group(2)) - 1
        if not 0 <= index < len(tile.stops):
            names = " and ".join(f"{coord}.{i + 1}" for i in range(len(tile.stops)))
            raise RulesError(f"{coord} has only {names}.")
        indexes = [index]
    else:
        indexes = list(range(len(tile.stops)))
    numbers = []
    for i in indexes:
        key = (coord, i)
        if key in graph.number:
            numbers.append(graph.number[key])
        elif not graph.whole and ("stop", coord, i) in graph.graph.at:
            raise _Outside
        else:
            numbers.append(untracked.setdefault(key, -1 - len(untracked)))
    return numbers


def _realise(
    search: RouteSearch,
    corp: str,
    written: list[_Written],
    reading: list[list[int]],
    untracked: dict[StopKey, int],
) -> list[tuple[list[int], list[int]]]:
    """For one reading of the stops: check each route, then find track for all of them
    at once.  Returns per route (stop numbers, directed states in order)."""
    g = search.graph
    stations = set(g.stations)
    stations.update(n for key, n in untracked.items() if key in set(g.board.route_stations(corp)))
    names = [[_name(g, x, w.tokens[j]) for j, x in enumerate(stops)]
             for w, stops in zip(written, reading, strict=True)]
    for w, stops, label in zip(written, reading, names, strict=True):
        phrase = train_phrase(w.train)
        seen: set[int] = set()
        areas: set[str] = set()
        for j, x in enumerate(stops):
            if x in seen:
                raise _Fail(2, f"The {phrase}'s route {w.text} visits {label[j]} twice; a "
                               "route may not count the same city twice.")
            seen.add(x)
            area = g.area_name[x] if x >= 0 else None
            if area is not None:
                if area in areas:
                    raise _Fail(2, f"The {phrase}'s route {w.text} visits the off-board area "
                                   f"{area} twice.")
                areas.add(area)
        if not stations & seen:
            raise _Fail(3, f"The {phrase}'s route {w.text} does not include a {corp} station.")
        for x, text in zip(stops[1:-1], label[1:-1], strict=True):
            if x >= 0 and g.blocks[x]:
                if g.kinds[x] == "offboard":
                    area = g.area_name[x]
                    what = f"the off-board area {area}" if area else f"the off-board area {text}"
                    raise _Fail(4, f"A route may not pass through {what}.")
                coord = g.stops[x][0]
                raise _Fail(4, f"A {corp} route may not pass through "
                               f"{g.map.hexes[coord].describe()}: all its station spaces "
                               "hold other companies' stations.")
    # track for each leg (consecutive stops), one route at a time, then all at once
    legs = [[(a, b) for a, b in itertools.pairwise(stops)] for stops in reading]
    for i, w in enumerate(written):
        phrase = train_phrase(w.train)
        for j, (a, b) in enumerate(legs[i]):
            if not _legs_exist(search, a, b):
                detail = ""
                if a >= 0 and b >= 0 and g.reach(g.leave(a)) >> b & 1:
                    detail = (" without passing another city (a route counts every city it "
                              "passes)")
                raise _Fail(5, f"No track joins {names[i][j]} to {names[i][j + 1]} for the "
                               f"{phrase}{detail}.")
        got, deepest, _ = find_track(search, legs[i], 0)
        if got is None:
            j = min(deepest, len(legs[i]) - 1)
            raise _Fail(6, f"No track joins {names[i][j]} to {names[i][j + 1]} for the {phrase} "
                           "without reusing track.")
    all_legs = [leg for route in legs for leg in route]
    got, deepest, _ = find_track(search, all_legs, 0)
    if got is None:
        bounds = list(itertools.accumulate(len(route) for route in legs))
        late = next(i for i, end in enumerate(bounds) if deepest < end)
        early = 0
        for i in range(late):
            pair = legs[i] + legs[late]
            if find_track(search, pair, 0)[0] is None:
                early = i
                break
        first, second = train_phrase(written[early].train), train_phrase(written[late].train)
        if first == second:
            raise _Fail(7, f"The two {first}s' routes would share track; trains of one "
                           "company may not use the same track.")
        raise _Fail(7, f"The {first} and the {second} would share track; trains of one "
                       "company may not use the same track.")
    result = []
    at = 0
    for stops, route in zip(reading, legs, strict=True):
        states = [s for leg in got[at:at + len(route)] for s in leg]
        at += len(route)
        result.append((stops, states))
    return result


def _name(g: RouteGraph, x: int, token: str) -> str:
    if x >= 0:
        coord, index = g.stops[x]
        tile, _ = tile_at(g.map, g.board, coord)
        return f"{coord}.{index + 1}" if len(tile.stops) > 1 else coord
    return token.strip().upper()


def _legs_exist(search: RouteSearch, a: int, b: int) -> bool:
    if a < 0 or b < 0:
        return False
    toward = search.toward(b)
    return any(m.stop == b or (m.stop < 0 and m.end in toward)
               for m in search.graph.leave(a))


