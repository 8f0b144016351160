"""The service process: the IMAP poller and the games' timers in one asyncio loop, the
outbox's sender in a process of its own beside it (``outbound/sendproc.py``: the mails
go out while the next message is processed; every write stays in this loop).

``serve(store, config)`` runs until SIGTERM or SIGINT (the message in hand is
finished, the rest left for the next start). ``poll_once`` processes what is
waiting and returns. Each message: fetch, store raw, process (one
transaction), then mark done on the server; see docs/mail-service.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ..moderation.timecalc import parse_moment
from ..store import Store, StoreBusy
from .clock import now
from .config import MailConfig
from .faults import fault
from .inbound.imap import Mailbox, MailboxError
from .outbound.sendchild import wait_any
from .outbound.sendproc import SendProcess
from .outbound.smtp import Sender
from .outbound.welcome import reissue_legacy_keys
from .processing.process import HEAD_BYTES, process_inbox, store_message
from .timers import fire_due, next_due

log = logging.getLogger("pbem.mail")
MAX_BACKOFF = 300.0
POLL_TIMERS = 60.0  # also look for deadlines set by other processes (pbem act)


@dataclass
class PollReport:
    seen: int = 0
    processed: int = 0
    ignored: int = 0
    dead: int = 0
    again: int = 0  # already handled before (flagged now)


class Poller:
    def __init__(self, store: Store, config: MailConfig, wake: asyncio.Event | None = None,
                 stop: asyncio.Event | None = None,
                 timers: asyncio.Event | None = None,
                 answered: Callable[[], Awaitable[None]] | None = None) -> None:
        self.store = store
        self.config = config
        self.wake = wake or asyncio.Event()
        self.stop = stop or asyncio.Event()
        self.timers = timers  # woken after each message: it may start or end a deadline
        #: awaited after each message (``serve``, ``poll_once``: the sending process's
        #: ``answered``, which sends its answers while the next message is processed
        #: and waits for those of the message before). Without a wait a backlog of
        #: inbound mail ran far ahead of its answers (the soak).
        self.answered = answered
        self.connected = asyncio.Event()  # set while a connection is open (tests wait on it)

    async def drain(self, mailbox: Mailbox) -> PollReport:
        """Handle every waiting message, oldest first, until done or stopped."""
        report = PollReport()
        uids = await mailbox.pending()
        already = self.store.inbox_processed_uids(mailbox.name, mailbox.uidvalidity, uids)
        for uid in uids:
            if self.stop.is_set():
                break
            report.seen += 1
            if uid in already:
                await mailbox.mark_done(uid)
                report.again += 1
                continue
            status = await self.handle(mailbox, uid)
            if self.answered is not None:
                await self.answered()
            if hasattr(report, status):
                setattr(report, status, getattr(report, status) + 1)
        return report

    async def handle(self, mailbox: Mailbox, uid: int) -> str:
        limit = self.config.limits.max_mail_bytes
        size = await mailbox.size(uid)
        # a mail over the limit: only its start is fetched and kept (HEAD_BYTES)
        raw = await mailbox.fetch(uid, HEAD_BYTES if size is not None and size > limit else None)
        if raw is None:
            return "again"
        fault("after-fetch")
        inbox_id, _ = store_message(self.store, mailbox.name, mailbox.uidvalidity, uid, raw,
                                    now(), size=max(size or 0, len(raw)), max_bytes=limit)
        fault("after-store")
        try:
            outcome = process_inbox(self.store, self.config, inbox_id, now())
        except StoreBusy:
            log.warning("database busy; message UID %s stays for the next round", uid)
            return "again"
        fault("after-commit")
        await mailbox.mark_done(uid)
        self.wake.set()
        if self.timers is not None:
            self.timers.set()
        log.info("UID %s: %s %s", uid, outcome.status, outcome.note[:120])
        return "again" if outcome.note == "already handled" else outcome.status

    async def run(self) -> None:
        """Poll until stopped, reconnecting with backoff after any failure. A stop ends
        whatever is awaited at once (connecting, waiting for news, a slow answer): the
        processing of a message is never interrupted (it awaits nothing), and a message
        processed but not yet marked done is only marked on the next start."""
        new_keys(self.store, self.config)
        backoff = 1.0
        while not self.stop.is_set():
            mailbox = Mailbox(self.config.imap, self.config.imap.secret())
            try:
                if await _unless_stopped(self._session(mailbox), self.stop):
                    backoff = 1.0
            except MailboxError as exc:
                log.warning("IMAP: %s; reconnecting in %.0f s", exc, backoff)
                await _sleep_unless(self.stop, backoff)
                backoff = min(backoff * 2, MAX_BACKOFF)
            finally:
                self.connected.clear()
                await mailbox.close()

    async def _session(self, mailbox: Mailbox) -> bool:
        """One connection: open, then drain and wait until stopped; True once open."""
        await mailbox.open()
        self.connected.set()
        while not self.stop.is_set():
            report = await self.drain(mailbox)
            if self.stop.is_set():
                break
            if report.seen > report.again:  # more may have come while those were handled
                continue  # and answered: IDLE tells only of mail that comes after it starts
            await mailbox.wait(self.stop)
        return True


async def _unless_stopped(work: Awaitable[bool], stop: asyncio.Event) -> bool:
    """``work``'s result, or False when ``stop`` is set first (``work`` is cancelled)."""
    task = asyncio.ensure_future(work)
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({task, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
    if not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return False
    return task.result()


class TimerLoop:
    """The games' timers (pbem.mail.timers): fired when due, then the sender is woken.
    It sleeps until the next due timer (at most ``POLL_TIMERS``), or until the poller
    wakes it after a message."""

    def __init__(self, store: Store, config: MailConfig, wake: asyncio.Event,
                 send: asyncio.Event, stop: asyncio.Event) -> None:
        self.store = store
        self.config = config
        self.wake = wake
        self.send = send
        self.stop = stop

    async def run(self) -> None:
        while not self.stop.is_set():
            self.wake.clear()
            try:
                fired = fire_due(self.store, self.config, now())
            except StoreBusy:
                log.warning("database busy; the timers wait for the next round")
                fired = []
            if fired:
                self.send.set()
            due = next_due(self.store)
            timeout = POLL_TIMERS if due is None else \
                min(max((due - parse_moment(now())).total_seconds(), 0.05), POLL_TIMERS)
            await wait_any(self.wake, self.stop, timeout)


def new_keys(store: Store, config: MailConfig) -> None:
    """Players of a database written before keyed keys get new keys by mail, before
    any mail is read (their old keys and reply codes no longer work)."""
    try:
        reissue_legacy_keys(store, config, now())
    except StoreBusy:
        log.warning("database busy; new keys are issued at the next start")


async def _sleep_unless(stop: asyncio.Event, seconds: float) -> None:
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        pass


def _on_signals(stop: asyncio.Event) -> list[signal.Signals]:
    """SIGTERM and SIGINT set ``stop`` (where the loop can handle signals)."""
    loop = asyncio.get_running_loop()
    handled = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
            handled.append(sig)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread
            pass
    return handled


async def serve(store: Store, config: MailConfig, stop: asyncio.Event | None = None,
                ready: asyncio.Event | None = None) -> None:
    """Run the poller and the sender until SIGTERM/SIGINT (or ``stop``)."""
    stop = stop or asyncio.Event()
    wake = asyncio.Event()
    loop = asyncio.get_running_loop()
    handled = _on_signals(stop)
    wake.set()  # send what is due at once
    timers_wake = asyncio.Event()
    sender = SendProcess(store, config, wake, stop)
    poller = Poller(store, config, wake, stop, timers_wake, answered=sender.answered)
    timers = TimerLoop(store, config, timers_wake, wake, stop)
    if ready is not None:
        ready.set()
    log.info("serving %s (IMAP %s:%s, SMTP %s:%s)", config.address, config.imap.host,
             config.imap.port, config.smtp.host, config.smtp.port)
    try:
        await asyncio.gather(poller.run(), sender.run(), timers.run())
    finally:
        for sig in handled:
            loop.remove_signal_handler(sig)
    log.info("stopped")


async def poll_forever(store: Store, config: MailConfig) -> None:
    """Only the poller (``pbem poll``), until SIGTERM/SIGINT."""
    stop = asyncio.Event()
    handled = _on_signals(stop)
    try:
        await Poller(store, config, stop=stop).run()
    finally:
        for sig in handled:
            asyncio.get_running_loop().remove_signal_handler(sig)


async def poll_once(store: Store, config: MailConfig, send: bool = True) -> PollReport:
    """Process what is waiting in the mailbox, then send what is due; return. The mails
    go out while the next messages are processed (``SendProcess``), as in ``serve``."""
    poller = Poller(store, config)
    new_keys(store, config)
    stop = asyncio.Event()
    sender = SendProcess(store, config, asyncio.Event(), stop) if send else None
    sending = asyncio.ensure_future(sender.run()) if sender is not None else None
    mailbox = Mailbox(config.imap, config.imap.secret())
    try:
        if sender is not None:
            poller.answered = sender.answered
        await mailbox.open()
        report = await poller.drain(mailbox)
        await mailbox.close()
        if sender is not None:
            await sender.settled()
    finally:
        await mailbox.close()
        stop.set()
        if sending is not None:
            await sending
    return report


async def send_once(store: Store, config: MailConfig, at: str | None = None) -> object:
    """Send what is due now (or at ``at``, when that is later: ``pbem tick --now``)."""
    sender = Sender(store, config)
    try:
        return await sender.send_due(at=at)
    finally:
        await sender.close()
