"""The service's mailbox over IMAP (aioimaplib): fetch, mark done, wait for news.

``Mailbox`` is one connection: ``open()`` logs in and selects the mailbox,
``pending()`` lists the UIDs not yet marked done, ``fetch(uid)`` returns the raw
message, ``mark_done(uid)`` flags it (or moves it to a folder), ``wait()`` waits
for new mail with IDLE (re-issued every ``idle_seconds``) or by polling. Any
failure raises ``MailboxError``; the poller reconnects.
"""

from __future__ import annotations

import asyncio
import logging
import re
import ssl
from collections.abc import Awaitable
from typing import Any, TypeVar

import aioimaplib

from ..config import ImapConfig

log = logging.getLogger("pbem.mail.imap")
T = TypeVar("T")

_UIDVALIDITY = re.compile(rb"UIDVALIDITY (\d+)")
_PERMANENTFLAGS = re.compile(rb"PERMANENTFLAGS \(([^)]*)\)")
_EXISTS = re.compile(rb"^\d+ EXISTS")
_SIZE = re.compile(rb"RFC822\.SIZE (\d+)", re.IGNORECASE)
SYSTEM_FLAG_SEARCH = {"\\seen": "UNSEEN", "\\flagged": "UNFLAGGED", "\\answered": "UNANSWERED"}


class MailboxError(Exception):
    """The IMAP server refused something, or the connection broke."""


