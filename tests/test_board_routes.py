"""What a corporation's routes reach: station blocking (6.3.3), no reversing at a
junction, no passing an off-board (6.4.2), the connection needed to lay track
(6.2.1, 6.2.2, C-1.4) and to place a station (6.3.2)."""

import pytest

from pbem.engine.board import track
from pbem.engine.board.map import BoardState, Map, MapHex, load_map, place_token
from pbem.engine.board.tiles import Stop, Tile, parse_track
from pbem.engine.board.track import (
    lay_problem,
    lay_tile,
    new_tile_connected,
    placements,
    reachable,
)

GREEN = ("yellow", "green")


@pytest.fixture(scope="module")
def board_map():
    return load_map("1830")


@pytest.fixture
def board(board_map):
    board = BoardState.new(board_map)
    place_token(board_map, board, "H12", 0, "PRR")
    return board


def test_home_station_reaches_its_own_track(board_map, board):
    reach = reachable(board_map, board, "PRR")
    # the city's two segments; the bypass (1-4) would need a reversal at a side
    assert reach.paths == {("H12", 0), ("H12", 1)}
    assert reach.stops == {("H12", 0)}
    assert reach.edges == {("H12", 1), ("H12", 4)}
    assert reach.exact


def test_6_2_1_new_track_must_connect_to_a_station(board_map, board):
    # H14 lies east of Altoona, whose track leaves east (edge 4): 9 W-E connects.
    assert placements(board_map, board, "H14", "9", ("yellow",), corp="PRR") == [1, 4]
    assert placements(board_map, board, "H16", "57", ("yellow",), corp="PRR") == []
    assert lay_problem(board_map, board, "H16", "57", 1, ("yellow",), corp="PRR") == (
        "PRR cannot trace a route from its stations to the new track on H16.")
    lay_tile(board_map, board, "H14", "9", 1)
    assert placements(board_map, board, "H16", "57", ("yellow",), corp="PRR") == [1, 4]


def test_6_2_1_home_station_counts_as_a_connection(board_map, board):
    # NYC's home token on bare Albany (E19): any 57 there is connected to it.
    place_token(board_map, board, "E19", 0, "NYC")
    assert placements(board_map, board, "E19", "57", ("yellow",), corp="NYC") == list(range(6))
    # Erie in E11 (two cities): the 59 touches the city holding the token.
    place_token(board_map, board, "E11", 0, "ERIE")
    assert placements(board_map, board, "E11", "59", GREEN, corp="ERIE") == [0, 2, 3, 4]
    assert placements(board_map, board, "E11", "59", GREEN, corp="PRR") == []


def test_6_2_2_upgrade_needs_a_route_to_any_segment_of_the_new_tile(board_map, board):
    lay_tile(board_map, board, "H14", "9", 1)
    # 23 at rotation 1 (1-4, 1-5) keeps the 9 and is reached through its old segment.
    assert new_tile_connected(board_map, board, "H14", "23", 1, "PRR")
    assert not new_tile_connected(board_map, board, "H14", "23", 1, "NYC")


@pytest.fixture
def blocked(board_map, board):
    """NYC's station fills the one slot of Pittsburgh (H10, 57 W-E) west of Altoona."""
    lay_tile(board_map, board, "H10", "57", 1)
    place_token(board_map, board, "H10", 0, "NYC")
    lay_tile(board_map, board, "H8", "9", 1)
    return board


def test_6_3_3_full_city_of_another_corporation_stops_reachability(board_map, blocked):
    reach = reachable(board_map, blocked, "PRR")
    assert ("H10", 1) in reach.paths  # city-E track, from Altoona
    assert ("H10", 0) in reach.stops  # a route may end in the blocked city
    assert ("H10", 0) not in reach.paths  # but not pass through it
    assert ("H8", 0) not in reach.paths


def test_6_3_3_own_station_does_not_block(board_map, blocked):
    reach = reachable(board_map, blocked, "NYC")
    assert {("H8", 0), ("H10", 0), ("H10", 1)} <= reach.paths
    assert ("H12", 2) in reach.paths  # Altoona's bypass track; its city is full (PRR)


def test_6_3_3_blocked_city_stops_a_tile_lay_until_it_has_room(board_map, blocked):
    assert not new_tile_connected(board_map, blocked, "H6", "9", 1, "PRR")
    assert lay_problem(board_map, blocked, "H8", "23", 1, GREEN, corp="PRR") is not None
    lay_tile(board_map, blocked, "H10", "14", 1)  # two slots: one is free again
    assert blocked.tokens["H10"] == [["NYC"]]
    assert ("H8", 0) in reachable(board_map, blocked, "PRR").paths


