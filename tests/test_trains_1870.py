"""1870 trains: the phases (Game Phases, p.4-5), buying trains and the forced purchase
(Purchase Trains, p.22), forced stock sales (p.24), bankruptcy (p.24-25) and the 1830
diesels variant (Variants, p.25)."""

from __future__ import annotations

import pytest
from or1870help import Table1870, give_trains, home, operating, sell_out, start

from pbem.engine import orrun
from pbem.engine.game import legal_moves
from pbem.engine.state import player_holder
from pbem.engine.trains import bank_offers, train_limit

BEFORE = {"3": ("2",), "4": ("2", "3"), "5": ("2", "3", "4"), "6": ("2", "3", "4", "5"),
          "8": ("2", "3", "4", "5", "6"), "10": ("2", "3", "4", "5", "6", "8"),
          "12": ("2", "3", "4", "5", "6", "8", "10")}


def buyer(phase: str, train: str, cash: int = 2000, **options: str) -> Table1870:
    """SP (A) in its train step, every train before ``train`` sold out."""
    t = Table1870(["A", "B", "C", "D"], phase=phase, **options)
    start(t, "SP", 100, {"A": 6}, cash=cash)
    home(t, "SP")
    sell_out(t, *BEFORE.get(train, ()))
    operating(t, "SP", step="trains", run={"revenue": 0, "routes": []}, dividend="withhold")
    return t


@pytest.mark.parametrize(("train", "before", "phase", "limit", "rusted"), [
    ("3", "1", "2", 4, None),
    ("4", "2", "3", 3, "2"),
    ("5", "3", "4", 2, None),
    ("6", "4", "5", 2, "3"),
    ("8", "5", "6", 2, "4"),
    ("10", "6", "7", 2, None),
    ("12", "7", "8", 2, "5"),
])
def test_p4_the_first_train_of_a_type_starts_the_next_phase(train, before, phase, limit, rusted):
    t = buyer(before, train)
    start(t, "TP", 90, {"B": 6}, cash=100)
    if rusted:
        give_trains(t, "TP", rusted)
    t.act("A", "buy_train", train=train, source="bank")
    assert t.state.phase == phase
    assert train_limit(t.state) == limit
    if rusted:
        assert t.state.corps["TP"].trains == []
        assert t.state.trains_scrapped.get(rusted)


def test_p4_phase_2_lets_companies_buy_privates():
    t = buyer("1", "3")
    t.act("A", "buy_train", train="3", source="bank")
    assert any("may now buy private companies" in line for line in t.log)


def test_p5_phase_4_closes_the_privates_once():
    t = buyer("3", "5")
    t.state.privates["GRSC"].owner = player_holder("B")
    t.act("A", "buy_train", train="5", source="bank")
    assert all(p.closed for p in t.state.privates.values())
    assert sum("All private companies close" in line for line in t.log) == 1


def test_p5_phase_5_removes_the_port_and_cattle_tokens():
    t = buyer("4", "6")
    t.state.board.markers["cattle"] = {"hex": "M2", "stop": 0, "corp": "SP"}
    t.act("A", "buy_train", train="6", source="bank")
    assert "cattle" not in t.state.board.markers


def test_p22_discards_after_a_phase_change_go_to_the_open_market():
    t = buyer("2", "4")
    give_trains(t, "SP", "3", "3", "3")
    start(t, "TP", 90, {"B": 6}, cash=100)
    give_trains(t, "TP", "3", "3", "3", "3")
    t.act("A", "buy_train", train="4", source="bank")  # phase 3: limit 3
    assert t.state.round["discards"] == ["SP", "TP"]
    t.act("A", "discard", train="3")
    t.act("B", "discard", train="3")
    assert t.state.pool_trains == ["3", "3"]


def test_p3_12_trains_are_unlimited():
    t = buyer("8", "12")
    t.state.trains_sold["12"] = 40
    assert [x.name for x in bank_offers(t.state)] == ["12"]


def test_p25_diesels_variant():
    t = buyer("5", "D", trains="1830-diesels")
    sell_out(t, "2", "3", "4", "5", "6")
    give_trains(t, "SP", "5")
    offers = [x.name for x in bank_offers(t.state)]
    assert offers == ["D"]
    cash = t.state.corps["SP"].cash
    t.act("A", "buy_train", train="D", source="bank", trade="5")
    assert cash - t.state.corps["SP"].cash == 800
    assert t.state.phase == "6"
    assert t.state.corps["SP"].trains == ["D"]


