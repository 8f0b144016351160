"""The outbox sender (aiosmtplib): at least once, with the stable Message-ID of each mail.

A 4xx answer or a broken connection is retried with exponential backoff; a 5xx
answer (or too many attempts) marks the mail failed and tells the referee.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from email import message_from_bytes
from typing import Any

import aiosmtplib
from aiosmtplib import (
    SMTPDataError,
    SMTPRecipientRefused,
    SMTPRecipientsRefused,
    SMTPResponseException,
    SMTPServerDisconnected,
    SMTPStatus,
    SMTPTimeoutError,
)

from ...store import Store
from ..clock import later, now
from ..config import MailConfig
from ..faults import fault
from .compose import Outgoing, queue_mail, subject_for

log = logging.getLogger("pbem.mail.smtp")

_RETRYABLE = (aiosmtplib.SMTPServerDisconnected, aiosmtplib.SMTPConnectError,
              aiosmtplib.SMTPTimeoutError, aiosmtplib.SMTPConnectTimeoutError, OSError,
              TimeoutError)


#: mails read from the outbox at a time (each holds its whole mail, pictures included)
BATCH = 20


@dataclass
class SendReport:
    sent: int = 0
    retry: int = 0
    failed: int = 0


def smtp_client(config: MailConfig) -> aiosmtplib.SMTP:
    """A client for the configured server; the TLS context (the system's certificates
    read, some 50 ms) made only for a connection that uses it."""
    cfg = config.smtp
    return aiosmtplib.SMTP(hostname=cfg.host, port=cfg.port, timeout=cfg.timeout,
                           use_tls=cfg.security == "tls",
                           start_tls=True if cfg.security == "starttls" else False,
                           tls_context=cfg.ssl_context() if cfg.security != "plain" else None)


async def connect(config: MailConfig) -> aiosmtplib.SMTP:
    client = smtp_client(config)
    await client.connect()
    if config.smtp.user:
        await client.login(config.smtp.user, config.smtp.secret())
    return client


def on_the_wire(raw: bytes) -> bool:
    """True when ``raw`` is as DATA carries it: every line ends with CRLF (no lone CR or
    LF), the last one too, and none starts with a dot (which DATA doubles). Every mail
    pbem writes is (compose.wire_bytes)."""
    return (raw.endswith(b"\r\n") and not raw.startswith(b".") and b"\n." not in raw
            and raw.count(b"\r") == raw.count(b"\n") == raw.count(b"\r\n"))


async def send_mail(client: aiosmtplib.SMTP, sender: str, recipient: str, raw: bytes,
                    wire: bool = False) -> None:
    """``client.sendmail(sender, [recipient], raw)``: the same commands (MAIL with the
    size the server is told, RCPT, DATA; RSET after a refusal), the same bytes and the
    same exceptions; but a mail already as DATA carries it (``wire``: known as it was
    written, compose.Built; else ``on_the_wire`` looks, a quarter of a millisecond for
    80 KB) goes as it is, without aiosmtplib's three regular-expression passes over the
    whole mail (line ends for the size, line ends and dots for DATA: 2 ms of a mail of
    90 KB, most of what sending it costs pbem). Anything else, and the first mail of a
    connection (before EHLO), goes through ``sendmail``."""
    if client.is_ehlo_or_helo_needed or not (wire or on_the_wire(raw)):
        await client.sendmail(sender, [recipient], raw)
        return
    options = [f"size={len(raw)}"] if client.supports_extension("size") else []
    try:
        await client.mail(sender, options=options)
        try:
            await client.rcpt(recipient)
        except SMTPRecipientRefused as exc:
            raise SMTPRecipientsRefused([exc]) from None
        await _data(client, raw)
    except (SMTPResponseException, SMTPRecipientsRefused):
        with contextlib.suppress(ConnectionError, SMTPResponseException):
            await client.rset()  # the envelope reset for the next mail, as sendmail does
        raise


async def _data(client: aiosmtplib.SMTP, raw: bytes) -> None:
    """DATA, then ``raw`` (on the wire already) and the final dot, as
    aiosmtplib's ``data`` sends them."""
    start = await client.execute_command(b"DATA")
    if start.code != SMTPStatus.start_input:
        raise SMTPDataError(start.code, start.message)
    protocol = client.protocol
    if protocol is None:
        raise SMTPServerDisconnected("Connection lost")
    try:
        protocol.write(raw + b".\r\n")
        done = await protocol.read_response(timeout=client.timeout)
    except (SMTPServerDisconnected, SMTPTimeoutError):
        client.close()
        raise
    if done.code != SMTPStatus.completed:
        raise SMTPDataError(done.code, done.message)


@dataclass(frozen=True)
class Delivery:
    """What became of one attempt to hand a mail to the server: accepted (``code`` 250),
    answered with a refusal (``code`` 4xx or 5xx and its ``message``), or not handed over
    (``code`` None: the connection failed, ``message`` says how)."""

    code: int | None
    message: str = ""

    @property
    def accepted(self) -> bool:
        return self.code == SMTPStatus.completed


