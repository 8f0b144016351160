"""Reading an inbound mail's MIME structure: headers, charsets, transfer encodings,
the body as text (the first text/plain part, else the first text/html part converted by
``pbem.mail.inbound.html``) and a summary of the attachments (never decoded).

Everything here is pure: functions from bytes or strings to data, no network, clock,
database or global state. Nothing raises on bad input: a message that cannot be
decoded properly is decoded as well as possible and the problems are listed in
``InboundMail.notes``. See docs/mail-reading.md.
"""

from __future__ import annotations

import binascii
import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message
from email.policy import compat32
from email.utils import getaddresses

from .html import MAX_HTML_CHARS, html_to_text

__all__ = [
    "MAX_BODY_ENCODED",
    "AttachmentInfo",
    "InboundMail",
    "decode_header_words",
    "decode_text",
    "parse_message",
    "unflow",
]

MAX_BODY_ENCODED = 2 * 1024 * 1024
"""Only this much of the (transfer-encoded) body part is decoded."""

MAX_PARTS = 500
"""Only this many MIME parts are looked at."""

MAX_HEADER_LENGTH = 64 * 1024
"""Header values are cut to this length before they are parsed."""

MAX_DEPTH = 40
"""A mail whose MIME parts nest deeper is not parsed beyond its headers (the
stdlib parser recurses once per level; a thousand levels are a RecursionError)."""


# ---------------------------------------------------------------------------
# Data


@dataclass
class AttachmentInfo:
    """One MIME part that is not the body.  Its content is never decoded."""

    content_type: str
    filename: str | None
    size: int
    """Approximate decoded size in bytes, computed from the encoded length."""


@dataclass
class InboundMail:
    """What the service needs to know of one inbound message.

    Addresses are lower-cased.  Message ids keep their angle brackets
    (``<id@host>``), as ``email.utils.make_msgid`` makes them.  ``headers`` holds
    every top-level header in order, unfolded but otherwise as received (not
    RFC 2047 decoded); use ``header()`` / ``header_all()`` to read them.
    """

    message_id: str | None = None
    from_addr: str = ""
    from_name: str = ""
    to_addrs: list[str] = field(default_factory=list)
    cc_addrs: list[str] = field(default_factory=list)
    delivered_to: list[str] = field(default_factory=list)
    """Envelope recipients as the receiving server recorded them (Delivered-To,
    X-Original-To, Envelope-To, X-Envelope-To), in header order."""
    subject: str = ""
    date: str | None = None
    in_reply_to: str | None = None
    references: list[str] = field(default_factory=list)
    content_type: str = "text/plain"
    headers: list[tuple[str, str]] = field(default_factory=list)
    body_text: str = ""
    had_html_only: bool = False
    """True when the body was converted from HTML (no text/plain part with text)."""
    attachments: list[AttachmentInfo] = field(default_factory=list)
    raw_size: int = 0
    notes: list[str] = field(default_factory=list)
    """Problems met while decoding (unknown charset, truncated body, ...)."""
    unreadable: str = ""
    """Why the body was not read at all (a limit), as a sentence; "" when it was."""

    def header(self, name: str) -> str | None:
        """The first header called ``name`` (case-insensitive), or None."""
        wanted = name.lower()
        for key, value in self.headers:
            if key.lower() == wanted:
                return value
        return None

    def header_all(self, name: str) -> list[str]:
        """Every header called ``name`` (case-insensitive), in order."""
        wanted = name.lower()
        return [value for key, value in self.headers if key.lower() == wanted]

    @property
    def recipients(self) -> list[str]:
        """Delivered-to, To and Cc addresses, in that order, without repeats."""
        return list(dict.fromkeys(self.delivered_to + self.to_addrs + self.cc_addrs))

    @property
    def attachment_count(self) -> int:
        return len(self.attachments)

    @property
    def attachment_bytes(self) -> int:
        return sum(a.size for a in self.attachments)


# ---------------------------------------------------------------------------
# Charsets and transfer encodings

