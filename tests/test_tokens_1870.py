"""1870 stations and tokens: Place Station Markers (p.20), the destination marker
(Connection Run, p.23; Station Marker Wars, p.25), the cattle and port tokens (Private
Companies, p.9; the example of Operate Trains, p.21; removed in phase 5, Game Phases
p.5)."""

from __future__ import annotations

from or1870help import Table1870, give_trains, home, lay_track, operating, shortest_path, start

from pbem.engine import orrun
from pbem.engine.board.map import BoardState, place_token, remove_token
from pbem.engine.board.track import lay_tile
from pbem.engine.context import Ctx
from pbem.engine.game import legal_moves
from pbem.engine.state import corp_holder
from pbem.engine.titles.t1870 import tokens
from pbem.engine.trains import enter_phase


def tile(t: Table1870, coord: str, tile_id: str, rotation: int = 0) -> None:
    state = t.state
    state.board.tiles.pop(coord, None)
    lay_tile(state.map, state.board, coord, tile_id, rotation)


def dallas(phase: str = "3", **options: str) -> Table1870:
    """TP (A) at Dallas, track west to Fort Worth (FW's home; FW (B) started, not yet
    operated); TP operating."""
    t = Table1870(["A", "B", "C", "D"], phase=phase, **options)
    start(t, "TP", 100, {"A": 6}, cash=500)
    start(t, "FW", 90, {"B": 6}, cash=500)
    home(t, "TP")
    tile(t, "J3", "57", 1)
    tile(t, "J5", "57", 1)
    operating(t, "TP")
    return t


def run_ctx(t: Table1870) -> Ctx:
    return Ctx(t.state, "A")


# -- station markers ---------------------------------------------------------------------------


def test_p20_last_space_of_an_unstarted_companys_home_stays_free():
    t = dallas()
    assert "kept for FW's home station" in t.refused("A", "token", hex="J3", city=None)


def test_p20_no_stacking_in_a_full_city():
    t = dallas()
    home(t, "FW")
    t.state.corps["FW"].operated = True
    assert "no empty space" in t.refused("A", "token", hex="J3", city=None)


def test_p20_second_marker_costs_40_and_one_per_operating_round():
    t = dallas()
    tile(t, "J3", "15", 1)  # two spaces: one stays free for FW
    moves = [m for m in legal_moves(t.state)["A"] if m["action"]["type"] == "token"]
    assert [(m["action"]["hex"], m["price"]) for m in moves] == [("J3", 40)]
    t.act("A", "token", hex="J3", city=None)
    assert t.state.corps["TP"].cash == 460
    assert "one per operating round" in t.refused("A", "token", hex="K4", city=None)


def test_p20_a_company_has_only_its_charters_markers():
    t = dallas()
    tile(t, "J3", "15", 1)
    t.act("A", "token", hex="J3", city=None)
    operating(t, "TP")
    assert tokens.next_station_price(t.state, "TP") is None
    assert "no station markers left" in t.refused("A", "token", hex="J3", city=None)


def test_p20_charter_prices_free_40_100():
    t = Table1870(["A", "B", "C", "D"])
    assert tokens.station_prices(t.state, "ATSF") == [0, 40, 100]
    assert tokens.station_prices(t.state, "TP") == [0, 40]


def test_p23_a_kept_destination_marker_is_one_more_100_marker():
    t = dallas()
    t.state.corps["TP"].destination_marker = "kept"
    tile(t, "J3", "15", 1)
    place_token(t.state.map, t.state.board, "J3", 0, "TP")
    assert tokens.next_station_price(t.state, "TP") == 100


def test_p20_one_station_marker_per_tile():
    t = dallas()
    assert "one per tile" in t.refused("A", "token", hex="J5", city=None)


def test_p20_the_company_must_trace_a_route_to_the_city():
    t = dallas()
    tile(t, "D5", "57")
    assert "cannot trace a route" in t.refused("A", "token", hex="D5", city=None)


