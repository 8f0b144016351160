"""The exporter names things as 18xx.games does: certificates after a change of
president, trains of one type in one run, and the stock-round passes the site does not
make by itself.  Each case was refused by the site before (found by differential
testing against ../shared/oracle; bench/differential)."""

from __future__ import annotations

from pbem.engine.game import new_game
from pbem.importer.options import SITE_READINGS
from pbem.importer.sitecerts import SiteCerts
from pbem.importer.siteflow import (
    site_company_step_open,
    site_offers_private,
    site_track_open,
)
from pbem.importer.sitenames import SiteNames, site_train_order


def certs_with(holdings: dict[str, list[int]]) -> SiteCerts:
    """PRR certificates given to holders in the order listed (the site keeps them so)."""
    certs = SiteCerts.new({"PRR": 9})
    for holder, indexes in holdings.items():
        for i in indexes:
            certs.move(f"PRR_{i}", holder)
    return certs


def test_a_sale_names_ordinary_shares_first_and_the_presidents_certificate_last() -> None:
    certs = certs_with({"p:A": [0, 3, 4]})
    assert certs.to_sell("PRR", "p:A", 2) == ["PRR_3", "PRR_4"]
    assert certs.to_sell("PRR", "p:A", 3) == ["PRR_3", "PRR_4", "PRR_0"]


def test_presidency_passing_with_a_sale_swaps_the_new_presidents_first_two_shares() -> None:
    """A (president, 40%) sells 2 shares; B (30%) becomes president: the site gives B the
    president's certificate and A the first two shares B acquired (SharePool#
    change_president), so B keeps the one he bought last."""
    certs = certs_with({"p:A": [0, 1, 2], "p:B": [5, 3, 4]})
    certs.transfer("PRR", ["PRR_1", "PRR_2"], "pool", 20, "p:A", "p:B")
    assert certs.held("PRR", "p:B") == ["PRR_4", "PRR_0"]
    assert certs.held("PRR", "p:A") == ["PRR_5", "PRR_3"]
    assert certs.held("PRR", "pool") == ["PRR_1", "PRR_2"]


def test_selling_half_the_presidents_certificate_takes_a_share_back_from_the_pool() -> None:
    """A (president, 20%) sells 10% naming the president's certificate; B (20%) becomes
    president: the swap goes to the pool (A keeps less than 20%), then the pool's first
    share goes back to A (SharePool#handle_partial)."""
    certs = certs_with({"p:A": [0], "p:B": [1, 2]})
    certs.transfer("PRR", ["PRR_0"], "pool", 10, "p:A", "p:B")
    assert certs.held("PRR", "p:B") == ["PRR_0"]
    assert certs.held("PRR", "p:A") == ["PRR_1"]
    assert certs.held("PRR", "pool") == ["PRR_2"]


def test_a_purchase_that_makes_a_new_president_swaps_with_the_old_one() -> None:
    certs = certs_with({"p:A": [0], "p:B": [1, 2]})
    certs.transfer("PRR", ["PRR_3"], "p:B", 10, "p:A", "p:B")
    assert certs.held("PRR", "p:B") == ["PRR_3", "PRR_0"]
    assert certs.held("PRR", "p:A") == ["PRR_1", "PRR_2"]


def test_two_trains_of_one_type_run_under_their_own_ids() -> None:
    names = SiteNames("1830")
    names.move_train("2", "bank", "c:B&O")
    names.move_train("2", "bank", "c:B&O")
    used: set[str] = set()
    assert [names.train_of("c:B&O", "2", used) for _ in range(2)] == ["2-0", "2-1"]


