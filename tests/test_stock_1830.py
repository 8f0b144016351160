"""Stock rounds, 1830 rules 4.0-5.4."""

from __future__ import annotations

from enginehelp import Table, sell_all_privates

from pbem.engine.context import Ctx
from pbem.engine.facts import MarketMove
from pbem.engine.market import cell_down, cell_left, cell_right, cell_up, operating_order
from pbem.engine.title import load_title

P = ["A", "B", "C", "D"]


def first_sr(**options: str) -> Table:
    """A: SV, MH; B: CS, CA (PRR 10%); C: DH; D: BO (B&O par 100)."""
    t = Table(P, **options)
    t.act("A", "buy_private")  # SV
    t.act("B", "buy_private")  # CS
    t.act("C", "buy_private")  # DH
    t.act("D", "pass")
    t.act("A", "buy_private")  # MH
    t.act("B", "buy_private")  # CA
    t.act("C", "pass")
    t.act("D", "buy_private")  # BO
    t.act("D", "par", corp="B&O", price=100)
    assert t.state.round["kind"] == "stock" and t.state.round["number"] == 1
    return t


def through_operating_rounds(t: Table) -> None:
    while t.state.round["kind"] == "operating":
        t.act(t.current, "pass")


def test_5_2_president_certificate_first_at_twice_par() -> None:
    t = first_sr()
    assert "no par value yet" in t.refused("A", "buy_share", corp="PRR", source=None, count=1)
    t.act("A", "par", corp="PRR", price=82)
    assert t.cash("A") == 600 - 20 - 110 - 164 and t.pct("A", "PRR") == 20
    assert t.state.price("PRR") == 82 and t.state.corps["PRR"].cell == (2, 6)


def test_4_2_par_values_only() -> None:
    t = first_sr()
    assert "not a par value" in t.refused("A", "par", corp="NYC", price=80)


def test_5_0_one_certificate_per_turn_and_turn_passes_on() -> None:
    t = first_sr()
    t.act("A", "par", corp="NYC", price=67)
    assert t.state.round["current"] == "B"  # nothing to sell in SR 1: the turn ends


def test_5_1_no_selling_in_first_stock_round() -> None:
    t = first_sr()
    t.act("A", "par", corp="NYC", price=67)
    t.act("B", "pass")
    t.act("C", "pass")
    t.act("D", "pass")
    assert "first stock round" in t.refused("A", "sell", sales=[{"corp": "NYC", "count": 1}])


def test_5_3_float_at_60_percent_and_capital_at_end_of_round() -> None:
    t = first_sr()
    t.act("A", "par", corp="NYC", price=67)
    for _ in range(4):
        for name in ["B", "C", "D", "A"]:
            if t.state.round["current"] != name:
                continue
            if name == "A":
                t.act("A", "buy_share", corp="NYC", source=None, count=1)
            else:
                t.act(name, "pass")
    assert t.pct("A", "NYC") == 60 and t.state.corps["NYC"].floated
    assert t.state.corps["NYC"].cash == 0  # capital at the end of the stock round (5.3)
    t.pass_all()
    assert t.state.corps["NYC"].cash == 670


def test_4_3_sixty_percent_limit() -> None:
    t = first_sr()
    t.act("A", "par", corp="NYC", price=67)
    while t.pct("A", "NYC") < 60:
        if t.state.round["current"] == "A":
            t.act("A", "buy_share", corp="NYC", source=None, count=1)
        else:
            t.act(t.state.round["current"], "pass")
    while t.state.round["current"] != "A":
        t.act(t.state.round["current"], "pass")
    assert "at most 60%" in t.refused("A", "buy_share", corp="NYC", source=None, count=1)


def test_4_3_certificate_limit() -> None:
    t = Table(["A", "B", "C", "D", "E", "F"])  # limit 11
    sell_all_privates(t, ["A", "B", "C"])  # A: SV, MH
    extra = 5000
    t.state.player("A").cash += extra  # enough money: only the limit can stop A
    t.state.bank -= extra
    plan = [("par", "NYC"), ("buy", "NYC"), ("buy", "NYC"), ("buy", "NYC"), ("buy", "NYC"),
            ("par", "PRR"), ("buy", "PRR"), ("buy", "PRR"), ("buy", "PRR")]
    for what, corp in plan:  # 2 privates + 9 certificates = 11
        while t.state.round["current"] != "A":
            t.act(t.state.round["current"], "pass")
        if what == "par":
            t.act("A", "par", corp=corp, price=100)
        else:
            t.act("A", "buy_share", corp=corp, source=None, count=1)
    while t.state.round["current"] != "A":
        t.act(t.state.round["current"], "pass")
    assert "limit is 11" in t.refused("A", "buy_share", corp="PRR", source=None, count=1)


