"""Tests for the inbound-mail reading layer: pbem.mail.reading, routing, junk.

Sample messages written by hand after real clients live in tests/mail_samples/;
others are built here with email.message.EmailMessage.
"""

from __future__ import annotations

import base64
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.inbound.html import html_to_text
from pbem.mail.inbound.junk import authentication_failure, classify, parse_authentication_results
from pbem.mail.inbound.mime import (
    InboundMail,
    decode_header_words,
    decode_text,
    parse_message,
    unflow,
)
from pbem.mail.inbound.replies import (
    MAX_COMMAND_LINES,
    MAX_IGNORED_LISTED,
    StopReason,
    command_lines,
)
from pbem.mail.inbound.routing import (
    find_plus_address,
    key_line,
    plus_address_tag,
    referenced_ids,
    split_key_line,
    subject_key,
    subject_tag,
)

SAMPLES = Path(__file__).parent / "mail_samples"
TRUSTED = "mx.pbem.example.org"


def sample(name: str) -> InboundMail:
    return parse_message((SAMPLES / name).read_bytes())


def commands(mail: InboundMail) -> list[str]:
    return command_lines(mail.body_text).lines


def text_mail(body: str | bytes, **headers: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = headers.pop("From", "Alice <alice@example.com>")
    msg["To"] = headers.pop("To", "pbem+12.k7q2x9@pbem.example.org")
    msg["Subject"] = headers.pop("Subject", "Re: [1830 #12] your turn")
    msg["Message-ID"] = headers.pop("Message_ID", "<m1@example.com>")
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    if isinstance(body, bytes):
        msg.set_content(body, maintype="text", subtype="plain")
    else:
        msg.set_content(body)
    return msg


# ---------------------------------------------------------------------------
# Samples from real clients


def test_plain_mail() -> None:
    mail = sample("plain.eml")
    assert mail.from_addr == "alice@example.com"
    assert mail.from_name == "Alice Example"
    assert mail.message_id == "<plain-1@example.com>"
    assert mail.delivered_to == ["pbem+12.k7q2x9@pbem.example.org"]
    assert mail.to_addrs == ["pbem+12.k7q2x9@pbem.example.org"]
    assert mail.subject == "Re: [1830 #12] Stock round 1: your turn"
    assert mail.content_type == "text/plain"
    assert not mail.had_html_only
    assert mail.attachments == []
    assert mail.header("return-path") == "<alice@example.com>"
    assert mail.header_all("Received")[0].startswith("from mail.example.com")
    assert "\n" not in mail.header_all("Received")[0]  # unfolded
    text = command_lines(mail.body_text)
    assert text.lines == ["par PRR 82", "buy NYC ; pass", "say good luck everyone"]
    assert text.stopped_at is StopReason.SIGNATURE
    assert text.stop_line == 6
    assert "signature" in text.stop_description


def test_crlf_line_endings_read_the_same() -> None:
    raw = (SAMPLES / "plain.eml").read_bytes()
    crlf = parse_message(raw.replace(b"\n", b"\r\n"))
    assert commands(crlf) == commands(parse_message(raw))
    assert crlf.subject == "Re: [1830 #12] Stock round 1: your turn"


def test_gmail_reply() -> None:
    mail = sample("gmail_reply.eml")
    assert mail.subject == "Re: [1830 #12] Stock round 1: your turn \u2013 Alice"
    assert mail.from_addr == "alice.example@gmail.com"
    assert mail.in_reply_to == "<turn-12-7@pbem.example.org>"
    assert mail.references == ["<root-12@pbem.example.org>", "<turn-12-7@pbem.example.org>"]
    assert not mail.had_html_only  # the text/plain alternative is used
    text = command_lines(mail.body_text)
    assert text.lines == [
        "buy PRR; par NYC 67",
        "say \u00e7a va? Z\u00fcge kaufen wir sp\u00e4ter, this line is long enough to be "
        "soft-wrapped",
    ]
    # Gmail wraps a long attribution over two lines.
    assert text.stopped_at is StopReason.QUOTED_REPLY
    assert text.stop_text.startswith("On Mon, Jan 8, 2024")


def test_gmail_reply_with_crlf() -> None:
    raw = (SAMPLES / "gmail_reply.eml").read_bytes().replace(b"\n", b"\r\n")
    mail = parse_message(raw)
    assert commands(mail) == commands(sample("gmail_reply.eml"))
    assert "\r" not in mail.body_text


def test_gmail_html_alternative_alone() -> None:
    raw = (SAMPLES / "gmail_reply.eml").read_bytes()
    html_part = raw[raw.index(b"Content-Type: text/html") :]
    mail = parse_message(b"From: alice@example.com\n" + html_part)
    assert mail.had_html_only
    text = command_lines(mail.body_text)
    assert text.lines == ["buy PRR; par NYC 67", "say \u00e7a va?"]
    assert text.stopped_at is StopReason.QUOTED_REPLY


def test_outlook_original_message_windows_1252() -> None:
    mail = sample("outlook_original_message.eml")
    text = command_lines(mail.body_text)
    assert text.lines == [
        "lay 57 H12 SW-NE",
        "token H12",
        "run",
        "payout",
        "say Thanks \u2013 that\u2019s all for PRR this time",
        "Bob",
    ]
    assert text.stopped_at is StopReason.QUOTED_REPLY
    assert text.stop_text == "-----Original Message-----"


def test_outlook_underscore_separator() -> None:
    text = command_lines(sample("outlook_separator.eml").body_text)
    assert text.lines == ["buy train"]
    assert text.stopped_at is StopReason.QUOTED_REPLY


def test_outlook_german_header_block() -> None:
    mail = sample("outlook_reply_de.eml")
    assert mail.from_name == "Bernd M\u00fcller"
    assert mail.from_addr == "bernd.mueller@firma.example.de"
    assert subject_tag(mail.subject) == 3
    text = command_lines(mail.body_text)
    assert text.lines == ["kaufe nichts, also:", "pass", "Gr\u00fc\u00dfe", "Bernd"]
    assert text.stop_text.startswith("Von: pbem")


def test_apple_mail_reply_with_phone_signature() -> None:
    mail = sample("apple_mail_reply.eml")
    text = command_lines(mail.body_text)
    assert text.lines == ["bid GRSC 25"]
    assert text.stopped_at is StopReason.SIGNATURE
    assert text.stop_text == "Sent from my iPhone"


def test_apple_mail_unquoted_original() -> None:
    text = command_lines(sample("apple_mail_bottom_quote.eml").body_text)
    assert text.lines == ["pass"]
    assert text.stopped_at is StopReason.QUOTED_REPLY


def test_thunderbird_english_format_flowed() -> None:
    mail = sample("thunderbird_reply_en.eml")
    text = command_lines(mail.body_text)
    assert text.lines == [
        "sell 2 PRR, 1 NYC",
        "say I am selling because the B&O is going to run away with this game unless "
        "somebody does something about it soon.",
        "From now on I play defence.",  # space-stuffed in the message
    ]
    assert text.stop_text == "On 09/01/2024 11:58, pbem wrote:"


def test_thunderbird_german_iso_8859_15_8bit() -> None:
    mail = sample("thunderbird_reply_de.eml")
    text = command_lines(mail.body_text)
    assert text.lines == [
        "lay 7 F10 W-NE",
        "run",
        "payout",
        "say Kostet nur 100 \u20ac, sch\u00f6ne Gr\u00fc\u00dfe",
    ]
    assert text.stopped_at is StopReason.QUOTED_REPLY
    assert text.stop_text == "Am 09.01.24 um 12:30 schrieb pbem:"


def test_html_only_mail() -> None:
    mail = sample("html_only.eml")
    assert mail.had_html_only
    assert mail.subject == "Re: [1830 #12] d\u00e9j\u00e0"
    assert "pass" not in mail.body_text.split("\n")[0]  # script dropped
    assert "color" not in mail.body_text and "buy NYC\n" not in mail.body_text
    text = command_lines(mail.body_text)
    assert text.lines == [
        "par B&O 100",
        "buy PRR",
        "buy NYC pool",
        "say caf\u00e9 \u00e9t\u00e9 \u20ac5 <ok>",
        "run 3: H12-I15",
        "2: E19-F20",
    ]
    assert text.stopped_at is StopReason.QUOTED_REPLY
    assert text.stop_text == "Eve wrote:"


# ---------------------------------------------------------------------------
# Other reply attributions


@pytest.mark.parametrize(
    "attribution",
    [
        "On Mon, Jan 8, 2024 at 9:15 AM pbem <pbem@pbem.example.org> wrote:",
        "On 08.01.2024 09:15, pbem wrote:",
        "Am 08.01.2024 um 09:15 schrieb pbem <pbem@pbem.example.org>:",
        "Am Mo., 8. Jan. 2024 um 09:15 Uhr schrieb pbem <pbem@pbem.example.org>:",
        "Le lun. 8 janv. 2024 \u00e0 09:15, pbem <pbem@pbem.example.org> a \u00e9crit :",
        "El lun, 8 ene 2024 a las 9:15, pbem (<pbem@pbem.example.org>) escribi\u00f3:",
        "Op ma 8 jan. 2024 om 09:15 schreef pbem <pbem@pbem.example.org>:",
        "Il giorno lun 8 gen 2024 alle ore 09:15 pbem <pbem@pbem.example.org> ha scritto:",
        "Em seg., 8 de jan. de 2024 \u00e0s 09:15, pbem <pbem@pbem.example.org> escreveu:",
        "Den 8 jan. 2024 kl. 09:15 skrev pbem <pbem@pbem.example.org>:",
        "W dniu 8.01.2024 o 09:15, pbem pisze:",
        "W dniu pon., 8 sty 2024 o 09:15 pbem <pbem@pbem.example.org> napisał(a):",
        "-----Original Message-----",
        "----- Original Message -----",
        "-----Urspr\u00fcngliche Nachricht-----",
        "-----Message d'origine-----",
        "---------- Forwarded message ---------",
        "Begin forwarded message:",
        "________________",
        "From: pbem Sent: Monday, January 8, 2024 9:15 AM To: Alice",
    ],
)
def test_attributions_stop_reading(attribution: str) -> None:
    body = f"buy PRR\n\n{attribution}\nsell 5 NYC\n> quoted\n"
    text = command_lines(body)
    assert text.lines == ["buy PRR"]
    assert text.stopped_at is StopReason.QUOTED_REPLY
    assert text.stop_line == 3


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("On Mon, Jan 8, 2024 at 9:15 AM Some Very Long Name <", "pbem@pbem.example.org> wrote:"),
        ("Am Mo., 8. Jan. 2024 um 09:15 Uhr schrieb pbem", "<pbem@pbem.example.org>:"),
    ],
)
def test_wrapped_two_line_attribution(first: str, second: str) -> None:
    text = command_lines(f"pass\n{first}\n{second}\n\n> old\n")
    assert text.lines == ["pass"]
    assert text.stop_line == 2


