"""1830 operating rounds: the station example of 6.3, forced sales that change the
presidency of a corporation selling a train (6.6.3), naming a tile placement by its
track (6.2), and running for the best revenue before withholding (6.4, 6.5)."""

from __future__ import annotations

import itertools

import pytest
from enginehelp import Table, first_operating_round, give_train, privates_sold_b_and_o_parred
from hypothesis import given
from hypothesis import strategies as st

from pbem.engine.board.map import place_token
from pbem.engine.errors import AmbiguousError
from pbem.engine.facts import TileLaid
from pbem.engine.game import decide, new_game
from pbem.engine.ortrack import (
    distinct_placements,
    joins,
    lay_options,
    placement_key,
    token_options,
)
from pbem.engine.state import GameState
from pbem.notation import context_for_1830, format_action, parse_command
from pbem.service import parse_context


def lay_on_board(state: GameState, coord: str, tile: str, rotation: int) -> None:
    """Test set-up: a tile on the board as if laid earlier (no rule checks)."""
    state.board.tiles[coord] = (tile, rotation)
    state.board.tiles_left[tile] -= 1


# -- 6.3: the station example --------------------------------------------------------------
#
# The rulebook's picture is missing from our text; this position on the 1830 map fits the
# example's words.  H is Baltimore (I15), the B&O's home, upgraded to tile 53 (SW, NW, E).
#
#   A  J14 Washington, tile 57 NE-SW: joined to Baltimore.
#   B  K15, the gray city south-east of Washington: no track joins it to anything.
#   F  H18 city 1 (tile 66: city 1 SW-NE, city 2 W-NW), the PRR's station.
#   D  H18 city 2, the other city of F's hex.
#   C  G19 city 2 (New York), beyond F to the north-east.
#   E  H16, tile 14 (two circles) turned W-NW-E-SE.
#   G  I17, tile 28 NE-W and NE-NW: from Baltimore (W) a train goes on to NE only.
#   G  H14, tile 29 NE-SE and NE-E: from Baltimore (SE) a train goes on to NE only.
#
# So the B&O reaches A, meets the PRR's full city F on the way to C, and reaches E only
# by reversing at a G; the PRR, from F, reaches C, E (through I17 from NE) and D, and
# meets the B&O's full city H on the way to A.  B is joined to nobody's track: in the
# rulebook's words the B&O "does not connect to that city with track", and the PRR, which
# could only come from the B&O's side, cannot reach it either.


def b_and_o_operating() -> Table:
    """A 4-player game at operating round 1.1 with the B&O (par 100, D) operating first,
    then the PRR (A) and the C&O (C); the example's position on the board."""
    t = privates_sold_b_and_o_parred()
    for who, corp in [("A", "PRR"), ("B", "NYC"), ("C", "C&O")]:
        t.act(who, "par", corp=corp, price=67)
    for _ in range(3):
        for who, corp in [("D", "B&O"), ("A", "PRR"), ("B", "NYC"), ("C", "C&O")]:
            t.act(who, "buy_share", corp=corp, source=None, count=1)
    t.act("D", "pass")
    t.act("A", "buy_share", corp="B&O", source=None, count=1)  # the B&O floats
    t.act("B", "pass")
    t.act("C", "buy_share", corp="C&O", source=None, count=1)
    t.pass_all()
    assert t.state.round["kind"] == "operating" and t.state.round["current"] == "B&O"
    state = t.state
    lay_on_board(state, "I15", "53", 0)
    lay_on_board(state, "J14", "57", 0)
    lay_on_board(state, "I17", "28", 3)
    lay_on_board(state, "H14", "29", 3)
    lay_on_board(state, "H16", "14", 1)
    lay_on_board(state, "H18", "66", 0)
    place_token(state.map, state.board, "H18", 0, "PRR")
    return t