def test_companies_closing_together_send_their_trains_to_the_pool_in_the_sites_order() -> None:
    """1870, Sections of the Stock Market (p.7): a closed company's trains go to the
    open market.  TP and IC close after one stock turn (TP's price fell first): the site
    closes them in its list's order, IC before TP, so IC's trains are discarded first
    and the pool's first 4-train (the only one the site sells) is IC's (seed 1015)."""
    facts = [{"f": "train", "name": "4", "source": "c:TP", "dest": "pool"},
             {"f": "corp_closed", "corp": "TP"},
             {"f": "train", "name": "3", "source": "c:MKT", "dest": "pool"},
             {"f": "train", "name": "4", "source": "c:IC", "dest": "pool"},
             {"f": "train", "name": "2", "source": "c:IC", "dest": "pool"},
             {"f": "corp_closed", "corp": "IC"}]
    assert site_train_order("1870", facts) == [3, 2, 4, 0]
    names = SiteNames("1870", trains={"c:TP": ["4-0"], "c:IC": ["4-2", "2-1"],
                                      "c:MKT": ["3-1"]})
    for i in site_train_order("1870", facts):
        names.move_train(facts[i]["name"], facts[i]["source"], facts[i]["dest"])
    assert names.trains["pool"] == ["4-2", "3-1", "2-1", "4-0"]


def test_the_site_offers_a_private_from_another_player_in_later_stock_rounds() -> None:
    """tobymao/18xx: in 1830's phases 2-4 from the second stock round on, a player who
    has bought nothing this turn and has money may buy another player's private company
    (the site does not pass for him then)."""
    state = new_game("1830", ["A", "B", "C"], 1, dict(SITE_READINGS["1830"]))
    state.phase = "2"
    state.privates["SV"].owner = "p:B"
    state.round = {"kind": "stock", "number": 2, "current": "A",
                   "turn": {"bought": False, "sold": [], "acted": False}}
    assert site_offers_private(state, "A")
    assert not site_offers_private(state, "B")  # his own private only
    state.round["number"] = 1
    assert not site_offers_private(state, "A")  # not in the first stock round
    state.round["number"] = 2
    state.privates["SV"].owner = "p:A"
    state.privates["BO"].owner = "p:B"
    assert not site_offers_private(state, "A")  # the BO may never be bought


def operating(title: str, corp: str, **turn: object):  # type: ignore[no-untyped-def]
    state = new_game(title, ["A", "B", "C"], 1, dict(SITE_READINGS[title]))
    state.phase = "2"
    state.round = {"kind": "operating", "current": corp,
                   "turn": {"laid": False, "lays": [], **turn}}
    return state


def test_the_site_keeps_1870s_track_step_open_for_a_second_yellow_tile() -> None:
    """tobymao/18xx TILE_LAYS: two yellow tiles or one upgrade; ``can_lay_tile?`` does not
    look for a legal placement, so the step waits for a pass after one yellow tile."""
    state = operating("1870", "MP", lays=["yellow"])
    assert site_track_open(state, "MP")
    state.round["turn"]["lays"] = ["upgrade"]
    assert not site_track_open(state, "MP")
    state.privates["MRBC"].owner = "p:B"  # MP could still buy the MRBC and lay with it
    state.corps["MP"].cash = 20
    assert site_track_open(state, "MP")


def test_the_site_waits_for_a_pass_while_a_private_ability_may_be_used() -> None:
    """tobymao/18xx BuyCompany with ``blocks``: a corporation owning the CS (1830) with its
    tile unused passes the last step, even in phase 2 (no purchases of privates)."""
    state = operating("1830", "PRR", laid=True)
    assert not site_company_step_open(state, "PRR")
    state.privates["CS"].owner = "c:PRR"
    assert site_company_step_open(state, "PRR")
    state.privates["CS"].used = True
    assert not site_company_step_open(state, "PRR")


def test_the_site_offers_the_mrbc_to_the_river_companies_in_1870s_phase_1() -> None:
    state = operating("1870", "SSW")
    state.phase = "1"
    state.corps["SSW"].cash = 20
    assert site_company_step_open(state, "SSW")
    state.corps["IC"].cash = 20
    assert not site_company_step_open(state, "IC")
