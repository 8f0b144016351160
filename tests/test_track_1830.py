"""Track and stations in an operating turn, 1830 rules 6.1-6.3 and the privates."""

from __future__ import annotations

from enginehelp import first_operating_round

from pbem.engine.state import corp_holder


def test_6_3_1_home_station_at_the_start_of_the_first_turn() -> None:
    t = first_operating_round()
    assert t.state.round["current"] == "PRR"
    assert t.state.board.tokens["H12"] == [["PRR"]]


def test_6_2_rotation_inferred_when_unique() -> None:
    t = first_operating_round()
    t.act("A", "lay", tile="57", hex="H10", exits=None)
    assert t.state.board.tiles["H10"] == ("57", 1)
    assert t.state.board.tiles_left["57"] == 3


def test_6_2_several_rotations_are_listed() -> None:
    t = first_operating_round()
    message = t.refused("A", "lay", tile="8", hex="H14", exits=None)
    assert "lay 8 H14 W-NE" in message and "lay 8 H14 W-SE" in message


def test_6_2_exits_choose_the_rotation() -> None:
    t = first_operating_round()
    t.act("A", "lay", tile="8", hex="H14", exits=["W", "SE"])
    tile = t.state.map.tiles["8"]
    _, rotation = t.state.board.tiles["H14"]
    assert tile.exits(rotation) == frozenset({1, 5})


def test_6_2_1_new_track_must_connect_to_a_station() -> None:
    t = first_operating_round()
    message = t.refused("A", "lay", tile="9", hex="E13", exits=None)
    assert "route" in message or "no direction" in message


def test_6_2_one_tile_per_turn() -> None:
    t = first_operating_round()
    t.act("A", "lay", tile="57", hex="H10", exits=None)
    assert "already laid a tile" in t.refused("A", "lay", tile="9", hex="H14", exits=["W", "E"])


def test_6_2_only_yellow_in_phase_2() -> None:
    t = first_operating_round()
    assert "Green tiles may not be laid yet" in t.refused("A", "lay", tile="14", hex="H10",
                                                         exits=None)


def test_6_2_terrain_cost_paid_on_first_tile() -> None:
    t = first_operating_round()
    t.act("A", "lay", tile="8", hex="H14", exits=["W", "NE"])
    t.act("A", "pass")  # PRR has no trains and no route worth anything: may end
    cash = t.state.corps["C&O"].cash
    assert cash == 670  # C&O operates next
    # PRR's next turn: G15 (SV, mountain) is blocked while A owns SV
    assert t.state.round["current"] == "C&O"


def test_6_2_1_no_tile_on_a_players_private_hex() -> None:
    t = first_operating_round()
    message = t.refused("A", "lay", tile="7", hex="I13", exits=None)
    assert "while a player owns BO" in message


def test_6_3_station_costs_and_reach() -> None:
    t = first_operating_round()
    t.act("A", "lay", tile="57", hex="H10", exits=None)
    t.act("A", "token", hex="H10", city=None)
    assert t.state.corps["PRR"].cash == 670 - 40
    assert t.state.board.tokens["H10"] == [["PRR"]]
    assert "already placed a station" in t.refused("A", "token", hex="H12", city=None)


def test_6_3_2_no_station_without_a_route() -> None:
    t = first_operating_round()
    message = t.refused("A", "token", hex="E19", city=None)
    assert "route" in message or "kept for NYC" in message


def test_6_3_2_home_of_a_corporation_that_has_not_operated_is_kept() -> None:
    from pbem.engine.ortrack import token_problem

    t = first_operating_round()
    assert "kept for NYC" in (token_problem(t.state, "PRR", "E19", 0) or "")
    assert "kept for ERIE" in (token_problem(t.state, "PRR", "E11", 1) or "")
    assert "kept for NYNH" in (token_problem(t.state, "PRR", "G19", 0) or "")
    assert token_problem(t.state, "PRR", "G19", 1) is None


