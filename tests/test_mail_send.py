"""The sender's own MAIL/RCPT/DATA for a mail already in its wire form (smtp.send_mail):
the SMTP server (aiosmtpd on loopback) sees the same commands and bytes as from
aiosmtplib's ``sendmail``, refusals raise the same exceptions (issue 16)."""

from __future__ import annotations

import asyncio
from email.mime.multipart import MIMEMultipart
from pathlib import Path
from typing import Any

import aiosmtplib
import pytest
from aiosmtpd.controller import Controller
from aiosmtplib.protocol import PERIOD_REGEX, normalize_message_line_endings
from hypothesis import given
from hypothesis import strategies as st
from mailtable import Table

from pbem.mail.embedded import free_port
from pbem.mail.outbound import compose
from pbem.mail.outbound.transport import on_the_wire, send_mail

SENDER = "pbem@games.test"


class Recorder:
    """Keeps what each mail transaction brought; refuses a recipient or a DATA on demand."""

    def __init__(self) -> None:
        self.seen: list[tuple[list[str], list[str], bytes]] = []
        self.refuse_rcpt = ""
        self.refuse_data = ""

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,  # noqa: N802
                          options: list[str]) -> str:
        if self.refuse_rcpt:
            return self.refuse_rcpt
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        if self.refuse_data:
            return self.refuse_data
        self.seen.append((list(envelope.mail_options), list(envelope.rcpt_tos),
                          bytes(envelope.original_content)))
        return "250 OK"


@pytest.fixture
def server() -> Any:
    recorder = Recorder()
    controller = Controller(recorder, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield recorder, controller.port
    controller.stop()


async def _send_both(port: int, raw: bytes) -> None:
    """The mail through aiosmtplib's sendmail, then through send_mail (each after a first
    mail, so that EHLO is done)."""
    for fast in (False, True):
        client = aiosmtplib.SMTP(hostname="127.0.0.1", port=port, timeout=10)
        await client.connect()
        await client.sendmail(SENDER, ["first@players.test"], b"Subject: first\r\n\r\nx\r\n")
        if fast:
            await send_mail(client, SENDER, "ann@players.test", raw)
        else:
            await client.sendmail(SENDER, ["ann@players.test"], raw)
        await client.quit()


WIRE = (b"From: pbem <pbem@games.test>\r\nSubject: [1830 #1] SR 1\r\n\r\n"
        b"Your turn.\r\n\r\n  A1 . B2\r\n" + (b"QUFB" * 19 + b"\r\n") * 1000)


@pytest.mark.parametrize("raw", [
    WIRE,  # a mail as pbem writes it: sent as it is
    WIRE.replace(b"\r\n", b"\n"),  # bare line ends: through sendmail
    WIRE + b".\r\nafter a dot\r\n",  # a line starting with a dot: doubled by sendmail
    b".first line is a dot\r\n",
    WIRE[:-2],  # no line end at the end
    b"a lone\rCR\r\n",
])
def test_the_server_sees_what_sendmail_sends(server: Any, raw: bytes) -> None:
    recorder, port = server
    assert on_the_wire(raw) == (raw == WIRE)
    asyncio.run(_send_both(port, raw))
    slow, fast = recorder.seen[1], recorder.seen[3]
    assert fast == slow
    assert [option.lower() for option in slow[0]] == [
        f"size={len(normalize_message_line_endings(raw))}"]


@pytest.mark.parametrize("refusal, raised", [
    ("rcpt", aiosmtplib.SMTPRecipientsRefused), ("data", aiosmtplib.SMTPDataError)])
def test_refusals_raise_what_sendmail_raises(server: Any, refusal: str, raised: type) -> None:
    recorder, port = server

    async def run() -> list[str]:
        client = aiosmtplib.SMTP(hostname="127.0.0.1", port=port, timeout=10)
        await client.connect()
        await client.sendmail(SENDER, ["first@players.test"], WIRE)
        setattr(recorder, f"refuse_{refusal}", "550 5.1.1 no such user")
        caught = []
        for send in (client.sendmail(SENDER, ["ann@players.test"], WIRE),
                     send_mail(client, SENDER, "ann@players.test", WIRE)):
            with pytest.raises(raised) as exc:
                await send
            caught.append(str(exc.value))
        setattr(recorder, f"refuse_{refusal}", "")
        await send_mail(client, SENDER, "ben@players.test", WIRE)  # the envelope was reset
        await client.quit()
        return caught

    slow, fast = asyncio.run(run())
    assert slow == fast and "550" in fast
    assert [rcpt for _, rcpt, _ in recorder.seen] == [["first@players.test"],
                                                      ["ben@players.test"]]


@given(st.lists(st.sampled_from([b"a", b".", b"\r", b"\n", b"\r\n", b"\r\n.", b"xyz"]),
                max_size=12).map(b"".join))
def test_on_the_wire_means_data_sends_it_as_it_is(raw: bytes) -> None:
    carried = PERIOD_REGEX.sub(b"..", normalize_message_line_endings(raw))
    if on_the_wire(raw):
        assert carried == raw
    elif raw.endswith(b"\r\n") and carried == raw:
        pytest.fail(f"{raw!r} needs no change but is not taken as on the wire")


@given(st.lists(st.lists(st.sampled_from(["a", ".", "\r", "\n", "\r\n", "\n.", " ", "é"]),
                         max_size=10).map("".join), min_size=1, max_size=3))
def test_the_mail_builder_knows_when_a_mail_is_on_the_wire(bodies: list[str]) -> None:
    """compose's ``Built.wire``, known from the pieces as the mail is written, is what
    on_the_wire finds looking at the whole mail (the sender trusts it: outbox_mail.wire)."""
    msg = MIMEMultipart("alternative")
    msg["Subject"] = "[1830 #1] SR 1"
    for body in bodies:
        msg.attach(compose._text_part(body, "plain"))
    built = compose._built(msg, {})
    assert built.raw == compose.wire_bytes(msg)
    assert built.wire == on_the_wire(built.raw)


def test_a_game_mail_is_queued_as_on_the_wire(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.send("Ann", "buy SV")
    rows = table.store.conn.execute(
        "SELECT outbox_mail.wire, outbox_mail.raw FROM outbox_mail").fetchall()
    assert len(rows) == 4 and all(wire == 1 and on_the_wire(raw) for wire, raw in rows)