def test_5_0_end_of_round_priority_left_of_last_buyer() -> None:
    t = first_sr()
    t.act("A", "pass")
    t.act("B", "par", corp="PRR", price=67)
    t.pass_all()
    assert t.state.priority == "C"


def test_5_1_ca_share_unsellable_before_par_and_sales_drop_price() -> None:
    t = first_sr()
    t.act("A", "par", corp="PRR", price=100)
    t.pass_all()
    through_operating_rounds(t)
    assert t.state.round["kind"] == "stock" and t.state.round["number"] == 2
    current = t.state.round["current"]
    # B holds the CA's PRR share; sell it in B's turn
    while t.state.round["current"] != "B":
        t.act(t.state.round["current"], "pass")
    before = t.cash("B")
    t.act("B", "sell", sales=[{"corp": "PRR", "count": 1}])
    assert t.cash("B") == before + 100
    assert t.state.price("PRR") == 90
    assert "sold PRR this stock round" in t.refused("B", "buy_share", corp="PRR", source=None,
                                                    count=1)
    assert current  # the round started with the priority holder


def test_5_1_president_certificate_never_to_the_pool() -> None:
    t = first_sr()
    t.act("A", "par", corp="NYC", price=67)
    t.pass_all()
    through_operating_rounds(t)
    while t.state.round["current"] != "A":
        t.act(t.state.round["current"], "pass")
    message = t.refused("A", "sell", sales=[{"corp": "NYC", "count": 1}])
    assert "president's certificate" in message


def test_5_4_sale_hands_presidency_to_the_larger_holder() -> None:
    t = first_sr()
    t.act("A", "par", corp="NYC", price=67)       # A 20%
    t.act("B", "buy_share", corp="NYC", source=None, count=1)
    t.act("C", "pass")
    t.act("D", "pass")
    t.act("A", "buy_share", corp="NYC", source=None, count=1)  # A 30%
    t.act("B", "buy_share", corp="NYC", source=None, count=1)  # B 20%
    t.pass_all()
    through_operating_rounds(t)
    while t.state.round["current"] != "A":
        t.act(t.state.round["current"], "pass")
    t.act("A", "sell", sales=[{"corp": "NYC", "count": 2}])  # A 10% < B 20%
    assert t.state.president("NYC") == "B"
    assert t.pct("A", "NYC") == 10 and t.pct("B", "NYC") == 20
    assert t.state.corps["NYC"].certs[0] == "p:B"


def test_5_4_buying_past_the_president_takes_the_presidency() -> None:
    t = first_sr()
    t.act("A", "par", corp="NYC", price=67)
    t.act("B", "buy_share", corp="NYC", source=None, count=1)
    t.act("C", "pass")
    t.act("D", "pass")
    t.act("A", "pass")
    t.act("B", "buy_share", corp="NYC", source=None, count=1)
    assert t.state.president("NYC") == "A"  # equal holdings: no change (5.1 note)
    t.act("C", "pass")
    t.act("D", "pass")
    t.act("A", "pass")
    t.act("B", "buy_share", corp="NYC", source=None, count=1)
    assert t.state.president("NYC") == "B" and t.pct("A", "NYC") == 20


def test_mh_exchange_between_turns() -> None:
    t = first_sr()
    assert t.state.round["current"] == "A"
    t.act("A", "exchange", private="MH")  # A owns MH; also allowed out of turn
    assert t.pct("A", "NYC") == 10 and t.state.privates["MH"].closed


def test_mh_exchange_not_in_the_auction() -> None:
    t = Table(P)
    t.act("A", "buy_private")
    t.act("B", "buy_private")
    t.act("C", "buy_private")
    t.act("D", "buy_private")  # MH
    assert "auction is over" in t.refused("D", "exchange", private="MH")


def test_3_1_private_sale_needs_the_buyers_accept() -> None:
    t = first_sr()
    assert "first stock round" in t.refused("A", "sell_private", private="SV", to="B", price=30)
    t.pass_all()
    through_operating_rounds(t)
    while t.state.round["current"] != "A":
        t.act(t.state.round["current"], "pass")
    t.act("A", "sell_private", private="SV", to="B", price=30)
    assert "B must first accept" in t.refused("A", "pass")
    t.act("B", "accept")
    assert t.privates("B") == ["CS", "CA", "SV"] or "SV" in t.privates("B")


