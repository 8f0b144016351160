"""Sending beside processing: the service's SMTP exchanges in a thread of their own.

The thread reads the due mails on a database connection of its own (it only reads)
and hands them to the server one after the other, on one SMTP connection, in the
outbox's order (``outbox_due``: so the mails to one player go in the order they were
queued). What became of each mail (``smtp.Delivery``) goes back to the service's loop,
which records it on the store that processes the inbound mail (``smtp.record``): a mail
is marked sent only after the server accepted it, and every write stays on that one
connection, so the sender never waits for an inbound mail's transaction, nor the
transaction for the sender. Meanwhile the service processes the next inbound mail: its
answers are in flight while the server works on them (on another core).

A mail accepted but not yet recorded (for the few milliseconds until the service's loop
is free) is not read again (``outbox_due``'s ``skip``); killed in between, the service
sends it again on the next start with the same Message-ID, as after a crash while
sending (docs/mail-service.md, "Crash safety").
"""

from __future__ import annotations

import asyncio
import collections
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from ...store import Store, StoreBusy
from ...store.db import connect
from ..clock import now, seconds_until
from ..config import MailConfig
from .smtp import BATCH, Delivery, Transport, record

log = logging.getLogger("pbem.mail.smtp")
POLL_OUTBOX = 30.0  # also look for mail queued by other processes (pbem inbox retry)
ANSWER_WAIT = 20.0  # the longest the poller waits for the answers to a mail to be sent
#: the most mails accepted by the server and not yet recorded: the thread waits for the
#: service's loop beyond them (killed, the service sends at most these again)
MAX_UNRECORDED = 4
#: what the thread reports: a mail's outcome, or the end of a sending round (its number)
Report = tuple[dict[str, Any], Delivery] | int


def database_file(store: Store) -> str:
    """The file of the store's main database ('' for one in memory)."""
    for _, name, file in store.conn.execute("PRAGMA database_list"):
        if name == "main":
            return str(file or "")
    return ""


