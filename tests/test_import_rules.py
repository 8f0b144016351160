"""The game options that give 18xx.games' reading of the 1830 rules (docs/18xx-games.md),
each against the rulebook's default, and the engine fixes the site's logs brought up.
Every test is named after the option or the rule."""

from __future__ import annotations

from enginehelp import Table, first_operating_round, sell_all_privates

from pbem.engine.board.map import place_token
from pbem.engine.context import Ctx
from pbem.engine.market import operating_order
from pbem.engine.operating import new_turn
from pbem.engine.rounds import end_stock_round
from pbem.engine.state import IPO, POOL, corp_holder, player_holder

PLAYERS = ["Gerald", "Dave", "Bruce", "Alex"]


# -- auction_order ---------------------------------------------------------------------------


def cs_auction(**options: str) -> Table:
    """Gerald, Dave and Bruce bid on CS ($45, $50, $55); Alex buys the SV: the CS auction
    starts with Gerald, the lowest bidder."""
    t = Table(PLAYERS, **options)
    t.act("Gerald", "bid", private="CS", amount=45)
    t.act("Dave", "bid", private="CS", amount=50)
    t.act("Bruce", "bid", private="CS", amount=55)
    t.act("Alex", "buy_private")
    assert t.state.round["auction"]["current"] == "Gerald"
    return t


def test_auction_order_lowest_bid_a_pass_leaves_the_auction() -> None:
    t = cs_auction(auction_order="lowest-bid")
    t.act("Gerald", "pass")
    assert t.state.round["auction"]["order"] == ["Dave", "Bruce"]
    t.act("Dave", "bid", private=None, amount=60)
    t.act("Bruce", "pass")  # only Dave is left: he buys CS
    assert t.privates("Dave") == ["CS"] and t.cash("Dave") == 600 - 60


def test_auction_order_clockwise_default_a_passer_may_bid_again() -> None:
    t = cs_auction()
    t.act("Gerald", "pass")
    t.act("Dave", "bid", private=None, amount=60)
    t.act("Bruce", "pass")
    assert t.state.round["auction"]["current"] == "Gerald"  # 1.2.2: he may come back


# -- station_retile --------------------------------------------------------------------------


def erie_on_bare_e11(**options: str) -> Table:
    """Operating round in phase 3: the Erie (president A) operates, its home station on
    city 1 of the bare E11."""
    t = first_operating_round(**options)
    state = t.state
    erie = state.corps["ERIE"]
    erie.certs[0] = player_holder("A")
    for i in (1, 2, 3, 4):
        erie.certs[i] = player_holder("A")
    erie.par, erie.cell, erie.floated, erie.funded, erie.cash = 67, (5, 6), True, True, 670
    state.phase = "3"
    place_token(state.map, state.board, "E11", 0, "ERIE")
    state.round["current"], state.round["turn"] = "ERIE", new_turn()
    return t


def test_station_retile_choose_the_erie_puts_its_station_in_the_city_it_wants() -> None:
    t = erie_on_bare_e11(station_retile="choose")
    t.act("A", "lay", tile="59", hex="E11", exits=["SW", "NW"])
    assert "must first choose" in t.refused("A", "pass")
    t.act("A", "token", hex="E11", city=2)
    assert t.state.board.tokens["E11"] == [[], ["ERIE"]]
    assert t.state.corps["ERIE"].cash == 670  # moving the station is free
    assert not t.state.round["turn"]["token"]  # and is not the turn's station


def test_station_retile_choose_a_private_may_be_bought_before_choosing() -> None:
    """As on 18xx.games (its buy-company step comes before the home-station step): the
    Erie may buy a private company while its station waits (found by differential
    testing)."""
    t = erie_on_bare_e11(station_retile="choose")
    t.state.privates["DH"].owner = player_holder("A")
    t.act("A", "lay", tile="59", hex="E11", exits=["SW", "NW"])
    t.act("A", "buy_private", private="DH", price=70, **{"from": "A"})
    assert t.state.privates["DH"].owner == "c:ERIE"
    t.act("A", "token", hex="E11", city=2)
    assert t.state.board.tokens["E11"] == [[], ["ERIE"]]


def test_station_retile_keep_default_the_station_keeps_its_city_number() -> None:
    t = erie_on_bare_e11()
    t.act("A", "lay", tile="59", hex="E11", exits=["SW", "NW"])
    assert t.state.board.tokens["E11"] == [["ERIE"], []]
    assert "already has a station" in t.refused("A", "token", hex="E11", city=2)


# -- private_lay -----------------------------------------------------------------------------


def prr_with_cs_after_its_run(**options: str) -> Table:
    t = first_operating_round(**options)
    t.state.privates["CS"].owner = corp_holder("PRR")
    t.act("A", "lay", tile="57", hex="H10", exits=None)
    t.act("A", "run", routes=None)  # no train: the turn moves on past track and stations
    return t