@pytest.mark.parametrize(
    "block",
    [
        "From: pbem <pbem@pbem.example.org>\nSent: Monday\nTo: Alice",
        "*From:* pbem <pbem@pbem.example.org>\n*Sent:* Monday",
        "Von: pbem <pbem@pbem.example.org>\nGesendet: Montag",
        "De : pbem <pbem@pbem.example.org>\nEnvoy\u00e9 : lundi",
        "Van: pbem\nVerzonden: maandag",
        "Da: pbem\nInviato: luned\u00ec",
        "De: pbem\nEnviado: lunes",
    ],
)
def test_outlook_header_blocks(block: str) -> None:
    text = command_lines(f"buy PRR\n\n{block}\n\nsell 5 NYC\n")
    assert text.lines == ["buy PRR"]
    assert text.stopped_at is StopReason.QUOTED_REPLY


def test_short_attribution_needs_quoted_lines_after_it() -> None:
    # "<name> wrote:" without a date only counts when quoted text follows.
    assert command_lines("pass\nAlice wrote:\n\n> buy\n").lines == ["pass"]
    assert command_lines("say Alice wrote:\npass\n").lines == ["say Alice wrote:", "pass"]


def test_quoted_lines_are_skipped_and_counted() -> None:
    text = command_lines("> old\nbuy PRR\n>> older\n> \npass\n")
    assert text.lines == ["buy PRR", "pass"]
    assert text.quoted_lines == 3
    assert text.stopped_at is StopReason.END_OF_TEXT
    assert text.stop_description == "The whole mail was read."


