"""compose.wire_bytes writes a mail as the email package's generator does, byte for byte
(bodies set aside while the generator writes headers and boundaries, then put back);
the picture's part is the base64 MIMEImage would write."""

from __future__ import annotations

import random
import string
from email import message_from_bytes
from email.message import Message
from email.mime.image import MIMEImage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.policy import default as default_policy

import pytest
from positions import late_1830

from bench.bench_mail_size import your_turn_size
from pbem.mail.outbound import compose
from pbem.mail.outbound.views import MapImage

PICTURE = bytes(range(256)) * 300  # 76,800 bytes: a thousand lines of base64


def mail(text: str, html: str, with_picture: bool, subject: str = "[1830 #3] Ann to act",
         boundary: str | None = None) -> Message:
    msg = MIMEMultipart("alternative", boundary=boundary)
    msg.attach(compose._text_part(text, "plain"))
    html_part = compose._text_part(html, "html")
    if with_picture:
        image = MapImage("png", PICTURE, "map.png", "MAP", ())
        msg.attach(compose._related(html_part, image, "map.1@games.test"))
    else:
        msg.attach(html_part)
    msg["To"] = "ann@players.test"
    msg["Subject"] = compose._header(subject)  # type: ignore[assignment]
    msg["Message-ID"] = "<pbem.3.turn.1@games.test>"
    return msg


TEXTS = [
    ("Hi all!\nbuy SV\n\n", "<p>buy SV</p>\n"),
    ("Zürich–Bâle\r\nline two\rline three", "<p>Zürich</p>"),  # UTF-8, quoted-printable
    ("no line end at the end", ""),
    ("a\r\r\nb\n\r\nc\r\r", "x\n\n\r"),
    ("From the start\n.\n..\n" + "x" * 2000 + "\n", "<pre>\n\n</pre>"),
]


@pytest.mark.parametrize("with_picture", [False, True])
@pytest.mark.parametrize("text,html", TEXTS)
def test_the_same_bytes_as_the_generator(text: str, html: str, with_picture: bool) -> None:
    msg = mail(text, html, with_picture, subject="[1870 #3] Zoë to act")
    fast = compose.wire_bytes(msg)  # sets the boundaries the generator then keeps
    assert fast == msg.as_bytes(policy=compose._WIRE)
    assert b"pbem-body-" not in fast


@pytest.mark.parametrize("text,html", TEXTS)
def test_a_message_written_again_after_its_html_became_related(text: str, html: str) -> None:
    """compose.build sizes the picture by the mail without it, then puts the picture in:
    the second writing reuses the headers and parts of the first (``written``) and is
    still the generator's bytes of the changed message, the first those of the first."""
    msg = mail(text, html, False)
    written: dict[tuple[int, str], bytes] = {}
    first = compose.wire_bytes(msg, written)
    assert first == msg.as_bytes(policy=compose._WIRE)
    plain, html_part = msg.get_payload(0), msg.get_payload(1)
    assert isinstance(plain, Message) and isinstance(html_part, Message)
    image = MapImage("png", PICTURE, "map.png", "MAP", ())
    msg.set_payload([plain, compose._related(html_part, image, "map.1@games.test")])
    again = compose.wire_bytes(msg, written)
    assert again == msg.as_bytes(policy=compose._WIRE)
    assert b"image/png" in again and b"image/png" not in first


@pytest.mark.parametrize("subtype", ["plain", "html"])
@pytest.mark.parametrize("text", [t for pair in TEXTS for t in pair if t.isascii()])
def test_an_ascii_text_part_is_the_one_mimetext_makes(text: str, subtype: str) -> None:
    ours, theirs = compose._text_part(text, subtype), MIMEText(text, subtype, "us-ascii")
    assert ours.items() == theirs.items()
    assert ours.get_payload() == theirs.get_payload()
    assert ours.as_bytes(policy=compose._WIRE) == theirs.as_bytes(policy=compose._WIRE)


