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

from collections import deque
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain

from ..memo import ByIdentity
from . import hexes
from .closures import closures
from .map import BoardState, Map, MapHex, tile_at
from .tiles import STOP_KINDS, End, Tile, TrackPath, next_colour, upgrade_maps

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
    def fitting() -> list[int]:
        if tile_problem(board_map, board, coord, tile_id, phase_colours) is not None:
            return []
        return [r for r in range(6) if rotation_problem(
            board_map, board, coord, tile_id, r, river_closed=river_closed) is None]

    fits = remembered_fits(board_map, board, coord, tile_id, phase_colours, river_closed,
                           fitting)
    if corp is None:
        return fits
    return [r for r in fits if new_tile_connected(board_map, board, coord, tile_id, r, corp)]


#: remembered_fits' memo: the rotations per map and question
_FITS: ByIdentity[list[int]] = ByIdentity(20_000)


def remembered_fits(board_map: Map, board: BoardState, coord: str, tile_id: str,
                    phase_colours: Collection[str], river_closed: bool,
                    fitting: Callable[[], list[int]]) -> list[int]:
    """fitting(): the rotations at which `tile_id` fits `coord` by the map (tile_problem
    and rotation_problem, or a title's own reading of them on `board_map`'s variants),
    remembered by what they read: the map, the hex's tile and the stations on its stops,
    whether a copy of the tile is left, the phase's colours and the river (listing the
    lays asks the same of every position)."""
    key = (coord, board.tiles.get(coord),
           tuple(len(corps) for corps in board.tokens.get(coord, ())), tile_id,
           board.tiles_left.get(tile_id, 0) > 0, tuple(phase_colours), river_closed)
    return list(_FITS.get((board_map,), key, fitting))


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
    edges = sorted(new.exits(rotation))

    def where() -> str:  # made only for a problem (most rotations asked have none)
        exits = "-".join(hexes.edge_name(e) for e in edges)
        return f"tile {tile_id} on {coord} ({exits})"

    if not upgrade_maps(old, old_rot, new, rotation, join=old.id in board_map.joining):
        return f"With {where()} the existing track of {coord} would not be kept."
    for edge in edges:
        problem = board_map.exit_problem(coord, edge)
        if problem is not None:
            return f"With {where()} {problem}."
    if token_map(board_map, board, coord, tile_id, rotation) is None:
        return f"With {where()} the stations on {coord} would not keep their cities."
    hex_ = board_map.hexes[coord]
    if river_closed and hex_.river is not None and not _river_ok(hex_, new, rotation):
        return f"With {where()} track would cross the river, which is closed."
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
            return dict(mapping)  # upgrade_maps' are shared
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


def stop_blocks(board: BoardState, node: Node, kind: str, slots: int, tokens: list[str],
                corp: str | None) -> bool:
    """Whether a stop of this kind, with these slots and stations, stops a route of
    `corp` passing through it (an off-board always does; a city full of other
    corporations' stations does)."""
    if kind == "offboard":
        return True
    if kind != "city":
        return False
    if len(tokens) < slots or (corp is not None and corp in tokens):
        return False
    if corp is None:
        return True
    # 1870: the company's destination marker at the edge of the hex (Connection Run)
    marker = board.markers.get(f"destination:{corp}") if board.markers else None
    return marker is None or marker.get("stop") is not None \
        or (marker["hex"], 0) != (node[1], node[2])


@dataclass(frozen=True)
class Segment:
    """One path of a hex's current tile, between two nodes."""

    coord: str
    index: int
    ends: tuple[Node, Node]

    def other(self, node: Node) -> Node:
        return self.ends[1] if node == self.ends[0] else self.ends[0]


def path_nodes(board_map: Map, coord: str, tile: Tile, rotation: int
               ) -> tuple[tuple[Node, Node], ...]:
    """The nodes at both ends of each path of `tile` laid on `coord` at `rotation`
    (remembered by the map: a track graph is made for every position)."""
    key = (coord, id(tile), rotation)
    memo = board_map.path_nodes_memo
    found = memo.get(key)
    if found is None:
        found = memo[key] = tuple(
            (_node(board_map, coord, a.kind, a.n), _node(board_map, coord, b.kind, b.n))
            for a, b in tile.rotated_paths(rotation))
    return found  # type: ignore[no-any-return]


