"""A decision hands back the state it made (Decision.state), which service.act and
audit take instead of applying its facts again: it must be exactly the state its facts
make of the state decided on, which a decision never changes. Also the engine's quicker
answers beside its listings: GameState.clone, Fact.is_record, and whether a round offers
a move other than some kinds (Round.offers_other, the importer's site_passes_for)
without listing every legal move.

Checked on random self-play games of both titles (tests/selfplay.py) and, where
../shared is present, on 18xx.games logs of both titles imported."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from selfplay import SelfPlay, option_set

from pbem import service
from pbem.engine.facts import Fact
from pbem.engine.game import apply_facts, decide, legal_moves
from pbem.engine.registry import book
from pbem.engine.state import GameState
from pbem.importer import import_log
from pbem.importer.siteflow import NOT_HIS_TURN, site_offers_private, site_passes_for
from pbem.store import open_store

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PBEM_SHARED", ROOT.parent / "shared"))
FIXTURES = SHARED / "fixtures" / "18xx.games"
LOGS = ("1830/29133.json", "1870/34110.json")
NOW = "2024-01-01T00:00:00+00:00"
#: self-play games (title, number: tests/selfplay.py's option sets), their first moves
GAMES = (("1830", 1), ("1830", 4), ("1870", 0), ("1870", 3))
MOVES = 500


def exact(value: Any, ordered: bool = True) -> Any:
    """``value`` as a comparable picture that tells a tuple from a list, an int from a
    bool and a Player from a Corporation, and (``ordered``) the order of a dict's keys:
    what == on the states does not see."""
    if is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, [(f.name, exact(getattr(value, f.name), ordered))
                                       for f in fields(value)])
    if isinstance(value, dict):
        items = [(repr(k), exact(v, ordered)) for k, v in value.items()]
        return ("dict", items if ordered else sorted(items))
    if isinstance(value, list | tuple):
        return (type(value).__name__, [exact(v, ordered) for v in value])
    return (type(value).__name__, value)


def commands(state: GameState, moves: Iterator[tuple[str, dict[str, Any]]]
             ) -> Iterator[tuple[GameState, str, dict[str, Any]]]:
    """Each command of ``moves`` with the state before it; the state goes on by the
    facts applied (as a rebuild does), not by the decision's state."""
    for actor, action in moves:
        yield state, actor, action
        apply_facts(state, decide(state, actor, action).facts)


def selfplay_commands(title: str, n: int) -> Iterator[tuple[GameState, str, dict[str, Any]]]:
    game = SelfPlay(2 + n % 5, n, title, **option_set(title, n))
    while not game.state.finished and len(game.history) < MOVES:
        before = game.state.clone()
        actor, action, _ = game.step()
        yield before, actor, action


@cache
def imported(log: str) -> tuple[Any, int]:
    store = open_store(":memory:", now=NOW)
    _, result = import_log(store, FIXTURES / log, now=NOW)
    return store, result.game_id


def logged_commands(log: str) -> Iterator[tuple[GameState, str, dict[str, Any]]]:
    store, game_id = imported(log)
    state = service.initial(store, game_id)
    for event in store.events(game_id):
        if event["kind"] == "command":
            yield state, event["actor"], event["command"]
        apply_facts(state, event["facts"] or [])


def sources() -> list[Any]:
    found: list[Any] = [pytest.param(selfplay_commands, game, id=f"selfplay-{game[0]}-{game[1]}")
                        for game in GAMES]
    for log in LOGS:
        found.append(pytest.param(logged_commands, (log,), id=log, marks=pytest.mark.skipif(
            not (FIXTURES / log).is_file(), reason=f"{FIXTURES / log} is absent")))
    return found


