r"""The text map: an ASCII drawing of every hex (at most 100 columns), a legend, and the
listing of every hex that has something on it.

Each hex is drawn 9 characters wide and 7 lines high; neighbouring hexes share their
sides, so rows of hexes repeat every 5 lines and columns every 4 characters.  H16 with
tile 57 laid W-E and a PRR station::

       / \            the coordinate, between the marks of track leaving NW (\), NE (/)
     / H16 \          city revenue (or an off-board area's name)
    |  $20  |         station spaces: corporation letters, '.' free, lower case a home
    |- (P) -|           kept free; track leaving W and E (-)
    |  57y  |         the tile and its colour (57y: tile 57, yellow), label, terrain cost
     \     /            of an empty hex, blocking private company; the tile goes on the
       \ /              bottom edge, between SW (/) and SE (\), only where no line has room
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from functools import lru_cache

from pbem.engine.board.map import BoardState, Map
from pbem.engine.state import GameState

from .corps import letters
from .hexview import HexView, StopView, board_view, edges_text
from .stateinfo import (
    blocked_hexes,
    column_phases,
    pending_homes,
    revenue_column,
    spent_marks,
)

HALF = 4  # characters per map column number
PITCH = 5  # lines per map row
MAX_WIDTH = 100

OUTLINE = {
    (3, 0): "/", (5, 0): "\\", (1, 1): "/", (7, 1): "\\",
    (0, 2): "|", (0, 3): "|", (0, 4): "|", (8, 2): "|", (8, 3): "|", (8, 4): "|",
    (1, 5): "\\", (7, 5): "/", (3, 6): "\\", (5, 6): "/",
}
#: The outline characters of each side (edge number), for impassable sides.
SIDES = {
    0: ((1, 5), (3, 6)), 1: ((0, 2), (0, 3), (0, 4)), 2: ((1, 1), (3, 0)),
    3: ((5, 0), (7, 1)), 4: ((8, 2), (8, 3), (8, 4)), 5: ((5, 6), (7, 5)),
}
#: Where track leaving by each side is marked, and with what.
EXIT_MARKS = {0: (2, 5, "/"), 1: (1, 3, "-"), 2: (2, 1, "\\"), 3: (6, 1, "/"),
              4: (7, 3, "-"), 5: (6, 5, "\\")}
COLOUR_LETTERS = {"yellow": "y", "green": "g", "brown": "b", "gray": "G"}
TERRAIN_MARKS = {"mountain": "^", "water": "~", "river": "~", "lake": "~"}
#: Inner lines of a hex: (line, first column, width).
BODY = ((2, 1, 7), (3, 2, 5), (4, 1, 7))


# -- the drawing --------------------------------------------------------------------------------


def draw(views: Mapping[str, HexView], codes: Mapping[str, str]) -> list[str]:
    """The ASCII drawing of all hexes, each line at most 100 characters."""
    places = [v.row_col for v in views.values()]
    first_row = min(r for r, _ in places)
    first_col = min(c for _, c in places)
    last_col = max(c for _, c in places)
    width = HALF * (last_col - first_col) + 9
    shift = max(0, width - MAX_WIDTH)  # drop the leftmost border columns if need be
    height = PITCH * (max(r for r, _ in places) - first_row) + 7
    canvas = [[" "] * (width - shift) for _ in range(height)]
    frozen = tuple(codes.items())
    for view in views.values():
        row, col = view.row_col
        x0, y0 = HALF * (col - first_col) - shift, PITCH * (row - first_row)
        for (dx, dy), char in hex_cells(view, frozen).items():
            if 0 <= x0 + dx < len(canvas[0]):
                canvas[y0 + dy][x0 + dx] = char
    return ["".join(line).rstrip() for line in canvas]


@lru_cache(maxsize=4096)
def hex_cells(view: HexView, frozen_codes: tuple[tuple[str, str], ...]
              ) -> dict[tuple[int, int], str]:
    """Every character of one hex by (dx, dy) from its top-left corner."""
    codes = dict(frozen_codes)
    cells = dict(OUTLINE)
    for edge in view.impassable:
        for spot in SIDES[edge]:
            cells[spot] = "#"
    for edge in view.exits:
        dx, dy, char = EXIT_MARKS[edge]
        cells[(dx, dy)] = char
    put(cells, 1, 3, 3, view.coord)
    mark = tile_mark(view)
    lines = body_lines(view, codes, mark)
    if mark and not any(mark in line.split() for line in lines):
        put(cells, 5, 3, 3, mark)  # no room inside: on the hex's bottom edge
    for (line, left, size), text in zip(BODY, lines, strict=True):
        put(cells, line, left + (size - len(text)) // 2, len(text), text)
    return cells


def tile_mark(view: HexView) -> str:
    """The tile and its colour inside the hex: ``57y`` (tile 57, yellow); a printed
    hex's colour alone (``G``); nothing for a plain hex."""
    letter = COLOUR_LETTERS.get(view.colour, "")
    if view.tile:
        return f"{view.tile}{letter}"
    return letter if view.colour not in (None, "white", "blue", "red") else ""