# Names mail software uses that Python does not know, or knows under a narrower
# meaning.  Values are Python codec names; None means "unknown, guess".
_CHARSET_ALIASES: dict[str, str | None] = {
    "unknown": None,
    "unknown-8bit": None,
    "x-unknown": None,
    "x-user-defined": None,
    "default": None,
    "none": None,
    "charset": None,
    "binary": None,
    "8bit": None,
    "ks_c_5601-1987": "cp949",
    "ks_c_5601": "cp949",
    "iso-8859-8-i": "iso-8859-8",
    "iso-8859-6-i": "iso-8859-6",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "shift_jis": "cp932",
    "shift-jis": "cp932",
    "x-sjis": "cp932",
    "sjis": "cp932",
    "windows-31j": "cp932",
    "windows-874": "cp874",
    "x-mac-roman": "mac_roman",
    "macintosh": "mac_roman",
    "unicode-1-1-utf-7": "utf-7",
    "x-unicode-2-0-utf-7": "utf-7",
    "utf8": "utf-8",
    "unicode": "utf-16",
}

# Text codecs that are not character sets; a mail naming them is decoded as
# if the charset were unknown.
_NOT_CHARSETS = {"idna", "punycode", "unicode-escape", "raw-unicode-escape", "undefined"}


def _codec_for(charset: str | None) -> str | None:
    """The Python codec for a MIME charset name, or None if unknown."""
    if not charset:
        return None
    name = charset.strip().strip("\"'").strip().lower()
    name = re.split(r"[\s;,]", name, maxsplit=1)[0] if name else name
    if not name or len(name) > 40:
        return None
    if name in _CHARSET_ALIASES:
        return _CHARSET_ALIASES[name]
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError, TypeError):
        return None
    codec = info.name.replace("_", "-")
    if codec in _NOT_CHARSETS or not getattr(info, "_is_text_encoding", True):
        return None
    if codec in ("ascii", "latin-1", "iso8859-1"):
        # "us-ascii" mail often carries 8-bit UTF-8 and "iso-8859-1" mail
        # Windows-1252 characters (as browsers assume, per WHATWG).
        return codec
    return info.name


def _guess_decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _utf16_without_bom(data: bytes) -> str:
    # RFC 2781 says big-endian; senders often mean little-endian.  Zero bytes of
    # ASCII text show which.
    sample = data[:400]
    even_zeros = sample[0::2].count(0)
    odd_zeros = sample[1::2].count(0)
    return data.decode("utf-16-le" if odd_zeros > even_zeros else "utf-16-be", errors="replace")


def decode_text(data: bytes, charset: str | None) -> tuple[str, str | None]:
    """Decode bytes in a MIME charset; never raises.

    Returns the text and a note when the charset was missing or unknown (the
    text is then UTF-8 if it is valid UTF-8, else Windows-1252), or None.
    """
    codec = _codec_for(charset)
    if codec is None:
        note = f"unknown charset {charset!r}, decoded by guess" if charset else None
        return _guess_decode(data), note
    if codec == "ascii":
        return _guess_decode(data), None
    if codec in ("latin-1", "iso8859-1"):
        return data.decode("cp1252", errors="replace"), None
    if codec in ("utf-16", "utf_16") and data[:2] not in (b"\xff\xfe", b"\xfe\xff"):
        return _utf16_without_bom(data), None
    try:
        return data.decode(codec, errors="replace"), None
    except Exception:  # a codec with a bug or an odd error handler: guess instead
        return _guess_decode(data), f"charset {charset!r} failed, decoded by guess"


_B64_JUNK = re.compile(rb"[^A-Za-z0-9+/=]")
_B64_PADDING = re.compile(rb"=+")


def _b64decode(data: bytes) -> bytes:
    """Lenient base64: ignore everything outside the alphabet, fix padding.

    Padding inside the data (base64 blocks glued together) starts a new block.
    """
    decoded: list[bytes] = []
    for chunk in _B64_PADDING.split(_B64_JUNK.sub(b"", data)):
        rem = len(chunk) % 4
        if rem == 1:
            chunk = chunk[:-1]
        elif rem:
            chunk += b"=" * (4 - rem)
        try:
            decoded.append(binascii.a2b_base64(chunk))
        except (binascii.Error, ValueError):
            break
    return b"".join(decoded)


def _qpdecode(data: bytes, header: bool = False) -> bytes:
    try:
        return binascii.a2b_qp(data, header=header)
    except (binascii.Error, ValueError):
        return data


def _to_bytes(text: str) -> bytes:
    # The compat32 parser keeps 8-bit bytes as surrogate escapes.
    try:
        return text.encode("utf-8", errors="surrogateescape")
    except UnicodeEncodeError:  # other lone surrogates: not from the parser
        return text.encode("utf-8", errors="replace")


