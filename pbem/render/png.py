"""SVG to PNG, where a rasteriser is installed (resvg-py: a self-contained wheel), and
the PNG made small for mail (Pillow: a palette of a few colours, as the map has).

``svg_to_png`` returns None when no rasteriser is installed: mails then carry the SVG
and the text map only.
"""

from __future__ import annotations

import io
from typing import Any

#: Colours of the mail's map picture: the map has flat colours; 32 keep it sharp and
#: make the PNG a quarter of its size in true colour.
MAIL_COLOURS = 32


def _resvg() -> Any:
    try:
        import resvg_py
    except ImportError:
        return None
    return resvg_py


def available() -> bool:
    return _resvg() is not None


def rasterise(svg: str, zoom: float = 1.0) -> bytes | None:
    """PNG bytes (true colour) of an SVG document, or None without a rasteriser."""
    resvg = _resvg()
    if resvg is None:
        return None
    try:
        return bytes(resvg.svg_to_bytes(svg_string=svg, zoom=zoom, background="#ffffff"))
    except ValueError:
        return None


def svg_to_png(svg: str, zoom: float = 1.0, colours: int | None = None) -> bytes | None:
    """PNG bytes of an SVG document, or None without a rasteriser; with ``colours``, in a
    palette of that many (when Pillow is installed)."""
    data = rasterise(svg, zoom)
    if data is None:
        return None
    return palette_png(data, colours) if colours else data


def palette_png(data: bytes, colours: int) -> bytes:
    """The PNG ``data`` with at most ``colours`` colours (no dithering), or ``data`` where
    Pillow is not installed or the result is no smaller."""
    try:
        from PIL import Image
    except ImportError:
        return data
    image = Image.open(io.BytesIO(data)).convert("RGB")
    small = image.quantize(colors=colours, method=Image.Quantize.MEDIANCUT,
                           dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, "PNG", optimize=True)
    return out.getvalue() if out.tell() < len(data) else data
