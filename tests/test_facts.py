"""Facts are typed and versioned: every kind reads back from its record, an older record
is upcast to the facts of today, a game recorded by a newer engine is refused, and a
game recorded under other rules data is read with a note for the audit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from selfplay import SelfPlay

from pbem import service
from pbem.engine.errors import SetupError
from pbem.engine.facts import (
    KINDS,
    Cash,
    CorpClosed,
    Fact,
    MarketMove,
    Note,
    Par,
    RoundSet,
    Station,
    StationRemoved,
    TileLaid,
)
from pbem.engine.game import ENGINE_VERSION, apply_facts, new_game, recorded_with
from pbem.engine.state import GameState
from pbem.engine.title import load_title
from pbem.engine.upcast import read_fact
from pbem.store import open_store
from pbem.store.base import canonical_json


def played(title: str, seed: int, moves: int) -> SelfPlay:
    game = SelfPlay(4, seed, title)
    while not game.state.finished and len(game.history) < moves:
        game.step()
    return game


@pytest.mark.parametrize("title", ["1830", "1870"])
def test_every_fact_reads_back_from_its_record(title: str) -> None:
    game = played(title, 3, 700)
    seen: set[str] = set()
    for _, _, decision in game.history:
        for fact in decision.facts:
            record = json.loads(json.dumps(fact.to_json()))
            assert record["f"] == fact.KIND and record.get("v", 1) == fact.VERSION
            assert KINDS[record["f"]].from_json(record) == fact
            assert canonical_json(fact.for_json()) == canonical_json(fact.to_json())
            seen.add(fact.KIND)
    assert {"cash", "cert", "par", "market", "tile", "token", "round_set"} <= seen


def test_a_fact_is_written_as_its_record_without_the_copies() -> None:
    """for_json (what service.Recorder encodes) holds the fact's own values, tuples and
    all, and JSON writes it as the record to_json makes."""
    facts = [Note("connections", ("A1", ("B2", 3), {"run": ()})),
             RoundSet({"turn": {"lays": ("yellow", "green"), "run": None}, "passes": 2}),
             Par("PRR", 67, 1, 2, 3), Cash("p:Alice", "bank", 30)]
    assert [f.for_json() != f.to_json() for f in facts] == [True, True, False, False]
    for fact in facts:
        held = fact.for_json()
        assert canonical_json(held) == canonical_json(fact.to_json())
        assert json.loads(canonical_json(held)) == fact.to_json()
    assert canonical_json([f.for_json() for f in facts]) == \
        canonical_json(service.Decision(facts).records)


def test_a_game_rebuilt_from_its_records_is_the_game() -> None:
    game = played("1870", 0, 900)
    state = game.start.clone()
    for _, _, decision in game.history:
        applied = apply_facts(state, json.loads(json.dumps(decision.records)))
        assert applied == decision.facts
    assert state.to_dict() == game.state.to_dict()


def test_kinds_are_one_class_each() -> None:
    assert len(KINDS) == len(set(KINDS.values()))
    assert all(issubclass(cls, Fact) and cls.VERSION >= 1 for cls in KINDS.values())


# -- upcasting version 1 records -------------------------------------------------------------


def state_1830() -> GameState:
    return new_game("1830", ["Ann", "Ben", "Cat"], 1, {})


def test_v1_tile_carries_the_supply_and_the_stations_it_moved() -> None:
    state = state_1830()
    [fact] = read_fact(state, {"f": "tile", "hex": "F16", "tile": "57", "rotation": 0})
    assert fact == TileLaid("F16", "57", 0, None, None)
    fact.apply(state)
    apply_facts(state, [{"f": "token", "hex": "F16", "stop": 0, "corp": "PRR"}])
    [upgrade] = read_fact(state, {"f": "tile", "hex": "F16", "tile": "14", "rotation": 0})
    assert upgrade == TileLaid("F16", "14", 0, "57", [["PRR"]])
    left = state.board.tiles_left["57"]
    upgrade.apply(state)
    assert state.board.tiles_left["57"] == left + 1


def test_v1_token_carries_the_stops_of_the_tile() -> None:
    state = state_1830()
    [fact] = read_fact(state, {"f": "token", "hex": "G19", "stop": 1, "corp": "NYNH"})
    assert fact == Station("G19", 1, "NYNH", 2)


def test_v1_market_numbers_the_arrival_and_drops_a_move_that_stays() -> None:
    state = state_1830()
    [par] = read_fact(state, {"f": "par", "corp": "PRR", "price": 67, "row": 6, "col": 6})
    assert par == Par("PRR", 67, 6, 6, 1)
    par.apply(state)
    assert read_fact(state, {"f": "market", "corp": "PRR", "row": 6, "col": 6}) == []
    assert read_fact(state, {"f": "market", "corp": "PRR", "row": 6, "col": 6,
                             "restack": True}) == [MarketMove("PRR", 6, 6, 2)]
    assert read_fact(state, {"f": "market", "corp": "PRR", "row": 6, "col": 7}) == \
        [MarketMove("PRR", 6, 7, 2)]


def test_v1_corp_closed_says_what_leaves_the_map() -> None:
    state = new_game("1870", ["Ann", "Ben", "Cat"], 1, {})
    apply_facts(state, [
        {"f": "token", "hex": "J3", "stop": 0, "corp": "TP"},
        {"f": "marker", "name": "destination:TP", "marker": {"hex": "N17", "stop": None}},
        {"f": "over_limit", "player": "Ann", "corps": ["TP", "MP"]},
    ])
    facts = read_fact(state, {"f": "corp_closed", "corp": "TP"})
    assert [f.to_json() for f in facts] == [
        StationRemoved("J3", 0, "TP").to_json(),
        {"f": "marker_removed", "name": "destination:TP"},
        {"f": "over_limit", "player": "Ann", "corps": ["MP"]},
        CorpClosed("TP").to_json()]
    apply_facts(state, facts)
    assert state.corps["TP"].closed and state.board.tokens_at("J3", 0) == []


def test_unknown_or_newer_records_are_refused() -> None:
    state = state_1830()
    with pytest.raises(SetupError, match="unknown"):
        read_fact(state, {"f": "teleport", "corp": "PRR"})
    with pytest.raises(SetupError, match="newer"):
        read_fact(state, {"f": "cash", "v": 9, "from": "bank", "to": "p:Ann", "amount": 1})


# -- the versions a game was recorded with --------------------------------------------------


def test_a_game_recorded_by_a_newer_engine_is_refused() -> None:
    rules = load_title("1830")
    assert recorded_with(ENGINE_VERSION, rules.rules_version, rules) == []
    assert recorded_with("1", rules.rules_version, rules) == []
    with pytest.raises(SetupError, match="newer pbem"):
        recorded_with(str(int(ENGINE_VERSION) + 1), rules.rules_version, rules)


def test_a_game_recorded_under_other_rules_data_is_read_with_a_note(tmp_path: Path) -> None:
    store = open_store(tmp_path / "pbem.db", now="2025-01-01T00:00:00+00:00")
    game = service.create_game(store, "1830", [("Ann", ""), ("Ben", ""), ("Cat", "")],
                               seed=1, seating="fixed", options={},
                               now="2025-01-01T00:00:00+00:00")
    service.act(store, game.game_id, "Ann", "buy", source="cli",
                now="2025-01-01T00:00:00+00:00")
    store.conn.execute("UPDATE games SET rules_version = '1830-classic-0' WHERE id = ?",
                       (game.game_id,))
    store.seal_game(game.game_id)  # as the pbem of those rules data would have sealed it
    result = service.audit(store, game.game_id)
    assert result.problem is None
    assert result.notes == ["The game was recorded under the 1830 rules data "
                            "'1830-classic-0'; they are now "
                            f"'{load_title('1830').rules_version}'."]
    store.conn.execute("UPDATE games SET engine_version = '99' WHERE id = ?", (game.game_id,))
    with pytest.raises(SetupError, match="newer pbem"):
        service.load(store, game.game_id)



def test_a_record_with_every_field_makes_the_fact_that_init_would() -> None:
    """Fact.from_json fills a complete record's fields into the instance's __dict__
    without calling __init__ (the audit reads every stored fact): that is the same fact
    only while no kind of fact checks or derives anything in __post_init__ or keeps its
    fields in __slots__."""
    for kind in KINDS.values():
        assert not hasattr(kind, "__post_init__"), kind.__name__
        assert "__slots__" not in vars(kind), kind.__name__
    par = Par("PRR", 67, 6, 6, 1)
    made = Par.from_json(par.to_json())
    assert made == par and vars(made) == vars(par)
