"""The route search: the best run of a corporation's trains, exactly (1830 6.4, 6.4.1,
6.4.2, 6.5; 1870 the same rules).

best_run() finds the highest total a corporation's trains can earn and routes that
earn it; best_connection_run() the best run with one train from home to a destination;
has_route() answers quickly whether any train could run at all; legal_routes() lists
every route of one train.  Routes a player writes are read by board/written.py.

A route is a continuous trail on the track (routegraph.RouteGraph, built on
track.TrackGraph) visiting at least two stops (cities, towns, off-boards), one of
them holding a station of the corporation.  It never reverses at a junction, never
changes track at a crossover, uses no track (segment or hex side) twice, visits no
stop twice and no off-board area twice, passes through no off-board and no city whose
slots are all filled by other corporations' stations.  A train of distance N counts
every stop it passes, so its route has at most N stops (None: unlimited); a plus train
(1830 V-7.9: 2+2 = (2, 2)) counts large cities (cities and off-boards) and towns
apart, at most the first number of the one and the second of the other.  The trains
of one corporation share no track; they may meet at stops.

Revenue is the sum of the stop values in the phase's revenue column.  RevenueRules
carries the corporation's modifiers (1870: port/cattle tokens change a stop's value,
a destination marker adds the stop's value again when the stop ends a route).

How the search works and why it is exact: docs/routes.md.
"""

from __future__ import annotations

import bisect
import itertools
import operator
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from .map import BoardState, Map, tile_at
from .routegraph import Move, RouteGraph, StopKey

#: The first total (best_of) also starts the first train from each of its routes that
#: earn at most GREEDY_SLACK less than its best, if there are at most GREEDY_STARTS.
GREEDY_SLACK = 20
GREEDY_STARTS = 30

#: Routes of the last train listed at most for pairing with the train before it.
LAST_LIST = 20000
#: Listed routes of the last train a pair looks at when a search follows anyway.
PAIR_LOOK = 500

#: Listed routes a best-route question looks at before it searches (_best_listed).
LISTED_LOOK = 256

#: Ways between two neighbouring stops kept in memory (more are walked when needed).
WAYS = 64

#: The stops a train counts: a number (None: unlimited, the diesel), or for a plus
#: train (large cities, towns), large cities being cities and off-boards (1830 V-7.9).
Reach = int | tuple[int, int] | None

#: A train as the search sees it: (name, reach).
TrainSpec = tuple[str, Reach]


def reach_name(reach: Reach) -> str:
    """The train a reach describes: 4, 2+2, D."""
    if isinstance(reach, tuple):
        return f"{reach[0]}+{reach[1]}"
    return str(reach or "D")


def _stop_count(reach: Reach) -> int | None:
    """The most stops a route of `reach` has (None: any)."""
    return sum(reach) if isinstance(reach, tuple) else reach


def fits(reach: Reach, kinds: Sequence[str]) -> bool:
    """Whether a route whose stops are of `kinds` ("city", "town", "offboard") is one
    a train of `reach` may run."""
    if not isinstance(reach, tuple):
        return reach is None or len(kinds) <= reach
    towns = sum(1 for kind in kinds if kind == "town")
    return towns <= reach[1] and len(kinds) - towns <= reach[0]


@dataclass(frozen=True)
class RevenueRules:
    """A corporation's revenue modifiers (the 1870 inputs; 1830 needs none).

    A stop is named by (hex, stop index) or, for every stop of a hex, by the hex alone.

    values: stop -> value replacing the printed one of the phase's column.
    bonuses: stop -> amount added to its value for this corporation (1870 cattle token:
    +10 for the owning corporation; port token: +20 for the owner, and +10 for every
    other corporation while the port is open).
    destination: the corporation's destination once its destination marker is placed
    (1870): a route that ends there counts the destination's value (with its bonus)
    twice ("doubles the value of the city ... if that city is at the end of a run").
    end_bonus: stop -> amount added when a route starts or ends there (the general
    hook destination uses; given amounts add to the doubling).
    """

    values: Mapping[StopKey, int] = field(default_factory=dict)
    end_bonus: Mapping[StopKey | str, int] = field(default_factory=dict)
    bonuses: Mapping[StopKey | str, int] = field(default_factory=dict)
    destination: StopKey | str | None = None

    def stop_values(self, board_map: Map, board: BoardState, column: str | int
                    ) -> dict[StopKey, int]:
        """Every stop whose value differs from the printed one: value for this
        corporation (replacements and bonuses)."""
        result = dict(self.values)
        for key, amount in _per_stop(board_map, board, self.bonuses).items():
            result[key] = _printed(board_map, board, key, column, result) + amount
        return result

    def end_values(self, board_map: Map, board: BoardState, column: str | int
                   ) -> dict[StopKey, int]:
        """Every stop with an end bonus: the amount a route ending there adds."""
        result = _per_stop(board_map, board, self.end_bonus)
        if self.destination is not None:
            values = self.stop_values(board_map, board, column)
            for key in _per_stop(board_map, board, {self.destination: 0}):
                result[key] = result.get(key, 0) + _printed(board_map, board, key, column,
                                                            values)
        return result


def _per_stop(board_map: Map, board: BoardState, given: Mapping[StopKey | str, int]
              ) -> dict[StopKey, int]:
    """Amounts by (hex, stop index): a hex alone stands for each of its stops."""
    result: dict[StopKey, int] = {}
    for key, amount in given.items():
        if isinstance(key, str):
            tile, _ = tile_at(board_map, board, board_map.hex(key).coord)
            keys = [(board_map.hex(key).coord, i) for i in range(len(tile.stops))]
        else:
            keys = [key]
        for k in keys:
            result[k] = result.get(k, 0) + amount
    return result


def _printed(board_map: Map, board: BoardState, key: StopKey, column: str | int,
             values: Mapping[StopKey, int]) -> int:
    """The stop's value in the column (or its replacement in `values`)."""
    if key in values:
        return values[key]
    if isinstance(column, int):
        column = board_map.revenue_columns[column]
    tile, _ = tile_at(board_map, board, key[0])
    if key[1] >= len(tile.stops):
        return 0
    return tile.stops[key[1]].value(column)


@dataclass(frozen=True)
class Route:
    """One train's route: stops (hex, stop index) in travel order, the track segments
    used as (hex, path index of the hex's current tile) in travel order, the revenue."""

    train: str
    stops: tuple[StopKey, ...]
    segments: tuple[tuple[str, int], ...]
    revenue: int