def test_6_3_2_the_kept_home_city_is_the_one_its_track_joins_after_an_upgrade() -> None:
    """NYNH's home is the printed G19 city on side 3 (the site's ``city: 0``); a 54 laid at
    rotation 0 joins sides 2-3 to its second city: that one is kept for NYNH, and NYNH's
    home station goes there (the site refused the station pbem offered NYC in the other
    reading: differential testing, 1830 seed 3002)."""
    from pbem.engine.context import Ctx
    from pbem.engine.facts import TileLaid
    from pbem.engine.ortrack import home_stop, place_home, token_problem

    t = first_operating_round()
    TileLaid.on(t.state, "G19", "54", 0).apply(t.state)
    assert home_stop(t.state, "NYNH") == 1
    assert "kept for NYNH" in (token_problem(t.state, "PRR", "G19", 1) or "")
    assert token_problem(t.state, "PRR", "G19", 0) is None
    ctx = Ctx(t.state, "A")
    place_home(ctx, "NYNH")
    assert [f.to_json() for f in ctx.facts][0]["stop"] == 1


def test_6_3_2_a_station_goes_into_the_only_city_of_the_hex_the_route_reaches() -> None:
    """6.3.2: a station needs a route from one of the railroad's stations.  On Philadelphia
    & Trenton (a 59: two free cities) PRR's track reaches only the second city, so
    `token H18` can mean only that one (differential run 6, 1830 seed 7080: the site took
    `token D10` there, pbem asked which city).  Where both could take it, pbem asks."""
    import pytest

    from pbem.engine.errors import RulesError
    from pbem.engine.facts import TileLaid
    from pbem.engine.ortrack import city_for

    t = first_operating_round()
    for coord, tile, rotation in [("H14", "9", 1), ("H16", "57", 1), ("H18", "59", 5)]:
        TileLaid.on(t.state, coord, tile, rotation).apply(t.state)
    both = t.state.clone()
    assert "cannot trace a route" in t.refused("A", "token", hex="H18", city=1)
    t.act("A", "token", hex="H18", city=None)
    assert t.state.board.tokens["H18"] == [[], ["PRR"]]
    with pytest.raises(RulesError, match="H18 has 2 cities: say which"):
        city_for(both, "H18", None, lambda city: True)


def test_6_1_order_track_before_station() -> None:
    t = first_operating_round()
    t.act("A", "lay", tile="57", hex="H10", exits=None)
    t.act("A", "token", hex="H10", city=None)
    assert "gone past" in t.refused("A", "lay", tile="9", hex="H14", exits=["W", "E"])


def test_cs_extra_tile_on_b20_without_connection() -> None:
    t = first_operating_round()
    t.state.privates["CS"].owner = corp_holder("PRR")  # as if PRR had bought it
    t.act("A", "lay", tile="57", hex="H10", exits=None)
    t.act("A", "lay", tile="4", hex="B20", exits=["W", "E"], **{"with": "CS"})
    assert t.state.board.tiles["B20"][0] == "4"
    assert "used already" in t.refused("A", "lay", tile="3", hex="B20", exits=None,
                                       **{"with": "CS"})


def test_dh_tile_and_free_station_on_f16() -> None:
    t = first_operating_round()
    t.state.privates["DH"].owner = corp_holder("PRR")
    t.act("A", "lay", tile="57", hex="F16", exits=["SW", "NE"], **{"with": "DH"})
    assert t.state.corps["PRR"].cash == 670 - 120
    t.act("A", "token", hex="F16", city=None, **{"with": "DH"})
    assert t.state.board.tokens["F16"] == [["PRR"]]
    assert t.state.corps["PRR"].cash == 550  # the station was free


def upgrade_beyond_a_junction(style: str):  # type: ignore[no-untyped-def]
    """PRR (H12) reaches tile 9 on H14 (W-E); tile 23 turned W-NW-E adds track NW from
    the E side, which a PRR route could only take by reversing at that junction."""
    t = first_operating_round(tile_lay=style)
    t.state.board.tiles["H14"] = ("9", 1)
    t.state.board.tiles_left["9"] -= 1
    t.state.phase = "3"
    return t


def test_c_1_4_open_style_upgrade_needs_only_reached_track() -> None:
    t = upgrade_beyond_a_junction("open")
    t.act("A", "lay", tile="23", hex="H14", exits=["W", "NW", "E"])
    assert t.state.board.tiles["H14"][0] == "23"


def test_v_7_7_restrictive_style_new_track_must_extend_a_route() -> None:
    t = upgrade_beyond_a_junction("restrictive")
    message = t.refused("A", "lay", tile="23", hex="H14", exits=["W", "NW", "E"])
    assert "H14" in message
    t.act("A", "lay", tile="23", hex="H14", exits=["W", "E", "SE"])  # branch at W: extends
