"""What each hex shows now: the one model behind the text map, the listing and the SVG.

Everything comes from the static map, the BoardState and a few answers passed in by
the caller (the phase's revenue column, the hexes blocked by private companies, the
corporations' homes); nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.engine.board import hexes
from pbem.engine.board.map import BoardState, Map, tile_at
from pbem.engine.board.tiles import End

#: Edges in the order the command language lists them (SW W NW NE E SE).
EDGE_ORDER = tuple(range(6))


@dataclass(frozen=True)
class StopView:
    index: int
    kind: str  # city, town, offboard
    revenue: int  # in the phase's column (0 on a white hex without a tile)
    values: tuple[int, ...]  # off-board: the value in each revenue column
    slots: int
    tokens: tuple[str, ...]
    reserved: tuple[str, ...]  # homes kept free for corporations without a station here
    exits: tuple[int, ...]
    at: float | None = None  # drawing hint from the data (edge position)


@dataclass(frozen=True)
class MarkerView:
    """A piece on the map that is not a station (1870): the cattle token, the open or
    closed port, a company's destination marker (stop None: at the edge of the hex)."""

    kind: str  # cattle, port, destination
    corp: str | None  # the owning company (cattle, port) or whose destination it is
    stop: int | None
    open: bool = True  # a port: open or closed

    @property
    def name(self) -> str:
        if self.kind == "port":
            return "open port" if self.open else "closed port"
        if self.kind == "cattle":
            return "cattle token"
        return "destination marker"


def marker_views(board: BoardState, coord: str) -> tuple[MarkerView, ...]:
    """The markers on ``coord``, in a fixed order (cattle, port, destinations)."""
    found = getattr(board, "markers", None)
    if not isinstance(found, dict):
        return ()
    result = []
    for key, marker in sorted(found.items()):
        if not isinstance(marker, dict) or marker.get("hex") != coord:
            continue
        kind, _, owner = key.partition(":")
        stop = marker.get("stop")
        result.append(MarkerView(kind, owner or marker.get("corp"),
                                 None if stop is None else int(stop),
                                 bool(marker.get("open", True))))
    order = {"cattle": 0, "port": 1}
    return tuple(sorted(result, key=lambda m: (order.get(m.kind, 2), m.corp or "")))


@dataclass(frozen=True)
class HexView:
    coord: str
    name: str | None
    kind: str  # printed kind: white, yellow, gray, red
    colour: str  # current colour: white, yellow, green, brown, gray, red
    tile: str | None  # id of the laid tile, None for the printed hex
    rotation: int
    label: str | None
    exits: tuple[int, ...]
    paths: tuple[tuple[End, End], ...]  # rotated
    stops: tuple[StopView, ...]
    cost: int  # terrain cost, only while no tile is laid
    terrain: str | None
    blocked_by: str | None
    area: str | None
    impassable: tuple[int, ...]
    homes: tuple[tuple[str, int | None], ...] = ()  # corporation, home city (None: either)
    marks: tuple[str, ...] = ()
    river: bool = False
    future_labels: tuple[tuple[str, str], ...] = ()  # tile colour, label it must carry
    markers: tuple[MarkerView, ...] = ()  # 1870 cattle, port, destination markers

    @property
    def row_col(self) -> tuple[int, int]:
        return hexes.parse_coord(self.coord)

    @property
    def has_content(self) -> bool:
        """Worth a line in the listing: track, a stop, a cost, a block, a label or a home."""
        return bool(self.paths or self.stops or self.cost or self.blocked_by or self.label
                    or self.tile or self.homes or self.impassable or self.marks
                    or self.markers)

    def plain_paths(self) -> list[tuple[int, int]]:
        """Track from edge to edge (not through a stop), edges in order."""
        result = []
        for a, b in self.paths:
            if a.kind == "edge" and b.kind == "edge":
                pair = (a.n, b.n) if a.n <= b.n else (b.n, a.n)
                result.append(pair)
        return sorted(result)

    def stations(self) -> list[str]:
        return [corp for stop in self.stops for corp in stop.tokens]


def edges_text(edges: tuple[int, ...] | list[int]) -> str:
    """(0, 3) -> "SW-NE"."""
    return "-".join(hexes.edge_name(e) for e in sorted(edges))


