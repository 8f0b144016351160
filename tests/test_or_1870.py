"""1870 operating round, the money side: dividends (Declare Dividends, p.21), revenue
(Operate Trains, p.21), connection runs (Connection Run, p.22-23) and private companies
bought by public companies (Purchasing Private Companies, p.19)."""

from __future__ import annotations

import pytest
from or1870help import (
    Table1870,
    give_trains,
    home,
    lay_track,
    operating,
    ran,
    shortest_path,
    start,
)

from pbem.engine import orrun
from pbem.engine.board.search import RevenueRules, best_run
from pbem.engine.game import legal_moves
from pbem.engine.state import corp_holder, player_holder
from pbem.engine.titles.t1870 import connection


def sp_table(**options: str) -> Table1870:
    """SP (A president 60%, B 10%; 10% in the open market, 10% redeemed in its
    treasury, 10% in the initial offering) at $100, $50 in the treasury."""
    t = Table1870(["A", "B", "C", "D"], **options)
    start(t, "SP", 100, {"A": 6, "B": 1}, cash=50, pool=1, treasury=1)
    home(t, "SP")
    return t


# -- Declare Dividends, p.21 ---------------------------------------------------------------------


def test_p21_full_dividend_pays_initial_offering_and_treasury_shares_to_the_company():
    t = sp_table()
    ran(t, "SP", 160)
    bank, a, b = t.state.bank, t.cash("A"), t.cash("B")
    t.act("A", "payout")
    assert t.cash("A") - a == 96 and t.cash("B") - b == 16
    assert t.state.corps["SP"].cash == 50 + 2 * 16  # the initial offering and its own share
    assert bank - t.state.bank == 96 + 16 + 32  # the open-market share pays the bank
    assert t.state.price("SP") == 110  # one column right


def test_p21_half_dividend_company_keeps_half_rounded_up_to_10():
    t = sp_table()
    ran(t, "SP", 150)
    a = t.cash("A")
    t.act("A", "half")
    assert t.cash("A") - a == 6 * 7  # 10% of the other $70 per share
    assert t.state.corps["SP"].cash == 50 + 80 + 2 * 7
    assert t.state.price("SP") == 100  # the token does not move


def test_d3_half_dividend_rounded_down_option():
    t = sp_table(half_dividend="round-down")
    ran(t, "SP", 150)
    a = t.cash("A")
    t.act("A", "half")
    assert t.cash("A") - a == 6 * 8
    assert t.state.corps["SP"].cash == 50 + 70 + 2 * 8


def test_p21_withholding_moves_the_token_left():
    t = sp_table()
    ran(t, "SP", 120)
    t.act("A", "withhold")
    assert t.state.corps["SP"].cash == 170
    assert t.state.price("SP") == 90


def test_p21_a_zero_dividend_is_a_withholding():
    t = sp_table()
    operating(t, "SP")
    t.act("A", "run")  # no trains: runs nothing
    assert t.state.price("SP") == 90
    assert t.state.round["turn"]["dividend"] == "withhold"


def test_p21_half_is_offered_with_payout_and_withhold():
    t = sp_table()
    give_trains(t, "SP", "3")
    lay_track(t, ["N1", "M2", "M4", "M6"])
    operating(t, "SP", step="run")
    kinds = {m["action"]["type"] for m in legal_moves(t.state)["A"]}
    assert {"payout", "withhold", "half"} <= kinds


def test_1830_still_has_no_half_dividend():
    from enginehelp import first_operating_round

    t = first_operating_round()
    corp = t.state.round["current"]
    t.state.round["turn"].update(step="dividend", run={"revenue": 50, "routes": []})
    president = t.state.president(corp)
    assert president is not None
    assert "no half dividend" in t.refused(president, "half")


# -- Operate Trains, p.21: the Southern Pacific example -------------------------------------------


def southern_pacific() -> Table1870:
    """Phase 3: SP with a 3-train and a 4-train; Dallas and Austin $30 (green), a small
    city between them, Houston $20, Southwest $20."""
    t = Table1870(["A", "B", "C", "D"], phase="3")
    start(t, "SP", 100, {"A": 6}, cash=50)
    home(t, "SP")
    give_trains(t, "SP", "3", "4")
    lay_track(t, ["J5", "K4", "L3", "M2", "N1"], ["N1", "N3", "M2", "M4", "M6"],
              values={"J5": 30, "M2": 30, "M6": 20})
    return t


def test_p21_southern_pacific_revenue_example_is_160():
    t = southern_pacific()
    run = orrun.best(t.state, "SP")
    assert run.total == 160
    assert sorted(r.revenue for r in run.routes) == [70, 90]


def test_p21_southern_pacific_with_the_cattle_token_on_austin_is_180():
    t = southern_pacific()
    state = t.state
    cattle = RevenueRules(values={("M2", 0): 40})  # Austin $30 + $10 for the owner
    run = best_run(state.map, state.board, "SP", [("3", 3), ("4", 4)], 0, cattle)
    assert run.total == 180


