"""The legal routes of a company found breadth first, walked as far as a question needs.

RouteMoves.short_routes finds, breadth first from the company's stations, one legal route
to each directed state it can (a route uses no stop and no hex side twice); what those
routes reach (Arrivals.found_reach) answers most tile lays under the open connection rule
(1830 6.2.1: the company must be able to trace a route to the new track).  FirstRoutes
finds the same routes, in the same order, on the TrackGraph itself, without the
company's RouteMoves (its region and every state's successors made first), and stops as
soon as a question is answered: a lay near the stations is proved after a few states.
It walks a LocalTrack, which reads the hexes the walk comes to, in the TrackGraph's order
(so the routes are short_routes' own), without a TrackGraph of the whole board.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from .localtrack import LocalTrack, State
from .map import tile_at
from .tiles import End
from .track import Node, stop_blocks, token_map


class FirstRoutes:
    """short_routes' routes of `corp` on `track`, found as questions need them."""

    def __init__(self, track: LocalTrack, corp: str) -> None:
        self.track = track
        self.corp = corp
        self._bit: dict[Node, int] = {}
        starts: list[Node] = [("stop", c, i) for c, i in track.board.route_stations(corp)]
        for node in starts:
            self._node_bit(node)
        #: per state found, the nodes of its route (a bit per node)
        self.routes: dict[State, int] = {}
        self._queue: list[State] = []
        self._next = 0  # the queue's first state not yet followed
        #: the hexes of the segments found, and the hex edges at their ends (Reach.edges)
        self.hexes: set[str] = set()
        self.edges: set[tuple[str, int]] = set()
        #: the stops they reach (Reach.stops): the stations, the stops at the segments' ends
        self.stops: set[tuple[str, int]] = {(n[1], n[2]) for n in starts}
        for node in starts:
            for state in track.leaving(node):
                if state not in self.routes:
                    self._found(state, self._bit[node] | self._node_bit(track.arrival(state)))

    def _node_bit(self, node: Node) -> int:
        bit = self._bit.get(node)
        if bit is None:
            bit = self._bit[node] = 1 << len(self._bit)
        return bit

    def _found(self, state: State, route: int) -> None:
        self.routes[state] = route
        self._queue.append(state)
        self.hexes.add(state[0])
        stops, edges = self.track.ends_reached(state[:2])
        self.edges.update(edges)
        self.stops.update(stops)

    def touches(self, coord: str, edges: Collection[tuple[str, int]]) -> bool:
        """Whether a route found breadth first takes a segment on hex `coord` or one
        whose hex edge is one of `edges` (touches_reach on Arrivals.found_reach): the
        routes are followed until one does or none is left."""
        return self.until(lambda: coord in self.hexes or not self.edges.isdisjoint(edges))

    def until(self, answer: Callable[[], bool]) -> bool:
        """answer(), asked again after each state found as long as it is False and a
        route is left to follow: True once the routes found so far make it True (it
        must only become True as more routes are found)."""
        track, corp, routes, queue = self.track, self.corp, self.routes, self._queue
        while True:
            if answer():
                return True
            if self._next >= len(queue):
                return False
            state = queue[self._next]
            self._next += 1
            used = routes[state]
            for after in track.successors(corp, state):
                if after not in routes:
                    bit = self._node_bit(track.arrival(after))
                    if not used & bit:
                        self._found(after, used | bit)

    def taken(self, questions: list[tuple[list[State], Node | None]]) -> bool:
        """Whether a route found arrives by one of the states of a question without
        having passed its node (Arrivals._taken, True only)."""
        for states, there in questions:
            avoid = self._bit.get(there, 0) if there is not None else 0
            for state in states:
                route = self.routes.get(state)
                if route is not None and not route & avoid:
                    return True
        return False


