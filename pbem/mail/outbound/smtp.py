"""The outbox sender: at least once, with the stable Message-ID of each mail.

A 4xx answer or a broken connection is retried with exponential backoff; a 5xx
answer (or too many attempts) marks the mail failed and tells the referee. The SMTP
exchanges themselves are in ``transport``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from email import message_from_bytes
from typing import Any

from ...store import Store
from ..clock import later, now
from ..config import MailConfig
from .compose import Outgoing, queue_mail, subject_for
from .transport import BATCH, Delivery, Transport

log = logging.getLogger("pbem.mail.smtp")


@dataclass
class SendReport:
    sent: int = 0
    retry: int = 0
    failed: int = 0


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
    raw = row["raw"] if "raw" in row else store.outbox_get(row["id"])["raw"]
    failed = message_from_bytes(bytes(raw))
    out = Outgoing(
        recipient=referee, template="referee-delivery-failed.txt",
        values={"title": title, "game": game_id or "-", "recipient": row["recipient"],
                "failed_subject": str(failed.get("Subject", row["subject"]))[:70],
                "error": error[:200], "service_name": config.name},
        subject=subject_for(title, game_id or 0, f"Mail to {row['recipient']} failed"),
        purpose="ref", game_id=game_id)
    queue_mail(store, config, out, now())
