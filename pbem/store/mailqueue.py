"""The inbox (every inbound message, stored raw before processing) and the outbox
(every outgoing message, with a stable Message-ID, until it is sent).

Times are ISO 8601 strings given by the caller; use one format (UTC) throughout so
that ``outbox_due`` can compare them as text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from typing import Any, NamedTuple

from .base import StoreBase, canonical_json
from .errors import StoreError

INBOX_STATUSES = ("new", "processed", "ignored", "dead", "discarded")
OUTBOX_STATUSES = ("pending", "sent", "failed")


class InboxAdded(NamedTuple):
    id: int
    new: bool  # False: the message was already stored (same UID or same Message-ID)


class MailQueueMixin(StoreBase):
    # -- inbox --------------------------------------------------------------

    def inbox_add(
        self,
        mailbox: str | None,
        uidvalidity: int | None,
        uid: int | None,
        message_id: str | None,
        raw: bytes,
        received: str,
        size: int | None = None,
    ) -> InboxAdded:
        """Store an inbound message once.

        When a row with the same (mailbox, uidvalidity, uid), or the same
        non-empty Message-ID, exists already, nothing is written and that row's
        id is returned with ``new=False``; its status says whether it still
        needs processing. ``size``: the whole message's size when ``raw`` is only
        its start (a mail over the size limit is not stored whole).
        """
        with self.transaction():
            existing = None
            if uid is not None:
                existing = self._row(
                    "SELECT id FROM inbox WHERE mailbox IS ? AND uidvalidity IS ? AND uid = ?",
                    [mailbox, uidvalidity, uid],
                )
            if existing is None and message_id:
                existing = self._row(
                    "SELECT id FROM inbox WHERE message_id = ? ORDER BY id LIMIT 1", [message_id]
                )
            if existing is not None:
                return InboxAdded(int(existing["id"]), False)
            cursor = self.conn.execute(
                """INSERT INTO inbox (mailbox, uidvalidity, uid, message_id, raw, received,
                       status, size) VALUES (?, ?, ?, ?, ?, ?, 'new', ?)""",
                [mailbox, uidvalidity, uid, message_id, raw, received,
                 len(raw) if size is None else size])
            assert cursor.lastrowid is not None
            return InboxAdded(cursor.lastrowid, True)

    def inbox_get(self, inbox_id: int) -> dict[str, Any]:
        row = self._row("SELECT * FROM inbox WHERE id = ?", [inbox_id])
        if row is None:
            raise StoreError(f"There is no inbound message #{inbox_id}.")
        return row

    def inbox_set_status(
        self,
        inbox_id: int,
        status: str,
        *,
        error: str | None = None,
        game_id: int | None = None,
        processed: str | None = None,
        sender: str | None = None,
        stranger: bool | None = None,
    ) -> None:
        """Set the status; also record the error, the game, the processing time, the
        sender's address and whether it is a stranger's (each only when given)."""
        _check_status("an inbound message", status, INBOX_STATUSES)
        with self.transaction():
            self.inbox_get(inbox_id)
            self.conn.execute(
                """UPDATE inbox SET status = ?,
                       error = COALESCE(?, error),
                       game_id = COALESCE(?, game_id),
                       processed = COALESCE(?, processed),
                       sender = COALESCE(?, sender),
                       stranger = COALESCE(?, stranger)
                   WHERE id = ?""",
                [status, error, game_id, processed, sender,
                 None if stranger is None else int(stranger), inbox_id],
            )

    def inbox_count_strangers(self, since: str, sender: str | None = None) -> int:
        """How many mails from strangers (from anybody, or from ``sender``) received at
        or after ``since`` were processed."""
        if sender is None:
            row = self._row("SELECT COUNT(*) AS n FROM inbox WHERE stranger = 1 AND "
                            "received >= ?", [since])
        else:
            row = self._row("SELECT COUNT(*) AS n FROM inbox WHERE sender = ? AND "
                            "stranger = 1 AND received >= ?", [sender.lower(), since])
        return int(row["n"]) if row else 0

    def inbox_processed_uids(self, mailbox: str, uidvalidity: int, uids: list[int]) -> set[int]:
        """Which of ``uids`` are stored and no longer 'new' (they need only flagging on the
        server)."""
        done: set[int] = set()
        for start in range(0, len(uids), 500):
            chunk = uids[start:start + 500]
            marks = ", ".join("?" for _ in chunk)
            rows = self._rows(
                f"""SELECT uid FROM inbox WHERE mailbox = ? AND uidvalidity = ?
                    AND status != 'new' AND uid IN ({marks})""",
                [mailbox, uidvalidity, *chunk],
            )
            done.update(int(row["uid"]) for row in rows)
        return done

    def inbox_list(self, status: str | None = None) -> list[dict[str, Any]]:
        """Inbound messages, oldest first, all or those with one status."""
        if status is None:
            return self._rows("SELECT * FROM inbox ORDER BY id")
        _check_status("an inbound message", status, INBOX_STATUSES)
        return self._rows("SELECT * FROM inbox WHERE status = ? ORDER BY id", [status])

    # -- outbox -------------------------------------------------------------

    def outbox_add(
        self,
        message_id: str,
        game_id: int | None,
        recipient: str,
        subject: str,
        raw: bytes,
        created: str,
        purpose: str | None = None,
        redact: Mapping[str, Any] | None = None,
        wire: bool = False,
    ) -> int:
        """Queue a message, due at once. Adding a Message-ID that is already queued
        writes nothing and returns the existing id (the Message-ID is stable).
        ``purpose``: what the mail is (the mail service's word: ``re``, ``turn``, ...).
        ``redact``: what to remove from the stored copy once it is sent (``strings``:
        secrets such as the reply code; ``body``: True to keep only the headers, for a
        mail that carries a key), see ``redacted``: a mail whose secret is one string is
        kept without it from the start (``kept_copy``), so that marking it sent writes
        nothing of its bytes. ``wire``: the caller knows ``raw`` is as SMTP's DATA
        carries it (smtp.on_the_wire; the sender then need not look)."""
        kept, spec = kept_copy(raw, redact)
        with self.transaction():
            existing = self._row("SELECT id FROM outbox WHERE message_id = ?", [message_id])
            if existing is not None:
                return int(existing["id"])
            cursor = self.conn.execute(
                """INSERT INTO outbox (message_id, game_id, recipient, subject, status,
                       attempts, next_attempt, created, purpose, redact)
                   VALUES (?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?)""",
                [message_id, game_id, recipient, subject, created, created, purpose,
                 canonical_json(spec) if spec else None])
            assert cursor.lastrowid is not None
            self.conn.execute("INSERT INTO outbox_mail (id, raw, wire) VALUES (?, ?, ?)",
                              [cursor.lastrowid, kept, int(wire)])
            return cursor.lastrowid

    def outbox_get(self, outbox_id: int) -> dict[str, Any]:
        """The outgoing message, its ``raw`` bytes as they go out (while pending; as kept
        once sent: without their secrets)."""
        row = self._row(f"{_WITH_MAIL} WHERE outbox.id = ?", [outbox_id])
        if row is None:
            raise StoreError(f"There is no outgoing message #{outbox_id}.")
        return _as_sent(row)

    def outbox_mails(self, after: int = 0) -> list[dict[str, Any]]:
        """Every outgoing message with an id above ``after``, oldest first, with its
        ``raw`` bytes as in ``outbox_get``."""
        return [_as_sent(row) for row in
                self._rows(f"{_WITH_MAIL} WHERE outbox.id > ? ORDER BY outbox.id", [after])]

    def outbox_by_message_id(self, message_id: str) -> dict[str, Any] | None:
        """The outgoing message with this Message-ID (without its raw bytes), or None."""
        return self._row(
            "SELECT id, game_id, recipient, status, purpose FROM outbox WHERE message_id = ?",
            [message_id],
        )

    def outbox_count(self, recipient: str, since: str, purposes: tuple[str, ...]) -> int:
        """How many messages of these purposes were queued to ``recipient`` (any case)
        at or after ``since``."""
        marks = ", ".join("?" for _ in purposes)
        row = self._row(
            f"""SELECT COUNT(*) AS n FROM outbox WHERE lower(recipient) = ? AND created >= ?
                AND purpose IN ({marks})""",
            [recipient.lower(), since, *purposes],
        )
        return int(row["n"]) if row else 0

    def outbox_list(self, status: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """Outgoing messages, newest first, without their raw bytes."""
        columns = ("id, message_id, game_id, recipient, subject, purpose, status, attempts, "
                   "next_attempt, last_error, created, sent")
        if status is None:
            return self._rows(f"SELECT {columns} FROM outbox ORDER BY id DESC LIMIT ?", [limit])
        _check_status("an outgoing message", status, OUTBOX_STATUSES)
        return self._rows(
            f"SELECT {columns} FROM outbox WHERE status = ? ORDER BY id DESC LIMIT ?",
            [status, limit],
        )

    def outbox_next_due(self, skip: Collection[int] = ()) -> str | None:
        """The earliest next attempt of a pending message (but those in ``skip``), or
        None."""
        row = self._row(f"""SELECT MIN(next_attempt) AS due FROM outbox
                            WHERE status = 'pending'{_but(skip)}""", list(skip))
        return row["due"] if row else None

    def outbox_queued_since(self, after: int, now: str) -> tuple[list[int], int]:
        """The pending messages above id ``after`` that are due at ``now`` (their ids),
        and the highest id in the outbox (``after`` for an empty one): what one inbound
        message queued to be sent at once, between two calls."""
        ids = [row[0] for row in self.conn.execute(
            """SELECT id FROM outbox WHERE id > ? AND status = 'pending'
                   AND next_attempt <= ?""", [after, now])]
        highest = self.conn.execute("SELECT MAX(id) FROM outbox").fetchone()[0]
        return ids, max(after, highest or 0)

    def outbox_due(self, now: str, limit: int | None = None,
                   skip: Collection[int] = ()) -> list[dict[str, Any]]:
        """Pending messages whose next attempt is at or before ``now``, oldest first (the
        first ``limit`` of them: each row holds its whole mail), but those whose ids are
        in ``skip`` (sent already, not yet marked: serve's sender thread)."""
        rows = self._rows(
            f"""{_WITH_MAIL} WHERE status = 'pending' AND next_attempt <= ?{_but(skip)}
               ORDER BY next_attempt, outbox.id LIMIT ?""",
            [now, *skip, -1 if limit is None else limit],
        )
        return [_as_sent(row) for row in rows]

    def outbox_mark_sent(self, outbox_id: int, sent: str) -> None:
        """Sent: and the secrets it carried (a key, the reply code) removed from the copy.
        Not waiting for the disk (``durable=False``): after a power cut the mark may be
        lost and the mail is sent again with its Message-ID, as after a crash while
        sending (delivery is at least once). A mail kept without its secret already
        (``kept_copy``) loses only the secret of its ``redact`` column: one UPDATE of its
        small row (SQLite writes a row again, all its columns, for any change of it;
        the mail's bytes are in ``outbox_mail``); a mail kept whole until now (one that
        carries a key, or one queued before this) is written again without them."""
        with self.transaction(durable=False):
            row = self._row("SELECT redact FROM outbox WHERE id = ?", [outbox_id])
            if row is None:
                self.outbox_get(outbox_id)  # says that there is none
                return
            spec = json.loads(row["redact"]) if row["redact"] else None
            if spec and CUTS not in spec:
                mail = self._row("SELECT raw FROM outbox_mail WHERE id = ?", [outbox_id])
                assert mail is not None
                self.conn.execute("UPDATE outbox_mail SET raw = ? WHERE id = ?",
                                  [redacted(bytes(mail["raw"]), spec), outbox_id])
            self.conn.execute(
                """UPDATE outbox SET status = 'sent', sent = ?, next_attempt = NULL,
                       attempts = attempts + 1, redact = NULL
                   WHERE id = ?""", [sent, outbox_id])

    def outbox_mark_retry(self, outbox_id: int, next_attempt: str, error: str) -> None:
        """A temporary failure (4xx, connection): try again at ``next_attempt``."""
        self._outbox_update(
            outbox_id,
            "status = 'pending', next_attempt = ?, last_error = ?, attempts = attempts + 1",
            [next_attempt, error],
        )

    def outbox_mark_failed(self, outbox_id: int, error: str) -> None:
        """A permanent failure (5xx): never retried."""
        self._outbox_update(
            outbox_id,
            "status = 'failed', next_attempt = NULL, last_error = ?, attempts = attempts + 1",
            [error],
        )

    def _outbox_update(self, outbox_id: int, assignments: str, params: list[Any]) -> None:
        with self.transaction():
            if self._row("SELECT id FROM outbox WHERE id = ?", [outbox_id]) is None:
                self.outbox_get(outbox_id)  # says that there is none
            self.conn.execute(f"UPDATE outbox SET {assignments} WHERE id = ?", [*params, outbox_id])


_HEADER_END = re.compile(rb"\r?\n\r?\n")
REMOVED = b"[removed]"


def redacted(raw: bytes, spec: Mapping[str, Any]) -> bytes:
    """``raw`` without the ``strings`` of ``spec`` (each replaced by ``[removed]``), and
    with ``body`` true, without its body (only the headers and a note are kept)."""
    if spec.get("body"):
        end = _HEADER_END.search(raw)
        head = raw[:end.start()] if end else raw
        raw = (head + b"\r\n\r\n(The body of this mail held a secret key and was removed "
               b"after sending.)\r\n")
    for secret in spec.get("strings") or ():
        if secret:
            raw = raw.replace(str(secret).encode("utf-8"), REMOVED)
    return raw


#: an outgoing message's columns with its mail's bytes (``raw``)
def _but(skip: Collection[int]) -> str:
    """The condition that leaves out the outbox rows ``skip`` (none: nothing)."""
    return f" AND outbox.id NOT IN ({', '.join('?' * len(skip))})" if skip else ""


_WITH_MAIL = ("SELECT outbox.*, outbox_mail.raw, outbox_mail.wire FROM outbox "
              "JOIN outbox_mail USING (id)")
#: in an outbox row's ``redact``: where the mail's secret was taken out of its bytes
CUTS = "cuts"


def kept_copy(raw: bytes, spec: Mapping[str, Any] | None) -> tuple[bytes, dict[str, Any] | None]:
    """What the outbox keeps of the mail ``raw`` with the secrets ``spec`` (see
    ``outbox_add``), and the ``redact`` that goes with it. A mail whose secret is one
    string (the reply code) is kept as ``redacted`` leaves it, each place of the secret
    noted (``cuts``: the offsets of ``[removed]`` in the copy) so that ``sent_bytes``
    makes the mail again, byte for byte; a mail without a secret in it, as it is, with
    no ``redact``; any other (a key's mail: only its headers are kept once sent; several
    secrets) whole, with its ``spec``, until it is sent."""
    secrets = [str(secret) for secret in (spec or {}).get("strings") or () if secret]
    if spec and spec.get("body"):
        return raw, dict(spec)
    if not secrets:
        return raw, None
    if len(secrets) > 1:
        return raw, dict(spec or {})
    pieces = raw.split(secrets[0].encode("utf-8"))
    if len(pieces) == 1:
        return raw, None
    cuts, at = [], 0
    for piece in pieces[:-1]:
        at += len(piece)
        cuts.append(at)
        at += len(REMOVED)
    kept, found = REMOVED.join(pieces), {"strings": secrets, CUTS: cuts}
    if sent_bytes(kept, found) != raw:  # cannot be: the cuts are where the secret was
        raise StoreError("The mail could not be kept without its secret.")
    return kept, found


def sent_bytes(kept: bytes, spec: Mapping[str, Any] | None) -> bytes:
    """The mail that ``kept`` is the copy of (``kept_copy``): its secret put back."""
    if not spec or CUTS not in spec:
        return kept
    secret = str(spec["strings"][0]).encode("utf-8")
    pieces, at = [], 0
    for cut in spec[CUTS]:
        pieces.append(kept[at:cut])
        at = cut + len(REMOVED)
    pieces.append(kept[at:])
    return secret.join(pieces)


def _as_sent(row: dict[str, Any]) -> dict[str, Any]:
    """An outbox row read with its mail (``_WITH_MAIL``), ``raw`` as the mail goes out."""
    if row["redact"]:
        row["raw"] = sent_bytes(bytes(row["raw"]), json.loads(row["redact"]))
    return row


def _check_status(what: str, status: str, allowed: tuple[str, ...]) -> None:
    if status not in allowed:
        raise StoreError(f"{status!r} is not a status of {what}; use one of {', '.join(allowed)}.")
