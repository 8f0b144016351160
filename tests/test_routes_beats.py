"""The questions a recorded run and an 1870 eligibility check ask of the route search
without finding the best run: beats (can the trains earn more than a total? 1830 6.5,
the best total must be run) and earns (has one train a route earning at least a
threshold? 1870 Connection Run p.22-23) give what best_run gives."""

from __future__ import annotations

import pytest
from routehelp import CORP, full_board, random_board

from pbem.engine.board.search import TrainSpec, beats, best_run, earns

TRAIN_SETS: tuple[list[TrainSpec], ...] = (
    [("2", 2)], [("3", 3), ("2", 2)], [("4", 4), ("4", 4), ("3", 3)],
    [("5", 5), ("D", None)], [("2+2", (2, 2)), ("3", 3)])


def _check(board_map, board) -> int:
    """Compares beats and earns with best_run on ``board``; returns how many totals it
    asked about with a best above 0."""
    column = board_map.revenue_columns[-1]
    asked = 0
    for trains in TRAIN_SETS:
        best = best_run(board_map, board, CORP, trains, column).total
        for total in {0, best - 30, best - 10, best - 1, best, best + 10}:
            if total < 0:
                continue
            assert beats(board_map, board, CORP, trains, column, total) == (best > total), \
                (trains, best, total)
            asked += best > 0
        name, reach = trains[0]
        alone = best_run(board_map, board, CORP, [(name, reach)], column).total
        for threshold in {1, alone - 10, alone, alone + 1}:
            if threshold >= 1:
                assert earns(board_map, board, CORP, reach, column, threshold) == \
                    (alone >= threshold), (reach, alone, threshold)
    return asked


@pytest.mark.parametrize("seed", range(30))
def test_beats_and_earns_answer_as_the_best_run(seed):
    board_map, board = random_board(seed, dense=seed % 2 == 1)
    _check(board_map, board)


@pytest.mark.parametrize("seed", range(2))
def test_beats_and_earns_on_a_tiled_board(seed):
    board_map, board = full_board("1830", seed, 12)
    assert _check(board_map, board) > 0


def test_a_mutant_that_never_looks_is_caught():
    """beats answering from the trains' best routes alone (no assignment search) is
    wrong on some of these boards: the test can fail."""
    wrong = 0
    for seed in range(30):
        board_map, board = random_board(seed, dense=seed % 2 == 1)
        column = board_map.revenue_columns[-1]
        for trains in TRAIN_SETS[1:]:
            best = best_run(board_map, board, CORP, trains, column).total
            alone = sum(best_run(board_map, board, CORP, [t], column).total for t in trains)
            wrong += int(alone > best)  # 'can earn more than best' by the sum alone: wrong
    assert wrong > 0