def test_a_body_holding_a_boundary_goes_through_the_generator() -> None:
    msg = mail("see --=_pbem_x--", "", False, boundary="=_pbem_x")
    assert compose.wire_bytes(msg) == msg.as_bytes(policy=compose._WIRE)


def test_what_only_the_generator_writes_right_goes_through_it() -> None:
    """A preamble or an epilogue, a body other than ASCII (8bit), a multipart without
    parts: the generator writes them."""
    for change in ("preamble", "epilogue", "8bit", "no parts"):
        msg = mail(*TEXTS[0], with_picture=True)
        if change in ("preamble", "epilogue"):
            setattr(msg, change, "This is a multi-part message.")
        elif change == "8bit":
            part = msg.get_payload(0)
            assert isinstance(part, Message)
            part.set_payload("Zürich".encode().decode("ascii", "surrogateescape"))
        else:
            msg.set_payload([])
        expected = msg.as_bytes(policy=compose._WIRE)
        assert compose.wire_bytes(msg) == expected, change


def test_the_picture_part_is_what_mimeimage_writes() -> None:
    ours = compose._related(compose._text_part("<p/>", "html"),
                            MapImage("png", PICTURE, "map.png", "MAP", ()), "c@x")
    parts = ours.get_payload()
    assert isinstance(parts, list)
    picture = parts[1]
    assert isinstance(picture, Message)
    reference = MIMEImage(PICTURE, "png")
    assert picture.get_payload() == reference.get_payload()
    assert picture.items()[:3] == reference.items()


def test_a_late_game_mail_reads_back_with_its_picture() -> None:
    size = your_turn_size(late_1830(), [], "full")
    assert size.image > 10_000 and size.total > size.image


def test_built_mails_parse_with_every_part() -> None:
    raw = compose.wire_bytes(mail(*TEXTS[1], with_picture=True))
    msg = message_from_bytes(raw, policy=default_policy)
    kinds = [p.get_content_type() for p in msg.walk()]
    assert kinds == ["multipart/alternative", "text/plain", "multipart/related",
                     "text/html", "image/png"]
    image = next(p for p in msg.walk() if p.get_content_type() == "image/png")
    assert image.get_content() == PICTURE
    assert "Zürich" in next(p for p in msg.walk()
                            if p.get_content_type() == "text/plain").get_content()


def test_headers_are_folded_as_the_policy_folds_them() -> None:
    """compose._folded writes a header that fits on its line itself: the same bytes as
    the policy's fold_binary for values of every length around the line's 78 columns,
    with spaces, tabs, punctuation, encoded words and characters beyond ASCII."""
    rng = random.Random(16)
    pools = [string.printable.strip("\r\n\x0b\x0c") + " ", " ,;=?\"<>@.x", "ab \t", "Zoë ab"]
    for _ in range(5000):
        name = rng.choice(["Subject", "To", "Message-ID", "Content-Type", "X-PBEM-Game"])
        pool = rng.choice(pools)
        value = "".join(rng.choice(pool) for _ in range(rng.randint(0, 90 - len(name))))
        assert compose._folded(name, value) == compose._WIRE.fold_binary(name, value), value


def test_headers_with_random_tokens_are_folded_as_the_policy_folds_them() -> None:
    """Boundaries and Message-IDs (hex tokens) in headers of every length: the same
    bytes as the policy's fold_binary."""
    rng = random.Random(17)
    for _ in range(3000):
        words = []
        for _ in range(rng.randint(1, 6)):
            token = "".join(rng.choice("0123456789abcdef") for _ in range(rng.choice(
                [16, 24, 40, 7])))
            words.append(rng.choice([f"<pbem.3.turn.{token}@games.test>",
                                     f'boundary="=_pbem_{token}"', "multipart/related;",
                                     f'type="text/html"; x={token}~', token, "ab,cd"]))
        value = rng.choice([" ", "; ", "\t", ""]).join(words)
        name = rng.choice(["References", "Content-Type", "In-Reply-To"])
        assert compose._folded(name, value) == compose._WIRE.fold_binary(name, value), value

