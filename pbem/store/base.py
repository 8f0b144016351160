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


class _Frame:
    """A savepoint under way: its name, and how many events were not yet written when it
    began (a rollback before it is opened in SQLite keeps those)."""

    __slots__ = ("name", "unwritten")

    def __init__(self, name: str, unwritten: int) -> None:
        self.name = name
        self.unwritten = unwritten


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
        self._db = db
        self._depth = 0
        #: games whose events are being appended in an ``appending`` block: the seq and
        #: hash of the last event (the hash None while it is not hashed yet: hash_later;
        #: None: to be read again, after a rollback)
        self._heads: dict[int, tuple[int, str | None] | None] = {}
        #: the events appended in an ``appending`` block and not written yet (the values
        #: of their INSERTs, in order): written by ``conn`` before anything else runs
        #: (``_write_through``), and when the outermost transaction ends
        self._unwritten: list[list[Any]] = []
        #: the savepoints (``transaction()`` inside another) under way, outermost first;
        #: the first ``_opened`` of them are opened in SQLite, the others not yet: a
        #: savepoint is opened when something first uses the connection in it, so one in
        #: which only events are appended costs no SQL (``_savepoint``)
        self._frames: list[_Frame] = []
        self._opened = 0
        #: keys the players' key hashes, reply codes and the record (see secret.py);
        #: open_store sets the one that belongs to the file
        self.secret = secret or random_secret()

    @property
    def db(self) -> Database:
        """The sqlite-utils Database, with everything appended written (``conn``)."""
        if self._unwritten or self._opened < len(self._frames):
            self._write_through()
        return self._db

    @property
    def conn(self) -> sqlite3.Connection:
        """The connection, once the events appended and not yet written are written and
        the savepoints under way opened (``_write_through``): whatever reads or writes
        through it finds the store as the calls before left it."""
        if self._unwritten or self._opened < len(self._frames):
            self._write_through()
        return self._db.conn

    def close(self) -> None:
        self._db.close()

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
        if self._depth == 0 and not self._db.conn.in_transaction:
            if durable:
                yield from self._outer()
            else:
                yield from self._without_waiting()
        else:
            yield from self._savepoint()

    def _without_waiting(self) -> Iterator[Self]:
        self._db.conn.execute("PRAGMA synchronous = NORMAL")
        try:
            yield from self._outer()
        finally:
            self._db.conn.execute("PRAGMA synchronous = FULL")

    def _outer(self) -> Iterator[Self]:
        conn = self._db.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise StoreBusy() from exc
            raise
        self._depth += 1
        try:
            yield self
            self._write_through()
        except BaseException:
            self._depth -= 1
            self._unwritten.clear()
            self._forget_heads()
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self._depth -= 1
        try:
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _savepoint(self) -> Iterator[Self]:
        """A savepoint, opened in SQLite only when something uses the connection in it
        (``conn``, ``db``): until then what it did is only events appended and not yet
        written, which a rollback drops from ``_unwritten``. The same atomic block
        either way, two SQL statements fewer for one that appends without reading (a
        command of an import: ``appending``)."""
        frame = _Frame(f"pbem_store_{self._depth}", len(self._unwritten))
        self._frames.append(frame)
        self._depth += 1
        try:
            yield self
        except BaseException:
            self._depth -= 1
            self._frames.pop()
            self._forget_heads()
            if self._opened > len(self._frames):
                self._opened -= 1
                self._unwritten.clear()  # all appended since it was opened
                # An error may already have ended the whole transaction.
                conn = self._db.conn
                if conn.in_transaction:
                    conn.execute(f"ROLLBACK TO SAVEPOINT {frame.name}")
                    conn.execute(f"RELEASE SAVEPOINT {frame.name}")
            else:
                del self._unwritten[frame.unwritten:]
            raise
        self._depth -= 1
        self._frames.pop()
        if self._opened > len(self._frames):
            self._opened -= 1
            self._db.conn.execute(f"RELEASE SAVEPOINT {frame.name}")

    def _write_through(self) -> None:
        """Open the savepoints not yet opened and write the events not yet written, each
        in its place: the SQL they stand for, in the order it would have run. If that
        fails, the events not written are dropped (and the heads read again): the
        savepoints' rollbacks, or the transaction's, undo the rest."""
        conn = self._db.conn
        rows, self._unwritten = self._unwritten, []
        try:
            self._hash_events(rows)
            written = 0
            for frame in self._frames[self._opened:]:
                self._insert_events(rows[written:frame.unwritten], conn)
                written = frame.unwritten
                conn.execute(f"SAVEPOINT {frame.name}")
                self._opened += 1
            self._insert_events(rows[written:], conn)
        except BaseException:
            for frame in self._frames[self._opened:]:
                frame.unwritten = 0
            self._forget_heads()
            raise

    def _hash_events(self, rows: list[list[Any]]) -> None:
        """Hash the events' rows (EventsMixin)."""
        raise NotImplementedError

    def _insert_events(self, rows: list[list[Any]], conn: sqlite3.Connection) -> None:
        """INSERT the events' rows (EventsMixin)."""
        raise NotImplementedError

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
