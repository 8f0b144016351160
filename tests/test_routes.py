"""Routes and revenue: 1830 rules 6.3.3 (blocking), 6.4, 6.4.1, 6.4.2 (routes), 6.5
(revenue, the best total), with the rulebook's route example rebuilt as a board."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest

from pbem.engine.board.map import BoardState, Map, MapHex, load_map, place_token
from pbem.engine.board.routegraph import RouteGraph
from pbem.engine.board.search import RevenueRules, best_run, has_route, legal_routes
from pbem.engine.board.tiles import Stop, Tile, parse_track
from pbem.engine.board.track import lay_tile
from pbem.engine.board.written import check_run, route_text, train_phrase
from pbem.engine.errors import AmbiguousError, RulesError


def hex_(coord, track, stops=(), kind="gray", area=None):
    tile = Tile(f"@{coord}", kind, None, tuple(stops), tuple(parse_track(t) for t in track))
    return MapHex(coord, kind, tile, area=area)


def city(value, slots=1):
    return Stop("city", value, slots)


def town(value):
    return Stop("town", value)


def offboard(yellow, brown=None):
    return Stop("offboard", {"yellow": yellow, "brown": brown or yellow})


Example = tuple[Map, BoardState]


def make(hexes: list[MapHex], tokens: Sequence[tuple[str, int, str]] = ()) -> Example:
    board_map = Map("test", {h.coord: h for h in hexes}, {}, {}, {}, ("yellow", "brown"))
    board = BoardState()
    for coord, index, corp in tokens:
        place_token(board_map, board, coord, index, corp)
    return board_map, board


# -- the route example of rule 6.4 ----------------------------------------------------------------
#
# The picture is missing; this board agrees with every route the text lists.  Letters are
# the example's, coordinates ours:
#
#        A(B4)  B(B6)  C(B8)  G(B10)          A: plain track D-B
#    D(C3)  E(C5)  F(C7)  I(C9)  J(C11)       B: track C-E crossed by track A-(dead end)
#       H(D4)                                 C: a junction at the side to B: B-F, B-G
#
# D (30/50) and H (20) are red off-boards, E (30), F (50, B&O home) and G (20) cities,
# J (10) a small city; I is plain track.  FE = 80, FIJ = 60, GCBEF = 100, FED = 110 ...

LETTERS = {"A": "B4", "B": "B6", "C": "B8", "D": "C3", "E": "C5", "F": "C7", "G": "B10",
           "H": "D4", "I": "C9", "J": "C11"}
HEXES = {v: k for k, v in LETTERS.items()}


def example_hexes():
    return [
        hex_("B4", ["0-4"]),
        hex_("B6", ["4-0", "1-5"]),
        hex_("B8", ["1-0", "1-4"]),
        hex_("C3", ["4-c0", "3-c0"], [offboard(30, 50)], "red", "D"),
        hex_("C5", ["0-c0", "1-c0", "3-c0", "4-c0"], [city(30)]),
        hex_("C7", ["1-c0", "3-c0", "4-c0"], [city(50)]),
        hex_("B10", ["1-c0"], [city(20)]),
        hex_("D4", ["3-c0"], [offboard(20)], "red", "H"),
        hex_("C9", ["1-4"]),
        hex_("C11", ["1-c0"], [town(10)]),
    ]


@pytest.fixture
def example() -> Example:
    return make(example_hexes(), [("C7", 0, "B&O")])


def letters(route):
    """The example's name of a route: the hexes it passes, either way round."""
    names: list[str] = []
    for coord, _ in route.segments:
        if not names or names[-1] != HEXES[coord]:
            names.append(HEXES[coord])
    text = "".join(names)
    return min(text, text[::-1])


def canon(text):
    return min(text, text[::-1])


def written(text):
    """"FED" -> ["C7", "C5", "C3"]: the revenue centres of an example route."""
    return [LETTERS[c] for c in text if c not in "ABCI"]


def routes_of(board_map, board, distance, corp="B&O"):
    return {letters(r): r.revenue for r in legal_routes(board_map, board, corp, distance,
                                                         "yellow")}


def test_6_4_example_legal_routes_for_a_2_train(example: Example):
    # 1) FE (80), FCBE (80), FIJ (60)
    assert routes_of(*example, 2) == {canon("FE"): 80, canon("FCBE"): 80, canon("FIJ"): 60}


