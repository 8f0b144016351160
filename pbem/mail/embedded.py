"""Mail servers on loopback for the demo, the tests and the benchmark.

- ``EmbeddedImap``: pymap's in-memory IMAP server in a thread of this process,
  one mailbox (the service's).
- ``MailSink``: an aiosmtpd SMTP server that plays the mail system: mail for the
  service's address (and its plus-addresses) is delivered into the IMAP
  mailbox, with the ``Delivered-To`` and ``Return-Path`` headers a real
  delivery adds; mail for anybody else is kept in memory, per address, where
  players (or tests) read it. It can answer with an error code on demand.

Nothing here is used by the service itself.
"""

from __future__ import annotations

import argparse
import asyncio
import imaplib
import socket
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message
from email.policy import default as default_policy
from functools import cached_property
from typing import Any, Protocol


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ImapServer(Protocol):
    host: str
    port: int
    user: str
    password: str

    def stop(self) -> None: ...


class EmbeddedImap:
    """pymap (dict backend) serving one user on 127.0.0.1, in a background thread."""

    def __init__(self, user: str = "pbem", password: str = "pbem-secret") -> None:
        self.host = "127.0.0.1"
        self.port = free_port()
        self.user = user
        self.password = password
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="pymap", daemon=True)

    def start(self) -> EmbeddedImap:
        self._thread.start()
        self._ready.wait(30)
        if self._error is not None:
            raise RuntimeError(f"pymap did not start: {self._error!r}") from self._error
        if not self._ready.is_set():
            raise RuntimeError("pymap did not start within 30 s")
        return self

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as exc:  # noqa: BLE001 - reported by start()
            self._error = exc
            self._ready.set()

    async def _serve(self) -> None:
        from pymap.backend import backends
        from pymap.service import services

        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers(dest="backend")
        for name, backend_type in backends.items():
            sub_parser = backend_type.add_subparser(name, sub)
            sub_parser.set_defaults(backend_type=backend_type)
        imap_service = services["imap"]
        imap_service.add_arguments(parser)
        parser.set_defaults(skip_services=[], passlib_cfg=None, debug=False)
        args = parser.parse_args(["--host", self.host, "--port", str(self.port), "--no-tls",
                                  "dict", "--demo-user", self.user,
                                  "--demo-password", self.password])
        backend, config = await args.backend_type.init(args)
        config.apply_context()
        self._loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        async with AsyncExitStack() as stack:
            await backend.start(stack)
            await imap_service(backend, config).start(stack)
            self._ready.set()
            await self._stopped.wait()

    def stop(self) -> None:
        """Stop the server (again: nothing happens)."""
        loop, self._loop = self._loop, None
        if loop is not None and self._stopped is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._stopped.set)
        if self._thread.is_alive():
            self._thread.join(10)


# -- the SMTP side ---------------------------------------------------------------------------------


@dataclass
class Delivered:
    """One mail as the sink received it."""

    sender: str
    recipient: str
    raw: bytes
    when: float = field(default_factory=time.monotonic)

    @cached_property
    def message(self) -> Message:
        return message_from_bytes(self.raw, policy=default_policy)

    @property
    def message_id(self) -> str:
        return str(self.message.get("Message-ID", ""))

    @property
    def subject(self) -> str:
        return str(self.message.get("Subject", ""))

    @cached_property
    def body(self) -> str:
        msg = self.message
        body = msg.get_body(("plain",)) if hasattr(msg, "get_body") else None
        return body.get_content() if body is not None else ""  # type: ignore[union-attr]

    def text(self) -> str:
        """The text/plain part."""
        return self.body


