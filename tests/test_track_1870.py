"""1870 track: Lay or Upgrade Track (p.19), the Mississippi River Bridge Company (p.9),
the Tile Manifest (p.30) and the options upgrades / gray_tiles / tile_lay."""

from __future__ import annotations

from or1870help import Table1870, home, operating, start

from pbem.engine.board.track import lay_tile
from pbem.engine.game import legal_moves
from pbem.engine.maps import rules_map
from pbem.engine.titles.t1870 import track as track1870

# Dallas J5 (TP's home): SW K4 (town), W J3 Fort Worth, NW I4, NE I6, E J7, SE K6.


def dallas(phase: str = "2", cash: int = 500, **options: str) -> Table1870:
    """TP (president A) at its home Dallas, operating; FW (B) floated, not yet operated."""
    t = Table1870(["A", "B", "C", "D"], phase=phase, **options)
    start(t, "TP", 100, {"A": 6}, cash=cash)
    start(t, "FW", 90, {"B": 6}, cash=cash)
    home(t, "TP")
    operating(t, "TP")
    return t


def tile(t: Table1870, coord: str, tile_id: str, rotation: int = 0) -> None:
    """Set-up: a tile on the board without the rules."""
    state = t.state
    state.board.tiles.pop(coord, None)
    lay_tile(state.map, state.board, coord, tile_id, rotation)


def on(t: Table1870, coord: str) -> str | None:
    laid = t.state.board.tiles.get(coord)
    return laid[0] if laid else None


# -- two yellow tiles or one upgrade -----------------------------------------------------------


def test_p19_two_yellow_tiles_or_one_upgrade():
    t = dallas()
    t.act("A", "lay", tile="57", hex="J5", exits=["SW", "NE"])
    t.act("A", "lay", tile="9", hex="I6", exits=["SW", "NE"])
    assert on(t, "J5") == "57" and on(t, "I6") == "9"
    assert "two yellow tiles" in t.refused("A", "lay", tile="8", hex="K6", exits=None)
    assert t.state.round["turn"]["laid"] is True


def test_p19_an_upgrade_is_the_only_lay_of_the_turn():
    t = dallas()
    tile(t, "J5", "57")
    t.act("A", "lay", tile="15", hex="J5", exits=["SW", "W", "NW", "NE"])
    assert on(t, "J5") == "15"
    assert "upgraded a tile" in t.refused("A", "lay", tile="9", hex="I6", exits=["SW", "NE"])


def test_p19_no_upgrade_after_a_yellow_tile():
    t = dallas()
    tile(t, "J5", "57")
    t.act("A", "lay", tile="9", hex="I6", exits=["SW", "NE"])
    message = t.refused("A", "lay", tile="15", hex="J5", exits=["SW", "W", "NW", "NE"])
    assert "laid a yellow tile" in message and "two yellow tiles or upgrades one" in message


def test_p19_legal_moves_offer_the_second_yellow_tile_but_no_upgrade():
    t = dallas()
    tile(t, "J5", "57")
    t.act("A", "lay", tile="9", hex="I6", exits=["SW", "NE"])
    lays = [m["action"] for m in legal_moves(t.state)["A"] if m["action"]["type"] == "lay"]
    assert lays and all(t.state.map.tiles[a["tile"]].colour == "yellow" for a in lays)


# -- the closed rule (option tile_lay) ---------------------------------------------------------


def crossing(**options: str) -> Table1870:
    """TP reaches I6's straight track (SW-NE) from Dallas; tile 19 adds NW-E, which no
    route of TP reaches."""
    t = dallas("3", 500, **options)
    tile(t, "J5", "57")
    tile(t, "I6", "9")
    return t


def test_p19_new_track_must_extend_a_route_of_the_company():
    t = crossing()
    message = t.refused("A", "lay", tile="19", hex="I6", exits=["SW", "NW", "NE", "E"])
    assert "TP may lay tile 19 on I6 only if it can trace a route" in message


