"""Registered schema migrations, applied in order by ``apply_migrations``.

A migration is a function taking the sqlite-utils ``Database``; it runs inside
the transaction that also records its name in the ``migrations`` table, so it
is applied completely or not at all, and exactly once. To change the schema,
append a new function to ``MIGRATIONS``; never edit or reorder one that has
shipped.
"""

from __future__ import annotations

import hashlib
import inspect
import re
import sqlite3
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

from sqlite_utils import Database

from .base import StoreBase, canonical_json
from .errors import StoreError
from .events import CONTENT_FIELDS, ZERO_HASH, decode_event, event_hash
from .schema import SCHEMA_OF, write_schema

#: ``migrate(db)``, or ``migrate(db, store)`` for one that needs the store's methods or
#: its server secret.
Migration = Callable[..., None]


def _run(db: Database, statements: list[str]) -> None:
    for sql in statements:
        db.execute(sql)


def m0001_initial(db: Database) -> None:
    """games, players, events, inbox, outbox."""
    _run(
        db,
        [
            """CREATE TABLE games (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                title TEXT NOT NULL,
                options TEXT NOT NULL,
                seed INTEGER NOT NULL,
                engine_version TEXT NOT NULL,
                rules_version TEXT NOT NULL,
                status TEXT NOT NULL DEFAULT 'active',
                created TEXT NOT NULL,
                referee TEXT
            )""",
            """CREATE TABLE players (
                game_id INTEGER NOT NULL REFERENCES games(id),
                seat INTEGER NOT NULL,
                name TEXT NOT NULL,
                email TEXT NOT NULL,
                key_hash TEXT NOT NULL,
                notify TEXT NOT NULL DEFAULT 'every',
                PRIMARY KEY (game_id, seat)
            )""",
            "CREATE UNIQUE INDEX players_game_name ON players (game_id, name COLLATE NOCASE)",
            """CREATE TABLE events (
                game_id INTEGER NOT NULL REFERENCES games(id),
                seq INTEGER NOT NULL CHECK (seq >= 1),
                kind TEXT NOT NULL,
                command TEXT,
                text TEXT NOT NULL,
                actor TEXT,
                source TEXT,
                received TEXT NOT NULL,
                facts TEXT NOT NULL,
                log TEXT NOT NULL,
                revert_to INTEGER,
                prev_hash TEXT NOT NULL,
                hash TEXT NOT NULL,
                PRIMARY KEY (game_id, seq)
            )""",
            # Append-only: a slip in application code cannot rewrite history.
            # (Someone with the file can drop these; the hash chain catches that.)
            """CREATE TRIGGER events_no_update BEFORE UPDATE ON events
               BEGIN SELECT RAISE(ABORT, 'events are append-only'); END""",
            """CREATE TRIGGER events_no_delete BEFORE DELETE ON events
               BEGIN SELECT RAISE(ABORT, 'events are append-only'); END""",
            """CREATE TABLE inbox (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                mailbox TEXT,
                uidvalidity INTEGER,
                uid INTEGER,
                message_id TEXT,
                raw BLOB NOT NULL,
                received TEXT NOT NULL,
                status TEXT NOT NULL DEFAULT 'new',
                error TEXT,
                game_id INTEGER,
                processed TEXT,
                UNIQUE (mailbox, uidvalidity, uid)
            )""",
            "CREATE INDEX inbox_message_id ON inbox (message_id)",
            "CREATE INDEX inbox_status ON inbox (status)",
            """CREATE TABLE outbox (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                message_id TEXT NOT NULL UNIQUE,
                game_id INTEGER,
                recipient TEXT NOT NULL,
                subject TEXT NOT NULL,
                raw BLOB NOT NULL,
                status TEXT NOT NULL DEFAULT 'pending',
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt TEXT,
                last_error TEXT,
                created TEXT NOT NULL,
                sent TEXT
            )""",
            "CREATE INDEX outbox_status_next ON outbox (status, next_attempt)",
        ],
    )


_PURPOSE_IN_ID = re.compile(r"<pbem\.\d+\.([a-z]+)\.")


