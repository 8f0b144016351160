"""The connection, transactions and small helpers shared by the Store mixins."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Self

from sqlite_utils import Database

from .errors import StoreBusy, UnknownGame
from .secret import ServerSecret, random_secret

#: made once: ``json.dumps`` with these arguments makes an encoder at every call
_CANONICAL = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)


def canonical_json(value: Any) -> str:
    """The one JSON spelling of a value: sorted keys, no spaces, UTF-8 kept, no NaN."""
    return _CANONICAL.encode(value)


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


class StoreBase:
    """Owns the sqlite-utils Database and the transaction discipline.

    Writes go through ``transaction()``: the outermost block runs
    ``BEGIN IMMEDIATE`` (so it takes the write lock before it reads anything,
    and concurrent writers queue on the busy timeout instead of failing on a
    stale snapshot), inner blocks are savepoints inside it.
    """

    def __init__(self, db: Database, secret: ServerSecret | None = None) -> None:
        self.db = db
        self._depth = 0
        #: games whose events are being appended in an ``appending`` block: the seq and
        #: hash of the last event (None: to be read again, after a rollback)
        self._heads: dict[int, tuple[int, str] | None] = {}
        #: keys the players' key hashes, reply codes and the record (see secret.py);
        #: open_store sets the one that belongs to the file
        self.secret = secret or random_secret()

    @property
    def conn(self) -> sqlite3.Connection:
        return self.db.conn

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions -------------------------------------------------------

    @contextmanager
    def transaction(self, durable: bool = True) -> Iterator[Self]:
        """All writes in the block commit together or not at all.

        The outermost block is ``BEGIN IMMEDIATE ... COMMIT`` (``ROLLBACK`` when
        an exception leaves the block). A nested block joins the outer
        transaction as a savepoint: nothing is committed before the outer block
        ends; if an exception leaves the inner block, its own writes are undone
        (and, if the exception also leaves the outer block, everything is).

        A commit waits until the disk has the transaction (SQLite's synchronous=FULL).
        ``durable=False`` (outermost block only) commits without waiting: a crash of
        the process loses nothing, a power cut may lose the transaction, never the
        database's consistency, and the next durable commit makes it safe with
        its own. For writes that may be lost that way (a mail marked sent: it is
        sent again, as after a crash while sending; see docs/mail-service.md).
        """
        if self._depth == 0 and not self.conn.in_transaction:
            if durable:
                yield from self._outer()
            else:
                yield from self._without_waiting()
        else:
            yield from self._savepoint()

    def _without_waiting(self) -> Iterator[Self]:
        self.conn.execute("PRAGMA synchronous = NORMAL")
        try:
            yield from self._outer()
        finally:
            self.conn.execute("PRAGMA synchronous = FULL")

    def _outer(self) -> Iterator[Self]:
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise StoreBusy() from exc
            raise
        self._depth += 1
        try:
            yield self
        except BaseException:
            self._depth -= 1
            self._forget_heads()
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        self._depth -= 1
        try:
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise

    def _savepoint(self) -> Iterator[Self]:
        name = f"pbem_store_{self._depth}"
        self.conn.execute(f"SAVEPOINT {name}")
        self._depth += 1
        try:
            yield self
        except BaseException:
            self._depth -= 1
            self._forget_heads()
            # An error may already have ended the whole transaction.
            if self.conn.in_transaction:
                self.conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
                self.conn.execute(f"RELEASE SAVEPOINT {name}")
            raise
        self._depth -= 1
        self.conn.execute(f"RELEASE SAVEPOINT {name}")

    def _forget_heads(self) -> None:
        """After a rollback the events appended may be gone: read the heads again."""
        for game_id in self._heads:
            self._heads[game_id] = None

    def seal_game(self, game_id: int) -> None:
        """Reseal the game's chain head (RecordMixin) after a change to the game."""
        raise NotImplementedError

    def seal_games(self) -> None:
        """Reseal the list of the games (RecordMixin) after a game was created."""
        raise NotImplementedError

    # -- reading ------------------------------------------------------------

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        cursor = self.conn.execute(sql, tuple(params))
        keys = [d[0] for d in cursor.description]
        return [dict(zip(keys, row, strict=True)) for row in cursor.fetchall()]

    def _row(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any] | None:
        rows = self._rows(sql, params)
        return rows[0] if rows else None

    def _require_game(self, game_id: int) -> None:
        if self._row("SELECT 1 AS x FROM games WHERE id = ?", [game_id]) is None:
            raise UnknownGame(game_id)
