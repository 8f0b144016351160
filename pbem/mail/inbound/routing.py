"""Finding the game and player an inbound mail is for.

Pure functions over addresses, subjects, command lines and parsed mail.  The
service tries, in order (design, section 4): the plus-address it put in
Reply-To (``pbem+<game>.<key>@host``), the subject tag (``[1830 #12]``), then
the ids in In-Reply-To/References, which it matches against its outbox.

Player keys are case-insensitive (mail software may change the case of an
address); every function here returns them lower-cased.
"""

from __future__ import annotations

import re
from email.utils import parseaddr

from .mime import InboundMail

__all__ = [
    "find_plus_address",
    "key_line",
    "plus_address_tag",
    "referenced_ids",
    "split_key_line",
    "subject_key",
    "subject_tag",
]

_KEY = r"[a-z0-9_-]{1,64}"
_GAME = r"\d{1,18}"


def _bare_address(address: str) -> str:
    address = address.strip()
    if "<" in address or " " in address:
        try:
            address = parseaddr(address)[1]
        except Exception:
            return ""
    return address.strip().lower()


def plus_address_tag(
    address: str, local: str = "pbem", domain: str | None = None
) -> tuple[int, str] | None:
    """``(game_id, player_key)`` from ``pbem+<game>.<key>@host``, else None.

    The local part is compared case-insensitively; the game is digits, the key
    letters, digits, ``_`` and ``-``.  A display name around the address
    (``Name <pbem+12.k3y@host>``) is allowed.  When ``domain`` is given, the
    host must equal it (case-insensitive).
    """
    if not isinstance(address, str):
        return None
    addr = _bare_address(address)
    local_part, at, host = addr.rpartition("@")
    if not at:
        return None
    if domain is not None and host != domain.strip().lower():
        return None
    m = re.fullmatch(rf"{re.escape(local.lower())}\+({_GAME})\.({_KEY})", local_part)
    if not m:
        return None
    return int(m.group(1)), m.group(2)


def find_plus_address(
    mail: InboundMail, local: str = "pbem", domain: str | None = None
) -> tuple[int, str] | None:
    """The first plus-address tag among the mail's recipients (Delivered-To and
    friends first, then To, then Cc), or None."""
    for address in mail.recipients:
        tag = plus_address_tag(address, local, domain)
        if tag is not None:
            return tag
    return None


_SUBJECT_TAG = re.compile(
    rf"\[\s*18[0-9a-z]{{0,16}}\s*#\s*({_GAME})(?:\s+key[\s:=]+({_KEY}))?\s*\]",
    re.IGNORECASE,
)


def subject_tag(subject: str) -> int | None:
    """The game id of the first ``[1830 #12]``-style tag in a subject, or None.

    The tag may stand anywhere, so "Re:", "AW:", "Fwd:" and list prefixes do not
    matter.  The title is any ``18xx`` name; the tag may also carry the player
    key as ``[1830 #12 key k3y]`` (see ``subject_key``).
    """
    if not isinstance(subject, str):
        return None
    m = _SUBJECT_TAG.search(subject[:2000])
    return int(m.group(1)) if m else None


def subject_key(subject: str) -> str | None:
    """The player key of a ``[1830 #12 key k3y]`` subject tag, lower-cased, or None."""
    if not isinstance(subject, str):
        return None
    m = _SUBJECT_TAG.search(subject[:2000])
    return m.group(2).lower() if m and m.group(2) else None


_KEY_LINE = re.compile(rf"key(?:\s*[:=]\s*|\s+)({_KEY})", re.IGNORECASE)


def split_key_line(lines: list[str]) -> tuple[str | None, list[str]]:
    """The key of the first ``key XXXX`` line (lower-cased) and the other lines.

    ``key: XXXX`` and ``key=XXXX`` are accepted too.  Only the first key line is
    taken out; the input list is not changed.
    """
    for i, line in enumerate(lines):
        m = _KEY_LINE.fullmatch(line.strip())
        if m and m.group(1).lower() != "new":  # "key new" is a command
            return m.group(1).lower(), lines[:i] + lines[i + 1 :]
    return None, list(lines)


def key_line(lines: list[str]) -> str | None:
    """The key of the first ``key XXXX`` line, which is removed from ``lines``.

    This changes the list it is given (typically ``CommandText.lines``) so that
    the key is not taken for a command; ``split_key_line`` is the same without
    changing its input.
    """
    key, rest = split_key_line(lines)
    if key is not None:
        lines[:] = rest
    return key


def referenced_ids(mail: InboundMail) -> list[str]:
    """Message ids the mail replies to, most relevant first, without repeats.

    In-Reply-To first, then References from the last (the direct parent) to the
    first (the thread root).  Ids keep their angle brackets, like
    ``InboundMail.message_id``.
    """
    ids: list[str] = []
    if mail.in_reply_to:
        ids.append(mail.in_reply_to)
    ids.extend(reversed(mail.references))
    return list(dict.fromkeys(ids))