def _node(board_map: Map, coord: str, kind: str, n: int) -> Node:
    """The node of a tile's path end ("stop" or "edge" `n`) on `coord`."""
    if kind == "stop":
        return ("stop", coord, n)
    name, edge = board_map.side(coord, n)
    return ("side", name, edge)


class _Shape:
    """The track of a position's tiles, without its stations: the segments, the
    segments at each node, the kind and slots of each stop.  Positions with the same
    tiles share one (placing a station changes no track; the map keeps the last few)."""

    def __init__(self, board_map: Map, board: BoardState) -> None:
        self.segments: list[Segment] = []
        self.at: dict[Node, list[int]] = {}
        self.stops: dict[Node, tuple[str, int]] = {}
        #: per segment, the stops and edges of its hex at its ends (Reach)
        self.reached_ends: list[EndsReached] = []
        for coord in board_map.hexes:
            stops, segments, ends = hex_track(board_map, coord, board.tiles.get(coord))
            self.stops.update(stops)
            self.reached_ends.extend(ends)
            for segment in segments:
                number = len(self.segments)
                self.at.setdefault(segment.ends[0], []).append(number)
                self.at.setdefault(segment.ends[1], []).append(number)
                self.segments.append(segment)

    @cached_property
    def arrivals(self) -> list[Node]:
        return [n for seg in self.segments for n in (seg.ends[1], seg.ends[0])]

    @cached_property
    def sides(self) -> list[Node]:
        return [node for node in self.at if node[0] == "side"]

    @cached_property
    def may_block(self) -> list[Node]:
        """The stops that block every route without a station on them (stop_blocks): the
        off-boards and the cities without slots."""
        return [node for node, (kind, slots) in self.stops.items()
                if kind == "offboard" or (kind == "city" and slots <= 0)]

    def into(self, node: Node) -> list[int]:
        """The states arriving at `node`, in order (state 2*s arrives at the second end
        of segment s, 2*s + 1 at the first)."""
        found = []
        for seg in sorted(set(self.at.get(node, ()))):
            ends = self.segments[seg].ends
            if ends[1] == node:
                found.append(2 * seg)
            if ends[0] == node:
                found.append(2 * seg + 1)
        return found

    @cached_property
    def onward(self) -> list[list[int] | None]:
        """For each state, the states a route may go on to when the node it arrives at
        does not stop it (onward_of), once asked."""
        return [None] * len(self.arrivals)

    def onward_of(self, state: int) -> list[int]:
        """The states a route may go on to after `state` when the node it arrives at does
        not stop it (TrackGraph.onward): at a side, the track of the next hex; at a stop,
        its other segments."""
        segments, node, seg = self.segments, self.arrivals[state], state // 2
        if node[0] == "side":
            here = segments[seg].coord
            ahead = [s for s in self.at[node] if segments[s].coord != here]
        else:
            ahead = [s for s in self.at[node] if s != seg]
        found = self.onward[state] = [
            2 * s + (0 if segments[s].ends[0] == node else 1) for s in ahead]
        return found


#: track shapes a map keeps (_shape), the most recent ones
SHAPES_KEPT = 16


def _shape(board_map: Map, board: BoardState) -> _Shape:
    key = frozenset(board.tiles.items())
    memo = board_map.track_shapes_memo
    found = memo.get(key)
    if found is None:
        if len(memo) >= SHAPES_KEPT:
            memo.clear()
        found = memo[key] = _Shape(board_map, board)
    return found  # type: ignore[no-any-return]


#: the stops and the edges of a segment's hex at its ends: ((hex, stop), ...), ((hex, edge), ...)
EndsReached = tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]


def hex_track(board_map: Map, coord: str, laid: tuple[str, int] | None
               ) -> tuple[dict[Node, tuple[str, int]], tuple[Segment, ...],
                          tuple[EndsReached, ...]]:
    """The stops (kind, slots), the segments and the ends of each segment of hex `coord`
    with tile `laid` (None: the printed hex), remembered by the map (all immutable)."""
    memo = board_map.hex_track_memo
    key = (coord, laid)
    found = memo.get(key)
    if found is None:
        tile, rotation = (board_map.hex(coord).tile, 0) if laid is None \
            else (board_map.tiles[laid[0]], laid[1])
        stops = {("stop", coord, index): (stop.kind, stop.slots)
                 for index, stop in enumerate(tile.stops)}
        segments = tuple(Segment(coord, index, ends) for index, ends
                         in enumerate(path_nodes(board_map, coord, tile, rotation)))
        reached = tuple(
            (tuple((coord, end.n) for end in path if end.kind == "stop"),
             tuple((coord, end.n) for end in path if end.kind != "stop"))
            for path in tile.rotated_paths(rotation))
        found = memo[key] = (stops, segments, reached)
    return found  # type: ignore[no-any-return]


