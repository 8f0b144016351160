"""The events an ``appending`` block keeps in memory before it writes them, and the
savepoints opened in SQLite only when something uses the connection in them
(StoreBase._write_through): what the store holds, reads and rolls back is as if every
event were written and every savepoint opened at once. Real SQLite files; the SQL run
is watched with the connection's trace callback."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem import service
from pbem.store import ZERO_HASH, Store, event_hash, open_store

T0 = "2024-05-01T12:00:00Z"


FILE = "unwritten.db"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A store (``FILE``) with one game (``game``), of one player, without events."""
    with open_store(tmp_path / FILE, now=T0) as opened:
        opened.add_player(opened.create_game("Test game", {"title": "1830"}, 7, "0.1.0",
                                             "1830-classic", T0), 1, "Alice", "a@x.test", "h")
        yield opened


@pytest.fixture
def game(store: Store) -> int:
    return store.game_ids()[0]


def append(store: Store, game_id: int, seq: int, text: str = "pass") -> dict[str, Any]:
    """Append as service.Recorder does (hashed when written, in an appending block)."""
    return store.append_event(game_id, seq, kind="command", command={"type": "pass"},
                              text=text, actor="Alice", source="cli", received=T0,
                              facts=[{"type": "turn", "to": "Alice"}, {"n": {"1": 2}}],
                              log=[text, "1 share"], as_stored=True, hash_later=True)


class Statements:
    """The SQL statements the store's connection runs (its trace callback)."""

    def __init__(self, store: Store) -> None:
        self.seen: list[str] = []
        store.conn.set_trace_callback(self.seen.append)

    def take(self) -> list[str]:
        seen = self.seen[:]
        self.seen.clear()
        return [" ".join(sql.split()[:2]) for sql in seen]


def stored_seqs(folder: Path, game_id: int) -> list[int]:
    """The seqs in the file as another connection sees them (committed)."""
    conn = sqlite3.connect(folder / FILE)
    try:
        return [seq for (seq,) in conn.execute(
            "SELECT seq FROM events WHERE game_id = ? ORDER BY seq", [game_id])]
    finally:
        conn.close()


def test_a_savepoint_that_only_appends_runs_no_sql_until_the_events_are_read(
        store: Store, game: int) -> None:
    with store.appending(game):
        append(store, game, 1)  # the first reads the head
        sql = Statements(store)
        for seq in (2, 3):
            with store.transaction():  # a command of an import (service.act)
                append(store, game, seq)
        assert sql.take() == []
        assert [e["seq"] for e in store.events(game)] == [1, 2, 3]
        assert sql.take() == ["INSERT INTO", "INSERT INTO", "SELECT 1", "SELECT *"]


def test_the_events_are_written_in_their_savepoints_when_something_reads(
        store: Store, game: int) -> None:
    with store.appending(game):
        append(store, game, 1)
        sql = Statements(store)
        with store.transaction():
            append(store, game, 2)
            with store.transaction():
                append(store, game, 3)
                assert store.last_seq(game) == 3  # the head, kept: nothing read
                assert sql.take() == []
                store.game(game)  # a read: the SQL it stands for, in order, before it
                assert sql.take() == ["SAVEPOINT pbem_store_1", "INSERT INTO",
                                      "SAVEPOINT pbem_store_2", "INSERT INTO", "SELECT *"]
                append(store, game, 4)
            assert sql.take() == ["RELEASE SAVEPOINT"]  # the 4th kept for the block
        assert sql.take() == ["RELEASE SAVEPOINT"]
    assert sql.take()[:2] == ["INSERT INTO", "SAVEPOINT pbem_store_1"]  # then sealed
    assert [e["seq"] for e in store.events(game)] == [1, 2, 3, 4]
    assert store.verify_record(game) == []


def test_a_rollback_drops_the_events_of_its_savepoint_written_or_not(
        store: Store, game: int, tmp_path: Path) -> None:
    with store.appending(game):
        append(store, game, 1)
        with store.transaction():
            append(store, game, 2)
            with pytest.raises(RuntimeError):
                with store.transaction():  # not opened: its events only in memory
                    append(store, game, 3)
                    raise RuntimeError("refused")
            with pytest.raises(RuntimeError):
                with store.transaction():  # opened by a read: rolled back in SQLite
                    append(store, game, 3)
                    assert [e["seq"] for e in store.events(game)] == [1, 2, 3]
                    append(store, game, 4)
                    raise RuntimeError("refused")
            assert store.last_seq(game) == 2
            third = append(store, game, 3, "pass again")
        with pytest.raises(RuntimeError):
            with store.transaction():
                append(store, game, 4)
                raise RuntimeError("refused")
        assert stored_seqs(tmp_path, game) == []  # nothing committed yet
    events = store.events(game)
    assert [e["seq"] for e in events] == [1, 2, 3]
    assert events[-1]["text"] == third["text"] == "pass again"
    assert stored_seqs(tmp_path, game) == [1, 2, 3]
    assert store.verify_record(game) == []