@dataclass(frozen=True)
class Run:
    """The routes of a corporation's trains (trains that run nothing are left out)."""

    routes: tuple[Route, ...]
    total: int


# -- the search ---------------------------------------------------------------------------------

#: A route found by the search: (revenue, track bits, station, stop numbers in travel
#: order, directed segment states in travel order, stops bits visited).
_Found = tuple[int, int, int, tuple[int, ...], tuple[int, ...], int]

#: The stops a route may visit next: (stop number, mask of the cstates arriving there).
_Next = list[tuple[int, int]]


class _TooMany(Exception):
    """More routes than a listing may hold (see RouteSearch.routes, `most`)."""


#: what RouteSearch.routes remembers for a listing that raised _TooMany
_TOO_MANY: list[_Found] = []


class RouteSearch:
    """Routes of one corporation on one position (see docs/routes.md).

    The search runs over sequences of stops: from a stop, the next stops are those some
    track through junctions only reaches (RouteGraph moves), remembering by which track
    a route may arrive (the arriving cstates) so it leaves by another.  Which track joins
    two stops is chosen only for a complete sequence (realise): many routes share their
    stops and differ only in the track between them (parallel track, junction tiles).
    """

    def __init__(self, graph: RouteGraph, rules: RevenueRules) -> None:
        self.graph = graph
        ends = rules.end_values(graph.map, graph.board, graph.column)
        self.end_bonus = [ends.get(key, 0) for key in graph.stops]
        #: track no route may use (the connection train's, see best_connection_run)
        self.blocked = 0
        self.max_end_bonus = max(self.end_bonus, default=0)
        self.stats = {"nodes": 0, "checked": 0}
        self._toward: dict[int, set[int]] = {}
        self._arrival = graph.arrival_stop
        self._hop = graph.hop_arrivals
        self._free: dict[tuple[int, int, int], _Next] = {}  # next stops of stations
        self._after_free: dict[int, tuple[_Next, int]] = {}
        self._common: dict[tuple[int, int], int] = {}
        #: per stop a, per next stop b: (common(a, b), the tracks of the ways from a to
        #: b when more than one (None: no need to look, see leg))
        self._legs: list[dict[int, tuple[int, tuple[int, ...] | None]]] = [
            {} for _ in graph.stops]
        self._reach: dict[tuple[int, int], int] = {}
        self._union: dict[tuple[int, int], int] = {}
        self._sure: dict[tuple[int, ...], int] = {}
        self._ways: dict[tuple[int, int], list[tuple[list[int], int]] | None] = {}
        self._routes: dict[tuple[Reach, int, int, bool, int | None], list[_Found]] = {}
        #: the complete listings made, per reach: (threshold, used, routes best first)
        self._listed: dict[Reach, list[tuple[int, int, list[_Found]]]] = {}

    # -- next stops ----------------------------------------------------------------------------

    def nexts(self, moves: Sequence[Move]) -> _Next:
        """The stops a route starting with one of `moves` may have next (through
        junctions only), with the cstates arriving there; in stop number order."""
        arrivals = 0
        hop = self._hop
        for m in moves:
            arrivals |= 1 << m.end if m.stop >= 0 else hop[m.end]
        by_stop: dict[int, int] = {}
        arrival = self._arrival
        while arrivals:
            low = arrivals & -arrivals
            arrivals ^= low
            cid = low.bit_length() - 1
            y = arrival[cid]
            by_stop[y] = by_stop.get(y, 0) | low
        return sorted(by_stop.items())

    def toward(self, b: int) -> set[int]:
        """The cstates from which moves through junctions only may reach stop `b`."""
        good = self._toward.get(b)
        if good is not None:
            return good
        into, into_stop = self.graph.sources
        good = set(into_stop.get(b, ()))
        work = list(good)
        while work:
            for source in into.get(work.pop(), []):
                if source not in good:
                    good.add(source)
                    work.append(source)
        self._toward[b] = good
        return good

    def ways(self, a: int, b: int) -> list[tuple[list[int], int]] | None:
        """Every way (directed states, track bits) from stop a to stop b through
        junctions only; None when there are more than WAYS (then they are walked anew)."""
        key = (a, b)
        if key not in self._ways:
            found: list[tuple[list[int], int]] | None = []
            for way in _walk_ways(self, a, b, 0):
                assert found is not None
                found.append(way)
                if len(found) > WAYS:
                    found = None
                    break
            self._ways[key] = found
        return self._ways[key]

    def common(self, a: int, b: int) -> int:
        """Track every way from stop a to stop b (through junctions only) uses: part of
        every realisation of a route with a and b next to each other (0 if unknown)."""
        key = (a, b)
        if key not in self._common:
            ways = self.ways(a, b)
            bits = 0
            if ways:
                bits = ways[0][1]
                for _, track in ways:
                    bits &= track
            self._common[key] = bits
        return self._common[key]

    def sure(self, stops: tuple[int, ...]) -> int:
        """Track every realisation of the stop sequence `stops` uses."""
        bits = self._sure.get(stops)
        if bits is None:
            bits = 0
            for a, b in itertools.pairwise(stops):
                bits |= self.common(a, b)
            self._sure[stops] = bits
        return bits

    def leg(self, a: int, b: int) -> tuple[int, tuple[int, ...] | None]:
        """(common(a, b), the tracks of the ways from a to b), remembered per a: a step
        from a to b is refused when the common track meets the track the route uses, or
        when every way meets it (free_way).  The tracks are None when the first test
        decides (one way: its track is the common track; more than WAYS: any way may
        be free)."""
        row = self._legs[a]
        got = row.get(b)
        if got is None:
            ways = self.ways(a, b)
            tracks = None if ways is None or len(ways) == 1 else tuple(t for _, t in ways)
            got = row[b] = (self.common(a, b), tracks)
        return got

    def start_reach(self, s: int, used: int) -> int:
        """The stops walks from station `s` reach without the track `used`."""
        key = (s, used)
        got = self._reach.get(key)
        if got is None:
            got = self._reach[key] = self.graph.reach_avoiding(self.graph.leave(s), used)
        return got

    def free_way(self, a: int, b: int, used: int) -> bool:
        """Whether some way from stop a to stop b may avoid the track `used`."""
        ways = self.ways(a, b)
        return ways is None or any(not track & used for _, track in ways)

    def union(self, a: int, b: int) -> int:
        """Track some way from stop a to stop b may use (-1: any)."""
        key = (a, b)
        if key not in self._union:
            ways = self.ways(a, b)
            bits = -1
            if ways is not None:
                bits = 0
                for _, track in ways:
                    bits |= track
            self._union[key] = bits
        return self._union[key]

    # -- routes ------------------------------------------------------------------------------------

    def routes(
        self, reach: Reach, threshold: int, used: int = 0, best: bool = False,
        most: int | None = None,
    ) -> list[_Found]:
        """_routes(...), remembered: the steps of best_routes ask the same again (the
        greedy totals, each train kept off a station exit), a light position's search
        mostly.  A new list each time (callers sort theirs)."""
        key = (reach, threshold, used | self.blocked, best, most)
        got = self._routes.get(key)
        if got is None and best:
            got = self._best_listed(reach, threshold, used | self.blocked)
            if got is not None:
                self._routes[key] = got
        if got is None:
            try:
                got = self._routes[key] = self._search(reach, threshold, used, best, most)
            except _TooMany:
                got = self._routes[key] = _TOO_MANY
            else:
                if not best:
                    self._listed.setdefault(reach, []).append(
                        (threshold, used | self.blocked, sorted(got, key=_minus_revenue)))
        if got is _TOO_MANY:
            raise _TooMany
        return list(got)

    def _best_listed(self, reach: Reach, threshold: int, used: int) -> list[_Found] | None:
        """The answer of _search(reach, threshold, used, best=True) read from a listing
        made before, when one decides it (None: search).

        A listing of the routes earning at least t on track not in u (u within `used`)
        holds every route the search could return that earns t or more, found by the
        same depth-first steps in the same order (a branch holding such a route is never
        cut, see _search).  So the first of its routes, best first and in the order
        found among equals, that has track outside `used` (find_track, as the search
        would take it) is the search's answer; with none, the answer is no route when
        `threshold` >= t, and unknown otherwise.  Looks at LISTED_LOOK routes at most.
        """
        for listed_threshold, listed_used, ordered in self._listed.get(reach, ()):
            if listed_used & ~used:
                continue
            for count, found in enumerate(ordered):
                if found[0] < threshold:
                    break
                if count == LISTED_LOOK:
                    return None
                if self.sure(found[3]) & used:
                    continue
                legs = list(itertools.pairwise(found[3]))
                got, _, track = find_track(self, legs, used)
                if got is not None:
                    return [(found[0], track, found[2], found[3], _flat(got), found[5])]
            if threshold >= listed_threshold:
                return []
        return None

    def _search(
        self, reach: Reach, threshold: int, used: int = 0, best: bool = False,
        most: int | None = None,
    ) -> list[_Found]:
        """Every stop sequence of a legal route of a train of `reach` (at most so many
        stops; a plus train: so many of each kind)
        with revenue >= `threshold` on track not in `used`, each once (one direction),
        with one track for it.  With best=True only the best one: the threshold rises
        past each route found.

        A route is searched from its first station (in stop number order): out from the
        station to one end ("first half"), then from the station again to the other end
        ("second half"; when the station is inside the route, the halves leave it by
        different first moves).  A branch is cut when even the most valuable stops it
        could still reach do not make the threshold (RouteGraph.ahead).  A complete
        sequence counts once track is found for it (realise).
        """
        used |= self.blocked
        g = self.graph
        value, area, blocks, ahead = g.value, g.area, g.blocks, g.ahead
        all_moves = g.moves
        end_bonus = self.end_bonus
        eb1 = self.max_end_bonus
        eb2 = 2 * eb1
        limit = _stop_count(reach)
        cap = limit if limit is not None else 1 << 30
        kinds = g.kinds if isinstance(reach, tuple) else None
        found: list[_Found] = []
        done: set[tuple[int, ...]] = set()
        first_half: list[int] = []
        second_half: list[int] = []
        thr = threshold
        station = -1
        nodes = 0
        # next stops ignore `used`: each step checks that some way avoids it
        after_memo = self._after_free
        leg, legs = self.leg, self._legs

        def left(k: int) -> int | None:
            return None if limit is None else limit - k

        def after(arrivals: int) -> tuple[_Next, int]:
            """The next stops after arriving by the cstates `arrivals` (and as a mask)."""
            got = after_memo.get(arrivals)
            if got is None:
                moves: list[Move] = []
                rest = arrivals
                while rest:
                    low = rest & -rest
                    rest ^= low
                    moves.extend(all_moves[low.bit_length() - 1])
                nxt = self.nexts(moves)
                got = after_memo[arrivals] = (nxt, mask(nxt))
            return got

        def emit(total: int, stops: int) -> None:
            nonlocal thr
            sequence = (*reversed(first_half), station, *second_half)
            key = min(sequence, sequence[::-1])
            if key in done:
                return
            done.add(key)
            if kinds is not None and not fits(reach, [kinds[x] for x in sequence]):
                return  # a plus train's count of one kind is exceeded
            self.stats["checked"] += 1
            legs = list(itertools.pairwise(sequence))
            got, _, track = find_track(self, legs, used)
            if got is None:
                return
            states = tuple(s for leg in got for s in leg)
            item = (total, track, station, sequence, states, stops)
            if best:
                found[:] = [item]
                thr = total + 1
            else:
                found.append(item)
                if most is not None and len(found) > most:
                    raise _TooMany

        def mask(options: _Next) -> int:
            bits = 0
            for y, _ in options:
                bits |= 1 << y
            return bits

        def second(options: _Next, stops: int, k: int, rev: int, e1: int, prev: int,
                   must: int) -> None:
            """The second half, out from the station; e1: bonus of the first end; prev:
            the last stop; must: track the route surely uses (and `used`)."""
            nonlocal nodes
            if k >= cap:
                return
            rest = None if limit is None else limit - k - 1
            row = legs[prev]
            for y, arrivals in options:
                if (1 << y) & stops:
                    continue
                sure, tracks = row.get(y) or leg(prev, y)
                if sure & must:
                    continue  # two legs would need the same track
                if used and tracks is not None:
                    for track in tracks:
                        if not track & must:
                            break
                    else:
                        continue  # every way meets the track taken
                nodes += 1
                rev2 = rev + value[y]
                second_half.append(y)
                total = rev2 + e1 + end_bonus[y]
                stops2 = stops | area[y]
                if total >= thr:
                    emit(total, stops2)
                if k + 1 < cap and not blocks[y]:
                    nxt, nxt_mask = after_memo.get(arrivals) or after(arrivals)
                    bound, _ = ahead(nxt_mask, stops2, rest, 1, 1 << y)
                    if rev2 + e1 + eb1 + bound >= thr:
                        second(nxt, stops2, k + 1, rev2, e1, y, must | sure)
                second_half.pop()

        def first(options: _Next, stops: int, k: int, rev: int, rest: _Next,
                  rest_next: int, prev: int, must: int) -> None:
            """The first half, out from the station; `rest`: where the second half may
            go first (the station's later moves), as a mask `rest_next`."""
            nonlocal nodes
            if k + 1 >= cap:
                return  # the second half needs a stop too
            more = None if limit is None else limit - k - 1
            row = legs[prev]
            for y, arrivals in options:
                if (1 << y) & stops:
                    continue
                sure, tracks = row.get(y) or leg(prev, y)
                if sure & must:
                    continue
                if used and tracks is not None:
                    for track in tracks:
                        if not track & must:
                            break
                    else:
                        continue
                nodes += 1
                rev2 = rev + value[y]
                stops2 = stops | area[y]
                e1 = end_bonus[y]
                first_half.append(y)
                bound, reach = ahead(rest_next, stops2, more, 1, 1 << station)
                if reach and rev2 + e1 + eb1 + bound >= thr:
                    second(rest, stops2, k + 1, rev2, e1, station, must | sure)
                if k + 2 < cap and not blocks[y]:
                    nxt, nxt_mask = after_memo.get(arrivals) or after(arrivals)
                    bound, _ = ahead(nxt_mask | rest_next, stops2, more, 2,
                                     1 << y | 1 << station)
                    if rev2 + eb2 + bound >= thr:
                        first(nxt, stops2, k + 1, rev2, rest, rest_next, y, must | sure)
                first_half.pop()

        lower = 0
        every = (1 << len(g.stops)) - 1
        try:
            for s in g.stations:
                station = s
                stops0 = area[s] | lower
                lower |= 1 << s
                start = g.leave(s)
                if cap < 2 or not start:
                    continue
                if used:  # stops the track left cannot reach count as visited
                    stops0 |= every & ~self.start_reach(s, used)
                every_first = self._departures(s, 0, len(start))
                bound, _ = ahead(mask(every_first), stops0, left(1), 1, 1 << s)
                if value[s] + end_bonus[s] + eb1 + bound >= thr:  # the station at one end
                    second(every_first, stops0, 1, value[s], end_bonus[s], s, used)
                if blocks[s]:
                    continue  # an off-board station is never passed through
                for i in range(len(start) - 1):  # the station inside the route
                    options = self._departures(s, i, i + 1)
                    rest = self._departures(s, i + 1, len(start))
                    if not options or not rest:
                        continue
                    rest_next = mask(rest)
                    bound, _ = ahead(mask(options) | rest_next, stops0, left(1), 2, 1 << s)
                    if value[s] + eb2 + bound >= thr:
                        first(options, stops0, 1, value[s], rest, rest_next, s, used)
        finally:
            _unlink(first, second)
        self.stats["nodes"] += nodes
        return found

    def _departures(self, s: int, i: int, j: int) -> _Next:
        """The next stops of station `s` leaving by its moves i..j-1."""
        key = (s, i, j)
        got = self._free.get(key)
        if got is None:
            got = self._free[key] = self.nexts(self.graph.leave(s)[i:j])
        return got

    def connections(self, home: int, dest: int, reach: Reach, threshold: int
                    ) -> list[_Found]:
        """Every stop sequence of a legal route with the ends `home` and `dest` (1870
        connection run: the train may not run beyond either) of a train of `reach`
        earning at least `threshold`, with one track for it; best first."""
        g = self.graph
        value, area, blocks, ahead = g.value, g.area, g.blocks, g.ahead
        limit = _stop_count(reach)
        cap = limit if limit is not None else 1 << 30
        stations = set(g.stations)
        ends = self.end_bonus[home] + self.end_bonus[dest]
        # the fewest stops after x up to dest, through stops a route may pass
        first = self.nexts(g.leave(home))
        follow = list(g.adj)  # adj: after arriving; a route may leave home by any track
        follow[home] |= _mask(first)
        hops = {dest: 0}
        layer = [dest]
        while layer:
            nxt = []
            for y in layer:
                for x in range(len(g.stops)):
                    if x not in hops and follow[x] >> y & 1 and (not blocks[x] or x == home):
                        hops[x] = hops[y] + 1
                        nxt.append(x)
            layer = nxt
        found: list[_Found] = []
        sequence = [home]

        def step(options: _Next, stops: int, k: int, rev: int, prev: int, must: int) -> None:
            for y, arrivals in options:
                if (1 << y) & stops or y == home:
                    continue
                far = hops.get(y)
                if far is None or k + 1 + far > cap:
                    continue
                sure = self.common(prev, y)
                if sure & must or not self.free_way(prev, y, must):
                    continue
                self.stats["nodes"] += 1
                rev2 = rev + value[y]
                sequence.append(y)
                if y == dest:
                    if rev2 + ends >= threshold and stations & set(sequence) and \
                            fits(reach, [g.kinds[x] for x in sequence]):
                        legs = list(itertools.pairwise(sequence))
                        got, _, track = find_track(self, legs, self.blocked)
                        if got is not None:
                            found.append((rev2 + ends, track, home, tuple(sequence),
                                          _flat(got), stops | area[y]))
                elif not blocks[y]:
                    moves = [m for cid in _bits(arrivals) for m in g.moves[cid]]
                    options2 = self.nexts(moves)
                    stops2 = stops | area[y]
                    left = None if limit is None else cap - k - 1
                    bound, reached = ahead(_mask(options2), stops2, left, 1, 1 << y)
                    if reached >> dest & 1 and rev2 + bound + ends >= threshold:
                        step(options2, stops2, k + 1, rev2, y, must | sure)
                sequence.pop()

        if home != dest and cap >= 2 and home in hops:
            step(first, area[home], 1, value[home], home, self.blocked)
        found.sort(key=lambda f: (-f[0], f[3]))
        return found

    def realisations(self, found: _Found, used: int) -> Iterator[tuple[int, tuple[int, ...]]]:
        """Every track (bits, directed states) realising the stops of `found` without
        the track `used`."""
        legs = list(itertools.pairwise(found[3]))
        for states, track in _realisations(self, legs, used):
            yield track, tuple(states)

    def route(self, found: _Found, train: str) -> Route:
        """The Route of a search result."""
        g = self.graph
        total, _, _, stops, states, _ = found
        return Route(train, tuple(g.stops[x] for x in stops), tuple(g.segments_of(list(states))),
                     total)


