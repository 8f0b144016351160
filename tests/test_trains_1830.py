"""Running, dividends, trains and phases: 1830 rules 2.0-2.7, 6.4-6.6 and 7.0."""

from __future__ import annotations

from enginehelp import (
    first_operating_round,
    give_cash,
    give_train,
    prr_forced_to_buy,
    sell_out_trains,
)

from pbem.engine.state import POOL, corp_holder


def prr_with_a_route():
    """PRR (A, 50%; B holds 10%) with a 2-train and track H10-H12: a $30 run."""
    t = first_operating_round()
    give_train(t, "PRR", "2")
    t.act("A", "lay", tile="57", hex="H10", exits=None)
    return t


def test_6_4_run_finds_the_best_route_and_6_5_payout() -> None:
    t = prr_with_a_route()
    a, b = t.cash("A"), t.cash("B")
    t.act("A", "run", routes=None)
    assert t.state.round["turn"]["run"]["revenue"] == 30
    t.act("A", "payout")
    assert t.cash("A") == a + 15 and t.cash("B") == b + 3  # $3 per 10% share
    assert t.state.corps["PRR"].cash == 670  # initial-offering shares are paid nothing
    assert t.state.price("PRR") == 71  # one box right


def test_6_5_pool_shares_pay_the_treasury() -> None:
    t = prr_with_a_route()
    t.state.corps["PRR"].certs[1] = POOL  # B's CA share in the pool
    t.act("A", "payout")  # implicit best run first
    assert t.state.corps["PRR"].cash == 670 + 3


def test_6_5_withhold_goes_to_treasury_and_moves_left() -> None:
    t = prr_with_a_route()
    t.act("A", "withhold")
    assert t.state.corps["PRR"].cash == 700
    assert t.state.price("PRR") == 65  # one box left of 67


def test_6_5_no_revenue_no_dividend() -> None:
    t = first_operating_round()
    give_train(t, "PRR", "2")
    message = t.refused("A", "payout")
    assert "cannot pay a dividend" in message


def test_6_4_explicit_route_must_reach_the_best_total() -> None:
    t = prr_with_a_route()
    t.act("A", "run", routes=[{"train": "2", "stops": ["H12", "H10"]}])
    assert t.state.round["turn"]["run"]["revenue"] == 30


def test_6_6_trains_bought_in_order_from_the_bank() -> None:
    t = prr_with_a_route()
    t.act("A", "payout")
    assert "sells a 2-train" in t.refused("A", "buy_train", train="3", source="bank",
                                          price=None, trade=None)
    t.act("A", "buy_train", train=None, source=None, price=None, trade=None)
    assert t.state.corps["PRR"].trains == ["2", "2"]


def test_2_3_first_3_train_starts_phase_3() -> None:
    t = prr_with_a_route()
    t.act("A", "payout")
    sell_out_trains(t, "2")
    t.act("A", "buy_train", train="3", source="bank", price=None, trade=None)
    assert t.state.phase == "3"


def test_2_4_first_4_train_rusts_the_2_trains() -> None:
    t = prr_with_a_route()
    t.act("A", "payout")
    sell_out_trains(t, "2")
    sell_out_trains(t, "3")
    t.state.phase = "3"
    t.state.pool_trains.append("2")
    t.state.trains_scrapped["2"] -= 1
    t.act("A", "buy_train", train="4", source="bank", price=None, trade=None)
    assert t.state.phase == "4"
    assert t.state.corps["PRR"].trains == ["4"] and "2" not in t.state.pool_trains


def test_2_5_bruce_example_phase_change_in_the_middle_of_a_purchase() -> None:
    """Phase 4, Bruce's railroad has a 3-train and $800; one 4-train left.  It buys the
    4 ($300), then the first 5 ($450): phase 5, limit 2, the 3-train goes to the pool,
    all private companies close (2.5 example)."""
    t = prr_with_a_route()
    t.act("A", "payout")
    t.state.corps["PRR"].trains.clear()
    t.state.trains_scrapped["2"] = 1
    sell_out_trains(t, "2")
    t.state.trains_scrapped["3"] = t.state.trains_scrapped.get("3", 0)
    give_train(t, "PRR", "3")
    sell_out_trains(t, "3")
    t.state.trains_sold["4"] = 3
    t.state.trains_scrapped["4"] = 3
    t.state.phase = "4"
    give_cash(t, corp_holder("PRR"), 800 - t.state.corps["PRR"].cash)
    t.act("A", "buy_train", train="4", source="bank", price=None, trade=None)
    assert t.state.corps["PRR"].cash == 500 and t.state.phase == "4"
    t.act("A", "buy_train", train="5", source="bank", price=None, trade=None)
    assert t.state.phase == "5" and t.state.corps["PRR"].cash == 50
    assert all(p.closed for p in t.state.privates.values())
    assert t.state.round["discards"] == ["PRR"]
    t.act("A", "discard", train="3")
    assert sorted(t.state.corps["PRR"].trains) == ["4", "5"]
    assert t.state.pool_trains == ["3"]