def hex_links(board_map: Map, coord: str, laid: tuple[str, int] | None
              ) -> dict[Node, tuple[Node, ...]]:
    """For each node of hex `coord`'s track with tile `laid` (None: the printed hex),
    the nodes at the other ends of its segments there, in the order of the hex's paths
    (a TrackGraph's ``at`` for this hex), remembered by the map."""
    key = (coord, laid)
    found = board_map.hex_links_memo.get(key)
    if found is None:
        links: dict[Node, list[Node]] = {}
        for segment in hex_track(board_map, coord, laid)[1]:
            for end in segment.ends:
                links.setdefault(end, []).append(segment.other(end))
        found = board_map.hex_links_memo[key] = {n: tuple(o) for n, o in links.items()}
    return found  # type: ignore[no-any-return]


def fewest_stops(board_map: Map, board: BoardState, start: tuple[str, int],
                 goals: Collection[tuple[str, int]], corp: str, most: int | None = None,
                 read: set[str] | None = None) -> int | None:
    """The fewest stops, both ends counted, that a walk along the track from stop
    `start` to one of `goals` passes without passing a stop that blocks `corp`, or
    None when no walk joins them (with `most`: none passing at most `most` stops; the
    walks stop looking there).  A route counts every stop it passes (1830 6.4.1, 1870
    p.21), so no train that counts fewer stops has a route between them: a bound
    asked before a route search (a walk may turn back or reuse track, a route may
    not).  `read`: gets the hexes whose track and stations the answer read (the
    hexes of the stops and sides the walks came to): with the same tiles and
    stations there, and the same destination marker, the answer is the same.

    The walks go the other way, from the goals to `start`: a walk passes the same
    stops either way (its ends may block, the stops between may not), so the fewest
    are the same, and a company's destination usually has less track about it than
    its home (about a third of the hexes read on the 1870 logs of 18xx.games).  They
    read each hex's track as they come to it (hex_links), without a TrackGraph of the
    whole board."""
    ends = [("stop", c, i) for c, i in goals if c in board_map]  # others: no track
    best: dict[Node, int] = dict.fromkeys(ends, 1)
    ring = deque(best)  # 0-1 breadth first: a stop costs one, a hex side none
    target: Node = ("stop", *start)
    tiles, tokens, order = board.tiles, board.tokens, board_map.hex_order
    neighbours, memo = board_map.neighbour, board_map.hex_links_memo
    seen = read if read is not None else set()
    while ring:
        node = ring.popleft()
        cost = best[node]
        if most is not None and cost > most:
            return None  # the ring is in order of cost: every walk left passes more
        kind, coord, number = node
        if kind == "side" and (across := neighbours(coord, number)) is not None:
            hexes_at: tuple[str, ...] = (coord, across) if order[coord] < order[across] \
                else (across, coord)
        else:
            hexes_at = (coord,)
        seen.update(hexes_at)
        if node == target:
            return cost  # the first taken off the ring is the nearest
        if kind == "stop" and cost > 1:  # a walk may start at a goal that blocks
            stop_kind, slots = hex_track(board_map, coord, tiles.get(coord))[0][node]
            stops = tokens.get(coord, [])
            if stop_blocks(board, node, stop_kind, slots,
                           stops[number] if number < len(stops) else [], corp):
                continue
        for here in hexes_at:
            laid = tiles.get(here)
            links = memo.get((here, laid))
            if links is None:
                links = hex_links(board_map, here, laid)
            for other in links.get(node, ()):
                step = 1 if other[0] == "stop" else 0
                if best.get(other, cost + step + 1) > cost + step:
                    best[other] = cost + step
                    if step:
                        ring.append(other)
                    else:
                        ring.appendleft(other)
    return None

