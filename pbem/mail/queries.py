"""Reads of the store that the mail service needs and the store has no method for yet.

Each is one SELECT on the store's own tables (docs/store.md); they are here
until the store offers them (see docs/mail-service.md, "Wanted from the store").
"""

from __future__ import annotations

from typing import Any

from ..store import Store
from .compose import REPLY_PURPOSES


def outbox_by_message_id(store: Store, mid: str) -> dict[str, Any] | None:
    cursor = store.conn.execute(
        "SELECT id, game_id, recipient, status FROM outbox WHERE message_id = ?", [mid])
    row = cursor.fetchone()
    if row is None:
        return None
    return dict(zip(("id", "game_id", "recipient", "status"), row, strict=True))


def replies_since(store: Store, recipient: str, since: str) -> int:
    """How many replies (results, rejections) were queued to ``recipient`` since ``since``."""
    patterns = [f"<pbem.%.{purpose}.%" for purpose in REPLY_PURPOSES]
    cursor = store.conn.execute(
        "SELECT COUNT(*) FROM outbox WHERE lower(recipient) = ? AND created >= ? AND ("
        + " OR ".join("message_id LIKE ?" for _ in patterns) + ")",
        [recipient.lower(), since, *patterns])
    return int(cursor.fetchone()[0])


def outbox_list(store: Store, status: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
    """Outgoing mails, newest first, without their raw bytes."""
    columns = ("id", "message_id", "game_id", "recipient", "subject", "status", "attempts",
               "next_attempt", "last_error", "created", "sent")
    where = "WHERE status = ?" if status else ""
    params: list[Any] = [status] if status else []
    cursor = store.conn.execute(
        f"SELECT {', '.join(columns)} FROM outbox {where} ORDER BY id DESC LIMIT ?",
        [*params, limit])
    return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]


def next_due(store: Store) -> str | None:
    """The earliest next_attempt of a pending mail, or None."""
    row = store.conn.execute(
        "SELECT MIN(next_attempt) FROM outbox WHERE status = 'pending'").fetchone()
    return row[0] if row else None


def processed_uids(store: Store, mailbox: str, uidvalidity: int, uids: list[int]) -> set[int]:
    """Which of ``uids`` are stored and no longer 'new' (need only flagging on the server)."""
    if not uids:
        return set()
    done: set[int] = set()
    for start in range(0, len(uids), 500):
        chunk = uids[start:start + 500]
        cursor = store.conn.execute(
            f"SELECT uid FROM inbox WHERE mailbox = ? AND uidvalidity = ? AND status != 'new' "
            f"AND uid IN ({', '.join('?' for _ in chunk)})", [mailbox, uidvalidity, *chunk])
        done.update(int(r[0]) for r in cursor.fetchall())
    return done
