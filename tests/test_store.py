"""Tests of pbem.store on real SQLite files (no sleeps, no timing assertions)."""

from __future__ import annotations

import multiprocessing
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from pbem.store import (
    MIGRATIONS,
    ZERO_HASH,
    ConcurrencyError,
    Store,
    StoreError,
    UnknownGame,
    UnknownPlayer,
    applied_migrations,
    apply_migrations,
    check_key,
    default_db_path,
    effective,
    event_hash,
    hash_key,
    new_player_key,
    open_store,
)
from pbem.store.base import canonical_json
from pbem.store.db import connect
from pbem.store.events import CONTENT_FIELDS, content_json, decode_event, written_content_json
from pbem.store.keys import KEY_ALPHABET, is_legacy_hash
from pbem.store.mailqueue import kept_copy, redacted, sent_bytes
from pbem.store.secret import random_secret

T0 = "2024-05-01T12:00:00Z"


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "pbem.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    with open_store(db_path, now=T0) as s:
        yield s


@pytest.fixture
def game(store: Store) -> int:
    game_id = store.create_game("Test game", {"title": "1830"}, 7, "0.1.0", "1830-classic", T0)
    store.add_player(game_id, 1, "Alice", "alice@example.org", "h1")
    store.add_player(game_id, 2, "Bob", "bob@example.org", "h2")
    return game_id


def append(store: Store, game_id: int, seq: int, text: str = "pass", **kw: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "kind": "command",
        "command": {"type": "pass"},
        "text": text,
        "actor": "Alice",
        "source": f"<m{seq}@example.org>",
        "received": T0,
        "facts": [{"type": "turn", "to": "Bob"}],
        "log": [f"Alice: {text}"],
    }
    fields.update(kw)
    return store.append_event(game_id, seq, **fields)


def revert(store: Store, game_id: int, seq: int, to: int) -> dict[str, Any]:
    return append(
        store,
        game_id,
        seq,
        f"revert to {to}",
        kind="revert",
        command=None,
        revert_to=to,
        facts=[],
        log=[f"Reverted to event {to}."],
    )