class TrackGraph:
    """The track on the board as segments between stops and hex sides (of the board as
    it is when the graph is made: it keeps a copy, so a graph may be kept for a board
    that changes afterwards)."""

    def __init__(self, board_map: Map, board: BoardState) -> None:
        self.map = board_map
        self.board = board = board.copy()
        shape = _shape(board_map, board)
        self._shape = shape
        self.segments: list[Segment] = shape.segments
        self.at: dict[Node, list[int]] = shape.at
        self._stations: dict[Node, list[str]] = {
            ("stop", coord, index): corps
            for coord, stops in board.tokens.items() for index, corps in enumerate(stops)}
        self._regions: dict[str, frozenset[int]] = {}
        self._successors: dict[str, list[Sequence[int]]] = {}
        self._blocking: dict[str, frozenset[Node]] = {}

    def node(self, coord: str, kind: str, n: int) -> Node:
        """The node of a tile's path end ("stop" or "edge" `n`) on `coord`."""
        return _node(self.map, coord, kind, n)

    @property
    def arrivals(self) -> list[Node]:
        """The node each directed state arrives at: state 2*s at the second end of
        segment s, 2*s + 1 at the first (RouteMoves, RouteGraph)."""
        return self._shape.arrivals

    @property
    def sides(self) -> list[Node]:
        """The hex sides with track, in the order of `at`."""
        return self._shape.sides

    @property
    def reached_ends(self) -> list[EndsReached]:
        """For each segment, the stops and the edges of its hex at its ends, as
        (hex, stop index) and (hex, edge) (Reach)."""
        return self._shape.reached_ends

    def arriving(self, node: Node) -> list[int]:
        """The states arriving at `node` (Arrivals)."""
        return self._shape.into(node)

    def region(self, corp: str) -> frozenset[int]:
        """station_region(self, corp), remembered (the graph does not change)."""
        got = self._regions.get(corp)
        if got is None:
            got = self._regions[corp] = frozenset(station_region(self, corp))
        return got

    def region_stops(self, corp: str) -> set[tuple[str, int]]:
        """The stops of the region of `corp`'s stations: its stations and the stops
        the region's track touches.  Every stop a legal route of `corp` reaches is one
        (reachable(...).stops lies within them)."""
        found = set(self.board.route_stations(corp))
        for seg in self.region(corp):
            found.update((n[1], n[2]) for n in self.segments[seg].ends if n[0] == "stop")
        return found

    def fewest_stops(self, start: tuple[str, int], goals: Collection[tuple[str, int]],
                     corp: str, most: int | None = None, read: set[str] | None = None
                     ) -> int | None:
        """fewest_stops(...) on this graph's board."""
        return fewest_stops(self.map, self.board, start, goals, corp, most, read)

    def successors(self, corp: str) -> list[Sequence[int]]:
        """For each directed state (see RouteMoves) of the region of `corp`'s stations,
        the states a route of `corp` may go on to (onward); none outside the region.
        Remembered: a company's RouteMoves and RouteGraph read the same."""
        found = self._successors.get(corp)
        if found is None:
            shape, blocking = self._shape, self.blocking(corp)
            arrive, onward = shape.arrivals, shape.onward
            found = [()] * len(arrive)
            for seg in self.region(corp):
                for v in (2 * seg, 2 * seg + 1):
                    if arrive[v] not in blocking:
                        ahead = onward[v]
                        found[v] = ahead if ahead is not None else shape.onward_of(v)
            self._successors[corp] = found
        return found

    def leg_region(self, corp: str, stops: Collection[Node]) -> frozenset[int]:
        """The segments of the region of `corp`'s stations that a leg of a route from
        one of `stops` (to the next stop, through hex sides only) may travel: each stop's
        segments in the region, and onward from each hex side reached as a route may go,
        up to the next stop.  Every way between two of `stops` through sides only is
        there (RouteGraph ``near``)."""
        region, shape = self.region(corp), self._shape
        arrive, segments = shape.arrivals, self.segments
        work = [2 * seg + (0 if segments[seg].ends[0] == node else 1)
                for node in stops for seg in self.at.get(node, ()) if seg in region]
        walked: set[int] = set()
        while work:
            state = work.pop()
            if state not in walked:
                walked.add(state)
                if arrive[state][0] == "side":  # a side blocks no one: successors() there
                    ahead = shape.onward[state]
                    work.extend(ahead if ahead is not None else shape.onward_of(state))
        return frozenset(state >> 1 for state in walked)

    def onward_states(self, state: int) -> Sequence[int]:
        """The states a route may go on to after `state` when the node it arrives at
        does not stop it (a hex side stops no one): the shape's, remembered."""
        ahead = self._shape.onward[state]
        return ahead if ahead is not None else self._shape.onward_of(state)

    def successors_of(self, corp: str, state: int) -> Sequence[int]:
        """successors(corp)[state] for a state of the region of `corp`'s stations,
        without making the whole list (a RouteGraph on a leg_region)."""
        if self._shape.arrivals[state] in self.blocking(corp):
            return ()
        ahead = self._shape.onward[state]
        return ahead if ahead is not None else self._shape.onward_of(state)

    def blocking(self, corp: str) -> frozenset[Node]:
        """The stops a route of `corp` may not pass (blocks), remembered: of the board's
        stops, the off-boards and cities without slots (`_Shape.may_block`) and the
        stops with stations (a city with a free slot blocks no one)."""
        found = self._blocking.get(corp)
        if found is None:
            stops = self._shape.stops
            found = self._blocking[corp] = frozenset(
                node for node in chain(self._shape.may_block, self._stations)
                if node in stops and self.blocks(node, corp))
        return found

    def blocks(self, node: Node, corp: str | None) -> bool:
        """A route may not pass through this node (it may still start or end there)."""
        if node[0] != "stop":
            return False
        kind, slots = self._shape.stops[node]
        return stop_blocks(self.board, node, kind, slots, self._stations.get(node, []), corp)

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