def prr_operating() -> Table:
    """The same position with the PRR operating (the B&O bought a train and ended)."""
    t = b_and_o_operating()
    t.act("D", "buy_train", train=None, source=None, price=None, trade=None)
    t.act("D", "pass")
    assert t.state.round["current"] == "PRR"
    return t


def stations_open_to(t: Table, corp: str) -> list[tuple[str, int | None]]:
    return [(m["action"]["hex"], m["action"]["city"]) for m in token_options(t.state, corp)]


def test_6_3_example_b_and_o_may_place_a_station_at_a_only() -> None:
    t = b_and_o_operating()
    assert t.state.board.tokens["I15"] == [["B&O"]]  # H: the home station
    assert stations_open_to(t, "B&O") == [("J14", None)]
    t.act("D", "token", hex="J14", city=None)
    assert t.state.board.tokens["J14"] == [["B&O"]]


def test_6_3_example_b_and_o_not_at_b_no_track_connects() -> None:
    t = b_and_o_operating()
    assert t.refused("D", "token", hex="K15", city=None) == (
        "B&O cannot trace a route from one of its stations to the city on K15: no track "
        "connects them.")


def test_6_3_example_b_and_o_not_at_c_the_prr_station_at_f_blocks_the_route() -> None:
    t = b_and_o_operating()
    assert t.refused("D", "token", hex="G19", city=2) == (
        "B&O cannot trace a route from one of its stations to the city on G19: PRR's station "
        "on H18 fills that city, and a route may not pass through a city whose every circle "
        "holds another railroad's station.")


def test_6_3_example_b_and_o_not_at_e_a_route_may_not_reverse_at_a_junction() -> None:
    t = b_and_o_operating()
    assert t.refused("D", "token", hex="H16", city=None) == (
        "B&O cannot trace a route from one of its stations to the city on H16: its track "
        "leads there only by reversing at a junction, and a route may not reverse at a "
        "junction.")


def test_6_3_example_prr_may_place_a_station_at_e_or_c() -> None:
    t = prr_operating()
    assert sorted(stations_open_to(t, "PRR")) == [("G19", 2), ("H16", None)]
    t.act("A", "token", hex="H16", city=None)
    assert t.state.board.tokens["H16"] == [["PRR"]]
    t = prr_operating()
    t.act("A", "token", hex="G19", city=2)
    assert t.state.board.tokens["G19"][1] == ["PRR"]


def test_6_3_example_prr_not_at_a_or_b_the_b_and_o_station_at_h_blocks() -> None:
    t = prr_operating()
    assert t.refused("A", "token", hex="J14", city=None) == (
        "PRR cannot trace a route from one of its stations to the city on J14: B&O's station "
        "on I15 fills that city, and a route may not pass through a city whose every circle "
        "holds another railroad's station.")
    assert "K15: no track connects them" in t.refused("A", "token", hex="K15", city=None)


def test_6_3_2_example_prr_not_at_d_one_station_per_hex() -> None:
    t = prr_operating()
    assert t.refused("A", "token", hex="H18", city=2) == "PRR already has a station on H18."


# -- 6.6.3: a forced sale changes the president of the corporation selling the train -------


def prr_forced_to_buy_and_a_presides_c_and_o() -> Table:
    """The PRR (A) has a route (H10-H12), no train and no money; A has no money either.
    A is also president of the C&O (president's certificate and one share, 30%), which
    owns a 2-train; B holds three C&O shares (30%)."""
    t = first_operating_round()
    t.act("A", "lay", tile="57", hex="H10", exits=None)
    t.act("A", "run", routes=None)  # no train: runs nothing and withholds
    state = t.state
    state.bank += state.corps["PRR"].cash + t.cash("A")
    state.corps["PRR"].cash = 0
    state.player("A").cash = 0
    state.corps["C&O"].certs = ["p:A", "p:A", "p:B", "p:B", "p:B", "ipo", "ipo", "ipo", "ipo"]
    give_train(t, "C&O", "2")
    return t