@pytest.mark.parametrize(("phase", "southwest"), [("1", 20), ("3", 20), ("4", 40), ("5", 40),
                                                 ("6", 50), ("8", 50)])
def test_p4_off_board_values_by_phase(phase, southwest):
    t = Table1870(["A", "B", "C", "D"], phase=phase)
    start(t, "SP", 100, {"A": 6})
    home(t, "SP")
    give_trains(t, "SP", "2")
    lay_track(t, ["N1", "M2"])
    assert orrun.best(t.state, "SP").total == southwest + 20  # Austin, yellow


# -- Connection Run, p.22-23 ---------------------------------------------------------------------


def fort_worth(train: str = "4", dallas: bool = False, **options: str) -> Table1870:
    """FW (A) at Fort Worth with track to Denver, its destination; TP (B) floated."""
    t = Table1870(["A", "B", "C", "D"], phase="3", **options)
    start(t, "FW", 100, {"A": 6}, cash=500)
    start(t, "TP", 90, {"B": 6}, cash=300)
    home(t, "FW")
    home(t, "TP")
    give_trains(t, "FW", train)
    paths = [shortest_path(t, "J3", "A2")] + ([["J3", "J5"]] if dallas else [])
    lay_track(t, *paths, values={"J5": 20} if dallas else None)
    return t


def fw_turn_done(t: Table1870) -> None:
    """FW ran (on a fresh route search) and ends its turn."""
    operating(t, "FW", step="trains", run={"revenue": 50, "routes": []}, dividend="withhold")
    t.act("A", "pass")


def test_p23_eligibility_is_checked_after_the_turn():
    t = fort_worth()
    fw_turn_done(t)
    conn = t.state.round["connection"]
    assert conn["corp"] == "FW" and conn["step"] == "marker"
    moves = legal_moves(t.state)
    assert moves == {"A": [{"action": {"type": "destination", "marker": "place"}},
                           {"action": {"type": "destination", "marker": "keep"}}]}


def test_p23_placed_marker_doubles_the_destination_and_a_full_dividend_moves_right():
    t = fort_worth()
    fw_turn_done(t)
    price = t.state.price("FW")
    t.act("A", "destination", marker="place")
    assert t.state.corps["FW"].destination_marker == "placed"
    t.act("A", "run")
    assert t.state.round["connection"]["run"]["revenue"] == 20 + 30 + 30  # Denver doubled
    t.act("A", "payout")
    assert (t.state.price("FW") or 0) > (price or 0)
    assert t.state.corps["FW"].destination_reached
    assert not t.state.round.get("connection")
    assert t.state.round["current"] == "TP"  # the round goes on


def test_p23_withheld_connection_run_does_not_move_the_token():
    t = fort_worth()
    fw_turn_done(t)
    price, cash = t.state.price("FW"), t.state.corps["FW"].cash
    t.act("A", "destination", marker="keep")
    t.act("A", "withhold")  # runs first
    assert t.state.corps["FW"].cash == cash + 50  # kept: Denver is not doubled
    assert t.state.price("FW") == price
    assert t.state.corps["FW"].destination_marker == "kept"


def test_p23_no_half_dividend_on_a_connection_run():
    t = fort_worth()
    fw_turn_done(t)
    t.act("A", "destination", marker="place")
    t.act("A", "run")
    assert "never as a half dividend" in t.refused("A", "half")


def test_p23_the_marker_is_decided_before_running():
    t = fort_worth()
    fw_turn_done(t)
    assert "destination place" in t.refused("A", "run")
    assert "FW is making its connection run" in t.refused("B", "run")


def test_p23_a_company_does_only_one_connection_run():
    t = fort_worth()
    fw_turn_done(t)
    t.act("A", "destination", marker="place")
    t.act("A", "payout")
    t.state.round["current"] = None
    fw_turn_done(t)
    assert not t.state.round.get("connection")


def test_p23_one_train_runs_home_to_destination_and_no_further():
    t = fort_worth(train="8", dallas=True)  # Dallas beside Fort Worth
    state = t.state
    run = connection.connection_run(state, "FW")
    ends = {run.routes[0].stops[0][0], run.routes[0].stops[-1][0]}
    assert ends == {"J3", "A2"}  # not on to Dallas
    plain = orrun.best(state, "FW")
    assert plain.total > run.total  # a normal run would take Dallas too


def test_p23_written_routes_must_include_the_connection():
    t = fort_worth(train="8", dallas=True)
    fw_turn_done(t)
    t.act("A", "destination", marker="keep")
    refused = t.refused("A", "run", routes=[{"train": "8", "stops": ["J3", "J5"]}])
    assert "from FW's home" in refused