def test_6_4_example_legal_routes_for_a_3_train(example: Example):
    # 5) the seven 3-city routes; a 3-train may also run the 2-city routes
    three = {"EFIJ": 90, "EBCFIJ": 90, "GCBEF": 100, "FED": 110, "FEH": 100, "FCBED": 110,
             "FCBEH": 100}
    two = {"FE": 80, "FCBE": 80, "FIJ": 60}
    assert routes_of(*example, 3) == {canon(k): v for k, v in {**three, **two}.items()}


@pytest.mark.parametrize("route", ["FCG", "FCBAD", "DE", "EH", "EBCG", "FEBCF", "EFE", "EDA"])
def test_6_4_example_illegal_routes_are_never_found(example: Example, route):
    # 2) FCG reverses at a junction, FCBAD changes track at a crossover, DE/EH/EBCG have
    # no station; 6) FEBCF and EFE count F or E twice; EDA passes a red area
    for distance in (2, 3, 4, None):
        assert canon(route) not in routes_of(*example, distance)


@pytest.mark.parametrize(
    ("trains", "total"),
    [([2], 80), ([2, 2], 160), ([2, 2, 2], 220), ([2, 2, 3], 250), ([2, 3, 3], 270),
     ([3, 3], 210), ([3, 4], 220)],
)
def test_6_5_example_best_revenue_per_train_combination(example: Example, trains, total):
    run = best_run(*example, "B&O", [(str(t), t) for t in trains], "yellow")
    assert run.total == total
    assert sum(r.revenue for r in run.routes) == total
    used = [seg for r in run.routes for seg in r.segments]
    assert len(used) == len(set(used))  # no track twice


def test_6_5_example_routes_are_given_per_train_in_order(example: Example):
    run = best_run(*example, "B&O", [("2", 2), ("3", 3), ("3", 3)], "yellow")
    assert [r.train for r in run.routes] == ["2", "3", "3"]
    assert sorted(letters(r) for r in run.routes) == sorted(
        [canon("FIJ"), canon("FED"), canon("FCBEH")])


def test_6_5_example_a_route_lists_stops_and_segments_in_travel_order(example: Example):
    run = best_run(*example, "B&O", [("2", 2)], "yellow")
    route = run.routes[0]
    assert route.revenue == 80
    assert route.stops in ((("C7", 0), ("C5", 0)), (("C5", 0), ("C7", 0)))
    first = route.segments[0][0]
    assert (first, route.stops[0][0]) in (("C7", "C7"), ("C5", "C5"))


@pytest.mark.parametrize(
    ("routes", "total"),
    [({"3": "EFIJ", "3b": "FCBED"}, 200), ({"3": "EFIJ", "3b": "FCBEH"}, 190),
     ({"3": "GCBEF", "3b": "FIJ"}, 160), ({"3": "EBCFIJ", "3b": "DEF"}, 200),
     ({"3": "EBCFIJ", "3b": "HEF"}, 190), ({"3": "FCBED", "3b": "FEH"}, 210),
     ({"3": "FCBEH", "3b": "FED"}, 210)],
)
def test_6_4_example_legal_pairs_of_3_train_routes(example: Example, routes, total):
    # 7) each pair the text lists is accepted
    explicit = [{"train": "3", "stops": written(r)} for r in routes.values()]
    run = check_run(*example, "B&O", [("3", 3), ("3", 3)], explicit, "yellow")
    assert run.total == total


def test_6_4_example_fed_and_feh_share_track(example: Example):
    # 8) FED and FEH both use EF; written by their cities, F-E-H can still run as FCBEH
    explicit = [{"train": "3", "stops": written("FED")}, {"train": "3", "stops": written("FEH")}]
    run = check_run(*example, "B&O", [("3", 3), ("3", 3)], explicit, "yellow")
    assert [letters(r) for r in run.routes] == [canon("FED"), canon("FCBEH")]
    assert run.total == 210


def test_6_4_example_fcbe_takes_the_long_way_when_fe_is_taken(example: Example):
    explicit = [{"train": "2", "stops": written("FE")}, {"train": "2", "stops": written("FE")}]
    run = check_run(*example, "B&O", [("2", 2), ("2", 2)], explicit, "yellow")
    assert sorted(letters(r) for r in run.routes) == sorted([canon("FE"), canon("FCBE")])


