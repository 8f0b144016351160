"""Laying tiles (rule 6.2) and tracing routes on the track (6.3.3, 6.4.2).

Laying: lay_problem() gives the first reason, as a sentence for the player, why a
tile may not be laid at a rotation (None when it may); placements() lists the
rotations that pass; lay_tile() applies a lay to a BoardState (no checks).

Track graph: nodes are stops (cities, towns, off-boards) and hex sides; each
path of a hex's current tile is a segment between two nodes.  A route crosses a
side from one hex into the other (so it never reverses at a junction), leaves a
stop by another segment than it came in on, passes no off-board and no city
whose slots are all full of other corporations' stations, and uses no segment,
side or stop twice.  reachable() finds everything a corporation's routes reach.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from . import hexes
from .closures import closures
from .map import BoardState, Map, MapHex, tile_at
from .tiles import STOP_KINDS, End, Tile, next_colour, upgrade_maps

# -- laying tiles -----------------------------------------------------------------------------


def placements(
    board_map: Map,
    board: BoardState,
    coord: str,
    tile_id: str,
    phase_colours: Collection[str],
    *,
    corp: str | None = None,
    river_closed: bool = False,
) -> list[int]:
    """Every rotation (0-5) at which `tile_id` may be laid on `coord` (rule 6.2).

    With `corp`, the corporation must also be able to trace a route to the new
    track (6.2.1/6.2.2, C-1.4).  Rotations laying identical track are all listed;
    see tiles.unique_rotations.
    """
    if tile_problem(board_map, board, coord, tile_id, phase_colours) is not None:
        return []
    return [
        r for r in range(6)
        if rotation_problem(board_map, board, coord, tile_id, r, river_closed=river_closed)
        is None and (corp is None or new_tile_connected(board_map, board, coord, tile_id, r, corp))
    ]


def lay_problem(
    board_map: Map,
    board: BoardState,
    coord: str,
    tile_id: str,
    rotation: int,
    phase_colours: Collection[str],
    *,
    corp: str | None = None,
    river_closed: bool = False,
) -> str | None:
    """Why `tile_id` may not be laid on `coord` at `rotation`, or None if it may."""
    problem = tile_problem(board_map, board, coord, tile_id, phase_colours)
    if problem is None:
        problem = rotation_problem(
            board_map, board, coord, tile_id, rotation, river_closed=river_closed
        )
    if problem is None and corp is not None:
        if not new_tile_connected(board_map, board, coord, tile_id, rotation, corp):
            problem = f"{corp} cannot trace a route from its stations to the new track on {coord}."
    return problem


def tile_problem(
    board_map: Map, board: BoardState, coord: str, tile_id: str, phase_colours: Collection[str]
) -> str | None:
    """The checks that do not depend on the rotation."""
    if coord not in board_map:
        return f"There is no hex {coord} on the {board_map.title} map."
    hex_ = board_map.hexes[coord]
    new = board_map.tiles.get(tile_id)
    if new is None:
        return f"Tile {tile_id} is not part of {board_map.title}."
    if board.tiles_left.get(tile_id, 0) <= 0:
        return f"No tile {tile_id} is left."
    if new.colour not in phase_colours:
        allowed = ", ".join(c for c in ("yellow", "green", "brown", "gray") if c in phase_colours)
        return f"{new.colour.capitalize()} tiles may not be laid yet (now: {allowed})."
    if not hex_.buildable:
        return f"No tile may be laid on {hex_.kind} hex {hex_.describe()}."
    old, _ = tile_at(board_map, board, coord)
    if next_colour(old.colour) != new.colour:
        return (f"{hex_.describe()} is {_what(old)}: only a {next_colour(old.colour)} tile "
                f"may go there, and tile {tile_id} is {new.colour}.")
    wanted = hex_.label_for(new.colour)
    if new.label != wanted:
        if wanted is None:
            return f"Tile {tile_id} ({new.label}) may only be laid on a hex labelled {new.label}."
        return f"{hex_.describe()} needs a {new.colour} tile labelled {wanted}."
    if old.label is None and any(old.count(k) != new.count(k) for k in STOP_KINDS):
        return f"Tile {tile_id} has {_stops(new)}; {hex_.describe()} has {_stops(old)}."
    if coord in board.tiles and tile_id not in board_map.upgrades.get(old.id, ()):
        allowed = ", ".join(board_map.upgrades.get(old.id, ())) or "nothing"
        return f"Tile {old.id} may be upgraded only to {allowed}."
    return None


def rotation_problem(
    board_map: Map,
    board: BoardState,
    coord: str,
    tile_id: str,
    rotation: int,
    *,
    river_closed: bool = False,
) -> str | None:
    """The checks of one rotation: old track and stations kept, exits fit the map."""
    new = board_map.tiles[tile_id]
    old, old_rot = tile_at(board_map, board, coord)
    exits = "-".join(hexes.edge_name(e) for e in sorted(new.exits(rotation)))
    where = f"tile {tile_id} on {coord} ({exits})"
    if not upgrade_maps(old, old_rot, new, rotation, join=old.id in board_map.joining):
        return f"With {where} the existing track of {coord} would not be kept."
    for edge in sorted(new.exits(rotation)):
        problem = board_map.exit_problem(coord, edge)
        if problem is not None:
            return f"With {where} {problem}."
    if token_map(board_map, board, coord, tile_id, rotation) is None:
        return f"With {where} the stations on {coord} would not keep their cities."
    hex_ = board_map.hexes[coord]
    if river_closed and hex_.river is not None and not _river_ok(hex_, new, rotation):
        return f"With {where} track would cross the river, which is closed."
    return None


def _what(tile: Tile) -> str:
    if tile.id.startswith("@"):
        return f"a {tile.colour} hex"
    return f"tile {tile.id} ({tile.colour})"


def _stops(tile: Tile) -> str:
    parts = []
    for kind in STOP_KINDS:
        n = tile.count(kind)
        if n:
            parts.append(f"{n} {kind}" + ("s" if n > 1 else ""))
    return " and ".join(parts) or "no city or town"


def token_map(
    board_map: Map, board: BoardState, coord: str, tile_id: str, rotation: int
) -> dict[int, int] | None:
    """Where the stops of the current tile (and their stations) land on the new tile:
    the first stop map keeping all track whose cities have room for the stations
    (None if there is none).  Stops keep their index where they can.  A tile of
    Map.joining may be upgraded so that one new city joins the track of several old
    ones (1830 V-7.8), while their stations fit into it."""
    old, old_rot = tile_at(board_map, board, coord)
    new = board_map.tiles[tile_id]
    for mapping in upgrade_maps(old, old_rot, new, rotation, join=old.id in board_map.joining):
        held: dict[int, int] = {}
        for i, j in mapping.items():
            held[j] = held.get(j, 0) + len(board.tokens_at(coord, i))
        if all(n <= new.stops[j].slots for j, n in held.items() if n):
            return mapping
    return None


def joins_cities(mapping: dict[int, int]) -> bool:
    """Whether a stop map (token_map) puts several old cities on one new city."""
    return len(set(mapping.values())) < len(mapping)


def _river_ok(hex_: MapHex, tile: Tile, rotation: int) -> bool:
    """1870 closed river: each connected piece of track keeps to one bank (the given
    bank, if the hex names one)."""
    river = hex_.river
    assert river is not None
    banks = [river.a, river.b]
    if river.track_only_on is not None:
        banks = [river.a if river.track_only_on == "a" else river.b]
    return all(any(edges <= bank for bank in banks) for edges in _pieces(tile, rotation))


def _pieces(tile: Tile, rotation: int) -> list[frozenset[int]]:
    """The edges of each connected piece of the tile's track (joined at stops/edges)."""
    pieces: list[set[End]] = []
    for a, b in tile.rotated_paths(rotation):
        joined = [p for p in pieces if a in p or b in p]
        merged: set[End] = {a, b}.union(*joined)
        pieces = [p for p in pieces if p not in joined] + [merged]
    return [frozenset(e.n for e in p if e.kind == "edge") for p in pieces]