@pytest.mark.parametrize("best_run", ["required", "free"])
def test_p23_written_connection_runs_refused_alike_when_no_best_run_is_compared(
        best_run: str) -> None:
    """With best_run=free the written connection run is not compared with the best one,
    which is then searched only to word a refusal: a run that misses the destination is
    refused for that, and where no train can connect any more, for that, as with the
    best run required; a legal one is taken."""
    t = fort_worth(train="8", dallas=True, best_run=best_run)
    fw_turn_done(t)
    t.act("A", "destination", marker="keep")
    refused = t.refused("A", "run", routes=[{"train": "8", "stops": ["J3", "J5"]}])
    assert "from FW's home" in refused
    path = connection.connection_run(t.state, "FW").routes[0].stops
    written = [{"train": "8", "stops": [c for c, _ in path]}]
    broken = t.state.board.tiles.pop(next(c for c in shortest_path(t, "J3", "A2")[1:-1]
                                          if c in t.state.board.tiles))
    assert "can no longer run from home to its destination" in t.refused("A", "run",
                                                                         routes=written)
    t.state.board.tiles[next(c for c in shortest_path(t, "J3", "A2")[1:-1]
                             if c not in t.state.board.tiles)] = broken
    t.act("A", "run", routes=written)
    assert t.state.round["connection"]["run"]["revenue"] == 50


def test_p23_station_at_the_destination_becomes_a_100_marker():
    t = fort_worth()
    from pbem.engine.board.map import place_token

    place_token(t.state.map, t.state.board, "A2", 0, "FW")
    fw_turn_done(t)
    assert t.state.round["connection"]["step"] == "run"
    assert t.state.corps["FW"].destination_marker == "kept"


def test_p23_option_connection_after_closing_later_waits_for_the_next_turn():
    """Connection Run, p.23: "Eligibility is checked for every company after each
    company completes its turn"; "If the connection is not noticed when it is first
    made, the run is made when it is noticed".  TP withholds at $10 and closes (p.7);
    FW can connect.  By default its connection run follows TP's turn; with
    connection_after_closing=later (18xx.games: closing ends TP's turn without its
    CheckConnection step) FW operates first, and its eligibility is checked after its
    turn (differential 1870 seeds 9248, 9344)."""
    for option, connects in (("at-once", True), ("later", False)):
        t = fort_worth(connection_after_closing=option)
        start(t, "TP", 10, {"B": 6}, cash=300, row=8)
        give_trains(t, "TP", "2")
        operating(t, "TP", step="dividend", run={"revenue": 30, "routes": []})
        t.act("B", "withhold")
        assert t.state.corps["TP"].closed
        if connects:
            assert t.state.round["connection"]["corp"] == "FW"
        else:
            assert not t.state.round.get("connection")
            assert t.state.round["current"] == "FW"
            fw_turn_done(t)
            assert t.state.round["connection"]["corp"] == "FW"


def test_p23_the_company_that_operated_goes_first_then_share_price_order(monkeypatch):
    t = fort_worth()
    start(t, "MP", 120, {"C": 6}, cash=100)
    start(t, "IC", 82, {"D": 6}, cash=100)
    for corp in ("MP", "IC"):
        home(t, corp)
        give_trains(t, corp, "2")
    monkeypatch.setattr(connection, "eligible", lambda state, corp: corp != "TP")
    assert connection.eligible_in_order(t.state, "IC") == ["IC", "MP", "FW"]


def test_p23_connection_at_the_start_of_an_operating_round():
    from pbem.engine.context import Ctx
    from pbem.engine.operating import begin_operating_round

    t = fort_worth()
    ctx = Ctx(t.state, "A")
    begin_operating_round(ctx, 1, 1, 1)
    assert t.state.round["connection"]["corp"] == "FW"
    assert t.state.round["current"] is None


def test_p23_commands_read_back():
    from pbem.notation import format_action, parse_command
    from pbem.notation.context import context_for_1870

    ctx = context_for_1870("operating", ["A", "B", "C", "D"])
    for marker in ("place", "keep"):
        action = {"type": "destination", "marker": marker}
        assert parse_command(format_action(action), ctx) == action


# -- Purchasing Private Companies, p.19 -----------------------------------------------------------


def private_table(phase: str) -> Table1870:
    t = Table1870(["A", "B", "C", "D"], phase=phase)
    start(t, "SP", 100, {"A": 6}, cash=500)
    home(t, "SP")
    for sym, owner in (("GRSC", "B"), ("SLSF", "A")):
        t.state.privates[sym].owner = player_holder(owner)
    operating(t, "SP", step="trains", run={"revenue": 0, "routes": []}, dividend="withhold")
    return t


@pytest.mark.parametrize("phase", ["2", "3"])
def test_p19_companies_buy_privates_for_half_to_double_in_phases_2_and_3(phase):
    t = private_table(phase)
    assert "$10 to $40" in t.refused("A", "buy_private", private="GRSC", price=41)
    t.act("A", "buy_private", private="GRSC", price=40)
    t.act("B", "accept")
    assert t.state.privates["GRSC"].owner == corp_holder("SP")


def test_p19_no_private_purchase_in_phase_1():
    t = private_table("1")
    assert "phases 2 and 3" in t.refused("A", "buy_private", private="GRSC", price=20)


def test_p10_slsf_may_not_be_sold_to_a_company():
    t = private_table("2")
    assert "may not be sold" in t.refused("A", "buy_private", private="SLSF", price=140)