def test_6_5_offboard_value_follows_the_phase_column(example: Example):
    assert best_run(*example, "B&O", [("3", 3)], "yellow").total == 110  # FED: D is 30
    assert best_run(*example, "B&O", [("3", 3)], "brown").total == 130  # ... and 50
    assert best_run(*example, "B&O", [("3", 3)], 1).total == 130  # by column index


# -- blocking (6.3.3) ----------------------------------------------------------------------------


def test_6_3_3_a_full_city_of_another_company_cannot_be_passed(example: Example):
    board_map, board = example
    place_token(board_map, board, "C5", 0, "PRR")  # E is full
    routes = routes_of(board_map, board, 3)
    assert canon("FED") not in routes and canon("GCBEF") not in routes
    assert routes[canon("EFIJ")] == 90  # it may still end a route
    assert best_run(board_map, board, "B&O", [("3", 3)], "yellow").total == 90


def test_6_3_3_an_own_station_never_blocks(example: Example):
    board_map, board = example
    place_token(board_map, board, "C5", 0, "B&O")
    assert routes_of(board_map, board, 3)[canon("FED")] == 110
    # another company's route through E is blocked by the B&O station there
    place_token(board_map, board, "B10", 0, "PRR")
    assert canon("GCBEF") not in routes_of(board_map, board, 3, "PRR")
    assert routes_of(board_map, board, 3, "PRR") == {canon("GCBE"): 50}


def test_6_3_3_a_city_with_a_free_slot_can_be_passed():
    hexes = [hex_("A1", ["4-c0"], [city(20)]), hex_("A3", ["1-c0", "c0-4"], [city(30, 2)]),
             hex_("A5", ["1-c0"], [city(40)])]
    board_map, board = make(hexes, [("A1", 0, "X"), ("A3", 0, "Y")])
    assert best_run(board_map, board, "X", [("3", 3)], "yellow").total == 90
    place_token(board_map, board, "A3", 0, "Z")
    assert best_run(board_map, board, "X", [("3", 3)], "yellow").total == 50


# -- off-boards (6.4.2) --------------------------------------------------------------------------


def line_with_offboard(area="Gulf"):
    hexes = [hex_("A1", ["4-c0"], [city(20)]),
             hex_("A3", ["1-c0", "c0-4"], [offboard(30, 60)], "red", area),
             hex_("A5", ["1-c0"], [city(40)])]
    return make(hexes, [("A1", 0, "X")])


def test_6_4_2_a_route_never_passes_an_off_board():
    board_map, board = line_with_offboard()
    assert best_run(board_map, board, "X", [("D", None)], "yellow").total == 50
    with pytest.raises(RulesError) as error:
        check_run(board_map, board, "X", [("3", 3)], [{"train": "3", "stops": ["A1", "A3", "A5"]}],
                  "yellow")
    assert error.value.message == "A route may not pass through the off-board area Gulf."


def test_6_4_2_one_off_board_area_counts_once():
    # S in the middle, an off-board area of two hexes on both sides (as 1830's Gulf)
    hexes = [hex_("A1", ["4-c0"], [offboard(30, 60)], "red", "Gulf"),
             hex_("A3", ["1-c0", "c0-4"], [city(20)]),
             hex_("A5", ["1-c0"], [offboard(40, 60)], "red", "Gulf")]
    board_map, board = make(hexes, [("A3", 0, "X")])
    assert best_run(board_map, board, "X", [("3", 3)], "yellow").total == 60
    with pytest.raises(RulesError) as error:
        check_run(board_map, board, "X", [("3", 3)], [{"train": "3", "stops": ["A1", "A3", "A5"]}],
                  "yellow")
    assert error.value.message == (
        "The 3-train's route A1-A3-A5 visits the off-board area Gulf twice.")


def test_6_4_2_1830_gulf_and_canadian_west_are_areas():
    board_map = load_map("1830")
    areas = {c: h.area for c, h in board_map.hexes.items() if h.kind == "red"}
    assert areas["I1"] == areas["J2"] == "Gulf"
    assert areas["A9"] == areas["A11"] == "Canadian West"


# -- two cities of one hex, towns, distance (6.4.1, 6.4.2) ---------------------------------------


