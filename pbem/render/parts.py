"""Putting the renderings together: the sections of a mail, its text and HTML parts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.engine.state import GameState

from . import html
from .board_text import board_parts, text_board
from .corps import letters
from .market_text import market_text
from .png import svg_to_png
from .prompt import prompt_text
from .svg import svg_map
from .tables import headline, tables_text

MAP_CID = "map"


@dataclass(frozen=True)
class Sections:
    """The text renderings for one viewer (None: everything, for the referee)."""

    prompt: str  # who must act, the viewer's commands, what happened
    tables: str  # headline, players, corporations, bank, privates
    market: str  # grid, par chart, operating order
    board: str  # map drawing (<= 100 columns), legend, hex listing

    def text(self) -> str:
        return "\n\n".join(s for s in (self.prompt, self.tables, self.market, self.board) if s)


@dataclass(frozen=True)
class MailParts:
    text: str
    html: str
    svg: str
    png: bytes | None


def sections(state: GameState, viewer: str | None, recent_lines: Sequence[str] = ()
             ) -> Sections:
    return Sections(
        prompt=prompt_text(state, viewer, recent_lines),
        tables=tables_text(state, viewer),
        market=market_text(state),
        board=text_board(state),
    )


def full_text(state: GameState, viewer: str | None = None,
              recent_lines: Sequence[str] = ()) -> str:
    """Everything as text, as `pbem show` prints it."""
    return sections(state, viewer, recent_lines).text()


def html_part(state: GameState, parts: Sections, svg: str | None, image_src: str | None) -> str:
    symbols = list(state.rules.corporations)
    codes = letters(symbols)
    drawing, rest = board_parts(state)
    blocks = [
        html.section("", html.colour_symbols(parts.prompt, symbols)),
        html.section("Holdings", html.colour_symbols(parts.tables, symbols)),
        html.section("Stock market", html.colour_symbols(parts.market, symbols)),
        html.picture(svg, image_src, f"{state.title} map"),
        html.section("Map", html.colour_map(drawing, codes) + "\n\n"
                     + html.colour_symbols(rest, symbols)),
    ]
    return html.document(headline(state), blocks)


def mail_parts(state: GameState, viewer: str | None, recent_lines: Sequence[str] = (),
               image_cid: str = MAP_CID) -> MailParts:
    """Text, HTML, SVG and PNG of one mail for ``viewer``.

    The HTML shows the map as ``<img src="cid:<image_cid>">`` when a PNG could be made
    (attach ``png`` with that Content-ID), else (or with image_cid "") as inline SVG.
    """
    parts = sections(state, viewer, recent_lines)
    svg = svg_map(state)
    png = svg_to_png(svg)
    src = f"cid:{image_cid}" if png is not None and image_cid else None
    return MailParts(parts.text(), html_part(state, parts, svg, src), svg, png)