def test_3_1_option_private_trade_site_the_buyers_purchase() -> None:
    """Option private_trade=site (18xx.games: a player buys another's private company in
    his own turn, and that is his purchase; found by differential testing)."""
    t = first_sr(private_trade="site")
    t.pass_all()
    through_operating_rounds(t)
    while t.state.round["current"] != "A":
        t.act(t.state.round["current"], "pass")
    assert "in the buyer's own turn" in t.refused("A", "sell_private", private="SV", to="B",
                                          price=10)
    t.act("A", "buy_private", private="CS", **{"from": "B"}, price=5)
    t.act("B", "accept")
    assert "CS" in t.privates("A")
    assert t.state.round["current"] == "B"  # nothing to sell: the purchase ended the turn


def test_3_1_option_private_trade_site_brown_pool_shares_after_the_private() -> None:
    """Option private_trade=site: 18xx.games still sells shares of a brown-zone
    corporation from the pool after the private company (its multiple purchases look at
    share purchases only; found by differential testing)."""
    t = first_sr(private_trade="site")
    t.act("A", "par", corp="NYC", price=67)
    t.pass_all()
    through_operating_rounds(t)
    for index in (5, 6):
        t.state.corps["NYC"].certs[index] = "pool"
    put_token(t, "NYC", 25)  # brown
    while t.state.round["current"] != "A":
        t.act(t.state.round["current"], "pass")
    t.act("A", "buy_private", private="CS", **{"from": "B"}, price=5)
    t.act("B", "accept")
    assert t.state.round["current"] == "A"
    assert "already bought" in t.refused("A", "par", corp="PRR", price=67)
    assert "only shares from the bank pool" in t.refused("A", "buy_share", corp="NYC",
                                                         source="ipo", count=1)
    t.act("A", "buy_share", corp="NYC", source="pool", count=2)
    assert t.pct("A", "NYC") == 40


def test_3_1_option_private_trade_site_brown_pool_shares_of_one_company() -> None:
    """Option private_trade=site: after the private company, the brown-zone pool shares
    still sold are those of one company (the site's ``can_buy_multiple?``: no share of
    another company bought this turn; found by differential testing, 1830 seed 1000)."""
    t = first_sr(private_trade="site")
    t.act("A", "par", corp="NYC", price=67)
    t.act("B", "par", corp="PRR", price=67)
    t.pass_all()
    through_operating_rounds(t)
    for corp in ("NYC", "PRR"):
        for index in (5, 6):
            t.state.corps[corp].certs[index] = "pool"
        put_token(t, corp, 25)  # brown
    while t.state.round["current"] != "A":
        t.act(t.state.round["current"], "pass")
    t.act("A", "buy_private", private="CS", **{"from": "B"}, price=5)
    t.act("B", "accept")
    t.act("A", "buy_share", corp="NYC", source="pool", count=1)
    assert "already bought" in t.refused("A", "buy_share", corp="PRR", source="pool", count=1)
    t.act("A", "buy_share", corp="NYC", source="pool", count=1)
    assert t.pct("A", "NYC") == 40


def test_3_1_option_private_trade_site_brown_ipo_shares_with_brown_buy_pool_and_ipo() -> None:
    """Options private_trade=site and brown_buy=pool-and-ipo (the site's
    multiple_brown_from_ipo): after the private company, brown-zone shares may still be
    bought from the initial offering as well as from the pool (the site's
    ``can_buy_multiple?`` asks for the pool only when ``multiple_buy_only_from_market?``;
    found by differential testing, 1830 run 6 seed 7036)."""
    t = first_sr(private_trade="site", brown_buy="pool-and-ipo")
    t.act("A", "par", corp="NYC", price=67)
    t.pass_all()
    through_operating_rounds(t)
    put_token(t, "NYC", 25)  # brown
    while t.state.round["current"] != "A":
        t.act(t.state.round["current"], "pass")
    t.act("A", "buy_private", private="CS", **{"from": "B"}, price=5)
    t.act("B", "accept")
    t.act("A", "buy_share", corp="NYC", source="ipo", count=1)
    t.act("A", "buy_share", corp="NYC", source="ipo", count=1)
    assert t.pct("A", "NYC") == 40


def test_3_1_no_sale_of_a_private_company_exchanged_meanwhile() -> None:
    """The MH exchanged while its sale waits for the seller's accept: there is nothing
    left to sell (found by differential testing)."""
    t = first_sr()
    t.pass_all()
    through_operating_rounds(t)
    owner = next(n for n in t.state.names if "MH" in t.privates(n))
    buyer = next(n for n in t.state.names if n != owner)
    while t.state.round["current"] != buyer:
        t.act(t.state.round["current"], "pass")
    t.act(buyer, "buy_private", private="MH", **{"from": owner}, price=45)
    t.act(owner, "exchange", private="MH")
    assert "no longer has MH" in t.refused(owner, "accept")
    t.act(owner, "decline")


