"""Track tiles: revenue centres ("stops"), track paths, rotation, upgrades.

A tile is defined at rotation 0.  Laid at rotation r it turns clockwise: its
edge e lies on hex side (e + r) % 6.  Stop indexes do not change with rotation.
A printed map hex is also described as a Tile (see board.MapHex.tile), so the
first tile on a hex and every later upgrade follow one rule (can_upgrade).

The loader at the end is the only code here that reads files (rules/tiles.json).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple, Protocol

from ..memo import ByIdentity
from ..rulesdata import load_json
from .hexes import coord_sort_key

#: Colours in laying order: each lay or upgrade goes exactly one step right.
COLOURS: tuple[str, ...] = ("white", "yellow", "green", "brown", "gray")

STOP_KINDS = ("city", "town", "offboard")


class End(NamedTuple):
    """One end of a track path: a hex edge ("edge", 0-5) or a stop ("stop", index)."""

    kind: str
    n: int

    def __str__(self) -> str:
        return str(self.n) if self.kind == "edge" else f"c{self.n}"


TrackPath = tuple[End, End]


@dataclass(frozen=True)
class Stop:
    """A revenue centre: a city (station slots), a town, or an off-board area.

    `revenue` is an int, or for off-board areas a mapping phase column -> value
    (1830: "yellow" = lesser value, "brown" = greater value).  `at` is a drawing
    hint only (edge position, e.g. 2.5 = between edges 2 and 3).
    """

    kind: str
    revenue: int | Mapping[str, int] = 0
    slots: int = 0
    at: float | None = None

    @property
    def takes_stations(self) -> bool:
        """A city, or an off-board area with a station space (1870: the Southwest, the
        Southern Pacific's home; "a city is a large city, a small city, or an off board
        location", Operate Trains, p.21)."""
        return self.kind == "city" or (self.kind == "offboard" and self.slots > 0)

    def value(self, column: str | None = None) -> int:
        """The revenue in the given phase column (plain ints ignore the column)."""
        if isinstance(self.revenue, int):
            return self.revenue
        if column is None or column not in self.revenue:
            raise KeyError(f"revenue column {column!r} is not one of {sorted(self.revenue)}")
        return self.revenue[column]


@dataclass(frozen=True)
class Tile:
    id: str
    colour: str
    label: str | None
    stops: tuple[Stop, ...]
    paths: tuple[TrackPath, ...]

    def rotated_paths(self, rotation: int = 0) -> tuple[TrackPath, ...]:
        return self._rotations[rotation % 6]

    def exits(self, rotation: int = 0) -> frozenset[int]:
        """Hex sides touched by track when laid at `rotation`."""
        return self._exit_sets[rotation % 6]

    @cached_property
    def _rotations(self) -> tuple[tuple[TrackPath, ...], ...]:
        return tuple(
            tuple((_turn(a, r), _turn(b, r)) for a, b in self.paths) for r in range(6)
        )

    @cached_property
    def _exit_sets(self) -> tuple[frozenset[int], ...]:
        return tuple(
            frozenset(end.n for path in paths for end in path if end.kind == "edge")
            for paths in self._rotations
        )

    def stop_exits(self, index: int, rotation: int = 0) -> frozenset[int]:
        """Hex sides joined directly to stop `index`."""
        stop = End("stop", index)
        found: set[int] = set()
        for a, b in self.rotated_paths(rotation):
            for this, other in ((a, b), (b, a)):
                if this == stop and other.kind == "edge":
                    found.add(other.n)
        return frozenset(found)

    def count(self, kind: str) -> int:
        return sum(1 for stop in self.stops if stop.kind == kind)

    def cities(self) -> list[int]:
        return [i for i, stop in enumerate(self.stops) if stop.kind == "city"]

    def layout(self, rotation: int) -> frozenset[frozenset[End]]:
        """The track at `rotation` as a set, to compare rotations (57 at 0 and 3 are alike)."""
        return frozenset(frozenset(path) for path in self.rotated_paths(rotation))


def _turn(end: End, rotation: int) -> End:
    return End("edge", (end.n + rotation) % 6) if end.kind == "edge" else end


def next_colour(colour: str) -> str | None:
    """The colour that may replace `colour` (None for gray/red: nothing may)."""
    if colour not in COLOURS or colour == COLOURS[-1]:
        return None
    return COLOURS[COLOURS.index(colour) + 1]


def unique_rotations(tile: Tile, rotations: list[int]) -> list[int]:
    """Drop rotations that lay the same track as an earlier one in the list."""
    seen: set[frozenset[frozenset[End]]] = set()
    result = []
    for rotation in rotations:
        layout = tile.layout(rotation)
        if layout not in seen:
            seen.add(layout)
            result.append(rotation)
    return result


# -- upgrades ---------------------------------------------------------------------------------


class LabelledHex(Protocol):
    """What the upgrade rule needs to know about a hex: its label for a tile colour."""

    def label_for(self, colour: str) -> str | None: ...


class BoardHex(LabelledHex, Protocol):
    """A map hex as the upgrade table sees it (board.MapHex is one)."""

    @property
    def coord(self) -> str: ...

    @property
    def tile(self) -> Tile: ...


def stop_maps(old: Tile, old_rot: int, new: Tile, new_rot: int) -> list[dict[int, int]]:
    """Every way to place the old tile's stops on distinct new stops of the same kind,
    each new stop having at least the old stop's exits.  The first is the natural one
    (stops keep their index where possible); tokens move along the chosen map."""
    candidates = range(len(new.stops))
    result = []
    for targets in itertools.permutations(candidates, len(old.stops)):
        mapping = dict(enumerate(targets))
        if all(_stop_fits(old, old_rot, new, new_rot, i, j) for i, j in mapping.items()):
            result.append(mapping)
    return result


def _stop_fits(old: Tile, old_rot: int, new: Tile, new_rot: int, i: int, j: int) -> bool:
    if old.stops[i].kind != new.stops[j].kind:
        return False
    return old.stop_exits(i, old_rot) <= new.stop_exits(j, new_rot)


def track_kept(
    old: Tile, old_rot: int, new: Tile, new_rot: int, mapping: Mapping[int, int]
) -> bool:
    """Every old path (stops renamed by `mapping`) is a path of the new tile."""
    new_paths = new.layout(new_rot)

    def moved(end: End) -> End:
        return End("stop", mapping[end.n]) if end.kind == "stop" else end

    return all(
        frozenset((moved(a), moved(b))) in new_paths for a, b in old.rotated_paths(old_rot)
    )


def upgrade_maps(old: Tile, old_rot: int, new: Tile, new_rot: int, *, join: bool = False
                 ) -> list[dict[int, int]]:
    """The stop maps under which `new` keeps all of `old`'s track (geometry only).
    With `join`, after them the maps that put several old cities on one new city having
    all their exits (1830 V-7.8 flexible exits: the long curve of a brown OO tile joins
    the two track segments of a #59).  Remembered per pair of tiles and rotations (the
    listing of lays asks the same pairs at every position): the maps are shared, not to
    be changed."""
    def made() -> list[dict[int, int]]:
        maps = stop_maps(old, old_rot, new, new_rot)
        if join:
            maps += joined_maps(old, old_rot, new, new_rot)
        return [m for m in maps if track_kept(old, old_rot, new, new_rot, m)]

    return list(_UPGRADE_MAPS.get((old, new), (old_rot, new_rot, join), made))


_UPGRADE_MAPS: ByIdentity[list[dict[int, int]]] = ByIdentity(100_000)


def joined_maps(old: Tile, old_rot: int, new: Tile, new_rot: int) -> list[dict[int, int]]:
    """The maps placing old stops on new stops of the same kind where some new city
    takes several old cities (and all their exits)."""
    result = []
    for targets in itertools.product(range(len(new.stops)), repeat=len(old.stops)):
        if len(set(targets)) == len(targets):
            continue  # one of stop_maps'
        mapping = dict(enumerate(targets))
        exits: dict[int, frozenset[int]] = {}
        for i, j in mapping.items():
            exits[j] = exits.get(j, frozenset()) | old.stop_exits(i, old_rot)
        if all(old.stops[i].kind == new.stops[j].kind == "city" for i, j in mapping.items()) \
                and all(e <= new.stop_exits(j, new_rot) for j, e in exits.items()):
            result.append(mapping)
    return result


def can_upgrade(
    old: Tile, old_rot: int, new: Tile, new_rot: int, hex: LabelledHex | None = None
) -> bool:
    """Whether `new` at `new_rot` may replace `old` at `old_rot` (reference rule 3.6).

    The new tile is exactly one colour later; the stop counts per kind are equal
    unless the old tile carries a label; labels match (the hex's label for the new
    colour when a hex is given, else the old tile's label); every old track path is
    kept, each old stop landing on its own new stop with at least its old exits.
    Whether the exits fit the map is board/track business, not this function's.
    """
    wanted = hex.label_for(new.colour) if hex is not None else old.label
    return new.label == wanted and keeps_track(old, old_rot, new, new_rot)


def keeps_track(old: Tile, old_rot: int, new: Tile, new_rot: int) -> bool:
    """can_upgrade without the label rule: colour, stop counts, track and stops kept."""
    if next_colour(old.colour) != new.colour:
        return False
    if old.label is None and any(old.count(k) != new.count(k) for k in STOP_KINDS):
        return False
    return bool(upgrade_maps(old, old_rot, new, new_rot))


def derive_upgrade_table(
    tiles: Mapping[str, Tile], hexes: Iterable[BoardHex]
) -> dict[str, list[dict[str, Any]]]:
    """The upgrade table of a title, in the reference's shape: old id -> list of
    {"to", "relative_rotations", "only_on_hexes"? / "not_on_hexes"?}.

    relative_rotations r: with the old tile at q, the new tile may lie at (q + r) % 6.
    Hex lists come from labels: a labelled new tile only where the hex asks for that
    label; an unlabelled one not where the hex asks for a label.
    """
    board = list(hexes)
    table: dict[str, list[dict[str, Any]]] = {}
    for old in tiles.values():
        table[old.id] = []
        homes = [h for h in board if may_lie_on(old, h)]
        for new in tiles.values():
            rotations = [r for r in range(6) if keeps_track(old, 0, new, r)]
            fits = [h for h in homes if h.label_for(new.colour) == new.label]
            if not rotations or not fits:
                continue
            entry: dict[str, Any] = {"to": new.id, "relative_rotations": rotations}
            if new.label is not None:
                entry["only_on_hexes"] = _coords(fits)
            elif len(fits) < len(homes):
                entry["not_on_hexes"] = _coords([h for h in homes if h not in fits])
            table[old.id].append(entry)
    return table


def may_lie_on(tile: Tile, hex: BoardHex) -> bool:
    """Whether `tile` could lie on `hex` by its label and its cities and towns."""
    if hex.label_for(tile.colour) != tile.label:
        return False
    printed = hex.tile
    return tile.label is not None or all(
        printed.count(k) == tile.count(k) for k in STOP_KINDS
    )


def _coords(board: list[BoardHex]) -> list[str]:
    return sorted((h.coord for h in board), key=coord_sort_key)


# -- loading ----------------------------------------------------------------------------------


def read_rules_json(relative: str) -> Any:
    """One JSON file of rules/ (rulesdata: $PBEM_RULES or <repo>/rules, or the folder a
    title registered)."""
    return load_json(relative)


def parse_track(text: str) -> TrackPath:
    """"0-c0" -> (End("edge", 0), End("stop", 0))."""
    ends = text.split("-")
    if len(ends) != 2:
        raise ValueError(f"bad track {text!r}: expected two ends like 0-c0")
    return _parse_end(ends[0]), _parse_end(ends[1])


def _parse_end(text: str) -> End:
    if text.startswith("c"):
        return End("stop", int(text[1:]))
    edge = int(text)
    if not 0 <= edge <= 5:
        raise ValueError(f"bad edge {text!r}")
    return End("edge", edge)


def parse_stop(data: Mapping[str, Any]) -> Stop:
    kind = data["kind"]
    if kind not in STOP_KINDS:
        raise ValueError(f"bad stop kind {kind!r}")
    revenue = data.get("revenue", 0)
    if isinstance(revenue, dict):
        revenue = dict(revenue)
    slots = data.get("slots", 1 if kind == "city" else 0)
    return Stop(kind, revenue, slots, data.get("at"))


def parse_tile(tile_id: str, data: Mapping[str, Any]) -> Tile:
    return Tile(
        id=tile_id,
        colour=data["colour"],
        label=data.get("label"),
        stops=tuple(parse_stop(s) for s in data.get("stops", [])),
        paths=tuple(parse_track(t) for t in data.get("track", [])),
    )


def load_tiles() -> dict[str, Tile]:
    """Every tile of rules/tiles.json by id."""
    data = read_rules_json("tiles.json")
    return {tile_id: parse_tile(tile_id, entry) for tile_id, entry in data["tiles"].items()}
