"""The board's track read hex by hex, as far as a walk goes.

A TrackGraph numbers every segment of the board (its _Shape, made once per picture of
the laid tiles: after every tile lay).  A question that walks a few hexes from some
stops (a written run's legs, whether a company's routes reach a new tile) needs none of
that: LocalTrack reads each hex's track when a walk first comes to it (track.hex_track,
remembered by the map per hex and tile) and answers in the TrackGraph's terms and
order, so that a walk here takes the same steps as on the TrackGraph.

A segment is (hex, path index of the hex's current tile); a state is a segment
travelled one way, (hex, path index, way): way 0 arrives at the path's second end, way
1 at its first (the TrackGraph's states 2*s and 2*s + 1).  Nodes are the TrackGraph's.
"""

from __future__ import annotations

from .map import BoardState, Map
from .track import EndsReached, Node, Segment, hex_track, stop_blocks

#: A segment travelled one way (see the module doc).
State = tuple[str, int, int]


#: The states leaving each node of a hex's track: (path index, way), by path index.
Leaving = dict[Node, tuple[tuple[int, int], ...]]


def hex_leaving(board_map: Map, coord: str, laid: tuple[str, int] | None) -> Leaving:
    """The ways out of each node of hex `coord`'s track with tile `laid` (None: the
    printed hex) along its paths, remembered by the map."""
    key = (coord, laid)
    found = board_map.hex_leaving_memo.get(key)
    if found is None:
        ways: dict[Node, list[tuple[int, int]]] = {}
        for segment in hex_track(board_map, coord, laid)[1]:
            first, second = segment.ends
            ways.setdefault(first, []).append((segment.index, 0))
            if second != first:
                ways.setdefault(second, []).append((segment.index, 1))
        found = board_map.hex_leaving_memo[key] = {n: tuple(w) for n, w in ways.items()}
    return found  # type: ignore[no-any-return]


class LocalTrack:
    """The track of `board` (copied: the board may change after) on `board_map`."""

    def __init__(self, board_map: Map, board: BoardState) -> None:
        self.map = board_map
        self.board = board = board.copy()
        self._tiles = board.tiles
        self._order = board_map.hex_order
        self._segments: dict[str, tuple[Segment, ...]] = {}
        self._leaving: dict[str, Leaving] = {}
        self._leaving_node: dict[Node, list[State]] = {}
        self._arrival: dict[State, Node] = {}
        self._onward: dict[State, list[State]] = {}
        self._blocks: dict[tuple[Node, str | None], bool] = {}

    def segments(self, coord: str) -> tuple[Segment, ...]:
        """The segments of hex `coord`'s current tile, by path index."""
        found = self._segments.get(coord)
        if found is None:
            found = self._segments[coord] = hex_track(self.map, coord, self._tiles.get(coord))[1]
        return found

    def _ways_out(self, coord: str) -> Leaving:
        found = self._leaving.get(coord)
        if found is None:
            found = self._leaving[coord] = hex_leaving(self.map, coord, self._tiles.get(coord))
        return found

    def ends_reached(self, seg: tuple[str, int]) -> EndsReached:
        """The stops and the hex edges at the segment's ends (TrackGraph.reached_ends)."""
        coord, index = seg
        return hex_track(self.map, coord, self._tiles.get(coord))[2][index]

    def arriving(self, node: Node) -> list[State]:
        """The states arriving at `node` (TrackGraph.arriving, in another order)."""
        return [(c, i, 1 - w) for c, i, w in self.leaving(node)]

    def _hexes_at(self, node: Node) -> list[str]:
        """The hexes with track that may end at `node`, in the map's order."""
        if node[0] == "stop":
            return [node[1]]
        other = self.map.neighbour(node[1], node[2])
        if other is None:
            return [node[1]]
        return sorted((node[1], other), key=self._order.__getitem__)

    def leaving(self, node: Node) -> list[State]:
        """The states leaving `node`, in the TrackGraph's order (its segments by hex in
        the map's order, then by path index)."""
        found = self._leaving_node.get(node)
        if found is None:
            found = self._leaving_node[node] = [
                (c, i, w) for c in self._hexes_at(node) for i, w in self._ways_out(c).get(node, ())]
        return found

    def arrival(self, state: State) -> Node:
        """The node `state` arrives at."""
        found = self._arrival.get(state)
        if found is None:
            coord, index, way = state
            found = self._arrival[state] = self.segments(coord)[index].ends[1 - way]
        return found

    def onward(self, state: State) -> list[State]:
        """The states a route may go on to after `state` when the node it arrives at does
        not stop it (TrackGraph.onward_states): at a hex side the track of the next hex,
        at a stop its other segments."""
        found = self._onward.get(state)
        if found is None:
            coord, index, _ = state
            node = self.arrival(state)
            if node[0] == "stop":
                found = [(coord, i, w) for i, w in self._ways_out(coord)[node] if i != index]
            else:
                other = node[1] if node[1] != coord else self.map.neighbour(node[1], node[2])
                found = [] if other is None else \
                    [(other, i, w) for i, w in self._ways_out(other).get(node, ())]
            self._onward[state] = found
        return found

    def blocks(self, node: Node, corp: str | None) -> bool:
        """TrackGraph.blocks: a route of `corp` may not pass through this node
        (remembered: the board copied here does not change)."""
        if node[0] != "stop":
            return False
        found = self._blocks.get((node, corp))
        if found is None:
            coord, index = node[1], node[2]
            kind, slots = hex_track(self.map, coord, self._tiles.get(coord))[0][node]
            stops = self.board.tokens.get(coord, [])
            tokens = stops[index] if index < len(stops) else []
            found = self._blocks[(node, corp)] = stop_blocks(self.board, node, kind, slots,
                                                             tokens, corp)
        return found

    def successors(self, corp: str, state: State) -> list[State]:
        """TrackGraph.successors_of: nowhere after a stop that blocks `corp`."""
        node = self.arrival(state)
        if node[0] == "stop" and self.blocks(node, corp):
            return []
        return self.onward(state)