def test_p25_diesels_rust_the_4s_not_the_5s():
    t = buyer("5", "D", trains="1830-diesels")
    sell_out(t, "6")
    start(t, "TP", 90, {"B": 6}, cash=100)
    give_trains(t, "TP", "4", "5")
    t.act("A", "buy_train", train="D", source="bank")
    assert t.state.corps["TP"].trains == ["5"]


# -- Purchase Trains, p.22: the forced purchase ----------------------------------------------


def forced(monkeypatch, cash: int = 13, president_cash: int = 37) -> Table1870:
    """IC (A) has a route, no train and $13; only the $1100 12-train is left."""
    monkeypatch.setattr(orrun, "has_route", lambda state, corp: True)
    t = Table1870(["A", "B", "C", "D"], phase="7")
    sell_out(t, "2", "3", "4", "5", "6", "8", "10")
    start(t, "IC", 90, {"A": 4, "B": 2, "C": 2}, cash=cash, pool=2, row=2)
    home(t, "IC")
    t.state.player("A").cash = president_cash
    operating(t, "IC", step="trains", run={"revenue": 0, "routes": []}, dividend="withhold")
    return t


def test_p22_forced_purchase_not_from_another_company(monkeypatch):
    t = forced(monkeypatch, president_cash=2000)
    start(t, "TP", 120, {"B": 6}, cash=0)
    give_trains(t, "TP", "10")
    refused = t.refused("A", "buy_train", train="10", source="TP", price=500)
    assert "only from the bank or the open market" in refused


def test_p22_the_president_pays_only_the_difference(monkeypatch):
    t = forced(monkeypatch, president_cash=2000)
    t.act("A", "buy_train", train="12", source="bank")
    assert t.cash("A") == 2000 - (1100 - 13)
    assert t.state.corps["IC"].cash == 0


def test_p22_the_cheapest_train_when_the_pool_has_one(monkeypatch):
    t = forced(monkeypatch, president_cash=2000)
    t.state.pool_trains.append("10")
    refused = t.refused("A", "buy_train", train="12", source="bank")
    assert "cheapest" in refused
    t.act("A", "buy_train", train="10", source="pool")


# -- Forced Stock Sales, p.24; Bankruptcy, p.24-25: Ima Swindler -----------------------------------


def ima_swindler(monkeypatch, **options: str) -> Table1870:
    """The example of Forced Stock Sales (p.24): Ima (A) must raise $1050 for IC's 12-train.
    IC: A 40%, B 20%, C 20%, pool 20% at $90.  SP: A 60%, pool 40% at $160.  TP: B 50%,
    A 30%, C 20% at $120.  MP: A 30%, B 20%, C 10%, D 10%, pool 30% at $110."""
    t = forced(monkeypatch)
    for key, value in options.items():
        t.state.options[key] = value
    start(t, "SP", 160, {"A": 6}, pool=4, row=1)
    start(t, "TP", 120, {"B": 5, "A": 3, "C": 2}, row=1)
    start(t, "MP", 110, {"A": 3, "B": 2, "C": 1, "D": 1}, pool=3, row=1)
    return t


def test_p24_ima_may_sell_only_what_the_rules_allow(monkeypatch):
    t = ima_swindler(monkeypatch)
    moves = {m["action"]["sales"][0]["corp"]: m["max"] for m in legal_moves(t.state)["A"]
             if m["action"]["type"] == "sell"}
    assert moves == {"IC": 2, "SP": 1, "TP": 3, "MP": 2}
    assert "presidency of IC" in t.refused("A", "sell", sales=[{"corp": "IC", "count": 3}])
    assert "at most 1" in t.refused("A", "sell", sales=[{"corp": "SP", "count": 2}])


def sell_everything(t: Table1870, protect_tp: bool = False) -> None:
    t.act("A", "sell", sales=[{"corp": "IC", "count": 2}])
    t.act("A", "sell", sales=[{"corp": "SP", "count": 1}])
    t.act("A", "sell", sales=[{"corp": "TP", "count": 3}])
    assert t.state.round["protection"]["president"] == "B"  # B may protect TP
    t.act("B", "protect" if protect_tp else "decline")
    t.act("A", "sell", sales=[{"corp": "MP", "count": 2}])


