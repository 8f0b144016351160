"""Laying tiles (1830 rule 6.2) and what a corporation's routes reach (6.3.3, 6.4.2)."""

import dataclasses

import pytest

from pbem.engine.board.map import BoardState, load_map, place_token
from pbem.engine.board.track import lay_problem, lay_tile, placements, token_map

YELLOW = ("yellow",)
GREEN = ("yellow", "green")
BROWN = ("yellow", "green", "brown")


@pytest.fixture(scope="module")
def board_map():
    return load_map("1830")


@pytest.fixture
def board(board_map):
    return BoardState.new(board_map)


def fits(board_map, board, coord, colours=BROWN):
    """Tile id -> rotations for every tile that fits `coord` (geometry only)."""
    found = {}
    for tile_id in board_map.tiles:
        rotations = placements(board_map, board, coord, tile_id, colours)
        if rotations:
            found[tile_id] = rotations
    return found


def test_6_2_57_on_a_plain_city_hex_at_every_rotation(board_map, board):
    assert placements(board_map, board, "E19", "57", YELLOW) == [0, 1, 2, 3, 4, 5]


def test_6_2_57_on_barrie_avoids_the_missing_west_side(board_map, board):
    # B10 has no hex to the west (edge 1): 57 with exits 1-4 does not fit.
    assert placements(board_map, board, "B10", "57", YELLOW) == [0, 2, 3, 5]


@pytest.mark.parametrize(
    ("coord", "tiles"),
    [("H14", {"7", "8", "9"}), ("D4", {"3", "4", "58"}), ("G7", {"1", "2", "55", "56", "69"}),
     ("H16", {"57"}), ("E5", {"59"}), ("I15", {"53"}), ("G19", {"54"})],
)
def test_6_2_first_tile_by_hex_type(board_map, board, coord, tiles):
    # Rulebook table: tan hex 0 cities 7/8/9, 1 small city 3/4/58, 2 small cities
    # 1/2/55/56/69, 1 large city 57; yellow hex OO 59, B 53, NY 54.
    assert set(fits(board_map, board, coord)) == tiles


def test_6_2_59_only_on_oo_hexes(board_map, board):
    oo = {c for c, rotations in ((c, placements(board_map, board, c, "59", GREEN))
                                 for c in board_map.hexes) if rotations}
    assert oo == {"D10", "E5", "E11", "H18"}
    assert all(board_map.hexes[c].label == "OO" for c in oo)


def test_6_2_no_tile_on_gray_or_red_hexes(board_map, board):
    for coord, hex_ in board_map.hexes.items():
        if hex_.kind in ("gray", "red"):
            assert fits(board_map, board, coord) == {}
    assert lay_problem(board_map, board, "H12", "9", 0, YELLOW) == (
        "No tile may be laid on gray hex H12 (Altoona).")


def test_6_2_yellow_only_on_white_hexes(board_map, board):
    assert placements(board_map, board, "E5", "57", YELLOW) == []
    problem = lay_problem(board_map, board, "E5", "57", 0, YELLOW)
    assert problem == ("E5 (Detroit & Windsor) is a yellow hex: only a green tile may go "
                       "there, and tile 57 is yellow.")


def test_6_2_green_only_on_yellow(board_map, board):
    assert placements(board_map, board, "H14", "23", GREEN) == []
    lay_tile(board_map, board, "H14", "9", 1)
    assert placements(board_map, board, "H14", "23", GREEN) == [1, 4]
    assert placements(board_map, board, "E5", "59", GREEN) == [0, 1, 2, 4]


def test_6_2_brown_only_on_green(board_map, board):
    lay_tile(board_map, board, "H16", "57", 0)
    assert placements(board_map, board, "H16", "63", BROWN) == []
    lay_tile(board_map, board, "H16", "14", 0)
    assert placements(board_map, board, "H16", "63", BROWN) == [0, 1, 2, 3, 4, 5]


def test_2_0_tile_colour_must_be_available_in_the_phase(board_map, board):
    lay_tile(board_map, board, "H16", "57", 0)
    assert placements(board_map, board, "H16", "14", YELLOW) == []
    assert lay_problem(board_map, board, "H16", "14", 0, YELLOW) == (
        "Green tiles may not be laid yet (now: yellow).")


def test_6_2_tile_count_is_limited_by_the_manifest(board_map, board):
    board.tiles_left["57"] = 0
    assert placements(board_map, board, "E19", "57", YELLOW) == []
    assert lay_problem(board_map, board, "E19", "57", 0, YELLOW) == "No tile 57 is left."


def test_6_2_tiles_of_other_games_are_refused(board_map, board):
    assert lay_problem(board_map, board, "E19", "5", 0, YELLOW) == "Tile 5 is not part of 1830."


def test_6_2_same_number_and_size_of_cities(board_map, board):
    assert lay_problem(board_map, board, "D4", "57", 0, YELLOW) == (
        "Tile 57 has 1 city; D4 (Flint) has 1 town.")
    assert lay_problem(board_map, board, "H14", "57", 0, YELLOW) == (
        "Tile 57 has 1 city; H14 has no city or town.")


def test_6_2_labels_must_match(board_map, board):
    assert lay_problem(board_map, board, "E5", "53", 0, GREEN) == (
        "E5 (Detroit & Windsor) needs a green tile labelled OO.")
    lay_tile(board_map, board, "H16", "57", 0)
    assert lay_problem(board_map, board, "H16", "59", 0, GREEN) == (
        "Tile 59 (OO) may only be laid on a hex labelled OO.")