def _transfer_decode(payload: str, cte: str) -> bytes:
    data = _to_bytes(payload)
    if cte == "base64":
        return _b64decode(data)
    if cte == "quoted-printable":
        return _qpdecode(data)
    return data


def _estimated_size(payload: object, cte: str) -> int:
    """The decoded size of a payload, estimated without decoding it."""
    if not isinstance(payload, str):
        return 0
    if cte == "base64":
        chars = len(payload)
        for ws in ("\n", "\r", " ", "\t", "="):
            chars -= payload.count(ws)
        return max(chars, 0) * 3 // 4
    if cte == "quoted-printable":
        return max(len(payload) - 2 * payload.count("=") - payload.count("\r"), 0)
    return len(payload)


# ---------------------------------------------------------------------------
# Headers

_FOLD = re.compile(r"\r?\n(?=[ \t])")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_ENCODED_WORD = re.compile(r"=\?([^?\s]{1,60})\?([bBqQ])\?([^?\s]*)\?=")


def _header_value(value: object) -> str:
    """A raw header value as text: unfolded, 8-bit bytes decoded, cut to size."""
    if not isinstance(value, str):
        value = str(value)
    value = value[:MAX_HEADER_LENGTH]
    if any("\udc80" <= ch <= "\udcff" for ch in value):
        value = _guess_decode(_to_bytes(value))
    return _FOLD.sub("", value).strip()


def _decode_word(encoding: str, text: str) -> bytes:
    if encoding in "bB":
        return _b64decode(text.encode("ascii", errors="ignore"))
    return _qpdecode(text.encode("ascii", errors="ignore"), header=True)


def decode_header_words(value: str) -> str:
    """Decode RFC 2047 encoded words (``=?utf-8?q?...?=``); never raises.

    Whitespace between adjacent encoded words is dropped, and adjacent words in
    the same charset are joined before decoding, so a character split across
    two words survives.  Folded lines are unfolded; control characters become
    spaces.
    """
    value = _FOLD.sub("", value)
    out: list[str] = []
    pending: list[tuple[str, bytes]] = []  # run of adjacent encoded words

    def flush() -> None:
        if not pending:
            return
        charset, buf = pending[0][0], b""
        for cs, data in pending:
            if cs != charset:
                out.append(decode_text(buf, charset)[0])
                charset, buf = cs, b""
            buf += data
        out.append(decode_text(buf, charset)[0])
        pending.clear()

    pos = 0
    for m in _ENCODED_WORD.finditer(value):
        gap = value[pos : m.start()]
        if gap and not (pending and gap.isspace()):
            flush()
            out.append(gap)
        charset = m.group(1).split("*", 1)[0]  # RFC 2231 language suffix
        pending.append((charset.lower(), _decode_word(m.group(2), m.group(3))))
        pos = m.end()
    flush()
    out.append(value[pos:])
    return _CONTROL.sub(" ", "".join(out)).strip()


def _addresses(values: list[str]) -> list[tuple[str, str]]:
    """(display name, lower-cased address) pairs from address headers."""
    try:
        pairs = getaddresses(values)
    except Exception:
        return []
    result = []
    for name, addr in pairs:
        addr = addr.strip().lower()
        if addr:
            result.append((decode_header_words(name), addr))
    return result


_ADDR_SPEC = r"[^\s<>@,;:\"()\[\]\\]{1,64}@[^\s<>@,;:\"()\[\]\\]{1,255}"
_STRICT_FROM = [
    re.compile(rf"(?P<addr>{_ADDR_SPEC})"),
    re.compile(rf"(?P<name>\"(?:[^\"\\]|\\.)*\"|[^<>@,;:\"\[\]\\]*?)\s*<(?P<addr>{_ADDR_SPEC})>"),
    re.compile(rf"(?P<addr>{_ADDR_SPEC})\s*\((?P<name>[^()\\]*)\)"),
]


def strict_from(values: list[str]) -> tuple[str, str] | None:
    """(display name, lower-cased address) of a From header that names exactly one
    mailbox in plain RFC 5322 form, else None: two From headers, two addresses, an
    address in the display name (``ann@x.test <evil@y.test>``) or anything a
    lenient parser would have to guess at is refused."""
    if len(values) != 1:
        return None
    value = _FOLD.sub("", values[0]).strip()
    for pattern in _STRICT_FROM:
        m = pattern.fullmatch(value)
        if m:
            name = (m.groupdict().get("name") or "").strip()
            if name.startswith('"') and name.endswith('"') and len(name) >= 2:
                name = re.sub(r"\\(.)", r"\1", name[1:-1])
            return decode_header_words(name), m.group("addr").lower()
    return None