def reachable(board_map: Map, board: BoardState, corp: str,
              moves: RouteMoves | None = None) -> Reach:
    """Everything `corp` can reach by a legal route from one of its stations (`moves`:
    the RouteMoves of `corp` on the board, when the caller has them)."""
    moves = moves or RouteMoves(TrackGraph(board_map, board), corp)
    graph = moves.graph
    starts = [("stop", c, i) for c, i in board.route_stations(corp)]
    segs, exact = _RouteSearch(moves).run(starts)
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
    segs, _ = _RouteSearch(RouteMoves(graph, corp)).run(starts, goal)
    return bool(segs & goal)


def _reach(graph: TrackGraph, segs: set[int], starts: list[Node], exact: bool) -> Reach:
    paths: set[tuple[str, int]] = set()
    edges: set[tuple[str, int]] = set()
    stops = {(n[1], n[2]) for n in starts}
    segments, reached = graph.segments, graph.reached_ends
    for seg_id in segs:
        seg = segments[seg_id]
        paths.add((seg.coord, seg.index))
        at_stops, at_edges = reached[seg_id]
        stops.update(at_stops)
        edges.update(at_edges)
    return Reach(frozenset(paths), frozenset(stops), frozenset(edges), exact)


def station_region(graph: TrackGraph, corp: str) -> set[int]:
    """The segments of the region of `corp`'s stations: the track joined to one of them
    through nodes a route may pass (sides, stops that do not block `corp`; a stop that
    blocks is in the region, the track beyond it is not, unless joined to a station
    another way).  Every legal route of `corp` runs in its region (a route passes a
    station and passes no stop that blocks), and so does every way between two stops
    of the region that a route may take."""
    starts: list[Node] = [("stop", c, i) for c, i in graph.board.route_stations(corp)]
    seen = set(starts)
    segs: set[int] = set()
    at, segments, blocking = graph.at, graph.segments, graph.blocking(corp)
    while starts:
        node = starts.pop()
        for seg in at.get(node, ()):
            if seg in segs:
                continue
            segs.add(seg)
            ends = segments[seg].ends
            other = ends[1] if ends[0] == node else ends[0]
            if other not in seen:
                seen.add(other)
                if other not in blocking:
                    starts.append(other)
    return segs


