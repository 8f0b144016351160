"""The board: the static map of a title and the dynamic BoardState of a game.

Map holds what is printed (hexes, their stops, track, costs, labels, borders)
and the title's tile manifest and upgrade table; it never changes during a game.
BoardState holds what changes: laid tiles, station tokens, tiles left.
load_map() is the only code here that reads files (rules/<title>/map.json).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from . import hexes
from .tiles import Tile, load_tiles, parse_stop, parse_track, read_rules_json

HEX_KINDS = ("white", "yellow", "gray", "red")


@dataclass(frozen=True)
class River:
    """1870 river line through a hex: the edges on bank a and bank b, and the bank
    all track must keep to while the river is closed (None: any, but no crossing)."""

    a: frozenset[int]
    b: frozenset[int]
    track_only_on: str | None = None


@dataclass(frozen=True)
class MapHex:
    coord: str
    kind: str
    tile: Tile
    name: str | None = None
    label: str | None = None
    future_labels: Mapping[str, str] = field(default_factory=dict)
    cost: int = 0
    terrain: str | None = None
    impassable: frozenset[int] = frozenset()
    area: str | None = None
    hide_revenue: bool = False
    homes: Mapping[str, int | None] = field(default_factory=dict)
    private: str | None = None
    river: River | None = None
    marks: frozenset[str] = frozenset()

    def label_for(self, colour: str) -> str | None:
        """The label a tile of `colour` must carry on this hex (None: unlabelled)."""
        return self.future_labels.get(colour, self.label)

    @property
    def buildable(self) -> bool:
        return self.kind in ("white", "yellow")

    def describe(self) -> str:
        return f"{self.coord} ({self.name})" if self.name else self.coord


@dataclass(frozen=True)
class Map:
    title: str
    hexes: Mapping[str, MapHex]
    tiles: Mapping[str, Tile]
    manifest: Mapping[str, int]
    upgrades: Mapping[str, tuple[str, ...]]
    revenue_columns: tuple[str, ...] = ("yellow",)
    #: tiles whose cities an upgrade may join into one city (1830 V-7.8 flexible exits
    #: of #59; a game option chooses it, see engine/maps.py)
    joining: frozenset[str] = frozenset()

    def hex(self, coord: str) -> MapHex:
        found = self.hexes.get(coord)
        if found is not None:
            return found
        try:
            return self.hexes[hexes.normalise_coord(coord)]
        except (KeyError, ValueError):
            raise KeyError(f"There is no hex {coord} on the {self.title} map.") from None

    def __contains__(self, coord: object) -> bool:
        return isinstance(coord, str) and coord in self.hexes

    def neighbour(self, coord: str, edge: int) -> str | None:
        """The hex across `edge`, if the map has one there."""
        return self._neighbour_table[coord][edge]

    @cached_property
    def _neighbour_table(self) -> dict[str, tuple[str | None, ...]]:
        """Every hex's six neighbours (None off the map), computed once."""
        table = {}
        for coord in self.hexes:
            found = (hexes.neighbour(coord, e) for e in range(6))
            table[coord] = tuple(o if o in self.hexes else None for o in found)
        return table

    @cached_property
    def hex_order(self) -> dict[str, int]:
        """Each hex's place in `hexes` (the order of a TrackGraph's segments)."""
        return {coord: number for number, coord in enumerate(self.hexes)}

    @cached_property
    def path_nodes_memo(self) -> dict[tuple[str, int, int], Any]:
        """track.path_nodes' memo: per (hex, tile, rotation) the track graph's nodes
        of the tile's paths (the map holds its tiles, so their ids stay theirs)."""
        return {}

    @cached_property
    def track_shapes_memo(self) -> dict[frozenset[tuple[str, tuple[str, int]]], Any]:
        """track._shape's memo: the track of a picture of the laid tiles."""
        return {}

    @cached_property
    def hex_leaving_memo(self) -> dict[tuple[str, tuple[str, int] | None], Any]:
        """localtrack.hex_leaving's memo: per (hex, laid tile or None) the ways out of
        each node of its track."""
        return {}

    @cached_property
    def hex_links_memo(self) -> dict[tuple[str, tuple[str, int] | None], Any]:
        """track.hex_links' memo: per (hex, laid tile or None) the nodes each node of
        its track joins."""
        return {}

    @cached_property
    def hex_track_memo(self) -> dict[tuple[str, tuple[str, int] | None], Any]:
        """track.hex_track's memo: per (hex, laid tile or None) its stops and segments."""
        return {}

    def side(self, coord: str, edge: int) -> tuple[str, int]:
        """The side of `coord` across `edge` named from the hex that sorts first (by
        row, then column), so that both hexes of a side name it alike: (hex, edge)."""
        return self._side_table[coord][edge]

    @cached_property
    def _side_table(self) -> dict[str, tuple[tuple[str, int], ...]]:
        table = {}
        for coord in self.hexes:
            names = []
            for edge in range(6):
                other = self.neighbour(coord, edge)
                mine = (hexes.coord_sort_key(coord), edge, coord)
                if other is None:
                    names.append((coord, edge))
                    continue
                theirs = (hexes.coord_sort_key(other), hexes.opposite(edge), other)
                first = min(mine, theirs)
                names.append((first[2], first[1]))
            table[coord] = tuple(names)
        return table

    def neighbours(self, coord: str) -> dict[int, str]:
        return {e: n for e in range(6) if (n := self.neighbour(coord, e)) is not None}

    def exit_problem(self, coord: str, edge: int) -> str | None:
        """Why new track may not leave `coord` through `edge` (None: it may)."""
        side = hexes.edge_name(edge)
        other = self.neighbour(coord, edge)
        if other is None:
            return f"track would run off the map through the {side} side of {coord}"
        back = hexes.opposite(edge)
        if edge in self.hexes[coord].impassable or back in self.hexes[other].impassable:
            return f"the {side} side of {coord} is impassable"
        neighbour = self.hexes[other]
        if neighbour.kind in ("gray", "red") and back not in neighbour.tile.exits():
            return (f"track would end against the blank side of {neighbour.kind} hex "
                    f"{neighbour.describe()} ({side} of {coord})")
        return None

    def track_may_exit(self, coord: str) -> frozenset[int]:
        """Edges through which newly laid track may leave `coord`."""
        return frozenset(e for e in range(6) if self.exit_problem(coord, e) is None)


