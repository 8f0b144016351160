"""Tampering with the record is found by ``pbem audit`` (issue 15): someone holding the
database file, but not the server's secret, deletes, edits or adds rows and rehashes
the chain as the code would. Each case failed before the chain was keyed and anchored.
Also ``pbem backup`` and the restore."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from mailtable import Table

from pbem.cli import main
from pbem.store import open_store

ZERO = "0" * 64
CONTENT = ("game_id", "seq", "kind", "command", "text", "actor", "source", "received",
           "facts", "log", "revert_to")


def cli(db: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", str(db), *args], catch_exceptions=False)


def played(tmp_path: Path) -> Table:
    """Two games; the first with moves by mail, table talk and an undo."""
    table = Table(tmp_path)
    for name, text in [("Ann", "buy SV\nsay good luck all"), ("Ben", "buy CS"),
                       ("Cat", "buy DH"), ("Dan", "say hmm"), ("Dan", "buy MH")]:
        assert table.send(name, text).status == "processed"
    other = Table(tmp_path)  # the same database, a second game
    other.uid = 1000  # its mails have UIDs of their own
    assert other.send("Ann", "buy SV").status == "processed"
    assert other.texts() == ["buy SV"]
    other.store.close()
    return table


def db_of(table: Table) -> Path:
    return Path(table.store.conn.execute("PRAGMA database_list").fetchone()[2])


def played_file(tmp_path: Path) -> tuple[Path, int]:
    """The database file of ``played`` (closed) and its first game."""
    table = played(tmp_path)
    db = db_of(table)
    table.store.close()
    return db, table.game


def rehash(conn: sqlite3.Connection, game: int) -> None:
    """Recompute the game's chain with the documented formula, as an attacker with the
    file (and the source code, but not the secret) would."""
    rows = conn.execute("SELECT * FROM events WHERE game_id = ? ORDER BY seq", [game])
    names = [d[0] for d in rows.description]
    prev = ZERO
    for values in rows.fetchall():
        row = dict(zip(names, values, strict=True))
        content = {k: json.loads(row[k]) if k in ("command", "facts", "log") and row[k]
                   is not None else row[k] for k in CONTENT}
        text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        digest = hashlib.sha256((prev + text).encode()).hexdigest()
        conn.execute("UPDATE events SET prev_hash = ?, hash = ? WHERE game_id = ? AND seq = ?",
                     [prev, digest, game, row["seq"]])
        prev = digest


def tamper(db: Path, game: int, change: Callable[[sqlite3.Connection], None],
           rehashed: bool = True) -> None:
    conn = sqlite3.connect(db)
    try:
        conn.execute("DROP TRIGGER IF EXISTS events_no_update")
        conn.execute("DROP TRIGGER IF EXISTS events_no_delete")
        change(conn)
        if rehashed:
            rehash(conn, game)
        conn.commit()
    finally:
        conn.close()


def talk_seq(db: Path, game: int) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("SELECT seq FROM events WHERE game_id = ? AND text LIKE 'say %'"
                                " ORDER BY seq LIMIT 1", [game]).fetchone()[0])
    finally:
        conn.close()


def sql(statement: str, *params: object) -> Callable[[sqlite3.Connection], None]:
    return lambda conn: conn.execute(statement, params).close()


CASES: dict[str, Callable[[Path, int], Callable[[sqlite3.Connection], None]]] = {
    "last event deleted": lambda db, g: sql(
        "DELETE FROM events WHERE game_id = ? AND seq = (SELECT MAX(seq) FROM events "
        "WHERE game_id = ?)", g, g),
    "all events deleted": lambda db, g: sql("DELETE FROM events WHERE game_id = ?", g),
    "cash added to talk": lambda db, g: sql(
        "UPDATE events SET facts = ? WHERE game_id = ? AND seq = ?",
        json.dumps([{"f": "cash", "from": "bank", "to": "p:Dan", "amount": 500}]), g,
        talk_seq(db, g)),
    "text changed": lambda db, g: sql(
        "UPDATE events SET text = 'buy CA' WHERE game_id = ? AND text = 'buy SV'", g),
    "time changed": lambda db, g: sql(
        "UPDATE events SET received = '2023-01-01T00:00:00+00:00' WHERE game_id = ? AND "
        "seq = 2", g),
    "address changed": lambda db, g: sql(
        "UPDATE players SET email = 'evil@evil.test' WHERE game_id = ? AND seat = 0", g),
    "player renamed": lambda db, g: sql(
        "UPDATE players SET name = 'Eve' WHERE game_id = ? AND seat = 3", g),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_tampering_is_found(tmp_path: Path, case: str) -> None:
    db, game = played_file(tmp_path)
    assert cli(db, "audit", str(game)).exit_code == 0
    tamper(db, game, CASES[case](db, game))
    result = cli(db, "audit", str(game))
    assert result.exit_code == 1, (case, result.output)
    assert "audit failed" in result.output
    everything = cli(db, "audit", "--all")
    assert everything.exit_code == 1 and f"game #{game}" in everything.output


def test_stored_json_that_no_longer_decodes_is_reported_not_raised(tmp_path: Path) -> None:
    """A referee's audit of a damaged file says where the record breaks, in a sentence:
    the events before it are checked, nothing after."""
    db, game = played_file(tmp_path)
    tamper(db, game, sql("UPDATE events SET facts = '{not json' WHERE game_id = ? AND "
                         "seq = 3", game), rehashed=False)
    result = cli(db, "audit", str(game))
    assert result.exit_code == 1, result.output
    assert "audit failed" in result.output
    assert "stored JSON does not decode" in result.output
    assert "Traceback" not in result.output
    logged = cli(db, "log", str(game))  # a command that reads the event says so too
    assert logged.exit_code == 1, logged.output
    assert f"Event 3 of game #{game} no longer reads" in logged.output


def test_a_deleted_game_is_found(tmp_path: Path) -> None:
    db, game = played_file(tmp_path)
    assert cli(db, "audit", "--all").exit_code == 0
    def delete_game(conn: sqlite3.Connection) -> None:
        for table in ("events", "players", "chain_heads", "games"):
            key = "id" if table == "games" else "game_id"
            conn.execute(f"DELETE FROM {table} WHERE {key} = ?", [game]).close()

    tamper(db, game, delete_game, rehashed=False)
    result = cli(db, "audit", "--all")
    assert result.exit_code == 1 and f"game #{game}" in result.output


def test_audit_all_lists_every_problem(tmp_path: Path) -> None:
    db, game = played_file(tmp_path)
    tamper(db, game, sql("UPDATE events SET text = 'pass' WHERE game_id = ? AND seq IN (2, 4)",
                         game), rehashed=False)
    tamper(db, game + 1, CASES["last event deleted"](db, game + 1))
    result = cli(db, "audit", "--all")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert any(f"game #{game}" in line and "event 2" in line for line in lines)
    assert any(f"game #{game}" in line and "event 4" in line for line in lines)
    assert any(f"game #{game + 1}" in line for line in lines)


def test_backup_and_restore(tmp_path: Path) -> None:
    table = played(tmp_path)
    db, game = db_of(table), table.game
    backup = tmp_path / "backups" / "pbem-backup.db"
    backup.parent.mkdir()
    result = cli(db, "backup", str(backup))
    assert result.exit_code == 0, result.output
    assert (backup.stat().st_mode & 0o777) == 0o600
    assert table.send("Ann", "say after the backup").status == "processed"  # played on
    events_before = len(table.store.events(game))
    table.store.close()
    # the disk dies: the database is lost, the secret file was kept apart
    for file in tmp_path.glob("pbem.db*"):
        if not file.name.endswith(".secret"):
            file.unlink()
    restored = cli(db, "restore", str(backup))
    assert restored.exit_code == 0, restored.output
    assert cli(db, "audit", "--all").exit_code == 0
    store = open_store(db, now="2024-05-02T00:00:00+00:00")
    try:
        assert len(store.events(game)) == events_before - 1
    finally:
        store.close()
    # a backup whose record was changed is refused
    broken = tmp_path / "broken.db"
    shutil.copy(backup, broken)
    tamper(broken, game, CASES["text changed"](broken, game))
    refused = cli(db, "restore", str(broken), "--force")
    assert refused.exit_code == 1 and "audit" in refused.output


def test_every_kind_is_checked(tmp_path: Path) -> None:
    """An event of a kind audit does not know is reported, as is a record-only kind
    (talk, settings) that carries facts; the chain notices the rows too."""
    from pbem import service

    db, game = played_file(tmp_path)
    cash = json.dumps([{"f": "cash", "from": "bank", "to": "p:Ann", "amount": 1}])

    def add(conn: sqlite3.Connection) -> None:
        last = conn.execute("SELECT MAX(seq), hash FROM events WHERE game_id = ?",
                            [game]).fetchone()
        for seq, kind in ((last[0] + 1, "bogus"), (last[0] + 2, "talk")):
            conn.execute("INSERT INTO events (game_id, seq, kind, command, text, actor, source, "
                         "received, facts, log, revert_to, prev_hash, hash) VALUES "
                         "(?, ?, ?, NULL, 'x', 'Ann', 'sql', '2030', ?, '[]', NULL, ?, ?)",
                         [game, seq, kind, cash if kind == "talk" else "[]", last[1], last[1]])

    tamper(db, game, add, rehashed=False)
    store = open_store(db, now="2030")
    try:
        problems = [str(p) for p in service.audit(store, game).problems]
    finally:
        store.close()
    assert any("unknown kind 'bogus'" in p for p in problems), problems
    assert any("a talk event" in p and "carries facts" in p for p in problems), problems
    assert any("events were added" in p for p in problems), problems


def test_facts_decided_again_are_compared_as_their_records() -> None:
    """The audit compares a decision's facts with the stored ones read back: field by
    field first, as records where those differ (a tuple decided, a list read back:
    the same record), so no difference in the records is missed."""
    from pbem.engine.facts import Cash, OverLimit
    from pbem.engine.game import Decision
    from pbem.service import _same_facts

    stored = [OverLimit("Ann", ["PRR", "NYC"]), Cash("bank", "p:Ann", 10)]
    assert _same_facts(Decision([OverLimit("Ann", ["PRR", "NYC"]), Cash("bank", "p:Ann", 10)]),
                       stored)
    held_as_tuple = Decision([OverLimit("Ann", ("PRR", "NYC")),  # type: ignore[arg-type]
                              Cash("bank", "p:Ann", 10)])
    assert held_as_tuple.facts != stored and _same_facts(held_as_tuple, stored)
    assert not _same_facts(Decision([OverLimit("Ann", ["PRR"]), Cash("bank", "p:Ann", 10)]),
                           stored)
    assert not _same_facts(Decision([OverLimit("Ann", ["PRR", "NYC"])]), stored)
    assert not _same_facts(Decision([Cash("bank", "p:Ann", 10),
                                     OverLimit("Ann", ["PRR", "NYC"])]), stored)


def test_a_missing_server_secret_is_a_sentence(tmp_path: Path) -> None:
    """The store refusing to open (its secret gone) is told as the store's sentence, by
    any command, not as a trace."""
    db, game = played_file(tmp_path)
    Path(f"{db}.secret").unlink()
    for args in (["audit", str(game)], ["show", str(game)], ["log", str(game)]):
        result = cli(db, *args)
        assert result.exit_code == 1, (args, result.output)
        assert "server secret" in result.output and "Restore the file" in result.output
