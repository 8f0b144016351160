"""Sending beside processing (pbem.mail.outbound.sendproc and sendchild: a process of its
own), with the real servers: the next inbound mail is processed while the answers to the
one before are in the SMTP server's hands, every player gets the mails in the order they
were queued, and the sending process is one (killed alone, it stops the service). The
crashes of the service (killed while sending) are in test_mail_faults.py."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import MailWorld, ServiceProcess
from test_mail_faults import deliver_moves, outbox_ids

from pbem.mail.clock import now
from pbem.mail.serve import poll_once
from pbem.store import open_store


class Processed(logging.Handler):
    """Sets ``second`` when the service logs that it has processed its second message."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []
        self.second = threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        line = record.getMessage()
        self.lines.append(line)
        if sum(": processed" in seen for seen in self.lines) >= 2:
            self.second.set()


@pytest.fixture
def processed() -> Iterator[Processed]:
    handler = Processed()
    logger = logging.getLogger("pbem.mail")
    level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


def test_the_next_mail_is_processed_while_the_answers_are_in_flight(
        world: MailWorld, processed: Processed) -> None:
    """The SMTP server keeps back its answer to the first mail pbem sends until pbem has
    processed the second inbound mail: so the processing went on while that mail was in
    the server's hands. (Sending in turn, the poller would have waited for the answers
    until ANSWER_WAIT and said that "the sender is still busy"; sending after the whole
    mailbox is read, the first mail would have come after the third was processed.)"""
    game = world.new_game(welcome=False)
    deliver_moves(world, game)
    held: list[tuple[int, bool]] = []  # inbound mails processed then; the second came

    def hold(raw: bytes) -> None:
        if not held:
            before = sum(": processed" in line for line in processed.lines)
            held.append((before, processed.second.wait(120)))  # 120 s: ends a hanging test

    world.sink.hold = hold
    store = open_store(world.db, now=now())
    try:
        report = asyncio.run(poll_once(store, world.config))
    finally:
        store.close()
    assert len(held) == 1 and held[0][0] < 3 and held[0][1], held
    assert report.processed == 3
    assert not [line for line in processed.lines if "still busy" in line]
    store = world.store()
    try:
        queued = outbox_ids(store)
        recipients = dict(store.conn.execute("SELECT message_id, recipient FROM outbox"))
    finally:
        store.close()
    assert queued and all(status == "sent" for _, status in queued)
    for recipient in set(recipients.values()):
        got = [d.message_id for d in world.sink.delivered if d.recipient == recipient]
        assert got == [mid for mid, _ in queued if recipients[mid] == recipient]


def sending_process(proc: ServiceProcess) -> int:
    """The pid of the sending process ``pbem serve`` started: it says which, and it is
    the service's child."""
    pid = int(proc.wait_log("sending process").split("sending process ")[1].split()[0])
    service = proc.proc.pid
    assert str(pid) in Path(f"/proc/{service}/task/{service}/children").read_text().split()
    return pid


def test_the_mails_go_out_from_a_process_of_their_own(world: MailWorld) -> None:
    """The SMTP exchanges are not in the service's process (nor under its interpreter
    lock): killed alone, the sending process takes the service down with an error (as a
    failed thread did), and the next start sends what it had not, each mail once or
    more and none lost."""
    game = world.new_game(welcome=False)
    proc = world.serve()
    os.kill(sending_process(proc), signal.SIGKILL)
    assert proc.wait() != 0
    assert any("the sending process ended" in line for line in proc.log), proc.log[-8:]
    deliver_moves(world, game)
    again = world.poll_once()
    assert again.wait() == 0, again.log[-5:]
    store = world.store()
    try:
        queued = outbox_ids(store)
    finally:
        store.close()
    assert queued and all(status == "sent" for _, status in queued)
    assert {mid for mid, _ in queued} <= {d.message_id for d in world.sink.delivered}