# ---------------------------------------------------------------------------
# end, signatures, limits


@pytest.mark.parametrize("end", ["end", "END", "  End  "])
def test_end_line_stops_reading(end: str) -> None:
    text = command_lines(f"buy PRR\n{end}\npass\n")
    assert text.lines == ["buy PRR"]
    assert text.stopped_at is StopReason.END_LINE
    assert text.stop_line == 2


def test_end_must_be_alone_on_its_line() -> None:
    assert command_lines("buy PRR\nend of my turn\n").lines == ["buy PRR", "end of my turn"]


@pytest.mark.parametrize("separator", ["-- ", "--"])
def test_signature_separator(separator: str) -> None:
    text = command_lines(f"pass\n{separator}\nAlice\nbuy PRR\n")
    assert text.lines == ["pass"]
    assert text.stopped_at is StopReason.SIGNATURE


@pytest.mark.parametrize(
    "footer",
    [
        "Sent from my iPhone",
        "Sent from my Galaxy",
        "Von meinem iPhone gesendet",
        "Get Outlook for iOS",
        "Envoy\u00e9 de mon iPad",
        "Sent from Mail for Windows",
    ],
)
def test_phone_footers_stop_reading(footer: str) -> None:
    text = command_lines(f"pass\n\n{footer}\n\nbuy PRR\n")
    assert text.lines == ["pass"]
    assert text.stopped_at is StopReason.SIGNATURE


def test_other_dashes_are_not_signatures() -> None:
    assert command_lines("pass\n---\n-- x\n").lines == ["pass", "---", "-- x"]


def test_blank_lines_and_whitespace() -> None:
    body = "\n\n  \t buy PRR \t \n\u00a0\n\u200bpass\u200b\r\n\r\n"
    assert command_lines(body).lines == ["buy PRR", "pass"]


def test_semicolons_are_kept_for_the_command_parser() -> None:
    assert command_lines("buy PRR; buy PRR;pass").lines == ["buy PRR; buy PRR;pass"]


def test_exactly_the_limit() -> None:
    body = "\n".join(f"say {i}" for i in range(MAX_COMMAND_LINES))
    text = command_lines(body)
    assert len(text.lines) == MAX_COMMAND_LINES
    assert text.ignored == []
    assert text.stopped_at is StopReason.END_OF_TEXT


def test_fifty_line_limit() -> None:
    body = "\n".join(f"say {i}" for i in range(60)) + "\nend\nsay after end\n"
    text = command_lines(body)
    assert text.lines == [f"say {i}" for i in range(50)]
    assert text.stopped_at is StopReason.LINE_LIMIT
    assert text.stop_line == 51
    assert text.stop_text == "say 50"
    assert len(text.ignored) == 10
    assert text.ignored[0] == f"say 50  (more than {MAX_COMMAND_LINES} command lines)"
    assert all("after end" not in line for line in text.ignored)
    assert "first 50 command lines" in text.stop_description


def test_ten_thousand_lines() -> None:
    body = "\n".join(f"buy {i} PRR" for i in range(10_000))
    text = command_lines(body)
    assert len(text.lines) == MAX_COMMAND_LINES
    assert len(text.ignored) == MAX_IGNORED_LISTED + 1
    assert text.ignored[-1] == (
        f"... and the remaining {10_000 - 50 - MAX_IGNORED_LISTED} lines were not read"
    )
    mail = parse_message(text_mail(body + "\n").as_bytes())
    assert command_lines(mail.body_text).lines == text.lines


def test_ten_thousand_quoted_lines_and_blank_lines() -> None:
    body = "pass\n" + "> quoted\n\n" * 10_000 + "end\n"
    text = command_lines(body)
    assert text.lines == ["pass"]
    assert text.quoted_lines == 10_000
    assert text.stopped_at is StopReason.END_LINE


def test_very_long_line_is_ignored() -> None:
    text = command_lines("say " + "x" * 5000 + "\npass")
    assert text.lines == ["pass"]
    assert "longer than" in text.ignored[0]


# ---------------------------------------------------------------------------
# Charsets and transfer encodings