def test_p19_open_tile_lay_option_accepts_track_the_company_only_touches():
    t = crossing(tile_lay="open")
    t.act("A", "lay", tile="19", hex="I6", exits=["SW", "NW", "NE", "E"])
    assert on(t, "I6") == "19"


def test_p19_an_upgrade_of_a_city_the_company_reaches():
    t = dallas(phase="3")
    tile(t, "J3", "57", 1)  # Fort Worth W-E
    tile(t, "J5", "57", 1)  # Dallas W-E: TP reaches Fort Worth
    t.act("A", "lay", tile="15", hex="J3", exits=["W", "NW", "NE", "E"])
    assert on(t, "J3") == "15"


# -- brown and gray tiles on the P, K and L hexes ----------------------------------------------


def test_p30_brown_170_only_on_p_hexes():
    t = dallas(phase="4")
    tile(t, "D5", "15")  # Wichita, no P
    assert "labelled P" in (track1870.problem(t.state, "D5", "170") or "")
    assert track1870.problem(t.state, "D5", "63") is None


def test_p30_rulebook_allows_63_on_a_p_hex():
    t = dallas(phase="4")
    tile(t, "J5", "15", 1)
    t.act("A", "lay", tile="63", hex="J5")
    assert on(t, "J5") == "63"


def test_p30_upgrades_site_option_allows_only_170_on_a_p_hex():
    t = dallas(phase="4", upgrades="site")
    tile(t, "J5", "15", 1)
    assert "labelled P" in t.refused("A", "lay", tile="63", hex="J5", exits=None)
    assert track1870.problem(t.state, "J5", "170") is None


def test_p30_rulebook_upgrade_table_has_no_28_to_43():
    t = dallas(phase="4")
    tile(t, "I6", "28")
    assert "may be upgraded only to 39, 46, 70" in (track1870.problem(t.state, "I6", "43") or "")
    site = dallas(phase="4", upgrades="site")
    tile(site, "I6", "28")
    assert track1870.problem(site.state, "I6", "43") is None


def test_p30_gray_171_only_on_kansas_city_and_172_only_on_st_louis():
    t = dallas(phase="5")
    tile(t, "B11", "170")
    tile(t, "C18", "170")
    assert track1870.problem(t.state, "B11", "171") is None
    assert "labelled K" in (track1870.problem(t.state, "B11", "172") or "")
    assert track1870.problem(t.state, "C18", "172") is None
    assert "labelled L" in (track1870.problem(t.state, "C18", "171") or "")


def test_p30_gray_tiles_station_spaces_by_option():
    rulebook = rules_map("1870", dallas(phase="5").state.rules).tiles
    assert (rulebook["171"].stops[0].slots, rulebook["172"].stops[0].slots) == (2, 3)
    site = rules_map("1870", dallas(phase="5", gray_tiles="site").state.rules).tiles
    assert (site["171"].stops[0].slots, site["172"].stops[0].slots) == (3, 2)


def test_p19_gray_tiles_only_from_phase_5():
    t = dallas(phase="4")
    tile(t, "B11", "170")
    assert "Gray tiles may not be laid yet" in (track1870.problem(t.state, "B11", "171") or "")


# -- terrain -----------------------------------------------------------------------------------


def kansas_city(phase: str = "2") -> Table1870:
    t = Table1870(["A", "B", "C", "D"], phase=phase)
    start(t, "MKT", 100, {"A": 6}, cash=500)
    home(t, "MKT")
    operating(t, "MKT")
    return t


def test_p19_terrain_is_paid_for_the_first_tile_of_a_hex_only():
    t = kansas_city()
    t.act("A", "lay", tile="57", hex="B11", exits=["W", "E"])
    assert t.state.corps["MKT"].cash == 460  # $40 water
    operating(t, "MKT")
    t.act("A", "lay", tile="15", hex="B11", exits=["W", "NW", "NE", "E"])
    assert t.state.corps["MKT"].cash == 460


