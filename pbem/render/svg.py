"""The map as SVG: real pointy-topped hexes with their colour, track, cities with station
tokens, towns, off-board values, terrain costs, labels and coordinates.

``hex_fragment`` draws one hex as a group, so the archive page can swap single hexes
while stepping through a game.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from xml.sax.saxutils import escape

from pbem.engine.board import hexes
from pbem.engine.board.tiles import End
from pbem.engine.state import GameState

from .corps import colour
from .hexview import HexView, StopView
from .stateinfo import state_board_view

R = 36.0  # hex radius (centre to corner) in pixels
W = math.sqrt(3) * R  # hex width
MARGIN = 24.0
BACKGROUND = "#fbf8f0"
FILL = {"white": "#f3ead2", "yellow": "#f5dc4a", "green": "#68b860", "brown": "#c48a52",
        "gray": "#b8b8b8", "red": "#d9605a"}
TERRAIN = {"water": "#2f6fb5", "river": "#2f6fb5", "lake": "#2f6fb5", "mountain": "#7a5230"}
FONT = "font-family=\"DejaVu Sans,Verdana,Arial,sans-serif\""
#: Angle (degrees, y down) from a hex centre to the middle of each side.
SIDE_ANGLE = {0: 120, 1: 180, 2: 240, 3: 300, 4: 0, 5: 60}


def fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def polar(cx: float, cy: float, angle: float, dist: float) -> tuple[float, float]:
    rad = math.radians(angle)
    return cx + dist * math.cos(rad), cy + dist * math.sin(rad)


@dataclass(frozen=True)
class Layout:
    """Where each hex of a map lies in the picture."""

    first_row: int
    first_col: int
    rows: int
    cols: int

    @classmethod
    def of(cls, coords: list[str]) -> Layout:
        places = [hexes.parse_coord(c) for c in coords]
        first_row = min(r for r, _ in places)
        first_col = min(c for _, c in places)
        return cls(first_row, first_col, max(r for r, _ in places) - first_row + 1,
                   max(c for _, c in places) - first_col + 1)

    @property
    def width(self) -> float:
        return 2 * MARGIN + (self.cols + 1) * W / 2

    @property
    def height(self) -> float:
        return 2 * MARGIN + (1.5 * (self.rows - 1) + 2) * R

    def centre(self, coord: str) -> tuple[float, float]:
        row, col = hexes.parse_coord(coord)
        x = MARGIN + (col - self.first_col + 1) * W / 2
        y = MARGIN + R + (row - self.first_row) * 1.5 * R
        return x, y


# -- one hex ----------------------------------------------------------------------------------


@lru_cache(maxsize=8192)
def hex_fragment(view: HexView, layout: Layout) -> str:
    """The <g> of one hex (its id is hex-<coord>)."""
    cx, cy = layout.centre(view.coord)
    corners = " ".join(f"{fmt(x)},{fmt(y)}" for x, y in
                       (polar(cx, cy, 30 + 60 * k, R) for k in range(6)))
    parts = [f'<g id="hex-{view.coord}" class="hex">',
             f'<polygon points="{corners}" fill="{FILL.get(view.colour, "#ffffff")}" '
             'stroke="#6b6b6b" stroke-width="1"/>']
    parts += impassable(view, cx, cy)
    parts += track(view, cx, cy)
    for stop in view.stops:
        parts += stop_shapes(view, stop, cx, cy)
    parts += labels(view, cx, cy)
    parts += markers(view, cx, cy)
    parts.append("</g>")
    return "".join(parts)


def impassable(view: HexView, cx: float, cy: float) -> list[str]:
    result = []
    for edge in view.impassable:
        angle = SIDE_ANGLE[edge]
        (x1, y1), (x2, y2) = polar(cx, cy, angle - 30, R), polar(cx, cy, angle + 30, R)
        result.append(f'<line x1="{fmt(x1)}" y1="{fmt(y1)}" x2="{fmt(x2)}" y2="{fmt(y2)}" '
                      'stroke="#1f4f99" stroke-width="5"/>')
    return result


def stop_position(view: HexView, stop: StopView, cx: float, cy: float) -> tuple[float, float]:
    """Single stops sit in the centre; several lean towards their exits."""
    if len(view.stops) == 1:
        return cx, cy
    if stop.at is not None:
        return polar(cx, cy, SIDE_ANGLE[int(stop.at) % 6], R * 0.45)
    if stop.exits:
        xs = [polar(0, 0, SIDE_ANGLE[e], 1) for e in stop.exits]
        mx, my = sum(x for x, _ in xs), sum(y for _, y in xs)
        if abs(mx) + abs(my) > 0.01:
            angle = math.degrees(math.atan2(my, mx))
            return polar(cx, cy, angle, R * 0.42)
    angle = 180 if stop.index == 0 else 0
    return polar(cx, cy, angle, R * 0.42)


def end_point(view: HexView, end: End, cx: float, cy: float) -> tuple[float, float]:
    if end.kind == "edge":
        return polar(cx, cy, SIDE_ANGLE[end.n], W / 2)
    return stop_position(view, view.stops[end.n], cx, cy)


def track(view: HexView, cx: float, cy: float) -> list[str]:
    result = []
    for a, b in view.paths:
        x1, y1 = end_point(view, a, cx, cy)
        x2, y2 = end_point(view, b, cx, cy)
        if a.kind == "edge" and b.kind == "edge":
            d = f"M{fmt(x1)},{fmt(y1)} Q{fmt(cx)},{fmt(cy)} {fmt(x2)},{fmt(y2)}"
        else:
            d = f"M{fmt(x1)},{fmt(y1)} L{fmt(x2)},{fmt(y2)}"
        result.append(f'<path d="{d}" fill="none" stroke="#1b1b1b" stroke-width="5" '
                      'stroke-linecap="butt"/>')
    return result


def stop_shapes(view: HexView, stop: StopView, cx: float, cy: float) -> list[str]:
    x, y = stop_position(view, stop, cx, cy)
    if stop.kind == "town":
        return [f'<circle cx="{fmt(x)}" cy="{fmt(y)}" r="5" fill="#1b1b1b"/>'] + \
            revenue_badge(stop.revenue, x + 9, y - 9)
    if stop.kind == "offboard":
        return offboard(view, stop, cx, cy)
    return city(stop, x, y)


def city(stop: StopView, x: float, y: float) -> list[str]:
    r = R * 0.25
    n = max(stop.slots, 1)
    left = x - (n - 1) * r
    result = []
    if n > 1:
        result.append(f'<rect x="{fmt(left - r)}" y="{fmt(y - r)}" width="{fmt(2 * r * n)}" '
                      f'height="{fmt(2 * r)}" rx="{fmt(r)}" fill="#ffffff" stroke="#1b1b1b"/>')
    owners = list(stop.tokens) + [f"~{c}" for c in stop.reserved]
    for i in range(n):
        sx = left + 2 * r * i
        owner = owners[i] if i < len(owners) else None
        result += slot(sx, y, r, owner)
    if stop.revenue:
        result += revenue_badge(stop.revenue, x + (n - 1) * r + r * 0.9, y - r * 1.1)
    return result


def slot(x: float, y: float, r: float, owner: str | None) -> list[str]:
    if owner is None:
        return [f'<circle cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(r)}" fill="#ffffff" '
                'stroke="#1b1b1b" stroke-width="1.5"/>']
    kept = owner.startswith("~")
    sym = owner.lstrip("~")
    back, fore = colour(sym)
    if kept:
        return [f'<circle cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(r)}" fill="#ffffff" '
                f'stroke="{back}" stroke-width="2" stroke-dasharray="3,2"/>',
                text_el(x, y + 2.5, sym, 6.5, back)]
    return [f'<circle cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(r)}" fill="{back}" '
            'stroke="#1b1b1b" stroke-width="1.5"/>',
            text_el(x, y + 2.5, sym, 7, fore, True, halo=False)]


def revenue_badge(revenue: int, x: float, y: float) -> list[str]:
    if not revenue:
        return []
    return [f'<circle cx="{fmt(x)}" cy="{fmt(y)}" r="7" fill="#ffffff" stroke="#1b1b1b" '
            'stroke-width="0.8"/>',
            text_el(x, y + 2.6, str(revenue), 7.5, "#000000", True, halo=False)]


def offboard(view: HexView, stop: StopView, cx: float, cy: float) -> list[str]:
    values = " ".join(str(v) for v in stop.values)
    return [f'<rect x="{fmt(cx - 19)}" y="{fmt(cy - 7)}" width="38" height="14" rx="3" '
            'fill="#ffffff" stroke="#1b1b1b" stroke-width="0.8"/>',
            text_el(cx, cy + 3.5, values, 8.5, "#000000", True, halo=False)]


def labels(view: HexView, cx: float, cy: float) -> list[str]:
    result = [text_el(cx, cy - R * 0.62, view.coord, 7, "#333333")]
    if view.tile:
        result.append(text_el(cx + R * 0.45, cy + R * 0.62, view.tile, 6.5, "#333333"))
    if view.label:
        x, y = (cx - R * 0.52, cy - R * 0.3) if len(view.stops) > 1 else (cx - R * 0.58,
                                                                         cy + R * 0.1)
        result.append(text_el(x, y, view.label, 9, "#000000", True))
    busy = bool(view.stops)
    if view.cost:
        terrain = view.terrain or ""
        mark = "\u25b2" if terrain == "mountain" else "~"
        x, y = (cx - R * 0.38, cy + R * 0.52) if busy else (cx, cy + R * 0.15)
        result.append(text_el(x, y, f"{mark}${view.cost}", 8, TERRAIN.get(terrain, "#000000"),
                              True))
    if view.blocked_by:
        x, y = (cx + R * 0.4, cy + R * 0.52) if busy else (cx, cy - R * 0.22)
        result.append(text_el(x, y, f"[{view.blocked_by}]", 7.5, "#8b0000", True))
    name = view.name or (view.area if view.kind == "red" else None)
    if name:
        result.append(text_el(cx, cy + R * 0.8, name if len(name) <= 14 else name[:13] + ".",
                              5.5, "#222222"))
    return result


def markers(view: HexView, cx: float, cy: float) -> list[str]:
    """1870's cattle token (brown square, C), port (blue disc, P; closed: grey and struck
    through) beside their city, and destination markers (a disc in the company's colour
    with a dashed rim) near the upper left edge of the hex."""
    result = []
    dests = [m for m in view.markers if m.kind == "destination"]
    for i, marker in enumerate(m for m in view.markers if m.kind != "destination"):
        stop = view.stops[marker.stop] if marker.stop is not None and \
            marker.stop < len(view.stops) else None
        x, y = stop_position(view, stop, cx, cy) if stop else (cx, cy)
        x, y = x - R * 0.42 + i * 13, y + R * 0.36
        title = f"<title>{escape(marker.name)} of {escape(marker.corp or '?')}</title>"
        if marker.kind == "cattle":
            result.append(f'<g class="marker cattle">{title}<rect x="{fmt(x - 6)}" '
                          f'y="{fmt(y - 6)}" width="12" height="12" rx="2" fill="#8b5a2b" '
                          f'stroke="#1b1b1b" stroke-width="0.8"/>'
                          f'{text_el(x, y + 3, "C", 8, "#ffffff", True, halo=False)}</g>')
        else:
            fill = "#1f5fbf" if marker.open else "#6b6b6b"
            strike = "" if marker.open else (
                f'<line x1="{fmt(x - 6)}" y1="{fmt(y + 6)}" x2="{fmt(x + 6)}" '
                f'y2="{fmt(y - 6)}" stroke="#d12020" stroke-width="1.6"/>')
            result.append(f'<g class="marker port">{title}<circle cx="{fmt(x)}" cy="{fmt(y)}" '
                          f'r="6.5" fill="{fill}" stroke="#1b1b1b" stroke-width="0.8"/>'
                          f'{text_el(x, y + 3, "P", 8, "#ffffff", True, halo=False)}'
                          f'{strike}</g>')
    for i, marker in enumerate(dests):
        x, y = polar(cx, cy, -150 - 45 * i, R * 0.62)
        back, fore = colour(marker.corp or "")
        label = escape(marker.corp or "?")
        result.append(f'<g class="marker destination"><title>destination marker of {label}'
                      f'</title><circle cx="{fmt(x)}" cy="{fmt(y)}" r="7" fill="{back}" '
                      'stroke="#1b1b1b" stroke-width="1.2" stroke-dasharray="2,1.5"/>'
                      f'{text_el(x, y + 2.2, marker.corp or "?", 5, fore, True, halo=False)}'
                      '</g>')
    return result


def text_el(x: float, y: float, text: str, size: float, fill: str, bold: bool = False,
            halo: bool = True) -> str:
    """Centred text; with a light halo so that it stays legible over track."""
    weight = ' font-weight="bold"' if bold else ""
    outline = (' stroke="#ffffff" stroke-opacity="0.7" stroke-width="2" paint-order="stroke"'
               if halo and fill not in ("#ffffff",) else "")
    return (f'<text x="{fmt(x)}" y="{fmt(y)}" font-size="{fmt(size)}" fill="{fill}" {FONT}'
            f' text-anchor="middle"{weight}{outline}>{escape(text)}</text>')


# -- the whole map ----------------------------------------------------------------------------


@dataclass(frozen=True)
class MapParts:
    """A map as its pieces: where the hexes lie, and each hex's drawing (``<g>``) in
    the order they are drawn (pbem.render.raster redraws only the hexes that change)."""

    title: str
    layout: Layout
    hexes: tuple[tuple[str, str], ...]  # (coordinate, its <g>)

    def document(self) -> str:
        """The whole map as a standalone SVG document."""
        layout, title = self.layout, escape(self.title)
        body = "".join(fragment for _, fragment in self.hexes)
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{fmt(layout.width)}" '
                f'height="{fmt(layout.height)}" viewBox="0 0 {fmt(layout.width)} '
                f'{fmt(layout.height)}" role="img" aria-label="{title}">'
                f'<title>{title}</title>'
                f'<rect width="100%" height="100%" fill="{BACKGROUND}"/>{rulers(layout)}'
                f'<g id="hexes">{body}</g></svg>')


def map_parts(views: Mapping[str, HexView], title: str) -> MapParts:
    layout = Layout.of(list(views))
    return MapParts(title, layout, tuple((coord, hex_fragment(view, layout))
                                         for coord, view in views.items()))


def svg_document(views: Mapping[str, HexView], title: str) -> str:
    return map_parts(views, title).document()


def rulers(layout: Layout) -> str:
    """Row letters down the left side, column numbers along the top."""
    parts = []
    for row in range(layout.rows):
        y = MARGIN + R + row * 1.5 * R + 3
        parts.append(text_el(MARGIN / 2, y, chr(ord("A") + layout.first_row + row), 10,
                             "#555555", True))
    for col in range(layout.cols):
        x = MARGIN + (col + 1) * W / 2
        parts.append(text_el(x, MARGIN * 0.6, str(layout.first_col + col), 8, "#555555"))
    return "".join(parts)


def state_map_parts(state: GameState, views: Mapping[str, HexView] | None = None
                    ) -> MapParts:
    """The game's map now, in pieces (``views``: its hexes, ``state_board_view``, when
    the caller has them)."""
    return map_parts(state_board_view(state) if views is None else views,
                     f"{state.title} map")


def svg_map(state: GameState) -> str:
    """The game's map now, as a standalone SVG document."""
    return state_map_parts(state).document()