def tokens_after_lay(board_map: Map, board: BoardState, coord: str, tile_id: str,
                     rotation: int) -> list[list[str]] | None:
    """The stations on ``coord`` once the tile lies there, one list per stop of the new
    tile (each city's stations moved to the city token_map gives it); None when the hex
    has no stations."""
    mapping = token_map(board_map, board, coord, tile_id, rotation)
    if mapping is None:
        raise ValueError(f"tile {tile_id} at rotation {rotation} does not fit {coord}")
    if coord not in board.tokens:
        return None
    moved: list[list[str]] = [[] for _ in board_map.tiles[tile_id].stops]
    for old_index, corps in enumerate(board.tokens[coord]):
        if corps:
            moved[mapping[old_index]] += corps
    return moved


def lay_tile(board_map: Map, board: BoardState, coord: str, tile_id: str, rotation: int) -> None:
    """Put the tile on the board: supply counts, stations moved to their new cities.
    Apply only what lay_problem() accepted."""
    old, _ = tile_at(board_map, board, coord)
    tokens = tokens_after_lay(board_map, board, coord, tile_id, rotation)
    if coord in board.tiles:
        board.tiles_left[old.id] = board.tiles_left.get(old.id, 0) + 1
    board.tiles_left[tile_id] = board.tiles_left.get(tile_id, 0) - 1
    board.tiles[coord] = (tile_id, rotation)
    if tokens is not None:
        board.tokens[coord] = tokens