@pytest.mark.parametrize(
    ("charset", "cte", "words"),
    [
        ("koi8-r", "base64", "say \u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440"),
        ("koi8-r", "quoted-printable", "say \u0445\u043e\u0434"),
        ("shift_jis", "base64", "say \u3053\u3093\u306b\u3061\u306f"),
        ("shift_jis", "quoted-printable", "say \u65e5\u672c\u8a9e"),
        ("iso-8859-15", "quoted-printable", "say 5 \u20ac, \u0153uvre"),
        ("iso-8859-15", "8bit", "say \u00e0 bient\u00f4t \u20ac"),
        ("windows-1252", "quoted-printable", "say \u201cquoted\u201d \u2013 ok"),
        ("windows-1252", "base64", "say na\u00efve \u2026"),
        ("utf-8", "base64", "say \u00fc\u00f1\u00ee\u00e7\u00f8d\u00e9 \U0001f682"),
        ("utf-8", "8bit", "say Zug f\u00e4hrt"),
        ("iso-8859-1", "quoted-printable", "say Gr\u00fc\u00dfe"),
    ],
)
def test_charsets_and_transfer_encodings(charset: str, cte: str, words: str) -> None:
    msg = text_mail("x")
    msg.set_content(f"buy PRR\n{words}\n", charset=charset, cte=cte)
    assert msg["Content-Transfer-Encoding"] == cte
    mail = parse_message(msg.as_bytes())
    assert commands(mail) == ["buy PRR", words]
    assert mail.notes == []


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_body(codec: str) -> None:
    msg = text_mail("x")
    data = "buy PRR\nsay \u00e9t\u00e9\n".encode(codec)
    msg.set_content(data, maintype="text", subtype="plain", cte="base64")
    msg.set_param("charset", codec)
    assert commands(parse_message(msg.as_bytes())) == ["buy PRR", "say \u00e9t\u00e9"]


def test_utf16_without_bom_is_guessed() -> None:
    data = "pass\n".encode("utf-16-le")
    assert decode_text(data, "utf-16")[0] == "pass\n"
    assert decode_text("pass\n".encode("utf-16-be"), "UTF-16")[0] == "pass\n"


def test_unknown_charset_is_decoded_by_guess() -> None:
    raw = (
        b"From: a@example.com\nContent-Type: text/plain; charset=x-klingon\n"
        b"Content-Transfer-Encoding: 8bit\n\nbuy PRR\nsay caf\xc3\xa9\nsay \xe9t\xe9\n"
    )
    mail = parse_message(raw)
    assert mail.body_text.splitlines()[:2] == ["buy PRR", "say caf\u00c3\u00a9"]
    assert "x-klingon" in mail.notes[0]
    text, note = decode_text(b"caf\xc3\xa9", "x-klingon")
    assert text == "caf\u00e9" and note is not None
    assert decode_text(b"\x81\x8d\xff", "bogus")[0] == "\ufffd\ufffd\u00ff"


@pytest.mark.parametrize(
    "charset", ["idna", "base64", "zlib", "rot13", "unicode_escape", "undefined", "x" * 100, ""]
)
def test_codec_names_that_are_not_charsets(charset: str) -> None:
    text, _ = decode_text(b"pass \\u0041", charset)
    assert text == "pass \\u0041"


def test_us_ascii_declared_with_utf8_content() -> None:
    raw = b"From: a@example.com\nContent-Type: text/plain; charset=us-ascii\n\nsay \xc3\xbc\n"
    assert parse_message(raw).body_text == "say \u00fc\n"


def test_no_content_type_at_all() -> None:
    mail = parse_message(b"From: Bob <BOB@Example.org>\nSubject: hi\n\npass\n")
    assert mail.from_addr == "bob@example.org"
    assert mail.message_id is None
    assert commands(mail) == ["pass"]


def test_broken_base64_does_not_crash() -> None:
    raw = (
        b"From: a@example.com\nContent-Type: text/plain; charset=utf-8\n"
        b"Content-Transfer-Encoding: base64\n\n" + base64.b64encode(b"buy PRR\npass\n")[:-3] + b"!*"
    )
    assert commands(parse_message(raw))[0] == "buy PRR"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("=?koi8-r?B?8NLJ18XU?=", "\u041f\u0440\u0438\u0432\u0435\u0442"),
        ("=?iso-8859-15?Q?5_=A4?=", "5 \u20ac"),
        ("=?ISO-2022-JP?B?GyRCRnxLXDhsGyhC?=", "\u65e5\u672c\u8a9e"),
        ("=?shift_jis?B?k/qWe4zq?=", "\u65e5\u672c\u8a9e"),
        ("Re: =?utf-8?q?caf=C3=A9?= =?utf-8?q?_ok?=", "Re: caf\u00e9 ok"),
        # one UTF-8 character split over two encoded words
        ("=?utf-8?B?w6k=?= =?utf-8?Q?=C3?= =?utf-8?Q?=A9?=", "\u00e9\u00e9"),
        ("=?x-unknown?Q?abc?=", "abc"),
        ("=?utf-8*en?Q?lang?=", "lang"),
        ("plain =?broken", "plain =?broken"),
        ("a\r\n b\x00c", "a b c"),
    ],
)
def test_rfc2047_headers(header: str, expected: str) -> None:
    assert decode_header_words(header) == expected


def test_raw_utf8_header() -> None:
    raw = "From: J\u00fcrgen <j@example.de>\nSubject: Re: [1830 #5] Z\u00fcge\n\npass\n"
    mail = parse_message(raw.encode("utf-8"))
    assert mail.subject == "Re: [1830 #5] Z\u00fcge"
    assert mail.from_name == "J\u00fcrgen"


