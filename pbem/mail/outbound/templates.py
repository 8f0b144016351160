"""Mail templates (templates/*.txt, named audience-purpose) filled into text and HTML.

A template is plain text with ``$name`` placeholders (``string.Template``).
Placeholders ending in ``_section`` stand alone on a line and take a
preformatted block (the board, a list of results): it is inserted as it is, and
the line disappears when the block is empty. Every other line is wrapped to 78
columns after filling; blocks may be up to 100 columns wide (the map).

The HTML part is the same text in ``<pre>`` blocks (``mail.html``), headings and
corporation symbols in colour; with the map's picture it shows ``<img src="cid:...">``
between two blocks, just before the text map. Its characters beyond ASCII are
character references, so that the part goes as 7bit; ``few_lines`` joins the lines of a
``<pre>`` by ``<br>`` into lines of up to HTML_LINE characters.
"""

from __future__ import annotations

import html
import re
import textwrap
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from string import Template

from ...render.corps import letters
from ...render.html import colour_map, colour_symbols
from ...safe_text import visible

TEXT_WIDTH = 78
BLOCK_WIDTH = 100
_SECTION_LINE = re.compile(r"^\s*\$\{?([a-z_]+_section)\}?\s*$")
_HEADING = re.compile(r"^(?:[A-Z][A-Za-z ,'()]{0,40}):$")


class TemplateError(Exception):
    """A template is missing or names a value that was not given."""


@cache
def _load(directory: str, name: str) -> str:
    path = Path(directory) / name
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TemplateError(f"the mail template {path} cannot be read: {exc}") from exc


def fill(directory: Path, name: str, values: dict[str, object]) -> str:
    """The text of template ``name`` (e.g. ``player-your-turn.txt``) with ``values``
    (control characters in them made visible, see pbem.safe_text)."""
    source = _load(str(directory), name)
    prose = {k: visible(str(v)) for k, v in values.items() if not k.endswith("_section")}
    out: list[str] = []
    for line in source.splitlines():
        section = _SECTION_LINE.match(line)
        if section:
            block = visible(str(values.get(section.group(1), "") or ""))
            if block.strip():
                out.extend(block.rstrip("\n").splitlines())
            continue
        try:
            filled = Template(line).substitute(prose)
        except (KeyError, ValueError) as exc:
            raise TemplateError(f"template {name} needs a value for {exc}") from exc
        out.extend(wrap(filled))
    return _collapse_blank_lines(out)


def wrap(line: str, width: int = TEXT_WIDTH) -> list[str]:
    """One line wrapped to ``width``, keeping its indentation for the follow-on lines."""
    if len(line) <= width:
        return [line]
    indent = line[: len(line) - len(line.lstrip())]
    wrapped = textwrap.wrap(line.strip(), width=width, initial_indent=indent,
                            subsequent_indent=indent + ("  " if indent else ""),
                            break_long_words=True, break_on_hyphens=False)
    return wrapped or [line[:width]]