def count(path: Path, table: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    finally:
        conn.close()


# -- opening and migrations ------------------------------------------------


def test_default_db_path_honours_pbem_db() -> None:
    assert default_db_path({}) == Path("pbem.db")
    assert default_db_path({"PBEM_DB": ""}) == Path("pbem.db")
    assert default_db_path({"PBEM_DB": "/srv/pbem/games.db"}) == Path("/srv/pbem/games.db")


def test_migrations_are_recorded_and_idempotent(db_path: Path) -> None:
    with open_store(db_path, now=T0) as store:
        names = [name for name, _ in MIGRATIONS]
        assert applied_migrations(store.conn) == names
        for table in ("games", "players", "events", "inbox", "outbox", "migrations"):
            assert store.db.table(table).exists()
        assert apply_migrations(store, now="later") == []
        game_id = store.create_game("g", {}, 1, "e", "r", T0)
    with open_store(db_path, now="much later") as store:  # reopening applies nothing
        rows = store.db.execute("SELECT name, applied_at FROM migrations").fetchall()
        assert rows == [(name, T0) for name in names]
        assert store.game(game_id)["title"] == "g"
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.conn.execute("PRAGMA busy_timeout").fetchone()[0] == 5000


def test_new_migration_is_applied_once(store: Store) -> None:
    calls: list[str] = []

    def add_column(db: Any) -> None:
        calls.append("x")
        db.execute("ALTER TABLE games ADD COLUMN deadline TEXT")

    registry = [*MIGRATIONS, ("0099_deadline", add_column)]
    assert apply_migrations(store, now=T0, migrations=registry) == ["0099_deadline"]
    assert apply_migrations(store, now=T0, migrations=registry) == []
    assert calls == ["x"]
    assert "deadline" in store.db.table("games").columns_dict


def test_outbox_purpose_is_filled_in_for_older_mail(db_path: Path) -> None:
    """0002: older rows get their purpose from their Message-ID; the mail queries use it."""
    with open_store(db_path, now=T0) as s:
        pass
    conn = sqlite3.connect(db_path)  # a file as the code before 0002 left it
    conn.execute("DROP INDEX outbox_recipient_lower")  # 0008's indexes (0008 again below)
    conn.execute("DROP INDEX games_referee_lower")
    conn.execute("ALTER TABLE outbox DROP COLUMN purpose")
    conn.execute("DELETE FROM migrations WHERE name IN ('0002_outbox_purpose', "
                 "'0008_lower_case_lookups')")
    for n, mid in enumerate(["<pbem.3.re.ab12@x.test>", "<pbem.3.turn.cd34@x.test>",
                             "<other@x.test>"]):
        conn.execute("INSERT INTO outbox (message_id, game_id, recipient, subject, "
                     "created, next_attempt) VALUES (?, 3, 'Ann@x.test', 's', ?, ?)",
                     [mid, f"2024-05-0{n + 1}", f"2024-05-0{n + 1}"])
    conn.commit()
    conn.close()
    with open_store(db_path, now=T0) as s:
        assert [r["purpose"] for r in s.outbox_list()] == [None, "turn", "re"]
        assert s.outbox_count("ann@x.test", "2024-05-01", ("re", "rej")) == 1
        assert s.outbox_count("ann@x.test", "2024-05-02", ("re", "rej")) == 0
        found = s.outbox_by_message_id("<pbem.3.turn.cd34@x.test>")
        assert found is not None and found["purpose"] == "turn"
        assert s.outbox_next_due() == "2024-05-01"
        assert s.inbox_processed_uids("INBOX", 1, []) == set()


def test_failing_migration_leaves_no_trace(store: Store) -> None:
    def broken(db: Any) -> None:
        db.execute("CREATE TABLE half (x)")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        apply_migrations(store, migrations=[*MIGRATIONS, ("0099_broken", broken)])
    assert not store.db.table("half").exists()
    assert "0099_broken" not in applied_migrations(store.conn)


def test_a_new_file_is_made_in_one_transaction(db_path: Path) -> None:
    """A file without migrations takes them all or none: one that fails takes back the
    ones before it (a file that has some keeps each one applied, above)."""
    def broken(db: Any) -> None:
        raise RuntimeError("boom")

    store = Store(connect(db_path))
    with pytest.raises(RuntimeError):
        apply_migrations(store, migrations=[*MIGRATIONS, ("0099_broken", broken)])
    assert applied_migrations(store.conn) == [] and not store.db.table("games").exists()
    assert apply_migrations(store, now=T0) == [name for name, _ in MIGRATIONS]
    store.close()


def test_unknown_migration_in_file_is_refused(store: Store) -> None:
    store.db.execute("INSERT INTO migrations (name, applied_at) VALUES ('9999_future', ?)", [T0])
    with pytest.raises(StoreError, match="newer pbem"):
        apply_migrations(store)


# -- games and players -------------------------------------------------------


def test_create_game_and_players(store: Store) -> None:
    game_id = store.create_game(
        "Friday 1830",
        {"bank": 12000, "variants": ["a"]},
        99,
        "0.1.0",
        "r7",
        T0,
        referee="ref@example.org",
    )
    assert store.game(game_id) == {
        "id": game_id,
        "title": "Friday 1830",
        "options": {"bank": 12000, "variants": ["a"]},
        "seed": 99,
        "engine_version": "0.1.0",
        "rules_version": "r7",
        "status": "active",
        "created": T0,
        "referee": "ref@example.org",
        "referee_key_hash": None,
    }
    assert store.create_game("second", {}, 1, "e", "r", T0) == game_id + 1
    store.add_player(game_id, 2, "Bob", "bob@example.org", "hb")
    store.add_player(game_id, 1, "Alice", "alice@example.org", "ha")
    players = store.players(game_id)
    assert [p["name"] for p in players] == ["Alice", "Bob"]
    assert players[0] == {
        "game_id": game_id,
        "seat": 1,
        "name": "Alice",
        "email": "alice@example.org",
        "key_hash": "ha",
        "notify": "every",
        "mail": "full",
        "picture": "on",
        "tz": "UTC",
        "person": None,
        "status": "playing",
    }
    assert store.players(game_id + 1) == []


def test_player_names_unique_ignoring_case(store: Store, game: int) -> None:
    with pytest.raises(StoreError, match="already has a player called Alice"):
        store.add_player(game, 3, "ALICE", "other@example.org", "h")
    with pytest.raises(StoreError, match="Seat 2 of game #1 is already taken by Bob"):
        store.add_player(game, 2, "Carol", "carol@example.org", "h")
    # The index holds even when the check is bypassed.
    with pytest.raises(sqlite3.IntegrityError):
        store.db.execute(
            "INSERT INTO players (game_id, seat, name, email, key_hash)"
            " VALUES (?, 5, 'bob', 'x', 'h')",
            [game],
        )
    other = store.create_game("other", {}, 1, "e", "r", T0)
    store.add_player(other, 1, "alice", "a2@example.org", "h")  # fine in another game
    assert len(store.players(game)) == 2


def test_unknown_game_and_player(store: Store, game: int) -> None:
    with pytest.raises(UnknownGame) as info:
        store.game(12)
    assert str(info.value) == "There is no game #12."
    assert isinstance(info.value, StoreError)
    for call in (
        lambda: store.add_player(12, 1, "A", "a@example.org", "h"),
        lambda: store.events(12),
        lambda: store.last_seq(12),
        lambda: store.verify_chain(12),
        lambda: store.set_status(12, "paused"),
        lambda: append(store, 12, 1),
    ):
        with pytest.raises(UnknownGame):
            call()
    with pytest.raises(UnknownPlayer, match="Game #1 has no player in seat 9."):
        store.set_notify(game, 9, "turn")


def test_player_and_game_updates(store: Store, game: int) -> None:
    store.set_player_email(game, 1, "alice@new.example.org")
    store.set_notify(game, 2, "round")
    store.set_player_key_hash(game, 2, "h2b")
    alice, bob = store.players(game)
    assert alice["email"] == "alice@new.example.org"
    assert (bob["notify"], bob["key_hash"]) == ("round", "h2b")
    with pytest.raises(StoreError, match="every, round, turn"):
        store.set_notify(game, 1, "never")
    store.set_player_setting(game, 1, "mail", "compact")
    store.set_player_setting(game, 1, "tz", "Europe/Berlin")
    assert (store.players(game)[0]["mail"], store.players(game)[0]["tz"]) == \
        ("compact", "Europe/Berlin")
    with pytest.raises(StoreError, match="full, compact"):
        store.set_player_setting(game, 1, "mail", "tiny")
    with pytest.raises(StoreError, match="no setting 'colour'"):
        store.set_player_setting(game, 1, "colour", "red")
    assert [p["name"] for p in store.players_by_email(" ALICE@new.example.org")] == ["Alice"]
    for status in ("paused", "active", "finished"):
        store.set_status(game, status)
        assert store.game(game)["status"] == status
    with pytest.raises(StoreError, match="active, paused, finished"):
        store.set_status(game, "deleted")


# -- events and the hash chain ---------------------------------------------


def test_append_builds_a_verifiable_chain(store: Store, game: int) -> None:
    assert store.last_seq(game) == 0
    assert store.events(game) == []
    assert store.verify_chain(game) is None
    first = append(store, game, 1, kind="setup", command=None, text="setup", actor=None)
    second = append(
        store, game, 2, "par PRR 82", command={"type": "par", "corp": "PRR", "price": 82}
    )
    third = append(store, game, 3, "say Grüße €", command={"type": "say", "text": "Grüße €"})
    assert first["prev_hash"] == ZERO_HASH
    assert second["prev_hash"] == first["hash"]
    assert third["prev_hash"] == second["hash"]
    assert store.last_seq(game) == 3
    assert store.events(game) == [first, second, third]
    assert second["command"] == {"type": "par", "corp": "PRR", "price": 82}
    assert second["facts"] == [{"type": "turn", "to": "Bob"}]
    assert second["log"] == ["Alice: par PRR 82"]
    assert store.verify_chain(game) is None


def test_hash_is_the_documented_formula(store: Store, game: int) -> None:
    import hashlib
    import hmac
    import json

    event = append(store, game, 1, "buy SV", command={"type": "buy_private", "private": "SV"})
    content = {k: v for k, v in event.items() if k not in ("hash", "prev_hash")}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert store.secret.path is not None
    key = bytes.fromhex(store.secret.path.read_text().strip())
    message = "\x1f".join(["event", ZERO_HASH, text]).encode()
    assert event["hash"] == hmac.new(key, message, hashlib.sha256).hexdigest()
    assert event["hash"] == event_hash(ZERO_HASH, event, store.secret)
    assert event["hash"] != hashlib.sha256((ZERO_HASH + text).encode()).hexdigest()


def head_row(store: Store, game_id: int) -> tuple[int, str] | None:
    row = store.conn.execute("SELECT events, last_hash FROM chain_heads WHERE game_id = ?",
                             [game_id]).fetchone()
    return None if row is None else (int(row[0]), str(row[1]))


def test_appending_seals_the_head_once_and_chains_as_one_by_one(
    store: Store, game: int, tmp_path: Path
) -> None:
    sealed_before = head_row(store, game)
    with store.appending(game):
        first = append(store, game, 1)
        assert store.events(game) == [first]  # written at once: read in the block
        assert store.last_seq(game) == 1
        second = append(store, game, 2, "par PRR 82",
                        command={"type": "par", "corp": "PRR", "price": 82})
        assert head_row(store, game) == sealed_before  # not yet
    assert head_row(store, game) == (2, second["hash"])
    assert store.verify_record(game) == []
    # the same events appended one by one, in another file with the same secret
    with open_store(tmp_path / "other.db", now=T0, secret=store.secret) as other:
        again = other.create_game("Test game", {"title": "1830"}, 7, "0.1.0", "1830-classic",
                                  T0)
        assert again == game
        assert [append(other, game, 1), append(other, game, 2, "par PRR 82",
                                                command={"type": "par", "corp": "PRR",
                                                         "price": 82})] == [first, second]


def test_appending_reads_the_head_again_after_a_rollback(store: Store, game: int) -> None:
    with store.appending(game):
        append(store, game, 1)
        with pytest.raises(RuntimeError):
            with store.transaction():  # a command of several refused after one was stored
                append(store, game, 2)
                raise RuntimeError("refused")
        assert store.last_seq(game) == 1
        with pytest.raises(StoreError):
            append(store, game, 3)
        second = append(store, game, 2, "pass again")
    assert store.events(game)[-1] == second
    assert store.verify_record(game) == []


def test_appending_that_raises_leaves_nothing(store: Store, game: int, db_path: Path) -> None:
    with pytest.raises(RuntimeError):
        with store.appending(game):
            append(store, game, 1)
            raise RuntimeError("crash")
    assert count(db_path, "events") == 0
    assert store.verify_record(game) == []
    with pytest.raises(UnknownGame):
        with store.appending(game + 1):
            pass


def test_replaced_options_are_the_games_and_sealed(store: Store, game: int) -> None:
    with store.appending(game):
        append(store, game, 1)
        store.replace_options(game, {"title": "1830", "best_run": "free"})
        append(store, game, 2, "pass again")
    assert store.game(game)["options"] == {"title": "1830", "best_run": "free"}
    assert store.verify_record(game) == []
    with pytest.raises(UnknownGame):
        store.replace_options(game + 1, {})


def json_dicts(values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[Any, Any]]:
    """Dicts JSON can write sorted: string keys, or number keys (written as strings, so
    that they read back as other keys, sorted otherwise)."""
    return st.one_of(st.dictionaries(st.text(max_size=3), values, max_size=3),
                     st.dictionaries(st.integers(-20, 20), values, max_size=3))


JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
              st.text(max_size=6)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.tuples(inner, inner),
                            json_dicts(inner)),
    max_leaves=12)


