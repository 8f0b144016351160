"""The 18xx.games log import without the shared logs: undo/redo as the site resolves
them, recorded routes read back, and a short hand-written 1830 log replayed through
pbem (its refusal, --to, the options it maps)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pbem.importer import describe_refusal
from pbem.importer.options import UnknownOptionalRule, site_options
from pbem.importer.replay import player_names, replay_log
from pbem.importer.routes import stop_sequence
from pbem.importer.sitelog import LogError, effective_actions, flatten, parse_log
from pbem.notation import context_for_1830, format_action, parse_command
from pbem.store import Store, open_store


def act(n: int, kind: str = "pass", **fields: Any) -> dict[str, Any]:
    return {"id": n, "type": kind, "entity": 1, "entity_type": "player", **fields}


# -- undo and redo --------------------------------------------------------------------------


def ids(actions: list[dict[str, Any]]) -> list[int]:
    return [a["id"] for a in effective_actions(actions)]


def test_undo_takes_back_the_last_action_in_effect_but_not_a_message() -> None:
    log = [act(1), act(2), act(3, "message", message="hi"), act(4, "undo")]
    assert ids(log) == [1, 3]


def test_undo_to_an_action_id_takes_back_everything_after_it() -> None:
    log = [act(1), act(2), act(3), act(4, "undo", action_id=1)]
    assert ids(log) == [1]
    assert ids([act(1), act(2), act(3, "undo", action_id=0)]) == []


def test_redo_restores_the_last_group_and_a_new_action_clears_the_stack() -> None:
    log = [act(1), act(2), act(3), act(4, "undo", action_id=1), act(5, "undo"), act(6, "redo"),
           act(7, "redo")]
    assert ids(log) == [1, 2, 3]
    with pytest.raises(LogError):
        effective_actions([act(1), act(2, "undo"), act(3), act(4, "redo")])
    with pytest.raises(LogError):
        effective_actions([act(1), act(2, "undo", action_id=99)])


def test_auto_actions_follow_their_parent() -> None:
    parent = act(1, auto_actions=[{"type": "pass", "entity": 2, "entity_type": "player"}])
    flat = flatten([parent, act(2)])
    assert [(a.get("id"), a.get("parent")) for a in flat] == [(1, None), (None, 1), (2, None)]


# -- routes ------------------------------------------------------------------------------------


def test_recorded_route_stretches_in_either_direction_give_the_travel_order() -> None:
    route = {"connections": [["E19", "F18", "G19"], ["E19", "D18", "D16", "D14"],
                             ["D14", "E13", "E11"], ["E11", "D12", "D10"], ["D10", "E11"]]}
    assert stop_sequence(route) == ["G19", "E19", "D14", "E11", "D10", "E11"]
    assert stop_sequence({"connections": [["I15", "I17", "I19"]]}) == ["I15", "I19"]


def test_notation_reads_a_numbered_city_in_a_written_route() -> None:
    ctx = context_for_1830("operating", ["A", "B"])
    action = parse_command("run 4: g19.2-h18/1-I15", ctx)
    assert action["routes"] == [{"train": "4", "stops": ["G19.2", "H18.1", "I15"]}]
    assert parse_command(format_action(action), ctx) == action


# -- a short log -------------------------------------------------------------------------------

SHORT_LOG: dict[str, Any] = {
    "id": 1, "title": "1830", "status": "finished",
    "players": [{"id": 11, "name": "Ann Lee"}, {"id": 12, "name": "Bob"},
                {"id": 13, "name": "Cy"}],
    "settings": {"optional_rules": []},
    "result": {}, "actions": [
        {"id": 1, "type": "bid", "entity": 11, "entity_type": "player", "company": "CA",
         "price": 165},
        {"id": 2, "type": "bid", "entity": 12, "entity_type": "player", "company": "CA",
         "price": 170},
        {"id": 3, "type": "bid", "entity": 13, "entity_type": "player", "company": "SV",
         "price": 20},  # the cheapest at face value: a purchase
        {"id": 4, "type": "pass", "entity": 11, "entity_type": "player"},
        {"id": 5, "type": "undo", "entity": 11, "entity_type": "player"},
        {"id": 6, "type": "bid", "entity": 11, "entity_type": "player", "company": "CS",
         "price": 40},
        {"id": 8, "type": "message", "entity": 13, "entity_type": "player",
         "message": "good luck"},
        {"id": 9, "type": "bid", "entity": 12, "entity_type": "player", "company": "MH",
         "price": 110},  # not the cheapest (DH is): a bid must be at least $115
    ],
}


@pytest.fixture
def store() -> Store:
    return open_store(":memory:", now="2024-01-01T00:00:00+00:00")


def test_a_short_log_is_replayed_until_pbem_refuses_an_action(store: Store) -> None:
    log = parse_log(copy.deepcopy(SHORT_LOG))
    imported = replay_log(store, log)
    assert imported.names == {"11": "Ann_Lee", "12": "Bob", "13": "Cy"}
    state = imported.state
    assert state.privates["SV"].owner == "p:Cy" and state.privates["CS"].owner == "p:Ann_Lee"
    refusal = imported.refusal
    assert refusal is not None and refusal.site["id"] == 9
    assert refusal.text == "Bob: bid MH 110" and "minimum bid for MH is $115" in refusal.reason
    text = "\n".join(describe_refusal(refusal))
    assert "Refused at action 9" in text and "private auction" in text
    audit_events = store.events(imported.game_id)
    assert [e["text"] for e in audit_events] == ["bid CA 165", "bid CA 170", "buy SV",
                                                 "buy CS", "say good luck"]


def test_to_stops_just_before_the_action(store: Store) -> None:
    imported = replay_log(store, parse_log(copy.deepcopy(SHORT_LOG)), to=6)
    assert imported.stopped_at == 6 and imported.refusal is None
    assert imported.state.privates["CS"].owner == "bank"


def test_site_options_and_optional_rules() -> None:
    log = parse_log({**copy.deepcopy(SHORT_LOG),
                     "settings": {"optional_rules": ["optional_6_train"]}})
    options = site_options(log)
    assert options["six_trains"] == "3" and options["best_run"] == "free"
    assert options["auction_order"] == "lowest-bid" and options["seating"] == "fixed"
    with pytest.raises(UnknownOptionalRule):
        site_options(parse_log({**copy.deepcopy(SHORT_LOG),
                                "settings": {"optional_rules": ["no_such_rule"]}}))


def test_player_names_become_pbem_names() -> None:
    log = parse_log({**copy.deepcopy(SHORT_LOG),
                     "players": [{"name": "Player 1"}, {"name": "player_1"}, {"id": 3}]})
    assert player_names(log) == {"Player 1": "Player_1", "player_1": "player_1_2", "3": "3"}


# -- export and import again, for a game played in pbem ------------------------------------------


@pytest.mark.parametrize("seed", [5, 9])
def test_a_game_played_in_pbem_exports_and_imports_again(store: Store, seed: int) -> None:
    """Bots play a whole 1830 game with the site's readings of the rules; the exported log
    is read back to the same final state, and the export verifies itself."""
    import random

    from pbem import service
    from pbem.bots import pick
    from pbem.importer.export import export_game, verify_export
    from pbem.importer.options import SITE_READINGS

    now = "2024-01-01T00:00:00+00:00"
    players = [("Ann", ""), ("Ben", ""), ("Cat", ""), ("Dan", "")]
    game = service.create_game(store, "1830", players, seed=seed, seating="fixed",
                               options=dict(SITE_READINGS["1830"]), now=now)
    rng = random.Random(seed)
    state = service.load(store, game.game_id)
    for _ in range(3000):
        if state.finished:
            break
        name, action = pick(state, rng)
        if action["type"] == "sell_private":  # the site has no sales between players
            continue
        acted = service.act(store, game.game_id, name, format_action(action), source="bot",
                            now=now, state=state)
        assert acted.state is not None
        state = acted.state
    assert state.finished
    document = export_game(store, game.game_id)
    assert verify_export(store, game.game_id, document) is None
    again = replay_log(store, parse_log(document))
    assert again.refusal is None
    ours, theirs = state.to_dict(), again.state.to_dict()
    assert {k: v for k, v in ours.items() if k != "seed"} == \
        {k: v for k, v in theirs.items() if k != "seed"}