_MSGID = re.compile(r"<([^<>\s]{1,998})>")


def _message_ids(value: str | None) -> list[str]:
    if not value:
        return []
    ids = [f"<{m}>" for m in _MSGID.findall(value)]
    if not ids:  # broken clients omit the brackets
        ids = [f"<{tok}>" for tok in value.split() if "@" in tok and len(tok) <= 998]
    return ids


# ---------------------------------------------------------------------------
# MIME structure


def _leaves(msg: Message) -> Iterator[Message]:
    """Leaf parts in document order; message/* parts are leaves (not entered)."""
    stack: list[Message] = [msg]
    seen = 0
    while stack and seen < MAX_PARTS:
        part = stack.pop()
        seen += 1
        payload = _raw_payload(part)
        if part.get_content_maintype() != "message" and isinstance(payload, list):
            stack.extend(reversed([p for p in payload if isinstance(p, Message)]))
        else:
            yield part


def _cte(part: Message) -> str:
    value = part.get("Content-Transfer-Encoding", "")
    return _header_value(value).lower().split(";")[0].strip() if value else ""


def _filename(part: Message) -> str | None:
    try:
        name = part.get_filename()
    except Exception:
        return None
    return decode_header_words(_header_value(name)) if name else None


def _disposition(part: Message) -> str | None:
    try:
        return part.get_content_disposition()
    except Exception:
        return None


def _raw_payload(part: Message) -> object:
    """The payload as the parser stored it: for a leaf, a str in which 8-bit
    bytes are surrogate escapes.  ``get_payload()`` would decode those with the
    declared charset (and ``decode=True`` decodes the transfer encoding, which
    attachments must not pay for), so read the stored value."""
    return getattr(part, "_payload", None)


def _part_text(part: Message, notes: list[str]) -> str:
    payload = _raw_payload(part)
    if not isinstance(payload, str):
        return ""
    if len(payload) > MAX_BODY_ENCODED:
        payload = payload[:MAX_BODY_ENCODED]
        notes.append(f"body longer than {MAX_BODY_ENCODED} bytes; only the start was read")
    data = _transfer_decode(payload, _cte(part))
    try:
        charset = part.get_content_charset()
    except Exception:
        charset = None
    text, note = decode_text(data, charset)
    if note:
        notes.append(note)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if part.get_content_subtype() == "plain":
        try:
            fmt = str(part.get_param("format", "") or "").lower()
            delsp = str(part.get_param("delsp", "") or "").lower() == "yes"
        except Exception:
            fmt, delsp = "", False
        if fmt == "flowed":
            text = unflow(text, delsp)
    return text


def unflow(text: str, delsp: bool = False) -> str:
    """Undo RFC 3676 format=flowed: join soft-broken lines of equal quote depth.

    Quoted lines come out as ``"> " * depth + text`` (``">"`` repeated, one space).
    """
    out: list[str] = []
    para: list[str] = []
    para_depth = -1

    def flush() -> None:
        nonlocal para_depth
        if para_depth >= 0:
            prefix = ">" * para_depth + (" " if para_depth else "")
            out.append(prefix + "".join(para))
        para.clear()
        para_depth = -1

    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        if content.startswith(" "):
            content = content[1:]  # space-stuffing
        soft = content.endswith(" ") and content != "-- "
        if soft and delsp:
            content = content[:-1]
        if para_depth != depth:
            flush()
            para_depth = depth
        para.append(content)
        if not soft:
            flush()
    flush()
    return "\n".join(out)


def parse_message(raw: bytes) -> InboundMail:
    """Parse one raw RFC 5322 message; never raises.

    The body is the first text/plain part that is not an attachment; if there is
    none, the first such text/html part converted by ``html_to_text``
    (``had_html_only`` is then True).  Parts inside attached messages
    (message/rfc822) are not looked into.  Other parts are summarised in
    ``attachments`` without decoding them.
    """
    mail = InboundMail(raw_size=len(raw) if isinstance(raw, bytes | bytearray) else 0)
    depth = mime_depth(bytes(raw), MAX_DEPTH)
    try:
        if depth > MAX_DEPTH:
            raise RecursionError
        msg = message_from_bytes(bytes(raw), policy=compat32)
    except RecursionError:
        mail.unreadable = (f"its MIME parts are nested more than {MAX_DEPTH} levels deep, so "
                           "it was not read")
        head = _headers_only(bytes(raw))
        if head is not None:
            _read_headers(head, mail)
        return mail
    except Exception as exc:  # the stdlib parser is lenient; this is a last resort
        mail.notes.append(f"message could not be parsed: {type(exc).__name__}")
        return mail
    try:
        _read_headers(msg, mail)
    except Exception as exc:
        mail.notes.append(f"headers could not be read: {type(exc).__name__}")
    try:
        _read_body(msg, mail)
    except Exception as exc:
        mail.notes.append(f"body could not be read: {type(exc).__name__}")
    return mail


