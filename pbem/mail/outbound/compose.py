"""Outgoing mail: headers, Message-IDs, threading, text + HTML parts (with the map as an
inline picture), the outbox.

Every mail the service writes goes through ``queue_mail``, which builds the
whole RFC 5322 message (so its Message-ID is fixed before it is first sent)
and adds it to the outbox inside the caller's transaction.
"""

from __future__ import annotations

import base64
import logging
import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from email.charset import QP, Charset
from email.generator import BytesGenerator
from email.header import Header
from email.message import Message
from email.mime.multipart import MIMEMultipart
from email.mime.nonmultipart import MIMENonMultipart
from email.mime.text import MIMEText
from email.policy import compat32
from email.utils import format_datetime, formataddr
from functools import lru_cache
from io import BytesIO
from typing import Any

from ...identity import InvalidPlayer, check_address
from ...lastused import LastUsed
from ...safe_text import one_line
from ...store import Store
from ..config import MailConfig
from .templates import few_lines, fill, shorten, to_html
from .views import MAIL_LIMIT, MapImage, drawn_map

log = logging.getLogger("pbem.mail")

# Purposes; the reply cap counts the mails of the REPLY_PURPOSES sent to an address, the
# rejection cap those of REJECTION_PURPOSES (apart, so forged mail cannot use the replies up).
REPLY_PURPOSES = ("re",)
REJECTION_PURPOSES = ("rej",)
#: the warning that a player's key came from another address: capped apart again
LEAK_PURPOSES = ("leak",)
#: mails that carry a player's key: only their headers are kept once sent
KEY_PURPOSES = ("welcome", "key")


@dataclass
class Outgoing:
    """One mail to write: who to, which template, which thread."""

    recipient: str
    template: str
    values: dict[str, object]
    subject: str
    purpose: str  # re (result), rej (rejected), turn, upd, talk, over, welcome, key, ref
    game_id: int | None = None
    reply_to: str | None = None
    #: the player whose reply address (with his reply code) goes in Reply-To
    reply_for: dict[str, Any] | None = None
    thread: str | None = None  # thread key (sr1, ...): References the thread root
    in_reply_to: str | None = None  # the player's Message-ID we answer
    extra_references: list[str] = field(default_factory=list)
    picture: bool = True  # the map as a picture, where the text shows it (picture off)


def message_id(config: MailConfig, game_id: int | None, purpose: str) -> str:
    """A new, unique Message-ID that also says which game and purpose it belongs to."""
    game = game_id if game_id is not None else 0
    return f"<pbem.{game}.{purpose}.{secrets.token_hex(8)}@{config.mail_domain}>"


def thread_root(config: MailConfig, game_id: int, thread: str) -> str:
    """The (never sent) root Message-ID of one thread of a game; ``root`` for the game."""
    return f"<pbem.{game_id}.{thread}@{config.mail_domain}>"


_OWN_ID = re.compile(r"<pbem\.(\d{1,18})\.[a-z0-9.]+@([^>]+)>")


def game_of_own_id(config: MailConfig, mid: str) -> int | None:
    """The game id in one of our own Message-IDs (or thread roots), else None."""
    m = _OWN_ID.fullmatch(mid.strip())
    if not m or m.group(2).lower() != config.mail_domain:
        return None
    game = int(m.group(1))
    return game or None


def subject_for(title: str, game_id: int, text: str) -> str:
    """``[1830 #12] SR 1: Alice to act`` (control characters made visible)."""
    return shorten(one_line(f"[{title} #{game_id}] {text}"), 120)


@dataclass(frozen=True)
class Built:
    """A mail as ``build_mail`` wrote it: its bytes, and whether they are as SMTP's DATA
    carries them (``smtp.on_the_wire``), known from its pieces as it was written: the
    sender then need not look at the whole mail again."""

    raw: bytes
    wire: bool


def build(config: MailConfig, out: Outgoing, mid: str, now: str) -> bytes:
    """The whole message as bytes with CRLF line ends (``build_mail``)."""
    return build_mail(config, out, mid, now).raw


