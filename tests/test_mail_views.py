"""What a game mail shows: the rich renderings (prompt, holdings under the visibility
option, market, text map) and the map as an inline picture in the HTML part."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from email.message import EmailMessage
from pathlib import Path

import pytest
from mailtable import NOW, Mail, Table
from renderhelp import check_lines

from pbem import service
from pbem.lastused import LastUsed
from pbem.mail.outbound import compose, views
from pbem.mail.outbound.compose import build, message_id
from pbem.mail.outbound.notify import Activity, game_over_mail
from pbem.mail.outbound.welcome import queue_welcome

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def picture(mail: Mail) -> EmailMessage:
    """The inline map of a game mail, after checking the layout: multipart/alternative
    of text/plain and multipart/related (text/html, then the image the HTML shows)."""
    msg = mail.message
    assert msg.get_content_type() == "multipart/alternative"
    plain, related = parts(msg)
    assert plain.get_content_type() == "text/plain"
    assert related.get_content_type() == "multipart/related"
    assert related.get_param("type") == "text/html"
    html, image = parts(related)
    assert html.get_content_type() == "text/html"
    assert image.get_content_type() in ("image/png", "image/svg+xml")
    assert image.get_content_disposition() == "inline"
    cid = str(image["Content-ID"])
    assert cid.startswith("<") and cid.endswith(">")
    assert f'<img src="cid:{cid[1:-1]}"' in html.get_content()
    assert "<pre" in html.get_content()
    return image


def parts(msg: EmailMessage) -> list[EmailMessage]:
    """The parts of a multipart message (the default policy makes them EmailMessages)."""
    payload = msg.get_payload()
    assert isinstance(payload, list)
    return [part for part in payload if isinstance(part, EmailMessage)]


def check_image(image: EmailMessage) -> None:
    data = image.get_content()
    if image.get_content_type() == "image/png":
        assert data.startswith(PNG_SIGNATURE)
    else:
        root = ET.fromstring(data)
        assert root.tag.endswith("svg")


def text_of(mail: Mail) -> str:
    return mail.text.replace("\r\n", "\n")


def html_of(mail: Mail) -> str:
    body = mail.message.get_body(("html",))  # type: ignore[attr-defined]
    assert body is not None
    return str(body.get_content())


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)


def test_your_turn_mail_has_text_html_and_the_map(table: Table) -> None:
    table.send("Ann", "buy SV")
    mails = table.new_mail()
    [turn] = table.to("Ben", mails)
    image = picture(turn)
    check_image(image)
    text = text_of(turn)
    check_lines(text)
    # the prompt, the holdings, the market and the text map with its listing
    assert re.search(r"^  buy CS +costs \$40$", text, re.M)
    assert "(you have $600)" in text
    assert re.search(r"^Ann +\$580 ", text, re.M)
    assert "Par chart:" in text and "Operating order:" in text
    assert "MAP (1830;" in text and "Legend:" in text
    assert re.search(r"^H12 Altoona ", text, re.M)
    # the HTML shows the same text, with the picture just before the text map
    html = html_of(turn)
    assert html.index("<img ") < html.index("MAP (1830;")
    assert "What you can do now:" in html and "Ann buys SV for $20." in html
    # the picture takes the drawing's place (the text part keeps it); the listing stays
    assert "/ H12 \\" in text and "/ H12 \\" not in html
    shown = html.replace("<br>", "\n")  # the lines of a <pre> are joined by <br>
    assert "Legend:" in html and re.search(r"^H12 Altoona ", shown, re.M)


def test_every_game_mail_carries_the_map(table: Table) -> None:
    table.send("Ann", "buy SV")
    mails = table.new_mail()
    cids = set()
    for mail in mails:  # Ann's result, Ben's turn, Cat's and Dan's updates
        image = picture(mail)
        check_lines(mail.text)
        cids.add(str(image["Content-ID"]))
    assert len(mails) == 4 and len(cids) == 4  # one Content-ID per mail
    queue_welcome(table.store, table.config, table.game, table.keys, NOW)
    for mail in table.new_mail():
        picture(mail)
        check_lines(mail.text)


def test_short_replies_have_no_picture(table: Table) -> None:
    table.send("Ann", "buy SV", sender="ann@elsewhere.test")  # no key: a short rejection
    table.send("Cat", "say hello")  # talk, and an answer out of turn
    mails = table.new_mail()
    [rejected] = table.to("Ann", [m for m in mails if "has leaked" in m.subject])
    talk = [m for m in mails if "Cat says" in m.subject]
    assert talk
    for mail in [rejected, *talk]:
        assert [p.get_content_type() for p in mail.message.walk()] == [
            "multipart/alternative", "text/plain", "text/html"]


def test_prompt_in_the_auction(table: Table) -> None:
    queue_welcome(table.store, table.config, table.game, table.keys, NOW)
    [ann] = table.to("Ann", table.new_mail())
    text = text_of(ann)
    assert "It is your turn first." in text and "What you can do now:" in text
    assert re.search(r"^  buy SV +costs \$20$", text, re.M)
    bid = re.search(r"^  bid (CS|DH|MH|CA|BO) (\d+) +at least \$(\d+), at most \$600$",
                    text, re.M)
    assert bid and bid.group(2) == bid.group(3)
    assert re.search(r"^  pass$", text, re.M)
    assert "(you have $600)" in text


def test_commands_can_be_copied_from_the_prompt(table: Table) -> None:
    """The example of each line of the prompt is a command the service takes."""
    table.send("Ann", "buy SV")
    [turn] = table.to("Ben", table.new_mail())
    lines = text_of(turn).splitlines()
    start = lines.index("What you can do now:") + 1
    examples = [re.split(r"\s{2,}", line.strip())[0] for line in lines[start:]
                if re.match(r"^  \S", line)]
    assert "pass" in examples and any(e.startswith("bid ") for e in examples)
    bid = next(e for e in examples if e.startswith("bid "))
    assert table.send("Ben", bid).status == "processed"
    assert table.texts()[-1] == bid


def test_player_cash_hidden(tmp_path: Path) -> None:
    table = Table(tmp_path, options={"visibility": "player-cash-hidden"})
    table.send("Ann", "buy SV")
    mails = table.new_mail()
    [ben] = table.to("Ben", mails)
    [cat] = table.to("Cat", mails)
    [ann] = table.to("Ann", mails)
    for mail, own in ((ben, "Ben"), (cat, "Cat")):
        text = text_of(mail)
        assert re.search(rf"^\*?{own} +\$600 ", text, re.M)  # his own cash
        assert re.search(r"^Ann +\? ", text, re.M)  # not Ann's
        assert "$580" not in text and "$580" not in html_of(mail)
        picture(mail)
    assert re.search(r"^Ann +\$580 ", text_of(ann), re.M)


def test_game_over_mail_carries_the_map(table: Table) -> None:
    state = service.load(table.store, table.game)
    state.finished = True
    state.result = {"reason": "The bank is broken.", "scores": {"Ann": 4200, "Ben": 5100},
                    "winners": ["Ben"], "bankrupt": None}
    run = Activity(table.game, "Ann", happened=["Ann: pass"])
    out = game_over_mail(table.config, table.store.game(table.game), table.players["Cat"],
                         state, run)
    raw = build(table.config, out, message_id(table.config, table.game, "over"), NOW)
    mail = Mail({"recipient": out.recipient, "raw": raw})
    check_image(picture(mail))
    check_lines(mail.text)
    assert "Final scores:" in mail.text and "MAP (1830;" in mail.text


def test_svg_where_no_png_can_be_made(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a PNG rasteriser the picture is the SVG, where it fits the limits (the
    map picture at most 60 KB, the mail at most 80 KB); else the mail has the text map
    alone."""
    monkeypatch.setattr(views, "_DRAWN", LastUsed(8))  # no picture made before
    monkeypatch.setattr(views, "map_picture", lambda parts, *_: None)
    table.send("Ann", "buy SV")
    [turn] = table.to("Ben", table.new_mail())
    svg = views.drawn_map(turn.text)
    assert svg is not None and len(svg.svg.encode()) > views.MAP_IMAGE_LIMIT
    assert not [p for p in turn.message.walk() if p.get_content_maintype() == "image"]
    assert "MAP (1830;" in html_of(turn)  # the HTML shows the text map instead
    monkeypatch.setattr(views, "MAP_IMAGE_LIMIT", 10**6)
    monkeypatch.setattr(compose, "MAIL_LIMIT", 10**6)
    monkeypatch.setattr(views, "_DRAWN", LastUsed(8))
    table.send("Ben", "buy CS")
    [turn] = table.to("Cat", table.new_mail())
    image = picture(turn)
    assert image.get_content_type() == "image/svg+xml"
    check_image(image)