@example(command={2: "a", 10: "b"}, facts=[(1, 2)], log=[], text="", actor=None)
@example(command={"type": "pass"}, facts=[{-1: 0, -5: 1}], log=["x"], text="", actor="A")
@given(command=st.one_of(st.none(), json_dicts(JSON_VALUES)),
       facts=st.lists(JSON_VALUES, max_size=3), log=st.lists(st.text(max_size=8), max_size=2),
       text=st.text(max_size=10), actor=st.one_of(st.none(), st.text(max_size=5)))
def test_the_hashed_content_is_the_canonical_json_of_the_decoded_event(
    command: Any, facts: list[Any], log: list[str], text: str, actor: str | None
) -> None:
    """append_event hashes the stored texts where no key of them may have been written
    from a number, true, false or null (written_content_json), else content_json, made from
    the stored texts where they are the decoded values' own; verify_chain hashes
    canonical_json of the decoded event. Both are the same text."""
    try:
        stored = {"command": None if command is None else canonical_json(command),
                  "facts": canonical_json(facts), "log": canonical_json(log)}
    except (TypeError, ValueError):  # keys JSON cannot sort or write: never stored
        return
    row = {"game_id": 3, "seq": 7, "kind": "command", "text": text, "actor": actor,
           "source": "<m@x>", "received": T0, "revert_to": None, **stored}
    event = decode_event(row)
    expected = canonical_json({name: event[name] for name in CONTENT_FIELDS})
    written = {"command": command, "facts": facts, "log": log}
    assert content_json(event, row, written) == expected
    assert written_content_json(row, written) == expected