def test_p20_p21_a_station_on_the_southwest_off_board_space():
    """The Southwest off-board (N1) has one station space, the Southern Pacific's home:
    "a city is a large city, a small city, or an off board location" (Operate Trains,
    p.21), and a station goes where a company traces a route to a city with space for
    it (Place Station Markers, p.20).  Kept for SP until it has started; free once SP
    has closed, never to start (Share Values, p.7).  18xx.games: the same
    (differential 1870 seed 9110 of run 7: pbem said "There is no city on N1" and went
    on to FW's run, the site waited in its station step)."""
    t = dallas()
    lay_track(t, shortest_path(t, "J5", "N1"))
    assert "kept for SP's home station" in t.refused("A", "token", hex="N1", city=None)
    t.state.corps["SP"].closed = True
    moves = [m["action"]["hex"] for m in legal_moves(t.state)["A"]
             if m["action"]["type"] == "token"]
    assert "N1" in moves
    t.act("A", "token", hex="N1", city=None)
    assert ("N1", 0) in list(t.state.board.stations("TP"))


def test_p20_home_station_is_free():
    t = Table1870(["A", "B", "C", "D"])
    start(t, "TP", 100, {"A": 6}, cash=500)
    operating(t, "FW")
    from pbem.engine.ortrack import place_home

    ctx = run_ctx(t)
    place_home(ctx, "TP")
    assert list(t.state.board.stations("TP")) == [("J5", 0)]
    assert t.state.corps["TP"].cash == 500


# -- the destination marker --------------------------------------------------------------------


def fort_worth() -> Table1870:
    """FW (A) at Fort Worth with track to Denver (its destination) and a 4-train."""
    t = Table1870(["A", "B", "C", "D"], phase="3")
    start(t, "FW", 100, {"A": 6}, cash=500)
    home(t, "FW")
    give_trains(t, "FW", "4")
    lay_track(t, shortest_path(t, "J3", "A2"))
    operating(t, "FW")
    return t


def test_p23_destination_marker_at_the_edge_doubles_the_destination():
    t = fort_worth()
    before = orrun.best(t.state, "FW").total
    ctx = run_ctx(t)
    tokens.place_destination_marker(ctx, "FW", True)
    assert t.state.board.markers["destination:FW"] == {"hex": "A2", "stop": None}
    assert t.state.corps["FW"].destination_marker == "placed"
    assert t.state.board.tokens_at("A2", 0) == []  # no city space
    assert tokens.revenue_bonuses(t.state, "FW").end_bonus == {("A2", 0): 30}
    assert orrun.best(t.state, "FW").total > before
    assert [f.KIND for f in ctx.facts] == ["marker", "corp"]


def test_p23_destination_marker_kept_does_not_double():
    t = fort_worth()
    tokens.place_destination_marker(run_ctx(t), "FW", False)
    assert t.state.corps["FW"].destination_marker == "kept"
    assert "destination:FW" not in t.state.board.markers
    assert tokens.revenue_bonuses(t.state, "FW").end_bonus == {}


def test_p23_a_station_at_the_destination_makes_the_marker_a_100_marker():
    t = dallas()
    tile(t, "N17", "57")
    place_token(t.state.map, t.state.board, "N17", 0, "TP")
    tokens.place_destination_marker(run_ctx(t), "TP", True)
    assert t.state.corps["TP"].destination_marker == "kept"
    assert "destination:TP" not in t.state.board.markers


def test_p20_no_station_where_the_destination_marker_stands():
    t = dallas()
    tile(t, "N17", "57")
    tokens.place_destination_marker(run_ctx(t), "TP", True)
    assert "destination marker is on N17" in (tokens.station_problem(t.state, "TP", "N17", 0) or "")


def test_p25_station_wars_destination_marker_takes_a_city_space():
    t = dallas(station_wars="yes")
    tile(t, "N17", "57")
    tokens.place_destination_marker(run_ctx(t), "TP", True)
    assert t.state.board.tokens_at("N17", 0) == ["TP"]
    assert t.state.board.markers["destination:TP"] == {"hex": "N17", "stop": 0}
    assert tokens.stations_placed(t.state, "TP") == 1  # the home station only
    assert tokens.next_station_price(t.state, "TP") == 40
    assert tokens.revenue_bonuses(t.state, "TP").end_bonus == {("N17", 0): 20}