def two_city_hex():
    """A1 (station) - A3 city 1 - A5 - B4 - A3 city 2 - B2: one route scores both A3s."""
    hexes = [hex_("A1", ["4-c0"], [city(10)]),
             hex_("A3", ["1-c0", "c0-4", "5-c1", "c1-0"], [city(40), city(30)]),
             hex_("A5", ["1-0"]),
             hex_("B4", ["3-2"]),
             hex_("B2", ["3-c0"], [city(20)])]
    return make(hexes, [("A1", 0, "X")])


def test_6_4_2_both_cities_of_one_hex_on_one_route():
    board_map, board = two_city_hex()
    run = best_run(board_map, board, "X", [("4", 4)], "yellow")
    assert run.total == 100
    assert run.routes[0].stops == (("A1", 0), ("A3", 0), ("A3", 1), ("B2", 0))
    assert route_text(board_map, board, run.routes[0].stops) == "A1-A3.1-A3.2-B2"


def test_6_4_2_numbered_cities_in_a_written_route():
    board_map, board = two_city_hex()
    run = check_run(board_map, board, "X", [("4", 4)],
                    [{"train": "4", "stops": ["A1", "A3.1", "A3.2", "B2"]}], "yellow")
    assert run.total == 100
    # plain hexes are enough when only one reading fits
    run = check_run(board_map, board, "X", [("4", 4)],
                    [{"train": "4", "stops": ["A1", "A3", "A3", "B2"]}], "yellow")
    assert run.routes[0].stops == (("A1", 0), ("A3", 0), ("A3", 1), ("B2", 0))
    with pytest.raises(RulesError) as error:
        check_run(board_map, board, "X", [("4", 4)],
                  [{"train": "4", "stops": ["A1", "A3.2", "A3.1", "B2"]}], "yellow")
    assert error.value.message == (
        "No track joins A1 to A3.2 for the 4-train without passing another city (a route "
        "counts every city it passes).")


def test_6_4_2_plain_hex_with_two_fitting_cities_is_ambiguous():
    hexes = [hex_("A1", ["4-c0"], [city(10)]),
             hex_("A3", ["1-c0", "1-c1"], [city(40), city(30)])]
    board_map, board = make(hexes, [("A1", 0, "X")])
    with pytest.raises(AmbiguousError) as error:
        check_run(board_map, board, "X", [("2", 2)], [{"train": "2", "stops": ["A1", "A3"]}],
                  "yellow")
    assert error.value.message == ("A3 has more than one city on the 2-train's route A1-A3: "
                                   "write A3.1 or A3.2.")


def line(values, kinds=None):
    """Stops in a row A1, A3, ...; the first holds X's station."""
    kinds = kinds or ["city"] * len(values)
    hexes = []
    for i, (value, kind) in enumerate(zip(values, kinds, strict=True)):
        track = (["1-c0"] if i else []) + (["c0-4"] if i < len(values) - 1 else [])
        hexes.append(hex_(f"A{2 * i + 1}", track, [Stop(kind, value, 1 if kind == "city" else 0)]))
    return make(hexes, [("A1", 0, "X")])


def test_6_4_1_a_diesel_counts_every_stop():
    board_map, board = line([10, 20, 30, 40, 50, 60, 70, 80])
    assert best_run(board_map, board, "X", [("D", None)], "yellow").total == 360
    assert best_run(board_map, board, "X", [("6", 6)], "yellow").total == 210
    assert len(best_run(board_map, board, "X", [("D", None)], "yellow").routes[0].stops) == 8


def test_6_4_1_towns_count_as_stops_and_cannot_be_skipped():
    board_map, board = line([20, 10, 40], ["city", "town", "city"])
    assert best_run(board_map, board, "X", [("2", 2)], "yellow").total == 30
    assert best_run(board_map, board, "X", [("3", 3)], "yellow").total == 70
    with pytest.raises(RulesError) as error:
        check_run(board_map, board, "X", [("2", 2)], [{"train": "2", "stops": ["A1", "A5"]}],
                  "yellow")
    assert error.value.message == (
        "No track joins A1 to A5 for the 2-train without passing another city (a route "
        "counts every city it passes).")


def test_6_4_1_a_route_needs_two_stops():
    board_map, board = make([hex_("A1", ["4-c0"], [city(20)]), hex_("A3", ["1-4"])],
                            [("A1", 0, "X")])
    assert best_run(board_map, board, "X", [("D", None)], "yellow").total == 0
    assert best_run(board_map, board, "X", [("D", None)], "yellow").routes == ()
    assert not has_route(board_map, board, "X")


