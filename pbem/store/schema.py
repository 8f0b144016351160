"""The schema the migrations make, written at once into a new file.

A new database got its tables by running every migration in turn: 109 SQL statements,
13 of them ALTER TABLEs that make SQLite read its whole schema again, 5.5 ms of CPU
(8% of importing a short game into a new file). ``SCHEMA`` is what they leave, the
statements as ``sqlite_master`` keeps them, in its order: a new file made from it
has the same tables, columns, indexes and triggers, the same rows in ``migrations``
and ``meta``, in 1.5 ms. tests/test_store_schema.py makes a file each way and
compares them (``sqlite_master``, the pragmas, every table's columns and rows).

When a migration is added, its result goes here too and its name into
``SCHEMA_OF``; until then (``SCHEMA_OF`` is not the names of ``MIGRATIONS``) new
files are made by the migrations, as before, and the test says what to do.
"""

from __future__ import annotations

from .base import StoreBase

#: the migrations whose result SCHEMA is, in order
SCHEMA_OF = (
    "0001_initial",
    "0002_outbox_purpose",
    "0003_player_settings",
    "0004_keyed_record",
    "0005_seats_and_referee",
    "0006_snapshots",
    "0007_outbox_mail",
    "0008_lower_case_lookups",
    "0009_outbox_mail_wire",
)

