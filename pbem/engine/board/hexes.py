"""Hex coordinates and hex sides of the pointy-topped 18xx maps.

A coordinate is a row letter (A = north) and a column number (1 = west), e.g.
"H12".  Neighbouring rows are offset by one column, so a row uses only every
other number.  Sides (edges) are numbered clockwise from the lower-left one:

    0 SW   1 W   2 NW   3 NE   4 E   5 SE

Track leaving a hex through edge e enters the neighbour through edge e + 3.
A tile laid at rotation r turns clockwise: its edge e lies on side (e + r) % 6.
"""

from __future__ import annotations

import re
from functools import cache

EDGE_NAMES: tuple[str, ...] = ("SW", "W", "NW", "NE", "E", "SE")

#: (row step, column step) to the neighbour across each edge.
_STEPS: tuple[tuple[int, int], ...] = ((1, -1), (0, -2), (-1, -1), (-1, 1), (0, 2), (1, 1))

_COORD = re.compile(r"^\s*([A-Za-z])\s*(\d{1,3})\s*$")

_SIDE_WORDS = {
    "sw": 0, "southwest": 0,
    "w": 1, "west": 1,
    "nw": 2, "northwest": 2,
    "ne": 3, "northeast": 3,
    "e": 4, "east": 4,
    "se": 5, "southeast": 5,
}


@cache
def parse_coord(text: str) -> tuple[int, int]:
    """"H12" (any case, spaces allowed) -> (row, column) = (7, 12)."""
    match = _COORD.match(text)
    if not match:
        raise ValueError(f"{text!r} is not a hex coordinate like H12")
    return ord(match.group(1).upper()) - ord("A"), int(match.group(2))


def format_coord(row: int, col: int) -> str:
    """(7, 12) -> "H12"."""
    if not 0 <= row < 26 or col < 1:
        raise ValueError(f"no hex at row {row}, column {col}")
    return f"{chr(ord('A') + row)}{col}"


def normalise_coord(text: str) -> str:
    """" h12 " -> "H12"."""
    return format_coord(*parse_coord(text))


def opposite(edge: int) -> int:
    """The edge of the neighbour that faces `edge`."""
    return (edge + 3) % 6


def rotate(edge: int, rotation: int) -> int:
    """Where tile edge `edge` lies when the tile is laid at `rotation`."""
    return (edge + rotation) % 6


def neighbour(coord: str, edge: int) -> str | None:
    """The coordinate across `edge` of `coord`, or None beyond row A / column 1.

    Whether a hex exists there is a question for the map (board.Map.neighbour).
    """
    row, col = parse_coord(coord)
    d_row, d_col = _STEPS[edge]
    row, col = row + d_row, col + d_col
    if not 0 <= row < 26 or col < 1:
        return None
    return format_coord(row, col)


def edge_name(edge: int) -> str:
    """0 -> "SW"."""
    return EDGE_NAMES[edge]


def parse_edge(text: str) -> int:
    """A side name -> edge number: "SW", "sw", "S W", "south-west", "Southwest" -> 0.

    Pointy-topped hexes have no north or south side; such names are refused.
    """
    key = re.sub(r"[\s_-]+", "", text.lower())
    if key not in _SIDE_WORDS:
        names = ", ".join(EDGE_NAMES)
        raise ValueError(f"{text!r} is not a hex side; the sides are {names}")
    return _SIDE_WORDS[key]


@cache
def coord_sort_key(coord: str) -> tuple[int, int]:
    """Sort hexes by row, then column (A9 before A11 before B10)."""
    return parse_coord(coord)