def test_has_route(example: Example):
    assert has_route(*example, "B&O")
    assert not has_route(*example, "PRR")


def test_no_trains_or_no_station_run_nothing(example: Example):
    assert best_run(*example, "B&O", [], "yellow").total == 0
    assert best_run(*example, "PRR", [("2", 2)], "yellow").routes == ()


# -- trains of one company share no track -----------------------------------------------------


def junction_board():
    """Two routes cross the A3/A5 side on different paths of both hexes: B2-A7 and B4-B6."""
    hexes = [hex_("B2", ["3-c0"], [city(30)]), hex_("B4", ["2-c0"], [city(20)]),
             hex_("A3", ["0-4", "5-4"]), hex_("A5", ["1-4", "1-5"]),
             hex_("A7", ["1-c0"], [city(40)]), hex_("B6", ["2-c0"], [city(10)])]
    return make(hexes, [("B2", 0, "X"), ("B4", 0, "X")])


def test_6_4_2_trains_share_no_track_not_even_at_a_junction():
    board_map, board = junction_board()
    assert best_run(board_map, board, "X", [("2", 2)], "yellow").total == 70
    # B2-A7 and B4-B6 use different tile paths but meet at the A3/A5 side
    assert best_run(board_map, board, "X", [("2", 2), ("2", 2)], "yellow").total == 70
    with pytest.raises(RulesError):
        check_run(board_map, board, "X", [("2", 2), ("2", 2)],
                  [{"train": "2", "stops": ["B2", "A7"]}, {"train": "2", "stops": ["B4", "B6"]}],
                  "yellow")


def test_6_4_2_no_reversing_at_a_junction():
    board_map, board = junction_board()
    # B2 -> A3 -> B4 would turn back at the A3/A5 side
    with pytest.raises(RulesError) as error:
        check_run(board_map, board, "X", [("2", 2)], [{"train": "2", "stops": ["B2", "B4"]}],
                  "yellow")
    assert error.value.message == "No track joins B2 to B4 for the 2-train."


def test_6_4_2_trains_may_meet_at_a_city(example: Example):
    explicit = [{"train": "2", "stops": written("FE")}, {"train": "2", "stops": written("FIJ")}]
    assert check_run(*example, "B&O", [("2", 2), ("2", 2)], explicit, "yellow").total == 140


# -- written routes: each error sentence ------------------------------------------------------


def check(example: Example, trains: list[tuple[str, int | None]],
          routes: list[tuple[str, str]]) -> str:
    explicit = [{"train": t, "stops": s.split("-")} for t, s in routes]
    with pytest.raises(RulesError) as error:
        check_run(*example, "B&O", trains, explicit, "yellow")
    return error.value.message


def test_check_run_no_station(example: Example):
    assert check(example, [("2", 2)], [("2", "C3-C5")]) == (
        "The 2-train's route C3-C5 does not include a B&O station.")


def test_check_run_too_many_stops(example: Example):
    assert check(example, [("2", 2)], [("2", "C7-C5-C3")]) == (
        "The 2-train counts at most 2 stops; C7-C5-C3 has 3.")


def test_check_run_too_few_stops(example: Example):
    assert check(example, [("2", 2)], [("2", "C7")]) == (
        "The 2-train's route C7 needs at least two cities.")


def test_check_run_city_twice(example: Example):
    assert check(example, [("3", 3)], [("3", "C7-C5-C7")]) == (
        "The 3-train's route C7-C5-C7 visits C7 twice; a route may not count the same city "
        "twice.")


def test_check_run_hex_without_a_stop(example: Example):
    assert check(example, [("4", 4)], [("4", "C7-C5-C3-B4")]) == (
        "B4 has no city, town or off-board area to count.")


def test_check_run_passes_a_blocked_city(example: Example):
    board_map, board = example
    place_token(board_map, board, "C5", 0, "PRR")
    assert check((board_map, board), [("3", 3)], [("3", "C7-C5-C3")]) == (
        "A B&O route may not pass through C5: all its station spaces hold other companies' "
        "stations.")


