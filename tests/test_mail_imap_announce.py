"""A mail the IMAP server announces in its answer to another command (an untagged EXISTS
with a SEARCH or FETCH) is looked for at once, not after the next IDLE refresh: pymap
announces a mail that arrives while it answers a SEARCH in that answer, and not again in
the IDLE that follows (bench mail's latency part with pymap waited for it until it gave
up; issue 16). pymap on loopback, as in the tests of the mail service."""

from __future__ import annotations

import asyncio
import imaplib
import time
from collections.abc import Iterator

import pytest

from pbem.mail.config import ImapConfig
from pbem.mail.embedded import EmbeddedImap
from pbem.mail.inbound.imap import Mailbox

MAIL = b"From: ann@players.test\r\nSubject: buy SV\r\n\r\nbuy SV\r\n"


@pytest.fixture
def pymap() -> Iterator[EmbeddedImap]:
    server = EmbeddedImap().start()
    yield server
    server.stop()


def deliver(server: EmbeddedImap) -> None:
    """A mail put into the mailbox by another connection (as a delivery agent does)."""
    conn = imaplib.IMAP4(server.host, server.port)
    conn.login(server.user, server.password)
    status, _ = conn.append("INBOX", "", imaplib.Time2Internaldate(time.time()), MAIL)
    conn.logout()
    assert status == "OK"


def test_mail_announced_with_another_command_is_looked_for_at_once(pymap: EmbeddedImap) -> None:
    # an IDLE refresh far beyond the guard below: waiting for it would fail the test
    config = ImapConfig(host=pymap.host, port=pymap.port, user=pymap.user,
                        security="plain", idle_seconds=3600, timeout=30)

    async def run() -> tuple[list[int], bool, list[int]]:
        box = Mailbox(config, pymap.password)
        await box.open()
        try:
            before = await box.pending()
            deliver(pymap)
            await box.size(999_999)  # any command: its answer tells of the new mail
            announced = box.announced
            await asyncio.wait_for(box.wait(asyncio.Event()), 120)  # a guard, not a timing
            return before, announced, await box.pending()
        finally:
            await box.close()

    before, announced, after = asyncio.run(run())
    assert announced
    assert len(after) == len(before) + 1
    assert after[:len(before)] == before


def test_a_search_forgets_what_it_was_told_before(pymap: EmbeddedImap) -> None:
    config = ImapConfig(host=pymap.host, port=pymap.port, user=pymap.user,
                        security="plain", timeout=30)

    async def run() -> tuple[bool, bool]:
        box = Mailbox(config, pymap.password)
        await box.open()
        try:
            deliver(pymap)
            await box.size(999_999)
            told = box.announced
            await box.pending()  # finds the mail: nothing is left to look for
            return told, box.announced
        finally:
            await box.close()

    assert asyncio.run(run()) == (True, False)