def put(cells: dict[tuple[int, int], str], line: int, left: int, size: int, text: str) -> None:
    for i, char in enumerate(text[:size]):
        if char != " ":
            cells[(left + i, line)] = char


def body_lines(view: HexView, codes: Mapping[str, str], mark: str = ""
               ) -> tuple[str, str, str]:
    """The three inner lines (7, 5 and 7 characters) of a hex; ``mark`` (the tile and
    its colour) goes after the other items, on the bottom line where it fits."""
    lines = ["", "", ""]
    widths = (7, 5, 7)
    stops = sorted(view.stops, key=_northness)
    if len(stops) == 1:
        _place_one(lines, stops[0], view, codes)
    elif stops:
        lines[0] = stop_text(stops[0], codes, compact=True)
        lines[2] = stop_text(stops[-1], codes, compact=True)
    for item in extra_items(view, codes) + ([mark] if mark else []):
        for i in (2, 0, 1):
            joined = f"{lines[i]} {item}".strip()
            if len(joined) <= widths[i]:
                lines[i] = joined
                break
    return lines[0], lines[1], lines[2]


def _place_one(lines: list[str], stop: StopView, view: HexView, codes: Mapping[str, str]) -> None:
    if stop.kind == "city":
        lines[0] = f"${stop.revenue}" if stop.revenue else ""
        lines[1] = slots_text(stop, codes)
    elif stop.kind == "town":
        lines[1] = town_text(stop)
    else:
        lines[0] = short_name(view.area or view.name or "")
        lines[1] = f"<{stop.revenue}>"


def short_name(name: str, size: int = 7) -> str:
    """"Chicago" stays; "Canadian West" -> "Canad W"; "Maritime Provinces" -> "Marit P"."""
    if len(name) <= size:
        return name
    words = name.split()
    rest = " ".join(w[0] for w in words[1:])
    room = size - len(rest) - (1 if rest else 0)
    return f"{words[0][:room]} {rest}".strip()


def _northness(stop: StopView) -> float:
    """Where a stop sits vertically: stops with northern exits are drawn higher."""
    height = {0: 1, 1: 0, 2: -1, 3: -1, 4: 0, 5: 1}
    if stop.at is not None:
        return height[int(stop.at) % 6]
    if not stop.exits:
        return stop.index
    return sum(height[e] for e in stop.exits) / len(stop.exits) + stop.index / 10


def stop_text(stop: StopView, codes: Mapping[str, str], compact: bool = False) -> str:
    if stop.kind == "city":
        money = f"${stop.revenue}" if stop.revenue else ""
        if compact and len(money) + len(slots_text(stop, codes)) > 7:
            money = money[1:]
        return money + slots_text(stop, codes)
    if stop.kind == "town":
        return town_text(stop)
    return f"<{stop.revenue}>"


def town_text(stop: StopView) -> str:
    return f"*{stop.revenue}" if stop.revenue else "*"


def slots_text(stop: StopView, codes: Mapping[str, str]) -> str:
    """(PN.) : stations by letter, '.' a free space, a lower-case letter a kept home."""
    marks = [codes.get(c, "?") for c in stop.tokens]
    marks += [codes.get(c, "?").lower() for c in stop.reserved]
    marks += ["."] * (stop.slots - len(marks))
    return "(" + "".join(marks) + ")" if marks else ""


def marker_items(view: HexView, codes: Mapping[str, str]) -> list[str]:
    """{c} cattle token, {p} open port, {px} closed port, @MK destination markers of the
    companies lettered M and K (1870)."""
    items = []
    for marker in view.markers:
        if marker.kind == "cattle":
            items.append("{c}")
        elif marker.kind == "port":
            items.append("{p}" if marker.open else "{px}")
    dests = "".join(codes.get(m.corp or "", "?") for m in view.markers
                    if m.kind == "destination")
    if dests:
        items.append("@" + dests)
    return items