class SendThread:
    """The sender of ``serve`` and ``poll_once``: ``run()`` in the service's loop starts
    the thread and records what it reports until ``stop`` is set; ``wake`` starts a new
    sending round; ``answered()`` (after each inbound mail) and ``settled()`` wait for
    rounds to end."""

    def __init__(self, store: Store, config: MailConfig, wake: asyncio.Event,
                 stop: asyncio.Event) -> None:
        self.store = store
        self.config = config
        self.wake = wake
        self.stop = stop
        self.path = database_file(store)
        if not self.path:
            raise ValueError("the sender thread needs a database file")
        self.started = 0  # sending rounds begun (written by the thread)
        self.finished = 0  # rounds ended and their mails recorded (the service's loop)
        self._changed = asyncio.Condition()
        self._previous: set[int] = set()  # the last inbound mail's answers (outbox ids)
        #: the highest outbox id answered() has looked at (the answers come after it)
        self._seen = store.outbox_queued_since(0, "")[1]
        self._outstanding: set[int] = set()  # answers the poller may wait for, unrecorded
        self._reports: queue.SimpleQueue[Report] = queue.SimpleQueue()
        #: reported, not yet recorded: a mail's outcome, or the end of a round (its number)
        self._unrecorded: collections.deque[Report] = collections.deque()
        self._in_flight: set[int] = set()  # handed to the server, not yet recorded
        self._lock = threading.Lock()
        self._service: asyncio.AbstractEventLoop | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the thread's
        self._thread_wake: asyncio.Event | None = None
        self._thread_stop: asyncio.Event | None = None
        self._thread_recorded: asyncio.Event | None = None  # set when a mail is recorded
        self.error: BaseException | None = None

    # -- in the service's loop -------------------------------------------------

    async def run(self) -> None:
        """Start the thread; pass ``wake`` on to it and record what it reports, until
        ``stop``; then stop the thread after the mail in hand and record the rest."""
        self._service = asyncio.get_running_loop()
        ready = threading.Event()
        thread = threading.Thread(target=self._main, args=(ready,), name="pbem-sender",
                                  daemon=True)
        thread.start()
        await asyncio.to_thread(ready.wait)
        try:
            while not self.stop.is_set() and thread.is_alive():
                await wait_any(self.wake, self.stop, 1.0)  # 1 s: to notice a failed thread
                if self.wake.is_set():
                    self.wake.clear()
                    self._poke()
        finally:
            self._tell_thread(self._thread_stop)
            await asyncio.to_thread(thread.join)
            self._record_reports()
        if self.error is not None:
            raise self.error

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
        """Wake the thread; the round that sends what is due now."""
        needed = self.started + 1
        self._poke()
        return needed

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
        self._tell_thread(self._thread_wake)

    def _tell_thread(self, event: asyncio.Event | None) -> None:
        """Set one of the thread's events (from the service's loop)."""
        loop = self._loop
        if loop is None or event is None:
            return
        try:
            loop.call_soon_threadsafe(event.set)
        except RuntimeError:  # the thread's loop has ended
            pass

    def _record_reports(self) -> None:
        """Record the outcomes the thread reported (and end its rounds after them): the
        mails reported before the next round's end in one transaction, which waits for
        the disk only when one of them was not accepted (a mail marked sent may be lost
        to a power cut: it is sent again, see ``outbox_mark_sent``)."""
        while True:
            try:
                self._unrecorded.append(self._reports.get_nowait())
            except queue.Empty:
                break
        while self._unrecorded:
            head = self._unrecorded[0]
            if isinstance(head, int):
                self._unrecorded.popleft()
                self._round_end(head)
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
            recorded = {row["id"] for row, _ in mails}
            with self._lock:
                self._in_flight -= recorded
            self._outstanding -= recorded
            self._notify()
            self._tell_thread(self._thread_recorded)
            if any(outcome != "sent" for outcome in outcomes):
                self._poke()  # a later attempt, or a report to the referee, is due

    def _round_end(self, number: int) -> None:
        self.finished = max(self.finished, number)
        self._notify()

    def _notify(self) -> None:
        """Wake the waits on rounds and answers (from a callback of the service's loop)."""

        async def notify() -> None:
            async with self._changed:
                self._changed.notify_all()

        asyncio.ensure_future(notify())

    # -- in the thread ---------------------------------------------------------

    def _main(self, ready: threading.Event) -> None:
        try:
            asyncio.run(self._rounds(ready))
        except BaseException as exc:  # a bug: the service stops and says so
            log.exception("the sender thread failed")
            self.error = exc
            ready.set()
            self._report(0)

    async def _rounds(self, ready: threading.Event) -> None:
        self._loop = asyncio.get_running_loop()
        self._thread_wake, self._thread_stop = asyncio.Event(), asyncio.Event()
        self._thread_recorded = asyncio.Event()
        self._thread_wake.set()  # send what is due at once
        reader = Store(connect(self.path))
        transport = Transport(self.config)
        ready.set()
        try:
            while not self._thread_stop.is_set():
                self._thread_wake.clear()
                self.started += 1
                try:
                    await self._round(reader, transport)
                finally:
                    self._report(self.started)
                with self._lock:
                    skip = set(self._in_flight)
                due = reader.outbox_next_due(skip)
                timeout = POLL_OUTBOX if due is None else \
                    min(max(seconds_until(due, now()), 0.05), POLL_OUTBOX)
                await wait_any(self._thread_wake, self._thread_stop, timeout)
        finally:
            await transport.close()
            reader.close()

    async def _round(self, reader: Store, transport: Transport) -> None:
        """Send what is due now, BATCH at a time, until the thread is stopped."""
        assert self._thread_stop is not None
        moment = now()
        while True:
            with self._lock:
                skip = set(self._in_flight)
            batch = reader.outbox_due(moment, BATCH, skip)
            for row in batch:
                await self._room()
                if self._thread_stop.is_set():
                    return
                delivery = await transport.deliver(row)
                with self._lock:
                    self._in_flight.add(row["id"])
                self._report((row, delivery))
            if len(batch) < BATCH:
                return

    async def _room(self) -> None:
        """Wait while MAX_UNRECORDED mails are accepted and not yet recorded (or until
        the thread is stopped)."""
        assert self._thread_recorded is not None and self._thread_stop is not None
        while not self._thread_stop.is_set():
            self._thread_recorded.clear()
            with self._lock:
                if len(self._in_flight) < MAX_UNRECORDED:
                    return
            await wait_any(self._thread_recorded, self._thread_stop, None)

    def _report(self, report: Report) -> None:
        """Pass a mail's outcome (or the end of a round) to the service's loop."""
        self._reports.put(report)
        if self._service is not None:
            try:
                self._service.call_soon_threadsafe(self._record_reports)
            except RuntimeError:  # the service's loop has ended: run() records the rest
                pass


async def wait_any(wake: asyncio.Event, stop: asyncio.Event, timeout: float | None) -> None:
    tasks = {asyncio.ensure_future(wake.wait()), asyncio.ensure_future(stop.wait())}
    try:
        await asyncio.wait(tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