def test_p19_terrain_cost_must_be_affordable():
    t = kansas_city()
    t.state.corps["MKT"].cash = 30
    assert "costs $40 for the terrain" in t.refused("A", "lay", tile="57", hex="B11",
                                                    exits=["W", "E"])


# -- the Mississippi River Bridge Company ----------------------------------------------------


def st_louis(phase: str = "1", mrbc: str = "p:B") -> Table1870:
    """MP (A) at its home St. Louis, in its first operating round; the MRBC owned by
    ``mrbc``."""
    t = Table1870(["A", "B", "C", "D"], phase=phase)
    start(t, "MP", 100, {"A": 6}, cash=500)
    start(t, "SSW", 90, {"C": 6}, cash=500)
    home(t, "MP")
    home(t, "SSW")
    t.state.privates["MRBC"].owner = mrbc
    operating(t, "MP")
    return t


def test_p9_while_a_player_owns_the_mrbc_st_louis_takes_only_tile_5_west_and_southwest():
    t = st_louis()
    assert "cross the Mississippi" in t.refused("A", "lay", tile="57", hex="C18",
                                                exits=["SW", "NE"])
    assert "cross the Mississippi" in t.refused("A", "lay", tile="5", hex="C18",
                                                exits=["NW", "NE"])
    assert track1870.placements(t.state, "C18", "6") == []
    t.act("A", "lay", tile="5", hex="C18", exits=["SW", "W"])
    assert t.state.board.tiles["C18"] == ("5", 0)


def test_p9_memphis_track_only_northeast_east_southeast_southwest():
    t = st_louis()
    operating(t, "SSW")
    assert "cross the Mississippi" in t.refused("C", "lay", tile="57", hex="H17",
                                                exits=["W", "E"])
    t.act("C", "lay", tile="57", hex="H17", exits=["SW", "NE"])
    assert on(t, "H17") == "57"


def test_p9_no_track_across_the_river_in_a_river_hex():
    t = st_louis()
    operating(t, "SSW")
    tile(t, "H17", "57", 0)  # SW-NE: SSW reaches G18 from the southwest
    assert "cross the Mississippi" in t.refused("C", "lay", tile="8", hex="G18",
                                                exits=["SW", "NW"])
    t.act("C", "lay", tile="9", hex="G18", exits=["SW", "NE"])  # along the east bank


def test_p9_the_river_opens_when_a_public_company_owns_the_mrbc():
    t = st_louis(mrbc="c:SSW")
    t.act("A", "lay", tile="57", hex="C18", exits=["SW", "NE"])
    assert on(t, "C18") == "57"


def test_p9_the_river_opens_when_the_mrbc_closes():
    t = st_louis()
    t.state.privates["MRBC"].closed = True
    assert not track1870.river_closed(t.state)


def test_p9_mrbc_gives_its_company_40_off_on_one_river_hex_it_chooses():
    """p.9: "The public company that purchases the MRBC may build in one of the hexes
    along the Mississippi River for a $40 discount": its president chooses the hex (lay
    ... with MRBC); a lay without it pays the terrain (found by differential testing: the
    site charged $40 where pbem had used the discount by itself)."""
    t = st_louis(phase="2", mrbc="c:MP")
    t.state.corps["MP"].operated = True
    t.act("A", "lay", tile="57", hex="C18", exits=["NW", "SE"])  # $40 river, paid
    assert t.state.corps["MP"].cash == 460 and not t.state.privates["MRBC"].used
    t.act("A", "lay", tile="9", hex="B17", exits=["SE", "NW"], **{"with": "MRBC"})
    assert t.state.corps["MP"].cash == 460  # $40 - $40
    assert t.state.privates["MRBC"].used
    assert any("$40 off" in line for line in t.log)