def test_4_5_market_moves_at_edges() -> None:
    m = load_title("1830").market
    assert cell_down(m, 10, 3) == (10, 3)          # bottom of a column: no move
    assert cell_right(m, 0, 18) == (0, 18)         # 350: no move
    assert cell_right(m, 1, 18) == (0, 18)         # right end of a row: up
    assert cell_left(m, 3, 0) == (4, 0)            # left end of a row: down
    assert cell_left(m, 7, 0) == (7, 0)            # bottom left: no move
    assert cell_up(m, 0, 5) == (0, 5)


def test_4_5_arriving_token_goes_under_and_6_0_order() -> None:
    t = first_sr()
    t.act("A", "par", corp="NYC", price=67)
    t.act("B", "par", corp="PRR", price=67)
    state = t.state
    # both at 67 in one box: NYC arrived first, so it is on top and operates first
    assert operating_order(state, ["PRR", "NYC"]) == ["NYC", "PRR"]
    ctx = Ctx(state, "A")
    ctx.emit(MarketMove.to(state, "NYC", 5, 7))  # NYC to 71, right of the 67 box
    assert operating_order(state, ["PRR", "NYC"]) == ["NYC", "PRR"]
    ctx.emit(MarketMove.to(state, "PRR", 4, 6))  # PRR to 71 in the par column, higher row
    assert operating_order(state, ["PRR", "NYC"]) == ["NYC", "PRR"]  # further right first


def test_4_5_sold_out_corporation_moves_up_at_end_of_round() -> None:
    t = Table(["A", "B"])
    sell_all_privates(t, ["A", "B"])
    d = t.state.round["current"]
    t.act(d, "par", corp="NYC", price=100)
    while t.state.percent("NYC", "ipo") > 0:
        t.act(t.state.round["current"], "buy_share", corp="NYC", source=None, count=1)
    t.pass_all()
    assert t.state.price("NYC") == 100  # top row: cannot move up
    assert t.state.corps["NYC"].cell == (0, 6)


def to_second_stock_round(t):  # type: ignore[no-untyped-def]
    t.pass_all()
    through_operating_rounds(t)
    assert t.state.round["kind"] == "stock" and t.state.round["number"] == 2


def put_token(t, corp: str, price: int) -> None:  # type: ignore[no-untyped-def]
    """Test set-up: move a share value token to the first cell with ``price``."""
    cell = next(c for c in t.state.rules.market.cells.values() if c.price == price)
    t.state.corps[corp].cell = (cell.row, cell.col)


def test_5_1_ca_share_cannot_be_sold_before_prr_has_a_par_value() -> None:
    t = first_sr()
    to_second_stock_round(t)
    while t.state.round["current"] != "B":
        t.act(t.state.round["current"], "pass")
    assert "before PRR has a par value" in t.refused("B", "sell",
                                                     sales=[{"corp": "PRR", "count": 1}])


def test_4_3_pool_holds_at_most_five_certificates() -> None:
    t = first_sr()
    t.act("A", "par", corp="NYC", price=67)
    to_second_stock_round(t)
    for index in range(1, 6):
        t.state.corps["NYC"].certs[index] = "pool"
    t.state.corps["NYC"].certs[6] = "p:B"
    while t.state.round["current"] != "B":
        t.act(t.state.round["current"], "pass")
    assert "at most 5" in t.refused("B", "sell", sales=[{"corp": "NYC", "count": 1}])


def test_4_4_several_pool_shares_of_a_brown_corporation_in_one_buy() -> None:
    t = first_sr()
    t.act("A", "par", corp="NYC", price=67)
    to_second_stock_round(t)
    for index in (5, 6, 7):
        t.state.corps["NYC"].certs[index] = "pool"
    put_token(t, "NYC", 25)  # brown zone
    who = t.state.round["current"]
    t.act(who, "buy_share", corp="NYC", source="pool", count=3)
    assert t.pct(who, "NYC") >= 30


def test_4_4_several_shares_only_in_the_brown_zone_and_only_from_the_pool() -> None:
    t = first_sr()
    t.act("A", "par", corp="NYC", price=67)
    to_second_stock_round(t)
    for index in (5, 6, 7):
        t.state.corps["NYC"].certs[index] = "pool"
    who = t.state.round["current"]
    assert "brown zone" in t.refused(who, "buy_share", corp="NYC", source="pool", count=2)
    put_token(t, "NYC", 25)
    assert "brown zone" in t.refused(who, "buy_share", corp="NYC", source="ipo", count=2)


