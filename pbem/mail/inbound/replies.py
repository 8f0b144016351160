"""The command lines of a mail: quoted replies, attributions, signatures and everything
after ``end`` stripped (docs/mail-reading.md, "What is stripped").

Pure and linear in the body; ``command_lines`` never raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from ...safe_text import one_line
from .html import INVISIBLE

__all__ = [
    "MAX_COMMAND_LINES",
    "MAX_IGNORED_LISTED",
    "MAX_LINE_LENGTH",
    "CommandText",
    "StopReason",
    "command_lines",
]

MAX_COMMAND_LINES = 50
"""At most this many command lines are read from one mail by default (design, section 4;
the service's ``limits.lines_per_mail`` sets its own)."""

MAX_LINE_LENGTH = 1000
"""A longer line is not a command; it is listed as ignored."""

MAX_IGNORED_LISTED = 20
"""At most this many ignored lines are listed one by one; the rest are counted."""


class StopReason(StrEnum):
    """Why ``command_lines`` stopped reading."""

    END_OF_TEXT = "end of text"
    END_LINE = "end line"
    SIGNATURE = "signature"
    QUOTED_REPLY = "quoted reply"
    LINE_LIMIT = "line limit"


@dataclass
class CommandText:
    """The command lines of one mail.

    ``lines`` holds at most ``limit`` stripped, non-blank lines, as
    typed (a line may hold several commands separated by ``;``: the command
    parser splits them).  ``ignored`` lists lines that looked like commands but
    were dropped, each as ``"<line>  (<why>)"``.  ``stop_line`` is the 1-based
    line number of the body where reading stopped (None at the end of the
    text) and ``stop_text`` the line itself.
    """

    lines: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    stopped_at: StopReason = StopReason.END_OF_TEXT
    stop_line: int | None = None
    stop_text: str = ""
    quoted_lines: int = 0
    """How many lines starting with '>' were skipped."""
    limit: int = MAX_COMMAND_LINES
    """The most command lines read."""

    @property
    def stop_description(self) -> str:
        """A sentence for the reply: where and why reading stopped."""
        where = f"at line {self.stop_line}" if self.stop_line is not None else ""
        text = _shorten(self.stop_text, 60)
        if self.stopped_at is StopReason.END_LINE:
            return f"Reading stopped {where} at the line '{text}'."
        if self.stopped_at is StopReason.SIGNATURE:
            return f"Reading stopped {where}: a signature starts there ('{text}')."
        if self.stopped_at is StopReason.QUOTED_REPLY:
            return f"Reading stopped {where}: the quoted earlier mail starts there ('{text}')."
        if self.stopped_at is StopReason.LINE_LIMIT:
            return (
                f"Reading stopped {where}: only the first {self.limit} "
                "command lines of a mail are read."
            )
        return "The whole mail was read."



_ATTRIBUTION_LANGS = [
    # (opening word, closing words): "On <date>, <name> wrote:" and friends.
    ("on", r"wrote|writes|said"),  # English (Gmail, Apple Mail, Thunderbird)
    ("am", r"schrieb\b.*|hat\b.*geschrieben"),  # German
    ("le", r"a [ée]crit|[ée]crit"),  # French
    ("el", r"escribi[óo]"),  # Spanish
    ("op", r"schreef\b.*"),  # Dutch
    ("il", r"ha scritto"),  # Italian
    ("em", r"escreveu"),  # Portuguese
    ("den", r"skrev\b.*"),  # Danish, Norwegian, Swedish
    ("w dniu", r"pisze|napisa[łl]\w*(?:\(a\))?"),  # Polish
]
_ATTRIBUTION_FULL = {
    opening: re.compile(rf"^{opening}\b.{{0,250}}\b(?:{closing})\s*:$", re.IGNORECASE | re.DOTALL)
    for opening, closing in _ATTRIBUTION_LANGS
}
_ATTRIBUTION_OPENING = re.compile(
    r"^(" + "|".join(o for o, _ in _ATTRIBUTION_LANGS) + r")\b", re.IGNORECASE
)
# "<name> wrote:" without a date: only an attribution if quoted lines follow.
_ATTRIBUTION_SHORT = re.compile(
    r"\b(?:wrote|writes|schrieb|a [ée]crit|escribi[óo]|schreef|ha scritto|escreveu|skrev"
    r"|napisa[łl]\w*|пишет|написал\w*)\s*:$",
    re.IGNORECASE,
)
_ORIGINAL_MESSAGE = re.compile(
    r"^-{2,}\s*(?:original message|ursprüngliche nachricht|originalnachricht"
    r"|message d'origine|mensaje original|oorspronkelijk bericht|messaggio originale"
    r"|mensagem original|forwarded message|weitergeleitete nachricht"
    r"|message transféré|mensaje reenviado|doorgestuurd bericht|messaggio inoltrato)"
    r"\s*-{2,}$"
    r"|^(?:begin forwarded message|anfang der weitergeleiteten nachricht)\s*:$",
    re.IGNORECASE,
)
_HEADER_FROM = re.compile(r"^\*?(?:from|von|de|van|da|od|fra|från)\s*:\*?\s*\S", re.IGNORECASE)
_HEADER_SENT = re.compile(
    r"^\*?(?:sent|date|gesendet|datum|envoy[ée]|date|enviado|fecha|verzonden|inviato|data"
    r"|wys[łl]ano|sendt|skickat)\s*:",
    re.IGNORECASE,
)
_HEADER_ONE_LINE = re.compile(
    r"^\*?(?:from|von|de|van|da)\s*:.{1,200}\b(?:sent|gesendet|envoy[ée]|enviado|verzonden"
    r"|inviato)\s*:",
    re.IGNORECASE,
)
_SEPARATOR = re.compile(r"^_{8,}$")
_MOBILE_SIGNATURE = re.compile(
    r"^(?:sent from my \w[\w ]{0,30}|sent from (?:mail|outlook) for \w+|get outlook for \w+"
    r"|von meinem \w[\w ]{0,30} gesendet|envoyé de mon \w[\w ]{0,30}"
    r"|enviado desde mi \w[\w ]{0,30}|verzonden vanaf mijn \w[\w ]{0,30}"
    r"|inviato da(?:l mio)? \w[\w ]{0,30})\.?$",
    re.IGNORECASE,
)
_MAX_ATTRIBUTION = 300


def _clean(line: str) -> str:
    """The line as read: invisible characters dropped at its ends, control characters
    (terminal escapes, bells) made visible (pbem.safe_text), so they are never stored."""
    return one_line(line.translate(INVISIBLE).strip())


def _is_quoted(line: str) -> bool:
    return line.startswith(">")


def _starts_reply(lines: list[str], i: int, line: str) -> bool:
    """Does the (cleaned) line ``lines[i]`` start the quoted earlier mail?"""
    if len(line) > _MAX_ATTRIBUTION:
        return False
    if _SEPARATOR.match(line) or _ORIGINAL_MESSAGE.match(line) or _HEADER_ONE_LINE.match(line):
        return True
    opening = _ATTRIBUTION_OPENING.match(line)
    if opening:
        pattern = _ATTRIBUTION_FULL[opening.group(1).lower()]
        if pattern.match(line):
            return True
        # Gmail and others wrap a long attribution over two lines.
        if i + 1 < len(lines):
            joined = line + " " + _clean(lines[i + 1])
            if len(joined) <= _MAX_ATTRIBUTION and pattern.match(joined):
                return True
    if _HEADER_FROM.match(line):  # Outlook: From: / Sent: / To: / Subject: block
        return any(_HEADER_SENT.match(_clean(x)) for x in lines[i + 1 : i + 5])
    if _ATTRIBUTION_SHORT.search(line):
        for following in lines[i + 1 : i + 5]:
            following = _clean(following)
            if following:
                return _is_quoted(following)
    return False


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def command_lines(body_text: str, limit: int = MAX_COMMAND_LINES) -> CommandText:
    """Extract the command lines a player typed; linear in the body, never raises.

    Line by line: blank lines and lines starting with ``>`` are skipped; reading
    stops at ``end`` (any case), at a signature separator (``-- `` or ``--``) or
    a phone signature ("Sent from my iPhone"), and at the start of a quoted
    earlier mail (an attribution such as "On <date>, <name> wrote:" in several
    languages, Outlook's "-----Original Message-----" or From:/Sent: block, a
    "________" separator).  The first ``limit`` remaining lines are
    the commands; later ones, and lines over ``MAX_LINE_LENGTH`` characters, are
    listed in ``ignored`` (the first ``MAX_IGNORED_LISTED``, then a count).
    """
    result = CommandText(limit=limit)
    if not isinstance(body_text, str):
        return result
    lines = body_text.splitlines()
    extra_ignored = 0
    limit_reached = False

    def ignore(text: str, why: str) -> None:
        nonlocal extra_ignored
        if len(result.ignored) < MAX_IGNORED_LISTED:
            result.ignored.append(f"{_shorten(text, 80)}  ({why})")
        else:
            extra_ignored += 1

    def stop(reason: StopReason, number: int, text: str) -> None:
        if not limit_reached:
            result.stopped_at = reason
            result.stop_line = number
            result.stop_text = text

    for i, raw_line in enumerate(lines):
        line = _clean(raw_line)
        if not line:
            continue
        if _is_quoted(line):
            result.quoted_lines += 1
            continue
        if line == "--":
            stop(StopReason.SIGNATURE, i + 1, line)
            break
        if line.lower() == "end":
            stop(StopReason.END_LINE, i + 1, line)
            break
        if _starts_reply(lines, i, line):
            stop(StopReason.QUOTED_REPLY, i + 1, line)
            break
        if _MOBILE_SIGNATURE.match(line):
            stop(StopReason.SIGNATURE, i + 1, line)
            break
        if len(line) > MAX_LINE_LENGTH:
            ignore(line, f"longer than {MAX_LINE_LENGTH} characters")
            continue
        if len(result.lines) < limit:
            result.lines.append(line)
            continue
        if not limit_reached:
            stop(StopReason.LINE_LIMIT, i + 1, line)
            limit_reached = True
        if len(result.ignored) >= MAX_IGNORED_LISTED:
            # Enough is listed; looking further would only cost time.
            result.ignored.append(f"... and the remaining {len(lines) - i} lines were not read")
            break
        ignore(line, f"more than {limit} command lines")
    if extra_ignored:
        result.ignored.append(f"... and {extra_ignored} more over-long lines  (not listed)")
    return result