def build_mail(config: MailConfig, out: Outgoing, mid: str, now: str) -> Built:
    """The whole message with CRLF line ends: text and HTML alternatives; when the text
    shows the map, the HTML and the map picture (inline, by Content-ID), as large as
    fits the mail in MAIL_LIMIT bytes (none when the player chose none).

    The mail's size without the picture, which sets the picture's budget, is that of
    the same message with the HTML in the picture's place; its headers and parts,
    written once, make the mail with the picture too (``wire_bytes``' ``written``).
    The HTML goes in few lines (``few_lines``), unless the picture that fits the HTML
    with a line end for each line is too large for it in few lines (a mail near its
    limit): then with those line ends, so that the picture is no smaller for them."""
    out.subject = one_line(out.subject)
    text = fill(config.templates_dir, out.template, out.values)
    plain = _text_part(text, "plain")
    drawn = drawn_map(text) if out.picture else None
    if drawn is not None:
        cid = image_cid(mid)
        page = to_html(config.templates_dir, out.subject, text, image_src=f"cid:{cid}",
                       anchor=drawn.anchor, symbols=drawn.symbols)
        joined = few_lines(page)
        html = _text_part(joined, "html")
        msg = _message(config, out, mid, now, plain, html)
        written: dict[tuple[int, str], Any] = {}
        without = len(wire_bytes(msg, written))
        growth = 2 * (page.count("\n") - joined.count("\n"))  # <br> for CRLF
        image = drawn.image(image_budget(without - growth))
        if image is not None:
            if len(image.data) > image_budget(without):  # it fits the HTML in lines only
                html, written = _text_part(page, "html"), {}
                msg = _message(config, out, mid, now, plain, html)
            msg.set_payload([plain, _related(html, image, cid)])
            return _built(msg, written)
    html = _text_part(few_lines(to_html(config.templates_dir, out.subject, text)), "html")
    return _built(_message(config, out, mid, now, plain, html), {})


def _message(config: MailConfig, out: Outgoing, mid: str, now: str, plain: Message,
             html: Message) -> Message:
    msg = MIMEMultipart("alternative")
    msg.attach(plain)
    msg.attach(html)
    msg["From"] = formataddr((config.name, config.address))
    msg["To"] = out.recipient
    if out.reply_to:
        msg["Reply-To"] = formataddr((config.name, out.reply_to))
    msg["Subject"] = _header(out.subject)  # type: ignore[assignment]
    msg["Date"] = format_datetime(datetime.fromisoformat(now))
    msg["Message-ID"] = mid
    refs = _references(config, out)
    if refs:
        msg["In-Reply-To"] = out.in_reply_to or refs[-1]
        msg["References"] = " ".join(refs)
    msg["Auto-Submitted"] = "auto-generated"
    msg["X-Auto-Response-Suppress"] = "All"
    msg["X-PBEM-Game"] = str(out.game_id or 0)
    return msg


_WIRE = compat32.clone(linesep="\r\n")


def wire_bytes(msg: Message, written: dict[tuple[int, str], Any] | None = None) -> bytes:
    """``msg.as_bytes(policy=_WIRE)``, the same bytes, in a fraction of the time: a mail
    as pbem writes it (multiparts and parts whose bodies are already encoded: 7bit,
    quoted-printable or base64) is written here as the generator would write it (each
    part's headers folded by the policy, remembered as most recur in every mail; its
    body with CRLF line ends; the parts between their boundaries), without the
    generator's copies and lookups. The boundaries are chosen first (the generator
    would scan every body with a new regular expression for its own); should a body
    hold one, or be other than ASCII text, or a part have a preamble or epilogue, the
    generator does it all.

    ``written``: what was written of the message's parts before (filled in here), to
    write a message again after a change of its payload (a part replaced or added)
    without writing again the headers and the parts it had: keyed by the parts' ids,
    so only while they live, unchanged (``build``); and whether each part's bytes are
    as DATA carries them (``_built``)."""
    written = {} if written is None else written
    for part in msg.walk():
        if part.is_multipart() and (id(part), "boundary") not in written:
            boundary = part.get_boundary()
            if boundary is None:
                boundary = f"=_pbem_{secrets.token_hex(12)}"
                part.set_boundary(boundary)
            written[(id(part), "boundary")] = boundary.encode("utf-8", "surrogateescape")
    try:
        return _flat(msg, written)
    except _Unusual:
        written[(id(msg), "generated")] = True
        return _generated(msg)


def _built(msg: Message, written: dict[tuple[int, str], Any]) -> Built:
    """The mail's bytes (``wire_bytes``), and whether they are on the wire: every piece
    ``_flat`` wrote was (its line ends CRLF, no line starting with a dot), so the
    whole is, its boundaries being lines of their own."""
    raw = wire_bytes(msg, written)
    wire = (id(msg), "generated") not in written and raw.endswith(b"\r\n") \
        and all(value for (_, what), value in written.items() if what == "wire")
    return Built(raw, wire)


