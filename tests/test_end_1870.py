"""The end of an 1870 game (Ending the Game, p.24; Winning the Game, p.25; variant $400
finish, Variants p.25)."""

from __future__ import annotations

from or1870help import Table1870, home, operating, ran, start

from pbem.engine.context import Ctx
from pbem.engine.ending import note_bank_break, worth
from pbem.engine.operating import begin_operating_round


def two_companies(**options: str) -> Table1870:
    t = Table1870(["A", "B", "C", "D"], **options)
    start(t, "SP", 375, {"A": 6}, cash=50)
    start(t, "TP", 90, {"B": 6}, cash=50)
    for corp in ("SP", "TP"):
        home(t, corp)
    return t


def test_p24_bank_broken_in_an_operating_round_ends_after_the_set():
    t = two_companies()
    t.state.bank = 100
    ran(t, "SP", 300)
    t.act("A", "payout")
    assert t.state.ending == {"reason": "bank", "after": "set"}
    t.act("A", "pass")
    assert t.state.round["current"] == "TP"  # the set is finished
    t.act("B", "pass")
    assert t.state.finished and t.result["reason"] == "bank"


def test_p24_bank_run_out_by_a_company_that_closes_ends_after_the_set():
    """Ending the Game, p.24: "When the bank runs out of money during an operating
    round, complete that entire set of operating rounds".  TP, the set's last company,
    withholds more than the bank has, and its token enters the closing section: its
    treasury goes back to the bank (p.7), but the bank ran out at the withholding, and
    the set is over: the game ends (18xx.games the same; differential 1870 seed 9274:
    pbem looked only at the bank after the move and began a stock round)."""
    for option in ("empty", "overdrawn"):
        t = two_companies(bank_break=option)
        start(t, "TP", 10, {"B": 6}, cash=300, row=8)
        t.state.bank = 57
        operating(t, "TP", ("SP",), step="dividend", run={"revenue": 130, "routes": []})
        t.act("B", "withhold")
        assert t.state.corps["TP"].closed and t.state.bank > 0
        assert t.state.finished and t.result["reason"] == "bank"


def test_p24_bank_broken_in_a_stock_round_ends_after_the_next_set():
    t = two_companies()
    t.state.round = {"kind": "stock"}
    t.state.bank = -1
    ctx = Ctx(t.state, "A")
    note_bank_break(ctx)
    assert t.state.ending == {"reason": "bank", "after": "next set"}


def test_p25_400_finish_the_company_finishes_operating_then_the_game_ends():
    t = two_companies(finish_on_400="yes")
    ran(t, "SP", 100)
    t.act("A", "payout")
    assert t.state.price("SP") == 400
    assert t.ending["reason"] == "400" and not t.state.finished
    t.act("A", "buy_train", train="2", source="bank")  # SP still operates
    t.act("A", "pass")
    assert t.state.finished and t.result["reason"] == "400"
    assert "TP" not in t.state.round["operated"]  # no other company operates


def test_p25_400_option_finish_400_timing_at_once_ends_after_the_dividend():
    """Option finish_400_timing=at-once (18xx.games ends the game as soon as a dividend
    takes a token to $400, its stock_market end check :immediate; the rulebook lets the
    company finish operating; found by differential testing, 1870 seed 1002)."""
    t = two_companies(finish_on_400="yes", finish_400_timing="at-once")
    ran(t, "SP", 100)
    t.act("A", "payout")
    assert t.state.price("SP") == 400
    assert t.state.finished and t.result["reason"] == "400"  # no train bought after it


def test_p25_400_finish_is_off_by_default():
    t = two_companies()
    ran(t, "SP", 100)
    t.act("A", "payout")
    assert t.state.ending is None


def test_p25_400_reached_in_the_stock_round_no_company_operates():
    t = two_companies(finish_on_400="yes")
    start(t, "SP", 400, {"A": 6}, cash=50)
    ctx = Ctx(t.state, "A")
    begin_operating_round(ctx, 2, 1, 1)
    assert t.state.finished and t.result["reason"] == "400"
    assert t.state.round["current"] is None


def test_p25_winner_by_cash_shares_at_market_and_privates_at_face_value():
    t = two_companies()
    t.state.privates["MKT"].owner = "p:B"
    assert worth(t.state, "A") == 2000 + 6 * 375
    assert worth(t.state, "B") == 2000 + 6 * 90 + 160


def test_p24_option_bank_break_overdrawn_an_empty_bank_has_not_broken() -> None:
    """Ending the Game, p.24: the game ends when the bank runs out of money.  A payout
    leaving it exactly $0 ends the game by default; with bank_break=overdrawn
    (18xx.games' Bank#check_cash: broken only by a payment larger than its cash) only
    the next payment breaks it (differential 1870 seed 4030: IC paid out the bank's last
    $190)."""
    for option, ends in (("empty", True), ("overdrawn", False)):
        t = two_companies(bank_break=option)
        t.state.round = {"kind": "operating"}
        t.state.bank = 0
        note_bank_break(Ctx(t.state, "A"))
        assert (t.state.ending is not None) is ends
        t.state.bank = -10  # a payment beyond its cash: broken in both readings
        note_bank_break(Ctx(t.state, "A"))
        assert t.state.ending == {"reason": "bank", "after": "set"}


def test_p24_option_bank_break_overdrawn_counts_the_capital_of_a_float_as_paid() -> None:
    """Ending the Game, p.24: the bank runs out of money during a stock round.  pbem pays
    a company floated in a stock round its capital at the round's end (as 1830 5.3); the
    site pays it at the float, so with bank_break=overdrawn its bank is lower by that
    capital meanwhile, and a sale the bank pays for can break it (differential 1870
    seed 9567 of run 7: ATSF floated, $760; Ann's sale of 3 MKT shares for $204 broke
    the site's bank, and the game ended after that set of operating rounds)."""
    from pbem.engine.state import BANK, player_holder

    for option, ends in (("empty", False), ("overdrawn", True)):
        t = two_companies(bank_break=option)
        t.state.round = {"kind": "stock"}
        t.state.corps["TP"].funded = False  # floated in this stock round: $900 unpaid
        t.state.bank = 1000  # the site's: $100
        ctx = Ctx(t.state, "A")
        note_bank_break(ctx)
        assert t.state.ending is None
        ctx.pay(BANK, player_holder("A"), 204)
        note_bank_break(ctx)
        assert (t.state.ending is not None) is ends
        if ends:
            assert t.state.ending == {"reason": "bank", "after": "next set"}