class RouteMoves:
    """The moves of a corporation's routes on a track graph.  A state is a segment
    travelled in one direction: state 2*s arrives at the second end of segment s,
    2*s + 1 at the first; succ[state] are the states a route may go on to from there.
    Nodes are bits (bit[node]; node_bit[state]: the bit of the node the state arrives
    at), so that the nodes a route has used are one int.  The searches of this module
    share one per board and corporation (ortrack keeps them)."""

    def __init__(self, graph: TrackGraph, corp: str) -> None:
        self.graph = graph
        self.corp = corp
        self.arrive: list[Node] = graph.arrivals
        #: the states of the region of the corporation's stations (station_region), in
        #: order: the searches start from its stations, so no walk leaves them; the
        #: other states lead nowhere here
        self.states = [v for seg in sorted(graph.region(corp))
                       for v in (2 * seg, 2 * seg + 1)]
        self.succ: list[Sequence[int]] = graph.successors(corp)
        self.bit: dict[Node, int] = {}
        self.node_bit = [0] * len(self.arrive)
        for v in self.states:
            node = self.arrive[v]
            if node not in self.bit:
                self.bit[node] = 1 << len(self.bit)
            self.node_bit[v] = self.bit[node]

    @cached_property
    def segment_walks(self) -> list[int]:
        """For each state, the bit set of segments some walk from it travels (itself
        included; 0 outside the region)."""
        return self._walks(lambda v: 1 << (v // 2))

    @cached_property
    def state_walks(self) -> list[int]:
        """For each state, the bit set of the states some walk from it takes (0 outside
        the region)."""
        return self._walks(lambda v: 1 << v)

    def _walks(self, own: Callable[[int], int]) -> list[int]:
        states, succ = self.states, self.succ
        index = {v: i for i, v in enumerate(states)}
        found = closures([own(v) for v in states],
                         [[(index[w], 0) for w in succ[v]] for v in states])
        result = [0] * len(succ)
        for v, bits in zip(states, found, strict=True):
            result[v] = bits
        return result

    def state(self, seg: int, start: Node) -> int:
        """The state of travelling `seg` away from `start`."""
        return 2 * seg + (0 if self.graph.segments[seg].ends[0] == start else 1)

    def first(self, starts: list[Node]) -> list[tuple[int, Node]]:
        """The states leaving each start, with their start."""
        for node in starts:
            if node not in self.bit:
                self.bit[node] = 1 << len(self.bit)
        return [(self.state(s, n), n) for n in starts for s in self.graph.at.get(n, [])]

    def short_routes(self, first: list[tuple[int, Node]]) -> dict[int, int]:
        """Legal routes found breadth first, keeping one route per state: for each state
        reached so, the nodes of its route.  Only a start: a state that only other
        routes to some state lead on to is missed (the depth-first searches go on from
        here)."""
        routes: dict[int, int] = {}
        queue: list[int] = []
        for state, start in first:
            if state not in routes:
                routes[state] = self.bit[start] | self.node_bit[state]
                queue.append(state)
        succ, node_bit = self.succ, self.node_bit
        for state in queue:  # the queue grows while it is read
            used = routes[state]
            for nxt in succ[state]:
                if nxt not in routes and not used & node_bit[nxt]:
                    routes[nxt] = used | node_bit[nxt]
                    queue.append(nxt)
        return routes


class _RouteSearch:
    """Depth-first search over legal routes (no segment, side or stop used twice).

    To stay fast the search starts from the segments short_routes reaches and prunes a
    branch once everything reachable from there by any walk (ignoring what the route
    has used: its "closure", a bit set of segments) is already reached.  When the
    search runs over SEARCH_BUDGET steps it returns the closure of the stations
    instead, which can only be too generous (routes that would turn round on a loop).
    """

    def __init__(self, moves: RouteMoves) -> None:
        self.moves = moves
        self.graph = moves.graph
        self.closure = moves.segment_walks

    def run(self, starts: list[Node], goal: set[int] | None = None) -> tuple[set[int], bool]:
        first = self.moves.first(starts)
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
        moves = self.moves
        reached, steps = 0, 0
        for state in moves.short_routes(first):
            reached |= 1 << (state // 2)
        closure, succ, node_bit = self.closure, moves.succ, moves.node_bit
        for state, start in first:
            used = moves.bit[start] | node_bit[state]
            stack = [(state, iter(succ[state]))]
            while stack:
                steps += 1
                if steps > SEARCH_BUDGET:
                    return None
                if reached == upper or reached & goal:
                    return reached
                top, options = stack[-1]
                nxt = next(options, None)
                if nxt is None:
                    stack.pop()
                    used &= ~node_bit[top]
                    continue
                bit = node_bit[nxt]
                if used & bit:
                    continue  # (a segment used has both its ends used)
                reached |= 1 << (nxt // 2)
                if not closure[nxt] & ~reached:
                    continue
                used |= bit
                stack.append((nxt, iter(succ[nxt])))
        return reached


def closed_lay_ok(
    board_map: Map, board: BoardState, coord: str, tile_id: str, rotation: int, corp: str,
    column: str | int, reached: frozenset[tuple[str, int]] | None = None,
    rise_counts: bool = True, arrivals: Arrivals | None = None,
) -> bool:
    """The "closed" (restrictive) style of laying track (1830 variant V-7.6
    semi-restricted, and 1870): some track of the new tile that was not on the old one
    must extend a route of the corporation, or a city the corporation reaches must rise
    in value (not with ``rise_counts`` False: V-7.6 restricted).

    With `arrivals` (of `corp` on this board) most candidates are answered from the
    routes of the board as it is (Arrivals.extends); the others, and all without it,
    by a search on a copy of the board with the tile laid."""
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
    if arrivals is not None:
        paths = new.rotated_paths(rotation)
        known = arrivals.extends(coord, new, mapping, [paths[i] for i in sorted(fresh)],
                                 len(kept) + len(fresh) == len(paths))
        if known is not None:
            return known
    trial = board.copy()
    lay_tile(board_map, trial, coord, tile_id, rotation)
    graph = TrackGraph(board_map, trial)
    goal = {i for i, s in enumerate(graph.segments) if s.coord == coord and s.index in fresh}
    starts = [("stop", c, i) for c, i in trial.route_stations(corp)]
    if not goal:
        return False
    segs, _ = _RouteSearch(RouteMoves(graph, corp)).run(starts, goal)
    return bool(segs & goal)


class Arrivals:
    """How the legal routes of a corporation arrive at the nodes of the track as it is:
    for each state (a segment travelled one way) some legal route takes, the nodes of
    the first such route found, as a bit set (bit[node]).  Made once per board and
    corporation, it answers for a tile lay whether new track would extend a route
    (closed_lay_ok) without building the track graph again: a legal route on the
    board with the tile laid that takes new track takes some first new segment, and
    before it only track that was there before; for that part the old board and the
    new one are the same graph, as long as the tile keeps its stops apart and every
    city on it stops the same routes as before (Arrivals.extends checks that).

    The routes are found in steps, as questions need them: short_routes first (cheap;
    they prove most lays), then, when a lay is not proved by them, the walks from the
    stations (a lay no walk can extend is refused), and last the depth-first search of
    _RouteSearch over states, which finds every state a route takes; over
    SEARCH_BUDGET steps it stops (`exact` False) and the routes found so far still
    prove a lay."""

    def __init__(self, moves: RouteMoves) -> None:
        self.moves = moves
        self.graph = moves.graph
        self.board = self.graph.board  # a copy: the board may change after
        self.corp = moves.corp
        self.starts = self.board.route_stations(self.corp)
        self._first = moves.first([("stop", c, i) for c, i in self.starts])
        self.routes: dict[int, int] = moves.short_routes(self._first)
        self._upper: int | None = None
        self.complete = False
        self.exact = False

    @cached_property
    def found_reach(self) -> Reach:
        """What the routes found so far reach (`exact` False): part of reachable(...)
        (every route found is a legal route), made without the depth-first search."""
        starts: list[Node] = [("stop", c, i) for c, i in self.starts]
        return _reach(self.graph, {state // 2 for state in self.routes}, starts, False)

    @classmethod
    def of(cls, board_map: Map, board: BoardState, corp: str) -> Arrivals:
        return cls(RouteMoves(TrackGraph(board_map, board), corp))

    def walks(self) -> int:
        """The bit set of the states some walk from the stations takes (every state a
        legal route takes is one)."""
        if self._upper is None:
            self._upper = 0
            for state, _ in self._first:
                self._upper |= self.moves.state_walks[state]
        return self._upper

    def complete_search(self) -> None:
        """Find a route for every state a legal route takes (`exact`), or stop over
        SEARCH_BUDGET steps."""
        if self.complete:
            return
        self.complete = True
        upper = self.walks()
        moves = self.moves
        closure, succ, node_bit, routes = moves.state_walks, moves.succ, moves.node_bit, \
            self.routes
        reached, steps = 0, 0
        for state in routes:
            reached |= 1 << state
        for state, start in self._first:
            used = moves.bit[start] | node_bit[state]
            stack = [(state, iter(succ[state]))]
            while stack:
                steps += 1
                if steps > SEARCH_BUDGET:
                    return
                if reached == upper:
                    self.exact = True
                    return
                top, options = stack[-1]
                nxt = next(options, None)
                if nxt is None:
                    stack.pop()
                    used &= ~node_bit[top]
                    continue
                bit = node_bit[nxt]
                if used & bit:
                    continue
                if not reached >> nxt & 1:
                    reached |= 1 << nxt
                    routes[nxt] = used | bit
                if not closure[nxt] & ~reached:
                    continue
                used |= bit
                stack.append((nxt, iter(succ[nxt])))
        self.exact = True

    def extends(self, coord: str, new: Tile, mapping: dict[int, int],
                fresh: list[TrackPath], keeps_all: bool) -> bool | None:
        """Whether, with `new` laid on `coord` (its stops given by `mapping` from the
        current tile's stops; `fresh` its paths that are not on the current tile;
        `keeps_all`: every current path is one of its paths), a legal route of the
        corporation takes some fresh path.  None when this cannot tell: the new tile
        joins stops or makes a city stop other routes, the corporation's destination
        marker is on the hex (1870), or the answer is no but the search was not exact."""
        graph = self.graph
        old, _ = tile_at(graph.map, self.board, coord)
        marker = self.board.markers.get(f"destination:{self.corp}")
        if not keeps_all or sorted(mapping) != list(range(len(old.stops))) \
                or len(set(mapping.values())) != len(mapping) \
                or (marker is not None and marker.get("hex") == coord):
            return None
        for i, j in mapping.items():
            node = ("stop", coord, i)
            stop = new.stops[j]
            tokens = self.board.tokens_at(coord, i)
            if graph.blocks(node, self.corp) != \
                    stop_blocks(self.board, node, stop.kind, stop.slots, tokens, self.corp):
                return None
        was = {j: i for i, j in mapping.items()}
        questions = []  # (states arriving where new track starts, the node it leads to)
        for a, b in fresh:
            for here, there in ((a, b), (b, a)):
                arrivals = self._arrivals(coord, self._old_node(coord, here, was))
                if arrivals is True:
                    return True
                if arrivals:
                    questions.append((arrivals, self._old_node(coord, there, was)))
        answer = self._taken(questions)
        if not answer and not self.complete:
            if not any(self.walks() >> s & 1 for states, _ in questions for s in states):
                return False  # no walk arrives there, so no route does
            self.complete_search()
            answer = self._taken(questions)
        return answer if answer or self.exact else None

    def _old_node(self, coord: str, end: End, was: dict[int, int]) -> Node | None:
        """The node of the current board an end of the new tile stands for (None: a stop
        the current tile does not have)."""
        if end.kind == "edge":
            return self.graph.node(coord, "edge", end.n)
        index = was.get(end.n)
        return None if index is None else ("stop", coord, index)

    def _arrivals(self, coord: str, here: Node | None) -> list[int] | bool:
        """The states by which a route arriving at `here` may go on along a new path of
        `coord` (True: `here` is a station of the corporation, where a route may start)."""
        if here is None:
            return []
        if here[0] == "stop":
            if (here[1], here[2]) in self.starts:
                return True
            if self.graph.blocks(here, self.corp):
                return []
        return [state for state in self.graph.arriving(here)
                if here[0] == "stop" or self.graph.segments[state // 2].coord != coord]

    def _taken(self, questions: list[tuple[list[int], Node | None]]) -> bool | None:
        """Whether a route found arrives by one of the states and has not passed the node
        the new path leads to: True; False when no route found arrives; None when the
        routes found all pass that node."""
        answer: bool | None = False
        for states, there in questions:
            avoid = self.moves.bit.get(there, 0) if there is not None else 0
            for state in states:
                route = self.routes.get(state)
                if route is None:
                    continue
                if not route & avoid:
                    return True
                answer = None
        return answer