def test_format_flowed_with_delsp() -> None:
    assert unflow("say one \ntwo\n> quo \n> ted\n", delsp=True) == "say onetwo\n> quoted\n"
    assert unflow("sig\n-- \nAlice\n") == "sig\n-- \nAlice\n"


# ---------------------------------------------------------------------------
# Structure and attachments


def test_ten_megabyte_attachment() -> None:
    msg = text_mail("buy PRR\npass\n")
    blob = bytes(range(256)) * (10 * 4096)
    msg.add_attachment(blob, maintype="application", subtype="octet-stream", filename="map.bin")
    mail = parse_message(msg.as_bytes())
    assert commands(mail) == ["buy PRR", "pass"]
    assert mail.attachment_count == 1
    info = mail.attachments[0]
    assert info.filename == "map.bin"
    assert info.content_type == "application/octet-stream"
    assert abs(info.size - len(blob)) <= 3
    assert mail.attachment_bytes == info.size
    assert mail.raw_size > len(blob)


def test_text_attachment_is_not_the_body() -> None:
    msg = text_mail("pass\n")
    msg.add_attachment("buy PRR\n", filename="commands.txt")
    msg.add_attachment(b"\x89PNG....", maintype="image", subtype="png", filename="m\u00e4p.png")
    mail = parse_message(msg.as_bytes())
    assert commands(mail) == ["pass"]
    assert [a.filename for a in mail.attachments] == ["commands.txt", "m\u00e4p.png"]


def test_attached_message_is_not_entered() -> None:
    inner = text_mail("buy PRR\n")
    outer = EmailMessage()
    outer["From"] = "alice@example.com"
    outer["Subject"] = "Fwd: look"
    outer.set_content("pass\n")
    outer.add_attachment(inner)
    mail = parse_message(outer.as_bytes())
    assert commands(mail) == ["pass"]
    assert [a.content_type for a in mail.attachments] == ["message/rfc822"]


def test_only_an_attached_message_gives_no_body() -> None:
    outer = EmailMessage()
    outer["From"] = "alice@example.com"
    outer.set_content(text_mail("buy PRR\n"))
    mail = parse_message(outer.as_bytes())
    assert mail.body_text == ""


def test_empty_plain_alternative_falls_back_to_html() -> None:
    msg = text_mail(" \n")
    msg.add_alternative("<p>pass</p>", subtype="html")
    mail = parse_message(msg.as_bytes())
    assert mail.had_html_only
    assert commands(mail) == ["pass"]


def test_glued_base64_blocks() -> None:
    data = base64.b64encode(b"buy PRR\n") + b"\n" + base64.b64encode(b"pass\n")
    raw = b"Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n" + data
    assert commands(parse_message(raw)) == ["buy PRR", "pass"]


def test_first_text_part_with_text_is_the_body() -> None:
    msg = EmailMessage()
    msg["From"] = "alice@example.com"
    msg.make_mixed()
    for text in ("\n", "pass\n", "buy PRR\n"):
        part = EmailMessage()
        part.set_content(text)
        msg.attach(part)
    assert commands(parse_message(msg.as_bytes())) == ["pass"]


def test_recipients_and_delivered_to() -> None:
    raw = (
        b"Delivered-To: pbem+7.abc@pbem.example.org\nX-Original-To: PBEM+7.ABC@pbem.example.org\n"
        b"From: a@example.com\nTo: Someone <someone@example.com>, other@example.com\n"
        b"Cc: =?utf-8?q?P=C3=A9?= <pbem+7.abc@pbem.example.org>\n\npass\n"
    )
    mail = parse_message(raw)
    assert mail.delivered_to == ["pbem+7.abc@pbem.example.org"]
    assert mail.to_addrs == ["someone@example.com", "other@example.com"]
    assert mail.recipients == [
        "pbem+7.abc@pbem.example.org",
        "someone@example.com",
        "other@example.com",
    ]


# ---------------------------------------------------------------------------
# HTML to text


def test_html_converter_basics() -> None:
    markup = (
        "<html><head><title>t</title><style>.x{}</style></head><body>"
        "<h1>Title</h1><p>one<br>two<br/>three</p>"
        "<ol><li>first</li><li>second</li></ol>"
        "<table><tr><td>a</td><td>b</td></tr></table>"
        "<p>A&amp;B &lt;&gt; &quot;q&quot; &#x263A; &euro;</p>"
        "<script>alert(1)</script><pre>  keep   spaces\n  here</pre>"
        "<blockquote>quoted<blockquote>twice</blockquote></blockquote>after"
        "</body></html>"
    )
    lines = html_to_text(markup).split("\n")
    assert lines == [
        "Title",
        "",
        "one",
        "two",
        "three",
        "",
        "first",
        "second",
        "",
        "a b",
        "",
        'A&B <> "q" \u263a \u20ac',
        "",
        "  keep   spaces",
        "  here",
        "",
        "> quoted",
        "> > twice",
        "after",
    ]


def test_outlook_html_reply() -> None:
    markup = (
        '<html><head><style>p.MsoNormal{margin:0cm}</style></head><body lang="EN-GB">'
        '<div class="WordSection1"><p class="MsoNormal">buy train 3 pool<o:p></o:p></p>'
        '<p class="MsoNormal"><o:p>&nbsp;</o:p></p></div>'
        '<hr style="display:inline-block;width:98%" tabindex="-1">'
        '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri" style="font-size:11pt">'
        "<b>From:</b> pbem &lt;pbem+12.m3n4p5@pbem.example.org&gt;<br>"
        "<b>Sent:</b> Monday, January 8, 2024 10:03<br><b>To:</b> Bob<br>"
        "<b>Subject:</b> [1830 #12] your turn</font><div>&nbsp;</div></div>"
        "<div>PRR must buy a train.</div></body></html>"
    )
    text = command_lines(html_to_text(markup))
    assert text.lines == ["buy train 3 pool"]
    assert text.stop_text == "From: pbem <pbem+12.m3n4p5@pbem.example.org>"


