"""HTML to text, for mail that has no text/plain part.

Pure and linear in its input: see ``html_to_text`` and docs/mail-reading.md (the
comparison with html.parser and inscriptis).
"""

from __future__ import annotations

import html
import re

__all__ = ["INVISIBLE", "MAX_HTML_CHARS", "html_to_text"]

# The markup is tokenised here rather than by html.parser.HTMLParser: in the
# Python versions we run on (3.11), HTMLParser takes quadratic time on some
# malformed input (half a megabyte of "<a <a <a ..." takes minutes), and
# anybody can send us HTML.  This tokeniser looks at every character a bounded
# number of times: a tag runs to the next ">", a comment to the next "-->", the
# content of script/style/title/textarea to its end tag, and an unclosed tag at
# the end of the text is dropped (as browsers do).  Entities are decoded with
# html.unescape.

MAX_HTML_CHARS = 512 * 1024
"""Only this much of an HTML body is converted (commands stand at the top)."""

_BLOCK = frozenset(
    "address article aside blockquote center dd details dialog div dl dt fieldset figcaption "
    "figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary "
    "table tbody thead tfoot tr ul body html".split()
)
_PARAGRAPH = frozenset("p h1 h2 h3 h4 h5 h6 table ul ol dl pre hr".split())
_SKIP = frozenset("script style head title template".split())
_RAW_TEXT = frozenset("script style title textarea xmp".split())
_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
_CELL = frozenset(("td", "th"))
_SPACE = re.compile(r"\s+")
INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)
_TAG_START = re.compile(r"<[A-Za-z/!?]")
_TAG_NAME = re.compile(r"(/?)([A-Za-z][A-Za-z0-9:_-]{0,40})")
_MAX_QUOTE_PREFIX = 10


class _HTMLToText:
    """Turns a stream of start tags, end tags and text into quoted text lines."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.current: list[str] = []
        self.quote_depth = 0
        self.pre_depth = 0
        self.skip: list[str] = []

    # output helpers
    def _prefix(self) -> str:
        return "> " * min(self.quote_depth, _MAX_QUOTE_PREFIX)

    def end_line(self, keep_empty: bool = False) -> None:
        text = "".join(self.current)
        self.current.clear()
        if not self.pre_depth:
            text = _SPACE.sub(" ", text).strip()
        if text or keep_empty:
            self.lines.append((self._prefix() + text).rstrip())

    def blank(self) -> None:
        self.end_line()
        if self.lines and self.lines[-1].strip("> "):
            self.lines.append(self._prefix().rstrip())

    # events
    def start_tag(self, tag: str) -> None:
        if tag == "body" or tag in _BLOCK:  # the body has begun: <head> was left open
            self.skip = [t for t in self.skip if t not in ("head", "title")]
        if tag in _SKIP:
            self.skip.append(tag)
            return
        if self.skip:
            return
        if tag == "br":
            self.end_line(keep_empty=True)
        elif tag in _CELL:
            self.current.append(" ")
        elif tag in _BLOCK:
            if tag in _PARAGRAPH:
                self.blank()
            else:
                self.end_line()
            if tag == "blockquote":
                self.quote_depth += 1
            elif tag == "pre":
                self.pre_depth += 1

    def end_tag(self, tag: str) -> None:
        if tag in _SKIP:
            if tag in self.skip:
                del self.skip[len(self.skip) - 1 - self.skip[::-1].index(tag) :]
            return
        if self.skip:
            return
        if tag in _BLOCK:
            if tag in _PARAGRAPH:
                self.blank()
            else:
                self.end_line()
            if tag == "blockquote" and self.quote_depth:
                self.quote_depth -= 1
            elif tag == "pre" and self.pre_depth:
                self.pre_depth -= 1

    def data(self, data: str) -> None:
        if self.skip or not data:
            return
        data = html.unescape(data).translate(INVISIBLE).replace("\xa0", " ")
        if not self.pre_depth:
            self.current.append(data)
            return
        pieces = data.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for i, piece in enumerate(pieces):
            if i:
                self.end_line(keep_empty=True)
            self.current.append(piece)

    def text(self) -> str:
        self.end_line()
        while self.lines and not self.lines[-1].strip("> "):
            self.lines.pop()
        start = 0
        while start < len(self.lines) and not self.lines[start].strip("> "):
            start += 1
        return "\n".join(self.lines[start:])


def _feed(markup: str, out: _HTMLToText) -> None:
    n = len(markup)
    i = 0
    while i < n:
        lt = markup.find("<", i)
        if lt < 0:
            out.data(markup[i:])
            return
        if lt > i:
            out.data(markup[i:lt])
        if markup.startswith("<!--", lt):
            end = markup.find("-->", lt + 4)
            i = n if end < 0 else end + 3
            continue
        m = _TAG_NAME.match(markup, lt + 1)
        if not m and markup.startswith(("<!", "<?", "</"), lt):
            # doctype, CDATA, conditional comment, processing instruction, "</ x>"
            end = markup.find(">", lt + 2)
            i = n if end < 0 else end + 1
            continue
        if not m:  # a "<" that starts no tag is text
            nxt = _TAG_START.search(markup, lt + 1)
            i = n if nxt is None else nxt.start()
            out.data(markup[lt:i])
            continue
        end = markup.find(">", m.end())
        if end < 0:  # unclosed tag at the end: dropped
            return
        name = m.group(2).lower()
        i = end + 1
        if m.group(1):
            out.end_tag(name)
            continue
        out.start_tag(name)
        if markup[end - 1] == "/" and name not in _VOID:
            out.end_tag(name)
        elif name in _RAW_TEXT:
            close = re.compile(rf"</{name}[\s/>]", re.IGNORECASE).search(markup, i)
            stop = n if close is None else close.start()
            out.data(markup[i:stop])
            if close is None:
                return
            close_end = markup.find(">", close.start())
            i = n if close_end < 0 else close_end + 1
            out.end_tag(name)


def html_to_text(markup: str) -> str:
    """Convert HTML to plain text; linear in the input, never raises.

    Block elements, ``<br>`` and list items start new lines; whitespace is
    collapsed (except in ``<pre>``); entities are decoded; script, style, head
    and title are dropped; text inside ``<blockquote>`` comes out quoted with
    ``"> "`` per level, so that ``command_lines`` skips it.  List items carry no
    bullet, so a list of commands reads as commands.  Only the first
    ``MAX_HTML_CHARS`` characters are converted.
    """
    out = _HTMLToText()
    try:
        _feed(markup[:MAX_HTML_CHARS], out)
        return out.text()
    except Exception:  # a bug here must not lose the mail: strip tags crudely
        text = html.unescape(re.sub(r"<[^<>]*>", "\n", markup[:MAX_HTML_CHARS]))
        return "\n".join(line.strip() for line in text.splitlines() if line.strip())