def m0002_outbox_purpose(db: Database) -> None:
    """outbox.purpose (what a mail is: re, rej, turn, ...), read until now from its
    Message-ID ``<pbem.<game>.<purpose>.<random>@domain>``; filled in for older rows."""
    db.execute("ALTER TABLE outbox ADD COLUMN purpose TEXT")
    rows = db.execute("SELECT id, message_id FROM outbox").fetchall()
    for row_id, message_id in rows:
        found = _PURPOSE_IN_ID.match(message_id or "")
        if found:
            db.execute("UPDATE outbox SET purpose = ? WHERE id = ?", [found.group(1), row_id])
    db.execute("CREATE INDEX outbox_recipient_purpose ON outbox (recipient, purpose, created)")


def m0003_player_settings(db: Database) -> None:
    """Each player's mail settings besides ``notify``: ``mail`` (full or compact),
    ``picture`` (on or off: the map as an image in full mails), ``tz`` (IANA name)."""
    _run(db, [
        "ALTER TABLE players ADD COLUMN mail TEXT NOT NULL DEFAULT 'full'",
        "ALTER TABLE players ADD COLUMN picture TEXT NOT NULL DEFAULT 'on'",
        "ALTER TABLE players ADD COLUMN tz TEXT NOT NULL DEFAULT 'UTC'",
        "CREATE INDEX events_game_kind ON events (game_id, kind)",
    ])


_APPEND_ONLY = [
    """CREATE TRIGGER events_no_update BEFORE UPDATE ON events
       BEGIN SELECT RAISE(ABORT, 'events are append-only'); END""",
    """CREATE TRIGGER events_no_delete BEFORE DELETE ON events
       BEGIN SELECT RAISE(ABORT, 'events are append-only'); END""",
]


