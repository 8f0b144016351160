"""Opening the store: one SQLite file, WAL mode, a busy timeout, migrations."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from sqlite_utils import Database

from .events import EventsMixin
from .games import GamesMixin
from .mailqueue import MailQueueMixin
from .migrations import apply_migrations
from .seats import SeatsMixin

DEFAULT_DB_PATH = "./pbem.db"
BUSY_TIMEOUT_SECONDS = 5.0


class Store(GamesMixin, EventsMixin, MailQueueMixin, SeatsMixin):
    """The event store of pbem: games, players, events, inbox and outbox, seats.

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
    transactions; waiting for a lock gives up after the busy timeout.
    """
    conn = sqlite3.connect(os.fspath(path), timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
    conn.execute("PRAGMA foreign_keys = ON")
    db = Database(conn)
    if os.fspath(path) != ":memory:":
        db.enable_wal()
    return db


def open_store(path: str | os.PathLike[str] | None = None, *, now: str | None = None) -> Store:
    """Open (creating if needed) the store at ``path`` (default: ``default_db_path()``)
    and apply the schema migrations it lacks. ``now`` is recorded as the
    migrations' ``applied_at``."""
    db = connect(default_db_path() if path is None else path)
    store = Store(db)
    try:
        apply_migrations(store, now=now)
    except BaseException:
        store.close()
        raise
    return store
