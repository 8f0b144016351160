"""Text from players, shown safely: control characters made visible.

Anything a player writes (table talk, names from old records, subjects quoted back)
may carry control characters: terminal escapes (``ESC [2J`` clears a screen,
``ESC ]0;...BEL`` sets a terminal's title), bells, carriage returns that forge a
header line, bidirectional overrides that make text read backwards. pbem never
passes them on: every place that shows text (mail headers, mail text and HTML, the
archive page, the CLI) runs it through ``visible`` first, and the command lines of
a mail are made visible as they are read, so they are stored that way.

``visible`` shows a C0 control or DEL as its Unicode control picture (ESC as ␛, BEL
as ␇) and C1 controls, bidirectional controls and line/paragraph separators as
``<U+202E>``. Line ends and tabs are kept where a text may have them
(``keep_lines=True``), and become pictures too in a one-line text (``one_line``).
"""

from __future__ import annotations

import re

_C0_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)}
_C0_PICTURES[0x7F] = "\u2421"
# C0 (but tab and newline), DEL, C1, bidirectional marks, embeddings, overrides and
# isolates, line and paragraph separators, the byte-order mark inside text.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
                     "\u2028\u2029\ufeff\ufff9-\ufffb]")
_UNSAFE_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
                              "\u2028\u2029\ufeff\ufff9-\ufffb]")


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    if code in _C0_PICTURES:
        return _C0_PICTURES[code]
    return f"<U+{code:04X}>"


def visible(text: str, keep_lines: bool = True) -> str:
    """``text`` with every control character shown as a visible picture; newlines and
    tabs kept unless ``keep_lines`` is False. A CR LF pair is kept as a newline."""
    if keep_lines:
        text = text.replace("\r\n", "\n")
        return _UNSAFE.sub(_picture, text)
    return _UNSAFE_ONE_LINE.sub(_picture, text)


def one_line(text: str) -> str:
    """``text`` for one line (a mail header, a table cell): no line break survives."""
    return visible(text, keep_lines=False)


def is_safe(text: str, keep_lines: bool = True) -> bool:
    """True when ``visible`` would not change ``text``."""
    pattern = _UNSAFE if keep_lines else _UNSAFE_ONE_LINE
    return pattern.search(text) is None and (not keep_lines or "\r" not in text)