def test_html_converter_survives_bad_markup() -> None:
    assert "pass" in html_to_text("<![if !supportLists]>pass<![endif]>")
    assert html_to_text("<![foo[pass") == ""  # unclosed declaration: dropped, as browsers do
    assert html_to_text("pass <a href='x") == "pass"
    assert html_to_text("bid < 5 and <5") == "bid < 5 and <5"
    assert html_to_text("</ x>pass<p/>on") == "pass\n\non"
    assert html_to_text("<title>t</title><textarea>a<b>c</textarea>") == "a<b>c"


@pytest.mark.parametrize(
    "markup", ["<a " * 100_000, "<" * 300_000, "<!--" * 100_000, "<script>" * 50_000, "&#" * 99_999]
)
def test_html_converter_on_hostile_markup(markup: str) -> None:
    # html.parser.HTMLParser needs minutes for the first of these; ours is linear.
    assert isinstance(html_to_text(markup), str)
    assert html_to_text("<head><div>pass</div>") == "pass"
    assert html_to_text("</blockquote></pre>pass<br").startswith("pass")


# ---------------------------------------------------------------------------
# Junk and loops


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("bounce_mailer_daemon.eml", "auto-submitted"),
        ("out_of_office.eml", "autoreply"),
        ("out_of_office_de.eml", "out-of-office"),
        ("robot_auto_replied.eml", "auto-submitted"),
        ("own_mail.eml", "own-mail"),
    ],
)
def test_junk_samples_are_ignored(name: str, rule: str) -> None:
    verdict = classify(sample(name))
    assert verdict.ignored
    assert verdict.action == "ignore"
    assert verdict.rule == rule
    assert verdict.reason


@pytest.mark.parametrize(
    "name",
    [
        "plain.eml",
        "gmail_reply.eml",
        "outlook_original_message.eml",
        "outlook_reply_de.eml",
        "apple_mail_reply.eml",
        "thunderbird_reply_en.eml",
        "thunderbird_reply_de.eml",
        "html_only.eml",
    ],
)
def test_player_samples_are_processed(name: str) -> None:
    verdict = classify(sample(name))
    assert verdict.action == "process"
    assert not verdict.ignored


def test_bounce_is_ignored_by_every_rule_alone() -> None:
    raw = (SAMPLES / "bounce_mailer_daemon.eml").read_bytes()
    bounce = parse_message(raw.replace(b"Auto-Submitted: auto-replied\n", b""))
    assert classify(bounce).rule == "null-sender"
    no_null = raw.replace(b"Auto-Submitted: auto-replied\n", b"").replace(b"Return-Path: <>\n", b"")
    assert classify(parse_message(no_null)).rule == "mailer-daemon"
    report_only = no_null.replace(b"MAILER-DAEMON@mx.example.com", b"alice@example.com")
    assert classify(parse_message(report_only)).rule == "report"
    mail = parse_message(raw)
    assert commands(mail)[0].startswith("This is the mail system")  # read, but ignored


@pytest.mark.parametrize(
    ("header", "value", "rule"),
    [
        ("Auto-Submitted", "auto-generated", "auto-submitted"),
        ("Auto-Submitted", "auto-replied; owner-email=x@example.com", "auto-submitted"),
        ("Auto-Submitted", "auto-notified", "auto-submitted"),
        ("Precedence", "bulk", "precedence"),
        ("Precedence", "Junk", "precedence"),
        ("Precedence", "list", "precedence"),
        ("Precedence", "auto_reply", "precedence"),
        ("List-Id", "<games.lists.example.org>", "list"),
        ("List-Unsubscribe", "<mailto:leave@lists.example.org>", "list"),
        ("List-Post", "NO", "list"),
        ("Return-Path", "<>", "null-sender"),
        ("Return-Path", "< >", "null-sender"),
        ("From", "postmaster@example.com", "mailer-daemon"),
        ("From", "Mail Delivery Subsystem <MAILER-DAEMON@googlemail.com>", "mailer-daemon"),
        ("X-Autoreply", "yes", "autoreply"),
        ("X-Autorespond", "Out of office", "autoreply"),
        ("X-Auto-Response-Suppress", "All", "autoreply"),
        ("X-PBEM-Game", "12", "own-mail"),
        ("Subject", "Automatic reply: [1830 #12] your turn", "out-of-office"),
        ("Subject", "Out of Office: [1830 #12] your turn", "out-of-office"),
        ("Subject", "Out of office", "out-of-office"),
        ("Subject", "Abwesenheitsnotiz: Re: [1870 #3]", "out-of-office"),
        ("Subject", "Automatische Antwort: [1870 #3] Aktienrunde", "out-of-office"),
        ("Subject", "R\u00e9ponse automatique : [1830 #12]", "out-of-office"),
        ("Subject", "AUTO: Alice is out of the office (returning 20/01/2024)", "out-of-office"),
    ],
)
def test_junk_rules(header: str, value: str, rule: str) -> None:
    msg = text_mail("pass\n")
    del msg[header]
    msg[header] = value
    verdict = classify(parse_message(msg.as_bytes()))
    assert (verdict.action, verdict.rule) == ("ignore", rule)