def test_6_3_3_altoona_bypass_passes_a_full_city(board_map, board):
    lay_tile(board_map, board, "H10", "57", 1)
    place_token(board_map, board, "H10", 0, "B&O")
    lay_tile(board_map, board, "H14", "9", 1)
    reach = reachable(board_map, board, "B&O")
    assert ("H12", 2) in reach.paths and ("H14", 0) in reach.paths
    assert ("H12", 0) not in reach.paths or ("H12", 1) not in reach.paths
    assert placements(board_map, board, "H16", "57", ("yellow",), corp="B&O") == [1, 4]


def test_6_4_2_no_reversing_at_a_junction(board_map, board):
    # 23 at rotation 4 is 4-1 and 4-2: both meet at the east side, away from Altoona.
    board.tiles["H14"] = ("23", 4)
    reach = reachable(board_map, board, "PRR")
    assert ("H14", 0) in reach.paths and ("H14", 1) not in reach.paths
    # at rotation 1 (1-4, 1-5) the junction faces Altoona: both branches are open
    board.tiles["H14"] = ("23", 1)
    reach = reachable(board_map, board, "PRR")
    assert {("H14", 0), ("H14", 1)} <= reach.paths


def test_6_4_2_no_route_through_an_off_board_area(board_map, board):
    lay_tile(board_map, board, "B10", "57", 0)  # Barrie: SW and NE (toward Canadian West)
    place_token(board_map, board, "B10", 0, "CPR")
    lay_tile(board_map, board, "B12", "9", 2)  # NW (toward Canadian West) and SE
    reach = reachable(board_map, board, "CPR")
    assert ("A11", 1) in reach.paths and ("A11", 0) in reach.stops
    assert ("A11", 0) not in reach.paths and ("B12", 0) not in reach.paths


def test_6_4_2_routes_pass_through_towns(board_map):
    board = BoardState.new(board_map)
    lay_tile(board_map, board, "B16", "57", 0)  # Ottawa: SW toward Kingston's NE
    place_token(board_map, board, "B16", 0, "CPR")
    lay_tile(board_map, board, "C13", "9", 1)  # W-E, east toward Kingston's W
    reach = reachable(board_map, board, "CPR")
    assert ("C15", 0) in reach.stops and ("C13", 0) in reach.paths


def test_6_3_2_station_needs_a_route_to_the_city(board_map, board):
    lay_tile(board_map, board, "H14", "9", 1)
    lay_tile(board_map, board, "H16", "57", 1)
    assert ("H16", 0) in reachable(board_map, board, "PRR").stops
    assert ("H16", 0) not in reachable(board_map, board, "NYC").stops


# -- a made-up map for a loop of track --------------------------------------------------------


def gray(coord, track, stops=()):
    paths = tuple(parse_track(t) for t in track)
    return MapHex(coord, "gray", Tile(f"@{coord}", "gray", None, tuple(stops), paths))


@pytest.fixture
def balloon():
    """A1 (station) - A3 - A5 - A7 with a loop A7-B6-B8-A7 at the end.  At the A3/A5
    side A3 also has a branch to B2, which only a train coming back west could take:
    that needs the A5/A7 track twice (turning round on the loop)."""
    hexes = {
        "A1": gray("A1", ["c0-4"], [Stop("city", 20, 1)]),
        "A3": gray("A3", ["1-4", "0-4"]),
        "B2": gray("B2", ["3-c0"], [Stop("town", 10)]),
        "A5": gray("A5", ["1-4"]),
        "A7": gray("A7", ["1-0", "1-5"]),
        "B6": gray("B6", ["3-4"]),
        "B8": gray("B8", ["1-2"]),
    }
    board_map = Map("test", hexes, {}, {}, {})
    board = BoardState()
    place_token(board_map, board, "A1", 0, "X")
    return board_map, board


def test_6_4_2_a_route_may_not_turn_round_on_a_loop(balloon):
    board_map, board = balloon
    reach = reachable(board_map, board, "X")
    assert reach.exact
    assert {("A7", 0), ("A7", 1), ("B6", 0), ("B8", 0)} <= reach.paths
    assert ("A3", 1) not in reach.paths and ("B2", 0) not in reach.stops


def test_route_search_falls_back_to_a_generous_answer(balloon, monkeypatch):
    board_map, board = balloon
    monkeypatch.setattr(track, "SEARCH_BUDGET", 1)
    reach = reachable(board_map, board, "X")
    assert not reach.exact
    assert ("A3", 1) in reach.paths and ("B2", 0) in reach.stops
