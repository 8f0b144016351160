"""Snapshots of game states (pbem.snapshot): kept for speed, never the truth. Loading a
game starts from the newest usable one; one of another engine, of a changed history or
behind a revert is not used; ``audit`` compares each with the game rebuilt from its
events and drops one that differs or that another engine wrote."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem import service, snapshot
from pbem.engine.game import apply_facts
from pbem.engine.state import GameState
from pbem.store import Store, open_store

NOW = "2024-05-01T10:00:00+00:00"
MOVES = [("Ann", "buy SV"), ("Ben", "buy CS"), ("Cat", "buy DH"), ("Ann", "buy MH"),
         ("Ben", "buy CA"), ("Cat", "pass")]


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[Store]:
    opened = open_store(tmp_path / "pbem.db", now=NOW)
    yield opened
    opened.close()


@pytest.fixture()
def game(store: Store) -> int:
    created = service.create_game(store, "1830", [("Ann", "a@x.test"), ("Ben", "b@x.test"),
                                                  ("Cat", "c@x.test")],
                                  seed=1, seating="fixed", options={}, now=NOW)
    for actor, command in MOVES:
        service.act(store, created.game_id, actor, command, source="test", now=NOW)
    return created.game_id


def rebuilt(store: Store, game_id: int) -> GameState:
    """The game from its events alone."""
    state = service.initial(store, game_id)
    for event in store.effective_events(game_id):
        apply_facts(state, event["facts"])
    return state


def snapshot_now(store: Store, game_id: int) -> None:
    """Load the game as a mail does (in a transaction): the state is kept as a snapshot."""
    with store.transaction():
        service.load(store, game_id)


def last(store: Store, game_id: int) -> dict[str, Any]:
    return store.event_marks(game_id)[-1]


def plant(store: Store, game_id: int, state: GameState, seq: int | None = None,
          engine: str | None = None, event_hash: str | None = None) -> None:
    """A snapshot written by hand (a wrong one, to see who reads it)."""
    mark = next(m for m in store.event_marks(game_id) if seq is None or m["seq"] == seq) \
        if seq is not None else last(store, game_id)
    store.put_snapshot(game_id, int(mark["seq"]), event_hash or str(mark["hash"]),
                       engine or snapshot.engine_fingerprint(), snapshot.encode(state))


def test_a_loaded_game_is_kept_and_read_back_as_the_rebuild(store: Store, game: int) -> None:
    snapshot_now(store, game)
    rows = store.snapshots(game)
    assert rows and rows[0]["seq"] == last(store, game)["seq"]
    assert service.load(store, game) == rebuilt(store, game)
    # acting goes on from it: the next command is decided on the snapshot's state
    service.act(store, game, "Ann", "pass", source="test", now=NOW)
    assert service.load(store, game) == rebuilt(store, game)


def test_load_starts_from_the_snapshot_and_audit_drops_one_that_differs(
        store: Store, game: int) -> None:
    wrong = rebuilt(store, game)
    wrong.bank += 1
    plant(store, game, wrong)
    assert service.load(store, game).bank == wrong.bank  # used: it is the cache
    result = service.audit(store, game)
    assert result.problem is None
    assert any("differed from the game rebuilt" in note for note in result.notes)
    assert [row["seq"] for row in store.snapshots(game)] == [5]  # the act's, good
    assert service.load(store, game) == rebuilt(store, game)
    assert service.audit(store, game).notes == []  # a good snapshot is no news
    snapshot_now(store, game)
    assert service.audit(store, game).notes == [] and store.snapshots(game)


def test_a_snapshot_of_another_engine_is_not_used_and_audit_drops_it(
        store: Store, game: int) -> None:
    wrong = rebuilt(store, game)
    wrong.bank += 1
    plant(store, game, wrong, engine="1:an-older-engine")
    assert service.load(store, game) == rebuilt(store, game)
    assert service.audit(store, game).notes == []
    assert [row["seq"] for row in store.snapshots(game)] == [5]


def test_a_snapshot_whose_event_changed_is_not_used(store: Store, game: int) -> None:
    wrong = rebuilt(store, game)
    wrong.bank += 1
    plant(store, game, wrong, event_hash="0" * 64)
    assert service.load(store, game) == rebuilt(store, game)


def test_a_revert_before_the_snapshot_rebuilds_the_game(store: Store, game: int) -> None:
    snapshot_now(store, game)
    kept = store.snapshots(game)[0]["seq"]
    service.undo(store, game, 1, actor="referee", source="test", now=NOW)
    state = service.load(store, game)
    assert state == rebuilt(store, game)
    assert state.privates["CS"].owner == "bank"  # Ben's purchase (event 2) undone
    snapshot_now(store, game)  # the reverted game is kept in its turn
    assert store.snapshots(game)[0]["seq"] > kept
    assert service.load(store, game) == rebuilt(store, game)


def test_loading_outside_a_transaction_writes_nothing(store: Store, game: int) -> None:
    store.drop_snapshots(game)
    service.load(store, game)
    assert store.snapshots(game) == []


class _Planted:
    """Unpickling this writes a file: what a state written into the database by someone
    else could do if pbem read it."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (Path.write_text, (self.path, "ran"))