@pytest.mark.parametrize(
    ("header", "value"),
    [
        ("Auto-Submitted", "no"),
        ("Auto-Submitted", "No (a person wrote this)"),
        ("Precedence", "first-class"),
        ("Return-Path", "<alice@example.com>"),
        ("Subject", "Re: [1830 #12] I am out of office next week, sorry"),
        ("Subject", "Re: [1830 #12] automatic replies are annoying"),
        ("X-Mailer", "Apple Mail"),
    ],
)
def test_not_junk(header: str, value: str) -> None:
    msg = text_mail("pass\n")
    del msg[header]
    msg[header] = value
    assert classify(parse_message(msg.as_bytes())).action == "process"


# ---------------------------------------------------------------------------
# Authentication-Results


def test_dkim_fail_from_trusted_server() -> None:
    mail = sample("auth_dkim_fail.eml")
    reason = authentication_failure(mail, TRUSTED)
    assert reason is not None and "dkim=fail" in reason and TRUSTED in reason
    assert authentication_failure(mail, "MX.PBEM.Example.org") is not None


def test_results_from_untrusted_server_do_not_count() -> None:
    mail = sample("auth_dkim_fail.eml")
    assert authentication_failure(mail, "mx.attacker.example") is None
    assert authentication_failure(mail, "other.example") is None
    assert authentication_failure(mail, "") is None


def auth_mail(*results: str) -> InboundMail:
    msg = text_mail("pass\n")
    for value in results:
        msg["Authentication-Results"] = value
    return parse_message(msg.as_bytes())


@pytest.mark.parametrize(
    ("value", "failed"),
    [
        (f"{TRUSTED}; dkim=pass header.d=example.com; dmarc=pass", None),
        (f"{TRUSTED}; none", None),
        (f"{TRUSTED}; dkim=none; spf=fail smtp.mailfrom=example.com", None),
        (f"{TRUSTED}; dkim=neutral; dkim=permerror; dmarc=temperror", None),
        (f"{TRUSTED}; dmarc=fail (p=reject dis=none) header.from=example.com", "dmarc"),
        (f'{TRUSTED} 1; dkim=fail reason="bad; sig" header.d=example.com', "dkim"),
        (f"{TRUSTED}; dkim/1=fail header.d=example.com", "dkim"),
        (f"{TRUSTED}; spf=pass (comment: dkim=fail; dmarc=fail) smtp.mailfrom=x", None),
        (f"(c) {TRUSTED}; dkim=pass", None),
        (f"{TRUSTED}; DKIM=FAIL", "dkim"),
        ("evil.example; dkim=fail; dmarc=fail", None),
        (f"{TRUSTED}.evil.example; dmarc=fail", None),
    ],
)
def test_authentication_results(value: str, failed: str | None) -> None:
    reason = authentication_failure(auth_mail(value), TRUSTED)
    if failed is None:
        assert reason is None
    else:
        assert reason is not None and f"{failed}=fail" in reason


def test_one_failing_trusted_header_among_several() -> None:
    mail = auth_mail(f"{TRUSTED}; dkim=pass", "evil.example; dkim=pass", f"{TRUSTED}; dmarc=fail")
    assert authentication_failure(mail, TRUSTED) is not None


def test_parse_authentication_results() -> None:
    assert parse_authentication_results(
        'mx.example.org 1; dkim=pass (good) header.i=@a.example; spf=neutral; x="a;b"'
    ) == ("mx.example.org", [("dkim", "pass"), ("spf", "neutral")])


# ---------------------------------------------------------------------------
# Routing


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("pbem+12.k7q2x9@pbem.example.org", (12, "k7q2x9")),
        ("PBEM+12.K7Q2X9@PBEM.EXAMPLE.ORG", (12, "k7q2x9")),
        ("pbem moderator <pbem+3.zz9-plural_z@pbem.example.org>", (3, "zz9-plural_z")),
        ('"pbem" <pbem+0012.key@pbem.example.org>', (12, "key")),
        ("pbem+12@pbem.example.org", None),
        ("pbem+12.@pbem.example.org", None),
        ("pbem+abc.key@pbem.example.org", None),
        ("pbem+12.ke.y@pbem.example.org", None),
        ("other+12.key@pbem.example.org", None),
        ("xpbem+12.key@pbem.example.org", None),
        ("pbem+12.key", None),
        ("", None),
        ("pbem+" + "9" * 5000 + ".key@h", None),
    ],
)
def test_plus_address_tag(address: str, expected: tuple[int, str] | None) -> None:
    assert plus_address_tag(address) == expected


def test_plus_address_local_and_domain() -> None:
    assert plus_address_tag("Games+5.ab@host.example", local="games") == (5, "ab")
    assert plus_address_tag("pbem+5.ab@host.example", domain="HOST.example") == (5, "ab")
    assert plus_address_tag("pbem+5.ab@evil.example", domain="host.example") is None


def test_find_plus_address_in_samples() -> None:
    assert find_plus_address(sample("gmail_reply.eml")) == (12, "k7q2x9")
    assert find_plus_address(sample("thunderbird_reply_en.eml")) == (12, "d4v3k3y")
    assert find_plus_address(sample("bounce_mailer_daemon.eml")) is None
    assert find_plus_address(sample("plain.eml"), domain="pbem.example.org") == (12, "k7q2x9")