def test_6_6_train_limit() -> None:
    t = prr_with_a_route()
    t.act("A", "payout")
    for _ in range(3):
        t.act("A", "buy_train", train=None, source=None, price=None, trade=None)
    assert "limit" in t.refused("A", "buy_train", train=None, source=None, price=None,
                                trade=None)


def test_6_6_2_forced_purchase_with_presidents_money() -> None:
    t = first_operating_round()
    t.act("A", "lay", tile="57", hex="H10", exits=None)
    t.act("A", "run", routes=None)  # no train: nothing
    t.state.corps["PRR"].cash = 50
    t.state.bank += 620
    assert "must buy one" in t.refused("A", "pass")
    a = t.cash("A")
    t.act("A", "buy_train", train=None, source=None, price=None, trade=None)
    assert t.state.corps["PRR"].trains == ["2"] and t.state.corps["PRR"].cash == 0
    assert t.cash("A") == a - 30


def test_bo_closes_when_b_and_o_buys_its_first_train() -> None:
    from pbem.engine.ortrains import after_purchase

    t = first_operating_round()
    from pbem.engine.context import Ctx

    ctx = Ctx(t.state, "D")
    t.state.round["turn"]["step"] = "trains"
    after_purchase(ctx, "B&O")
    assert t.state.privates["BO"].closed


def test_3_1_corporation_buys_a_private_in_phase_3_with_consent() -> None:
    t = prr_with_a_route()
    t.state.phase = "3"
    assert "half to twice" in t.refused("A", "buy_private", private="CS", **{"from": "B"},
                                        price=90)
    t.act("A", "buy_private", private="CS", **{"from": "B"}, price=80)
    assert "B must first accept" in t.refused("A", "pass")
    t.act("B", "accept")
    assert t.state.privates["CS"].owner == "c:PRR"
    assert "may not be sold to a corporation" in t.refused("A", "buy_private", private="BO",
                                                           **{"from": "D"}, price=220)


def test_3_1_no_private_purchases_in_phase_2() -> None:
    t = prr_with_a_route()
    assert "phases 3 and 4" in t.refused("A", "buy_private", private="SV", **{"from": "A"},
                                         price=20)


def test_7_0_bank_break_in_an_operating_round_ends_after_the_set() -> None:
    t = prr_with_a_route()
    t.state.bank, t.state.player("D").cash = 10, t.state.player("D").cash + t.state.bank - 10
    t.act("A", "payout")  # the bank pays $15 + $3: it is broken
    assert t.state.ending == {"reason": "bank", "after": "set"}
    while not t.state.finished:
        t.act(t.current, "pass")
    result = t.result
    assert result["reason"] == "bank" and set(result["scores"]) == {"A", "B", "C", "D"}
    assert t.state.bank < 0  # paid on paper


def test_6_6_3_forced_sale_only_enough_and_then_the_train() -> None:
    t = prr_forced_to_buy(20)
    message = t.refused("A", "buy_train", train=None, source=None, price=None, trade=None)
    assert "must first sell shares" in message
    assert "only what the train needs" in t.refused("A", "sell",
                                                    sales=[{"corp": "NYC", "count": 2}])
    before = t.state.corps["NYC"].cell
    t.act("A", "sell", sales=[{"corp": "NYC", "count": 1}])
    after = t.state.corps["NYC"].cell
    assert before is not None and after is not None
    assert t.cash("A") == 87 and after[0] == before[0] + 1  # one box down
    t.act("A", "buy_train", train=None, source=None, price=None, trade=None)
    assert t.state.corps["PRR"].trains == ["2"] and t.cash("A") == 7


def test_6_6_3_forced_sale_may_not_change_the_presidency_of_the_corporation() -> None:
    t = prr_forced_to_buy(0)
    t.state.corps["NYC"].certs[5] = t.state.corps["NYC"].certs[6] = "ipo"
    t.state.corps["PRR"].certs[6] = t.state.corps["PRR"].certs[7] = "p:B"  # B: 30% PRR
    assert "hand the presidency" in t.refused("A", "sell", sales=[{"corp": "PRR", "count": 3}])
    t.act("A", "sell", sales=[{"corp": "PRR", "count": 1}])
    assert t.state.president("PRR") == "A"


def test_6_7_bankruptcy_ends_the_game_at_once() -> None:
    t = prr_forced_to_buy(0)
    t.state.corps["NYC"].certs[5] = t.state.corps["NYC"].certs[6] = "ipo"
    for index in (2, 3, 4):
        t.state.corps["PRR"].certs[index] = "ipo"  # A keeps only the president's 20%
    assert "bankrupt" not in t.refused("A", "pass")
    t.act("A", "bankrupt")
    assert t.state.finished and t.result["reason"] == "bankruptcy"
    assert t.result["bankrupt"] == "A"
    assert t.result["scores"]["A"] == 2 * (t.state.price("PRR") or 0)