# -- the track graph --------------------------------------------------------------------------

#: ("stop", hex, stop index) or ("side", hex, edge); a side is named from the hex
#: that sorts first, so both hexes of a side share one node.
Node = tuple[str, str, int]


@dataclass(frozen=True)
class Segment:
    """One path of a hex's current tile, between two nodes."""

    coord: str
    index: int
    ends: tuple[Node, Node]

    def other(self, node: Node) -> Node:
        return self.ends[1] if node == self.ends[0] else self.ends[0]


class TrackGraph:
    """The track on the board as segments between stops and hex sides."""

    def __init__(self, board_map: Map, board: BoardState) -> None:
        self.map = board_map
        self.board = board
        self.segments: list[Segment] = []
        self.at: dict[Node, list[int]] = {}
        self._closed: dict[Node, tuple[str, int, list[str]]] = {}
        for coord in board_map.hexes:
            tile, rotation = tile_at(board_map, board, coord)
            for index, stop in enumerate(tile.stops):
                tokens = board.tokens_at(coord, index)
                self._closed[("stop", coord, index)] = (stop.kind, stop.slots, tokens)
            for index, (a, b) in enumerate(tile.rotated_paths(rotation)):
                ends = (self._node(coord, a.kind, a.n), self._node(coord, b.kind, b.n))
                self.at.setdefault(ends[0], []).append(len(self.segments))
                self.at.setdefault(ends[1], []).append(len(self.segments))
                self.segments.append(Segment(coord, index, ends))

    def _node(self, coord: str, kind: str, n: int) -> Node:
        if kind == "stop":
            return ("stop", coord, n)
        other = self.map.neighbour(coord, n)
        if other is None:
            return ("side", coord, n)
        mine = (hexes.coord_sort_key(coord), n, coord)
        theirs = (hexes.coord_sort_key(other), hexes.opposite(n), other)
        first = min(mine, theirs)
        return ("side", first[2], first[1])

    def blocks(self, node: Node, corp: str | None) -> bool:
        """A route may not pass through this node (it may still start or end there)."""
        if node[0] != "stop":
            return False
        kind, slots, tokens = self._closed[node]
        if kind == "offboard":
            return True
        if kind != "city":
            return False
        if len(tokens) < slots or (corp is not None and corp in tokens):
            return False
        if corp is None:
            return True
        # 1870: the company's destination marker at the edge of the hex (Connection Run)
        marker = self.board.markers.get(f"destination:{corp}") if self.board.markers else None
        return marker is None or marker.get("stop") is not None \
            or (marker["hex"], 0) != (node[1], node[2])

    def onward(self, seg: int, node: Node, corp: str | None) -> list[int]:
        """Segments a route may take after arriving at `node` along `seg`."""
        if node[0] == "side":
            here = self.segments[seg].coord
            return [s for s in self.at.get(node, []) if self.segments[s].coord != here]
        if self.blocks(node, corp):
            return []
        return [s for s in self.at.get(node, []) if s != seg]