def test_a_snapshot_written_behind_the_servers_back_is_never_read(
        store: Store, game: int, tmp_path: Path) -> None:
    import pickle
    import sqlite3

    ran = tmp_path / "ran"
    mark = last(store, game)
    conn = sqlite3.connect(tmp_path / "pbem.db")
    conn.execute("INSERT OR REPLACE INTO snapshots (game_id, seq, hash, engine, state, seal) "
                 "VALUES (?, ?, ?, ?, ?, ?)",
                 [game, mark["seq"], mark["hash"], snapshot.engine_fingerprint(),
                  pickle.dumps(_Planted(ran)), "0" * 64])
    conn.commit()
    conn.close()
    assert service.load(store, game) == rebuilt(store, game)
    assert not ran.exists()
    result = service.audit(store, game)
    assert not ran.exists()
    assert [(p.seq, "not written by this server" in p.text) for p in result.problems] == \
        [(mark["seq"], True)]
    left = store.snapshots(game)
    assert left and all(row["sealed"] and row["seq"] < mark["seq"] for row in left)


def test_a_database_written_before_the_keyed_record_and_snapshots_migrates(
        tmp_path: Path) -> None:
    """tests/data/pre-hardening.db.gz was written by main before migrations 0004 (the keyed
    record), 0005 (seats) and 0006 (snapshots): it is migrated through them, and its
    games are then kept and read from snapshots."""
    import gzip

    from pbem.store import MIGRATIONS, applied_migrations

    path = tmp_path / "old.db"
    path.write_bytes(gzip.decompress(
        (Path(__file__).parent / "data" / "pre-hardening.db.gz").read_bytes()))
    old = open_store(path, now=NOW)
    try:
        assert applied_migrations(old.conn) == [name for name, _ in MIGRATIONS]
        assert applied_migrations(old.conn)[3:7] == ["0004_keyed_record",
                                                     "0005_seats_and_referee", "0006_snapshots",
                                                     "0007_outbox_mail"]
        for game_id in (1, 2):
            assert old.snapshots(game_id) == []
            snapshot_now(old, game_id)
            assert old.snapshots(game_id)[0]["sealed"]
            assert service.load(old, game_id) == rebuilt(old, game_id)
            result = service.audit(old, game_id)
            assert result.problems == [] and result.notes == [], (game_id, result)
        service.act(old, 1, service.waiting_for(service.load(old, 1))[0], "pass",
                    source="test", now=NOW)
        assert service.load(old, 1) == rebuilt(old, 1)
    finally:
        old.close()


def test_audit_of_a_database_it_may_not_write_keeps_the_snapshots_and_says_so(
        store: Store, game: int) -> None:
    """audit's only write is dropping bad snapshots (a cache): on a database it may not
    write (here: SQLite's query_only, as a read-only file) it checks the record all the
    same and says the bad snapshot is still there."""
    wrong = rebuilt(store, game)
    wrong.bank += 1
    plant(store, game, wrong)
    store.conn.execute("PRAGMA query_only = ON")
    result = service.audit(store, game)
    assert result.problem is None
    assert any("differed from the game rebuilt" in note for note in result.notes)
    assert any("could not be dropped" in note and "write access" in note
               for note in result.notes)
    store.conn.execute("PRAGMA query_only = OFF")
    assert [row["seq"] for row in store.snapshots(game)] == [6, 5]  # still there
    assert not any("could not" in note for note in service.audit(store, game).notes)
    assert [row["seq"] for row in store.snapshots(game)] == [5]  # dropped now
