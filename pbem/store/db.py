"""Opening the store: one SQLite file, WAL mode, a busy timeout, migrations."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from sqlite_utils import Database

from .errors import StoreError
from .events import EventsMixin
from .games import GamesMixin
from .mailqueue import MailQueueMixin
from .migrations import apply_migrations
from .record import RecordMixin
from .seats import SeatsMixin
from .secret import (
    ServerSecret,
    create_secret,
    private_file,
    random_secret,
    read_secret,
    secret_path_for,
)
from .snapshots import SnapshotsMixin

DEFAULT_DB_PATH = "./pbem.db"
BUSY_TIMEOUT_SECONDS = 5.0


class Store(GamesMixin, EventsMixin, MailQueueMixin, RecordMixin, SeatsMixin, SnapshotsMixin):
    """The event store of pbem: games, players, events, inbox and outbox, seats, and the
    snapshots of game states kept for speed.

    Build one with ``open_store``. Every method that writes runs in
    ``transaction()``; wrap several calls in one ``with store.transaction():``
    to make them one atomic change.
    """


def default_db_path(environ: Mapping[str, str] | None = None) -> Path:
    """``$PBEM_DB`` when set and not empty, else ``./pbem.db``."""
    env = os.environ if environ is None else environ
    return Path(env.get("PBEM_DB") or DEFAULT_DB_PATH)


def connect(path: str | os.PathLike[str]) -> Database:
    """A sqlite-utils Database on ``path`` with the store's connection settings.

    The driver is in autocommit mode (``isolation_level=None``) so that only
    ``Store.transaction()`` (and sqlite-utils' own savepoints) open
    transactions; waiting for a lock gives up after the busy timeout; a commit
    waits until the disk has it.
    """
    conn = sqlite3.connect(os.fspath(path), timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
    conn.execute("PRAGMA foreign_keys = ON")
    # a commit waits for the disk (but see StoreBase.transaction's durable=False)
    conn.execute("PRAGMA synchronous = FULL")
    db = Database(conn)
    if os.fspath(path) != ":memory:":
        db.enable_wal()
    return db


def open_store(path: str | os.PathLike[str] | None = None, *, now: str | None = None,
               secret: ServerSecret | None = None) -> Store:
    """Open (creating if needed) the store at ``path`` (default: ``default_db_path()``)
    and apply the schema migrations it lacks. ``now`` is recorded as the
    migrations' ``applied_at``.

    A new file is created with mode 0600 (an existing one readable by others is made
    0600). The server secret is read from ``secret_path_for(path)`` (created with a new
    file, or when an older file is first keyed); ``secret`` gives it instead."""
    path = default_db_path() if path is None else path
    in_memory = os.fspath(path) == ":memory:"
    if not in_memory:
        private_file(Path(path))
    db = connect(path)
    store = Store(db)
    try:
        store.secret = secret or (random_secret() if in_memory else _file_secret(store, path))
        _check_fingerprint(store)
        apply_migrations(store, now=now)
    except BaseException:
        store.close()
        raise
    return store


def _recorded_fingerprint(store: Store) -> str | None:
    exists = store.conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone()
    return store.meta("secret_fingerprint") if exists else None


def _file_secret(store: Store, path: str | os.PathLike[str]) -> ServerSecret:
    """The database's secret; a new one only for a database that has none yet."""
    secret_path = secret_path_for(path)
    if _recorded_fingerprint(store) is not None or secret_path.exists():
        return read_secret(secret_path)
    return create_secret(secret_path)


def _check_fingerprint(store: Store) -> None:
    recorded = _recorded_fingerprint(store)
    if recorded is not None and recorded != store.secret.fingerprint:
        where = store.secret.path or "the secret given"
        raise StoreError(
            f"The server secret {where} does not belong to this database (it was written "
            "with another one). Use the secret file that was made with the database.")