def _unlink(*functions: object) -> None:
    """Empty the closure cells through which these inner functions call each other
    (or themselves), once they are done: a recursive closure is a reference cycle,
    which only the garbage collector would free, and a search makes many (its time
    grew by about a tenth with the collections)."""
    for function in functions:
        for cell in getattr(function, "__closure__", None) or ():
            try:
                held = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if held in functions:
                cell.cell_contents = None


def _bits(mask: int) -> Iterator[int]:
    """The positions of the set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        mask ^= low
        yield low.bit_length() - 1


def _mask(options: _Next) -> int:
    bits = 0
    for y, _ in options:
        bits |= 1 << y
    return bits


def _minus_revenue(found: _Found) -> int:
    return -found[0]


def _flat(legs: list[list[int]]) -> tuple[int, ...]:
    return tuple(s for leg in legs for s in leg)


def _with(found: _Found, track: int, states: tuple[int, ...]) -> _Found:
    return (found[0], track, found[2], found[3], states, found[5])


def _reach_key(reach: Reach) -> tuple[int, int]:
    """Longest first; trains of the same reach next to each other."""
    count = _stop_count(reach)
    return (-(1 << 30) if count is None else -count,
            reach[1] if isinstance(reach, tuple) else -1)


class GraphMaker(Protocol):
    """What makes the RouteGraph of a position: RouteGraph itself, or a caller's
    function that keeps them (the engine's orrun.route_graph)."""

    def __call__(self, board_map: Map, board: BoardState, corp: str, column: str | int,
                 values: Mapping[StopKey, int] | None = None, *,
                 whole: bool = False, near: frozenset[StopKey] | None = None
                 ) -> RouteGraph: ...


def search_for(
    board_map: Map, board: BoardState, corp: str, column: str | int, rules: RevenueRules,
    make_graph: GraphMaker = RouteGraph, whole: bool = False,
) -> RouteSearch:
    """The search of `corp`'s routes (on its stations' region of the track; `whole`:
    on all of it, see RouteGraph)."""
    graph = make_graph(board_map, board, corp, column,
                       rules.stop_values(board_map, board, column), whole=whole)
    return RouteSearch(graph, rules)


def best_run(
    board_map: Map,
    board: BoardState,
    corp: str,
    trains: Sequence[TrainSpec],
    column: str | int,
    rules: RevenueRules | None = None,
    make_graph: GraphMaker = RouteGraph,
) -> Run:
    """The highest total `corp`'s trains can earn now, and routes that earn it.

    trains: (name, Reach) per train.  column: the revenue column of the phase (a
    name, or an index into Map.revenue_columns).  Exact: see
    docs/routes.md.  Routes are listed in the order of `trains`; trains without a
    route are left out.
    """
    rules = rules or RevenueRules()
    search = search_for(board_map, board, corp, column, rules, make_graph)
    return best_of(search, list(trains))


@dataclass(frozen=True)
class ConnectionRun:
    """An 1870 connection run: the connection train's route and the whole run (the
    connection route among the routes of all trains, in the order of the trains)."""

    connection: Route
    run: Run

    @property
    def total(self) -> int:
        return self.run.total


def best_connection_run(
    board_map: Map,
    board: BoardState,
    corp: str,
    trains: Sequence[TrainSpec],
    column: str | int,
    home: StopKey | str,
    destination: StopKey | str,
    rules: RevenueRules | None = None,
    make_graph: GraphMaker = RouteGraph,
) -> ConnectionRun | None:
    """The best 1870 connection run ("one train must run from the starting city to the
    destination and may not run beyond either location ... The company's other trains
    may run other routes"), or None when no train can run from `home` to `destination`.

    home, destination: (hex, stop index), or a hex with one stop.  rules as for
    best_run (with `destination` set when the marker is placed for the run, the
    connection route, which ends there, counts the destination twice).  Exact: every
    train is tried as the connection train, every connection route that could be part
    of a better total, each of its tracks; the other trains run their best around it.
    """
    rules = rules or RevenueRules()
    search = search_for(board_map, board, corp, column, rules, make_graph)
    g = search.graph
    ends = [_per_stop(board_map, board, {key: 0}) for key in (home, destination)]
    if any(len(e) != 1 for e in ends):
        raise ValueError("home and destination must each name one stop")
    numbers = [g.number.get(next(iter(e))) for e in ends]
    start, goal = numbers
    if start is None or goal is None:
        return None
    trains = list(trains)
    best: tuple[int, list[Route | None], Route] | None = None
    tried: set[Reach] = set()
    for index, (name, distance) in enumerate(trains):
        if distance in tried:
            continue  # identical trains are interchangeable
        tried.add(distance)
        others = trains[:index] + trains[index + 1:]
        upper = best_of(search, others).total  # the others with no connection route
        floor = 0 if best is None else best[0] + 1 - upper
        for found in search.connections(start, goal, distance, floor):
            if best is not None and found[0] + upper <= best[0]:
                break
            for track, states in search.realisations(found, 0):
                search.blocked = track
                try:
                    routes = best_routes(search, others)
                finally:
                    search.blocked = 0
                total = found[0] + sum(r.revenue for r in routes if r is not None)
                if best is None or total > best[0]:
                    route = search.route(_with(found, track, states), name)
                    best = (total, [*routes[:index], route, *routes[index:]], route)
                if total == found[0] + upper:
                    break  # the others do as well as without the connection route
    if best is None:
        return None
    result = tuple(r for r in best[1] if r is not None)
    return ConnectionRun(best[2], Run(result, best[0]))


def best_of(search: RouteSearch, trains: list[TrainSpec]) -> Run:
    """The exact best assignment of routes to trains (see docs/routes.md)."""
    result = tuple(r for r in best_routes(search, trains) if r is not None)
    return Run(result, sum(r.revenue for r in result))


def beats(
    board_map: Map,
    board: BoardState,
    corp: str,
    trains: Sequence[TrainSpec],
    column: str | int,
    total: int,
    rules: RevenueRules | None = None,
    make_graph: GraphMaker = RouteGraph,
) -> bool:
    """Whether `corp`'s trains can earn more than `total` now, where some legal run
    earns `total` (a run the president wrote): best_run(...).total > total, answered
    without finding the best.  Exact for the same reason as best_run: _combine, given
    a total some assignment earns, finds a better one when there is one (steps 4 and
    5 of docs/routes.md); the first totals best_run starts from (steps 1-3) only
    raise its starting total, and a run that is already the best needs none of them.
    """
    search = search_for(board_map, board, corp, column, rules or RevenueRules(), make_graph)
    dist, upper, _ = _uppers(search, list(trains))
    if not dist or sum(upper) <= total:
        return False
    if len(dist) == 1:
        return upper[0] > total
    choice: list[_Found | None] = [None] * len(dist)
    _combine(search, dist, upper, total, choice)
    return any(found is not None for found in choice)


def earns(
    board_map: Map,
    board: BoardState,
    corp: str,
    reach: Reach,
    column: str | int,
    threshold: int,
    rules: RevenueRules | None = None,
    make_graph: GraphMaker = RouteGraph,
) -> bool:
    """Whether one train of reach `reach` has a route earning at least `threshold`:
    best_run(..., [(name, reach)], ...).total >= threshold (one train's best run is its
    best route), asked of the search with that threshold, which cuts every branch that
    cannot earn it."""
    if threshold < 1:
        raise ValueError("earns() answers for a threshold of at least 1")
    search = search_for(board_map, board, corp, column, rules or RevenueRules(), make_graph)
    return bool(search.graph.stations) and bool(search.routes(reach, threshold, best=True))


def _uppers(search: RouteSearch, trains: list[TrainSpec]
            ) -> tuple[list[Reach], list[int], dict[Reach, _Found | None]]:
    """The trains' reaches, longest first with identical ones next to each other; the
    most each earns alone (an upper bound for each train in any assignment); each
    reach's best route alone.  No trains when the company has no station."""
    if not trains or not search.graph.stations:
        return [], [], {}
    dist = [trains[i][1] for i in _train_order(trains)]
    alone: dict[Reach, _Found | None] = {}
    for d in dist:
        if d not in alone:
            got = search.routes(d, 1, best=True)
            alone[d] = got[0] if got else None
    return dist, [_revenue(alone[d]) for d in dist], alone


def _train_order(trains: list[TrainSpec]) -> list[int]:
    """The trains' indexes, longest first; identical trains next to each other."""
    return sorted(range(len(trains)), key=lambda i: (*_reach_key(trains[i][1]), i))


def best_routes(search: RouteSearch, trains: list[TrainSpec]) -> list[Route | None]:
    """Per train (in the order of `trains`) its route in a best assignment."""
    order = _train_order(trains)
    dist, upper, alone = _uppers(search, trains)
    n = len(dist)
    if n == 0:
        return [None] * len(trains)

    # a first total: each train in turn takes the best route on the track left over;
    # then the same with one train starting from one of its best few routes
    def greedy(start: int, first: _Found) -> tuple[int, list[_Found | None]]:
        total = first[0]
        used = search.blocked | first[1]
        taken: list[_Found | None] = [None] * n
        taken[start] = first
        rest = sum(upper) - upper[start]
        for i, d in enumerate(dist):
            if i == start:
                continue
            rest -= upper[i]
            found = None
            if upper[i]:
                # with one train left, only a route that beats the best total matters
                need = best_total + 1 - total if i == n - 1 or rest == 0 else 1
                got = search.routes(d, max(need, 1), used, best=True)
                found = got[0] if got else None
            taken[i] = found
            if found is not None:
                total += found[0]
                used |= found[1]
        return total, taken

    best_total = 0
    best_choice: list[_Found | None] = [None] * n
    first = alone[dist[0]]
    if first is not None:
        best_total, best_choice = greedy(0, first)
    for start in range(n):
        if start and dist[start] == dist[start - 1] or best_total >= sum(upper):
            continue
        tops = _greedy_starts(search, dist[start], upper[start])
        for top in tops:
            if top[0] + sum(upper) - upper[start] <= best_total:
                break
            total, taken = greedy(start, top)
            if total > best_total:
                best_total, best_choice = total, taken

    # and with one train kept off a station exit its route takes (when one train's
    # best route takes every exit, the others get nothing), while that pays
    g = search.graph
    tried: set[tuple[Reach, int]] = set()
    better = n > 1
    while better and best_total < sum(upper):
        better = False
        for start in range(n):
            mine = best_choice[start]
            if mine is None:
                continue
            for station in g.stations:
                for move in g.leave(station):
                    if not move.track & mine[1] or (dist[start], move.track) in tried:
                        continue
                    tried.add((dist[start], move.track))
                    # only a route that could raise the best total matters (the best
                    # route found is the same with a higher threshold when it makes it)
                    need = max(1, best_total + 1 - (sum(upper) - upper[start]))
                    got = search.routes(dist[start], need, move.track, best=True)
                    if got and got[0][0] + sum(upper) - upper[start] > best_total:
                        total, taken = greedy(start, got[0])
                        if total > best_total:
                            best_total, best_choice = total, taken
                            better = True

    if n > 1 and best_total < sum(upper):
        _combine(search, dist, upper, best_total, best_choice)

    routes: list[Route | None] = [None] * len(trains)
    for position, found in enumerate(best_choice):
        if found is not None:
            index = order[position]
            routes[index] = search.route(found, trains[index][0])
    return routes


def _greedy_starts(search: RouteSearch, reach: Reach, upper: int) -> list[_Found]:
    """The routes a greedy total starts from: those earning at least `upper` - slack,
    for the largest slack (0, 10, ... GREEDY_SLACK) that lists at most GREEDY_STARTS;
    best first.  Tried from the largest slack down: a listing with a lower threshold
    holds the routes of one with a higher threshold, found by the same steps (a branch
    holding a route is never cut below its revenue), so it lists the same routes."""
    for slack in range(GREEDY_SLACK - GREEDY_SLACK % 10, -1, -10):
        try:
            tops = search.routes(reach, max(upper - slack, 1), most=GREEDY_STARTS)
        except _TooMany:
            continue
        tops.sort(key=lambda f: (-f[0], f[3]))
        return tops
    return []


def _revenue(found: _Found | None) -> int:
    return 0 if found is None else found[0]


def _combine(
    search: RouteSearch,
    dist: list[Reach],
    upper: list[int],
    lower: int,
    choice: list[_Found | None],
) -> None:
    """Improve `choice` (total `lower`) to the best assignment, in place.

    Trains 0..n-2 take stop sequences from lists of candidates (with every track that
    realises them), the last train its best partner from its own list (pair) or, where
    it may earn less than the list holds, its best route on the track left (refine, a
    search); docs/routes.md, "Best of all trains".  A
    better total T > lower needs each train's route to earn at least T - (what the
    other trains earn at most), so the candidates of train i are the sequences earning
    at least lower + 1 - sum(upper[j], j != i); the first train of a group of identical
    trains takes the group's best route, which earns at least the group's share.
    Depth first, longest trains first, cut by the bound total + what the trains still
    to come earn at most.
    """
    n = len(dist)
    total_upper = sum(upper)
    group_first = [i == 0 or dist[i] != dist[i - 1] for i in range(n)]
    need_first = [0] * n
    for i in range(n):
        if group_first[i]:
            size = sum(1 for d in dist if d == dist[i])
            outside = sum(u for u, d in zip(upper, dist, strict=True) if d != dist[i])
            need_first[i] = -(-(lower + 1 - outside) // size)
    thresholds: dict[Reach, int] = {}
    for i in range(n - 1):
        t = lower + 1 - (total_upper - upper[i])
        if group_first[i]:
            t = max(t, need_first[i])
        thresholds[dist[i]] = min(thresholds.get(dist[i], t), t)
    # The last train's candidate sequences down to `last_floor` (a list of bounded
    # size), with the track each surely uses: train n-2's sequences are paired with
    # them, best first, while the last train need not earn less than `last_floor`.
    last_floor = lower + 1 - (total_upper - upper[-1])
    last_list: list[_Found] = []
    while last_floor <= upper[-1]:
        try:
            last_list = search.routes(dist[-1], max(last_floor, 1), most=LAST_LIST)
            break
        except _TooMany:
            last_floor += max(10, (upper[-1] - last_floor) // 2)
    last_list.sort(key=lambda f: (-f[0], f[3]))
    last_value = [f[0] for f in last_list]
    last_sure = [search.sure(f[3]) for f in last_list]
    candidates = {}
    for d, t in thresholds.items():
        if d == dist[-1] and t >= last_floor:  # listed already
            found = [f for f in last_list if f[0] >= t]
        else:
            found = search.routes(d, max(t, 1))
            found.sort(key=lambda f: (-f[0], f[3]))
        candidates[d] = found
    lists = [candidates.get(d, []) for d in dist]
    # after train i: identical trains earn at most what train i earns (they come in
    # the order of their routes), the others at most their upper bound
    same_after = [sum(1 for j in range(i + 1, n) if dist[j] == dist[i]) for i in range(n)]
    other_after = [sum(upper[j] for j in range(i + 1, n) if dist[j] != dist[i])
                   for i in range(n)]
    best_total = lower
    picked: list[_Found | None] = [None] * n
    # The last train's best with only the stations' first moves blocked bounds its best
    # with all the used track blocked; the stations have few first moves, so few keys.
    g = search.graph
    exits = 0
    for station in g.stations:
        for m in g.leave(station):
            exits |= m.track
    exit_bound: dict[int, int] = {}

    def last_bound(used: int) -> int:
        key = used & exits
        if key not in exit_bound:
            got = search.routes(dist[-1], 1, key, best=True)
            exit_bound[key] = got[0][0] if got else 0
        return exit_bound[key]

    def combine(i: int, used: int, total: int, low: int) -> None:
        nonlocal best_total
        if i == n - 1:
            if total > best_total:  # even with the last train idle
                best_total = total
                choice[:] = [*picked[:-1], None]
            need = best_total + 1 - total
            cap = upper[i]
            if same_after[i - 1]:  # identical to the train before: no better than it
                previous = picked[i - 1]
                cap = min(cap, previous[0] if previous is not None else 0)
            if need <= cap and need <= last_bound(used):
                got = search.routes(dist[i], max(need, 1), used, best=True)
                if got and total + got[0][0] > best_total:
                    best_total = total + got[0][0]
                    choice[:] = [*picked[:-1], got[0]]
            return
        options = lists[i]
        same, other, mine = same_after[i], other_after[i], upper[i]
        start = 0 if group_first[i] else low
        floor = need_first[i] if group_first[i] else -1 << 62
        if i == n - 2:
            # first every pair with a listed route of the last train, then (with the
            # best total found so far) the searches around the rest
            later = []
            for index in range(start, len(options)):
                found = options[index]
                value = found[0]
                if total + value + same * min(value, mine) + other <= best_total or \
                        value < floor:
                    break
                legs = pair(found, used, total + value)
                if legs is not None:
                    later.append((found, legs))
            for found, legs in later:
                value = found[0]
                if total + value + same * min(value, mine) + other <= best_total:
                    break
                if best_total + 1 - total - value < max(last_floor, 1):
                    refine(found, legs, 0, 0, [], used, total + value)
        for index in range(start if i < n - 2 else len(options), len(options)):
            found = options[index]
            value = found[0]
            if total + value + same * min(value, mine) + other <= best_total or value < floor:
                break
            # identical trains may run the same stops on different track: same index
            for track, states in search.realisations(found, used):
                picked[i] = _with(found, track, states)
                combine(i + 1, used | track, total + value, index)
        picked[i] = None
        if total + other > best_total and floor <= 0:  # train i (and its likes) idle
            combine(i + 1, used, total, len(options))


    def pair(found: _Found, used: int, total: int) -> list[tuple[int, int]] | None:
        """The stops of `found` for train n-2 (the trains before it took `used`, they
        and it earn `total`) with the last train's listed routes: the best of these
        pairs.  Returns the legs of `found` (None: no track for them)."""
        nonlocal best_total
        legs = list(itertools.pairwise(found[3]))
        some, _, track = find_track(search, legs, used)
        if some is None:
            return None  # no track for these stops beside the earlier trains'
        if total > best_total:  # the last train idle
            best_total = total
            choice[:] = [*picked[:-2], _with(found, track, _flat(some)), None]
        need = best_total + 1 - total
        cap = upper[-1] if not same_after[-2] else min(upper[-1], found[0])
        taken = search.sure(found[3]) | used
        begin = bisect.bisect_left(last_value, -cap, key=operator.neg)
        end = len(last_list)
        if need < last_floor:  # refine searches later anyway: only a quick look here
            end = min(end, begin + PAIR_LOOK)
        for k in range(begin, end):
            value = last_value[k]
            if value < need:
                break
            if last_sure[k] & taken:
                continue
            other = last_list[k]
            more = list(itertools.pairwise(other[3]))
            both, _, _ = find_track(search, legs + more, used)
            if both is not None:
                best_total = total + value
                mine, theirs = both[:len(legs)], both[len(legs):]
                g = search.graph
                choice[:] = [*picked[:-2],
                             _with(found, g.track_of(_flat(mine)), _flat(mine)),
                             _with(other, g.track_of(_flat(theirs)), _flat(theirs))]
                break
        return legs

    def refine(found: _Found, legs: list[tuple[int, int]], j: int, track: int,
               states: list[int], used: int, total: int) -> None:
        """Ways for legs[j:] of train n-2 (legs before j take `track`), and the last
        train's best beside them.

        Every realisation uses `sure` (the track taken, the track each remaining leg
        needs whichever way it goes): the last train can do no better than its best
        route `top` on the track `sure` leaves.  If some ways for the remaining legs
        avoid `top`, that pair is the best here; else try each way of leg j in turn.
        """
        nonlocal best_total
        need = best_total + 1 - total
        cap = upper[-1] if not same_after[-2] else min(upper[-1], found[0])
        if need > cap:
            return
        sure = used | track
        for a, b in legs[j:]:
            sure |= search.common(a, b)
        if need > last_bound(sure):
            return
        got = search.routes(dist[-1], max(need, 1), sure, best=True)
        if not got:
            return
        top = got[0]
        rest, _, rest_track = find_track(search, legs[j:], used | track | top[1])
        if rest is not None:
            best_total = total + top[0]
            mine = _with(found, track | rest_track, (*states, *_flat(rest)))
            choice[:] = [*picked[:-2], mine, top]
            return
        if j == len(legs) or find_track(search, legs[j:], used | track)[0] is None:
            return
        a, b = legs[j]
        for way, way_track in _leg_ways(search, a, b, used | track):
            refine(found, legs, j + 1, track | way_track, states + way, used, total)

    try:
        combine(0, search.blocked, 0, 0)
    finally:
        _unlink(combine, refine)


def has_route(board_map: Map, board: BoardState, corp: str) -> bool:
    """Whether some train of `corp` could run a route now (a route of two stops from
    a station: any longer route begins with one)."""
    graph = RouteGraph(board_map, board, corp, 0)
    return bool(RouteSearch(graph, RevenueRules()).routes(2, -1 << 30, best=True))


def _leg_ways(
    search: RouteSearch, a: int, b: int, used: int
) -> Iterator[tuple[list[int], int]]:
    """Every way (directed states, track bits) from stop a to stop b through junctions
    only, avoiding the track `used`."""
    if a < 0 or b < 0:
        return
    ways = search.ways(a, b)
    if ways is None:
        yield from _walk_ways(search, a, b, used)
    else:
        for way in ways:
            if not way[1] & used:
                yield way


def _first_way(search: RouteSearch, a: int, b: int, used: int
               ) -> tuple[list[int], int] | None:
    """The first of _leg_ways(search, a, b, used), or None."""
    ways = search.ways(a, b) if a >= 0 and b >= 0 else []
    if ways is None:
        return next(_walk_ways(search, a, b, used), None)
    for way in ways:
        if not way[1] & used:
            return way
    return None


def _walk_ways(
    search: RouteSearch, a: int, b: int, used: int
) -> Iterator[tuple[list[int], int]]:
    g = search.graph
    toward = search.toward(b)
    states: list[int] = []

    def walk(options: Sequence[Move], track: int) -> Iterator[tuple[list[int], int]]:
        for m in options:
            if m.track & (used | track):
                continue
            if m.stop == b:
                yield states + list(m.states), track | m.track
            elif m.stop < 0 and m.end in toward:
                states.extend(m.states)
                yield from walk(g.moves[m.end], track | m.track)
                del states[len(states) - len(m.states):]

    try:
        if a >= 0 and b >= 0:
            yield from walk(g.leave(a), 0)
    finally:
        _unlink(walk)


def _realisations(
    search: RouteSearch, legs: list[tuple[int, int]], used: int
) -> Iterator[tuple[list[int], int]]:
    """Every track (directed states in order, bits) for the legs in order, sharing
    nothing with each other or with `used`."""
    if not legs:
        yield [], 0
        return
    (a, b), rest = legs[0], legs[1:]
    for states, track in _leg_ways(search, a, b, used):
        for more, more_track in _realisations(search, rest, used | track):
            yield states + more, track | more_track


def find_track(
    search: RouteSearch, legs: list[tuple[int, int]], used: int
) -> tuple[list[list[int]] | None, int, int]:
    """Track for the legs in order, sharing nothing with each other or with `used`:
    (per leg the directed states, the index of the deepest leg the search reached, the
    track bits); the states are None when there is no such track."""
    chosen: list[list[int]] = []
    # first the first free way of each leg in turn: the depth-first search below meets
    # this choice first, so when it goes through it is the search's answer
    taken = used
    for a, b in legs:
        way = _first_way(search, a, b, taken)
        if way is None:
            break
        chosen.append(way[0])
        taken |= way[1]
    else:
        return chosen, len(legs), taken & ~used
    chosen = []
    deepest = 0
    final = 0
    # relevant[i]: the track the legs i, i+1, ... may use; a failure to place them
    # depends only on the used track within it
    relevant = [0] * (len(legs) + 1)
    for i in range(len(legs) - 1, -1, -1):
        relevant[i] = relevant[i + 1] | search.union(*legs[i])
    failed: set[tuple[int, int]] = set()

    def place(i: int, used: int) -> bool:
        nonlocal deepest, final
        deepest = max(deepest, i)
        if i == len(legs):
            final = used
            return True
        key = (i, used & relevant[i])
        if key in failed:
            return False
        a, b = legs[i]
        for states, track in _leg_ways(search, a, b, used):
            chosen.append(states)
            if place(i + 1, used | track):
                return True
            chosen.pop()
        failed.add(key)
        return False

    try:
        if place(0, used):
            return chosen, deepest, final & ~used
        return None, deepest, 0
    finally:
        _unlink(place)


def legal_routes(
    board_map: Map,
    board: BoardState,
    corp: str,
    distance: Reach,
    column: str | int,
    rules: RevenueRules | None = None,
) -> list[Route]:
    """Every legal route of `corp` for a train of `distance` (Reach), each once (in one
    of its two directions), best first."""
    rules = rules or RevenueRules()
    search = search_for(board_map, board, corp, column, rules)
    name = reach_name(distance)
    result = []
    for found in sorted(search.routes(distance, -1 << 62), key=lambda f: (-f[0], f[3])):
        for track, states in search.realisations(found, 0):
            result.append(search.route(_with(found, track, states), name))
    return result
