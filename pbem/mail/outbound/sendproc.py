"""Sending beside processing: the service's side of the sending process (``sendchild``).

``SendProcess`` starts ``python -m pbem.mail.outbound.sendchild``, which hands the due
mails to the SMTP server on another core and under another interpreter lock, while the
service's loop processes the next inbound mail. What became of each mail comes back as
a line (``smtp.Delivery``), and the service's loop records it on the store that
processes the inbound mail (``smtp.record``): a mail is marked sent only after the
server accepted it, and every write stays on that one connection, so the sending never
waits for an inbound mail's transaction, nor the transaction for the sending.

A mail accepted but not yet recorded (for the few milliseconds until the service's loop
is free) is not read again by the process; killed in between, the service sends it
again on the next start with the same Message-ID, as after a crash while sending
(docs/mail-service.md, "Crash safety").
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import os
import site
import sys
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ...store import Store, StoreBusy
from ..clock import now
from ..config import MailConfig
from .sendchild import wait_any
from .smtp import record
from .transport import Delivery

log = logging.getLogger("pbem.mail.smtp")
ANSWER_WAIT = 20.0  # the longest the poller waits for the answers to a mail to be sent
#: where the ``pbem`` package that runs the service is (the process runs the same)
PACKAGE_ROOT = str(Path(__file__).resolve().parents[3])
#: what the process reports: a mail's outcome, or the end of a sending round (the
#: request it covers)
Report = tuple[dict[str, Any], Delivery] | int


class SendingFailed(RuntimeError):
    """The sending process ended without being asked to."""


def child_environment() -> dict[str, str]:
    """The service's environment, where the sending process imports the same ``pbem``:
    a source tree (or one found through PYTHONPATH) goes first on its path; an installed
    one is found where Python finds its packages (a site directory is not put before the
    standard library)."""
    env = dict(os.environ)
    if PACKAGE_ROOT not in {*site.getsitepackages(), site.getusersitepackages()}:
        env["PYTHONPATH"] = os.pathsep.join(
            [PACKAGE_ROOT, *filter(None, [env.get("PYTHONPATH")])])
    return env


def database_file(store: Store) -> str:
    """The file of the store's main database ('' for one in memory)."""
    for _, name, file in store.conn.execute("PRAGMA database_list"):
        if name == "main":
            return str(file or "")
    return ""