def test_p24_ima_swindler_is_bankrupt_and_worth_942(monkeypatch):
    t = ima_swindler(monkeypatch)
    sell_everything(t)
    assert t.cash("A") == 37 + 920
    assert t.state.president("MP") == "B"
    assert [t.state.price(c) for c in ("IC", "SP", "TP", "MP")] == [76, 140, 90, 90]
    bank = t.state.bank
    t.act("A", "bankrupt")
    result = t.result
    assert result["reason"] == "bankruptcy" and result["bankrupt"] == "A"
    assert t.cash("A") == 0 and t.state.bank == bank + 957  # cash forfeited
    assert result["scores"]["A"] == 152 + 700 + 0 + 90 == 942


def test_p24_each_company_is_sold_in_a_single_block(monkeypatch):
    t = ima_swindler(monkeypatch)
    t.act("A", "sell", sales=[{"corp": "MP", "count": 1}])
    assert "a single block" in t.refused("A", "sell", sales=[{"corp": "MP", "count": 1}])


def test_p24_forced_sales_may_be_price_protected(monkeypatch):
    t = ima_swindler(monkeypatch)
    sell_everything(t, protect_tp=True)
    assert t.state.price("TP") == 120  # the footnote: $120 at game end
    assert t.pct("B", "TP") == 80


def test_p24_a_bankrupt_player_can_win(monkeypatch):
    t = ima_swindler(monkeypatch)
    sell_everything(t)
    for p in t.state.players[1:]:
        p.cash = 0
    t.act("A", "bankrupt")
    assert t.result["winners"] == ["A"]


def test_d8_bankrupt_prices_unchanged(monkeypatch):
    t = ima_swindler(monkeypatch, bankrupt_prices="unchanged")
    t.act("A", "sell", sales=[{"corp": "IC", "count": 2}])
    t.act("A", "sell", sales=[{"corp": "TP", "count": 3}])
    assert not t.state.round.get("protection")
    assert [t.state.price(c) for c in ("IC", "TP")] == [90, 120]


def test_p25_declared_bankruptcy_option_sells_for_him(monkeypatch):
    t = ima_swindler(monkeypatch, bankruptcy="declare")
    t.act("A", "bankrupt")
    assert t.result["scores"]["A"] == 942


def test_p13_p24_option_protection_timing_turn_end_offers_after_the_train(monkeypatch):
    """Option protection_timing=turn-end (18xx.games): the protection of a president's
    forced sales is offered when the company's turn is over (its train bought), not once
    the sales are made (Share Price Protection, p.13: "When that player's stock turn is
    complete"; Forced Stock Sales, p.24: "All shares sold may be price protected")."""
    for timing in ("sale", "turn-end"):
        t = ima_swindler(monkeypatch, protection_timing=timing)
        t.state.player("A").cash = 800  # TP's three shares pay the rest of the 12-train
        t.act("A", "sell", sales=[{"corp": "TP", "count": 3}])
        assert t.state.price("TP") == 90  # the value drops at the sale (the Shirley example)
        if timing == "sale":
            assert t.state.round["protection"]["president"] == "B"
            assert "B must first decide whether to protect TP" in t.refused(
                "A", "buy_train", train="12", source="bank")
            t.act("B", "protect")
            t.act("A", "buy_train", train="12", source="bank")
        else:
            assert not t.state.round.get("protection")
            t.act("A", "buy_train", train="12", source="bank")
            assert not t.state.round.get("protection")
            t.act("A", "pass")  # done
            assert t.state.round["protection"]["president"] == "B"
            assert t.state.round["current"] is None  # IC's turn is over
            t.act("B", "protect")
            assert t.state.round["current"] not in (None, "IC")  # the next company
        assert t.state.price("TP") == 120 and t.pct("B", "TP") == 80
        assert t.state.corps["IC"].trains == ["12"]


def test_p13_option_protect_own_forced_sale(monkeypatch):
    """Option protect_own_forced_sale=yes (18xx.games): the president who sold for a
    forced purchase may protect his own company's shares at the end of the turn, the
    rule against it naming shares sold "this stock round" (Share Price Protection,
    p.13); not with protect_after_selling=yes (differential 1870 seed 4051)."""
    offered = {}
    for own, after_selling in (("no", "no"), ("yes", "no"), ("yes", "yes")):
        t = ima_swindler(monkeypatch, protection_timing="turn-end", forced_sale="any",
                         protect_own_forced_sale=own, protect_after_selling=after_selling)
        t.state.player("A").cash = 1000
        t.act("A", "sell", sales=[{"corp": "SP", "count": 1}])  # A is SP's president
        t.act("A", "sell", sales=[{"corp": "TP", "count": 3}])
        t.act("A", "buy_train", train="12", source="bank")
        t.act("A", "pass")  # done
        offered[(own, after_selling)] = t.state.round["protection"]["corp"]
        if offered[(own, after_selling)] == "SP":
            t.act("A", "protect")
            assert t.state.price("SP") == 160 and t.pct("A", "SP") == 60
            assert t.state.round["protection"]["corp"] == "TP"
    assert offered == {("no", "no"): "TP", ("yes", "no"): "SP", ("yes", "yes"): "TP"}


