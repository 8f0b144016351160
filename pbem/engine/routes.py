"""Routes and revenue (1830 6.4, 6.4.1, 6.4.2, 6.5; 1870 the same rules).

best_run() finds the highest total a corporation's trains can earn, exactly;
check_run() checks routes a player wrote (stops in order) and realises them on the
track; has_route() answers quickly whether any train could run at all.

A route is a continuous trail on the track (routegraph.RouteGraph, built on
track.TrackGraph) visiting at least two stops (cities, towns, off-boards), one of
them holding a station of the corporation.  It never reverses at a junction, never
changes track at a crossover, uses no track (segment or hex side) twice, visits no
stop twice and no off-board area twice, passes through no off-board and no city whose
slots are all filled by other corporations' stations.  A train of distance N counts
every stop it passes, so its route has at most N stops (None: unlimited).  The trains
of one corporation share no track; they may meet at stops.

Revenue is the sum of the stop values in the phase's revenue column.  RevenueRules
carries the corporation's modifiers (1870: port/cattle tokens change a stop's value,
a destination marker adds the stop's value again when the stop ends a route).

How the search works and why it is exact: docs/routes.md.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.engine.board import BoardState, Map, tile_at
from pbem.engine.errors import RulesError
from pbem.engine.routegraph import Move, RouteGraph, StopKey

RULE = "1830 6.4.2"

#: Ways between two neighbouring stops kept in memory (more are walked when needed).
WAYS = 64

#: A train as the search sees it: (name, distance); distance None = unlimited (diesel).
TrainSpec = tuple[str, int | None]


@dataclass(frozen=True)
class RevenueRules:
    """A corporation's revenue modifiers (1870 hooks; 1830 needs none).

    values: stop -> value replacing the printed one (1870 port token: +20 for the owner,
    +10 for the others; cattle token: +10 for the owner).
    end_bonus: stop -> amount added when a route starts or ends there (1870 destination
    marker: the destination's value again, "doubles the value ... at the end of a run").
    """

    values: Mapping[StopKey, int] = field(default_factory=dict)
    end_bonus: Mapping[StopKey, int] = field(default_factory=dict)


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


class _Search:
    """Routes of one corporation on one position (see docs/routes.md).

    The search runs over sequences of stops: from a stop, the next stops are those some
    track through junctions only reaches (RouteGraph moves), remembering by which track
    a route may arrive (the arriving cstates) so it leaves by another.  Which track joins
    two stops is chosen only for a complete sequence (realise): many routes share their
    stops and differ only in the track between them (parallel track, junction tiles).
    """

    def __init__(self, graph: RouteGraph, rules: RevenueRules) -> None:
        self.graph = graph
        self.end_bonus = [rules.end_bonus.get(key, 0) for key in graph.stops]
        self.max_end_bonus = max(self.end_bonus, default=0)
        self.stats = {"nodes": 0, "checked": 0}
        self._toward: dict[int, set[int]] = {}
        self._arrival = graph.arrival_stop
        self._hop = graph.hop_arrivals
        self._free: dict[tuple[int, int, int], _Next] = {}  # next stops of stations
        self._after_free: dict[int, tuple[_Next, int]] = {}
        self._common: dict[tuple[int, int], int] = {}
        self._union: dict[tuple[int, int], int] = {}
        self._ways: dict[tuple[int, int], list[tuple[list[int], int]] | None] = {}

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
        into: dict[int, list[int]] = {}
        good = set()
        work: list[int] = []
        for cid, options in enumerate(self.graph.moves):
            for m in options:
                if m.stop == b and cid not in good:
                    good.add(cid)
                    work.append(cid)
                elif m.stop < 0:
                    into.setdefault(m.end, []).append(cid)
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
        self, limit: int | None, threshold: int, used: int = 0, best: bool = False
    ) -> list[_Found]:
        """Every stop sequence of a legal route of at most `limit` stops (None: any)
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
        g = self.graph
        value, area, blocks, ahead = g.value, g.area, g.blocks, g.ahead
        all_moves = g.moves
        end_bonus = self.end_bonus
        eb1 = self.max_end_bonus
        eb2 = 2 * eb1
        cap = limit if limit is not None else 1 << 30
        found: list[_Found] = []
        done: set[tuple[int, ...]] = set()
        first_half: list[int] = []
        second_half: list[int] = []
        thr = threshold
        station = -1
        nodes = 0
        # next stops ignore `used`: each step checks that some way avoids it
        after_memo = self._after_free
        common, free_way = self.common, self.free_way

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
            self.stats["checked"] += 1
            legs = list(itertools.pairwise(sequence))
            got, _, track = _find_track(self, legs, used)
            if got is None:
                return
            states = tuple(s for leg in got for s in leg)
            item = (total, track, station, sequence, states, stops)
            if best:
                found[:] = [item]
                thr = total + 1
            else:
                found.append(item)

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
            for y, arrivals in options:
                if (1 << y) & stops:
                    continue
                sure = common(prev, y)
                if sure & must or used and not free_way(prev, y, must):
                    continue  # two legs would need the same track
                nodes += 1
                rev2 = rev + value[y]
                second_half.append(y)
                total = rev2 + e1 + end_bonus[y]
                stops2 = stops | area[y]
                if total >= thr:
                    emit(total, stops2)
                if k + 1 < cap and not blocks[y]:
                    nxt, nxt_mask = after(arrivals)
                    bound, _ = ahead(nxt_mask, stops2, left(k + 1), 1, 1 << y)
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
            for y, arrivals in options:
                if (1 << y) & stops:
                    continue
                sure = common(prev, y)
                if sure & must or used and not free_way(prev, y, must):
                    continue
                nodes += 1
                rev2 = rev + value[y]
                stops2 = stops | area[y]
                e1 = end_bonus[y]
                first_half.append(y)
                bound, reach = ahead(rest_next, stops2, left(k + 1), 1, 1 << station)
                if reach and rev2 + e1 + eb1 + bound >= thr:
                    second(rest, stops2, k + 1, rev2, e1, station, must | sure)
                if k + 2 < cap and not blocks[y]:
                    nxt, nxt_mask = after(arrivals)
                    bound, _ = ahead(nxt_mask | rest_next, stops2, left(k + 1), 2,
                                     1 << y | 1 << station)
                    if rev2 + eb2 + bound >= thr:
                        first(nxt, stops2, k + 1, rev2, rest, rest_next, y, must | sure)
                first_half.pop()

        lower = 0
        every = (1 << len(g.stops)) - 1
        for s in g.stations:
            station = s
            stops0 = area[s] | lower
            lower |= 1 << s
            start = g.leave(s)
            if cap < 2 or not start:
                continue
            if used:  # stops the track left cannot reach count as visited
                stops0 |= every & ~g.reach_avoiding(start, used)
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
        self.stats["nodes"] += nodes
        return found

    def _departures(self, s: int, i: int, j: int) -> _Next:
        """The next stops of station `s` leaving by its moves i..j-1."""
        key = (s, i, j)
        got = self._free.get(key)
        if got is None:
            got = self._free[key] = self.nexts(self.graph.leave(s)[i:j])
        return got

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


def _flat(legs: list[list[int]]) -> tuple[int, ...]:
    return tuple(s for leg in legs for s in leg)


def _with(found: _Found, track: int, states: tuple[int, ...]) -> _Found:
    return (found[0], track, found[2], found[3], states, found[5])


def _distance_key(distance: int | None) -> int:
    return 1 << 30 if distance is None else distance


def best_run(
    board_map: Map,
    board: BoardState,
    corp: str,
    trains: Sequence[TrainSpec],
    column: str | int,
    rules: RevenueRules | None = None,
) -> Run:
    """The highest total `corp`'s trains can earn now, and routes that earn it.

    trains: (name, distance) per train (distance None: unlimited).  column: the revenue
    column of the phase (a name, or an index into Map.revenue_columns).  Exact: see
    docs/routes.md.  Routes are listed in the order of `trains`; trains without a
    route are left out.
    """
    rules = rules or RevenueRules()
    graph = RouteGraph(board_map, board, corp, column, rules.values)
    search = _Search(graph, rules)
    return _best(search, list(trains))


def _best(search: _Search, trains: list[TrainSpec]) -> Run:
    """The exact best assignment of routes to trains (see docs/routes.md)."""
    # longest trains first; identical trains next to each other
    order = sorted(range(len(trains)), key=lambda i: (-_distance_key(trains[i][1]), i))
    dist = [trains[i][1] for i in order]
    n = len(order)
    if n == 0 or not search.graph.stations:
        return Run((), 0)

    # each distance's best route on its own: an upper bound for each train
    alone: dict[int | None, _Found | None] = {}
    for d in dist:
        if d not in alone:
            got = search.routes(d, 1, best=True)
            alone[d] = got[0] if got else None
    upper = [_revenue(alone[d]) for d in dist]

    # a first total: each train in turn takes the best route on the track left over
    best_total = 0
    used = 0
    best_choice: list[_Found | None] = []
    for i, d in enumerate(dist):
        if i == 0 or not upper[i]:
            found = alone[d] if i == 0 else None
        else:
            got = search.routes(d, 1, used, best=True)
            found = got[0] if got else None
        best_choice.append(found)
        if found is not None:
            best_total += found[0]
            used |= found[1]

    if n > 1 and best_total < sum(upper):
        _combine(search, dist, upper, best_total, best_choice)

    routes: list[Route | None] = [None] * len(trains)
    for position, found in enumerate(best_choice):
        if found is not None:
            index = order[position]
            routes[index] = search.route(found, trains[index][0])
    result = tuple(r for r in routes if r is not None)
    return Run(result, sum(r.revenue for r in result))


def _revenue(found: _Found | None) -> int:
    return 0 if found is None else found[0]


def _combine(
    search: _Search,
    dist: list[int | None],
    upper: list[int],
    lower: int,
    choice: list[_Found | None],
) -> None:
    """Improve `choice` (total `lower`) to the best assignment, in place.

    Trains 0..n-2 take stop sequences from lists of candidates (with every track that
    realises them), the last train its best route on the track left (a search).  A
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
    thresholds: dict[int | None, int] = {}
    for i in range(n - 1):
        t = lower + 1 - (total_upper - upper[i])
        if group_first[i]:
            t = max(t, need_first[i])
        thresholds[dist[i]] = min(thresholds.get(dist[i], t), t)
    candidates = {}
    for d, t in thresholds.items():
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
        for index in range(start, len(options)):
            found = options[index]
            value = found[0]
            if total + value + same * min(value, mine) + other <= best_total or value < floor:
                break
            if i == n - 2:
                pair(found, used, total + value)
                continue
            # identical trains may run the same stops on different track: same index
            for track, states in search.realisations(found, used):
                picked[i] = _with(found, track, states)
                combine(i + 1, used | track, total + value, index)
        picked[i] = None
        if total + other > best_total and floor <= 0:  # train i (and its likes) idle
            combine(i + 1, used, total, len(options))

    def pair(found: _Found, used: int, total: int) -> None:
        """The stops of `found` for train n-2, then the last train."""
        nonlocal best_total
        legs = list(itertools.pairwise(found[3]))
        some, _, track = _find_track(search, legs, used)
        if some is None:
            return  # no track for these stops beside the earlier trains'
        if total > best_total:  # the last train idle
            best_total = total
            choice[:] = [*picked[:-2], _with(found, track, _flat(some)), None]
        refine(found, legs, 0, 0, [], used, total)

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
        rest, _, rest_track = _find_track(search, legs[j:], used | track | top[1])
        if rest is not None:
            best_total = total + top[0]
            mine = _with(found, track | rest_track, (*states, *_flat(rest)))
            choice[:] = [*picked[:-2], mine, top]
            return
        if j == len(legs) or _find_track(search, legs[j:], used | track)[0] is None:
            return
        a, b = legs[j]
        for way, way_track in _leg_ways(search, a, b, used | track):
            refine(found, legs, j + 1, track | way_track, states + way, used, total)

    combine(0, 0, 0, 0)


def has_route(board_map: Map, board: BoardState, corp: str) -> bool:
    """Whether some train of `corp` could run a route now (a route of two stops from
    a station: any longer route begins with one)."""
    graph = RouteGraph(board_map, board, corp, 0)
    return bool(_Search(graph, RevenueRules()).routes(2, -1 << 30, best=True))


# -- routes written by a player -------------------------------------------------------------------

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


@dataclass
class _Written:
    train: str
    distance: int | None
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
) -> Run:
    """Check routes a player wrote and realise them on the track.

    explicit: [{"train": "3", "stops": ["H12", "I15", "J14"]}, ...], the stops of each
    route in order, by hex; "G19.1"/"G19.2" name one stop of a hex with two (a plain
    hex is enough when only one of its stops fits).  Raises RulesError with a sentence
    for the player when a route is illegal or the routes cannot all be run at once.
    """
    rules = rules or RevenueRules()
    graph = RouteGraph(board_map, board, corp, column, rules.values)
    search = _Search(graph, rules)
    untracked: dict[StopKey, int] = {}
    written = _read_written(board_map, board, corp, trains, explicit, graph, untracked)

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
        raise RulesError(failure.message, RULE)
    if len(results) > 1:
        raise RulesError(_ambiguity(board_map, written, readings, results), RULE)
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
) -> list[_Written]:
    owned: dict[str, list[int | None]] = {}
    for name, distance in trains:
        owned.setdefault(name.upper(), []).append(distance)
    given: dict[str, int] = {}
    written = []
    for entry in explicit:
        name = str(entry.get("train", "")).strip()
        key = name.upper()
        if key not in owned:
            raise RulesError(f"{corp} has no {train_phrase(name)}.", RULE)
        given[key] = given.get(key, 0) + 1
        if given[key] > len(owned[key]):
            count = len(owned[key])
            if count == 1:
                raise RulesError(f"The {train_phrase(name)} is given more than one route; "
                                 "each train runs once.", RULE)
            raise RulesError(f"{corp} has {count} {train_phrase(name)}s but more routes are "
                             "given for them; each train runs once.", "1830 6.4")
        distance = owned[key][given[key] - 1]
        tokens = [str(t) for t in entry.get("stops", [])]
        options = [_read_stop(board_map, board, graph, token, untracked) for token in tokens]
        text = "-".join(t.strip().upper() for t in tokens)
        phrase = train_phrase(name)
        if len(tokens) < 2:
            raise RulesError(f"The {phrase}'s route {text} needs at least two cities.",
                             "1830 6.4.1")
        if distance is not None and len(tokens) > distance:
            raise RulesError(f"The {phrase} counts at most {distance} stops; {text} has "
                             f"{len(tokens)}.", "1830 6.4.1")
        written.append(_Written(name, distance, text, options, tokens))
    return written


def _read_stop(
    board_map: Map, board: BoardState, graph: RouteGraph, token: str,
    untracked: dict[StopKey, int],
) -> list[int]:
    """The stop numbers a written stop may mean (a stop without track gets a negative
    number of its own: no track reaches it)."""
    match = _STOP.match(token)
    if not match:
        raise RulesError(f"{token.strip()!r} is not a city; write a hex like H12, or G19.1 "
                         "for one city of a hex with two.", RULE)
    try:
        coord = board_map.hex(match.group(1)).coord
    except KeyError as error:
        raise RulesError(str(error.args[0]), RULE) from None
    tile, _ = tile_at(board_map, board, coord)
    if not tile.stops:
        raise RulesError(f"{board_map.hex(coord).describe()} has no city, town or off-board "
                         "area to count.", RULE)
    if match.group(2) is not None:
        index = int(match.group(2)) - 1
        if not 0 <= index < len(tile.stops):
            names = " and ".join(f"{coord}.{i + 1}" for i in range(len(tile.stops)))
            raise RulesError(f"{coord} has only {names}.", RULE)
        indexes = [index]
    else:
        indexes = list(range(len(tile.stops)))
    numbers = []
    for i in indexes:
        key = (coord, i)
        if key in graph.number:
            numbers.append(graph.number[key])
        else:
            numbers.append(untracked.setdefault(key, -1 - len(untracked)))
    return numbers


def _realise(
    search: _Search,
    corp: str,
    written: list[_Written],
    reading: list[list[int]],
    untracked: dict[StopKey, int],
) -> list[tuple[list[int], list[int]]]:
    """For one reading of the stops: check each route, then find track for all of them
    at once.  Returns per route (stop numbers, directed states in order)."""
    g = search.graph
    stations = set(g.stations)
    stations.update(n for key, n in untracked.items() if key in set(g.board.stations(corp)))
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
        got, deepest, _ = _find_track(search, legs[i], 0)
        if got is None:
            j = min(deepest, len(legs[i]) - 1)
            raise _Fail(6, f"No track joins {names[i][j]} to {names[i][j + 1]} for the {phrase} "
                           "without reusing track.")
    all_legs = [leg for route in legs for leg in route]
    got, deepest, _ = _find_track(search, all_legs, 0)
    if got is None:
        bounds = list(itertools.accumulate(len(route) for route in legs))
        late = next(i for i, end in enumerate(bounds) if deepest < end)
        early = 0
        for i in range(late):
            pair = legs[i] + legs[late]
            if _find_track(search, pair, 0)[0] is None:
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


def _legs_exist(search: _Search, a: int, b: int) -> bool:
    if a < 0 or b < 0:
        return False
    toward = search.toward(b)
    return any(m.stop == b or (m.stop < 0 and m.end in toward)
               for m in search.graph.leave(a))


def _leg_ways(
    search: _Search, a: int, b: int, used: int
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


def _walk_ways(
    search: _Search, a: int, b: int, used: int
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

    if a >= 0 and b >= 0:
        yield from walk(g.leave(a), 0)


def _realisations(
    search: _Search, legs: list[tuple[int, int]], used: int
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


def _find_track(
    search: _Search, legs: list[tuple[int, int]], used: int
) -> tuple[list[list[int]] | None, int, int]:
    """Track for the legs in order, sharing nothing with each other or with `used`:
    (per leg the directed states, the index of the deepest leg the search reached, the
    track bits); the states are None when there is no such track."""
    chosen: list[list[int]] = []
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

    if place(0, used):
        return chosen, deepest, final & ~used
    return None, deepest, 0


def legal_routes(
    board_map: Map,
    board: BoardState,
    corp: str,
    distance: int | None,
    column: str | int,
    rules: RevenueRules | None = None,
) -> list[Route]:
    """Every legal route of `corp` for a train of `distance` stops (None: unlimited),
    each once (in one of its two directions), best first."""
    rules = rules or RevenueRules()
    search = _Search(RouteGraph(board_map, board, corp, column, rules.values), rules)
    name = str(distance or "D")
    result = []
    for found in sorted(search.routes(distance, -1 << 62), key=lambda f: (-f[0], f[3])):
        for track, states in search.realisations(found, 0):
            result.append(search.route(_with(found, track, states), name))
    return result
