"""A new file gets the schema the migrations make in one piece (pbem/store/schema.py):
the same file as one made by running every migration, as far as anything can read it."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from pbem.store import MIGRATIONS, Store, applied_migrations, apply_migrations, open_store
from pbem.store.db import connect
from pbem.store.schema import SCHEMA_OF
from pbem.store.secret import random_secret

NOW = "2024-05-01T12:00:00+00:00"
SECRET = random_secret()

#: what describes a database and its tables, besides sqlite_master
FILE_PRAGMAS = ("user_version", "application_id", "page_size", "encoding", "auto_vacuum",
                "journal_mode")
TABLE_PRAGMAS = ("table_xinfo", "index_list", "foreign_key_list")


def by_the_migrations(path: Path) -> None:
    """A new file made as before schema.py: every migration in turn."""
    store = Store(connect(path), SECRET)
    try:
        assert apply_migrations(store, now=NOW, migrations=MIGRATIONS) == \
            [name for name, _ in MIGRATIONS]
    finally:
        store.close()


def described(path: Path) -> dict[str, Any]:
    """Everything SQLite says of the file's schema and contents, but where it keeps
    them (the root pages) and how often the schema changed (the schema cookie)."""
    conn = sqlite3.connect(path)
    try:
        found: dict[str, Any] = {
            "master": conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                                   "ORDER BY rowid").fetchall(),
            "pragmas": {p: conn.execute(f"PRAGMA {p}").fetchall() for p in FILE_PRAGMAS},
            "integrity": conn.execute("PRAGMA integrity_check").fetchall(),
        }
        for kind, name in conn.execute("SELECT type, name FROM sqlite_master"):
            if kind == "table":
                for pragma in TABLE_PRAGMAS:
                    found[f"{pragma} {name}"] = conn.execute(
                        f"PRAGMA {pragma}({name})").fetchall()
                found[f"rows {name}"] = conn.execute(
                    f"SELECT * FROM {name} ORDER BY rowid").fetchall()
            elif kind == "index":
                found[f"index_xinfo {name}"] = conn.execute(
                    f"PRAGMA index_xinfo({name})").fetchall()
        return found
    finally:
        conn.close()


def test_the_schema_stands_for_every_migration() -> None:
    """A migration added without its result in schema.py leaves new files to the
    migrations (as before): add its statements to SCHEMA and its name to SCHEMA_OF,
    and this test's next one shows whether they are right."""
    assert list(SCHEMA_OF) == [name for name, _ in MIGRATIONS]


def test_a_new_file_is_the_file_the_migrations_make(tmp_path: Path) -> None:
    by_the_migrations(tmp_path / "migrated.db")
    open_store(tmp_path / "new.db", now=NOW, secret=SECRET).close()
    migrated, new = described(tmp_path / "migrated.db"), described(tmp_path / "new.db")
    assert new == migrated
    assert ("table", "outbox_mail") in {row[:2] for row in new["master"]}
    assert len(new["rows migrations"]) == len(MIGRATIONS)


def test_a_new_file_plays_as_one_the_migrations_made(tmp_path: Path) -> None:
    """Both files take the same game and its events, and seal them the same."""
    by_the_migrations(tmp_path / "migrated.db")
    contents = []
    for name in ("migrated.db", "new.db"):
        with open_store(tmp_path / name, now=NOW, secret=SECRET) as store:
            assert applied_migrations(store.conn) == list(SCHEMA_OF)
            game = store.create_game("Test", {"title": "1830"}, 1, "1", "r", NOW)
            store.add_player(game, 0, "Ann", "a@x.test", "h")
            store.append_event(game, 1, kind="talk", command=None, text="hello", actor="Ann",
                               source="cli", received=NOW, facts=[], log=["Ann: hello"])
            assert store.verify_record(game) == [] and store.verify_games() == []
        contents.append({k: v for k, v in described(tmp_path / name).items()
                         if k.startswith("rows ")})
    assert contents[0] == contents[1]


def test_a_file_with_tables_but_no_migrations_is_not_taken_for_a_new_one(
        tmp_path: Path) -> None:
    """Only an empty database gets the schema at once: anything else goes through the
    migrations, which refuse what they cannot take (here 0001's games table exists)."""
    conn = sqlite3.connect(tmp_path / "odd.db")
    conn.execute("CREATE TABLE games (id INTEGER)")
    conn.commit()
    conn.close()
    try:
        open_store(tmp_path / "odd.db", now=NOW, secret=SECRET).close()
    except sqlite3.OperationalError as exc:
        assert "already exists" in str(exc)
    else:
        raise AssertionError("an odd file was taken for a new one")