def test_chains_of_games_are_independent(store: Store, game: int) -> None:
    other = store.create_game("other", {}, 1, "e", "r", T0)
    a1 = append(store, game, 1)
    b1 = append(store, other, 1)
    assert a1["prev_hash"] == b1["prev_hash"] == ZERO_HASH
    assert a1["hash"] != b1["hash"]  # game_id is part of the content
    append(store, other, 2)
    assert (store.last_seq(game), store.last_seq(other)) == (1, 2)


def _tamper(path: Path, sql: str, params: tuple[Any, ...] = ()) -> None:
    """Change the file behind the store's back, as someone with the file could."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("DROP TRIGGER IF EXISTS events_no_update")
        conn.execute("DROP TRIGGER IF EXISTS events_no_delete")
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE events SET text = 'par PRR 100' WHERE seq = 3",
        "UPDATE events SET facts = '[]' WHERE seq = 3",
        "UPDATE events SET command = NULL WHERE seq = 3",
        "UPDATE events SET actor = 'Bob' WHERE seq = 3",
        "UPDATE events SET received = '2030-01-01T00:00:00Z' WHERE seq = 3",
        "UPDATE events SET log = 'not json' WHERE seq = 3",
        "UPDATE events SET hash = 'x' || substr(hash, 2) WHERE seq = 3",
        "UPDATE events SET prev_hash = 'x' WHERE seq = 3",
        "DELETE FROM events WHERE seq = 2",
    ],
)
def test_tampering_is_detected(store: Store, game: int, db_path: Path, sql: str) -> None:
    for seq in range(1, 6):
        append(store, game, seq)
    assert store.verify_chain(game) is None
    _tamper(db_path, sql)
    assert store.verify_chain(game) == 3  # deleting event 2 breaks event 3's prev_hash


def test_rehashing_a_tampered_row_without_the_secret_is_caught(
    store: Store, game: int, db_path: Path
) -> None:
    for seq in range(1, 5):
        append(store, game, seq)
    row = dict(store.events(game)[1])
    row["text"] = "forged"
    forged = event_hash(row["prev_hash"], row, random_secret())  # without the server's secret
    _tamper(db_path, "UPDATE events SET text = 'forged', hash = ? WHERE seq = 2", (forged,))
    assert store.verify_chain(game) == 2  # the row names itself, and the next breaks too
    assert store.broken_links(game) == [2, 3]


def test_the_chain_is_checked_on_the_decoded_content_where_the_stored_text_is_not_it(
    store: Store, game: int, db_path: Path
) -> None:
    """broken_links hashes the stored text first; where that is not the canonical JSON
    of the decoded content (a command whose keys were numbers; JSON spaced out by hand)
    it checks the content decoded, as the chain's definition says."""
    append(store, game, 1)
    numbered = append(store, game, 2, command={2: "a", 10: "b"})
    stored = store.db.execute("SELECT command FROM events WHERE seq = 2").fetchone()[0]
    assert stored == '{"2":"a","10":"b"}' != canonical_json(numbered["command"])
    append(store, game, 3)
    assert store.broken_links(game) == []
    _tamper(db_path, "UPDATE events SET facts = ' [ {\"to\": \"Bob\", \"type\": \"turn\"} ]'"
            " WHERE seq = 3")
    assert store.events(game)[2]["facts"] == [{"type": "turn", "to": "Bob"}]
    assert store.broken_links(game) == []  # the same content, as it always was
    _tamper(db_path, "UPDATE events SET facts = '[{\"to\":\"Bob\",\"type\":\"turn\"}]', "
            "command = '{\"10\":\"b\",\"2\":\"z\"}' WHERE seq = 2")
    assert store.broken_links(game) == [2]
    assert [p.seq for p in store.verify_record(game)] == [2]


