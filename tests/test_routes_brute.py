"""best_run and the route search against a brute-force enumeration on small random
boards (1830 6.4.2 route rules, 6.5 best revenue)."""

from __future__ import annotations

import random

import pytest
from routehelp import CORP, brute_best, brute_fits, brute_routes, random_board

from pbem.engine.board.routegraph import RouteGraph
from pbem.engine.board.search import (
    RevenueRules,
    RouteSearch,
    best_run,
    legal_routes,
    reach_name,
)
from pbem.engine.board.track import TrackGraph
from pbem.engine.board.written import check_run
from pbem.engine.errors import RulesError


def check_run_is_legal(board_map, board, run, legal):
    """Each route of the run is one of the `legal` routes, the trains share no track."""
    graph = TrackGraph(board_map, board)
    seen: set = set()
    for route in run.routes:
        segs = []
        for coord, index in route.segments:
            segs.append(next(i for i, s in enumerate(graph.segments)
                             if s.coord == coord and s.index == index))
        sides = {n for i in segs for n in graph.segments[i].ends if n[0] == "side"}
        key = frozenset(segs) | frozenset(sides)
        assert key in legal and legal[key][0] == route.revenue
        stops = legal[key][1]
        assert {(n[1], n[2]) for n in stops} == set(route.stops)
        assert not key & seen
        seen |= key
        assert route.train == "None" or len(route.stops) <= int(route.train)


@pytest.mark.parametrize("seed", range(120))
def test_6_4_2_search_finds_exactly_the_legal_routes(seed):
    board_map, board = random_board(seed)
    for limit in (2, 3, 5, None):
        expected = brute_routes(board_map, board, limit, "brown")
        got = legal_routes(board_map, board, CORP, limit, "brown")
        assert len(got) == len(expected)
        assert sorted(r.revenue for r in got) == sorted(rev for rev, _ in expected.values())


@pytest.mark.parametrize("seed", range(120))
def test_6_5_best_run_is_the_brute_force_best(seed):
    board_map, board = random_board(seed)
    everything = brute_routes(board_map, board, None, "yellow")
    for distances in ([2], [3, 2], [2, 2], [4, 3, 2], [None, 3], [None, None], [2, 2, 2]):
        expected = brute_best(everything, distances)
        if expected is None:
            continue
        run = best_run(board_map, board, CORP, [(str(d), d) for d in distances], "yellow")
        assert run.total == expected, distances
        check_run_is_legal(board_map, board, run, everything)