class MailSink:
    """aiosmtpd on 127.0.0.1 delivering service mail into IMAP and keeping the rest.

    ``service_local`` is the local part of the service address (``pbem``);
    ``imap`` the server holding its mailbox. ``fail_codes`` is a queue of SMTP
    replies (``"421 ..."``, ``"550 ..."``) to give instead of accepting the next
    messages; ``hold``, when set, is called with each mail before it is answered (a
    test keeps the answer back until something has happened). Waiting:
    ``wait_for(predicate)`` blocks on a condition variable until a delivered mail
    satisfies it.
    """

    def __init__(self, imap: ImapServer | None, service_local: str = "pbem",
                 mailbox: str = "INBOX", tls: ssl.SSLContext | None = None,
                 starttls: ssl.SSLContext | None = None) -> None:
        self.imap = imap
        self.service_local = service_local
        self.mailbox = mailbox
        self.host = "127.0.0.1"
        self.port = free_port()
        self.fail_codes: deque[str] = deque()
        self.delivered: list[Delivered] = []
        self.to_service: list[Delivered] = []
        self.refused: list[tuple[str, str]] = []  # (code line, Message-ID)
        self.on_service_mail: Callable[[Delivered], None] | None = None
        self.hold: Callable[[bytes], None] | None = None
        self._cond = threading.Condition()
        self._imap_conn: imaplib.IMAP4 | None = None
        self._controller: Any = None
        self._tls = tls  # implicit TLS on connect
        self._starttls = starttls  # offered with STARTTLS

    def start(self) -> MailSink:
        from aiosmtpd.controller import Controller

        self._controller = Controller(_Handler(self), hostname=self.host, port=self.port,
                                      ssl_context=self._tls, tls_context=self._starttls)
        self._controller.start()
        return self

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
        if self._imap_conn is not None:
            try:
                self._imap_conn.logout()
            except (imaplib.IMAP4.error, OSError):
                pass

    # delivery (runs in the aiosmtpd thread)

    def is_service(self, address: str) -> bool:
        local = address.lower().split("@", 1)[0]
        return local == self.service_local or local.startswith(self.service_local + "+")

    def deliver(self, sender: str, recipients: list[str], raw: bytes) -> str:
        if self.hold is not None:
            self.hold(raw)
        if self.fail_codes:
            code = self.fail_codes.popleft()
            mid = str(message_from_bytes(raw).get("Message-ID", ""))
            with self._cond:
                self.refused.append((code, mid))
                self._cond.notify_all()
            return code
        for recipient in recipients:
            item = Delivered(sender, recipient.lower(), raw)
            if self.is_service(recipient):
                self.append_to_service(sender, recipient, raw)
            with self._cond:
                (self.to_service if self.is_service(recipient) else self.delivered).append(item)
                self._cond.notify_all()
        return "250 OK delivered"

    def append_to_service(self, sender: str, recipient: str, raw: bytes) -> None:
        """What a delivery agent does: trace headers on top, into the mailbox."""
        if self.imap is None:
            return
        trace = f"Return-Path: <{sender}>\r\nDelivered-To: {recipient}\r\n".encode()
        conn = self._imap()
        status, _ = conn.append(self.mailbox, "", imaplib.Time2Internaldate(time.time()),
                                trace + raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
        if status != "OK":
            raise RuntimeError(f"IMAP APPEND failed: {status}")

    def _imap(self) -> imaplib.IMAP4:
        assert self.imap is not None
        if self._imap_conn is None:
            conn = imaplib.IMAP4(self.imap.host, self.imap.port)
            conn.login(self.imap.user, self.imap.password)
            self._imap_conn = conn
        return self._imap_conn

    # reading

    def mails_to(self, address: str) -> list[Delivered]:
        with self._cond:
            return [d for d in self.delivered if d.recipient == address.lower()]

    def wait_for(self, predicate: Callable[[list[Delivered]], Any],
                 timeout: float = 120.0) -> Any:
        """Block until ``predicate(delivered)`` is truthy; return its value. The timeout
        only ends a test that would otherwise hang: on a loaded machine ``pbem serve``
        sends about one mail per mail it reads while it has a backlog (docs/security.md,
        the soak's finding), so mails may take long to come."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                value = predicate(self.delivered)
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no such mail within {timeout} s "
                                       f"({len(self.delivered)} delivered)")
                self._cond.wait(left)

    def wait_refused(self, count: int, timeout: float = 30.0) -> list[tuple[str, str]]:
        deadline = time.monotonic() + timeout
        with self._cond:
            while len(self.refused) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"only {len(self.refused)} refusals within {timeout} s")
                self._cond.wait(left)
            return list(self.refused)


class _Handler:
    def __init__(self, sink: MailSink) -> None:
        self.sink = sink

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        data = envelope.original_content or envelope.content
        raw = data if isinstance(data, bytes) else str(data).encode("utf-8")
        return self.sink.deliver(envelope.mail_from or "", list(envelope.rcpt_tos), raw)
