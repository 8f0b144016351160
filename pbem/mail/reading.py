"""Reading inbound mail: MIME decoding, HTML to text, command-line extraction.

Everything here is pure: functions from bytes or strings to data, no network,
clock, database or global state.  Nothing in this module raises on bad input:
a message that cannot be decoded properly is decoded as well as possible and
the problems are listed in ``InboundMail.notes``.

- ``parse_message(raw) -> InboundMail``: the headers the service needs, the body
  as text (the first text/plain part, else the first text/html part converted to
  text) and a summary of the attachments (never decoded).
- ``command_lines(body_text) -> CommandText``: the lines a player typed, with
  quoted replies, attributions, signatures and everything after ``end``
  removed, at most ``MAX_COMMAND_LINES`` of them.
- ``html_to_text(html) -> str``: the HTML converter used for HTML-only mail.

See docs/mail-reading.md for the rules in words.
"""

from __future__ import annotations

import binascii
import codecs
import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message
from email.policy import compat32
from email.utils import getaddresses
from enum import StrEnum

__all__ = [
    "MAX_BODY_ENCODED",
    "MAX_COMMAND_LINES",
    "MAX_HTML_CHARS",
    "MAX_IGNORED_LISTED",
    "MAX_LINE_LENGTH",
    "AttachmentInfo",
    "CommandText",
    "InboundMail",
    "StopReason",
    "command_lines",
    "decode_header_words",
    "decode_text",
    "html_to_text",
    "parse_message",
    "unflow",
]

MAX_COMMAND_LINES = 50
"""At most this many command lines are read from one mail (design, section 4)."""

MAX_LINE_LENGTH = 1000
"""A longer line is not a command; it is listed as ignored."""

MAX_IGNORED_LISTED = 20
"""At most this many ignored lines are listed one by one; the rest are counted."""

MAX_BODY_ENCODED = 2 * 1024 * 1024
"""Only this much of the (transfer-encoded) body part is decoded."""

MAX_PARTS = 500
"""Only this many MIME parts are looked at."""

MAX_HEADER_LENGTH = 64 * 1024
"""Header values are cut to this length before they are parsed."""


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

    ``lines`` holds at most ``MAX_COMMAND_LINES`` stripped, non-blank lines, as
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
                f"Reading stopped {where}: only the first {MAX_COMMAND_LINES} "
                "command lines of a mail are read."
            )
        return "The whole mail was read."


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
    try:
        msg = message_from_bytes(bytes(raw), policy=compat32)
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


_DELIVERED_TO = ("delivered-to", "x-original-to", "envelope-to", "x-envelope-to")


def _read_headers(msg: Message, mail: InboundMail) -> None:
    mail.headers = [(str(k), _header_value(v)) for k, v in msg.raw_items()]
    ids = _message_ids(mail.header("Message-ID"))
    mail.message_id = ids[0] if ids else None
    senders = _addresses(mail.header_all("From")[:1])
    if senders:
        mail.from_name, mail.from_addr = senders[0]
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


# ---------------------------------------------------------------------------
# HTML to text
#
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
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)
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
        data = html.unescape(data).translate(_INVISIBLE).replace("\xa0", " ")
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


# ---------------------------------------------------------------------------
# Command lines

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
    return line.translate(_INVISIBLE).strip()


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


def command_lines(body_text: str) -> CommandText:
    """Extract the command lines a player typed; linear in the body, never raises.

    Line by line: blank lines and lines starting with ``>`` are skipped; reading
    stops at ``end`` (any case), at a signature separator (``-- `` or ``--``) or
    a phone signature ("Sent from my iPhone"), and at the start of a quoted
    earlier mail (an attribution such as "On <date>, <name> wrote:" in several
    languages, Outlook's "-----Original Message-----" or From:/Sent: block, a
    "________" separator).  The first ``MAX_COMMAND_LINES`` remaining lines are
    the commands; later ones, and lines over ``MAX_LINE_LENGTH`` characters, are
    listed in ``ignored`` (the first ``MAX_IGNORED_LISTED``, then a count).
    """
    result = CommandText()
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
        if len(result.lines) < MAX_COMMAND_LINES:
            result.lines.append(line)
            continue
        if not limit_reached:
            stop(StopReason.LINE_LIMIT, i + 1, line)
            limit_reached = True
        if len(result.ignored) >= MAX_IGNORED_LISTED:
            # Enough is listed; looking further would only cost time.
            result.ignored.append(f"... and the remaining {len(lines) - i} lines were not read")
            break
        ignore(line, f"more than {MAX_COMMAND_LINES} command lines")
    if extra_ignored:
        result.ignored.append(f"... and {extra_ignored} more over-long lines  (not listed)")
    return result
