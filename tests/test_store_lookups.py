"""The lookups done for every inbound mail search an index, whatever the size of the
outbox (migration 0008_lower_case_lookups, issue 16): the reply caps' count of a
recipient's mails and the question whether an address is a referee's compare addresses
in lower case, which the indexes on the addresses as written cannot serve."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.store import Store, open_store

T0 = "2024-05-01T10:00:00+00:00"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return open_store(tmp_path / "pbem.db", now=T0)


def plan(store: Store, sql: str, params: list[object]) -> list[str]:
    return [row[-1] for row in store.conn.execute(f"EXPLAIN QUERY PLAN {sql}", params)]


def statements(store: Store, call: object) -> list[str]:
    """The SQL statements ``call()`` runs on the store's connection."""
    seen: list[str] = []
    store.conn.set_trace_callback(seen.append)
    try:
        call()  # type: ignore[operator]
    finally:
        store.conn.set_trace_callback(None)
    return [sql for sql in seen if sql.lstrip().upper().startswith("SELECT")]


def test_the_reply_caps_count_searches_an_index(store: Store) -> None:
    game = store.create_game("1830", {}, 1, "e", "r", T0)
    for i, (recipient, purpose, created) in enumerate([
            ("Ann@X.test", "re", T0), ("ann@x.test", "re", "2024-05-02T09:00:00+00:00"),
            ("ann@x.test", "rej", T0), ("ben@x.test", "re", T0),
            ("ANN@x.test", "turn", T0)]):
        store.outbox_add(f"<m{i}@x.test>", game, recipient, "s", b"raw\r\n", created,
                         purpose)
    assert store.outbox_count("ann@x.test", T0, ("re",)) == 2
    assert store.outbox_count("ANN@X.TEST", "2024-05-02", ("re", "rej")) == 1
    assert store.outbox_count("ann@x.test", T0, ("re", "rej")) == 3
    [sql] = statements(store, lambda: store.outbox_count("ann@x.test", T0, ("re", "rej")))
    [step] = plan(store, sql, [])
    assert step.startswith("SEARCH outbox USING INDEX outbox_recipient_lower"), step


def test_the_known_address_lookup_searches_indexes(store: Store) -> None:
    store.create_game("1830", {}, 1, "e", "r", T0, referee="Ref@Games.test")
    assert store.is_known_address("ref@games.TEST")
    assert not store.is_known_address("nobody@games.test")
    [sql] = statements(store, lambda: store.is_known_address("ref@games.test"))
    steps = [step for step in plan(store, sql, []) if step.startswith(("SCAN", "SEARCH"))]
    assert steps and all(step.startswith("SEARCH") for step in steps), steps