def test_verified_events_are_the_events_and_the_records_problems(
    store: Store, game: int, db_path: Path
) -> None:
    for seq in range(1, 4):
        append(store, game, seq)
    assert store.verified_events(game) == (store.events(game), [])
    _tamper(db_path, "UPDATE events SET text = 'pass!' WHERE seq = 2")
    events, problems = store.verified_events(game)
    assert events == store.events(game) and events[1]["text"] == "pass!"
    assert problems == store.verify_record(game) and [p.seq for p in problems] == [2]
    with pytest.raises(UnknownGame):
        store.verified_events(game + 1)


def test_events_are_append_only_in_the_database(store: Store, game: int) -> None:
    append(store, game, 1)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.db.execute("UPDATE events SET text = 'x'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.db.execute("DELETE FROM events")
    assert store.verify_chain(game) is None


def test_append_rejects_bad_sequence_and_kinds(store: Store, game: int) -> None:
    append(store, game, 1)
    with pytest.raises(StoreError, match="next one is 2, not 3"):
        append(store, game, 3)
    with pytest.raises(StoreError, match="kind 'chat'"):
        append(store, game, 2, kind="chat")
    with pytest.raises(StoreError, match="earlier event"):
        revert(store, game, 2, 2)
    with pytest.raises(StoreError, match="earlier event"):
        append(store, game, 2, kind="revert", revert_to=None)
    with pytest.raises(StoreError, match="Only a revert"):
        append(store, game, 2, revert_to=1)
    assert store.last_seq(game) == 1


# -- concurrency and atomicity ---------------------------------------------


def test_two_stores_same_seq_exactly_one_wins(store: Store, game: int, db_path: Path) -> None:
    append(store, game, 1)
    with open_store(db_path) as other:
        seen_by_both = other.last_seq(game)
        assert seen_by_both == store.last_seq(game) == 1
        winner = append(store, game, seen_by_both + 1, "bid CS 45")
        with pytest.raises(ConcurrencyError) as info:
            append(other, game, seen_by_both + 1, "bid CS 50", actor="Bob")
        assert str(info.value) == (
            "Someone else changed game #1 first (event 2 already exists); nothing was "
            "recorded. Please look at the game again and resend."
        )
        assert other.events(game)[-1] == winner
        assert other.verify_chain(game) is None
    assert count(db_path, "events") == 2


def test_concurrency_error_inside_a_larger_transaction_writes_nothing(
    store: Store, game: int, db_path: Path
) -> None:
    append(store, game, 1)
    with open_store(db_path) as other:
        append(other, game, 2)
        with pytest.raises(ConcurrencyError):
            with store.transaction():
                store.inbox_add("INBOX", 1, 10, "<a@x>", b"raw", T0)
                append(store, game, 2)
                store.outbox_add("<r@x>", game, "alice@example.org", "Re", b"reply", T0)
    assert store.inbox_list() == []
    assert store.outbox_due("9999") == []
    assert count(db_path, "events") == 2


def test_transaction_that_raises_leaves_nothing(store: Store, game: int, db_path: Path) -> None:
    with pytest.raises(RuntimeError, match="crash"):
        with store.transaction():
            store.inbox_add("INBOX", 1, 1, "<in@x>", b"raw", T0)
            append(store, game, 1)
            append(store, game, 2)
            store.outbox_add("<out@x>", game, "bob@example.org", "Your turn", b"mail", T0)
            store.set_status(game, "paused")
            store.create_game("half", {}, 1, "e", "r", T0)
            raise RuntimeError("crash")
    assert not store.conn.in_transaction
    for table in ("events", "inbox", "outbox"):
        assert count(db_path, table) == 0
    assert count(db_path, "games") == 1
    assert store.game(game)["status"] == "active"
    # and the store is still usable, with seq 1 free
    assert append(store, game, 1)["prev_hash"] == ZERO_HASH


def test_transaction_commits_everything_together(store: Store, game: int, db_path: Path) -> None:
    with store.transaction() as same:
        assert same is store
        append(store, game, 1)
        with open_store(db_path) as reader:  # WAL: readers see the last commit only
            assert reader.last_seq(game) == 0
        store.outbox_add("<out@x>", game, "bob@example.org", "Your turn", b"mail", T0)
    assert count(db_path, "events") == 1
    assert count(db_path, "outbox") == 1


def test_nested_transactions_join_the_outer_one(store: Store, game: int, db_path: Path) -> None:
    with store.transaction():
        append(store, game, 1)
        with store.transaction():
            append(store, game, 2)
        assert count(db_path, "events") == 0  # nothing committed before the outer end
        with pytest.raises(ValueError):
            with store.transaction():
                append(store, game, 3)
                raise ValueError("inner failure, handled by the caller")
        assert store.last_seq(game) == 2  # the inner block's writes are undone
        append(store, game, 3, "done")
    assert [e["text"] for e in store.events(game)] == ["pass", "pass", "done"]
    assert store.verify_chain(game) is None


def synchronous(store: Store) -> int:
    return int(store.conn.execute("PRAGMA synchronous").fetchone()[0])


def test_a_transaction_not_waiting_for_the_disk_commits_all_the_same(
        store: Store, game: int, db_path: Path) -> None:
    """durable=False: the commit does not wait for the disk (synchronous NORMAL), and is
    a commit all the same (other connections see it); every other commit waits (FULL),
    after it and after one that failed; inside a transaction it is a savepoint of it."""
    assert synchronous(store) == 2  # FULL
    with store.transaction(durable=False):
        assert synchronous(store) == 1  # NORMAL
        store.outbox_add("<out@x>", game, "bob@example.org", "Your turn", b"mail", T0)
    assert synchronous(store) == 2 and count(db_path, "outbox") == 1
    with pytest.raises(RuntimeError, match="crash"):
        with store.transaction(durable=False):
            append(store, game, 1)
            raise RuntimeError("crash")
    assert synchronous(store) == 2 and count(db_path, "events") == 0
    with store.transaction():
        append(store, game, 1)
        with store.transaction(durable=False):
            assert synchronous(store) == 2  # the outer transaction's commit decides
            append(store, game, 2)
        assert count(db_path, "events") == 0
    assert count(db_path, "events") == 2


def _race_worker(path: str, game_id: int, seq: int, name: str, barrier: Any, results: Any) -> None:
    store = open_store(path)
    try:
        barrier.wait()
        try:
            append(store, game_id, seq, f"from {name}", actor=name)
        except ConcurrencyError:
            results.put((name, "conflict"))
        else:
            results.put((name, "ok"))
    except BaseException as exc:  # report, so the test fails with the reason
        results.put((name, f"error: {exc!r}"))
    finally:
        store.close()


def test_processes_racing_for_the_same_seq(store: Store, game: int, db_path: Path) -> None:
    append(store, game, 1)
    ctx = multiprocessing.get_context("spawn")
    n = 4
    barrier = ctx.Barrier(n)
    results = ctx.Queue()
    procs = [
        ctx.Process(target=_race_worker, args=(str(db_path), game, 2, f"p{i}", barrier, results))
        for i in range(n)
    ]
    for proc in procs:
        proc.start()
    outcomes = [results.get(timeout=120) for _ in procs]
    for proc in procs:
        proc.join(timeout=120)
        assert proc.exitcode == 0
    kinds = sorted(outcome for _, outcome in outcomes)
    assert kinds == ["conflict"] * (n - 1) + ["ok"], outcomes
    winner = next(name for name, outcome in outcomes if outcome == "ok")
    events = store.events(game)
    assert [e["seq"] for e in events] == [1, 2]
    assert events[1]["actor"] == winner
    assert store.verify_chain(game) is None


# -- reverts -----------------------------------------------------------------


def test_reverts_compose(store: Store, game: int) -> None:
    for seq in range(1, 6):
        append(store, game, seq, f"c{seq}")
    revert(store, game, 6, 3)
    assert [e["seq"] for e in store.effective_events(game)] == [1, 2, 3]
    append(store, game, 7, "c7")
    append(store, game, 8, "c8")
    assert [e["seq"] for e in store.effective_events(game)] == [1, 2, 3, 7, 8]
    revert(store, game, 9, 7)
    assert [e["seq"] for e in store.effective_events(game)] == [1, 2, 3, 7]
    revert(store, game, 10, 5)  # 4 and 5 stay reverted: a revert never resurrects
    assert [e["seq"] for e in store.effective_events(game)] == [1, 2, 3]
    revert(store, game, 11, 2)
    effective_events = store.effective_events(game)
    assert [e["text"] for e in effective_events] == ["c1", "c2"]
    assert all(e["kind"] != "revert" for e in effective_events)
    assert [e["seq"] for e in store.events(game)] == list(range(1, 12))  # nothing deleted
    revert(store, game, 12, 0)
    assert store.effective_events(game) == []
    assert store.verify_chain(game) is None


def _stream(ops: list[int | None]) -> list[dict[str, Any]]:
    """Events from ops: None is a command, an int k reverts to seq (k mod current seq)."""
    events: list[dict[str, Any]] = []
    for seq, op in enumerate(ops, start=1):
        if op is None:
            events.append({"seq": seq, "kind": "command", "revert_to": None})
        else:
            events.append({"seq": seq, "kind": "revert", "revert_to": op % seq})
    return events


@given(st.lists(st.one_of(st.none(), st.integers(min_value=0, max_value=50)), max_size=40))
def test_effective_follows_its_inductive_definition(ops: list[int | None]) -> None:
    events = _stream(ops)
    for i in range(len(events)):
        before, event = effective(events[:i]), events[i]
        after = effective(events[: i + 1])
        if event["kind"] == "revert":
            assert after == [e for e in before if e["seq"] <= event["revert_to"]]
        else:
            assert after == [*before, event]
    seqs = [e["seq"] for e in effective(events)]
    assert seqs == sorted(set(seqs))


# -- keys --------------------------------------------------------------------


def test_player_keys() -> None:
    keys = {new_player_key() for _ in range(50)}
    assert len(keys) == 50
    for key in keys:
        groups = key.split("-")
        assert [len(g) for g in groups] == [5, 5, 5] and set("".join(groups)) <= set(KEY_ALPHABET)
    assert not set("01IOL") & set(KEY_ALPHABET)
    secret, other = random_secret(), random_secret()
    key = new_player_key()
    stored = hash_key(key, secret)
    assert stored.startswith("hmac-sha256$") and key not in stored
    assert hash_key(key, secret) == stored  # keyed, not salted: one hash checks any player
    assert hash_key(key, other) != stored
    assert check_key(key, stored, secret)
    assert check_key(f"  {key.lower().replace('-', ' ')}\n", stored, secret)
    assert not check_key(key, stored, other)
    assert not check_key("AAAAA-AAAAA-AAAAA", stored, secret)
    assert not check_key(key, "garbage", secret)


def test_hashes_from_before_the_secret_never_match() -> None:
    import hashlib

    salt = bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", b"ABCD2345", salt, 1000)
    for stored in (f"pbkdf2_sha256$1000${salt.hex()}${digest.hex()}", "scrypt$16384$8$1$00$00"):
        assert not check_key("abcd2345", stored, random_secret())
        assert is_legacy_hash(stored)


# -- inbox and outbox --------------------------------------------------------


def test_inbox_dedup_by_uid_and_message_id(store: Store, game: int) -> None:
    first = store.inbox_add("INBOX", 100, 1, "<a@example.org>", b"raw a", T0)
    assert first.new
    again = store.inbox_add("INBOX", 100, 1, "<a@example.org>", b"raw a", "later")
    assert again == (first.id, False)
    # same UID seen without a Message-ID header
    assert store.inbox_add("INBOX", 100, 1, None, b"raw a", "later") == (first.id, False)
    # mailbox rebuilt: new UIDVALIDITY, same message
    assert store.inbox_add("INBOX", 200, 7, "<a@example.org>", b"raw a", "later") == (
        first.id,
        False,
    )
    second = store.inbox_add("INBOX", 100, 2, "<b@example.org>", b"raw b", T0)
    third = store.inbox_add("INBOX", 100, 3, None, b"no id", T0)
    fourth = store.inbox_add("INBOX", 100, 4, None, b"no id either", T0)
    cli = store.inbox_add(None, None, None, "<c@example.org>", b"from the cli", T0)
    assert all(x.new for x in (second, third, fourth, cli))
    assert len({first.id, second.id, third.id, fourth.id, cli.id}) == 5
    row = store.inbox_get(first.id)
    assert (row["raw"], row["status"], row["received"]) == (b"raw a", "new", T0)
    assert store.inbox_add(None, None, None, "<c@example.org>", b"x", T0) == (cli.id, False)


def test_inbox_status(store: Store, game: int) -> None:
    a = store.inbox_add("INBOX", 1, 1, "<a@x>", b"a", T0).id
    b = store.inbox_add("INBOX", 1, 2, "<b@x>", b"b", T0).id
    c = store.inbox_add("INBOX", 1, 3, "<c@x>", b"c", T0).id
    store.inbox_set_status(a, "processed", game_id=game, processed="t1")
    store.inbox_set_status(b, "dead", error="KeyError: 'x'", processed="t1")
    assert [r["id"] for r in store.inbox_list("new")] == [c]
    assert [r["id"] for r in store.inbox_list()] == [a, b, c]
    dead = store.inbox_list("dead")[0]
    assert (dead["error"], dead["processed"], dead["game_id"]) == ("KeyError: 'x'", "t1", None)
    store.inbox_set_status(b, "discarded")
    assert store.inbox_get(b)["error"] == "KeyError: 'x'"  # kept for the record
    assert store.inbox_get(a)["game_id"] == game
    with pytest.raises(StoreError, match="not a status"):
        store.inbox_set_status(c, "lost")
    with pytest.raises(StoreError, match="not a status"):
        store.inbox_list("lost")
    with pytest.raises(StoreError, match="no inbound message #99"):
        store.inbox_set_status(99, "processed")


def test_outbox_states(store: Store, game: int) -> None:
    a = store.outbox_add("<a@pbem>", game, "alice@example.org", "[1830 #1] Your turn", b"A", "t1")
    b = store.outbox_add("<b@pbem>", None, "ref@example.org", "Failure", b"B", "t2")
    c = store.outbox_add("<c@pbem>", game, "bob@example.org", "[1830 #1] Update", b"C", "t3")
    assert store.outbox_add("<a@pbem>", game, "alice@example.org", "dup", b"A", "t9") == a
    assert [r["id"] for r in store.outbox_due("t0")] == []
    assert [r["id"] for r in store.outbox_due("t2")] == [a, b]
    row = store.outbox_due("t9")[0]
    assert (row["status"], row["attempts"], row["raw"], row["created"]) == (
        "pending",
        0,
        b"A",
        "t1",
    )

    store.outbox_mark_retry(a, "t5", "421 try later")
    assert [r["id"] for r in store.outbox_due("t4")] == [b, c]
    assert [r["id"] for r in store.outbox_due("t5")] == [b, c, a]
    store.outbox_mark_sent(a, "t6")
    store.outbox_mark_failed(b, "550 no such user")
    assert [r["id"] for r in store.outbox_due("t9")] == [c]

    sent, failed = store.outbox_get(a), store.outbox_get(b)
    assert (sent["status"], sent["attempts"], sent["sent"], sent["last_error"]) == (
        "sent",
        2,
        "t6",
        "421 try later",
    )
    assert (failed["status"], failed["attempts"], failed["last_error"]) == (
        "failed",
        1,
        "550 no such user",
    )
    with pytest.raises(StoreError, match="no outgoing message #99"):
        store.outbox_mark_sent(99, "t9")


def _kept(store: Store, outbox_id: int) -> bytes:
    """The bytes the outbox holds of a mail (not as it goes out)."""
    row = store.conn.execute("SELECT raw FROM outbox_mail WHERE id = ?", [outbox_id]).fetchone()
    return bytes(row[0])


MAIL = (b"Reply-To: pbem <pbem+1.c0de42@x.test>\r\n\r\nReply to pbem+1.c0de42@x.test; "
        b"[removed] is kept as it is.\r\n")


def test_a_mail_is_kept_without_its_reply_code_and_goes_out_with_it(store: Store,
                                                                    game: int) -> None:
    """The reply code is out of the kept copy from the start (migration 0007): marking the
    mail sent drops only the code from its row; the copy is what redacting left before."""
    spec = {"strings": ["c0de42"], "body": False}
    a = store.outbox_add("<a@pbem>", game, "alice@example.org", "s", MAIL, "t1", "turn",
                         redact=spec)
    assert store.outbox_get(a)["raw"] == MAIL == store.outbox_due("t1")[0]["raw"]
    assert store.outbox_mails()[0]["raw"] == MAIL
    assert b"c0de42" not in _kept(store, a)
    store.outbox_mark_sent(a, "t2")
    sent = store.outbox_get(a)
    assert sent["raw"] == _kept(store, a) == redacted(MAIL, spec)
    assert sent["redact"] is None and sent["status"] == "sent"


def test_a_key_mail_and_one_queued_before_are_kept_whole_until_sent(store: Store,
                                                                    game: int) -> None:
    key = store.outbox_add("<k@pbem>", game, "alice@example.org", "s", MAIL, "t1", "key",
                           redact={"strings": ["c0de42"], "body": True})
    assert _kept(store, key) == MAIL
    old = store.outbox_add("<o@pbem>", game, "bob@example.org", "s", b"x", "t1", "turn")
    spec = {"strings": ["c0de42"], "body": False}  # as the code before 0007 left it
    store.conn.execute("UPDATE outbox SET redact = ? WHERE id = ?",
                       ['{"body":false,"strings":["c0de42"]}', old])
    store.conn.execute("UPDATE outbox_mail SET raw = ? WHERE id = ?", [MAIL, old])
    assert store.outbox_get(old)["raw"] == MAIL
    for outbox_id in (key, old):
        store.outbox_mark_sent(outbox_id, "t2")
    assert b"c0de42" not in _kept(store, key) and b"Reply to" not in _kept(store, key)
    assert _kept(store, old) == redacted(MAIL, spec) == store.outbox_get(old)["raw"]


@given(st.binary(max_size=40), st.sampled_from([b"ab", b"aba", b"[removed]", b"\xc3\xa9"]))
def test_the_kept_copy_makes_the_mail_again(raw: bytes, secret: bytes) -> None:
    text = secret.decode("utf-8")
    spec = {"strings": [text], "body": False}
    kept, found = kept_copy(raw, spec)
    assert sent_bytes(kept, found) == raw
    assert kept == redacted(raw, spec)
    assert (found is None) == (secret not in raw)


def test_writer_that_cannot_get_the_lock_gets_store_busy(
    store: Store, game: int, db_path: Path
) -> None:
    from pbem.store import StoreBusy

    with open_store(db_path) as other:
        other.conn.execute("PRAGMA busy_timeout = 0")  # fail at once instead of waiting
        with store.transaction():
            append(store, game, 1)
            with pytest.raises(StoreBusy, match="nothing was recorded"):
                append(other, game, 1)
            assert other.last_seq(game) == 0  # readers are never blocked (WAL)
        assert other.last_seq(game) == 1
        assert not other.conn.in_transaction