@pytest.mark.parametrize(("made", "args"), sources())
def test_a_decisions_state_is_its_facts_applied_to_the_state_decided_on(
        made: Any, args: tuple[Any, ...]) -> None:
    """Field by field, types and the order of dicts' keys included: nothing in a
    decision changes its copy of the state but the facts it emits, and the state decided
    on is not changed. The facts as stored (JSON records: tuples read back as lists,
    keys in the store's order) make the same state, equal in every value and type."""
    count = 0
    for state, actor, action in made(*args):
        before = exact(state)
        decision = decide(state, actor, action)
        assert exact(state) == before  # decide changes nothing of its input
        assert decision.state is not None and decision.state is not state
        by_facts = state.clone()
        apply_facts(by_facts, decision.facts)
        assert exact(decision.state) == exact(by_facts)
        by_records = state.clone()
        apply_facts(by_records, decision.records)
        assert decision.state == by_records
        assert exact(decision.state, ordered=False) == exact(by_records, ordered=False)
        assert decision.has_records(decision.records)
        count += 1
    assert count > 100


@pytest.mark.parametrize(("made", "args"), sources())
def test_offers_other_answers_as_the_listing_of_legal_moves(
        made: Any, args: tuple[Any, ...]) -> None:
    """Round.offers_other (the steps stopping at their first such move) says what the
    round's listing says, for every player, and site_passes_for what it said when it
    listed every legal move."""
    kinds_asked: tuple[frozenset[str], ...] = (
        NOT_HIS_TURN, frozenset({"pass"}), frozenset({"pass", "sell"}), frozenset())
    answers = set()
    for state, _, _ in made(*args):
        listed = book(state).round(state).legal(state)
        every = legal_moves(state)
        for name in state.names:
            for kinds in kinds_asked:
                offered = any(m["action"]["type"] not in kinds for m in listed.get(name, []))
                assert book(state).round(state).offers_other(state, name, kinds) == offered
                answers.add(offered)
            if state.round.get("kind") == "stock":
                listed_passes = not site_offers_private(state, name) and \
                    all(m["action"]["type"] in NOT_HIS_TURN for m in every.get(name, []))
                assert site_passes_for(state, name) == listed_passes
    assert answers == {True, False}


def test_a_clone_is_equal_in_every_field_and_shares_nothing_mutable() -> None:
    """The clone made without the dataclasses' constructors: the same values, types and
    order of fields and keys, and not one list or dict in common (the title's rules and
    map, read once, are shared; so are the values inside a marker's record, as
    BoardState.copy has always shared them: a Marker fact replaces a record whole)."""
    for state, _, _ in selfplay_commands("1870", 0):
        copy = state.clone()
        assert exact(copy) == exact(state) and copy == state
        assert list(copy.__dict__) == list(state.__dict__)
        markers = {id(v) for m in state.board.markers.values() for v in m.values()}
        assert not (containers(copy) & containers(state)) - markers
        for read in ("rules", "map"):
            assert copy.__dict__.get(read) is state.__dict__.get(read)


def containers(value: Any) -> set[int]:
    """The ids of the mutable containers (and records) inside a state."""
    found: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if is_dataclass(item) and not isinstance(item, type):
            found.add(id(item))
            stack.extend(getattr(item, f.name) for f in fields(item))
        elif isinstance(item, dict):
            found.add(id(item))
            stack.extend(item.values())
        elif isinstance(item, list):
            found.add(id(item))
            stack.extend(item)
        elif isinstance(item, tuple):
            stack.extend(item)
    return found


def test_is_record_says_whether_to_json_is_the_record() -> None:
    """Fact.is_record(r) is to_json() == r: for the facts of a game, and records that
    differ from theirs by a value, a key too many or too few, or a version."""
    facts: list[Fact] = []
    for state, actor, action in selfplay_commands("1830", 1):
        facts += decide(state, actor, action).facts
    kinds = set()
    for fact in facts:
        record = fact.to_json()
        assert fact.is_record(record)
        kinds.add(fact.KIND)
        variants = [{**record, "extra": 1}, {**record, "v": fact.VERSION + 1},
                    {**record, "f": "other"}, {k: v for k, v in record.items() if k != "f"}]
        if fact.VERSION == 1:
            variants.append({**record, "v": 1})
        for key, value in record.items():
            if key not in ("f", "v"):
                variants.append({k: v for k, v in record.items() if k != key})
                variants.append({**record, key: [value]})
        for variant in variants:
            assert fact.is_record(variant) == (fact.to_json() == variant)
    assert len(kinds) > 10