def board_view(
    board_map: Map,
    board: BoardState,
    column: str,
    blocked: Mapping[str, str] | None = None,
    homes: Mapping[str, tuple[str, int | None]] | None = None,
    spent: frozenset[str] = frozenset(),
) -> dict[str, HexView]:
    """Every hex of the map as it is now, by coordinate (sorted by row, then column).

    ``column``: the phase's revenue column; ``blocked``: hex -> private company that
    blocks it; ``homes``: corporation -> (home hex, city index or None) for the
    corporations whose home station is not on the board yet; ``spent``: printed marks
    no longer of use (1870: "cattle" once the cattle token is placed or its company
    closed).
    """
    blocked = blocked or {}
    reserved: dict[str, list[tuple[str, int | None]]] = {}
    for corp, (coord, city) in (homes or {}).items():
        reserved.setdefault(coord, []).append((corp, city))
    result = {}
    for coord in sorted(board_map.hexes, key=hexes.coord_sort_key):
        result[coord] = hex_view(board_map, board, coord, column, blocked.get(coord),
                                 reserved.get(coord, []), spent)
    return result


_CACHE: dict[tuple[Any, ...], tuple[Map, HexView]] = {}


def hex_view(
    board_map: Map,
    board: BoardState,
    coord: str,
    column: str,
    blocked_by: str | None = None,
    reserved: list[tuple[str, int | None]] | None = None,
    spent: frozenset[str] = frozenset(),
) -> HexView:
    """One hex as it is now (cached: a board changes a few hexes at a time)."""
    spent = spent & board_map.hexes[coord].marks
    key = (id(board_map), coord, board.tiles.get(coord),
           tuple(tuple(s) for s in board.tokens.get(coord, [])), column, blocked_by,
           tuple(reserved or ()), marker_views(board, coord), spent)
    cached = _CACHE.get(key)
    if cached is not None and cached[0] is board_map:
        return cached[1]
    if len(_CACHE) > 50_000:
        _CACHE.clear()
    view = _hex_view(board_map, board, coord, column, blocked_by, reserved, spent)
    _CACHE[key] = (board_map, view)  # the map is kept alive, so its id is not reused
    return view


def _hex_view(
    board_map: Map,
    board: BoardState,
    coord: str,
    column: str,
    blocked_by: str | None,
    reserved: list[tuple[str, int | None]] | None,
    spent: frozenset[str] = frozenset(),
) -> HexView:
    printed = board_map.hexes[coord]
    tile, rotation = tile_at(board_map, board, coord)
    laid = board.tiles.get(coord)
    stops = tuple(
        _stop_view(board_map, board, coord, i, column, rotation, reserved or [])
        for i in range(len(tile.stops))
    )
    colour = tile.colour
    return HexView(
        coord=coord,
        name=printed.name,
        kind=printed.kind,
        colour=colour,
        tile=laid[0] if laid else None,
        rotation=rotation,
        label=tile.label,
        exits=tuple(sorted(tile.exits(rotation))),
        paths=tile.rotated_paths(rotation),
        stops=stops,
        cost=0 if laid else printed.cost,
        terrain=printed.terrain,
        blocked_by=blocked_by,
        area=printed.area,
        impassable=tuple(sorted(printed.impassable)),
        homes=tuple(printed.homes.items()),
        marks=tuple(sorted(printed.marks - spent)),
        river=printed.river is not None,
        future_labels=tuple(printed.future_labels.items()),
        markers=marker_views(board, coord),
    )


def _stop_view(
    board_map: Map, board: BoardState, coord: str, index: int, column: str, rotation: int,
    reserved: list[tuple[str, int | None]],
) -> StopView:
    tile, _ = tile_at(board_map, board, coord)
    stop = tile.stops[index]
    tokens = tuple(board.tokens_at(coord, index))
    if isinstance(stop.revenue, int):
        values: tuple[int, ...] = (stop.revenue,)
        revenue = stop.revenue
    else:
        values = tuple(stop.revenue.get(c, 0) for c in board_map.revenue_columns
                       if c in stop.revenue)
        revenue = stop.value(column) if column in stop.revenue else values[0]
    kept = tuple(corp for corp, city in reserved
                 if stop.kind == "city" and city == index and corp not in tokens)
    return StopView(index, stop.kind, revenue, values, stop.slots, tokens, kept,
                    tuple(sorted(tile.stop_exits(index, rotation))), stop.at)