def m0004_keyed_record(db: Database, store: StoreBase) -> None:
    """Issue 15: the server secret keys the record. New tables ``meta`` (the secret's
    fingerprint, the sealed list of games) and ``chain_heads`` (each game's sealed head);
    every event rehashed with the keyed formula (a chain that was already broken is
    noted in ``meta``, and audit keeps reporting it); inbox columns ``sender``,
    ``stranger``, ``size``; outbox column ``redact`` (what to remove once sent); the
    bodies of welcome mails (they hold keys) removed. Players' old key hashes stay:
    they never match, and the mail service issues new keys (docs/store.md)."""
    _run(db, [
        "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE chain_heads (
            game_id INTEGER PRIMARY KEY REFERENCES games(id),
            events INTEGER NOT NULL,
            last_hash TEXT NOT NULL,
            roster TEXT NOT NULL,
            seal TEXT NOT NULL
        )""",
        "ALTER TABLE inbox ADD COLUMN sender TEXT",
        "ALTER TABLE inbox ADD COLUMN stranger INTEGER",
        "ALTER TABLE inbox ADD COLUMN size INTEGER",
        "CREATE INDEX inbox_sender ON inbox (sender, received)",
        "CREATE INDEX inbox_stranger ON inbox (stranger, received)",
        "ALTER TABLE outbox ADD COLUMN redact TEXT",
        "CREATE INDEX players_email ON players (lower(email))",
        "DROP TRIGGER IF EXISTS events_no_update",
        "DROP TRIGGER IF EXISTS events_no_delete",
    ])
    secret = store.secret
    db.execute("INSERT INTO meta (name, value) VALUES ('secret_fingerprint', ?)",
               [secret.fingerprint])
    games = [row[0] for row in db.execute("SELECT id FROM games ORDER BY id").fetchall()]
    for game_id in games:
        _rekey_chain(db, store, game_id)
    _run(db, _APPEND_ONLY)
    for game_id in games:
        store.seal_game(game_id)
    store.seal_games()
    from .mailqueue import redacted

    rows = db.execute("SELECT id, raw FROM outbox WHERE purpose = 'welcome'").fetchall()
    for row_id, raw in rows:
        db.execute("UPDATE outbox SET raw = ? WHERE id = ?",
                   [redacted(bytes(raw), {"body": True, "strings": []}), row_id])


def _rekey_chain(db: Database, store: StoreBase, game_id: int) -> None:
    cursor = db.execute("SELECT * FROM events WHERE game_id = ? ORDER BY seq", [game_id])
    names = [d[0] for d in cursor.description]
    rows = [dict(zip(names, values, strict=True)) for values in cursor.fetchall()]
    broken = _first_broken_unkeyed(rows)
    if broken is not None:
        db.execute("INSERT INTO meta (name, value) VALUES (?, ?)",
                   [f"broken_before_keying:{game_id}", str(broken)])
    prev = ZERO_HASH
    for row in rows:
        try:
            digest = event_hash(prev, decode_event(row), store.secret)
        except (ValueError, TypeError):  # a row that no longer decodes: keep it failing
            digest = "unreadable"
        db.execute("UPDATE events SET prev_hash = ?, hash = ? WHERE game_id = ? AND seq = ?",
                   [prev, digest, game_id, row["seq"]])
        prev = digest


def _first_broken_unkeyed(rows: list[dict[str, Any]]) -> int | None:
    """The first seq where the chain of the code before 0004 (unkeyed sha256) breaks."""
    prev = ZERO_HASH
    for row in rows:
        try:
            content = {f: decode_event(row)[f] for f in CONTENT_FIELDS}
        except (ValueError, TypeError):
            return int(row["seq"])
        digest = hashlib.sha256((prev + canonical_json(content)).encode("utf-8")).hexdigest()
        if row["prev_hash"] != prev or row["hash"] != digest:
            return int(row["seq"])
        prev = row["hash"]
    return None


def m0005_seats_and_referee(db: Database) -> None:
    """For running a game to its end (docs/moderation.md): players.person (who plays the
    seat when it is not the seat's own player: a replacement), players.status
    (``playing``, ``kicked``), games.referee_key_hash (the referee acts by mail with a
    key of his own)."""
    _run(db, [
        "ALTER TABLE players ADD COLUMN person TEXT",
        "ALTER TABLE players ADD COLUMN status TEXT NOT NULL DEFAULT 'playing'",
        "ALTER TABLE games ADD COLUMN referee_key_hash TEXT",
    ])


def m0006_snapshots(db: Database) -> None:
    """``snapshots``: game states cached for speed (pbem.snapshot), never the truth: the
    state after event ``seq``, the hash of that event, the engine that wrote it, and a
    seal under the server secret (a state is read back only when its seal holds)."""
    _run(db, [
        """CREATE TABLE snapshots (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            hash TEXT NOT NULL,
            engine TEXT NOT NULL,
            state BLOB NOT NULL,
            seal TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        )""",
    ])


def m0007_outbox_mail(db: Database) -> None:
    """``outbox_mail``: the bytes of each outgoing mail, out of its ``outbox`` row. SQLite
    writes a row again, all its columns, for any change of it: marking a mail sent wrote
    its 80 KB mail again (0.4 ms). Mails queued from now on are kept without the reply
    code they carry (see mailqueue.MailQueueMixin.outbox_add); those already queued keep
    theirs until sent, as before."""
    _run(db, [
        """CREATE TABLE outbox_mail (
            id INTEGER PRIMARY KEY REFERENCES outbox(id),
            raw BLOB NOT NULL
        )""",
        "INSERT INTO outbox_mail (id, raw) SELECT id, raw FROM outbox",
        "ALTER TABLE outbox DROP COLUMN raw",
    ])


def m0008_lower_case_lookups(db: Database) -> None:
    """Indexes for the lookups that compare addresses in lower case, which could not use
    the indexes on the addresses as written: the reply caps counting a recipient's mails
    (``outbox_count``, on every inbound mail) read the whole of 0002's index, 35 ms at
    200,000 mails sent (0.01 ms with this one, which takes its place); the question
    whether an address is a referee's (``is_known_address``) read every game."""
    _run(db, [
        "CREATE INDEX outbox_recipient_lower ON outbox (lower(recipient), purpose, created)",
        "DROP INDEX outbox_recipient_purpose",
        "CREATE INDEX games_referee_lower ON games (lower(referee))",
    ])


def m0009_outbox_mail_wire(db: Database) -> None:
    """``outbox_mail.wire``: 1 when the mail's bytes are as SMTP's DATA carries them (CRLF
    line ends, no line starting with a dot), known as the mail was written; the sender
    then sends them as they are without looking at the whole mail again (a quarter of a
    millisecond for 80 KB). 0 for the mails queued before: the sender looks."""
    db.execute("ALTER TABLE outbox_mail ADD COLUMN wire INTEGER NOT NULL DEFAULT 0")


MIGRATIONS: list[tuple[str, Migration]] = [
    ("0001_initial", m0001_initial),
    ("0002_outbox_purpose", m0002_outbox_purpose),
    ("0003_player_settings", m0003_player_settings),
    ("0004_keyed_record", m0004_keyed_record),
    ("0005_seats_and_referee", m0005_seats_and_referee),
    ("0006_snapshots", m0006_snapshots),
    ("0007_outbox_mail", m0007_outbox_mail),
    ("0008_lower_case_lookups", m0008_lower_case_lookups),
    ("0009_outbox_mail_wire", m0009_outbox_mail_wire),
]


def _call(migrate: Migration, store: StoreBase) -> None:
    """A migration takes the database, or the database and the store."""
    if len(inspect.signature(migrate).parameters) >= 2:
        migrate(store.db, store)
    else:
        migrate(store.db)


def applied_migrations(conn: sqlite3.Connection) -> list[str]:
    """Names recorded in the ``migrations`` table, oldest first ([] before the first run)."""
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migrations'"
    ).fetchone()
    if not exists:
        return []
    rows = conn.execute("SELECT name FROM migrations ORDER BY rowid").fetchall()
    return [name for (name,) in rows]


def apply_migrations(
    store: StoreBase,
    now: str | None = None,
    migrations: list[tuple[str, Migration]] | None = None,
) -> list[str]:
    """Apply the registered migrations that the file lacks; return the names applied.

    Each runs in its own ``BEGIN IMMEDIATE`` transaction (on a file that has none yet,
    all in one), and re-checks the ``migrations`` table inside it, so two processes
    opening a new file at the same time apply each migration once. An empty file gets
    their result at once instead (``schema.write_schema``: the same file, a third of
    the CPU), in that one transaction. ``now`` (ISO time
    from the caller) is recorded as ``applied_at``; the store reads no clock.
    """
    todo = MIGRATIONS if migrations is None else migrations
    known = {name for name, _ in todo}
    # Read first, without the write lock: opening an up-to-date file must not
    # wait for (or block) a writer.
    applied = applied_migrations(store.conn)
    unknown = [name for name in applied if name not in known]
    if unknown:
        raise StoreError(
            f"This database has schema migration {unknown[0]} that this version of pbem "
            "does not know; it was written by a newer pbem. Please upgrade pbem."
        )
    if known <= set(applied):
        return []
    # a new file is made in one transaction (one commit, not one a migration: each
    # waits for the disk); the migrations below are then its savepoints
    with store.transaction() if not applied else nullcontext():
        if migrations is None and _empty(store):  # no need to walk the way: the end
            return write_schema(store, now)
        return _apply(store, todo, now)


def _empty(store: StoreBase) -> bool:
    """Whether the database has nothing in it yet (in the write transaction: not made
    meanwhile by another process) and ``SCHEMA`` is what the migrations make."""
    if [name for name, _ in MIGRATIONS] != list(SCHEMA_OF):
        return False
    return store.conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is None


def _apply(store: StoreBase, todo: list[tuple[str, Migration]], now: str | None) -> list[str]:
    done_now: list[str] = []
    with store.transaction():
        store.db.execute(
            "CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT)"
        )
    for name, migrate in todo:
        with store.transaction():
            if name in applied_migrations(store.conn):
                continue  # another process applied it meanwhile
            _call(migrate, store)
            store.db.execute("INSERT INTO migrations (name, applied_at) VALUES (?, ?)", [name, now])
        done_now.append(name)
    return done_now