def test_private_lay_any_time_cs_tile_after_the_run() -> None:
    t = prr_with_cs_after_its_run(private_lay="any-time")
    t.act("A", "lay", tile="4", hex="B20", exits=["W", "E"], **{"with": "CS"})
    assert t.state.board.tiles["B20"][0] == "4"


def test_private_lay_track_step_default_6_1_order() -> None:
    t = prr_with_cs_after_its_run()
    assert "gone past" in t.refused("A", "lay", tile="4", hex="B20", exits=["W", "E"],
                                    **{"with": "CS"})


# -- forced_sale and bankruptcy ----------------------------------------------------------------


def prr_must_buy(president_cash: int, **options: str) -> Table:
    """PRR has a route (H10-H12), no train, no money and has not run yet; A, its
    president, has ``president_cash`` and two NYC shares worth $67 each."""
    t = first_operating_round(**options)
    t.act("A", "lay", tile="57", hex="H10", exits=None)
    state = t.state
    state.bank += state.corps["PRR"].cash
    state.corps["PRR"].cash = 0
    state.bank += t.cash("A") - president_cash
    state.player("A").cash = president_cash
    state.corps["NYC"].certs[5] = state.corps["NYC"].certs[6] = player_holder("A")
    return t


def test_forced_sale_any_more_than_the_train_needs() -> None:
    t = prr_must_buy(20, forced_sale="any")
    t.act("A", "sell", sales=[{"corp": "NYC", "count": 2}])  # $134 for an $80 train
    assert t.cash("A") == 20 + 134


def test_forced_sale_only_enough_default_6_6_3() -> None:
    t = prr_must_buy(20)
    assert "only what the train needs" in t.refused("A", "sell",
                                                    sales=[{"corp": "NYC", "count": 2}])


def test_bankruptcy_declare_the_sales_are_made_for_the_president() -> None:
    t = prr_must_buy(0, bankruptcy="declare")
    for index in (2, 3, 4):
        t.state.corps["PRR"].certs[index] = IPO  # A keeps the president's 20% of PRR
    t.state.corps["NYC"].certs[6] = IPO
    cell = t.state.corps["NYC"].cell
    assert cell is not None
    row = cell[0]
    t.act("A", "bankrupt")  # one NYC share at $67 cannot pay for an $80 train
    assert t.state.finished and t.result["bankrupt"] == "A"
    after = t.state.corps["NYC"].cell
    assert t.state.corps["NYC"].certs[5] == POOL and after is not None and after[0] == row + 1
    assert t.result["scores"]["A"] == 2 * (t.state.price("PRR") or 0)


def test_bankruptcy_after_sales_default_6_7() -> None:
    t = prr_must_buy(0)
    assert "Only a president who cannot raise" in t.refused("A", "bankrupt")


# -- engine fixes found by the site's logs -------------------------------------------------------


def test_6_1_a_corporation_without_revenue_withholds_before_going_bankrupt() -> None:
    """29133.json: the NYNH, its train rusted, goes bankrupt in the train step; its share
    value has moved left for the run it did not make (6.1 order, 6.5) before the end."""
    t = prr_must_buy(0)
    t.state.corps["NYC"].certs[5] = t.state.corps["NYC"].certs[6] = IPO
    for index in (2, 3, 4):
        t.state.corps["PRR"].certs[index] = IPO
    t.act("A", "bankrupt")
    assert t.state.price("PRR") == 65  # one box left of $67
    assert t.result["scores"]["A"] == 2 * 65


def test_4_5_sold_out_corporations_move_up_in_share_value_order_keeping_the_stack() -> None:
    """1830_game_end_bank.json: two sold-out corporations in one box move up in share
    value order, the one on top first, so it stays on top (4.5, 6.0)."""
    t = Table(PLAYERS)
    sell_all_privates(t, PLAYERS)
    state = t.state
    for sym, arrival in (("NYNH", 1), ("PRR", 2)):  # NYNH arrived first: on top
        corp = state.corps[sym]
        corp.par, corp.cell, corp.arrival, corp.floated = 100, (1, 14), arrival, True
        corp.certs = [player_holder(PLAYERS[0])] * 9
    state.arrivals = 2
    assert operating_order(state, ["PRR", "NYNH"]) == ["NYNH", "PRR"]
    ctx = Ctx(state.clone(), PLAYERS[0])
    end_stock_round(ctx)
    after = ctx.state
    assert after.corps["PRR"].cell == after.corps["NYNH"].cell == (0, 14)
    assert operating_order(after, ["PRR", "NYNH"]) == ["NYNH", "PRR"]
