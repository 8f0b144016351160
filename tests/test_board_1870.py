"""The 1870 board data: hexes, manifest, labels and the closed Mississippi (1870 rules)."""

from collections import Counter

import pytest

from pbem.engine.board.map import BoardState, load_map
from pbem.engine.board.track import lay_tile, placements

ALL = ("yellow", "green", "brown", "gray")


@pytest.fixture(scope="module")
def board_map():
    return load_map("1870")


def test_1870_map_has_154_hexes_with_even_parity(board_map):
    from pbem.engine.board.hexes import parse_coord
    assert len(board_map.hexes) == 154
    assert Counter(h.kind for h in board_map.hexes.values()) == {"white": 150, "red": 4}
    assert {sum(parse_coord(c)) % 2 for c in board_map.hexes} == {0}


def test_1870_manifest_is_161_tiles(board_map):
    per_colour: Counter[str] = Counter()
    for tile_id, count in board_map.manifest.items():
        per_colour[board_map.tiles[tile_id].colour] += count
    assert dict(per_colour) == {"yellow": 81, "green": 43, "brown": 35, "gray": 2}


def test_1870_offboard_revenue_has_three_columns(board_map):
    (stop,) = board_map.hexes["A2"].tile.stops
    assert [stop.value(c) for c in ("yellow", "brown", "blue")] == [30, 40, 50]
    assert board_map.revenue_columns == ("yellow", "brown", "blue")
    assert board_map.hexes["N1"].tile.stops[0].slots == 1  # Southern Pacific home


def test_1870_p_hexes_take_170_and_kansas_city_171(board_map):
    board = BoardState.new(board_map)
    lay_tile(board_map, board, "B11", "57", 0)
    lay_tile(board_map, board, "B11", "14", 0)
    assert placements(board_map, board, "B11", "63", ALL) == []
    assert placements(board_map, board, "B11", "170", ALL) == [0, 3]
    lay_tile(board_map, board, "B11", "170", 0)
    assert placements(board_map, board, "B11", "171", ALL) == list(range(6))
    assert placements(board_map, board, "B11", "172", ALL) == []


def test_1870_closed_river_limits_st_louis_to_tile_5_facing_w_and_sw(board_map):
    board = BoardState.new(board_map)
    assert placements(board_map, board, "C18", "5", ALL, river_closed=True) == [0]
    assert placements(board_map, board, "C18", "57", ALL, river_closed=True) == []
    assert placements(board_map, board, "C18", "57", ALL) == list(range(6))


def test_1870_impassable_borders_east_of_new_orleans(board_map):
    assert 4 not in board_map.track_may_exit("N17")
    assert board_map.track_may_exit("O18") == {1, 2}