def test_p13_option_protect_own_forced_sale_that_passed_the_presidency(monkeypatch):
    """Option protect_own_forced_sale=yes (18xx.games): the offer goes to the president
    at the sale, also when his forced sale passed the presidency to another player; his
    protection buys the shares back and the presidency returns to him by the holdings
    (5.4).  Without the option nobody is offered it: "the new president may not protect
    the shares that the old president sold" (Share Price Protection, p.13; differential
    1870 seed 7148 of run 6)."""
    offered = {}
    for own in ("no", "yes"):
        t = ima_swindler(monkeypatch, protection_timing="turn-end", forced_sale="any",
                         protect_own_forced_sale=own)
        t.state.player("A").cash = 1100  # $270 left for the protection
        t.act("A", "sell", sales=[{"corp": "MP", "count": 2}])  # A 10%, B 20%
        assert t.state.president("MP") == "B"
        t.act("A", "buy_train", train="12", source="bank")
        t.act("A", "pass")  # done
        sale = t.state.round.get("protection")
        offered[own] = sale and (sale["corp"], sale["president"])
        if own == "yes":
            t.act("A", "protect")
            assert t.state.president("MP") == "A" and t.pct("A", "MP") == 30
            assert t.pct("B", "MP") == 20 and t.state.price("MP") == 110
        else:
            price = t.state.price("MP")
            assert price is not None and price < 110
    assert offered == {"no": None, "yes": ("MP", "A")}


def test_p7_p22_a_company_closing_at_its_dividend_buys_no_train_first(monkeypatch):
    """A company with no train runs nothing; withholding moves its value left (p.21),
    and from $10 at the left end of its row that is the closing section: it closes
    (Share Values, p.7) before its train step (Operating Round Summary, p.13), so its
    president may not raise money for a forced purchase (Purchase Trains, p.22) before
    it: pbem accepted the sale in the track step and then closed IC without making it;
    the site closes IC at the dividend (differential 1870 seed 9030 of run 7)."""
    t = forced(monkeypatch)
    operating(t, "IC")  # its track step
    t.state.corps["IC"].cell = (8, 1)  # $10; left of it the closing section
    moves = [m["action"]["type"] for m in legal_moves(t.state)["A"]]
    assert "sell" not in moves and "buy_train" not in moves and "pass" in moves
    assert "closes before its train step" in t.refused(
        "A", "sell", sales=[{"corp": "IC", "count": 1}])
    t.act("A", "pass")  # done
    assert t.state.corps["IC"].closed


def test_p7_p22_a_company_whose_train_runs_nothing_closing_at_its_dividend_buys_no_train_first():
    """As above, with a train that has no route: IC's 3-train runs nothing (its home
    station alone, no track), so IC withholds nothing and its value moves left from
    $10 into the closing section (Share Values, p.7) before its train step (Operating
    Round Summary, p.13). pbem listed a purchase from the open market that it then
    refused ("closes before its train step"; differential 1870 seed 30154 of run 8):
    no purchase is offered, and done closes IC."""
    t = Table1870(["A", "B", "C", "D"], phase="3")
    start(t, "IC", 90, {"A": 4, "B": 2, "C": 2}, cash=300, pool=2, row=2)
    home(t, "IC")
    give_trains(t, "IC", "3")
    t.state.pool_trains.append("3")
    operating(t, "IC")  # its track step
    t.state.corps["IC"].cell = (8, 1)  # $10; left of it the closing section
    moves = [m["action"]["type"] for m in legal_moves(t.state)["A"]]
    assert "buy_train" not in moves and "pass" in moves
    assert "closes before its train step" in t.refused(
        "A", "buy_train", train="3", source="pool")
    t.act("A", "pass")  # done
    assert t.state.corps["IC"].closed