def test_6_6_3_new_president_of_the_selling_corporation_may_cancel_and_the_position_is_restored(
) -> None:
    """6.6.3: "Any changes of president caused by share sales take place immediately. In
    this case, the new president may cancel the purchase of one of his new company's
    trains by the company without a train during this process. If that occurs, the
    position will be restored to that at the beginning of the train-buying step (and the
    beleaguered president must try a different plan)." (Buying Trains Summary: "the
    incoming President must agree to the transaction".)"""
    t = prr_forced_to_buy_and_a_presides_c_and_o()
    before = t.state.to_dict()
    t.act("A", "sell", sales=[{"corp": "C&O", "count": 2}])
    assert t.state.president("C&O") == "B" and t.cash("A") == 134
    t.act("A", "buy_train", train="2", source="C&O", price=80, trade=None)
    assert t.state.round["proposal"]["answer_by"] == "B"  # B now decides for the C&O
    t.act("B", "decline")
    assert "B, president of C&O since the forced sales, cancels the sale of its train: the " \
        "position goes back to the start of PRR's train purchase, and A must try another " \
        "plan (1830 6.6.3)." in t.log
    after = t.state.to_dict()
    for key in ("players", "corps", "privates", "bank"):
        assert after[key] == before[key], key
    assert t.state.president("C&O") == "A" and t.cash("A") == 0
    # another plan: two PRR shares (A keeps the PRR) and the bank's 2-train
    t.act("A", "sell", sales=[{"corp": "PRR", "count": 2}])
    t.act("A", "buy_train", train=None, source=None, price=None, trade=None)
    assert t.state.corps["PRR"].trains == ["2"]


def test_6_6_3_new_president_of_the_selling_corporation_may_agree() -> None:
    t = prr_forced_to_buy_and_a_presides_c_and_o()
    t.act("A", "sell", sales=[{"corp": "C&O", "count": 2}])
    t.act("A", "buy_train", train="2", source="C&O", price=80, trade=None)
    t.act("B", "accept")
    assert t.state.corps["PRR"].trains == ["2"] and t.state.corps["C&O"].trains == []
    assert t.state.president("C&O") == "B" and t.cash("A") == 134 - 80


def test_6_6_3_a_declined_offer_without_a_change_of_president_keeps_the_sales() -> None:
    t = prr_forced_to_buy_and_a_presides_c_and_o()
    t.state.corps["C&O"].certs = ["p:C", "p:C", "p:A", "p:A", "ipo", "ipo", "ipo", "ipo",
                                  "ipo"]  # C presides the C&O; A holds two shares
    t.act("A", "sell", sales=[{"corp": "C&O", "count": 2}])
    t.act("A", "buy_train", train="2", source="C&O", price=80, trade=None)
    t.act("C", "decline")
    assert t.state.president("C&O") == "C" and t.cash("A") == 134  # the sale stands
    t.act("A", "buy_train", train=None, source=None, price=None, trade=None)
    assert t.state.corps["PRR"].trains == ["2"]


# -- 6.2: naming a placement by its track ---------------------------------------------------


def prr_upgrading_a_gentle_curve() -> Table:
    """Phase 3; tile 8 (W-NE) on H14, reached by the PRR from Altoona.  Tile 25 (two
    curves from one side) keeps it with the junction at W or at NE: both touch W, NE, SE."""
    t = first_operating_round()
    lay_on_board(t.state, "H14", "8", 1)
    t.state.phase = "3"
    return t