def test_p19_mrbc_bought_in_phase_1_only_by_mp_or_ssw_for_20_to_40():
    t = st_louis(mrbc="p:A")
    assert "$20 to $40" in t.refused("A", "buy_private", private="MRBC", price=60,
                                     **{"from": "A"})
    t.act("A", "buy_private", private="MRBC", price=30, **{"from": "A"})
    assert t.state.privates["MRBC"].owner == "c:MP"
    other = Table1870(["A", "B", "C", "D"], phase="1")
    start(other, "FW", 100, {"A": 6}, cash=500)
    home(other, "FW")
    other.state.privates["MRBC"].owner = "p:A"
    operating(other, "FW")
    assert "phases 2 and 3" in other.refused("A", "buy_private", private="MRBC", price=30,
                                             **{"from": "A"})


def test_p19_from_phase_2_any_company_buys_the_mrbc_for_half_to_double():
    t = Table1870(["A", "B", "C", "D"], phase="2")
    start(t, "FW", 100, {"A": 6}, cash=500)
    home(t, "FW")
    t.state.privates["MRBC"].owner = "p:A"
    operating(t, "FW")
    t.act("A", "buy_private", private="MRBC", price=80, **{"from": "A"})
    assert t.state.privates["MRBC"].owner == "c:FW"


def test_p9_mrbc_bought_in_the_first_operating_round_gives_a_free_extra_home_lay():
    t = st_louis(mrbc="p:A")
    t.act("A", "buy_private", private="MRBC", price=40, **{"from": "A"})
    assert t.state.round["turn"]["home_lay"] == "available"
    t.act("A", "lay", tile="57", hex="C18", exits=["NW", "SE"],  # free; the river is open
          **{"with": "MRBC"})
    assert t.state.corps["MP"].cash == 460  # only the $40 price of the MRBC
    assert not t.state.privates["MRBC"].used  # the discount is still there
    t.act("A", "lay", tile="9", hex="D19", exits=["NW", "SE"])
    t.act("A", "lay", tile="9", hex="B17", exits=["SE", "NW"],  # $40 river, $40 off
          **{"with": "MRBC"})
    assert on(t, "D19") == "9" and on(t, "B17") == "9"
    assert t.state.corps["MP"].cash == 460 and t.state.privates["MRBC"].used
    assert t.state.round["turn"]["laid"] is True


def test_p9_option_mrbc_uses_one_as_on_18xx_games():
    """Option mrbc_uses=one (18xx.games: the free home lay and the river discount are one
    ability, used once)."""
    t = st_louis(mrbc="p:A")
    t.state.options["mrbc_uses"] = "one"
    t.act("A", "buy_private", private="MRBC", price=40, **{"from": "A"})
    t.act("A", "lay", tile="57", hex="C18", exits=["NW", "SE"], **{"with": "MRBC"})
    assert t.state.privates["MRBC"].used  # no discount left
    t.act("A", "lay", tile="9", hex="D19", exits=["NW", "SE"])
    assert "neither is left" in t.refused("A", "lay", tile="9", hex="B17", exits=["SE", "NW"],
                                          **{"with": "MRBC"})


def test_p9_the_home_tile_is_not_upgraded_in_the_same_round():
    t = st_louis(phase="2", mrbc="p:A")
    t.act("A", "buy_private", private="MRBC", price=40, **{"from": "A"})
    t.act("A", "lay", tile="57", hex="C18", exits=["SW", "NE"], **{"with": "MRBC"})
    message = t.refused("A", "lay", tile="15", hex="C18", exits=None)
    assert "may not upgrade it in the same operating round" in message


def test_p9_no_home_lay_when_bought_after_the_first_operating_round():
    t = st_louis(mrbc="p:A")
    t.state.corps["MP"].operated = True
    t.act("A", "buy_private", private="MRBC", price=40, **{"from": "A"})
    assert t.state.round["turn"].get("home_lay") is None
