"""``pbem backup`` and ``pbem restore``: SQLite's online backup, and a checked restore.

A backup is a consistent copy of the database taken while the service runs (SQLite's
backup API copies the pages under a read lock), written with mode 0600. It holds the
games, the players' addresses and the mail, but not the server secret: the secret is
one small file that never changes; keep one copy of it apart from the backups, so a
stolen backup cannot be played from or rewritten unnoticed.

Restoring checks the backup before it touches the database: SQLite's integrity
check, that it was written with this server's secret, and the audit of every game
(after the migrations the backup lacks, applied to a scratch copy). Only then is
the database replaced, through the same backup API.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .db import BUSY_TIMEOUT_SECONDS, Store, open_store
from .errors import StoreError
from .secret import private_file, read_secret, secret_path_for


def backup_to(store: Store, file: str | os.PathLike[str]) -> int:
    """Copy the store's database to ``file`` (created 0600, replaced if it exists);
    the number of pages copied."""
    path = Path(file)
    if path.resolve() == Path(_database_file(store.conn)).resolve():
        raise StoreError("A backup cannot be written over the database itself.")
    path.parent.mkdir(parents=True, exist_ok=True)
    private_file(path)
    target = sqlite3.connect(path)
    try:
        store.conn.backup(target)
        pages = target.execute("PRAGMA page_count").fetchone()[0]
        target.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
    finally:
        target.close()
    return int(pages)


def restore_from(file: str | os.PathLike[str], target: str | os.PathLike[str], *,
                 force: bool = False,
                 audit: Callable[[Store], list[Any]] | None = None) -> None:
    """Replace the database ``target`` with the backup ``file`` once it is checked
    (integrity, server secret, ``audit``: the problems of a store, [] when sound)."""
    source, destination = Path(file), Path(target)
    if destination.exists() and destination.stat().st_size and not force:
        raise StoreError(f"{destination} exists; give --force to replace it by the backup.")
    _integrity(source)
    secret = read_secret(secret_path_for(destination))
    scratch = destination.with_name(destination.name + ".restoring")
    _remove(scratch)
    private_file(scratch)
    with sqlite3.connect(source) as src, sqlite3.connect(scratch) as copy:
        src.backup(copy)
    try:
        checked = open_store(scratch, secret=secret)
        try:
            problems = audit(checked) if audit else []
            if problems:
                raise StoreError(f"The backup {source} fails the audit, so it was not restored: "
                                 f"{problems[0]}" + (f" (and {len(problems) - 1} more)"
                                                     if len(problems) > 1 else ""))
            private_file(destination)
            live = sqlite3.connect(destination, timeout=BUSY_TIMEOUT_SECONDS)
            try:
                checked.conn.backup(live)
            finally:
                live.close()
        finally:
            checked.close()
    finally:
        _remove(scratch)


def _integrity(path: Path) -> None:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            result = conn.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path} is not a pbem database: {exc}.") from exc
    if result != "ok":
        raise StoreError(f"{path} is damaged (SQLite's integrity check: {result}).")


def _database_file(conn: sqlite3.Connection) -> str:
    return str(conn.execute("PRAGMA database_list").fetchone()[2])


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(str(path) + suffix).unlink(missing_ok=True)
