"""The closed rule of laying track (1870 p.19 "Laying Track"; 1830 V-7.6 semi-restricted
and restricted) answered from the routes of the board as it is (track.Arrivals) gives
the same answer as the search on a copy of the board with the tile laid, for every
candidate lay of random games."""

from __future__ import annotations

from collections import Counter

import pytest
from selfplay import positions_at

from pbem.engine.board.map import BoardState, load_map, place_token
from pbem.engine.board.track import Arrivals, closed_lay_ok, placements
from pbem.engine.orrun import revenue_column
from pbem.engine.ortrack import near_hexes, phase_colours
from pbem.engine.state import GameState


def compare_every_lay(state: GameState, seen: Counter[str]) -> None:
    """Each upgrade any corporation with a station could make on the board, both ways
    (the closed rule without its rise in value, so that every candidate is searched)."""
    column = revenue_column(state)
    for corp in sorted(state.corps):
        if not any(True for _ in state.board.stations(corp)):
            continue
        arrivals = Arrivals.of(state.map, state.board, corp)
        for coord in near_hexes(state, corp):
            if coord not in state.board.tiles:
                continue  # first track on a hex: all of it is new (no closed-rule question)
            for tile_id in sorted(t for t, n in state.board.tiles_left.items() if n > 0):
                for rotation in placements(state.map, state.board, coord, tile_id,
                                           phase_colours(state)):
                    # restricted (no rise in value): every lay comes to the routes
                    args = (state.map, state.board, coord, tile_id, rotation, corp, column)
                    slow = closed_lay_ok(*args, rise_counts=False)
                    fast = closed_lay_ok(*args, rise_counts=False, arrivals=arrivals)
                    assert fast == slow, (corp, coord, tile_id, rotation)
                    seen[str(slow)] += 1


@pytest.mark.parametrize(("title", "seed", "options", "at"), [
    ("1870", 2, {}, (400, 800, 1200)),
    ("1830", 1, {"tile_lay": "strict"}, (450,)),
])
def test_arrivals_answer_as_the_search_on_the_laid_board(
        title: str, seed: int, options: dict[str, str], at: tuple[int, ...]) -> None:
    seen: Counter[str] = Counter()
    for state in positions_at(title, seed, at, **options):
        compare_every_lay(state, seen)
    assert seen["True"] and seen["False"], seen  # both answers were compared


@pytest.fixture(scope="module")
def board_map():
    return load_map("1830")


def test_a_city_that_opens_is_left_to_the_search(board_map) -> None:
    """A yellow city full of another company's station stops PRR's routes (6.3.3);
    green tile 15 gives it a second space, so routes may pass it once laid: the routes
    of the board as it is cannot answer, and the search on the laid board does."""
    board = BoardState.new(board_map)
    place_token(board_map, board, "H12", 0, "PRR")
    board.tiles["H10"] = ("57", 1)
    place_token(board_map, board, "H10", 0, "NYC")
    arrivals = Arrivals.of(board_map, board, "PRR")
    new = board_map.tiles["15"]
    rotation = placements(board_map, board, "H10", "15", ("yellow", "green"))[0]
    old_paths = {frozenset(p) for p in board_map.tiles["57"].rotated_paths(1)}
    paths = new.rotated_paths(rotation)
    fresh = [p for p in paths if frozenset(p) not in old_paths]
    assert fresh
    assert arrivals.extends("H10", new, {0: 0}, fresh, True) is None