def extra_items(view: HexView, codes: Mapping[str, str] | None = None) -> list[str]:
    items = marker_items(view, codes or {})
    if view.blocked_by:
        items.append(f"[{view.blocked_by}]")
    if view.label:
        items.append(view.label)
    if view.cost:
        items.append(f"{TERRAIN_MARKS.get(view.terrain or '', '$')}{view.cost}")
    return items


# -- the legend and the listing ----------------------------------------------------------------


def legend(codes: Mapping[str, str], column_note: str, markers: bool = False,
           marker_note: str = "") -> list[str]:
    stations = "  ".join(f"{letter}={sym}" for sym, letter in codes.items())
    text = [
        "Legend: H12 hex; 57y tile 57, yellow (g green, b brown, G gray; a letter",
        "alone: the colour of a printed hex);",
        "\\ / - track leaves by that side; # impassable side; $20 city revenue;",
        "(PN.) station spaces: P, N stations, '.' free, p kept for p's home; *10 town;",
        "<40> off-board value now; ~80 water, ^120 mountain: the terrain cost of the",
        "first tile; [DH] no tile while a player owns DH.",
    ]
    if markers:
        text += textwrap.wrap(
            "{c} cattle token, {p} open port, {px} closed port; @M destination marker of "
            "the company lettered M at the edge of the hex (it doubles the city at the end "
            "of that company's routes)." + (f" {marker_note}" if marker_note else ""), 78)
    if column_note:
        text += textwrap.wrap(f"Off-board values (30/50 in the listing): {column_note}.", 78)
    return text + textwrap.wrap("Stations: " + stations, 78)


def listing(views: Mapping[str, HexView], column_note: str = "") -> list[str]:
    """One line per hex with something on it (wrapped at 78 characters)."""
    lines: list[str] = []
    for view in views.values():
        if view.has_content:
            lines += wrapped_hex_line(view)
    return lines


@lru_cache(maxsize=8192)
def wrapped_hex_line(view: HexView) -> tuple[str, ...]:
    return tuple(textwrap.wrap(hex_line(view), 78, subsequent_indent="      "))


def hex_line(view: HexView) -> str:
    """`H12 Altoona  #57 SW-NE city $20 [PRR] [ ]` and whatever else the hex has."""
    head = f"{view.coord:<4}" + (f"{view.name}  " if view.name else " ")
    parts = [tile_text(view)]
    several = len(view.stops) > 1
    for stop in view.stops:
        parts.append(stop_line(stop, several))
    parts += [edges_text(pair) for pair in view.plain_paths()]
    parts += notes(view)
    return head + "  ".join(p for p in parts if p)


def tile_text(view: HexView) -> str:
    label = f" {view.label}" if view.label else ""
    if view.tile:
        return f"#{view.tile} {view.colour}{label}"
    if view.kind == "red":
        return "off-board" + label
    if view.kind == "white":
        return label.strip()
    return f"printed {view.colour}{label}"


def stop_line(stop: StopView, several: bool) -> str:
    exits = edges_text(stop.exits)
    number = f" {stop.index + 1}" if several else ""
    if stop.kind == "offboard":
        values = "/".join(str(v) for v in stop.values)
        text = f"${stop.revenue} ({values})"
        return f"{exits} {text}".strip()
    money = f" ${stop.revenue}" if stop.revenue else ""
    text = f"{stop.kind}{number}{money}"
    if stop.kind == "city":
        spaces = [f"[{c}]" for c in stop.tokens] + [f"[home {c}]" for c in stop.reserved]
        spaces += ["[ ]"] * (stop.slots - len(spaces))
        text += " " + " ".join(spaces) if spaces else ""
    return f"{exits} {text}".strip()


def notes(view: HexView) -> list[str]:
    result = []
    if view.cost:
        result.append(f"{view.terrain or 'terrain'} ${view.cost}")
    elif view.river and not view.tile:
        result.append("river")
    if view.blocked_by:
        result.append(f"blocked while a player owns {view.blocked_by}")
    shown = {corp for stop in view.stops for corp in stop.reserved + stop.tokens}
    for corp, city in view.homes:
        if corp not in shown and city is None:
            result.append(f"home of {corp} (either city)")
    if view.impassable:
        result.append("no track " + ", ".join(edges_text([e]) for e in view.impassable))
    if view.area and view.area != view.name:
        result.append(f"area {view.area}")
    for colour, label in view.future_labels:
        result.append(f"{colour} tile {label}")
    result += marker_notes(view)
    placed = {m.kind for m in view.markers}
    result += [f"may take the {mark} token" if mark in ("cattle", "port") else mark
               for mark in view.marks if mark not in placed]
    return result


