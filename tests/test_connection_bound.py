"""1870's eligibility for a connection run (p.23) asks first how few stops a walk from
the company's home station to its destination passes (TrackGraph.fewest_stops): a train
that counts fewer has no route there (a route counts every stop it passes, Operate
Trains p.21), so the route search is not asked.  The bound must never refuse a train
the search finds a route for: compared here with the search for every company that may
connect and every train length, at each run of two 1870 logs of 18xx.games (random
games seldom connect).  The answer remembered with the hexes it read
(orrun.fewest_stops) is the answer of a walk on the position."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from pbem.engine.board.map import BoardState, load_map, place_token
from pbem.engine.orrun import fewest_stops as remembered
from pbem.engine.orrun import track_graph
from pbem.engine.state import GameState
from pbem.engine.titles.t1870.connection import (
    connection_possible,
    destination_stops,
    home_stop,
    may_connect,
)
from pbem.importer.replay import replay_log
from pbem.importer.sitelog import SiteAction, read_log
from pbem.store import open_store

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PBEM_SHARED", ROOT.parent / "shared"))
FIXTURES = SHARED / "fixtures" / "18xx.games" / "1870"


def compare_every_company(state: GameState, seen: Counter[str]) -> None:
    graph = track_graph(state.map, state.board)
    for corp in sorted(state.corps):
        if not may_connect(state, corp):
            continue
        home = home_stop(state, corp)
        assert home is not None
        fewest = graph.fewest_stops(home, destination_stops(state, corp), corp)
        for distance in range(2, 9):
            found = connection_possible(state, corp, ("test", distance))
            if found:  # the search found a route: the bound lets it through
                assert fewest is not None and fewest <= distance, (corp, distance, fewest)
            within = graph.fewest_stops(home, destination_stops(state, corp), corp, distance)
            assert within == (fewest if fewest is not None and fewest <= distance else None)
            # remembered from an earlier position where the hexes it read are the same
            assert remembered(state.map, state.board, home, destination_stops(state, corp),
                              corp, distance) == within
            seen["bound refuses" if fewest is None or fewest > distance
                 else "search refuses" if not found else "route"] += 1


@pytest.mark.skipif(not FIXTURES.is_dir(), reason=f"{FIXTURES} is absent (../shared)")
@pytest.mark.parametrize("name", ["1870_game_end_bank.json",
                                  "40469 white-to-yellow price protect allowed.json"])
def test_the_bound_never_refuses_a_route_the_search_finds(name: str) -> None:
    seen: Counter[str] = Counter()

    def watch(site: SiteAction, state: GameState) -> None:
        if site.get("type") == "run_routes" and not site.get("auto"):
            compare_every_company(state, seen)

    store = open_store(":memory:", now="2024-01-01T00:00:00+00:00")
    try:
        replay_log(store, read_log(FIXTURES / name), watch=watch)
    finally:
        store.close()
    assert seen["bound refuses"] and seen["route"], seen  # both answers were met


def test_fewest_stops_counts_both_ends_and_stops_at_a_full_city() -> None:
    """The 1830 map (the same TrackGraph): PRR at H12 (Altoona); a plain yellow track
    tile between two towns' hexes is not needed, the stops of printed and laid track
    count; a city full of another company's stations is not passed (6.3.3)."""
    board_map = load_map("1830")
    board = BoardState.new(board_map)
    place_token(board_map, board, "H12", 0, "PRR")
    board.tiles["H10"] = ("57", 1)  # Pittsburgh's yellow city, joined to Altoona
    graph = track_graph(board_map, board)
    assert graph.fewest_stops(("H12", 0), [("H12", 0)], "PRR") == 1
    assert graph.fewest_stops(("H12", 0), [("H10", 0)], "PRR") == 2
    assert graph.fewest_stops(("H12", 0), [("A1", 0)], "PRR") is None  # no track there
    beyond = [(c, i) for c, i in graph.region_stops("PRR") if c not in ("H12", "H10")]
    place_token(board_map, board, "H10", 0, "NYC")
    full = track_graph(board_map, board)
    assert full.fewest_stops(("H12", 0), [("H10", 0)], "PRR") == 2  # it may end there
    for stop in beyond:
        reached = graph.fewest_stops(("H12", 0), [stop], "PRR")
        behind = full.fewest_stops(("H12", 0), [stop], "PRR")
        assert behind is None or reached is not None and behind >= reached
