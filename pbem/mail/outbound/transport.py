"""The SMTP side of sending (aiosmtplib): one connection and the exchanges of one mail,
nothing written to the store. Used by the sending process (``sendchild``), ``pbem send``
and ``pbem tick`` (``smtp.Sender``), and ``pbem config check`` (``connect``); it imports
little, so that the sending process starts quickly.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
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

from ..config import MailConfig
from ..faults import fault

_RETRYABLE = (aiosmtplib.SMTPServerDisconnected, aiosmtplib.SMTPConnectError,
              aiosmtplib.SMTPTimeoutError, aiosmtplib.SMTPConnectTimeoutError, OSError,
              TimeoutError)
#: mails read from the outbox at a time (each holds its whole mail, pictures included)
BATCH = 20


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