class Mailbox:
    def __init__(self, config: ImapConfig, password: str) -> None:
        self.config = config
        self._password = password
        self.client: aioimaplib.IMAP4 | None = None
        self.uidvalidity = 0
        self.flag = config.processed_flag
        self.capabilities: set[str] = set()
        self.exists = 0
        #: the server said it holds more messages (an untagged EXISTS) since the last search
        self.announced = False
        self._lost = asyncio.Event()
        self._greeted = False  # the server said hello: a LOGOUT may be sent on close

    @property
    def name(self) -> str:
        return self.config.mailbox

    # -- connecting ---------------------------------------------------------------------------

    async def open(self) -> None:
        cfg = self.config
        self._lost = asyncio.Event()
        try:
            if cfg.security == "tls":
                self.client = aioimaplib.IMAP4_SSL(host=cfg.host, port=cfg.port,
                                                   timeout=cfg.timeout,
                                                   ssl_context=cfg.ssl_context())
            else:
                self.client = aioimaplib.IMAP4(host=cfg.host, port=cfg.port, timeout=cfg.timeout,
                                               conn_lost_cb=self._connection_lost)
            await self.client.wait_hello_from_server()
            self._greeted = True
        except (TimeoutError, OSError, aioimaplib.Abort) as exc:
            raise MailboxError(f"cannot connect to {cfg.host}:{cfg.port}: {exc!r}") from exc
        if cfg.security == "tls":
            self.client.protocol.conn_lost_cb = self._connection_lost
        self._note_announcements()
        if cfg.security == "starttls":
            await self._starttls()
        response = await self._call(self.client.login(cfg.user, self._password))
        if response.result != "OK":
            raise MailboxError(f"login as {cfg.user} refused: {_text(response)}")
        await self._call(self.client.protocol.capability())
        self.capabilities = {c.upper() for c in self.client.protocol.capabilities}
        await self.select()

    def _note_announcements(self) -> None:
        """Set ``announced`` on every untagged EXISTS, whatever command it comes with.
        aioimaplib drops those that come with a command other than IDLE or NOOP: a mail
        that arrives while the server answers a SEARCH is announced in that answer
        (pymap does so) and not found by it, and then not announced again by IDLE, so
        it waited for the IDLE refresh (``idle_seconds``)."""
        assert self.client is not None
        protocol = self.client.protocol
        untagged = protocol._untagged_response

        def noted(line: bytes) -> Any:
            if _EXISTS.match(line.removeprefix(b"* ")):
                self.announced = True
            return untagged(line)

        protocol._untagged_response = noted

    def _connection_lost(self, exc: Exception | None) -> None:
        self._lost.set()

    async def _starttls(self) -> None:
        assert self.client is not None
        proto = self.client.protocol
        if "STARTTLS" not in {c.upper() for c in proto.capabilities}:
            raise MailboxError(f"{self.config.host} does not offer STARTTLS")
        command = aioimaplib.Command("STARTTLS", proto.new_tag(), loop=proto.loop)
        response = await self._call(proto.execute(command))
        if response.result != "OK":
            raise MailboxError(f"STARTTLS refused: {_text(response)}")
        loop = asyncio.get_running_loop()
        try:
            proto.transport = await loop.start_tls(proto.transport, proto,
                                                   self.config.ssl_context(),
                                                   server_hostname=self.config.host)
        except (OSError, ssl.SSLError) as exc:
            self._lost.set()  # the connection is unusable: no LOGOUT on close
            raise MailboxError(f"TLS with {self.config.host} failed: {exc}") from exc
        await self._call(proto.capability())

    async def select(self) -> None:
        assert self.client is not None
        response = await self._call(self.client.select(self.name))
        if response.result != "OK":
            raise MailboxError(f"cannot select {self.name}: {_text(response)}")
        lines = b"\n".join(bytes(x) for x in response.lines)
        validity = _UIDVALIDITY.search(lines)
        self.uidvalidity = int(validity.group(1)) if validity else 0
        exists = re.search(rb"(\d+) EXISTS", lines)
        self.exists = int(exists.group(1)) if exists else 0
        permanent = _PERMANENTFLAGS.search(lines)
        allowed = permanent.group(1).decode().split() if permanent else []
        self.flag = self.config.processed_flag
        if self.config.move_to:
            await self._call(self.client.create(self.config.move_to))  # NO if it exists
        if not self.flag.startswith("\\") and "\\*" not in allowed:
            log.warning("%s keeps no keywords; marking processed mail \\Seen instead of %s",
                        self.config.host, self.flag)
            self.flag = "\\Seen"

    async def close(self) -> None:
        client, self.client = self.client, None
        if client is None:
            return
        try:
            if self._greeted and not self._lost.is_set():
                if client.has_pending_idle():
                    client.idle_done()
                await asyncio.wait_for(client.logout(), 5)
        except Exception:  # noqa: BLE001 - closing a broken connection may fail any way
            pass
        transport = getattr(client.protocol, "transport", None)
        if transport is not None:
            transport.close()

    async def _call(self, awaitable: Awaitable[T]) -> T:
        """Await an IMAP command, failing fast when the connection drops."""
        task = asyncio.ensure_future(awaitable)
        lost = asyncio.ensure_future(self._lost.wait())
        try:
            done, _ = await asyncio.wait({task, lost}, timeout=self.config.timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            lost.cancel()
        if task in done:
            try:
                return task.result()
            except (TimeoutError, OSError, aioimaplib.Abort, aioimaplib.CommandTimeout) as exc:
                raise MailboxError(f"IMAP command failed: {exc!r}") from exc
        task.cancel()
        if self._lost.is_set():
            raise MailboxError("the IMAP connection was lost")
        raise MailboxError("the IMAP server did not answer in time")

    # -- messages -------------------------------------------------------------------------------

    def _search_criteria(self) -> list[str]:
        if self.config.move_to:
            return ["UNDELETED"]
        flag = self.flag.lower()
        if flag in SYSTEM_FLAG_SEARCH:
            return [SYSTEM_FLAG_SEARCH[flag]]
        return ["UNKEYWORD", self.flag]

    async def pending(self) -> list[int]:
        """UIDs of the messages not yet marked done, oldest first."""
        assert self.client is not None
        self.announced = False
        response = await self._call(self.client.uid_search(*self._search_criteria(),
                                                           charset=None))
        if response.result != "OK":
            raise MailboxError(f"search refused: {_text(response)}")
        uids: list[int] = []
        for line in response.lines[:-1]:
            uids.extend(int(x) for x in bytes(line).split() if x.isdigit())
        return sorted(set(uids))

    async def size(self, uid: int) -> int | None:
        """The message's size in bytes (RFC822.SIZE), or None when it is gone."""
        assert self.client is not None
        response = await self._call(self.client.uid("fetch", str(uid), "(UID RFC822.SIZE)"))
        if response.result != "OK":
            raise MailboxError(f"fetch of UID {uid} refused: {_text(response)}")
        for item in response.lines:
            found = _SIZE.search(bytes(item)) if isinstance(item, bytes | bytearray) else None
            if found:
                return int(found.group(1))
        return None

    async def fetch(self, uid: int, first: int | None = None) -> bytes | None:
        """The raw message (only its ``first`` bytes when given), or None when it is
        gone."""
        assert self.client is not None
        part = "BODY.PEEK[]" if first is None else f"BODY.PEEK[]<0.{first}>"
        response = await self._call(self.client.uid("fetch", str(uid), f"(UID {part})"))
        if response.result != "OK":
            raise MailboxError(f"fetch of UID {uid} refused: {_text(response)}")
        for item in response.lines:
            if isinstance(item, bytearray):
                return bytes(item)
        return None

    async def mark_done(self, uid: int) -> None:
        assert self.client is not None
        if self.config.move_to:
            await self._move(uid)
            return
        response = await self._call(self.client.uid("store", str(uid), "+FLAGS.SILENT",
                                                     f"({self.flag})"))
        if response.result != "OK":
            raise MailboxError(f"cannot flag UID {uid}: {_text(response)}")

    async def _move(self, uid: int) -> None:
        assert self.client is not None
        target = self.config.move_to
        if "MOVE" in self.capabilities:
            response = await self._call(self.client.uid("move", str(uid), target))
        else:
            response = await self._call(self.client.uid("copy", str(uid), target))
            if response.result == "OK":
                await self._call(self.client.uid("store", str(uid), "+FLAGS.SILENT",
                                                 "(\\Deleted)"))
                await self._call(self.client.expunge())
        if response.result != "OK":
            raise MailboxError(f"cannot move UID {uid} to {target}: {_text(response)}")

    # -- waiting ----------------------------------------------------------------------------------

    @property
    def can_idle(self) -> bool:
        return self.config.idle and "IDLE" in self.capabilities

    async def wait(self, stop: asyncio.Event) -> None:
        """Return when new mail may have arrived, when ``stop`` is set, or after the
        IDLE refresh / poll interval; at once when the server announced mail since the
        last search (it may have come after the search looked)."""
        if self.announced:
            return
        if self.can_idle:
            await self._idle(stop)
        else:
            await _wait_event(stop, self.config.poll_seconds)
            if not stop.is_set():
                assert self.client is not None
                await self._call(self.client.noop())

    async def _idle(self, stop: asyncio.Event) -> None:
        assert self.client is not None
        client = self.client
        idle = await self._call(client.idle_start(timeout=self.config.idle_seconds))
        push = asyncio.ensure_future(client.wait_server_push(self.config.idle_seconds + 30))
        stopping = asyncio.ensure_future(stop.wait())
        lost = asyncio.ensure_future(self._lost.wait())
        try:
            await asyncio.wait({push, stopping, lost}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (stopping, lost):
                task.cancel()
        if self._lost.is_set():
            push.cancel()
            raise MailboxError("the IMAP connection was lost while idling")
        if push.done() and not push.cancelled() and push.exception() is None:
            _log_push(push.result())
        else:
            push.cancel()
        if client.has_pending_idle():
            client.idle_done()
        await self._call(_finish(idle))


async def _finish(idle: Any) -> Any:
    return await idle


def _log_push(lines: Any) -> None:
    if isinstance(lines, list) and any(_EXISTS.match(bytes(x)) for x in lines
                                       if isinstance(x, bytes | bytearray)):
        log.debug("new mail announced")


async def _wait_event(event: asyncio.Event, seconds: float) -> None:
    try:
        await asyncio.wait_for(event.wait(), seconds)
    except TimeoutError:
        pass


def _text(response: Any) -> str:
    lines = getattr(response, "lines", [])
    return " ".join(bytes(x).decode("utf-8", "replace") for x in lines if
                    isinstance(x, bytes | bytearray))[:300]