def test_4_4_orange_zone_allows_more_than_sixty_percent() -> None:
    t = first_sr()
    t.act("A", "par", corp="NYC", price=67)
    for index in range(1, 5):
        t.state.corps["NYC"].certs[index] = "p:A"  # A holds 60%
    to_second_stock_round(t)
    while t.state.round["current"] != "A":
        t.act(t.state.round["current"], "pass")
    assert "at most 60%" in t.refused("A", "buy_share", corp="NYC", source=None, count=1)
    put_token(t, "NYC", 39)  # orange
    t.act("A", "buy_share", corp="NYC", source=None, count=1)
    assert t.pct("A", "NYC") == 70


def test_4_3_compliance_sale_on_the_next_turn() -> None:
    t = first_sr()
    t.act("A", "par", corp="NYC", price=67)
    for index in range(1, 6):
        t.state.corps["NYC"].certs[index] = "p:A"  # 70% held while in orange
    put_token(t, "NYC", 39)
    to_second_stock_round(t)
    put_token(t, "NYC", 67)  # back out of the orange: A is over the 60% limit
    while t.state.round["current"] != "A":
        t.act(t.state.round["current"], "pass")
    assert "sell enough" in t.refused("A", "pass")
    t.act("A", "sell", sales=[{"corp": "NYC", "count": 1}])
    t.act("A", "pass")


def over_sixty_percent_of_nyc(**options: str) -> Table:
    """A holds 70% of the NYC, whose token has left the orange zone; it is his turn."""
    t = first_sr(**options)
    t.act("A", "par", corp="NYC", price=67)
    for index in range(1, 6):
        t.state.corps["NYC"].certs[index] = "p:A"
    put_token(t, "NYC", 39)
    to_second_stock_round(t)
    put_token(t, "NYC", 67)
    while t.state.round["current"] != "A":
        t.act(t.state.round["current"], "pass")
    return t


def test_4_3_compliance_sale_in_any_order_with_the_purchase() -> None:
    """4.3, Conforming to Limits: the player "must sell sufficient certificates to conform
    to the limits during the player's next turn"; pbem lets him buy first."""
    t = over_sixty_percent_of_nyc()
    t.act("A", "par", corp="PRR", price=67)
    t.act("A", "sell", sales=[{"corp": "NYC", "count": 1}])


def test_4_3_option_compliance_sell_first_as_on_18xx_games() -> None:
    """Option compliance=sell-first (18xx.games: a player out of compliance is offered
    only sales until he conforms); found by differential testing."""
    t = over_sixty_percent_of_nyc(compliance="sell-first")
    assert "sell to come within the limits before buying" in t.refused(
        "A", "par", corp="PRR", price=67)
    t.act("A", "sell", sales=[{"corp": "NYC", "count": 1}])
    t.act("A", "par", corp="PRR", price=67)


def test_5_0_sell_buy_sell_and_the_other_orders() -> None:
    for order, after_sell_buy, after_buy_sell in [("sell-buy-sell", True, True),
                                                  ("sell-buy", True, False),
                                                  ("buy-sell", False, True)]:
        t = first_sr(stock_turn=order)
        t.act("A", "par", corp="NYC", price=67)
        t.act("B", "buy_share", corp="NYC", source=None, count=1)
        to_second_stock_round(t)
        while t.state.round["current"] != "B":
            t.act(t.state.round["current"], "pass")
        t.act("B", "sell", sales=[{"corp": "NYC", "count": 1}])
        if after_sell_buy:
            t.act("B", "par", corp="C&O", price=67)
            if after_buy_sell and t.state.round["current"] == "B":
                t.act("B", "pass")
        else:
            assert "not buy after selling" in t.refused("B", "par", corp="C&O", price=67)


def test_4_5_sold_out_corporations_move_up_highest_first() -> None:
    t = Table(["A", "B"])
    sell_all_privates(t, ["A", "B"])
    first = t.state.round["current"]
    other = "B" if first == "A" else "A"
    t.act(first, "par", corp="NYC", price=71)
    t.act(other, "par", corp="C&O", price=67)
    t.state.player("A").cash += 2000
    t.state.player("B").cash += 2000
    t.state.bank -= 4000
    while t.state.percent("NYC", "ipo") or t.state.percent("C&O", "ipo"):
        who = t.state.round["current"]
        corp = "NYC" if t.state.percent("NYC", "ipo") else "C&O"
        t.act(who, "buy_share", corp=corp, source=None, count=1)
    t.pass_all()
    assert t.state.price("NYC") == 76 and t.state.price("C&O") == 71