def test_p25_station_wars_marker_waits_at_the_edge_until_a_space_is_free():
    t = dallas(station_wars="yes")
    tile(t, "N17", "57")
    place_token(t.state.map, t.state.board, "N17", 0, "GMO")
    tokens.place_destination_marker(run_ctx(t), "TP", True)
    assert t.state.board.markers["destination:TP"]["stop"] is None
    remove_token(t.state.board, "N17", 0, "GMO")  # GMO closed
    tokens.settle_destination_markers(run_ctx(t))
    assert t.state.board.tokens_at("N17", 0) == ["TP"]
    assert t.state.board.markers["destination:TP"]["stop"] == 0


def test_p25_without_station_wars_the_marker_stays_at_the_edge():
    t = dallas()
    tile(t, "N17", "57")
    tokens.place_destination_marker(run_ctx(t), "TP", True)
    assert t.state.board.tokens_at("N17", 0) == []


# -- the cattle token --------------------------------------------------------------------------


def with_private(t: Table1870, sym: str, corp: str = "TP") -> Table1870:
    t.state.privates[sym].owner = corp_holder(corp)
    return t


def test_p21_cattle_token_adds_10_for_its_company_only():
    t = with_private(dallas(), "SCC")
    give_trains(t, "TP", "2")
    give_trains(t, "FW", "2")
    home(t, "FW")
    assert orrun.best(t.state, "TP").total == 40
    t.act("A", "cattle", hex="J5")
    assert t.state.board.markers["cattle"] == {"hex": "J5", "stop": 0, "corp": "TP"}
    assert t.state.privates["SCC"].used and not t.state.privates["SCC"].closed
    assert orrun.best(t.state, "TP").total == 50
    assert orrun.best(t.state, "FW").total == 40
    assert tokens.revenue_bonuses(t.state, "TP").values == {("J5", 0): 30}


def test_p9_cattle_token_once_placed_is_never_moved():
    t = with_private(dallas(), "SCC")
    t.act("A", "cattle", hex="J5")
    assert "never moved" in t.refused("A", "cattle", hex="J3")


def test_p9_only_the_owning_public_company_places_the_cattle_token():
    t = dallas()
    t.state.privates["SCC"].owner = "p:A"
    assert "does not own The Southern Cattle Company" in t.refused("A", "cattle", hex="J5")
    with_private(t, "SCC", "FW")
    assert "does not own" in t.refused("A", "cattle", hex="J5")


def test_p9_cattle_token_west_of_the_mississippi_not_in_a_river_hex():
    t = with_private(dallas(), "SCC")
    assert "may not go on C18" in t.refused("A", "cattle", hex="C18")
    assert "may not go on M20" in t.refused("A", "cattle", hex="M20")


def test_d7_cattle_on_a_small_city_by_the_rulebook_not_by_the_site():
    t = with_private(dallas(), "SCC")
    t.act("A", "cattle", hex="A10")
    assert t.state.board.markers["cattle"]["hex"] == "A10"
    site = with_private(dallas(token_cities="site"), "SCC")
    assert "may not go on A10" in site.refused("A", "cattle", hex="A10")


def test_p9_cattle_on_a_hex_with_two_towns_names_the_town():
    t = with_private(dallas(), "SCC")
    assert "say which" in t.refused("A", "cattle", hex="I10")
    t.act("A", "cattle", hex="I10", city=2)
    assert t.state.board.markers["cattle"]["stop"] == 1


# -- the port tokens ---------------------------------------------------------------------------


def galveston(**options: str) -> Table1870:
    t = with_private(dallas(**options), "GSC")
    tile(t, "N7", "57")
    return t


def test_p9_open_port_adds_20_for_its_company_and_10_for_the_others():
    t = galveston()
    t.act("A", "port", hex="N7")
    assert t.state.board.markers["port"]["open"] is True
    assert tokens.revenue_bonuses(t.state, "TP").values == {("N7", 0): 40}
    assert tokens.revenue_bonuses(t.state, "FW").values == {("N7", 0): 30}
    assert not t.state.privates["GSC"].closed