def test_6_7_bankrupt_presidents_money_goes_to_the_bank() -> None:
    """6.7 note: "The bankrupt president's final score is the value of all of the shares
    that he could not sell": the money he has left is forfeited to the bank (as on
    18xx.games, where it found a difference in the bank's and the player's cash)."""
    t = prr_forced_to_buy(20)
    t.state.corps["NYC"].certs[5] = t.state.corps["NYC"].certs[6] = "ipo"
    for index in (2, 3, 4):
        t.state.corps["PRR"].certs[index] = "ipo"
    bank = t.state.bank
    t.act("A", "bankrupt")
    assert t.cash("A") == 0 and t.state.bank == bank + 20
    assert t.state.result is not None
    assert t.state.result["scores"]["A"] == 2 * (t.state.price("PRR") or 0)


def test_6_7_no_bankruptcy_while_shares_can_be_sold() -> None:
    t = prr_forced_to_buy(0)
    assert "Only a president who cannot raise" in t.refused("A", "bankrupt")


def test_6_6_3_president_may_sell_a_private_to_a_player_who_accepts() -> None:
    t = prr_forced_to_buy(20)
    assert "not another player" in t.refused("A", "sell_private", private="SV", to="A", price=5)
    t.act("A", "sell_private", private="SV", to="C", price=70)
    t.act("C", "accept")
    assert t.state.privates["SV"].owner == "p:C" and t.cash("A") == 90
    t.act("A", "buy_train", train=None, source=None, price=None, trade=None)
    assert t.state.corps["PRR"].trains == ["2"] and t.cash("A") == 10


def test_6_6_3_no_private_sale_in_an_operating_round_without_a_forced_purchase() -> None:
    t = first_operating_round()
    assert "only to raise money" in t.refused("A", "sell_private", private="SV", to="B",
                                              price=20)


def test_6_6_diesel_with_a_trade_in() -> None:
    t = prr_with_a_route()
    t.act("A", "payout")
    t.state.corps["PRR"].trains.clear()
    t.state.trains_scrapped["2"] = 1
    for name in ("2", "3", "4", "5"):
        sell_out_trains(t, name)
    give_train(t, "PRR", "5")
    t.state.trains_sold["6"] = 1
    t.state.trains_scrapped["6"] = 1
    t.state.phase = "6"
    give_cash(t, corp_holder("PRR"), 800)
    cash = t.state.corps["PRR"].cash
    t.act("A", "buy_train", train="D", source="bank", price=None, trade="5")
    assert t.state.corps["PRR"].trains == ["D"] and t.state.pool_trains == ["5"]
    assert t.state.corps["PRR"].cash == cash - 800 and t.state.phase == "D"


def test_6_6_at_the_train_limit_only_a_trade_in_for_a_diesel() -> None:
    """6.6: a railroad at the limit "may not purchase a train" and "may not discard or
    scrap a train to make space"; the trade-in for a diesel "is legal even if the railroad
    currently owns two trains".  The site lets it buy any train while a trade-in is
    possible (differential run 6, 1830 seed 7190; probes.KNOWN_DIFFERENCES["train-limit"])."""
    t = prr_with_a_route()
    t.act("A", "payout")
    t.state.corps["PRR"].trains.clear()
    t.state.trains_scrapped["2"] = 1
    for name in ("2", "3"):
        sell_out_trains(t, name)
    give_train(t, "PRR", "4")
    give_train(t, "PRR", "4")
    give_train(t, "C&O", "6")
    for name in ("4", "5"):
        sell_out_trains(t, name)
    t.state.phase = "6"
    give_cash(t, corp_holder("PRR"), 855 - t.state.corps["PRR"].cash)
    assert "limit" in t.refused("A", "buy_train", train="6", source="bank", price=None,
                                trade=None)
    assert "limit" in t.refused("A", "buy_train", train="6", source="C&O", price=1,
                                trade=None)
    t.act("A", "buy_train", train="D", source="bank", price=None, trade="4")
    assert t.state.corps["PRR"].trains == ["D"]  # the first diesel rusts the other 4-train
    assert t.state.corps["PRR"].cash == 55


def test_7_0_bank_break_in_a_stock_round_ends_after_one_more_set() -> None:
    from enginehelp import Table, sell_all_privates

    t = Table(["A", "B"])
    sell_all_privates(t, ["A", "B"])
    who = t.state.round["current"]
    t.state.player(who).cash += t.state.bank - 5
    t.state.bank = 5
    t.act(who, "par", corp="NYC", price=67)  # the bank takes money in: not broken
    assert t.state.ending is None
    other = t.state.left_of(who)
    t.state.corps["NYC"].certs[1] = f"p:{other}"
    t.state.player(other).cash += t.state.bank + 10
    t.state.bank = -10
    t.act(other, "pass")  # the next decision notes the broken bank
    assert t.state.ending == {"reason": "bank", "after": "next set"}
    assert t.state.round["kind"] == "stock"  # the stock round goes on after the break
    while t.state.round["kind"] == "stock":
        t.act(t.state.round["current"], "pass")
    # then one set of operating rounds (here empty: nothing has floated) and the end
    assert t.state.finished and t.result["reason"] == "bank"