# -- dynamic state ----------------------------------------------------------------------------


@dataclass
class BoardState:
    """What changes on the board.  JSON-ready through to_dict/from_dict.

    tiles: hex -> (tile id, rotation) for every laid tile.
    tokens: hex -> one list per stop index of the hex's current tile (or printed
    hex), holding the corporations with a station there, in placement order.
    tiles_left: tile id -> copies still in the supply.
    markers: the other pieces on the map (1870), by name: "cattle" -> {hex, stop,
    corp}, "port" -> {hex, stop, corp, open}, "destination:<corp>" -> {hex, stop}
    (stop None: at the edge of the hex, in no city space).
    """

    tiles: dict[str, tuple[str, int]] = field(default_factory=dict)
    tokens: dict[str, list[list[str]]] = field(default_factory=dict)
    tiles_left: dict[str, int] = field(default_factory=dict)
    markers: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def new(cls, board_map: Map) -> BoardState:
        return cls(tiles_left=dict(board_map.manifest))

    def copy(self) -> BoardState:
        """A copy sharing nothing mutable (tiles are immutable tuples); made without the
        dataclass's constructor (every state's copy makes one), its fields in order."""
        copy = object.__new__(BoardState)
        copy.__dict__ = {
            "tiles": dict(self.tiles),
            "tokens": {c: [list(s) for s in stops] for c, stops in self.tokens.items()},
            "tiles_left": dict(self.tiles_left),
            "markers": {k: dict(v) for k, v in self.markers.items()}}
        return copy

    def to_dict(self) -> dict[str, Any]:
        return {
            "tiles": {c: [t, r] for c, (t, r) in sorted(self.tiles.items())},
            "tokens": {c: [list(s) for s in stops] for c, stops in sorted(self.tokens.items())},
            "tiles_left": dict(self.tiles_left),
            "markers": {k: dict(v) for k, v in sorted(self.markers.items())},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BoardState:
        return cls(
            tiles={c: (str(t), int(r)) for c, (t, r) in data.get("tiles", {}).items()},
            tokens={c: [list(s) for s in stops] for c, stops in data.get("tokens", {}).items()},
            tiles_left={t: int(n) for t, n in data.get("tiles_left", {}).items()},
            markers={k: dict(v) for k, v in data.get("markers", {}).items()},
        )

    def tokens_at(self, coord: str, stop: int) -> list[str]:
        stops = self.tokens.get(coord, [])
        return list(stops[stop]) if stop < len(stops) else []

    def markers_at(self, coord: str) -> dict[str, dict[str, Any]]:
        """The markers (cattle, port, destination) on hex `coord`, by name."""
        return {k: m for k, m in self.markers.items() if m.get("hex") == coord}

    def stations(self, corp: str) -> Iterator[tuple[str, int]]:
        """(hex, stop index) of every station of `corp`."""
        for coord, stops in sorted(self.tokens.items()):
            for index, corps in enumerate(stops):
                if corp in corps:
                    yield coord, index

    def route_stations(self, corp: str) -> list[tuple[str, int]]:
        """The stations a route of `corp` may start from: its stations, and (1870) its
        destination station marker placed at the edge of the destination hex (it is
        one of the company's station markers, Operate Trains p.21; Connection Run
        p.23), which stands for the city there (the destinations have one)."""
        found = list(self.stations(corp))
        marker = self.markers.get(f"destination:{corp}")
        if marker is not None and marker.get("stop") is None:
            found.append((str(marker["hex"]), 0))
        return sorted(set(found))


def tile_at(board_map: Map, board: BoardState, coord: str) -> tuple[Tile, int]:
    """The hex's current tile and rotation: the laid tile, or the printed hex at 0."""
    laid = board.tiles.get(coord)
    if laid is None:
        return board_map.hex(coord).tile, 0
    tile_id, rotation = laid
    return board_map.tiles[tile_id], rotation


@dataclass(frozen=True)
class StopView:
    """A stop as it is now: current revenue (for the phase's column), exits, tokens."""

    coord: str
    index: int
    kind: str
    revenue: int
    slots: int
    tokens: tuple[str, ...]
    exits: frozenset[int]
    area: str | None

    @property
    def full(self) -> bool:
        return self.kind == "city" and len(self.tokens) >= self.slots

    def blocks(self, corp: str) -> bool:
        """A route of `corp` may not pass through this stop (it may still end here)."""
        if self.kind == "offboard":
            return True
        return self.kind == "city" and self.full and corp not in self.tokens


def stops_at(
    board_map: Map, board: BoardState, coord: str, column: str | int
) -> list[StopView]:
    """Every stop of the hex's current tile with revenue for phase column `column`
    (a name such as "brown", or an index into Map.revenue_columns)."""
    if isinstance(column, int):
        column = board_map.revenue_columns[column]
    tile, rotation = tile_at(board_map, board, coord)
    area = board_map.hex(coord).area
    return [
        StopView(coord, i, stop.kind, stop.value(column), stop.slots,
                 tuple(board.tokens_at(coord, i)), tile.stop_exits(i, rotation), area)
        for i, stop in enumerate(tile.stops)
    ]


def place_token(board_map: Map, board: BoardState, coord: str, stop: int, corp: str) -> None:
    """Put `corp`'s station on stop `stop` of `coord` (no rule checks: decide first)."""
    tile, _ = tile_at(board_map, board, coord)
    stops = board.tokens.setdefault(coord, [])
    while len(stops) < len(tile.stops):
        stops.append([])
    stops[stop].append(corp)


def remove_token(board: BoardState, coord: str, stop: int, corp: str) -> None:
    board.tokens[coord][stop].remove(corp)


# -- loading ----------------------------------------------------------------------------------


def _parse_hex(coord: str, data: Mapping[str, Any]) -> MapHex:
    kind = data["kind"]
    if kind not in HEX_KINDS:
        raise ValueError(f"{coord}: bad hex kind {kind!r}")
    tile = Tile(
        id=f"@{coord}",
        colour=kind,
        label=data.get("label"),
        stops=tuple(parse_stop(s) for s in data.get("stops", [])),
        paths=tuple(parse_track(t) for t in data.get("track", [])),
    )
    river = data.get("river")
    return MapHex(
        coord=coord,
        kind=kind,
        tile=tile,
        name=data.get("name"),
        label=data.get("label"),
        future_labels=dict(data.get("labels", {})),
        cost=data.get("cost", 0),
        terrain=data.get("terrain"),
        impassable=frozenset(data.get("impassable", [])),
        area=data.get("area"),
        hide_revenue=data.get("hide_revenue", False),
        homes=dict(data.get("home", {})),
        private=data.get("private"),
        river=River(frozenset(river["a"]), frozenset(river["b"]), river["track_only_on"])
        if river else None,
        marks=frozenset(data.get("marks", [])),
    )


def load_map(title: str, tiles: Mapping[str, Tile] | None = None) -> Map:
    """The map of `title` from rules/<title>/map.json (tiles from rules/tiles.json)."""
    data = read_rules_json(f"{title}/map.json")
    all_tiles = load_tiles() if tiles is None else tiles
    manifest = {t: int(n) for t, n in data["manifest"].items()}
    missing = sorted(set(manifest) - set(all_tiles))
    if missing:
        raise ValueError(f"{title} manifest names unknown tiles: {', '.join(missing)}")
    return Map(
        title=data["title"],
        hexes={c: _parse_hex(c, h) for c, h in data["hexes"].items()},
        tiles={t: all_tiles[t] for t in manifest},
        manifest=manifest,
        upgrades={old: tuple(new) for old, new in data.get("upgrades", {}).items()},
        revenue_columns=tuple(data.get("revenue_columns", ["yellow"])),
    )