ACCEPTED = Delivery(SMTPStatus.completed)


class Transport:
    """The SMTP side of sending: one connection, opened when needed, and the exchanges
    of one mail. It writes nothing to the store (``record`` does)."""

    def __init__(self, config: MailConfig) -> None:
        self.config = config
        self.client: aiosmtplib.SMTP | None = None

    async def close(self) -> None:
        client, self.client = self.client, None
        if client is not None and client.is_connected:
            try:
                await client.quit()
            except aiosmtplib.SMTPException:
                client.close()

    async def deliver(self, row: dict[str, Any]) -> Delivery:
        """Hand the outbox row's mail to the server."""
        try:
            if self.client is None or not self.client.is_connected:
                self.client = await connect(self.config)
            await send_mail(self.client, self.config.address, row["recipient"],
                            bytes(row["raw"]), bool(row.get("wire")))
        except aiosmtplib.SMTPRecipientsRefused as exc:
            first = exc.recipients[0]
            return Delivery(first.code, first.message)
        except aiosmtplib.SMTPResponseException as exc:
            if exc.code in (421,):
                await self.close()
            return Delivery(exc.code, exc.message)
        except _RETRYABLE as exc:
            await self.close()
            return Delivery(None, f"connection: {exc!r}")
        fault("during-send")
        return ACCEPTED


class Sender:
    """Sends the due mails and records each outcome, in turn, on one store."""

    def __init__(self, store: Store, config: MailConfig) -> None:
        self.store = store
        self.config = config
        self.transport = Transport(config)

    async def close(self) -> None:
        await self.transport.close()

    async def send_due(self, stop: Any = None, at: str | None = None) -> SendReport:
        """Send every mail that is due now, or at ``at`` (until ``stop`` is set), BATCH
        at a time: a backlog of thousands of mails (after an outage) is never read into
        memory at once."""
        report = SendReport()
        moment = max(at or "", now())
        while True:
            batch = self.store.outbox_due(moment, BATCH)
            for row in batch:
                if stop is not None and stop.is_set():
                    return report
                outcome = await self.send_one(row)
                setattr(report, outcome, getattr(report, outcome) + 1)
            if len(batch) < BATCH:
                return report

    async def send_one(self, row: dict[str, Any]) -> str:
        return record(self.store, self.config, row, await self.transport.deliver(row))


def record(store: Store, config: MailConfig, row: dict[str, Any], delivery: Delivery) -> str:
    """Write what became of the outbox row's mail: sent (only once the server accepted
    it), to be retried, or failed (the referee told). Returns which."""
    if delivery.accepted:
        store.outbox_mark_sent(row["id"], now())
        log.info("sent %s to %s", row["message_id"], row["recipient"])
        return "sent"
    if delivery.code is None:
        return _retry(store, config, row, delivery.message)
    text = f"{delivery.code} {delivery.message}"
    if 400 <= delivery.code < 500:
        return _retry(store, config, row, text)
    _fail(store, config, row, text)
    return "failed"


def _retry(store: Store, config: MailConfig, row: dict[str, Any], error: str) -> str:
    limits = config.limits
    attempts = int(row["attempts"]) + 1
    if attempts >= limits.max_attempts:
        _fail(store, config, row, f"{error} (gave up after {attempts} attempts)")
        return "failed"
    delay = min(limits.retry_base_seconds * 2 ** (attempts - 1), limits.retry_max_seconds)
    store.outbox_mark_retry(row["id"], later(now(), delay), error)
    log.warning("will retry %s in %.0f s: %s", row["message_id"], delay, error)
    return "retry"


def _fail(store: Store, config: MailConfig, row: dict[str, Any], error: str) -> None:
    with store.transaction():
        store.outbox_mark_failed(row["id"], error)
        _report(store, config, row, error)
    log.error("gave up on %s to %s: %s", row["message_id"], row["recipient"], error)


def _report(store: Store, config: MailConfig, row: dict[str, Any], error: str) -> None:
    """Tell the referee of the game (else the service's referee), once per mail."""
    if ".ref." in row["message_id"]:
        return  # never report the failure of a report
    game_id = row["game_id"]
    referee = config.referee
    title = "pbem"
    if game_id:
        game = store.game(game_id)
        referee = game.get("referee") or referee
        title = game["title"]
    if not referee:
        return
    failed = message_from_bytes(bytes(row["raw"]))
    out = Outgoing(
        recipient=referee, template="referee-delivery-failed.txt",
        values={"title": title, "game": game_id or "-", "recipient": row["recipient"],
                "failed_subject": str(failed.get("Subject", row["subject"]))[:70],
                "error": error[:200], "service_name": config.name},
        subject=subject_for(title, game_id or 0, f"Mail to {row['recipient']} failed"),
        purpose="ref", game_id=game_id)
    queue_mail(store, config, out, now())