def test_an_outer_rollback_leaves_nothing_in_memory_or_in_the_file(
        store: Store, game: int, tmp_path: Path) -> None:
    with pytest.raises(RuntimeError):
        with store.transaction(), store.appending(game):
            append(store, game, 1)
            with store.transaction():
                append(store, game, 2)
            raise RuntimeError("crash")
    assert stored_seqs(tmp_path, game) == []
    with store.appending(game):  # the next block starts from the file
        append(store, game, 1, "again")
    assert [e["text"] for e in store.events(game)] == ["again"]
    assert store.verify_record(game) == []


def test_the_events_of_a_block_are_committed_with_the_transaction(
        store: Store, game: int, tmp_path: Path) -> None:
    with store.transaction():
        with store.appending(game):
            for seq in (1, 2):
                with store.transaction():
                    append(store, game, seq)
        assert stored_seqs(tmp_path, game) == []
    assert stored_seqs(tmp_path, game) == [1, 2]
    assert store.verify_record(game) == []


def test_act_in_an_appending_block_records_a_refused_text_not_at_all(tmp_path: Path) -> None:
    """service.act's commands of one text are one savepoint: in an import's block too
    (its events not yet written), a text whose second command is refused leaves none."""
    players = [("Ann", "a@x.test"), ("Ben", "b@x.test"), ("Cat", "c@x.test")]
    with open_store(tmp_path / "act.db", now=T0) as store:
        game_id = service.create_game(store, "1830", players, seed=1, seating="fixed",
                                      options={}, now=T0).game_id
        with store.appending(game_id):
            service.act(store, game_id, "Ann", "buy SV", source="test", now=T0)
            with pytest.raises(service.CommandError):
                service.act(store, game_id, "Ben", "buy CS; buy CS", source="test", now=T0)
            done = service.act(store, game_id, "Ben", "buy CS", source="test", now=T0)
        assert [a.seq for a in done.applied] == [2]
        assert [e["text"] for e in store.events(game_id)] == ["buy SV", "buy CS"]
        assert store.verify_record(game_id) == []
        assert service.audit(store, game_id).problems == []


def test_events_hashed_when_written_are_those_appended_one_by_one(
        store: Store, game: int, tmp_path: Path) -> None:
    """The same rows, hashes and chain head as appending each event alone, outside any
    block (hashed at once), in another file with the same secret; a row returned in
    the block has no hash yet."""
    with store.appending(game):
        assert append(store, game, 1)["hash"] is None
        with store.transaction():
            append(store, game, 2)
        store.game(game)  # written, hashed
        returned = append(store, game, 3)
        assert returned["hash"] is None and returned["prev_hash"] is not None
        append(store, game, 4)
        talk = store.append_event(game, 5, kind="talk", command=None, text="hi",
                                  actor="Alice", source="cli", received=T0, facts=[],
                                  log=["hi"])  # hashed at once: the ones before first
        assert talk["hash"] is not None and talk["prev_hash"] is not None
        append(store, game, 6)
    with open_store(tmp_path / "alone.db", now=T0, secret=store.secret) as alone:
        alone.add_player(alone.create_game("Test game", {"title": "1830"}, 7, "0.1.0",
                                           "1830-classic", T0), 1, "Alice", "a@x.test", "h")
        assert append(alone, game, 1)["hash"] is not None  # no block: hashed at once
        for seq in (2, 3, 4):
            append(alone, game, seq)
        assert alone.append_event(game, 5, kind="talk", command=None, text="hi",
                                  actor="Alice", source="cli", received=T0, facts=[],
                                  log=["hi"]) == talk
        append(alone, game, 6)
        assert alone.events(game) == store.events(game)
        assert alone.verify_record(game) == store.verify_record(game) == []
        head = "SELECT events, last_hash, seal FROM chain_heads"
        assert alone.conn.execute(head).fetchall() == store.conn.execute(head).fetchall()


def test_an_event_whose_keys_were_numbers_is_hashed_as_decoded(
        store: Store, game: int) -> None:
    """A key written from a number reads back as text (and sorts otherwise): hashed when
    written, such an event is hashed from its texts decoded, as event_hash says."""
    with store.appending(game):
        store.append_event(game, 1, kind="command", command={"type": "pass", "n": {10: "a", 9: 1}},
                           text="pass", actor="Alice", source="cli", received=T0,
                           facts=[{"n": {2: 1, 10: 2}}], log=["x"], as_stored=True,
                           hash_later=True)
    assert store.verify_record(game) == []
    assert store.events(game)[0]["hash"] == event_hash(ZERO_HASH, store.events(game)[0],
                                                       store.secret)