class _Unusual(Exception):
    """A message that only the generator writes right."""


def _flat(msg: Message, written: dict[tuple[int, str], Any]) -> bytes:
    """The bytes of ``msg`` as BytesGenerator (compat32, CRLF) writes them; those of its
    headers and of each part without parts kept in ``written`` (and taken from it)."""
    if not msg.is_multipart():
        found = written.get((id(msg), "part"))
        if found is None:
            found, written[(id(msg), "wire")] = _leaf(msg)
            written[(id(msg), "part")] = found
        return bytes(found)
    head = written.get((id(msg), "head"))
    if head is None:
        head = written[(id(msg), "head")] = _head(msg)
        written[(id(msg), "wire")] = _wire_lines(head)
    boundary, subparts = written[(id(msg), "boundary")], msg.get_payload()
    if msg.preamble is not None or msg.epilogue is not None or not boundary.isascii() \
            or not isinstance(subparts, list) \
            or not all(isinstance(part, Message) for part in subparts):
        raise _Unusual()
    parts = [_flat(part, written) for part in subparts if isinstance(part, Message)]
    dashes = b"--" + boundary
    if any(dashes in part for part in parts):
        raise _Unusual()
    return b"".join([head, b"\r\n", dashes, b"\r\n", (b"\r\n" + dashes + b"\r\n").join(parts),
                     b"\r\n", dashes, b"--\r\n"])


def _head(msg: Message) -> bytes:
    return b"".join(_folded(name, value) if isinstance(value, str)
                    else _WIRE.fold_binary(name, value) for name, value in msg.raw_items())


def _leaf(msg: Message) -> tuple[bytes, bool]:
    """A part's bytes, and whether they are on the wire."""
    body = msg.get_payload()
    if not isinstance(body, str) or not body.isascii():
        raise _Unusual()
    head = _head(msg)
    data, dot_free = _crlf(body)
    return head + b"\r\n" + data, dot_free and _wire_lines(head)


@lru_cache(maxsize=16)
def _crlf(body: str) -> tuple[bytes, bool]:
    """The body with every line end (CRLF, CR or LF) made CRLF, as the generator writes
    it (the picture's body recurs in every mail of a move), and whether none of its
    lines starts with a dot."""
    data = body.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n")
    return data.encode("ascii"), not data.startswith(".") and "\n." not in data


def _wire_lines(head: bytes) -> bool:
    """True when the lines ``head`` (a part's headers) are as DATA carries them: CRLF
    line ends only, none starting with a dot."""
    return (not head.startswith(b".") and b"\n." not in head
            and head.count(b"\r") == head.count(b"\n") == head.count(b"\r\n"))


def _generated(msg: Message) -> bytes:
    out = BytesIO()
    _WireGenerator(out, mangle_from_=False, policy=_WIRE).flatten(msg, unixfrom=False)
    return out.getvalue()


class _WireGenerator(BytesGenerator):
    """The generator of ``as_bytes``, remembering how it folded each header."""

    def _write_headers(self, msg: Message) -> None:
        for name, value in msg.raw_items():
            self._fp.write(  # type: ignore[attr-defined]
                _folded(name, value) if isinstance(value, str)
                else self.policy.fold_binary(name, value))
        self.write(self._NL)  # type: ignore[attr-defined]


def _folded(name: str, value: str) -> bytes:
    """``_WIRE.fold_binary(name, value)``: a header that fits on its line as it is
    (printable ASCII, 78 columns) is that line; the others are folded by the policy,
    the last few thousand remembered (most recur in every mail). The random tokens of
    Message-IDs and boundaries (hex) are folded as a run of ``~`` of their length and
    put back: a fold goes by the lengths of the words, so one fold serves every
    boundary of a multipart header and every Message-ID of a reference."""
    if len(name) + len(value) <= 76 and value.isascii() and value.isprintable():
        return f"{name}: {value}\r\n".encode("ascii")
    if "~" not in value:
        shape = _HEX_TOKEN.sub(lambda token: "~" * len(token[0]), value)
        if shape != value:
            tokens = iter(_HEX_TOKEN.findall(value))
            return _TILDES.sub(lambda _: next(tokens).encode("ascii"),
                               _folded_by_policy(name, shape))
    return _folded_by_policy(name, value)