@pytest.mark.parametrize(
    ("subject", "game"),
    [
        ("[1830 #12] Stock round 1", 12),
        ("Re: [1870 #3] your turn", 3),
        ("AW: AW: [1870 #3] Aktienrunde", 3),
        ("Fwd: RE: [1830 #12]", 12),
        ("Re: [1830#7]", 7),
        ("re: [ 1830  # 45 ]", 45),
        ("[1830 #12 key k7q2x9] go", 12),
        ("Re: [pbem-list] [1830 #9] x", 9),
        ("1830 #12", None),
        ("[1830 #] x", None),
        ("[1830 12]", None),
        ("[2038 #1]", None),
        ("", None),
        ("[1830 #" + "1" * 5000 + "]", None),
    ],
)
def test_subject_tag(subject: str, game: int | None) -> None:
    assert subject_tag(subject) == game


def test_subject_key() -> None:
    assert subject_key("Re: [1830 #12 key K7Q2X9] your turn") == "k7q2x9"
    assert subject_key("Re: [1830 #12] your turn") is None


def test_key_line_is_taken_out() -> None:
    lines = ["buy PRR", "Key K7Q2X9", "pass"]
    assert key_line(lines) == "k7q2x9"
    assert lines == ["buy PRR", "pass"]
    lines = ["key: abc-123", "key def"]
    assert key_line(lines) == "abc-123"
    assert lines == ["key def"]
    lines = ["buy PRR", "keys are nice", "key"]
    assert key_line(lines) is None
    assert lines == ["buy PRR", "keys are nice", "key"]


def test_split_key_line_does_not_change_its_input() -> None:
    lines = ["key=abc", "pass"]
    assert split_key_line(lines) == ("abc", ["pass"])
    assert lines == ["key=abc", "pass"]


def test_key_line_after_command_lines() -> None:
    text = command_lines(sample("plain.eml").body_text.replace("par PRR 82", "key k7q2x9"))
    assert key_line(text.lines) == "k7q2x9"
    assert text.lines == ["buy NYC ; pass", "say good luck everyone"]


def test_referenced_ids() -> None:
    mail = sample("thunderbird_reply_en.eml")
    assert referenced_ids(mail) == ["<turn-12-20@pbem.example.org>", "<root-12@pbem.example.org>"]
    assert referenced_ids(sample("plain.eml")) == []
    raw = b"From: a@b\nIn-Reply-To: bare-id@example.org\nReferences: <a@x>\n <b@x> <a@x>\n\n"
    assert referenced_ids(parse_message(raw)) == ["<bare-id@example.org>", "<a@x>", "<b@x>"]


# ---------------------------------------------------------------------------
# Never crash

_header_names = st.sampled_from(
    [
        "From",
        "To",
        "Cc",
        "Subject",
        "Message-ID",
        "References",
        "In-Reply-To",
        "Content-Type",
        "Content-Transfer-Encoding",
        "Content-Disposition",
        "Authentication-Results",
        "Return-Path",
        "Auto-Submitted",
        "Delivered-To",
    ]
)
_header_values = st.one_of(
    st.binary(max_size=80),
    st.sampled_from(
        [
            b"multipart/mixed; boundary=b",
            b'multipart/alternative; boundary="b"',
            b"text/html; charset=koi8-r",
            b"text/plain; charset=utf-16; format=flowed; delsp=yes",
            b"text/plain; charset*=utf-8''%E2",
            b"message/rfc822",
            b"base64",
            b"quoted-printable",
            b"=?utf-8?b?w6k?= =?bogus?q?=FF?=",
            b"attachment; filename*=iso-8859-1''%E9t%E9.txt",
            b"<>",
            b"x; dkim=fail (unclosed",
        ]
    ),
)
_body_pieces = st.lists(
    st.one_of(
        st.binary(max_size=60),
        st.sampled_from(
            [b"--b\n", b"--b--\n", b"\n", b"Content-Type: text/html\n\n<p>x", b"=\n", b"> q\n"]
        ),
    ),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_parse_message_never_crashes_on_bytes(raw: bytes) -> None:
    mail = parse_message(raw)
    assert isinstance(mail.body_text, str)
    command_lines(mail.body_text)
    classify(mail)
    authentication_failure(mail, TRUSTED)
    referenced_ids(mail)
    find_plus_address(mail)
    subject_tag(mail.subject)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_header_names, _header_values), max_size=10), _body_pieces)
def test_parse_message_never_crashes_on_mime_like_bytes(
    headers: list[tuple[str, bytes]], body: list[bytes]
) -> None:
    raw = b"".join(name.encode() + b": " + value + b"\n" for name, value in headers)
    mail = parse_message(raw + b"\n" + b"".join(body))
    assert isinstance(mail.body_text, str)
    command_lines(mail.body_text)
    classify(mail)
    authentication_failure(mail, TRUSTED)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=3000))
def test_command_lines_never_crash(body: str) -> None:
    text = command_lines(body)
    assert len(text.lines) <= MAX_COMMAND_LINES
    assert len(text.ignored) <= MAX_IGNORED_LISTED + 1
    assert all(line and line == line.strip() for line in text.lines)
    assert all(not line.startswith(">") for line in text.lines)
    key_line(list(text.lines))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(max_size=30),
            st.sampled_from(["<p>", "</p>", "<br>", "<blockquote>", "</blockquote>", "<pre>"]),
            st.sampled_from(["</pre>", "<script>", "<![", "<!--", "&#", "&amp", "<li", ">"]),
        ),
        max_size=30,
    )
)
def test_html_to_text_never_crashes(pieces: list[str]) -> None:
    assert isinstance(html_to_text("".join(pieces)), str)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_header_and_routing_helpers_never_crash(value: str) -> None:
    decode_header_words(value)
    plus_address_tag(value)
    subject_tag(value)
    subject_key(value)
    split_key_line([value])
    parse_authentication_results(value)
