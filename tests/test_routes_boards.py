"""Routes on the real maps, fully tiled (1830 6.4, 6.5): best_run's routes are legal
(check_run accepts them, written stop by stop) and no better than the best found."""

from __future__ import annotations

import random

import pytest

from pbem.engine.board import BoardState, Map, load_map, place_token, tile_at
from pbem.engine.routes import best_run, check_run, legal_routes
from pbem.engine.track import lay_tile, placements

COLOURS = ("yellow", "green", "brown", "gray")


def full_board(title: str, seed: int, blocking: int) -> tuple[Map, BoardState]:
    """Every buildable hex tiled at random in passes (yellow, green, brown, gray), three
    stations of X in random cities, `blocking` stations of others in free slots."""
    board_map = load_map(title)
    rng = random.Random(seed)
    board = BoardState.new(board_map)
    board.tiles_left = {t: 99 for t in board_map.tiles}
    for step, colour in enumerate(COLOURS):
        coords = [c for c, h in board_map.hexes.items() if h.buildable]
        rng.shuffle(coords)
        for coord in coords:
            options = [(t, r) for t, tile in board_map.tiles.items() if tile.colour == colour
                       for r in placements(board_map, board, coord, t, COLOURS[:step + 1])]
            if options:
                lay_tile(board_map, board, coord, *rng.choice(options))
    cities = [(c, i) for c in board_map.hexes
              for i, s in enumerate(tile_at(board_map, board, c)[0].stops) if s.kind == "city"]
    rng.shuffle(cities)
    for coord, index in cities[:3]:
        place_token(board_map, board, coord, index, "X")
    slots = [(c, i) for c, i in cities
             for _ in range(tile_at(board_map, board, c)[0].stops[i].slots
                            - len(board.tokens_at(c, i)))]
    rng.shuffle(slots)
    for k, (coord, index) in enumerate(slots[:blocking]):
        place_token(board_map, board, coord, index, f"Y{k}")
    return board_map, board


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