class SendProcess:
    """The sender of ``serve`` and ``poll_once``: ``run()`` in the service's loop starts
    the process and records what it reports until ``stop`` is set; ``wake`` asks for a
    new sending round; ``answered()`` (after each inbound mail) and ``settled()`` wait for
    rounds to end."""

    def __init__(self, store: Store, config: MailConfig, wake: asyncio.Event,
                 stop: asyncio.Event) -> None:
        self.store = store
        self.config = config
        self.wake = wake
        self.stop = stop
        self.path = database_file(store)
        if not self.path:
            raise ValueError("the sending process needs a database file")
        self.asked = 0  # requests made (each a new round to wait for)
        self.finished = 0  # the highest request whose round has ended, its mails recorded
        self._changed = asyncio.Condition()
        self._previous: set[int] = set()  # the last inbound mail's answers (outbox ids)
        #: the highest outbox id answered() has looked at (the answers come after it)
        self._seen = store.outbox_queued_since(0, "")[1]
        self._outstanding: set[int] = set()  # answers the poller may wait for, unrecorded
        #: reported, not yet recorded: a mail's outcome, or the end of a round
        self._unrecorded: collections.deque[Report] = collections.deque()
        self._child: asyncio.subprocess.Process | None = None
        self.error: BaseException | None = None

    # -- the process ---------------------------------------------------------------

    async def run(self) -> None:
        """Start the process; pass ``wake`` on to it and record what it reports, until
        ``stop``; then stop it after the mail in hand and record the rest."""
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "pbem.mail.outbound.sendchild", env=child_environment(),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        self._child = child
        log.info("sending process %d started", child.pid)
        self._tell({"database": self.path, "address": self.config.address,
                    "smtp": asdict(self.config.smtp),
                    "log_level": logging.getLogger("pbem.mail").getEffectiveLevel()})
        self._tell({"wake": self.asked})
        assert child.stdout is not None and child.stdin is not None
        listening = asyncio.ensure_future(self._listen(child.stdout))
        try:
            while not self.stop.is_set() and not listening.done():
                await wait_any(self.wake, self.stop, 1.0)  # 1 s: to notice an ended process
                if self.wake.is_set():
                    self.wake.clear()
                    self._poke()
        finally:
            stopped = self.stop.is_set()
            child.stdin.close()  # the process ends after the mail in hand
            await listening
            status = await child.wait()
        if not stopped or status != 0:
            self.error = SendingFailed(f"the sending process ended (exit status {status})")
            self._notify()
            log.error("%s", self.error)
            raise self.error

    async def _listen(self, reports: asyncio.StreamReader) -> None:
        """Read the process's reports as they come, and record them."""
        rest = b""
        while chunk := await reports.read(1 << 16):
            *lines, rest = (rest + chunk).split(b"\n")
            for line in lines:
                report = json.loads(line)
                self._unrecorded.append(
                    report["end"] if "end" in report else
                    (report["mail"], Delivery(report["code"], report["message"])))
            self._record_reports()

    def _tell(self, request: dict[str, Any]) -> None:
        """A line to the process."""
        child = self._child
        if child is None or child.stdin is None or child.stdin.is_closing():
            return
        child.stdin.write(json.dumps(request).encode() + b"\n")

    # -- in the service's loop -------------------------------------------------

    async def answered(self, limit: float = ANSWER_WAIT) -> None:
        """After an inbound mail: its answers (the mails it queued to go at once) are
        sent by a new round, and the poller goes on with the next mail once the answers
        to the mail before it are recorded, sent or failed for now (or after ``limit``
        seconds: a slow or absent SMTP server delays the reading of mail only that
        long). So one mail's answers are in flight while the next is processed, and a
        backlog of inbound mail never runs far ahead of its answers."""
        answers, self._seen = self.store.outbox_queued_since(self._seen, now())
        self._outstanding.update(answers)
        self._poke()
        previous, self._previous = self._previous, set(answers)
        if previous:
            await self._wait_for(lambda: previous.isdisjoint(self._outstanding), limit)

    async def settled(self) -> None:
        """Wait until everything due now is sent (or has failed for now)."""
        await self.until(self.request(), None)

    def request(self) -> int:
        """Ask for a round that sends what is due now; its number."""
        self._poke()
        return self.asked

    async def until(self, needed: int, limit: float | None) -> None:
        """Wait until round ``needed`` has ended (at most ``limit`` seconds)."""
        await self._wait_for(lambda: self.finished >= needed, limit)

    async def _wait_for(self, done: Callable[[], bool], limit: float | None) -> None:
        async def ended() -> None:
            async with self._changed:
                await self._changed.wait_for(lambda: done() or self.error is not None)

        try:
            await asyncio.wait_for(ended(), limit)
        except TimeoutError:
            log.info("the sender is still busy; reading the next mail")

    def _poke(self) -> None:
        self.asked += 1
        self._tell({"wake": self.asked})

    def _record_reports(self) -> None:
        """Record the outcomes the process reported (and end its rounds after them): the
        mails reported before the next round's end in one transaction, which waits for
        the disk only when one of them was not accepted (a mail marked sent may be lost
        to a power cut: it is sent again, see ``outbox_mark_sent``)."""
        while self._unrecorded:
            head = self._unrecorded[0]
            if isinstance(head, int):
                self._unrecorded.popleft()
                self.finished = max(self.finished, head)
                self._notify()
                continue
            mails: list[tuple[dict[str, Any], Delivery]] = []
            for report in self._unrecorded:
                if isinstance(report, int):
                    break
                mails.append(report)
            try:
                with self.store.transaction(durable=not all(d.accepted for _, d in mails)):
                    outcomes = [record(self.store, self.config, row, delivery)
                                for row, delivery in mails]
            except StoreBusy:
                log.warning("database busy; %d mails' outcomes are recorded later",
                            len(mails))
                return
            for _ in mails:
                self._unrecorded.popleft()
            recorded = [row["id"] for row, _ in mails]
            self._outstanding.difference_update(recorded)
            self._tell({"recorded": recorded})
            self._notify()
            if any(outcome != "sent" for outcome in outcomes):
                self._poke()  # a later attempt, or a report to the referee, is due

    def _notify(self) -> None:
        """Wake the waits on rounds and answers (from a callback of the service's loop)."""

        async def notify() -> None:
            async with self._changed:
                self._changed.notify_all()

        asyncio.ensure_future(notify())
