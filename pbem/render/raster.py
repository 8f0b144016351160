"""The map as a picture for mail, made fast (PNG; resvg draws, Pillow finishes).

Drawing a whole late-game map with resvg takes hundreds of milliseconds, and a mail's
map differs from the one drawn before it in a hex or two. So:

* a map is drawn at zoom 1 (``draw``) and the drawing is kept (the last KEEP open, the
  KEEP_PACKED before them packed, in this process); a later map of the same layout
  starts from the kept drawing that differs from it in the fewest hexes and redraws
  only a rectangle around each hex that changed: the whole map's SVG seen through that
  rectangle (every hex whose drawing may reach into it, in the map's order, on the same
  pixel grid), so the pixels are those of a drawing of the whole map. The packed ones
  serve a server whose mails go to many games in turn: a game's next mail finds the
  drawing of its last one, which differs in a hex or two, where the last few drawings
  are of other games (a whole drawing takes 100-150 ms, unpacking one 2 ms);
* a picture (``picture``) is the drawing scaled to the zoom asked for, in a palette of a
  few colours (median cut, found on every other pixel), as PNG; the last KEEP_PICTURES
  are kept (by a digest of the map's pieces), so a game's next mail whose map has not
  changed (a run, a dividend, a share bought) takes its last one as it is.

A hex's drawing may reach OVERFLOW pixels beyond its hexagon (a revenue disc beside a
city of three slots, a long name; tests/test_render_raster.py checks every hex of full
maps of both titles).
"""

from __future__ import annotations

import hashlib
import io
import math
import re
import threading
import zlib
from dataclasses import dataclass, field
from typing import Any

from ..lastused import LastUsed
from .png import rasterise
from .svg import BACKGROUND, Layout, MapParts, R, W, rulers

#: How far (pixels at zoom 1) one hex's drawing may reach beyond its hexagon.
OVERFLOW = 24.0
#: Drawings kept open in this process (one full map is about 2 MB).
KEEP = 6
#: Drawings kept packed besides them (the pixels in zlib's fastest level: 130-220 KB for
#: a mid- or late-game map, at most about 21 MB in all; packed in 4-5 ms, unpacked in 2).
KEEP_PACKED = 96
#: Pictures kept (PNG, 30-60 KB each).
KEEP_PICTURES = 96
#: Beyond this share of the map changed, the whole map is drawn again.
REDRAW_SHARE = 0.4

Box = tuple[int, int, int, int]  # left, top, width, height in pixels at zoom 1


@dataclass
class Drawing:
    """A map drawn at zoom 1 and the pieces it was drawn from: open (``image``, an RGB
    Pillow image) or packed (``packed``: its pixels compressed; ``image`` None)."""

    parts: MapParts
    image: Any
    packed: bytes = b""
    hexes: dict[str, str] = field(init=False)

    def __post_init__(self) -> None:
        self.hexes = dict(self.parts.hexes)

    def pack(self) -> None:
        if self.image is not None:
            self.packed, self.image = zlib.compress(self.image.tobytes(), 1), None

    def pixels(self) -> Any:
        """The drawing as a new image (to change)."""
        if self.image is not None:
            return self.image.copy()
        from PIL import Image

        return Image.frombytes("RGB", size(self.parts.layout), zlib.decompress(self.packed))

    def opened(self) -> Any:
        """The drawing open (unpacked if it was packed)."""
        if self.image is None:
            self.image, self.packed = self.pixels(), b""
        return self.image


_DRAWINGS: LastUsed[int, Drawing] = LastUsed(KEEP + KEEP_PACKED)
_LOCK = threading.Lock()


#: the pictures kept: (the map's digest, zoom, colours) -> PNG
_PICTURES: LastUsed[tuple[bytes, float, int], bytes] = LastUsed(KEEP_PICTURES)


def forget() -> None:
    """Forget the drawings and pictures kept in this process."""
    with _LOCK:
        _DRAWINGS.clear()
        _PICTURES.clear()


def digest(parts: MapParts) -> bytes:
    """What tells one map's pieces from another's (SHA-256: the same digest is the same
    title, layout and hexes' drawings)."""
    sha = hashlib.sha256(f"{parts.title}\0{parts.layout!r}".encode())
    for coord, fragment in parts.hexes:
        sha.update(f"\0{coord}\0{fragment}".encode())
    return sha.digest()


def size(layout: Layout) -> tuple[int, int]:
    """The drawing's pixels: the map's size rounded up, so pixels are user units."""
    return math.ceil(layout.width), math.ceil(layout.height)


def hex_box(layout: Layout, coord: str) -> Box:
    """The pixels one hex's drawing may touch."""
    cx, cy = layout.centre(coord)
    left, top = math.floor(cx - W / 2 - OVERFLOW), math.floor(cy - R - OVERFLOW)
    right, bottom = math.ceil(cx + W / 2 + OVERFLOW), math.ceil(cy + R + OVERFLOW)
    width, height = size(layout)
    left, top = max(left, 0), max(top, 0)
    return left, top, min(right, width) - left, min(bottom, height) - top


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and \
        b[1] < a[1] + a[3]


