"""A best-route question answered from a listing made before (RouteSearch._best_listed)
gives what the search itself gives: the same route, track and order among equals
(1830 6.4.2, 6.5: the best route of a train on the track the other trains leave)."""

from __future__ import annotations

import pytest
from routehelp import CORP, full_board, random_board

from pbem.engine.board.routegraph import RouteGraph
from pbem.engine.board.search import RevenueRules, RouteSearch


def _questions(search: RouteSearch, listed: list) -> list[int]:
    """Used track to ask about: each station exit, each listed route's track, and the
    two together."""
    graph = search.graph
    exits = [m.track for s in graph.stations for m in graph.leave(s)]
    tracks = [f[1] for f in listed[:12]]
    return exits + tracks + [e | t for e in exits[:4] for t in tracks[:4]]


def _same_answers(board_map, board, reaches) -> int:
    """Compares every answer _best_listed gives with a new search's; returns how many
    it gave."""
    rules = RevenueRules()
    graph = RouteGraph(board_map, board, CORP, board_map.revenue_columns[-1])
    decided = 0
    for reach in reaches:
        search = RouteSearch(graph, rules)
        everything = search.routes(reach, 1)
        if not everything:
            continue
        values = sorted(f[0] for f in everything)
        threshold = values[len(values) // 2]
        listed = search.routes(reach, threshold)
        for used in _questions(search, listed):
            for asked in (1, threshold - 10, threshold, threshold + 10):
                got = search._best_listed(reach, max(asked, 1), used)
                if got is None:
                    continue
                decided += 1
                fresh = RouteSearch(graph, rules)._search(reach, max(asked, 1), used, best=True)
                # the visited-stops mask (the last field) is the search's own bookkeeping
                assert [f[:5] for f in got] == [f[:5] for f in fresh], (reach, asked, used)
    return decided


@pytest.mark.parametrize("seed", range(40))
def test_best_route_from_a_listing_is_the_search_s_answer(seed):
    board_map, board = random_board(seed, dense=seed % 2 == 1)
    _same_answers(board_map, board, (2, 3, 5, None, (2, 2)))


@pytest.mark.parametrize("seed", range(2))
def test_best_route_from_a_listing_on_a_tiled_board(seed):
    board_map, board = full_board("1830", seed, 12)
    assert _same_answers(board_map, board, (4, 6)) > 0
