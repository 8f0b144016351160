"""The track of one position compiled for one corporation's route search.

track.TrackGraph has a node per stop and per hex side and a segment per tile path.
RouteGraph works on it for one corporation and one revenue column:

* Stops get numbers in order of value (highest first), so a set of stops is an int
  bit mask whose lowest set bits are its most valuable stops (see top_value).
* "Track" is a bit mask too: one bit per segment and one per hex side.  A hex side is
  track: the two paths of a junction meet in one piece of track at the side, so two
  trains (or one route twice) may not cross the same side (as on 18xx.games).
* A route is walked as a chain of Moves.  A move starts by leaving a stop or a
  junction side and follows track while there is exactly one way on; it ends at a
  stop, or at a side where the route could go on in two or more ways.  Track that
  leads only to dead ends makes no move.  Moves are the legal continuations of
  TrackGraph.onward, so they never reverse at a junction, never change track at a
  crossover, never pass an off-board or a city full of other corporations' stations.
* For each decision point ("cstate": where a move ended) `closure` is the mask of
  stops some walk from there could still reach (ignoring what the route has used),
  `hop_arrivals` the cstates arriving at a stop that walks through junctions only
  reach (the "next stops"), and `adj[x]` the stops that may follow stop x.  ahead()
  turns these into upper bounds for branch and bound.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from functools import cached_property
from typing import NamedTuple

from . import hexes
from .closures import closures
from .map import BoardState, Map, tile_at
from .track import Node, TrackGraph

#: Bounds (ahead) remembered per graph; the memo is emptied when it reaches this size.
AHEAD_MEMO = 100_000

#: A stop of the board: (hex, stop index of the hex's current tile).
StopKey = tuple[str, int]


class Move(NamedTuple):
    """Track followed from a decision point to the next one (see the module doc); a
    named tuple: a route graph makes hundreds, and reads them in every search step."""

    track: int  # segment and side bits used
    end: int  # cstate reached (index into RouteGraph.moves)
    stop: int  # stop number reached, or -1 at a junction
    states: tuple[int, ...]  # directed segment states (2 * segment + direction), in order


class RouteGraph:
    """One position's track, ready for route search by `corp` (see module doc)."""

    def __init__(
        self,
        board_map: Map,
        board: BoardState,
        corp: str,
        column: str | int,
        values: Mapping[StopKey, int] | None = None,
        track: TrackGraph | None = None,
        whole: bool = False,
    ) -> None:
        """`track`: the TrackGraph of the board, when the caller has it.  `whole`: the
        whole board's track; else only the region of `corp`'s stations (see station_region):
        every legal route of `corp` is there, and the stops outside have no number."""
        if isinstance(column, int):
            column = board_map.revenue_columns[column]
        self.column = column
        self.map = board_map
        self.corp = corp
        graph = track or TrackGraph(board_map, board)
        self.graph = graph
        self.board = board = graph.board  # a copy: the board may change after
        segments = graph.segments
        self.n_segments = len(segments)
        #: whether the graph holds all the board's track, or only the region of the
        #: company's stations (own: its segments; see station_region)
        self.whole = whole
        self.own: AbstractSet[int] = (frozenset(range(len(segments))) if whole
                                       else graph.region(corp))
        nodes = {n for seg in self.own for n in segments[seg].ends}

        # stops with track, numbered by value (highest first)
        found: list[tuple[int, tuple[int, int], int, StopKey, str]] = []
        for node in nodes:
            if node[0] != "stop":
                continue
            coord, index = node[1], node[2]
            stop = tile_at(board_map, board, coord)[0].stops[index]
            value = stop.value(column)
            if values is not None and (coord, index) in values:
                value = values[(coord, index)]
            found.append((-value, hexes.coord_sort_key(coord), index, (coord, index),
                          stop.kind))
        found.sort()
        self.stops: list[StopKey] = [f[3] for f in found]
        self.kinds: list[str] = [f[4] for f in found]
        self.value: list[int] = [-f[0] for f in found]
        self.number: dict[StopKey, int] = {key: i for i, key in enumerate(self.stops)}
        self.blocks: list[bool] = [
            graph.blocks(("stop", c, i), corp) for c, i in self.stops
        ]
        # stops of one off-board area exclude each other (a route counts an area once)
        areas: dict[str, int] = {}
        for number, (coord, _) in enumerate(self.stops):
            area = board_map.hexes[coord].area
            if area is not None:
                areas[area] = areas.get(area, 0) | 1 << number
        self.area_name: list[str | None] = [board_map.hexes[c].area for c, _ in self.stops]
        self.area: list[int] = [
            areas[name] if name is not None else 1 << number
            for number, name in enumerate(self.area_name)
        ]
        self._ahead: dict[tuple[int, int, int | None, int, int], tuple[int, int]] = {}
        #: the stops next to some stop of a mask, by mask (_bound)
        self._near: dict[int, int] = {}
        #: the stops a limited bound looks at, by (start, count) (_hops)
        self._around: dict[tuple[int, int], int] = {}
        self._balls: list[list[int] | None] = [None] * len(self.stops)

        # track bits: segments 0..n-1, then one bit per side node (in the track graph's
        # order, so that a region's bits compare as the whole board's do)
        side_bits: dict[Node, int] = {}
        for node in graph.sides:
            if node in nodes:
                side_bits[node] = 1 << (self.n_segments + len(side_bits))
        self.arrive: list[Node] = graph.arrivals
        own = sorted(self.own)
        arrive = self.arrive
        self._side_bit = [0] * len(arrive)
        for seg in own:
            for state in (2 * seg, 2 * seg + 1):
                self._side_bit[state] = side_bits.get(arrive[state], 0)
        if whole:
            self._succ: list[Sequence[int]] = [()] * len(self.arrive)
            for seg in own:
                for state in (2 * seg, 2 * seg + 1):
                    node = self.arrive[state]
                    self._succ[state] = [self.state(nxt, node)
                                         for nxt in graph.onward(seg, node, corp)]
        else:
            self._succ = graph.successors(corp)  # the region's: own
        self._cstate: dict[int, int] = {}
        self._cstate_state: list[int] = []
        self.moves: list[list[Move]] = []
        self._leave: dict[int, list[Move]] = {}
        pending: list[int] = []
        succ_of = self._succ
        for seg in own:
            for start in (2 * seg, 2 * seg + 1):
                if arrive[start][0] == "stop" or len(succ_of[start]) >= 2:  # _is_decision
                    self._cid(start, pending)
        follow = self._follow
        while pending:
            cid = pending.pop()
            state = self._cstate_state[cid]
            self.moves[cid] = [
                m for m in (follow(nxt, pending) for nxt in succ_of[state])
                if m is not None
            ]
        # hop[c]: the stops walks from cstate c through junctions only reach;
        # hop_arrivals[c]: the cstates arriving at those stops (bit per cstate); one
        # pass gathers both (the arrivals above the stops' bits)
        shift = len(self.stops)
        both = closures([0] * len(self.moves), [
            [(-1, 1 << m.stop | 1 << m.end << shift) if m.stop >= 0 else (m.end, 0)
             for m in ms] for ms in self.moves])  # _closures(..., False, stop | arrival bits)
        stop_bits = (1 << shift) - 1
        self.hop = [bits & stop_bits for bits in both]
        self.hop_arrivals = [bits >> shift for bits in both]
        # near[c]: the stops a route from cstate c may reach next (through junctions)
        self.near: list[int] = [_stop_bits(options, self.hop) for options in self.moves]
        for options in self.moves:
            options.sort(key=self._order)
        self.expand = sum(1 << x for x, b in enumerate(self.blocks) if not b)
        self.adj: list[int] = [0] * len(self.stops)
        #: the stop number of each cstate that arrives at a stop
        self.arrival_stop: dict[int, int] = {}
        for cid, state in enumerate(self._cstate_state):
            node = self.arrive[state]
            if node[0] == "stop":
                x = self.number[(node[1], node[2])]
                self.arrival_stop[cid] = x
                self.adj[x] |= self.near[cid]
        self.stations: list[int] = sorted(
            {self.number[key] for key in board.route_stations(corp) if key in self.number}
        )

    # -- building ------------------------------------------------------------------------------

    def state(self, seg: int, start: Node) -> int:
        """The directed state of travelling segment `seg` away from node `start`."""
        return 2 * seg + (0 if self.graph.segments[seg].ends[0] == start else 1)

    def _is_decision(self, state: int) -> bool:
        return self.arrive[state][0] == "stop" or len(self._succ[state]) >= 2

    def _order(self, move: Move) -> int:
        """Moves toward valuable stops first (stop numbers grow as values fall), so that
        branch and bound meets good routes early."""
        if move.stop >= 0:
            return move.stop
        near = self.near[move.end]
        return (near & -near).bit_length() - 1 if near else len(self.stops)

    def _cid(self, state: int, pending: list[int]) -> int:
        cid = self._cstate.get(state)
        if cid is None:
            cid = len(self.moves)
            self._cstate[state] = cid
            self._cstate_state.append(state)
            self.moves.append([])
            pending.append(cid)
        return cid

    def _follow(self, state: int, pending: list[int]) -> Move | None:
        """The move starting with directed state `state` (None: it leads nowhere)."""
        side_bit, arrive, succ_of = self._side_bit, self.arrive, self._succ
        track = 0
        states: list[int] = []
        while True:
            bits = 1 << (state >> 1) | side_bit[state]
            if track & bits:
                return None  # a loop without stops or branches
            track |= bits
            states.append(state)
            node = arrive[state]
            if node[0] == "stop":
                cid = self._cid(state, pending)
                return _move(Move, (track, cid, self.number[(node[1], node[2])], tuple(states)))
            succ = succ_of[state]
            if not succ:
                return None
            if len(succ) >= 2:
                return _move(Move, (track, self._cid(state, pending), -1, tuple(states)))
            state = succ[0]

    # -- queries -------------------------------------------------------------------------------

    def leave(self, stop: int) -> list[Move]:
        """The moves leaving stop number `stop` (by any of its segments)."""
        moves = self._leave.get(stop)
        if moves is None:
            coord, index = self.stops[stop]
            node: Node = ("stop", coord, index)
            pending: list[int] = []  # stays empty: every decision state has its cstate
            moves = [
                m for m in (self._follow(self.state(seg, node), pending)
                            for seg in self.graph.at.get(node, []) if seg in self.own)
                if m is not None
            ]
            moves.sort(key=self._order)
            self._leave[stop] = moves
        return moves

    @cached_property
    def closure(self) -> list[int]:
        """Per cstate, the stops some walk from there reaches (through stops too)."""
        return _closures(self.moves, True, _stop_bit)

    def reach(self, moves: list[Move]) -> int:
        """The stops some walk starting with one of `moves` reaches (an upper bound)."""
        bits = 0
        for m in moves:
            bits |= self.closure[m.end]
            if m.stop >= 0:
                bits |= 1 << m.stop
        return bits

    def region(self, start: int, visited: int) -> int:
        """The stops a route could still reach: from the stops in `start`, hopping from
        stop to stop, never entering a `visited` stop nor leaving a blocking one."""
        adj, expand = self.adj, self.expand
        seen = start & ~visited
        todo = seen & expand
        closed = ~visited
        while todo:
            low = todo & -todo
            todo ^= low
            new = adj[low.bit_length() - 1] & closed & ~seen
            if new:
                seen |= new
                todo |= new & expand
        return seen

    def ahead(
        self, start: int, visited: int, count: int | None, ends: int, frontier: int
    ) -> tuple[int, int]:
        """An upper bound on what the rest of a route may collect, and the stops it may
        reach.  `start`: the stops it may visit next; `visited`: stops it may not visit;
        `count`: how many more stops it may count (None: any); `ends`: how many of them
        may be stops that only end a route; `frontier`: the stops the rest starts from.

        Unlimited: every stop of the region, but stops that cannot be passed through
        (see passable) only as ends.  Limited: the i-th stop still to come is at most i
        stops away (hops between stops, breadth first), so the stops that may be passed
        through earn at most: for i = 1, 2, ..., the most valuable one not yet taken
        within i hops (optimal for such nested choices; with two ends to extend, the
        i-th stop from the nearer end obeys the same limit); plus at most `ends` stops
        that only end a route, each taking the place of one of the others.
        """
        if count == 1:  # the best next stop: quicker than the memo
            here = start & ~visited
            passing = here & self.expand
            best = self.value[(passing & -passing).bit_length() - 1] if passing else 0
            ending = here & ~self.expand
            if ends and ending:
                best = max(best, self.value[(ending & -ending).bit_length() - 1])
            return best, here
        key: tuple[int, int, int | None, int, int]
        if count is None:
            key = (start, visited, count, ends, frontier)
        else:
            # a limited bound reads neither the frontier nor the visited stops beyond
            # its reach: the memo keys leave them out
            around = self._around.get((start, count))
            if around is None:
                around = self._around[(start, count)] = self._hops(start, count)
            key = (start, visited & around, count, ends, 0)
        got = self._ahead.get(key)
        if got is None:
            if len(self._ahead) >= AHEAD_MEMO:
                self._ahead.clear()
                self._near.clear()
                self._around.clear()
            got = self._ahead[key] = self._bound(start, visited, count, ends, frontier)
        return got

    def _hops(self, start: int, count: int) -> int:
        """The stops a limited bound may look at: those of `start` and those within
        count - 1 hops of them through stops that may be passed (visits aside)."""
        seen = 0
        balls = self._balls
        while start:
            low = start & -start
            start ^= low
            x = low.bit_length() - 1
            ball = balls[x] or self._ball(x)
            seen |= ball[min(count - 1, len(ball) - 1)]
        return seen

    def _ball(self, x: int) -> list[int]:
        """The stops within 0, 1, 2, ... hops of stop x through stops that may be
        passed, until no more are added."""
        adj, expand = self.adj, self.expand
        seen = layer = 1 << x
        ball = [seen]
        while True:
            grow = 0
            todo = layer & expand
            while todo:
                low = todo & -todo
                todo ^= low
                grow |= adj[low.bit_length() - 1]
            layer = grow & ~seen
            if not layer:
                break
            seen |= layer
            ball.append(seen)
        self._balls[x] = ball
        return ball

    def _bound(
        self, start: int, visited: int, count: int | None, ends: int, frontier: int
    ) -> tuple[int, int]:
        """ahead() without the memo."""
        if count is None:
            reach = self.region(start, visited)
            return self.most(reach, None, ends, self.passable(reach, frontier)), reach
        adj, expand, value, near = self.adj, self.expand, self.value, self._near
        closed = ~visited
        layer = start & closed
        seen = layer
        avail = 0
        total = 0
        totals = [0]
        for i in range(count):
            avail |= layer & expand
            if avail:
                low = avail & -avail
                avail ^= low
                total += value[low.bit_length() - 1]
            totals.append(total)
            if i + 1 < count and layer:
                todo = layer & expand
                grow = near.get(todo)
                if grow is None:
                    grow = 0
                    rest = todo
                    while rest:
                        low = rest & -rest
                        rest ^= low
                        grow |= adj[low.bit_length() - 1]
                    near[todo] = grow
                layer = grow & closed & ~seen
                seen |= layer
            elif not avail:
                totals.extend([total] * (count - i - 1))
                break
        best = total
        terminal = seen & ~expand
        extra = 0
        for e in range(1, min(ends, count) + 1):
            if not terminal:
                break
            low = terminal & -terminal
            terminal ^= low
            extra += value[low.bit_length() - 1]
            best = max(best, totals[count - e] + extra)
        return best, seen

    def passable(self, region: int, start: int) -> int:
        """The stops of `region` a route could pass through (not just end at): not
        blocking, and with two neighbours among `region` and the route's frontier
        `start` (the stops next to it)."""
        adj = self.adj
        around = region | start
        result = 0
        todo = region & self.expand
        while todo:
            low = todo & -todo
            todo ^= low
            near = adj[low.bit_length() - 1] & around
            if near & (near - 1):
                result |= low
        return result

    def reach_avoiding(self, moves: list[Move], used: int) -> int:
        """The stops walks starting with `moves` reach without touching track `used`
        (walks, not routes: an upper bound)."""
        bits = 0
        seen = bytearray(len(self.moves))
        todo = []
        for m in moves:
            if not m.track & used:
                bits |= 1 << m.stop if m.stop >= 0 else 0
                todo.append(m.end)
        onward = self._onward
        while todo:
            cid = todo.pop()
            if seen[cid]:
                continue
            seen[cid] = 1
            for track, end, stop_bit in onward[cid]:
                if not track & used:
                    bits |= stop_bit
                    if not seen[end]:
                        todo.append(end)
        return bits

    @cached_property
    def _onward(self) -> list[tuple[tuple[int, int, int], ...]]:
        """Per cstate its moves as (track, cstate reached, bit of the stop reached)."""
        return [tuple((m.track, m.end, _stop_bit(m)) for m in options) for options in self.moves]

    def most(self, mask: int, count: int | None, ends: int, middle: int = -1) -> int:
        """An upper bound on what a route may still collect from the stops in `mask`:
        the `count` (None: all) most valuable, of which at most `ends` stops outside
        `middle` (stops that can only end a route: off-boards, full cities of other
        corporations)."""
        terminal = mask & ~(self.expand & middle)
        if count is None:
            return self.top_value(mask & ~terminal, None) + self.top_value(terminal, ends)
        total = 0
        value = self.value
        while mask and count > 0:
            low = mask & -mask
            mask ^= low
            if low & terminal:
                if ends <= 0:
                    continue
                ends -= 1
            total += value[low.bit_length() - 1]
            count -= 1
        return total

    @cached_property
    def sources(self) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
        """The moves read backwards: per junction cstate, the cstates with a move ending
        there; per stop, the cstates with a move arriving at it (search.toward)."""
        into: dict[int, list[int]] = {}
        into_stop: dict[int, list[int]] = {}
        for cid, options in enumerate(self.moves):
            for m in options:
                if m.stop >= 0:
                    into_stop.setdefault(m.stop, []).append(cid)
                else:
                    into.setdefault(m.end, []).append(cid)
        return into, into_stop

    @cached_property
    def _value_tables(self) -> list[list[int]]:
        """For top_value of all the stops of a mask (made when first asked: diesels)."""
        return _value_tables(self.value)

    def top_value(self, mask: int, count: int | None) -> int:
        """The sum of the `count` most valuable stops in `mask` (None: all of them)."""
        total = 0
        if count is None:
            tables = self._value_tables
            for table, byte in zip(tables, mask.to_bytes(len(tables), "little"), strict=True):
                if byte:
                    total += table[byte]
            return total
        value = self.value
        while mask and count > 0:
            low = mask & -mask
            total += value[low.bit_length() - 1]
            mask ^= low
            count -= 1
        return total

    def track_of(self, states: Sequence[int]) -> int:
        """The track bits (segments, and the sides they arrive at) of directed states."""
        bits = 0
        side = self._side_bit
        for state in states:
            bits |= 1 << (state // 2) | side[state]
        return bits

    def segments_of(self, states: list[int]) -> list[tuple[str, int]]:
        """(hex, path index) of the segments of directed states."""
        result = []
        for state in states:
            seg = self.graph.segments[state // 2]
            result.append((seg.coord, seg.index))
        return result


def _value_tables(values: list[int]) -> list[list[int]]:
    """For each byte of a stop mask, the value sum of every byte pattern."""
    tables = []
    for start in range(0, max(len(values), 1), 8):
        chunk = values[start:start + 8]
        table = [0] * 256
        for pattern in range(1, 256):
            low = pattern & -pattern
            bit = low.bit_length() - 1
            table[pattern] = table[pattern ^ low] + (chunk[bit] if bit < len(chunk) else 0)
        tables.append(table)
    return tables


#: Move(...) without the named tuple's own __new__ (a route graph makes thousands)
_move = tuple.__new__


def _stop_bit(move: Move) -> int:
    return 1 << move.stop if move.stop >= 0 else 0


def _stop_bits(options: list[Move], hop: list[int]) -> int:
    bits = 0
    for m in options:
        bits |= 1 << m.stop if m.stop >= 0 else hop[m.end]
    return bits


def _closures(
    moves: list[list[Move]], through_stops: bool, bits_of: Callable[[Move], int]
) -> list[int]:
    """For each cstate, the union of bits_of(move) over the moves some walk from it
    takes (through_stops False: walks that end at the first stop)."""
    edges = [[(-1 if m.stop >= 0 and not through_stops else m.end, bits_of(m)) for m in ms]
             for ms in moves]
    return closures([0] * len(moves), edges)