def test_6_2_same_sides_different_track_is_refused_with_each_placement_named() -> None:
    t = prr_upgrading_a_gentle_curve()
    with pytest.raises(AmbiguousError):
        decide(t.state, "A", {"type": "lay", "tile": "25", "hex": "H14", "exits": None,
                              "with": None})
    assert t.refused("A", "lay", tile="25", hex="H14", exits=["W", "NE", "SE"]) == (
        "Tile 25 can lie on H14 touching W-NE-SE in 2 ways, with different track; say which "
        "by naming each pair of sides its track joins: lay 25 H14 W-NE/W-SE or "
        "lay 25 H14 W-NE/NE-SE.")
    assert t.refused("A", "lay", tile="25", hex="H14", exits=None) == (
        "Tile 25 fits H14 in several ways; say which: lay 25 H14 W-NE/W-SE, "
        "lay 25 H14 W-NE/NE-SE.")


@pytest.mark.parametrize(("paths", "rotation"), [
    ([["W", "NE"], ["W", "SE"]], 1),  # the junction at W
    ([["W", "NE"], ["NE", "SE"]], 3),  # the junction at NE
])
def test_6_2_the_track_chooses_the_placement(paths: list[list[str]], rotation: int) -> None:
    t = prr_upgrading_a_gentle_curve()
    t.act("A", "lay", tile="25", hex="H14", exits=["W", "NE", "SE"], paths=paths)
    assert t.state.board.tiles["H14"] == ("25", rotation)
    assert t.log[-1] == f"PRR lays tile 25 on H14 ({'/'.join('-'.join(p) for p in paths)})."


def test_6_2_track_the_tile_cannot_have_or_that_drops_old_track_is_refused() -> None:
    t = prr_upgrading_a_gentle_curve()
    assert t.refused("A", "lay", tile="25", hex="H14", exits=["W", "NE", "SE"],
                     paths=[["W", "NE"], ["W", "E"]]) == (
        "Tile 25 cannot be turned so that its track joins W-NE and W-E.")
    assert "existing track of H14 would not be kept" in t.refused(
        "A", "lay", tile="25", hex="H14", exits=["W", "NE", "SE"],
        paths=[["W", "SE"], ["NE", "SE"]])  # the junction at SE: W-NE is lost


def test_6_2_legal_lays_name_the_track_only_where_the_sides_are_not_enough() -> None:
    t = prr_upgrading_a_gentle_curve()
    lays = [m["action"] for m in lay_options(t.state, "PRR") if m["action"]["hex"] == "H14"]
    texts = [format_action(a) for a in lays]
    assert "lay 25 H14 W-NE/W-SE" in texts and "lay 25 H14 W-NE/NE-SE" in texts
    assert "lay 24 H14 W-NE-E" in texts  # a straight and a curve: the sides say it all
    ctx = parse_context(t.state)
    laid = set()
    for action, text in zip(lays, texts, strict=True):
        assert parse_command(text, ctx) == action
        facts = decide(t.state, "A", action).facts  # each names one legal placement
        laid.add(next((f.tile, f.rotation) for f in facts if isinstance(f, TileLaid)))
    assert len(laid) == len(lays)


def test_6_2_track_names_every_placement_of_every_tile() -> None:
    """Placements of one tile touching the same sides with different track always differ
    in the pairs of sides they join, so the notation can name each (1830 and 1870)."""
    for title in ("1830", "1870"):
        state = new_game(title, ["A", "B", "C"], 1, {})
        for tile_id, tile in state.map.tiles.items():
            for r1, r2 in itertools.combinations(range(6), 2):
                if tile.exits(r1) == tile.exits(r2) and \
                        placement_key(state, "A1", tile_id, r1) != \
                        placement_key(state, "A1", tile_id, r2):
                    assert joins(tile, r1) != joins(tile, r2), (title, tile_id, r1, r2)


def test_6_2_tile_1_turned_half_way_is_the_same_placement() -> None:
    """Tile 1's two towns swap their numbers at rotation 3, but the track is the same."""
    state = first_operating_round().state
    assert distinct_placements(state, "G7", "1", list(range(6))) == [0, 1, 2]