def marker_notes(view: HexView) -> list[str]:
    """"cattle token of MKT", "open port of GMO", "destination marker of MP (at the edge)"."""
    several = len(view.stops) > 1
    result = []
    for marker in view.markers:
        where = f" in city {marker.stop + 1}" if several and marker.stop is not None else ""
        if marker.kind == "destination":
            where = " at the edge" if marker.stop is None else (where or " in a city space")
        result.append(f"{marker.name} of {marker.corp}{where}")
    return result


# -- the whole map for a game --------------------------------------------------------------------


def column_note(state: GameState) -> str:
    """"the 1st value from phase 2, the 2nd from phase 5" ("" for a single column)."""
    phases = column_phases(state)
    if len(phases) < 2:
        return ""
    nth = ("1st", "2nd", "3rd", "4th")
    return ", ".join(f"the {nth[i]} from phase {p}" for i, p in enumerate(phases))


def map_parts(board_map: Map, board: BoardState, column: str,
              blocked: Mapping[str, str] | None = None,
              homes: Mapping[str, tuple[str, int | None]] | None = None,
              corps: Sequence[str] = (), note: str = "", marker_note: str = "",
              spent: frozenset[str] = frozenset(),
              views: Mapping[str, HexView] | None = None) -> tuple[str, str]:
    """(heading and drawing, legend and listing) of any board.  ``corps`` in the title's
    order gives the station letters (default: the homes printed on the map); ``views``:
    the board's hexes (``board_view`` of the same arguments), when the caller has them."""
    if views is None:
        views = board_view(board_map, board, column, blocked, homes, spent)
    if not corps:
        corps = [c for v in views.values() for c, _ in v.homes]
    return _drawn_map(board_map.title, column, tuple(corps), note, marker_note, spent,
                      tuple(views.items()))


@lru_cache(maxsize=32)
def _drawn_map(title: str, column: str, corps: tuple[str, ...], note: str, marker_note: str,
               spent: frozenset[str], views: tuple[tuple[str, HexView], ...]
               ) -> tuple[str, str]:
    """``map_parts`` from what it depends on, the last maps kept: most moves (a share
    bought, an auction's bid, a train bought, a dividend) leave the map as it was, and
    the next mail of the game shows the same drawing."""
    hexes = dict(views)
    codes = letters(corps)
    head = f"MAP ({title}; off-board values in the {column} column)"
    drawing = [head, ""] + draw(hexes, codes)
    markers = any(v.marks or v.markers for v in hexes.values()) or bool(spent)
    rest = legend(codes, note, markers, marker_note) + ["", "HEXES"] + listing(hexes, note)
    return "\n".join(drawing), "\n".join(rest)


def board_parts(state: GameState, views: Mapping[str, HexView] | None = None
                ) -> tuple[str, str]:
    """(heading and drawing, legend and listing) of a game's map (``views``: its hexes,
    ``stateinfo.state_board_view``, when the caller has them)."""
    return map_parts(state.map, state.board, revenue_column(state), blocked_hexes(state),
                     pending_homes(state), list(state.rules.corporations), column_note(state),
                     marker_bonuses(state), spent_marks(state), views)


def marker_bonuses(state: GameState) -> str:
    """What the cattle and port tokens add, from the private companies' data (1870 p.9)."""
    parts = []
    for sym, pdef in state.rules.privates.items():
        token = pdef.extra.get("token")
        if not isinstance(token, dict):
            continue
        kind = token.get("kind")
        states = [("", token)] if "bonus" in token else \
            [(f"{k} ", token[k]) for k in ("open", "closed") if isinstance(token.get(k), dict)]
        for prefix, data in states:
            text = f"{prefix}{kind} ({sym}): +${data.get('bonus', 0)} for its owner"
            if data.get("bonus_others"):
                text += f", +${data['bonus_others']} for others"
            parts.append(text)
    return ("Bonuses on routes through the city: " + "; ".join(parts) + ".") if parts else ""


def text_board(state: GameState) -> str:
    """The map drawing, the legend and the listing of a game (the map part of a mail)."""
    drawing, rest = board_parts(state)
    return drawing + "\n\n" + rest
