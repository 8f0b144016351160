"""service.act given what the caller holds (the state, the standing orders, the state to
change in place: the importer's way through a long log) records exactly what it
records reading them from the store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem import service
from pbem.engine.state import GameState
from pbem.notation import format_action
from pbem.orders import OrderBook
from pbem.store import Store, open_store
from pbem.store.secret import random_secret

NOW = "2024-05-01T10:00:00+00:00"
PLAYERS = [("Ann", "a@x.test"), ("Ben", "b@x.test"), ("Cat", "c@x.test")]
#: the private auction (1830 rule 4.2): Cat's standing order passes for her in turn
MOVES = [("Cat", "auto pass"), ("Ann", "buy SV"), ("Ben", "buy CS"), ("Ann", "buy DH"),
         ("Ben", "buy MH")]

SECRET = random_secret()


def new_store(path: Path) -> tuple[Store, int]:
    store = open_store(path, now=NOW, secret=SECRET)
    created = service.create_game(store, "1830", PLAYERS, seed=1, seating="fixed",
                                  options={}, now=NOW)
    return store, created.game_id


@pytest.fixture()
def stores(tmp_path: Path) -> Iterator[tuple[tuple[Store, int], tuple[Store, int]]]:
    one, other = new_store(tmp_path / "one.db"), new_store(tmp_path / "other.db")
    yield one, other
    one[0].close()
    other[0].close()


def events(store: Store, game_id: int) -> list[dict[str, Any]]:
    return store.events(game_id)


def test_act_with_what_the_caller_holds_records_the_same(
    stores: tuple[tuple[Store, int], tuple[Store, int]]
) -> None:
    (plain, game), (held, same) = stores
    state, orders = service.load(held, same), OrderBook({})
    for actor, text in MOVES:
        service.act(plain, game, actor, text, source="test", now=NOW)
        result = service.act(held, same, actor, text, source="test", now=NOW, state=state,
                             orders=orders, in_place=True)
        assert result.state is state  # changed in place
        assert result.orders is not None
        orders = result.orders
    assert events(held, same) == events(plain, game)
    assert [e["text"] for e in events(held, same)][-2:] == ["buy MH", "pass"]  # Cat's order
    assert state == service.load(plain, game)
    assert set(orders.orders) == set(service.order_book(plain, game).orders) == {"Cat"}
    assert held.verify_record(same) == []


def test_a_refused_command_leaves_the_state_in_place_as_it_was(
    stores: tuple[tuple[Store, int], tuple[Store, int]]
) -> None:
    (store, game), _ = stores
    state = service.load(store, game)
    before = state.clone()
    with pytest.raises(service.CommandError, match="Not done: buy CA"):
        service.act(store, game, "Ben", "buy CA", source="test", now=NOW, state=state,
                    orders=OrderBook({}), in_place=True)  # Ann's turn
    assert state == before
    assert store.events(game) == []


def test_without_in_place_the_callers_state_is_not_changed(
    stores: tuple[tuple[Store, int], tuple[Store, int]]
) -> None:
    (store, game), _ = stores
    state: GameState = service.load(store, game)
    before = state.clone()
    result = service.act(store, game, "Ann", "buy SV", source="test", now=NOW, state=state)
    assert state == before and result.state != before


def test_an_action_given_with_its_text_is_recorded_as_the_notation_reads_it(
    stores: tuple[tuple[Store, int], tuple[Store, int]]
) -> None:
    """An importer hands act the action it made the text from (format_action): the same
    events as the text read by the notation; refused as the text alone is."""
    (plain, game), (given, same) = stores
    action = service._parse(service.load(plain, game), "Ben", "buy CA")
    with pytest.raises(service.CommandError) as refused:  # Ann's turn
        service.act(given, same, "Ben", "buy CA", source="test", now=NOW, action=action)
    with pytest.raises(service.CommandError) as alone:
        service.act(plain, game, "Ben", "buy CA", source="test", now=NOW)
    assert given.events(same) == []
    for actor, text in [("Ann", "buy SV"), ("Ben", "pass")]:
        action = service._parse(service.load(plain, game), actor, text)
        assert format_action(action) == text
        service.act(plain, game, actor, text, source="test", now=NOW)
        service.act(given, same, actor, text, source="test", now=NOW, action=action)
    assert str(refused.value) == str(alone.value)
    assert events(given, same) == events(plain, game)