def test_a_rendering_bug_does_not_stop_the_game(table: Table,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> str:
        raise RuntimeError("renderer exploded")

    monkeypatch.setattr(views, "_DRAWN", LastUsed(8))
    monkeypatch.setattr(views, "state_map_parts", broken)
    monkeypatch.setattr(views, "tables_text", broken)
    assert table.send("Ann", "buy SV").status == "processed"
    [turn] = table.to("Ben", table.new_mail())
    assert "(the tables could not be drawn: RuntimeError" in turn.text
    assert "What you can do now:" in turn.text and "MAP (1830;" in turn.text
    assert [p.get_content_type() for p in turn.message.walk()] == [
        "multipart/alternative", "text/plain", "text/html"]  # no picture, but the mail


@pytest.mark.parametrize("visibility", ["open", "corporation-cash-hidden",
                                        "player-cash-hidden"])
def test_the_tables_are_each_viewers_own(visibility: str) -> None:
    """StateViews draws the holdings once for everyone in an open game, per viewer where
    something is hidden: each viewer's are what tables_text draws for him."""
    from positions import late_1830

    from pbem.render import tables_text

    state = late_1830()
    state.options["visibility"] = visibility
    shared = views.StateViews(state)
    drawn = {name: tables_text(state, name) for name in [*state.names, None]}
    for name, text in drawn.items():
        assert shared.view(name).board == text
    assert (len(set(drawn.values())) == 1) == (visibility == "open")