@dataclass(frozen=True)
class Reach:
    """What a corporation's routes can reach: segments as (hex, path index of the
    hex's current tile), stops as (hex, stop index), edges as (hex, edge) where
    reached track touches a hex side.  `exact` is False when the search gave up
    (see reachable) and the result may include a little too much."""

    paths: frozenset[tuple[str, int]]
    stops: frozenset[tuple[str, int]]
    edges: frozenset[tuple[str, int]]
    exact: bool = True

    @property
    def hexes(self) -> frozenset[str]:
        return frozenset(c for c, _ in self.paths) | frozenset(c for c, _ in self.stops)


#: Steps of the exact route search before it falls back to the upper bound.
SEARCH_BUDGET = 200_000


def reachable(board_map: Map, board: BoardState, corp: str) -> Reach:
    """Everything `corp` can reach by a legal route from one of its stations."""
    graph = TrackGraph(board_map, board)
    starts = [("stop", c, i) for c, i in board.route_stations(corp)]
    segs, exact = _RouteSearch(graph, corp).run(starts)
    return _reach(graph, segs, starts, exact)


def new_tile_connected(
    board_map: Map, board: BoardState, coord: str, tile_id: str, rotation: int, corp: str
) -> bool:
    """Whether, with the tile laid, `corp` can trace a legal route from one of its
    stations to at least one track segment of the new tile (6.2.1, 6.2.2, C-1.4)."""
    trial = board.copy()
    lay_tile(board_map, trial, coord, tile_id, rotation)
    graph = TrackGraph(board_map, trial)
    goal = {i for i, s in enumerate(graph.segments) if s.coord == coord}
    starts = [("stop", c, i) for c, i in trial.route_stations(corp)]
    segs, _ = _RouteSearch(graph, corp).run(starts, goal)
    return bool(segs & goal)


def _reach(graph: TrackGraph, segs: set[int], starts: list[Node], exact: bool) -> Reach:
    paths: set[tuple[str, int]] = set()
    edges: set[tuple[str, int]] = set()
    stops = {(n[1], n[2]) for n in starts}
    for seg_id in segs:
        seg = graph.segments[seg_id]
        paths.add((seg.coord, seg.index))
        tile, rotation = tile_at(graph.map, graph.board, seg.coord)
        for end in tile.rotated_paths(rotation)[seg.index]:
            (stops if end.kind == "stop" else edges).add((seg.coord, end.n))
    return Reach(frozenset(paths), frozenset(stops), frozenset(edges), exact)