def test_p9_closed_port_adds_20_for_its_company_only_and_closes_the_gsc():
    t = galveston()
    t.act("A", "port", hex="N7", closed=True)
    assert t.state.board.markers["port"]["open"] is False
    assert t.state.privates["GSC"].closed
    assert tokens.revenue_bonuses(t.state, "TP").values == {("N7", 0): 40}
    assert tokens.revenue_bonuses(t.state, "FW").values == {}
    assert "has closed" in t.refused("A", "port", hex="N7")


def test_p9_open_port_replaced_by_the_closed_port_in_a_later_operating_round():
    t = galveston()
    t.act("A", "port", hex="N7")
    assert "later operating round" in t.refused("A", "port", hex=None, closed=True)
    t.state.round["index"] = 2
    t.act("A", "port", hex=None, closed=True)
    assert t.state.board.markers["port"]["hex"] == "N7"
    assert t.state.board.markers["port"]["open"] is False
    assert t.state.privates["GSC"].closed


def test_p9_port_token_never_moves():
    t = galveston()
    t.act("A", "port", hex="N7")
    t.state.round["index"] = 2
    assert "never moved" in t.refused("A", "port", hex="N17", closed=True)
    assert "never moved" in t.refused("A", "port", hex="N17")


def test_p9_port_only_on_the_gulf_or_the_river_from_memphis_south():
    t = galveston()
    assert "may not go on J5" in t.refused("A", "port", hex="J5")
    assert "may not go on M22" in t.refused("A", "port", hex="M22")  # Southeast, no


def test_p9_after_the_gsc_closes_in_phase_4_the_open_port_stays_open():
    t = galveston()
    t.act("A", "port", hex="N7")
    t.state.privates["GSC"].closed = True  # phase 4
    t.state.round["index"] = 2
    assert "has closed" in t.refused("A", "port", hex=None, closed=True)
    assert t.state.board.markers["port"]["open"] is True


def test_p5_port_and_cattle_tokens_leave_the_map_in_phase_5():
    t = with_private(galveston(phase="4"), "SCC")
    t.act("A", "port", hex="N7")
    t.act("A", "cattle", hex="J5")
    ctx = run_ctx(t)
    enter_phase(ctx, "5")
    assert t.state.board.markers == {}
    assert tokens.revenue_bonuses(t.state, "FW").values == {}


def test_p9_legal_moves_offer_cattle_and_port():
    t = with_private(galveston(), "SCC")
    moves = [m["action"] for m in legal_moves(t.state)["A"]]
    assert {"type": "cattle", "hex": "J5"} in moves
    assert {"type": "cattle", "hex": "I10", "city": 2} in moves
    assert {"type": "port", "hex": "N7"} in moves
    assert {"type": "port", "hex": "N7", "closed": True} in moves
    t.act("A", "port", hex="N7")
    t.state.round["index"] = 2
    moves = [m["action"] for m in legal_moves(t.state)["A"]]
    assert {"type": "port", "hex": "N7", "closed": True} in moves
    assert not [m for m in moves if m["type"] == "port" and not m.get("closed")]


def test_p9_tokens_keep_their_city_when_the_tile_is_upgraded():
    t = with_private(dallas(), "SCC")
    t.act("A", "cattle", hex="J5")
    t.act("A", "lay", tile="14", hex="J5", exits=["W", "NW", "E", "SE"])
    assert t.state.board.markers["cattle"] == {"hex": "J5", "stop": 0, "corp": "TP"}


# -- the board state ---------------------------------------------------------------------------


def test_markers_are_part_of_the_board_state():
    board = BoardState()
    board.markers["cattle"] = {"hex": "J5", "stop": 0, "corp": "TP"}
    again = BoardState.from_dict(board.to_dict())
    assert again.markers == board.markers
    t = galveston()
    t.act("A", "port", hex="N7")
    copy = t.state.clone()
    copy.board.markers["port"]["open"] = False
    assert t.state.board.markers["port"]["open"] is True
    assert t.state.board.markers_at("N7") == {"port": t.state.board.markers["port"]}
