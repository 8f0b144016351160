"""The HTML part of a mail: the same text sections in styled <pre> blocks, corporations in
their colours, and the map picture.  Styles are inline: mail clients drop <style>."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from html import escape

from .corps import colour

PRE = ("font-family:'DejaVu Sans Mono',Menlo,Consolas,'Courier New',monospace;"
       "font-size:13px;line-height:1.3;color:#1d1d1b;background:#fffdf7;"
       "border:1px solid #d8d2c0;padding:10px 12px;margin:0 0 12px 0;white-space:pre;"
       "overflow-x:auto;")
HEAD = "font-family:Verdana,Arial,sans-serif;font-size:15px;margin:14px 0 6px 0;color:#333;"
BODY = "margin:0;padding:12px;background:#f6f4ee;"


def symbol_pattern(symbols: Iterable[str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(s) for s in sorted(symbols, key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z0-9&])({alternatives})(?![A-Za-z0-9&])")


def span(text: str, sym: str, faint: bool = False) -> str:
    """``text`` in bold in the corporation's colours (``faint``: its colour on the page);
    a <b> with the fewest characters that say so, since a late game's mail has hundreds."""
    back, fore = colour(sym)
    if faint:
        return f'<b style="color:{short(back)}">{escape(text)}</b>'
    return f'<b style="background:{short(back)};color:{short(fore)}">{escape(text)}</b>'


def short(hex_colour: str) -> str:
    """#ffffff -> #fff where the colour has a three-digit form."""
    value = hex_colour.lower()
    if len(value) == 7 and value[1] == value[2] and value[3] == value[4] and \
            value[5] == value[6]:
        return "#" + value[1] + value[3] + value[5]
    return hex_colour


def colour_symbols(text: str, symbols: Sequence[str]) -> str:
    """Escape ``text`` and show each corporation symbol in the corporation's colours."""
    if not symbols:
        return escape(text)
    pattern = symbol_pattern(symbols)
    out, last = [], 0
    for match in pattern.finditer(text):
        out.append(escape(text[last:match.start()]))
        out.append(span(match.group(1), match.group(1)))
        last = match.end()
    out.append(escape(text[last:]))
    return "".join(out)


STATION = re.compile(r"\(([A-Za-z.]{1,4})\)")


def colour_map(text: str, codes: Mapping[str, str]) -> str:
    """Escape the ASCII map and colour the station letters inside "(PN.)"."""
    by_letter = {letter: sym for sym, letter in codes.items()}
    out, last = [], 0
    for match in STATION.finditer(text):
        out.append(escape(text[last:match.start()]) + "(")
        for ch in match.group(1):
            sym = by_letter.get(ch.upper())
            out.append(span(ch, sym, faint=ch.islower()) if sym else escape(ch))
        out.append(")")
        last = match.end()
    out.append(escape(text[last:]))
    return "".join(out)


def section(title: str, body_html: str) -> str:
    heading = f'<h3 style="{HEAD}">{escape(title)}</h3>' if title else ""
    return f'{heading}<pre style="{PRE}">{body_html}</pre>'


def picture(svg: str | None, image_src: str | None, alt: str) -> str:
    """The map as <img> (e.g. "cid:map" for an inline PNG) or as inline SVG."""
    if image_src:
        return (f'<p style="margin:0 0 12px 0"><img src="{escape(image_src)}" '
                f'alt="{escape(alt)}" style="max-width:100%;height:auto;border:1px solid '
                '#d8d2c0"></p>')
    if svg:
        return f'<div style="margin:0 0 12px 0;overflow-x:auto">{svg}</div>'
    return ""


def document(title: str, parts: Sequence[str]) -> str:
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title></head>\n<body style=\"{BODY}\">\n"
            + "\n".join(parts) + "\n</body></html>\n")