@pytest.mark.parametrize("text", [
    "lay 25 H14 W-NE/W-SE", "lay 25 h14 w-ne, w-se", "lay 25 H14 W-NE W-SE",
    "lay tile 25 on H14 west-northeast/west-southeast",
])  # fmt: skip
def test_lay_reads_the_track_pair_by_pair(text: str) -> None:
    ctx = context_for_1830("operating", ["Alice", "Bob"])
    assert parse_command(text, ctx) == {
        "type": "lay", "tile": "25", "hex": "H14", "exits": ["W", "NE", "SE"],
        "paths": [["W", "NE"], ["W", "SE"]], "with": None}


@pytest.mark.parametrize("text", ["lay 57 H12 SW-NE", "lay 57 H12 SW/NE", "lay 57 H12 sw ne",
                                  "lay 25 H14 W-NE-SE", "lay 25 H14 W-NE/SE"])
def test_lay_sides_alone_are_still_the_exits(text: str) -> None:
    action = parse_command(text, context_for_1830("operating", ["Alice", "Bob"]))
    assert "paths" not in action and action["exits"] is not None


# -- 6.4, 6.5: run for the best revenue, then pay out or withhold ---------------------------


def prr_with_a_route(**options: str) -> Table:
    """The PRR (A) with a 2-train and track H10-H12: a $30 run."""
    t = first_operating_round(**options)
    give_train(t, "PRR", "2")
    t.act("A", "lay", tile="57", hex="H10", exits=None)
    return t


def test_6_4_a_corporation_with_a_route_may_not_run_nothing() -> None:
    """6.4: "the combination of routes with the highest revenue should be chosen"; 6.5
    note: "the highest revenue route must be taken"."""
    t = prr_with_a_route()
    assert t.refused("A", "run", routes=[]) == (
        "PRR has a route (2: H12-H10 ($30)): a corporation must run its trains for the best "
        "revenue, here $30. Its president may then keep the revenue in the treasury "
        "(withhold) instead of paying it out.")


def test_6_5_the_president_may_always_withhold_the_revenue() -> None:
    """6.5: "The president of that railroad then decides how this total revenue will be
    paid out ... to the stock holders (as dividends) or to the railroad itself"."""
    t = prr_with_a_route()
    a = t.cash("A")
    t.act("A", "withhold")  # runs the best routes first
    assert t.state.round["turn"]["run"]["revenue"] == 30
    assert t.state.corps["PRR"].cash == 670 + 30 and t.cash("A") == a
    assert t.state.price("PRR") == 65


def test_6_4_run_nothing_without_a_train_or_with_best_run_free() -> None:
    t = first_operating_round()
    t.act("A", "run", routes=[])
    assert t.state.round["turn"]["dividend"] == "withhold"
    t = prr_with_a_route(best_run="free")  # imported games: any legal run is accepted
    t.act("A", "run", routes=[])
    assert t.state.round["turn"]["run"] == {"revenue": 0, "routes": []}
    assert t.state.round["turn"]["dividend"] == "withhold" and "PRR runs nothing." in t.log


def test_run_nothing_is_read_and_printed() -> None:
    ctx = context_for_1830("operating", ["Alice", "Bob"])
    for text in ("run nothing", "run none", "run no trains"):
        assert parse_command(text, ctx) == {"type": "run", "routes": []}
    assert format_action({"type": "run", "routes": []}) == "run nothing"
    assert format_action({"type": "run", "routes": None}) == "run"


SIDE_NAMES = ["SW", "W", "NW", "NE", "E", "SE"]


@given(st.lists(st.lists(st.sampled_from(SIDE_NAMES), min_size=2, max_size=2, unique=True),
                min_size=2, max_size=6))
def test_lay_with_track_prints_and_reads_back(paths: list[list[str]]) -> None:
    action = {"type": "lay", "tile": "25", "hex": "H14", "with": None, "paths": paths,
              "exits": list(dict.fromkeys(side for pair in paths for side in pair))}
    ctx = context_for_1830("operating", ["Alice", "Bob"])
    assert parse_command(format_action(action), ctx) == action