def proves_closed_lay(first: FirstRoutes, coord: str, tile_id: str, rotation: int,
                      touches: bool, edges: Collection[tuple[str, int]], column: str | int,
                      rise_counts: bool) -> bool:
    """Whether the routes found breadth first prove a tile lay under the closed rule
    (1870 p.19; 1830 V-7.6) as track.closed_lay_ok proves it from them with Arrivals
    (its first answer, ortrack.connects): a route reaches the tile (`touches`: from the
    company's stations alone, else some route must take track of the hex or touch one
    of the hex `edges` its exits touch),
    and a city it reaches rises in value (with `rise_counts`), or a route arrives where
    a new path of the tile starts without having passed its other end.  False: not
    proved so (closed_lay_ok decides)."""
    track, corp = first.track, first.corp
    board_map, board = track.map, track.board
    old, old_rotation = tile_at(board_map, board, coord)
    new = board_map.tiles[tile_id]
    mapping = token_map(board_map, board, coord, tile_id, rotation) or {}
    if isinstance(column, int):
        column = board_map.revenue_columns[column]
    rising = {(coord, i) for i, j in mapping.items()
              if rise_counts and new.stops[j].value(column) > old.stops[i].value(column)}
    questions = _questions(track, corp, coord, old, old_rotation, new, rotation, mapping)

    def proved() -> bool:
        if not (touches or coord in first.hexes or not first.edges.isdisjoint(edges)):
            return False
        return bool(rising & first.stops) or questions is True or \
            bool(questions) and first.taken(questions)  # type: ignore[arg-type]

    return first.until(proved)


def _questions(track: LocalTrack, corp: str, coord: str, old: Any, old_rotation: int,
               new: Any, rotation: int, mapping: dict[int, int]
               ) -> list[tuple[list[State], Node | None]] | bool:
    """Arrivals.extends' questions for the new paths of the tile (states arriving where
    one starts, the node it leads to), True when one starts at a station of the company,
    [] when extends cannot tell from routes (the tile joins stops, changes which routes
    a city stops, keeps not every path, or the company's destination marker is on the
    hex) or no path is new."""
    marker = board.markers.get(f"destination:{corp}") if (board := track.board).markers \
        else None
    if sorted(mapping) != list(range(len(old.stops))) or \
            len(set(mapping.values())) != len(mapping) or \
            (marker is not None and marker.get("hex") == coord):
        return []

    def moved(end: End) -> End:
        return End("stop", mapping.get(end.n, end.n)) if end.kind == "stop" else end

    kept = {frozenset(moved(e) for e in path) for path in old.rotated_paths(old_rotation)}
    paths = new.rotated_paths(rotation)
    fresh = [path for path in paths if frozenset(path) not in kept]
    if not fresh or len(kept) + len(fresh) != len(paths):
        return []
    for i, j in mapping.items():
        node: Node = ("stop", coord, i)
        stop = new.stops[j]
        if track.blocks(node, corp) != stop_blocks(board, node, stop.kind, stop.slots,
                                                   board.tokens_at(coord, i), corp):
            return []
    was = {j: i for i, j in mapping.items()}
    starts = set(board.route_stations(corp))
    found: list[tuple[list[State], Node | None]] = []
    for a, b in fresh:
        for here, there in ((a, b), (b, a)):
            node_here = _old_node(track, coord, here, was)
            if node_here is None:
                continue
            if node_here[0] == "stop":
                if (node_here[1], node_here[2]) in starts:
                    return True
                if track.blocks(node_here, corp):
                    continue
            states = [v for v in track.arriving(node_here)
                      if node_here[0] == "stop" or v[0] != coord]
            if states:
                found.append((states, _old_node(track, coord, there, was)))
    return found


def _old_node(track: LocalTrack, coord: str, end: End, was: dict[int, int]) -> Node | None:
    """Arrivals._old_node: the node of the current board an end of the new tile stands
    for (None: a stop the current tile does not have)."""
    if end.kind == "edge":
        return ("side", *track.map.side(coord, end.n))
    index = was.get(end.n)
    return None if index is None else ("stop", coord, index)
