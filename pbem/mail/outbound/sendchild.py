"""The sending process: the service's SMTP exchanges in a process of its own.

``pbem serve`` and ``pbem poll --once`` start it (``sendproc.SendProcess``: ``python -m
pbem.mail.outbound.sendchild``), so the mails go out on another core and under another
interpreter lock while the service processes the next inbound mail. It reads the due
mails on a database connection of its own (it only reads) and hands them to the server
one after the other, on one SMTP connection, in the outbox's order (``outbox_due``: so
the mails to one player go in the order they were queued). It writes nothing: what
became of each mail goes back to the service, which records it (``smtp.record``), so
every write stays on the service's one connection.

The two talk in lines of JSON. The service writes to the process's standard input:
first ``{"database": ..., "address": ..., "smtp": {...}, "log_level": ...}`` (the
password goes this way, never on a command line), then ``{"wake": N}`` (send what is due
now; N numbers the request) and ``{"recorded": [ids]}`` (these mails' outcomes are in the
database); closing it stops the process after the mail in hand. The process writes to
its standard output ``{"mail": {...}, "code": C, "message": M}`` for each mail handed
over (its outbox row without the bytes; ``code`` None: the connection failed) and
``{"end": N}`` when a sending round that began after request N has ended.

A mail handed over and not yet recorded is not read again; the process hands over no
more than ``MAX_UNRECORDED`` before the service has recorded them, so killed (with the
service or alone), at most those are sent again on the next start, with their
Message-IDs (docs/mail-service.md, "Crash safety"). It imports little (no rendering, no
engine) so that it starts in a fraction of a second.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import sys
from typing import Any

from ...store.db import Store, connect
from ..clock import now, seconds_until
from ..config import MailConfig, SmtpConfig
from ..faults import dies_with
from .transport import BATCH, Transport

log = logging.getLogger("pbem.mail.smtp")
POLL_OUTBOX = 30.0  # also look for mail queued by other processes (pbem inbox retry)
#: the most mails handed to the server and not yet recorded: the process waits for the
#: service beyond them (killed, at most these are sent again)
MAX_UNRECORDED = 4
#: an outbox row's columns that go back to the service with its outcome (not its bytes)
ROW_FIELDS = ("id", "message_id", "game_id", "recipient", "subject", "purpose", "attempts")


class Courier:
    """The sending rounds of the process: ``listen`` reads the service's requests,
    ``rounds`` sends what is due (at once, on each request, and when a retry is due)."""

    def __init__(self, reader: Store, transport: Transport) -> None:
        self.reader = reader
        self.transport = transport
        self.asked = 0  # the highest request number read
        self.in_flight: set[int] = set()  # handed to the server, not yet recorded
        self.wake = asyncio.Event()
        self.stop = asyncio.Event()
        self.recorded = asyncio.Event()  # set when the service has recorded a mail

    async def listen(self, requests: asyncio.StreamReader) -> None:
        """The service's requests, until it closes the pipe (then stop)."""
        while line := await requests.readline():
            request = json.loads(line)
            if "wake" in request:
                self.asked = max(self.asked, int(request["wake"]))
                self.wake.set()
            if "recorded" in request:
                self.in_flight.difference_update(request["recorded"])
                self.recorded.set()
        self.stop.set()

    async def rounds(self) -> None:
        self.wake.set()  # send what is due at once
        while not self.stop.is_set():
            self.wake.clear()
            covering = self.asked
            await self.round()
            tell({"end": covering})
            due = self.reader.outbox_next_due(self.in_flight)
            timeout = POLL_OUTBOX if due is None else \
                min(max(seconds_until(due, now()), 0.05), POLL_OUTBOX)
            await wait_any(self.wake, self.stop, timeout)

    async def round(self) -> None:
        """Send what is due now, BATCH at a time, until stopped."""
        moment = now()
        while True:
            batch = self.reader.outbox_due(moment, BATCH, set(self.in_flight))
            for row in batch:
                await self.room()
                if self.stop.is_set():
                    return
                delivery = await self.transport.deliver(row)
                self.in_flight.add(row["id"])
                tell({"mail": {name: row[name] for name in ROW_FIELDS},
                      "code": delivery.code, "message": delivery.message})
            if len(batch) < BATCH:
                return

    async def room(self) -> None:
        """Wait while MAX_UNRECORDED mails are handed over and not yet recorded (or
        until stopped)."""
        while not self.stop.is_set() and len(self.in_flight) >= MAX_UNRECORDED:
            self.recorded.clear()
            await wait_any(self.recorded, self.stop, None)


def tell(report: dict[str, Any]) -> None:
    """A line to the service (it reads them as they come)."""
    sys.stdout.buffer.write(json.dumps(report).encode() + b"\n")
    sys.stdout.buffer.flush()


async def wait_any(wake: asyncio.Event, stop: asyncio.Event, timeout: float | None) -> None:
    tasks = {asyncio.ensure_future(wake.wait()), asyncio.ensure_future(stop.wait())}
    try:
        await asyncio.wait(tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()


async def main() -> None:
    loop = asyncio.get_running_loop()
    requests = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(requests), sys.stdin)
    setup = json.loads(await requests.readline() or b"null")
    if setup is None:
        return  # the service ended before it said anything
    logging.basicConfig(level=int(setup["log_level"]), stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    config = MailConfig(address=setup["address"], smtp=SmtpConfig(**setup["smtp"]))
    reader = Store(connect(setup["database"]))
    transport = Transport(config)
    courier = Courier(reader, transport)
    listening = asyncio.ensure_future(courier.listen(requests))
    try:
        await courier.rounds()
    finally:
        await transport.close()
        reader.close()
        listening.cancel()


def run() -> None:
    # the service stops this process (it closes the pipe): a Ctrl-C or a SIGTERM to the
    # whole process group must not end it with mails handed over and not reported
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    dies_with(os.getppid())  # a fault (PBEM_FAULT=during-send) stands for the service's crash
    asyncio.run(main())


if __name__ == "__main__":
    run()