def shorten(text: str, width: int, mark: str = "...") -> str:
    """``text`` cut to at most ``width`` characters at the end of a word, with ``mark``
    (a single word longer than that is cut where it must)."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    cut = text[: width - len(mark) + 1]
    if " " in cut:
        cut = cut[: cut.rindex(" ")]
    else:
        cut = cut[:-1]
    return cut.rstrip(" ,;:-") + mark


def wrap_paragraph(text: str, width: int = TEXT_WIDTH, indent: str = "") -> str:
    """Every line of ``text`` wrapped to ``width``, prefixed by ``indent``."""
    lines: list[str] = []
    for line in text.splitlines() or [""]:
        lines.extend(wrap(indent + line, width))
    return "\n".join(lines)


def _collapse_blank_lines(lines: list[str]) -> str:
    """The lines without trailing blanks (but the signature's ``-- ``), one blank line
    where there were several, none at the end."""
    out: list[str] = []
    blank = False  # the last line kept is blank
    for line in lines:
        kept = line.rstrip()
        if not kept:
            if not blank:
                out.append("")
            blank = True
            continue
        out.append(line if line == "-- " else kept)
        blank = False
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


def to_html(directory: Path, title: str, text: str, image_src: str | None = None,
            anchor: str | None = None, symbols: Sequence[str] = ()) -> str:
    """The text as a styled ``<pre>`` page: section headings in colour, corporation
    symbols (``symbols``) on their charter colours. With ``image_src`` (``cid:...``) the
    map picture stands where the text map's drawing is (from its heading ``anchor`` to
    its legend): the picture replaces the drawing, the legend and the hex listing stay.
    In ASCII: every other character as a character reference (``&#252;``)."""
    page = _load(str(directory), "mail.html")
    lines = text.splitlines()
    at = _last_index(lines, anchor) if image_src else None
    corporations = tuple(symbols)
    out: list[str] = []
    run: list[str] = []  # consecutive lines coloured together: plain text, or the map

    def flush(in_map: bool) -> None:
        if run:
            out.append(_coloured("\n".join(run), corporations, in_map))
            run.clear()

    in_map = replaced = False
    for i, line in enumerate(lines):
        if i == at and image_src:
            flush(in_map)
            out.append(_picture(page, image_src, title))
            replaced = True
        starts = bool(anchor) and line.rstrip() == anchor
        if starts or in_map and line.startswith("Legend:"):
            flush(in_map)
            in_map = starts
            replaced = replaced and starts
        if replaced and in_map and not starts:
            continue  # the drawing: the picture shows it
        heading = _heading(line)
        if heading:
            flush(in_map)
            out.append(heading)
        else:
            run.append(line)
    flush(in_map)
    if image_src and at is None:
        out.append(_picture(page, image_src, title))
    page = Template(page).safe_substitute(title=html.escape(title), body="\n".join(out))
    return page if page.isascii() else \
        page.encode("ascii", "xmlcharrefreplace").decode("ascii")


#: The longest line of the HTML source that ``few_lines`` makes by joining lines (RFC
#: 5322 allows 998 characters before the line end in a 7bit part).
HTML_LINE = 900


def few_lines(page: str) -> str:
    """The HTML ``page`` in few lines, shown as it was: in each ``<pre>`` the lines
    joined by ``<br>`` (which breaks the line there as the line end did) into lines of
    up to HTML_LINE characters, a line end kept right after ``<pre>`` and right before
    ``</pre>`` (the first is not shown, a ``<br>`` would be). Each join makes the part 2
    bytes longer on the wire (``<br>`` for CRLF).

    An SMTP server reads a mail line by line (aiosmtpd: about 4 us of CPU a line), and a
    7bit part (``to_html`` writes ASCII) may have lines of 998 characters where
    quoted-printable breaks them at 76; the text part keeps its lines of at most 78
    columns for the players."""
    pieces: list[str] = []
    at = 0
    while (pre := _PRE.search(page, at)) is not None:
        end = page.find("</pre>", pre.end())
        if end < 0:
            break
        pieces += [page[at:pre.end()], _joined(page, pre.end(), end)]
        at = end
    pieces.append(page[at:])
    return "".join(pieces)


def _joined(page: str, start: int, end: int) -> str:
    """The content of a ``<pre>`` (``page[start:end]``) with few lines (``few_lines``);
    its first and last line count what stands beside them on the page's lines (the
    start tag...)."""
    content = page[start:end]
    head = "\n" if content.startswith("\n") else ""
    tail = "\n" if content.endswith("\n") and len(content) > len(head) else ""
    lines = content[len(head):len(content) - len(tail)].split("\n")
    sizes = [len(line) for line in lines]
    if not head:  # the line of the start tag
        sizes[0] += start - (page.rfind("\n", 0, start) + 1)
    if not tail:  # the line of the end tag
        after = page.find("\n", end)
        sizes[-1] += (len(page) if after < 0 else after) - end
    groups: list[list[str]] = [[lines[0]]]
    width = sizes[0]
    for line, size in zip(lines[1:], sizes[1:], strict=True):
        if width + 4 + size <= HTML_LINE:
            groups[-1].append(line)
            width += 4 + size
        else:
            groups.append([line])
            width = size
    return head + "\n".join("<br>".join(group) for group in groups) + tail


@lru_cache(maxsize=64)
def _coloured(block: str, symbols: tuple[str, ...], in_map: bool) -> str:
    """A block of the text in HTML, the corporations in colour (the map's station
    letters, in the map): kept for the next mails, which show the same board, market
    and map to every recipient of a move."""
    return colour_map(block, letters(symbols)) if in_map else colour_symbols(block, symbols)


def _last_index(lines: list[str], anchor: str | None) -> int | None:
    if anchor:
        for i in range(len(lines) - 1, -1, -1):
            if lines[i].rstrip() == anchor:
                return i
    return None


_PRE = re.compile(r"<pre\b[^>]*>")


def _picture(page: str, src: str, title: str) -> str:
    """The map picture between two ``<pre>`` blocks of the page (``mail.html``)."""
    img = (f'<img src="{html.escape(src)}" alt="{html.escape("The map: " + title)}" '
           'style="max-width:100%;height:auto;border:1px solid #d8d2c0">')
    pre = _PRE.search(page)
    if pre is None:
        return img
    return f'</pre>\n<p style="margin:12px 0">{img}</p>\n{pre.group(0)}'


_COLOURS = {"Not done:": "#b3261e", "Results:": "#1b6e20", "Ignored lines:": "#8a6d00",
            "What you can do now:": "#0b4f8a"}


def _heading(line: str) -> str | None:
    """A section heading in colour, or None for any other line."""
    if not line.endswith(":"):  # every heading does (most lines are none)
        return None
    if line in _COLOURS:
        return f'<b style="color:{_COLOURS[line]}">{html.escape(line)}</b>'
    if _HEADING.match(line):
        return f'<b style="color:#4a3b12">{html.escape(line)}</b>'
    return None
