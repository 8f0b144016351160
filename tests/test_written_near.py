"""A written run checked on the track its legs may travel (check_run's near_only, taken
when no best run is compared: option best_run=free, as imported games have it) is the
run checked on the company's whole region (1830 6.4, 6.4.1, 6.4.2; 1870 p.21): the same
routes, stops, track and revenue, and the same sentence for routes that are not legal,
for the best runs of every company at positions of random games and for those runs
spoiled.  The same for a run realised on the track itself, leg by leg (board.legs.direct_run,
which check_run's near_only asks first), where a leg with several ways takes the one the
route graph's search takes."""

from __future__ import annotations

import itertools
import os
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selfplay import positions_at

from pbem.engine.board import legs as legs_module
from pbem.engine.board import written as written_module
from pbem.engine.board.legs import direct_run
from pbem.engine.board.localtrack import LocalTrack
from pbem.engine.board.search import RevenueRules
from pbem.engine.board.written import check_run
from pbem.engine.errors import RulesError
from pbem.engine.orrun import (
    best,
    revenue_column,
    revenue_rules,
    route_graph,
    run_summary,
    train_specs,
)
from pbem.engine.state import GameState
from pbem.importer.replay import replay_log
from pbem.importer.sitelog import SiteAction, read_log
from pbem.store import open_store

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PBEM_SHARED", ROOT.parent / "shared"))
FIXTURES = SHARED / "fixtures" / "18xx.games" / "1830"


def checked(state: GameState, corp: str, explicit: list[dict[str, Any]], near_only: bool
            ) -> Any:
    try:
        return check_run(state.map, state.board, corp, train_specs(state, corp), explicit,
                         revenue_column(state), revenue_rules(state, corp),
                         make_graph=route_graph, near_only=near_only)
    except RulesError as error:
        return type(error).__name__, str(error)


def spoiled(explicit: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Written runs that are wrong in different ways (or read differently)."""
    first = explicit[0]
    stops = first["stops"]
    plain = [s.split(".")[0] for s in stops]
    return [
        [{**first, "stops": stops[:1]}],  # one stop
        [{**first, "stops": [stops[0], stops[-1]]}],  # the middle left out
        [{**first, "stops": stops + [stops[0]]}],  # a stop twice
        [{**first, "stops": plain}],  # the hexes alone: read, or ambiguous
        [first, first],  # one train twice / two routes on the same track
        [{**first, "stops": list(reversed(stops))}],  # the same route backwards
    ]


def written_runs(state: GameState) -> Iterator[tuple[str, int, list[dict[str, Any]]]]:
    """(company, n, routes) for each company's best run (n = 0) and those runs spoiled."""
    for corp in sorted(state.corps):
        if not train_specs(state, corp) or not any(True for _ in state.board.stations(corp)):
            continue
        explicit = run_summary(best(state, corp))
        if explicit:
            for number, text in enumerate([explicit, *spoiled(explicit)]):
                yield corp, number, text


def compare(state: GameState, seen: Counter[str]) -> None:
    for corp, _, text in written_runs(state):
        near = checked(state, corp, text, True)
        assert near == checked(state, corp, text, False), (corp, text)
        seen[near[0] if isinstance(near, tuple) else "run"] += 1


@pytest.mark.parametrize(("title", "seed", "at"), [
    ("1870", 4, (500, 800, 1100)),
    ("1830", 3, (300, 600, 900)),
])
def test_written_run_near_its_stops_is_the_run_on_the_region(
        title: str, seed: int, at: tuple[int, ...]) -> None:
    seen = compared(title, seed, at, compare)
    assert seen["run"] and seen["RulesError"], seen  # legal runs and refusals compared


def compared(title: str, seed: int, at: tuple[int, ...],
             compare: Callable[[GameState, Counter[str]], None]) -> Counter[str]:
    """compare(...) at the positions `at` of a random game, what it saw."""
    seen: Counter[str] = Counter()
    for state in positions_at(title, seed, at):
        compare(state, seen)
    return seen


def direct(state: GameState, corp: str, explicit: list[dict[str, Any]]) -> Any:
    parsed = written_module._parsed(state.map, state.board, explicit)
    if parsed is None:
        return None
    return direct_run(state.map, LocalTrack(state.map, state.board), corp,
                      train_specs(state, corp), parsed, revenue_column(state),
                      revenue_rules(state, corp) or RevenueRules())


def compare_direct(state: GameState, seen: Counter[str]) -> None:
    track = LocalTrack(state.map, state.board)
    for corp, number, text in written_runs(state):
        got = direct(state, corp, text)
        if got is None:
            seen["asked the route graph"] += 1
            continue
        assert got == checked(state, corp, text, False), (corp, text)
        seen["best run" if number == 0 else "spoiled but legal"] += 1
        if any(len(legs_module._ways(track, ("stop", *a), ("stop", *b))) > 1
               for route in got.routes for a, b in itertools.pairwise(route.stops)):
            seen["a leg with several ways"] += 1


@pytest.mark.parametrize(("title", "seed", "at"), [
    ("1870", 4, (500, 800, 1100)),
    ("1830", 3, (300, 600, 900)),
])
def test_written_run_on_the_track_itself_is_the_run_on_the_region(
        title: str, seed: int, at: tuple[int, ...]) -> None:
    """direct_run realises a legal run with the same stops, track (segment by segment,
    in travel order) and revenue as the route graph of the company's region, where a
    leg has several ways too; a run that is not legal it leaves to the route graph
    (None), never a different answer."""
    seen = compared(title, seed, at, compare_direct)
    assert seen["best run"] and seen["asked the route graph"], seen


@pytest.mark.skipif(not FIXTURES.is_dir(), reason=f"{FIXTURES} is absent (../shared)")
def test_legs_with_several_ways_on_a_late_1830_board() -> None:
    """The same on a game of 18xx.games at every run of its last operating rounds, where
    the best runs have legs with several ways (1830 tiles joined in two places)."""
    seen: Counter[str] = Counter()
    runs = iter(range(1_000))

    def watch(site: SiteAction, state: GameState) -> None:
        if site.get("type") == "run_routes" and next(runs) % 4 == 0:
            compare_direct(state, seen)

    store = open_store(":memory:", now="2024-01-01T00:00:00+00:00")
    try:
        replay_log(store, read_log(FIXTURES / "1830_202816.json"), watch=watch)
    finally:
        store.close()
    assert seen["a leg with several ways"] and seen["best run"], seen