def _headers_only(raw: bytes) -> Message | None:
    from email.parser import BytesHeaderParser

    try:
        return BytesHeaderParser(policy=compat32).parsebytes(raw)
    except Exception:
        return None


_BOUNDARY = re.compile(rb'boundary\s*=\s*(?:"([^"\r\n]{1,200})"|([^\s;"]{1,200}))', re.I)


def mime_depth(raw: bytes, limit: int = MAX_DEPTH) -> int:
    """How deep the multipart parts of ``raw`` nest, read from its lines without
    parsing: each boundary declared opens a level, a delimiter line of an outer
    boundary closes the levels inside it. Counting stops past ``limit``."""
    opened: list[bytes] = []
    deepest = 0
    for line in raw.split(b"\n"):
        if line.startswith(b"--") and opened:
            text = line.rstrip()
            for index in range(len(opened) - 1, -1, -1):
                if text == b"--" + opened[index] + b"--":  # the end of that multipart
                    del opened[index:]
                    break
                if text == b"--" + opened[index]:  # its next part: the ones inside end
                    del opened[index + 1:]
                    break
            continue
        found = _BOUNDARY.search(line)
        if found:
            opened.append(found.group(1) or found.group(2))
            deepest = max(deepest, len(opened))
            if deepest > limit:
                break
    return deepest


_DELIVERED_TO = ("delivered-to", "x-original-to", "envelope-to", "x-envelope-to")


def _read_headers(msg: Message, mail: InboundMail) -> None:
    mail.headers = [(str(k), _header_value(v)) for k, v in msg.raw_items()]
    ids = _message_ids(mail.header("Message-ID"))
    mail.message_id = ids[0] if ids else None
    sender = strict_from(mail.header_all("From"))
    if sender is not None:
        mail.from_name, mail.from_addr = sender
    elif mail.header_all("From"):
        mail.notes.append("the From header does not name exactly one plain address; "
                          "the sender is unknown")
    mail.to_addrs = [a for _, a in _addresses(mail.header_all("To"))]
    mail.cc_addrs = [a for _, a in _addresses(mail.header_all("Cc"))]
    delivered: list[str] = []
    for key, value in mail.headers:
        if key.lower() in _DELIVERED_TO:
            delivered.extend(a for _, a in _addresses([value]))
    mail.delivered_to = list(dict.fromkeys(delivered))
    mail.subject = decode_header_words(mail.header("Subject") or "")
    mail.date = mail.header("Date")
    in_reply_to = _message_ids(mail.header("In-Reply-To"))
    mail.in_reply_to = in_reply_to[0] if in_reply_to else None
    mail.references = [i for v in mail.header_all("References") for i in _message_ids(v)]
    mail.content_type = msg.get_content_type()


def _read_body(msg: Message, mail: InboundMail) -> None:
    plain: list[Message] = []
    html_parts: list[Message] = []
    for part in _leaves(msg):
        ctype = part.get_content_type()
        disposition = _disposition(part)
        filename = _filename(part)
        attached = disposition == "attachment" or (filename is not None and disposition != "inline")
        if ctype in ("text/plain", "text/html") and not attached:
            (plain if ctype == "text/plain" else html_parts).append(part)
            continue
        mail.attachments.append(
            AttachmentInfo(ctype, filename, _estimated_size(_raw_payload(part), _cte(part)))
        )
    for part in plain:
        text = _part_text(part, mail.notes)
        if text.strip():
            mail.body_text = text
            return
    if html_parts:  # no text/plain part, or only empty ones
        markup = _part_text(html_parts[0], mail.notes)
        if len(markup) > MAX_HTML_CHARS:
            mail.notes.append(f"HTML body longer than {MAX_HTML_CHARS} characters; cut")
        mail.body_text = html_to_text(markup)
        mail.had_html_only = True
