"""Routes on the real maps, fully tiled (1830 6.4, 6.5): best_run's routes are legal
(check_run accepts them, written stop by stop) and no better than the best found."""

from __future__ import annotations

import pytest
from routehelp import full_board

from pbem.engine.board.search import best_run, legal_routes
from pbem.engine.board.written import check_run


@pytest.mark.parametrize(("title", "seed", "trains"), [
    ("1830", 0, [("4", 4), ("5", 5), ("6", 6)]),
    ("1830", 2, [("6", 6), ("D", None)]),
    ("1830", 6, [("D", None), ("D", None)]),
    ("1870", 0, [("8", 8), ("10", 10)]),
])
def test_6_5_best_run_on_a_full_board_is_legal(title, seed, trains):
    board_map, board = full_board(title, seed, 20)
    column = board_map.revenue_columns[-1]
    run = best_run(board_map, board, "X", trains, column)
    assert run.total > 0
    explicit = [{"train": r.train, "stops": [f"{c}.{i + 1}" for c, i in r.stops]}
                for r in run.routes]
    assert check_run(board_map, board, "X", trains, explicit, column).total == run.total
    for name, distance in trains:  # each train alone: no route beats the best alone
        alone = best_run(board_map, board, "X", [(name, distance)], column).total
        assert alone <= run.total
        if distance is not None and distance <= 4:
            routes = legal_routes(board_map, board, "X", distance, column)
            assert max(r.revenue for r in routes) == alone
