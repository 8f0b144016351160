"""The static 1830 map and the dynamic BoardState (JSON, copies, current tile/stops)."""

import json

import pytest

from pbem.engine.board.map import BoardState, load_map, place_token, stops_at, tile_at
from pbem.engine.board.track import lay_tile


@pytest.fixture(scope="module")
def board_map():
    return load_map("1830")


def test_1830_map_has_93_hexes_by_kind(board_map):
    kinds = [h.kind for h in board_map.hexes.values()]
    assert len(kinds) == 93
    assert (kinds.count("white"), kinds.count("yellow"), kinds.count("gray"),
            kinds.count("red")) == (67, 7, 12, 7)


def test_coordinate_parity_is_uniform(board_map):
    from pbem.engine.board.hexes import parse_coord
    assert {sum(parse_coord(c)) % 2 for c in board_map.hexes} == {1}


def test_neighbours_are_symmetric(board_map):
    for coord in board_map.hexes:
        for edge, other in board_map.neighbours(coord).items():
            assert board_map.neighbour(other, (edge + 3) % 6) == coord


def test_impassable_borders_have_partners(board_map):
    borders = {(c, e) for c, h in board_map.hexes.items() for e in h.impassable}
    assert len(borders) == 8
    for coord, edge in borders:
        other = board_map.neighbour(coord, edge)
        assert (other, (edge + 3) % 6) in borders


def test_offboard_areas_group_their_hexes(board_map):
    areas = {c: h.area for c, h in board_map.hexes.items() if h.kind == "red"}
    assert areas["I1"] == areas["J2"] == "Gulf"
    assert areas["A9"] == areas["A11"] == "Canadian West"
    assert len(set(areas.values())) == 5


def test_6_4_offboard_revenue_per_phase_column(board_map):
    board = BoardState.new(board_map)
    assert [s.revenue for s in stops_at(board_map, board, "F2", "yellow")] == [40]
    assert [s.revenue for s in stops_at(board_map, board, "F2", "brown")] == [70]
    assert stops_at(board_map, board, "F2", "yellow")[0].kind == "offboard"
    # a phase may name its column by index into the map's revenue columns
    assert [s.revenue for s in stops_at(board_map, board, "F2", 1)] == [70]


def test_terrain_costs(board_map):
    assert board_map.hexes["C17"].cost == 120 and board_map.hexes["C17"].terrain == "mountain"
    assert board_map.hexes["E5"].cost == 80
    assert board_map.hexes["E11"].cost == 0  # Erie home: no cost (6.2.1 3)


def test_home_and_private_hexes(board_map):
    assert dict(board_map.hexes["H12"].homes) == {"PRR": 0}
    assert dict(board_map.hexes["E11"].homes) == {"ERIE": None}
    assert board_map.hexes["B20"].private == "CS"


def test_current_tile_is_the_printed_hex_until_a_tile_is_laid(board_map):
    board = BoardState.new(board_map)
    tile, rotation = tile_at(board_map, board, "E19")
    assert tile.colour == "white" and rotation == 0
    lay_tile(board_map, board, "E19", "57", 2)
    tile, rotation = tile_at(board_map, board, "E19")
    assert (tile.id, rotation) == ("57", 2)
    (stop,) = stops_at(board_map, board, "E19", "yellow")
    assert (stop.kind, stop.revenue, stop.slots, stop.exits) == ("city", 20, 1, {2, 5})


def test_board_state_round_trips_through_json(board_map):
    board = BoardState.new(board_map)
    lay_tile(board_map, board, "E19", "57", 1)
    place_token(board_map, board, "E19", 0, "NYC")
    place_token(board_map, board, "E11", 1, "ERIE")
    text = json.dumps(board.to_dict())
    again = BoardState.from_dict(json.loads(text))
    assert again == board
    assert again.tokens["E11"] == [[], ["ERIE"]]
    assert again.tiles["E19"] == ("57", 1)


def test_board_state_copies_are_independent(board_map):
    board = BoardState.new(board_map)
    place_token(board_map, board, "H12", 0, "PRR")
    other = board.copy()
    place_token(board_map, other, "E19", 0, "NYC")
    lay_tile(board_map, other, "E5", "59", 0)
    assert "E19" not in board.tokens and "E5" not in board.tiles
    assert board.tiles_left["59"] == 2 and other.tiles_left["59"] == 1


def test_6_2_upgrade_returns_the_old_tile(board_map):
    board = BoardState.new(board_map)
    lay_tile(board_map, board, "E19", "57", 0)
    lay_tile(board_map, board, "E19", "14", 0)
    assert board.tiles_left["57"] == 4 and board.tiles_left["14"] == 2


def test_stations_lists_every_token_of_a_corporation(board_map):
    board = BoardState.new(board_map)
    place_token(board_map, board, "H12", 0, "PRR")
    place_token(board_map, board, "E5", 1, "PRR")
    assert list(board.stations("PRR")) == [("E5", 1), ("H12", 0)]


def test_unknown_hex_has_a_clear_message(board_map):
    with pytest.raises(KeyError, match="no hex Z99"):
        board_map.hex("Z99")