def test_check_run_no_track(example: Example):
    # F-C-G would reverse at C's junction; only a way through E (a city) is left
    assert check(example, [("2", 2)], [("2", "C7-B10")]) == (
        "No track joins C7 to B10 for the 2-train without passing another city (a route "
        "counts every city it passes).")
    board_map, board = junction_board()
    place_token(board_map, board, "B6", 0, "B&O")
    assert check((board_map, board), [("2", 2)], [("2", "B6-B10")]) == (
        "There is no hex B10 on the test map.")


def _whole_board(*args, **kwargs):
    kwargs["whole"] = True
    return RouteGraph(*args, **kwargs)


def _outcome(board_map, board, stops, **kwargs):
    try:
        return check_run(board_map, board, "B&O", [("3", 3)],
                         [{"train": "3", "stops": list(stops)}], "yellow", **kwargs).total
    except RulesError as error:
        return error.message


def test_the_search_sees_only_the_region_of_the_stations(example: Example):
    # E full of PRR stations: B&O routes may end there (6.3.3) but nothing beyond it is
    # theirs (the off-boards D and H); the search's graph leaves that track out
    board_map, board = example
    place_token(board_map, board, "C5", 0, "PRR")
    region = RouteGraph(board_map, board, "B&O", "yellow")
    whole = RouteGraph(board_map, board, "B&O", "yellow", whole=True)
    assert {c for c, _ in whole.stops} - {c for c, _ in region.stops} == {"C3", "D4"}
    assert best_run(board_map, board, "B&O", [("3", 3)], "yellow").total == \
        best_run(board_map, board, "B&O", [("3", 3)], "yellow", make_graph=_whole_board).total


def test_check_run_on_the_region_says_what_the_whole_board_says(example: Example):
    # a written stop outside the region (D, H beyond a full E) is checked on the whole
    # board's track: "may not pass through the off-board area D", not "no track joins"
    board_map, board = example
    place_token(board_map, board, "C5", 0, "PRR")
    assert _outcome(board_map, board, ["C7", "C3", "C5"]) == (
        "A route may not pass through the off-board area D.")
    for count in (2, 3):
        for stops in itertools.permutations(sorted(board_map.hexes), count):
            assert _outcome(board_map, board, stops) == \
                _outcome(board_map, board, stops, make_graph=_whole_board), stops


def test_check_run_reusing_track():
    # A1's only track splits at the A1/A3 side toward A5 and B4: A5-A1-B4 needs it twice
    hexes = [hex_("A1", ["4-c0"], [city(10)]), hex_("A3", ["1-4", "1-5"]),
             hex_("A5", ["1-c0"], [city(20)]), hex_("B4", ["2-c0"], [city(30)])]
    board_map, board = make(hexes, [("A1", 0, "B&O")])
    assert check((board_map, board), [("3", 3)], [("3", "A5-A1-B4")]) == (
        "No track joins A1 to B4 for the 3-train without reusing track.")
    assert check((board_map, board), [("2", 2), ("2", 2)],
                 [("2", "A1-A5"), ("2", "A1-B4")]) == (
        "The two 2-trains' routes would share track; trains of one company may not use the "
        "same track.")
    assert check((board_map, board), [("2", 2), ("3", 3)],
                 [("2", "A1-A5"), ("3", "A1-B4")]) == (
        "The 2-train and the 3-train would share track; trains of one company may not use the "
        "same track.")
    # the two cities of A3 share the A3/A5 side; the town A5 has one track
    hexes = [hex_("A1", ["4-c0"], [city(10)]),
             hex_("A3", ["1-c0", "c0-4", "c1-4", "c1-0"], [city(20), city(30)]),
             hex_("A5", ["1-c0"], [town(10)]),
             hex_("B2", ["3-c0"], [city(40)])]
    board_map, board = make(hexes, [("A1", 0, "B&O")])
    assert check((board_map, board), [("D", None)], [("D", "A1-A3.1-A5-A3.2-B2")]) == (
        "No track joins A5 to A3.2 for the diesel without reusing track.")
    assert check((board_map, board), [("D", None)], [("D", "A1-A3.1-A3.2-B2")]) == (
        "No track joins A3.1 to A3.2 for the diesel.")