_HEX_TOKEN = re.compile(r"[0-9a-f]{16,}")
_TILDES = re.compile(rb"~+")


@lru_cache(maxsize=4096)
def _folded_by_policy(name: str, value: str) -> bytes:
    return _WIRE.fold_binary(name, value)


def _related(html: Message, image: MapImage, cid: str) -> Message:
    """multipart/related: the HTML showing ``<img src="cid:...">`` and the picture."""
    related = MIMEMultipart("related", type="text/html")
    related.attach(html)
    picture = MIMENonMultipart("image", image.subtype)
    picture["Content-Transfer-Encoding"] = "base64"
    picture.set_payload(_base64(image.data))
    picture.add_header("Content-ID", f"<{cid}>")
    picture.add_header("Content-Disposition", "inline", filename=image.filename)
    related.attach(picture)
    return related


_ENCODED: LastUsed[bytes, str] = LastUsed(8)


def _base64(data: bytes) -> str:
    """``data`` in base64 lines as MIMEImage writes them; the last few pictures' kept
    (every recipient of a move gets the same picture)."""
    found = _ENCODED.get(data)
    if found is None:
        found = base64.encodebytes(data).decode("ascii")
        _ENCODED.put(data, found)
    return found


#: What the picture's part adds besides its data: its MIME headers and boundaries.
IMAGE_PART_OVERHEAD = 600


def image_budget(without: int) -> int:
    """How many bytes the picture may have so that a mail of ``without`` bytes without it
    stays within MAIL_LIMIT (the picture goes in base64: 4 characters for 3 bytes, in
    lines of 76 and a line end)."""
    room = MAIL_LIMIT - IMAGE_PART_OVERHEAD - without
    return max(room, 0) * 3 * 76 // (4 * 78)


def image_cid(mid: str) -> str:
    """The Content-ID (without <>) of the map picture in the mail ``mid``: unique with it."""
    return "map." + mid.strip().strip("<>")


def _text_part(text: str, subtype: str) -> Message:
    """us-ascii as it is; anything else UTF-8, quoted-printable (readable in the raw).
    The us-ascii part is the one ``MIMEText(text, subtype, "us-ascii")`` makes, its
    headers set here (MIMEText's charset machinery took a quarter of a millisecond)."""
    if text.isascii():
        part = Message()
        part["Content-Type"] = f'text/{subtype}; charset="us-ascii"'
        part["MIME-Version"] = "1.0"
        part["Content-Transfer-Encoding"] = "7bit"
        part.set_payload(text)
        return part
    charset = Charset("utf-8")
    charset.body_encoding = QP
    return MIMEText(text, subtype, charset)  # type: ignore[arg-type]


def _header(value: str) -> str | Header:
    return value if value.isascii() else Header(value, "utf-8")


def _references(config: MailConfig, out: Outgoing) -> list[str]:
    refs: list[str] = []
    if out.game_id and out.thread:
        refs.append(thread_root(config, out.game_id, out.thread))
    refs.extend(out.extra_references)
    if out.in_reply_to:
        refs.append(out.in_reply_to)
    return list(dict.fromkeys(refs))


def queue_mail(store: Store, config: MailConfig, out: Outgoing, now: str) -> str:
    """Build the mail and add it to the outbox (in the caller's transaction); its id.

    The reply address of ``out.reply_for`` carries his reply code (store.reply_code);
    the stored copy loses the code once sent, and a mail that carries a key
    (KEY_PURPOSES) its body. A recipient that is not one plain address (a database
    written before addresses were checked) gets nothing: the mail is left out and
    logged, and nothing else of the transaction is undone. Returns "" then."""
    if not out.recipient:  # a player without an address (an imported game) gets no mail
        return ""
    try:
        check_address(out.recipient)
    except InvalidPlayer as exc:
        log.warning("mail to %s for game %s left out: %s", one_line(out.recipient[:80]),
                    out.game_id, exc)
        return ""
    code = None
    if out.reply_for is not None:
        code = store.reply_code(out.reply_for)
        out.reply_to = config.plus_address(int(out.reply_for["game_id"]), code)
    mid = message_id(config, out.game_id, out.purpose)
    built = build_mail(config, out, mid, now)
    redact = {"strings": [code] if code else [], "body": out.purpose in KEY_PURPOSES}
    store.outbox_add(mid, out.game_id, out.recipient, one_line(out.subject), built.raw, now,
                     out.purpose, redact=redact, wire=built.wire)
    return mid
