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

from collections.abc import Collection

from .localtrack import LocalTrack, State
from .track import Node


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
        self.edges.update(self.track.edges(state[:2]))

    def touches(self, coord: str, edges: Collection[tuple[str, int]]) -> bool:
        """Whether a route found breadth first takes a segment on hex `coord` or one
        whose hex edge is one of `edges` (touches_reach on Arrivals.found_reach): the
        routes are followed until one does or none is left."""
        track, corp, routes, queue = self.track, self.corp, self.routes, self._queue
        while True:
            if coord in self.hexes or not self.edges.isdisjoint(edges):
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