def test_6_2_1_no_track_off_the_map(board_map, board):
    # Every tile that fits a white hex keeps all its exits on the map.
    for coord, hex_ in board_map.hexes.items():
        if hex_.kind != "white":
            continue
        for tile_id, rotations in fits(board_map, board, coord, YELLOW).items():
            for r in rotations:
                for edge in board_map.tiles[tile_id].exits(r):
                    assert board_map.neighbour(coord, edge) is not None
    assert lay_problem(board_map, board, "B10", "57", 1, YELLOW) == (
        "With tile 57 on B10 (W-E) track would run off the map through the W side of B10.")


def test_6_2_1_no_track_against_a_blank_gray_side(board_map, board):
    # G11's SE side (5) faces gray Altoona's NW side, which has no track.
    assert 5 not in board_map.track_may_exit("G11")
    problem = lay_problem(board_map, board, "G11", "9", 2, YELLOW)
    assert problem is not None and "blank side of gray hex H12 (Altoona)" in problem


def test_6_2_1_no_track_against_a_blank_red_side(board_map, board):
    # H2's SW side faces I1 (Gulf), whose only track leaves east: no track there.
    assert 0 not in board_map.track_may_exit("H2")
    assert board_map.exit_problem("H2", 0) == (
        "track would end against the blank side of red hex I1 (SW of H2)")
    # Sides of red hexes that have track stay open: Chicago (F2) toward E3 and F4.
    assert 0 in board_map.track_may_exit("E3")
    assert 1 in board_map.track_may_exit("F4")


def test_6_2_1_impassable_borders_are_respected(board_map, board):
    # D12's NW and NE sides are impassable (the lake borders of the data), though
    # C11 and C13 exist: the straight 9 fits only W-E.
    assert board_map.neighbour("D12", 2) == "C11" and board_map.neighbour("D12", 3) == "C13"
    assert placements(board_map, board, "D12", "9", YELLOW) == [1, 4]
    problem = lay_problem(board_map, board, "D12", "9", 0, YELLOW)
    assert problem == "With tile 9 on D12 (SW-NE) the NE side of D12 is impassable."
    # Ottawa (B16) SE / C17 NW: the border is seen from both hexes.
    assert 5 not in board_map.track_may_exit("B16")
    assert 2 not in board_map.track_may_exit("C17")


def test_6_2_2_upgrade_keeps_old_track(board_map, board):
    lay_tile(board_map, board, "H14", "9", 1)
    assert placements(board_map, board, "H14", "18", GREEN) == [1, 4]
    problem = lay_problem(board_map, board, "H14", "18", 0, GREEN)
    assert problem == (
        "With tile 18 on H14 (SW-W-NW-NE) the existing track of H14 would not be kept.")


def test_6_2_2_only_listed_upgrades(board_map, board):
    lay_tile(board_map, board, "H14", "9", 1)
    narrowed = dataclasses.replace(board_map, upgrades={**board_map.upgrades, "9": ("19",)})
    assert placements(narrowed, board, "H14", "18", GREEN) == []
    assert lay_problem(narrowed, board, "H14", "18", 1, GREEN) == (
        "Tile 9 may be upgraded only to 19.")


def test_6_2_2_preprinted_track_is_kept(board_map, board):
    # Baltimore: printed track SW and E; 53 has exits 0, 2, 4.
    assert placements(board_map, board, "I15", "53", GREEN) == [0, 2, 4]
    # New York: printed city 0 to NE, city 1 to SW; only 54 at rotation 0 keeps both.
    assert placements(board_map, board, "G19", "54", GREEN) == [0]


def test_6_2_2_station_keeps_its_city_on_upgrade(board_map, board):
    lay_tile(board_map, board, "E5", "59", 1)  # city 0 exit W (1), city 1 exit NE (3)
    place_token(board_map, board, "E5", 1, "C&O")
    rotations = placements(board_map, board, "E5", "66", BROWN)
    assert rotations == [0, 1]
    new = board_map.tiles["66"]
    for r in rotations:
        mapping = token_map(board_map, board, "E5", "66", r)
        assert mapping is not None and mapping[0] != mapping[1]
        assert 1 in new.stop_exits(mapping[0], r) and 3 in new.stop_exits(mapping[1], r)
    lay_tile(board_map, board, "E5", "66", 1)
    (index,) = [i for i, corps in enumerate(board.tokens["E5"]) if corps == ["C&O"]]
    assert 3 in new.stop_exits(index, 1) and 1 not in new.stop_exits(index, 1)


def test_6_3_erie_token_on_bare_oo_hex_goes_to_city_0_of_the_59(board_map, board):
    place_token(board_map, board, "E11", 0, "ERIE")
    lay_tile(board_map, board, "E11", "59", 3)
    assert board.tokens["E11"] == [["ERIE"], []]
    assert board_map.tiles["59"].stop_exits(0, 3) == {3}


def test_6_2_2_tokens_need_room_in_their_new_city(board_map, board):
    lay_tile(board_map, board, "H16", "57", 0)
    place_token(board_map, board, "H16", 0, "PRR")
    place_token(board_map, board, "H16", 0, "B&O")  # more than the slots (illegal state)
    assert placements(board_map, board, "H16", "14", GREEN) == [0, 2, 3, 5]
    place_token(board_map, board, "H16", 0, "NYC")
    assert placements(board_map, board, "H16", "14", GREEN) == []