class _RouteSearch:
    """Depth-first search over legal routes (no segment, side or stop used twice).

    A state is a segment travelled in one direction: state 2*s arrives at the second
    end of segment s, 2*s + 1 at the first.  To stay fast the search prunes a branch
    once everything reachable from there by any walk (ignoring what the route has
    used: its "closure", a bit set of segments) is already reached.  When the search
    runs over SEARCH_BUDGET steps it returns the closure of the stations instead,
    which can only be too generous (routes that would turn round on a loop).
    """

    def __init__(self, graph: TrackGraph, corp: str) -> None:
        self.graph = graph
        segments = graph.segments
        self.arrive: list[Node] = [n for seg in segments for n in (seg.ends[1], seg.ends[0])]
        self.succ: list[list[int]] = [
            [self.state(nxt, node) for nxt in graph.onward(i // 2, node, corp)]
            for i, node in enumerate(self.arrive)
        ]
        self.closure = _closures(self.succ)

    def state(self, seg: int, start: Node) -> int:
        """The state of travelling `seg` away from `start`."""
        return 2 * seg + (0 if self.graph.segments[seg].ends[0] == start else 1)

    def run(self, starts: list[Node], goal: set[int] | None = None) -> tuple[set[int], bool]:
        first = [(self.state(s, n), n) for n in starts for s in self.graph.at.get(n, [])]
        upper = 0
        for state, _ in first:
            upper |= self.closure[state]
        goal_bits = sum(1 << s for s in goal) if goal is not None else 0
        if goal is not None and not upper & goal_bits:
            return set(), True
        reached = self._search(first, upper, goal_bits)
        bits = upper if reached is None else reached
        return {s for s in range(len(self.graph.segments)) if bits >> s & 1}, reached is not None

    def _search(self, first: list[tuple[int, Node]], upper: int, goal: int) -> int | None:
        """The bit set of reached segments, or None when over budget."""
        reached, steps = 0, 0
        for state, start in first:
            reached |= 1 << (state // 2)
            used_nodes = {start, self.arrive[state]}
            used_segs = 1 << (state // 2)
            stack = [(state, iter(self.succ[state]))]
            while stack:
                steps += 1
                if steps > SEARCH_BUDGET:
                    return None
                if reached == upper or reached & goal:
                    return reached
                top, moves = stack[-1]
                nxt = next(moves, None)
                if nxt is None:
                    stack.pop()
                    used_segs &= ~(1 << (top // 2))
                    used_nodes.discard(self.arrive[top])
                    continue
                bit, node = 1 << (nxt // 2), self.arrive[nxt]
                if used_segs & bit or node in used_nodes:
                    continue
                reached |= bit
                if not self.closure[nxt] & ~reached:
                    continue
                used_segs |= bit
                used_nodes.add(node)
                stack.append((nxt, iter(self.succ[nxt])))
        return reached


def _closures(succ: list[list[int]]) -> list[int]:
    """For each state, the bit set of segments some walk from it travels (itself
    included)."""
    own = [1 << (v // 2) for v in range(len(succ))]
    return closures(own, [[(w, 0) for w in ws] for ws in succ])


def closed_lay_ok(
    board_map: Map, board: BoardState, coord: str, tile_id: str, rotation: int, corp: str,
    column: str | int, reached: frozenset[tuple[str, int]] | None = None,
    rise_counts: bool = True,
) -> bool:
    """The "closed" (restrictive) style of laying track (1830 variant V-7.6
    semi-restricted, and 1870): some track of the new tile that was not on the old one
    must extend a route of the corporation, or a city the corporation reaches must rise
    in value (not with ``rise_counts`` False: V-7.6 restricted)."""
    old, old_rot = tile_at(board_map, board, coord)
    new = board_map.tiles[tile_id]
    mapping = token_map(board_map, board, coord, tile_id, rotation) or {}

    def moved(end: End) -> End:
        return End("stop", mapping.get(end.n, end.n)) if end.kind == "stop" else end

    if isinstance(column, int):
        column = board_map.revenue_columns[column]
    if reached is None:
        reached = reachable(board_map, board, corp).stops
    for old_index, new_index in mapping.items():  # the cheap test first
        if rise_counts and (coord, old_index) in reached and \
                new.stops[new_index].value(column) > old.stops[old_index].value(column):
            return True
    kept = {frozenset(moved(e) for e in path) for path in old.rotated_paths(old_rot)}
    fresh = {i for i, path in enumerate(new.rotated_paths(rotation))
             if frozenset(path) not in kept}
    if not fresh:
        return False
    trial = board.copy()
    lay_tile(board_map, trial, coord, tile_id, rotation)
    graph = TrackGraph(board_map, trial)
    goal = {i for i, s in enumerate(graph.segments) if s.coord == coord and s.index in fresh}
    starts = [("stop", c, i) for c, i in trial.route_stations(corp)]
    if not goal:
        return False
    segs, _ = _RouteSearch(graph, corp).run(starts, goal)
    return bool(segs & goal)