def box_document(parts: MapParts, box: Box) -> str:
    """The map's SVG seen through ``box`` (pixels at zoom 1): the background, the
    rulers and every hex whose drawing may reach into the box, in the map's order,
    without the texts that cannot reach into it."""
    left, top, width, height = box
    body = "".join(fragment for coord, fragment in parts.hexes
                   if _meets(hex_box(parts.layout, coord), box))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="{left} {top} {width} {height}">'
            f'<rect x="{left}" y="{top}" width="{width}" height="{height}" '
            f'fill="{BACKGROUND}"/>{_within(rulers(parts.layout), box)}'
            f'<g>{_within(body, box)}</g></svg>')


#: A text of the map as ``svg.text_el`` writes it: x, y, font size, the characters.
TEXT = re.compile(r'<text x="(-?[0-9.]+)" y="(-?[0-9.]+)" font-size="([0-9.]+)"[^>]*>'
                  r"([^<]*)</text>")


def text_box(match: re.Match[str]) -> Box:
    """The pixels a text (a match of TEXT) may touch, with room to spare: each character
    at most two font sizes wide on either side of x (whatever the anchor), the glyphs
    1.5 sizes above the baseline and 0.6 below, and 4 pixels for the halo's stroke and
    the smoothing."""
    x, y, size = float(match[1]), float(match[2]), float(match[3])
    reach = len(match[4]) * 2 * size + 4
    left, top = math.floor(x - reach), math.floor(y - 1.5 * size - 4)
    return left, top, math.ceil(x + reach) - left, math.ceil(y + 0.6 * size + 4) - top


def _within(svg: str, box: Box) -> str:
    """``svg`` without the texts that cannot reach into ``box``: resvg lays out every
    text of a document, seen or not, and they are most of the time of a small box."""
    return TEXT.sub(lambda match: match[0] if _meets(text_box(match), box) else "", svg)


def _render(parts: MapParts, box: Box) -> Any | None:
    from PIL import Image

    data = rasterise(box_document(parts, box))
    if data is None:
        return None
    return Image.open(io.BytesIO(data)).convert("RGB")


def draw(parts: MapParts) -> Any | None:
    """The map drawn at zoom 1 (RGB), from the closest drawing kept; None where resvg
    or Pillow is not installed."""
    try:
        import PIL  # noqa: F401
    except ImportError:
        return None
    key = hash(parts.hexes)
    with _LOCK:
        kept = _DRAWINGS.get(key)
        if kept is not None and kept.parts == parts:
            image = kept.opened()
            _keep(key, kept)
            return image
        candidates = [d for d in _DRAWINGS.values()
                      if d.parts.layout == parts.layout and d.parts.title == parts.title]
    image = _update(parts, candidates)
    if image is None:
        return None
    with _LOCK:
        _keep(key, Drawing(parts, image))
    return image


def _keep(key: int, drawing: Drawing) -> None:
    """Keep ``drawing`` as the latest (under _LOCK): the one it moves out of the last
    KEEP is packed, and beyond KEEP_PACKED more the oldest goes."""
    _DRAWINGS.put(key, drawing)
    if len(_DRAWINGS) > KEEP:
        _DRAWINGS.values()[-KEEP - 1].pack()


def _update(parts: MapParts, candidates: list[Drawing]) -> Any | None:
    """Redraw the hexes that differ from the closest candidate, or the whole map."""
    width, height = size(parts.layout)
    new = dict(parts.hexes)
    best: tuple[list[str], Drawing] | None = None
    for drawing in candidates:
        old = drawing.hexes
        if old.keys() != new.keys():
            continue
        changed = [c for c in new if new[c] != old[c]]
        if best is None or len(changed) < len(best[0]):
            best = changed, drawing
    boxes = [hex_box(parts.layout, coord) for coord in best[0]] if best else []
    if best is None or sum(b[2] * b[3] for b in boxes) > REDRAW_SHARE * width * height:
        return _render(parts, (0, 0, width, height))
    image = best[1].pixels()
    for box in boxes:
        piece = _render(parts, box)
        if piece is None:
            return None
        image.paste(piece, box[:2])
    return image


def picture(parts: MapParts, zoom: float, colours: int) -> bytes | None:
    """The map as PNG at ``zoom``, in at most ``colours`` colours; None where it cannot
    be made (no resvg or no Pillow)."""
    key = (digest(parts), zoom, colours)
    with _LOCK:
        kept = _PICTURES.get(key)
        if kept is not None:
            return kept
    png = _made(parts, zoom, colours)
    if png is not None:
        with _LOCK:
            _PICTURES.put(key, png)
    return png


def _made(parts: MapParts, zoom: float, colours: int) -> bytes | None:
    from PIL import Image

    image = draw(parts)
    if image is None:
        return None
    if zoom != 1.0:
        scaled = (max(1, round(image.width * zoom)), max(1, round(image.height * zoom)))
        image = image.resize(scaled, Image.Resampling.BOX)
    sample = image.resize((max(1, image.width // 2), max(1, image.height // 2)),
                          Image.Resampling.NEAREST)
    palette = sample.quantize(colors=colours, method=Image.Quantize.MEDIANCUT,
                              dither=Image.Dither.NONE)
    small = image.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, "PNG", compress_level=6)
    return out.getvalue()