@pytest.mark.parametrize("seed", range(60))
def test_6_5_threshold_search_misses_no_route(seed):
    """Branch and bound keeps every route at or above the threshold."""
    board_map, board = random_board(seed)
    rules = RevenueRules()
    search = RouteSearch(RouteGraph(board_map, board, CORP, "brown"), rules)
    for limit in (3, 4, None):
        every = sorted((f[0] for f in search.routes(limit, -1 << 40)), reverse=True)
        for threshold in {every[len(every) // 3], every[len(every) // 2]} if every else ():
            got = sorted((f[0] for f in search.routes(limit, threshold)), reverse=True)
            assert got == [r for r in every if r >= threshold]
        best = search.routes(limit, 1, best=True)
        assert (best[0][0] if best else 0) == (every[0] if every and every[0] > 0 else 0)


@pytest.mark.parametrize("seed", range(80))
def test_6_4_2_written_routes_of_the_best_run_check_out(seed):
    """The player writes the best run's stops (numbered where a hex has two): accepted,
    same revenue; any legal route written alone is accepted with its revenue."""
    board_map, board = random_board(seed)
    trains = [("3", 3), ("2", 2), ("D", None)]
    run = best_run(board_map, board, CORP, trains, "yellow")
    explicit = [{"train": r.train, "stops": [f"{c}.{i + 1}" for c, i in r.stops]}
                for r in run.routes]
    checked = check_run(board_map, board, CORP, trains, explicit, "yellow")
    assert checked.total == run.total
    for route in legal_routes(board_map, board, CORP, None, "yellow")[:40]:
        stops = [f"{c}.{i + 1}" for c, i in route.stops]
        got = check_run(board_map, board, CORP, [("D", None)], [{"train": "D", "stops": stops}],
                        "yellow")
        assert got.total == route.revenue
        assert got.routes[0].stops == route.stops


@pytest.mark.parametrize("seed", range(60))
def test_6_5_best_run_on_boards_with_parallel_track(seed):
    """Junction-heavy boards: many routes share their stops and differ in track."""
    board_map, board = random_board(seed, dense=True)
    everything = brute_routes(board_map, board, None, "yellow")
    got = legal_routes(board_map, board, CORP, None, "yellow")
    assert sorted(r.revenue for r in got) == sorted(rev for rev, _ in everything.values())
    for distances in ([2, 2], [3, 2], [2, 2, 2], [None, 2], [None, None], [3, 3, 3]):
        expected = brute_best(everything, distances)
        if expected is None:
            continue
        run = best_run(board_map, board, CORP, [(str(d), d) for d in distances], "yellow")
        assert run.total == expected, distances
        check_run_is_legal(board_map, board, run, everything)


@pytest.mark.parametrize("seed", range(60))
def test_1870_modifiers_against_brute_force(seed):
    """Stop values replaced (port, cattle) and end bonuses (destination) for random stops."""
    board_map, board = random_board(seed)
    rng = random.Random(1000 + seed)
    stops = [(c, i) for c, h in board_map.hexes.items() for i in range(len(h.tile.stops))]
    values = {s: rng.choice([20, 50]) for s in stops if rng.random() < 0.3}
    bonus: dict[tuple[str, int] | str, int] = {
        s: rng.choice([10, 40]) for s in stops if rng.random() < 0.3}
    rules = RevenueRules(values=values, end_bonus=bonus)
    routes = brute_routes(board_map, board, None, "yellow")
    everything = {}
    for key, (_, visited) in routes.items():
        keys = [(n[1], n[2]) for n in visited]
        revenue = sum(values.get(k, board_map.hexes[k[0]].tile.stops[k[1]].value("yellow"))
                      for k in keys)
        revenue += bonus.get(keys[0], 0) + bonus.get(keys[-1], 0)
        everything[key] = (revenue, visited)
    for distances in ([2], [3, 2], [None, 3], [None, None]):
        expected = brute_best(everything, distances)
        if expected is None:
            continue
        run = best_run(board_map, board, CORP, [(str(d), d) for d in distances], "yellow",
                       rules)
        assert run.total == expected, distances


Reach = int | tuple[int, int] | None
PLUS_RUNS: tuple[list[Reach], ...] = (
    [(2, 2)], [(2, 1), 2], [(2, 2), 4], [(3, 3), (2, 2)], [(2, 2), (2, 2)], [None, (2, 2)],
    [(2, 2), 2, 2])


@pytest.mark.parametrize("seed", range(120))
def test_v7_9_plus_trains_legal_routes_and_best_run_against_brute_force(seed):
    """1830 V-7.9: a plus train counts large cities (cities and off-boards) and towns
    apart: its legal routes and the best run of plus trains, alone and with plain
    trains, are those of the brute force."""
    board_map, board = random_board(seed)
    everything = brute_routes(board_map, board, None, "yellow")
    for reach in ((2, 1), (2, 2), (3, 3)):
        got = legal_routes(board_map, board, CORP, reach, "yellow")
        expected = [rev for rev, stops in everything.values()
                    if brute_fits(board_map, reach, stops)]
        assert sorted(r.revenue for r in got) == sorted(expected), reach
        assert all(r.train == f"{reach[0]}+{reach[1]}" for r in got)
    for reaches in PLUS_RUNS:
        best = brute_best(everything, reaches, board_map)
        if best is None:
            continue
        trains: list[tuple[str, Reach]] = [(reach_name(r), r) for r in reaches]
        run = best_run(board_map, board, CORP, trains, "yellow")
        assert run.total == best, reaches
        for route in run.routes:
            stops = tuple(("stop", c, i) for c, i in route.stops)
            assert brute_fits(board_map, dict(trains)[route.train], stops)


@pytest.mark.parametrize("seed", range(40))
def test_v7_9_written_routes_of_a_plus_train(seed):
    """A written route of a 2+2: accepted when it has at most two large cities and two
    towns, else refused with the count (V-7.9)."""
    board_map, board = random_board(seed)
    trains = [("2+2", (2, 2))]
    for route in legal_routes(board_map, board, CORP, None, "yellow")[:40]:
        stops = [f"{c}.{i + 1}" for c, i in route.stops]
        explicit = [{"train": "2+2", "stops": stops}]
        nodes = tuple(("stop", c, i) for c, i in route.stops)
        if brute_fits(board_map, (2, 2), nodes):
            assert check_run(board_map, board, CORP, trains, explicit, "yellow").total == \
                route.revenue
        else:
            with pytest.raises(RulesError, match="counts at most 2 large cities .* and 2 "
                               "towns"):
                check_run(board_map, board, CORP, trains, explicit, "yellow")