def test_check_run_unknown_train_and_train_twice(example: Example):
    assert check(example, [("2", 2)], [("5", "C7-C5")]) == "B&O has no 5-train."
    assert check(example, [("2", 2)], [("2", "C7-C5"), ("2", "C7-C11")]) == (
        "The 2-train is given more than one route; each train runs once.")
    assert check(example, [("2", 2), ("2", 2)], [("2", "C7-C5")] * 3) == (
        "B&O has 2 2-trains but more routes are given for them; each train runs once.")


def test_check_run_bad_stop_names(example: Example):
    assert check(example, [("2", 2)], [("2", "C7-Z99")]) == "There is no hex Z99 on the test map."
    assert check(example, [("2", 2)], [("2", "C7-C5.2")]) == "C5 has only C5.1."
    assert check(example, [("2", 2)], [("2", "C7-Paris")]) == (
        "'Paris' is not a city; write a hex like H12, or G19.1 for one city of a hex with two.")


def test_check_run_accepts_case_and_spaces(example: Example):
    run = check_run(*example, "B&O", [("3", 3)],
                    [{"train": "3", "stops": [" c7", "c5 ", "C3.1"]}], "yellow")
    assert run.total == 110
    assert run.routes[0].stops == (("C7", 0), ("C5", 0), ("C3", 0))
    assert run.routes[0].segments[0][0] == "C7"


def test_check_run_revenue_and_order_follow_the_player(example: Example):
    explicit = [{"train": "3", "stops": written("DEF")}, {"train": "2", "stops": written("FIJ")}]
    run = check_run(*example, "B&O", [("2", 2), ("3", 3)], explicit, "brown")
    assert [(r.train, r.revenue) for r in run.routes] == [("3", 130), ("2", 60)]
    assert run.total == 190


def test_train_phrase():
    assert train_phrase("3") == "3-train"
    assert train_phrase("D") == "diesel"


# -- 1870 hooks --------------------------------------------------------------------------------


def test_1870_stop_values_and_end_bonus(example: Example):
    # a port token on E (+20) and a destination marker at D (its value again at a route end)
    rules = RevenueRules(values={("C5", 0): 50}, end_bonus={("C3", 0): 30})
    run = best_run(*example, "B&O", [("3", 3)], "yellow", rules)
    assert run.total == 160  # F 50 + E 50 + D 30 doubled
    assert letters(run.routes[0]) in (canon("FED"), canon("FCBED"))
    # the bonus counts only at an end: D is always an end (an off-board); the port counts
    run = check_run(*example, "B&O", [("2", 2)], [{"train": "2", "stops": written("FE")}],
                    "yellow", rules)
    assert run.total == 100


def test_1870_end_bonus_only_at_the_ends():
    board_map, board = line([20, 30, 40])
    rules = RevenueRules(end_bonus={("A3", 0): 30})
    assert best_run(board_map, board, "X", [("3", 3)], "yellow", rules).total == 90
    assert best_run(board_map, board, "X", [("2", 2)], "yellow", rules).total == 80


# -- the 1830 map --------------------------------------------------------------------------------


def test_6_4_altoona_to_pittsburgh_on_the_1830_map():
    board_map = load_map("1830")
    board = BoardState.new(board_map)
    place_token(board_map, board, "H12", 0, "PRR")
    lay_tile(board_map, board, "H10", "57", 1)  # Pittsburgh, W-E
    run = best_run(board_map, board, "PRR", [("2", 2)], "yellow")
    assert run.total == 30
    assert set(run.routes[0].stops) == {("H12", 0), ("H10", 0)}
    run = check_run(board_map, board, "PRR", [("2", 2)],
                    [{"train": "2", "stops": ["H12", "H10"]}], "yellow")
    assert run.total == 30


def test_check_run_city_without_track_on_the_1830_map():
    board_map = load_map("1830")
    board = BoardState.new(board_map)
    place_token(board_map, board, "H12", 0, "PRR")
    lay_tile(board_map, board, "H10", "57", 1)
    with pytest.raises(RulesError) as error:
        check_run(board_map, board, "PRR", [("3", 3)],
                  [{"train": "3", "stops": ["H10", "H12", "H16"]}], "yellow")
    assert error.value.message == "No track joins H12 to H16 for the 3-train."
    with pytest.raises(RulesError) as error:  # two bare cities are still two cities
        check_run(board_map, board, "PRR", [("D", None)],
                  [{"train": "D", "stops": ["H12", "H16", "E19"]}], "yellow")
    assert error.value.message == "No track joins H12 to H16 for the diesel."
