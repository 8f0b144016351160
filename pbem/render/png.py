"""SVG to PNG, where a rasteriser is installed (resvg-py: a self-contained wheel).

Returns None when it is not: mails then carry the SVG and the text map only.
"""

from __future__ import annotations

from typing import Any


def _resvg() -> Any:
    try:
        import resvg_py
    except ImportError:
        return None
    return resvg_py


def available() -> bool:
    return _resvg() is not None


def svg_to_png(svg: str, zoom: float = 1.0) -> bytes | None:
    """PNG bytes of an SVG document, or None without a rasteriser."""
    resvg = _resvg()
    if resvg is None:
        return None
    try:
        data = resvg.svg_to_bytes(svg_string=svg, zoom=zoom, background="#ffffff")
    except ValueError:
        return None
    return bytes(data)
