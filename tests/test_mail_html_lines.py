"""The HTML part in few lines (templates.few_lines, issue 16): the lines of each <pre>
joined by <br> into lines of at most HTML_LINE characters, everything beyond ASCII as
character references, so the part goes as 7bit (RFC 5322: lines of up to 998) and an SMTP
server reads a tenth of the lines; shown exactly as before (a real browser draws both)."""

from __future__ import annotations

import html
import re
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

import pytest
from mailtable import NOW, Table
from test_archive_browser import needs_chromium, screenshot

from pbem import service
from pbem.mail.outbound import compose
from pbem.mail.outbound.compose import message_id
from pbem.mail.outbound.notify import Activity, game_over_mail
from pbem.mail.outbound.templates import HTML_LINE, few_lines

PRE = re.compile(r"(<pre\b[^>]*>)(.*?)(</pre>)", re.S)


def html_part(message: EmailMessage) -> tuple[EmailMessage, str]:
    part = message.get_body(("html",))
    assert isinstance(part, EmailMessage)
    return part, str(part.get_content())


def as_before(page: str) -> str:
    """The page with a line end for each <br> of a <pre>, as to_html wrote it before."""
    return PRE.sub(lambda m: m[1] + m[2].replace("<br>", "\n") + m[3], page)


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)


def test_the_html_part_has_few_long_lines_and_the_same_text(table: Table) -> None:
    table.send("Ann", "buy SV")
    table.send("Cat", "say Grüße aus Zürich – 5 €, naïve 日本語")
    mails = table.new_mail()
    assert mails
    talked = False
    for mail in mails:
        part, page = html_part(mail.message)
        assert part["Content-Transfer-Encoding"] == "7bit"
        assert part.get_content_charset() == "us-ascii"
        lines = page.splitlines()
        assert max(len(line) for line in lines) <= HTML_LINE
        shown = as_before(page)
        if len(shown.splitlines()) > 100:  # a mail with the game: 150 lines -> 16
            assert len(lines) * 5 < len(shown.splitlines())
        # every line of the text part is a line of the HTML's text (but the drawn map's)
        text = html.unescape(re.sub(r"<[^>]+>", "", shown))
        in_map = False  # the drawing of the map: the picture shows it
        for line in mail.text.replace("\r\n", "\n").splitlines():
            in_map = line.startswith("MAP (") or in_map and not line.startswith("Legend:")
            if not in_map:
                assert line.rstrip() in text, line
        if "Grüße aus Zürich" in mail.text:
            talked = True
            assert "Gr&#252;&#223;e aus Z&#252;rich &#8211; 5 &#8364;" in page
            assert "&#26085;&#26412;&#35486;" in page
    assert talked


def test_few_lines_keeps_the_line_ends_at_the_tags() -> None:
    body = "\n".join(f"line {i}" for i in range(300))
    page = (f'<html><body>\n<pre style="x">{body}\n</pre>\n<p><img src="cid:m"></p>\n'
            f'<pre>\nafter the picture\nand more</pre>\n</body></html>\n')
    joined = few_lines(page)
    assert as_before(joined) == page
    assert "<pre>\nafter the picture<br>and more</pre>" in joined  # the first line end
    assert "line 299\n</pre>" in joined  # and the last one stay
    assert max(len(line) for line in joined.splitlines()) <= HTML_LINE
    assert len(joined.splitlines()) < 20
    long = "x" * (HTML_LINE + 50)  # a line longer than HTML_LINE stays as it is, alone
    assert few_lines(f"<pre>a\n{long}\nb</pre>") == f"<pre>a\n{long}\nb</pre>"


@needs_chromium
def test_a_browser_shows_the_html_part_as_before(table: Table, tmp_path: Path) -> None:
    """A your-turn mail's HTML (the picture absent: a file page cannot load cid:) and
    the same with its line ends, drawn by chromium: the same pixels."""
    table.send("Ann", "buy SV")
    [turn] = table.to("Ben", table.new_mail())
    _, page = html_part(turn.message)
    shots = []
    for name, source in (("now", page), ("before", as_before(page))):
        path = tmp_path / f"{name}.html"
        path.write_text(source, encoding="ascii")
        shots.append(tmp_path / f"{name}.png")
        screenshot(path, shots[-1], size="1000,3000")
    from PIL import Image, ImageChops

    now, before = (Image.open(shot).convert("RGB") for shot in shots)
    assert ImageChops.difference(now, before).getbbox() is None


def test_a_mail_near_its_limit_keeps_its_line_ends_for_a_larger_picture(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each <br> is 2 bytes more than the line end it stands for: where the picture that
    fits the mail with a line end for each line would not fit it in few lines, the
    HTML keeps its line ends, so the picture is never smaller for the joining. Limits
    stepped down across the picture's edge: at each, the mail within the limit and its
    picture the one the HTML with its line ends gets; in few lines but near the edge."""
    table.send("Ann", "buy SV")
    state = service.load(table.store, table.game)
    out = game_over_mail(table.config, table.store.game(table.game), table.players["Cat"],
                         state, Activity(table.game, "Ann", happened=["Ann: pass"]))
    mid = message_id(table.config, table.game, "over")

    def pictures(built: compose.Built) -> list[bytes]:
        message = message_from_bytes(built.raw, policy=default)
        return [p.get_content() for p in message.walk() if p.get_content_maintype() == "image"]

    def in_lines(built: compose.Built) -> bool:
        _, page = html_part(message_from_bytes(built.raw, policy=default))  # type: ignore[arg-type]
        return len(page.splitlines()) > 100

    full = compose.build_mail(table.config, out, mid, NOW)
    seen = []
    for limit in range(len(full.raw) + 1000, len(full.raw) - 3000, -25):
        monkeypatch.setattr(compose, "MAIL_LIMIT", limit)
        built = compose.build_mail(table.config, out, mid, NOW)
        with monkeypatch.context() as lines_kept:
            lines_kept.setattr(compose, "few_lines", lambda page: page)
            before = compose.build_mail(table.config, out, mid, NOW)
        assert len(built.raw) <= limit and built.wire
        assert pictures(built) == pictures(before) and in_lines(before)
        seen.append((in_lines(built), len(pictures(built)[0]) if pictures(built) else 0))
    assert len({size for _, size in seen}) >= 2  # the limits crossed the picture's edge
    assert (True, seen[0][1]) in seen and (False, seen[0][1]) in seen