#: the statements of sqlite_master after SCHEMA_OF, in its order (the text of each as
#: SQLite keeps it: ALTER TABLE's columns where they were added)
SCHEMA = (
    'CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at TEXT)',
    ('CREATE TABLE games (\n'
     '                id INTEGER PRIMARY KEY AUTOINCREMENT,\n'
     '                title TEXT NOT NULL,\n'
     '                options TEXT NOT NULL,\n'
     '                seed INTEGER NOT NULL,\n'
     '                engine_version TEXT NOT NULL,\n'
     '                rules_version TEXT NOT NULL,\n'
     "                status TEXT NOT NULL DEFAULT 'active',\n"
     '                created TEXT NOT NULL,\n'
     '                referee TEXT\n'
     '            , referee_key_hash TEXT)'),
    ('CREATE TABLE players (\n'
     '                game_id INTEGER NOT NULL REFERENCES games(id),\n'
     '                seat INTEGER NOT NULL,\n'
     '                name TEXT NOT NULL,\n'
     '                email TEXT NOT NULL,\n'
     '                key_hash TEXT NOT NULL,\n'
     "                notify TEXT NOT NULL DEFAULT 'every', "
     "mail TEXT NOT NULL DEFAULT 'full', picture TEXT NOT NULL DEFAULT 'on', "
     "tz TEXT NOT NULL DEFAULT 'UTC', person TEXT, status TEXT NOT NULL DEFAULT 'playing',\n"
     '                PRIMARY KEY (game_id, seat)\n'
     '            )'),
    'CREATE UNIQUE INDEX players_game_name ON players (game_id, name COLLATE NOCASE)',
    ('CREATE TABLE events (\n'
     '                game_id INTEGER NOT NULL REFERENCES games(id),\n'
     '                seq INTEGER NOT NULL CHECK (seq >= 1),\n'
     '                kind TEXT NOT NULL,\n'
     '                command TEXT,\n'
     '                text TEXT NOT NULL,\n'
     '                actor TEXT,\n'
     '                source TEXT,\n'
     '                received TEXT NOT NULL,\n'
     '                facts TEXT NOT NULL,\n'
     '                log TEXT NOT NULL,\n'
     '                revert_to INTEGER,\n'
     '                prev_hash TEXT NOT NULL,\n'
     '                hash TEXT NOT NULL,\n'
     '                PRIMARY KEY (game_id, seq)\n'
     '            )'),
    ('CREATE TABLE inbox (\n'
     '                id INTEGER PRIMARY KEY AUTOINCREMENT,\n'
     '                mailbox TEXT,\n'
     '                uidvalidity INTEGER,\n'
     '                uid INTEGER,\n'
     '                message_id TEXT,\n'
     '                raw BLOB NOT NULL,\n'
     '                received TEXT NOT NULL,\n'
     "                status TEXT NOT NULL DEFAULT 'new',\n"
     '                error TEXT,\n'
     '                game_id INTEGER,\n'
     '                processed TEXT, sender TEXT, stranger INTEGER, size INTEGER,\n'
     '                UNIQUE (mailbox, uidvalidity, uid)\n'
     '            )'),
    'CREATE INDEX inbox_message_id ON inbox (message_id)',
    'CREATE INDEX inbox_status ON inbox (status)',
    ('CREATE TABLE outbox (\n'
     '                id INTEGER PRIMARY KEY AUTOINCREMENT,\n'
     '                message_id TEXT NOT NULL UNIQUE,\n'
     '                game_id INTEGER,\n'
     '                recipient TEXT NOT NULL,\n'
     '                subject TEXT NOT NULL,\n'
     "                status TEXT NOT NULL DEFAULT 'pending',\n"
     '                attempts INTEGER NOT NULL DEFAULT 0,\n'
     '                next_attempt TEXT,\n'
     '                last_error TEXT,\n'
     '                created TEXT NOT NULL,\n'
     '                sent TEXT\n'
     '            , purpose TEXT, redact TEXT)'),
    'CREATE INDEX outbox_status_next ON outbox (status, next_attempt)',
    'CREATE INDEX events_game_kind ON events (game_id, kind)',
    'CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)',
    ('CREATE TABLE chain_heads (\n'
     '            game_id INTEGER PRIMARY KEY REFERENCES games(id),\n'
     '            events INTEGER NOT NULL,\n'
     '            last_hash TEXT NOT NULL,\n'
     '            roster TEXT NOT NULL,\n'
     '            seal TEXT NOT NULL\n'
     '        )'),
    'CREATE INDEX inbox_sender ON inbox (sender, received)',
    'CREATE INDEX inbox_stranger ON inbox (stranger, received)',
    'CREATE INDEX players_email ON players (lower(email))',
    ('CREATE TRIGGER events_no_update BEFORE UPDATE ON events\n'
     "       BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"),
    ('CREATE TRIGGER events_no_delete BEFORE DELETE ON events\n'
     "       BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"),
    ('CREATE TABLE snapshots (\n'
     '            game_id INTEGER NOT NULL REFERENCES games(id),\n'
     '            seq INTEGER NOT NULL,\n'
     '            hash TEXT NOT NULL,\n'
     '            engine TEXT NOT NULL,\n'
     '            state BLOB NOT NULL,\n'
     '            seal TEXT NOT NULL,\n'
     '            PRIMARY KEY (game_id, seq)\n'
     '        )'),
    ('CREATE TABLE outbox_mail (\n'
     '            id INTEGER PRIMARY KEY REFERENCES outbox(id),\n'
     '            raw BLOB NOT NULL\n'
     '        , wire INTEGER NOT NULL DEFAULT 0)'),
    'CREATE INDEX outbox_recipient_lower ON outbox (lower(recipient), purpose, created)',
    'CREATE INDEX games_referee_lower ON games (lower(referee))',
)


def write_schema(store: StoreBase, now: str | None) -> list[str]:
    """Make the schema of ``SCHEMA_OF`` in an empty database, in the caller's
    transaction, with the rows the migrations write into a new file: each migration
    with ``now``, the server secret's fingerprint and the (empty) sealed list of
    games (0004). Returns the names of the migrations it stands for."""
    conn = store.conn
    for sql in SCHEMA:
        conn.execute(sql)
    conn.executemany("INSERT INTO migrations (name, applied_at) VALUES (?, ?)",
                     [(name, now) for name in SCHEMA_OF])
    conn.execute("INSERT INTO meta (name, value) VALUES ('secret_fingerprint', ?)",
                 [store.secret.fingerprint])
    store.seal_games()
    return list(SCHEMA_OF)
