"""What players see: the text board, market, tables and prompt; HTML; SVG/PNG map;
the archive page.  Everything is read from the state and the engine's answers.

For mail::

    parts = pbem.render.mail_parts(state, viewer="Alice", recent_lines=[...])
    parts.text   # text/plain (lines <= 78 characters, the map <= 100)
    parts.html   # text/html: the same in styled <pre> blocks, the map as <img src="cid:map">
    parts.svg    # the map as an SVG document
    parts.png    # the map as PNG bytes, or None where no rasteriser is installed
"""

from __future__ import annotations

from .board_text import text_board
from .market_text import market_text
from .parts import MailParts, Sections, full_text, mail_parts, sections
from .png import svg_to_png
from .prompt import prompt_text
from .recent import RECENT_LIMIT, since_last_turn
from .svg import svg_map
from .tables import tables_text
from .view import state_json

__all__ = [
    "RECENT_LIMIT",
    "MailParts",
    "Sections",
    "full_text",
    "mail_parts",
    "market_text",
    "prompt_text",
    "sections",
    "since_last_turn",
    "state_json",
    "svg_map",
    "svg_to_png",
    "tables_text",
    "text_board",
]
