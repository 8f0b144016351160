"""1870 private auction, stock market and stock rounds (Mayfair rulebook; rules cited
as section and page, e.g. "Movement of Share Prices, p.8")."""

from __future__ import annotations

from typing import Any

from enginehelp import Table

from pbem.engine.context import Ctx
from pbem.engine.game import apply_facts, legal_moves
from pbem.engine.market import move
from pbem.engine.shares import certificate_count, certificate_limit
from pbem.engine.state import BANK, CLOSED, IPO, POOL, corp_holder, player_holder

NAMES = ["P1", "P2", "P3", "P4", "P5"]


def table(names: list[str] | None = None, **options: str) -> Table:
    return Table(names or NAMES[:4], title="1870", **options)


def put(t: Table, fact: dict[str, Any]) -> None:
    """Set up a position directly (test scaffolding, not a game move)."""
    apply_facts(t.state, [fact])


def place_token(t: Table, corp: str, price: int, area: str = "upper") -> tuple[int, int]:
    cell = next(c for c in t.state.rules.market.cells.values()
                if c.price == price and c.area == area and not c.ledge)
    put(t, {"f": "market", "corp": corp, "row": cell.row, "col": cell.col})
    return cell.row, cell.col


def moved(t: Table, corp: str, direction: str, steps: int = 1) -> Ctx:
    ctx = Ctx(t.state, "P1")
    move(ctx, corp, direction, steps)
    return ctx


def at(t: Table, corp: str, row: int, col: int) -> None:
    put(t, {"f": "market", "corp": corp, "row": row, "col": col})


# -- the private auction (Purchasing Private Companies, p.10) --------------------------


def test_p10_private_auction_sample_five_players() -> None:
    """The rulebook's sample auction in a five player game."""
    t = table(NAMES)
    t.act("P1", "buy_private")  # GRSC $20
    t.act("P2", "bid", private="GSC", amount=85)
    t.act("P3", "bid", private="SCC", amount=55)
    t.act("P4", "bid", private="SLSF", amount=145)
    t.act("P5", "bid", private="SLSF", amount=150)
    t.act("P1", "buy_private")  # MRBC
    assert t.privates("P3") == ["SCC"] and t.cash("P3") == 420 - 55
    assert t.privates("P2") == ["GSC"] and t.cash("P2") == 420 - 85
    auction = t.state.round["auction"]
    # the auction starts with the bidder to the left of the highest bidder (P5): P4
    assert auction["private"] == "SLSF" and auction["current"] == "P4"
    t.act("P4", "pass")
    assert t.privates("P5") == ["SLSF"]
    assert t.state.round["pending_par"] == {"player": "P5", "corp": "SLSF"}
    t.act("P5", "par", corp="SLSF", price=100)
    # MKT is offered to P2: P1 started the auctions by buying MRBC, P2 has the priority
    assert t.state.round["current"] == "P2" and t.state.priority == "P2"
    assert t.state.corps["SLSF"].certs[0] == player_holder("P5")


def three_bidders_on_mkt(**options: str) -> Table:
    """P2 $165, P3 $170 and P4 $175 bid on MKT; P1 buys the privates before it."""
    t = table(None, **options)
    t.act("P1", "buy_private")  # GRSC
    t.act("P2", "bid", private="MKT", amount=165)
    t.act("P3", "bid", private="MKT", amount=170)
    t.act("P4", "bid", private="MKT", amount=175)
    for _ in range(4):  # MRBC, SCC, GSC, SLSF bought one by one: the auction starts
        t.act(t.state.round["current"], "buy_private")
        if t.state.round["pending_par"]:
            t.act(t.state.round["pending_par"]["player"], "par", corp="SLSF", price=100)
    return t


def test_p10_bidders_auction_left_of_the_highest_and_a_pass_is_not_final() -> None:
    """Purchasing Private Companies, p.10: "an auction is held starting with the bidding
    player to the left of the player with the highest bid ... The company for auction
    goes to the player with the highest bid after all other participating players have
    passed": a player who passed bids again while the others have not all passed."""
    t = three_bidders_on_mkt()
    assert t.state.round["auction"]["current"] == "P2"  # left of P4
    t.act("P2", "pass")
    t.act("P3", "bid", amount=180)
    t.act("P4", "pass")
    assert t.state.round["auction"]["current"] == "P2"  # P2 may come back
    t.act("P2", "bid", amount=185)
    assert t.state.round["auction"]["leader"] == "P2"


def test_p10_option_auction_order_lowest_bid_as_on_18xx_games() -> None:
    """Option auction_order=lowest-bid (18xx.games' WaterfallAuction): the lowest bidder
    always bids next and a pass leaves the auction (found by differential testing)."""
    t = three_bidders_on_mkt(auction_order="lowest-bid")
    assert t.state.round["auction"]["current"] == "P2"  # the lowest bid
    t.act("P2", "pass")
    t.act("P3", "bid", amount=180)
    assert t.state.round["auction"]["current"] == "P4"  # P2 has left the auction
    t.act("P4", "pass")
    assert "MKT" in t.privates("P3") and t.state.round["kind"] == "stock"


def test_p10_all_pass_pays_private_revenue_then_grsc_drops() -> None:
    t = table()
    t.act("P1", "bid", private="MRBC", amount=45)
    for who in ["P2", "P3", "P4", "P1"]:
        t.act(who, "pass")
    assert t.state.privates["GRSC"].price == 15
    assert t.state.round["kind"] == "auction"
    assert t.state.round["bids"]["MRBC"] == {"P1": 45}  # bids stay valid


def test_p10_grsc_at_zero_goes_to_the_priority_holder() -> None:
    t = table()
    put(t, {"f": "private_price", "sym": "GRSC", "price": 5})
    for who in ["P1", "P2", "P3", "P4"]:
        t.act(who, "pass")
    assert t.privates("P1") == ["GRSC"] and t.cash("P1") == 525
    assert t.state.priority == "P2"


def test_p10_revenue_paid_when_all_pass_with_privates_owned() -> None:
    t = table()
    t.act("P1", "buy_private")  # GRSC
    for who in ["P2", "P3", "P4", "P1"]:
        t.act(who, "pass")
    assert t.cash("P1") == 525 - 20 + 5
    assert t.state.privates["MRBC"].price == 40  # only GRSC's price drops


def test_p9_mkt_comes_with_a_ten_percent_share() -> None:
    t = table()
    for sym in ["GRSC", "MRBC", "SCC", "GSC", "SLSF"]:
        assert t.state.privates[sym].owner == BANK
        t.act(t.current, "buy_private")
    t.act(t.state.round["pending_par"]["player"], "par", corp="SLSF", price=68)
    buyer = t.current
    t.act(buyer, "buy_private")  # MKT
    assert t.pct(buyer, "MKT") == 10
    assert t.state.round["kind"] == "stock"


# -- the stock market (p.7-8) ------------------------------------------------------------


def test_p8_ledge_example_two_shares_stop_on_the_ledge() -> None:
    """From $90 two rows above the lower area, two shares sold stop on the ledge ($82);
    three or more reach $72 (Movement of Share Prices, p.8)."""
    t = table()
    for count, price in [(1, 82), (2, 82), (3, 72), (5, 72)]:
        at(t, "IC", 4, 9)
        assert t.state.price("IC") == 90
        moved(t, "IC", "down", count)
        assert t.state.price("IC") == price, count


def test_p8_a_single_share_does_not_push_a_token_off_the_ledge() -> None:
    t = table()
    at(t, "IC", 5, 9)  # $82 on the ledge
    moved(t, "IC", "down", 1)
    assert t.state.price("IC") == 82
    moved(t, "IC", "down", 2)
    assert t.state.price("IC") == 72


def test_p8_left_move_in_the_lower_area_does_not_cross_the_ledge() -> None:
    """D6: a token in the lower area moving left over the ledge moves one row down."""
    t = table()
    at(t, "IC", 6, 9)  # $76, lower area; to its left $72 on the upper side
    moved(t, "IC", "left")
    assert t.state.corps["IC"].cell == (7, 9) and t.state.price("IC") == 72


def test_p8_right_move_ignores_the_ledge() -> None:
    t = table()
    at(t, "IC", 5, 9)  # $82 on the ledge
    moved(t, "IC", "right")
    assert t.state.corps["IC"].cell == (5, 10) and t.state.price("IC") == 90


def test_p8_top_row_moves_down_and_right_when_sold_out() -> None:
    t = table()
    at(t, "IC", 0, 5)
    moved(t, "IC", "up")
    assert t.state.corps["IC"].cell == (1, 6)
    at(t, "IC", 0, 20)
    moved(t, "IC", "up")
    assert t.state.price("IC") == 400


def test_p8_no_move_on_half_dividend_is_the_callers_choice_full_moves_right() -> None:
    t = table()
    at(t, "IC", 2, 5)
    moved(t, "IC", "right")
    assert t.state.corps["IC"].cell == (2, 6)


def test_p7_closing_section_closes_the_company() -> None:
    """Sections of the Stock Market, p.7: stations removed, certificates removed
    without compensation, trains to the open market, treasury to the bank; never
    restarted; the certificate limit falls (p.6)."""
    t = table()
    st = t.state
    assert certificate_limit(st) == 16
    put(t, {"f": "par", "corp": "IC", "price": 68, "row": 7, "col": 0})
    put(t, {"f": "cert", "corp": "IC", "index": 0, "to": player_holder("P2")})
    put(t, {"f": "cash", "from": BANK, "to": corp_holder("IC"), "amount": 55})
    put(t, {"f": "train", "name": "2", "source": BANK, "dest": corp_holder("IC")})
    put(t, {"f": "token", "hex": "M20", "stop": 0, "corp": "IC"})
    bank = st.bank
    ctx = moved(t, "IC", "down")  # $10 -> the closing section
    c = st.corps["IC"]
    assert c.closed and c.cell is None and c.cash == 0 and not c.trains
    assert set(c.certs) == {CLOSED}
    assert st.pool_trains == ["2"] and st.bank == bank + 55
    assert all("IC" not in stop for stops in st.board.tokens.values() for stop in stops)
    assert certificate_limit(st) == 14
    assert any("closes" in line for line in ctx.lines)


def test_p6_closed_company_cannot_be_started_again() -> None:
    t = stock_round()
    put(t, {"f": "corp_closed", "corp": "IC"})
    message = t.refused(t.current, "par", corp="IC", price=100)
    assert "IC" in message


# -- stock rounds ---------------------------------------------------------------------------


def stock_round(names: list[str] | None = None, **options: str) -> Table:
    """All privates sold (P1 GRSC, P2 MRBC, P3 SCC, P4 GSC, P1 SLSF, P2 MKT), then stock
    round 1: P3 has the priority."""
    t = table(names, **options)
    while t.state.round["kind"] == "auction":
        rnd = t.state.round
        if rnd["pending_par"]:
            t.act(rnd["pending_par"]["player"], "par", corp="SLSF", price=68)
            continue
        t.act(t.current, "buy_private")
    return t


def second_stock_round(t: Table) -> None:
    """Skip to stock round 2 by putting the round there (test scaffolding)."""
    from pbem.engine.stock import new_stock_round

    put(t, {"f": "round_new", "round": new_stock_round(2, t.state.priority)})
    put(t, {"f": "phase", "name": "2"})


def give(t: Table, corp: str, index: int, who: str) -> None:
    put(t, {"f": "cert", "corp": corp, "index": index, "to": who})


def start(t: Table, corp: str, president: str, price: int, row: int, col: int) -> None:
    put(t, {"f": "par", "corp": corp, "price": price, "row": row, "col": col})
    give(t, corp, 0, player_holder(president))
    put(t, {"f": "corp", "corp": corp, "values": {"floated": True, "funded": True,
                                                  "operated": True}})


def test_p12_no_sales_in_the_initial_stock_round() -> None:
    t = stock_round()
    t.act(t.current, "par", corp="IC", price=100)
    who = t.current
    assert "first stock round" in t.refused(who, "sell", sales=[{"corp": "MKT", "count": 1}])


def test_p12_sell_then_buy_then_sell_is_not_allowed() -> None:
    t = stock_round()
    second_stock_round(t)
    start(t, "IC", "P4", 100, 0, 6)
    start(t, "MP", "P4", 100, 0, 6)
    for i in (1, 2):
        give(t, "IC", i, player_holder("P3"))
        give(t, "MP", i, player_holder("P3"))
    who = t.state.round["current"]
    assert who == "P3"
    t.act("P3", "sell", sales=[{"corp": "IC", "count": 1}])
    t.act("P3", "buy_share", corp="MP", source="ipo")
    # the turn ended by itself (no sale after sell-buy): P4 is offered protection of IC
    assert t.state.round["protection"]["corp"] == "IC"
    t.act("P4", "decline")
    assert t.state.round["current"] == "P4"


def test_p12_a_companys_shares_are_sold_in_one_sale_per_turn() -> None:
    """Selling Shares, p.12: "If shares from more than one company are sold, the player
    must indicate the order of the companies involved in the sale": one sale per company
    (18xx.games: MUST_SELL_IN_BLOCKS; a second sale of one share could otherwise keep a
    token on the ledge, which needs "two full shares" sold, p.8)."""
    t = stock_round()
    second_stock_round(t)
    start(t, "IC", "P4", 100, 0, 6)
    start(t, "MP", "P4", 100, 0, 6)
    for i in (1, 2):
        give(t, "IC", i, player_holder("P3"))
    give(t, "MP", 1, player_holder("P3"))
    t.act("P3", "sell", sales=[{"corp": "IC", "count": 1}])
    assert "sold IC shares this turn already" in t.refused(
        "P3", "sell", sales=[{"corp": "IC", "count": 1}])
    t.act("P3", "sell", sales=[{"corp": "MP", "count": 1}])  # another company may follow


def test_p12_buy_then_sell_is_allowed() -> None:
    t = stock_round()
    second_stock_round(t)
    start(t, "IC", "P4", 100, 0, 6)
    start(t, "MP", "P4", 100, 0, 6)
    give(t, "IC", 1, player_holder("P3"))
    t.act("P3", "buy_share", corp="MP", source="ipo")
    assert t.state.round["current"] == "P3"
    t.act("P3", "sell", sales=[{"corp": "IC", "count": 1}])
    t.act("P3", "pass")  # ends the turn; P4 may protect IC
    assert t.state.round["protection"]["president"] == "P4"


# -- share price protection (p.13-14) ----------------------------------------------------


def shirley_and_dewey() -> Table:
    """Shirley is one certificate over the limit with four 10% MP shares at $64, one
    box above the yellow section; Dewey is MP's president (Compliance Sales, p.15)."""
    t = stock_round(["Shirley", "Dewey", "Ima", "Ann"])
    second_stock_round(t)
    st = t.state
    start(t, "MP", "Dewey", 68, 5, 6)
    at(t, "MP", 4, 4)  # $64, one box above the yellow $60 below it
    assert st.price("MP") == 64 and st.zone("MP") == "plain"
    for i in (1, 2, 3, 4):
        give(t, "MP", i, player_holder("Shirley"))
    start(t, "IC", "Ima", 100, 0, 6)
    # fill Shirley up to one over the limit with counted certificates
    others = ["ATSF", "FW", "GMO", "SSW", "SP", "TP"]
    need = certificate_limit(st) + 1 - sum(
        1 for c in st.corps.values() for h in c.certs if h == player_holder("Shirley")) \
        - len(st.privates_of(player_holder("Shirley")))
    for corp in others:
        if need <= 0:
            break
        start(t, corp, "Ann", 100, 0, 6)
        for i in range(1, 7):
            if need <= 0:
                break
            give(t, corp, i, player_holder("Shirley"))
            need -= 1
    put(t, {"f": "round_set", "values": {"current": "Shirley"}})
    put(t, {"f": "cash", "from": BANK, "to": player_holder("Shirley"), "amount": 500})
    put(t, {"f": "cash", "from": BANK, "to": player_holder("Dewey"), "amount": 500})
    return t


def test_p15_shirley_and_dewey_price_protection() -> None:
    t = shirley_and_dewey()
    st = t.state
    from pbem.engine.shares import certificate_count, limit_problems

    assert certificate_count(st, "Shirley") == certificate_limit(st) + 1
    t.act("Shirley", "sell", sales=[{"corp": "MP", "count": 1}])
    assert st.zone("MP") == "yellow"  # her three MP shares no longer count
    assert certificate_count(st, "Shirley") == certificate_limit(st) - 3
    t.act("Shirley", "buy_share", corp="IC", source="ipo")
    assert certificate_count(st, "Shirley") == certificate_limit(st) - 2
    # Dewey may protect: he buys the share for $64 and the value stays out of yellow
    offer = st.round["protection"]
    assert offer["president"] == "Dewey" and offer["amount"] == 64
    dewey = t.cash("Dewey")
    t.act("Dewey", "protect", corp="MP")
    assert t.cash("Dewey") == dewey - 64 and t.pct("Dewey", "MP") == 30
    assert st.price("MP") == 64 and st.zone("MP") == "plain"
    assert limit_problems(st, "Shirley")  # out of compliance by one again
    # play resumes to the left of the last protecting president
    assert st.round["current"] == "Ima"


def test_p13_the_priority_card_follows_the_last_protecting_president() -> None:
    """p.13: "Play in the stock round then resumes with the player to the left of the
    last president to purchase shares"; the priority card keeps track of whose turn it
    is (p.10), so when everybody then passes it goes left of him, not left of the seller
    (found by differential testing: the site's last_to_act is the protector)."""
    t = shirley_and_dewey()
    st = t.state
    t.act("Shirley", "sell", sales=[{"corp": "MP", "count": 1}])
    t.act("Shirley", "pass")
    t.act("Dewey", "protect", corp="MP")
    assert st.round["last_actor"] == "Dewey"
    while st.round["kind"] == "stock":
        t.act(st.round["current"], "pass")
    assert st.priority == st.left_of("Dewey")


def test_p13_declined_protection_leaves_the_price_dropped() -> None:
    t = shirley_and_dewey()
    t.act("Shirley", "sell", sales=[{"corp": "MP", "count": 1}])
    t.act("Shirley", "pass")
    t.act("Dewey", "decline")
    assert t.state.price("MP") == 60
    assert t.state.round["current"] == "Dewey"  # left of the seller


def sale_into_the_closing_section() -> Table:
    """P3 sells his one IC share at $10, one box above the closing section; P4 is IC's
    president with $100."""
    t = stock_round()
    second_stock_round(t)
    start(t, "IC", "P4", 68, 7, 0)  # $10
    give(t, "IC", 1, player_holder("P3"))
    put(t, {"f": "round_set", "values": {"current": "P3"}})
    t.act("P3", "sell", sales=[{"corp": "IC", "count": 1}])
    return t


def test_p13_a_sale_into_the_closing_section_may_be_protected() -> None:
    """p.13: "If a company president chooses not to protect the company's share price,
    that company's share value token is moved according to the normal share value token
    movement rules": the token enters the closing section (and the company closes, p.7)
    only then; the president may protect and keep it open (found by differential
    testing: pbem closed it at the sale, the site when protection was declined)."""
    t = sale_into_the_closing_section()
    assert not t.state.corps["IC"].closed
    t.act("P3", "pass")
    t.act("P4", "protect", corp="IC")
    assert not t.state.corps["IC"].closed and t.state.price("IC") == 10


def test_p13_a_declined_sale_into_the_closing_section_closes_the_company() -> None:
    t = sale_into_the_closing_section()
    t.act("P3", "pass")
    t.act("P4", "decline")
    assert t.state.corps["IC"].closed


def test_p13_protection_counts_the_presidents_own_shares_kept_out_of_yellow() -> None:
    """p.6 and p.13: protecting keeps the token out of the yellow section, so the
    president's own certificates of the company count again, with those bought; without
    room for all he is not offered protection (18xx.games: the "over cert limit fails"
    fixture; found by comparing it action by action)."""
    t = shirley_and_dewey()
    st = t.state
    from pbem.engine.shares import certificate_count

    give(t, "MP", 5, player_holder("Dewey"))  # Dewey: MP president + one share
    for corp in ("MKT", "SLSF"):
        if st.corps[corp].par is None:
            start(t, corp, "Ann", 100, 0, 6)
    free = [(c, i) for c in st.corps for i in range(1, 9)
            if st.corps[c].certs[i] == IPO and st.corps[c].par is not None and c != "MP"]
    while certificate_count(st, "Dewey") < certificate_limit(st):  # at the limit
        corp, index = free.pop(0)
        give(t, corp, index, player_holder("Dewey"))
    t.act("Shirley", "sell", sales=[{"corp": "MP", "count": 1}])  # MP into yellow
    t.act("Shirley", "pass")
    # his 2 MP certificates no longer count (2 free), but protecting would count them
    # again with the share bought: one over the limit
    assert st.round["protection"] is None or st.round["protection"]["president"] != "Dewey"
    assert st.price("MP") == 60


def fill_dewey(t: Table, certificates: int) -> None:
    """Give Dewey counted shares of companies other than MP and TP (started by Ann
    where needed) until he holds ``certificates`` toward the limit."""
    from pbem.engine.shares import certificate_count

    st = t.state
    for corp in ("MKT", "SLSF"):
        if st.corps[corp].par is None:
            start(t, corp, "Ann", 100, 0, 6)
    free = [(c, i) for c in st.corps for i in range(1, 9)
            if st.corps[c].certs[i] == IPO and st.corps[c].par is not None
            and c not in ("MP", "TP")]
    while certificate_count(st, "Dewey") < certificates:
        corp, index = free.pop(0)
        give(t, corp, index, player_holder("Dewey"))


def test_p13_certificates_of_a_company_whose_sale_waits_still_count() -> None:
    """p.13: an unprotected company's token "is moved according to the normal share
    value token movement rules" when its president declines; until then it stands in
    its box.  Shirley sells TP, then MP (into the yellow section); offered TP first,
    Dewey (TP's and MP's president, at the limit) still counts his MP certificates:
    no room (18xx.games counts them too, differential 1870 seed 4015; pbem offered him
    TP as if MP's token had already moved)."""
    t = shirley_and_dewey()
    st = t.state
    from pbem.engine.shares import certificate_count

    give(t, "MP", 5, player_holder("Dewey"))  # Dewey: MP president + one share
    start(t, "TP", "Dewey", 100, 0, 6)
    give(t, "TP", 1, player_holder("Shirley"))
    fill_dewey(t, certificate_limit(st))  # at the limit
    t.act("Shirley", "sell", sales=[{"corp": "TP", "count": 1}, {"corp": "MP", "count": 1}])
    assert certificate_count(st, "Dewey") == certificate_limit(st) - 2  # MP in yellow now
    t.act("Shirley", "pass")
    assert not st.round.get("protection")  # neither TP nor MP: no room
    assert st.price("MP") == 60 and st.corps["TP"].certs.count(POOL) == 1


def test_p13_certificates_of_a_company_sold_into_the_closing_section_still_do_not_count(
) -> None:
    """p.6 and p.13: the token of a company whose sale waits for its protection answer
    stands in its box until then: a brown-section company sold into the closing
    section still does not count toward the limit.  Shirley sells MP (Dewey's, at
    $100), then TP (Dewey's, brown $10, into the closing section); Dewey, at the limit
    with his TP certificate uncounted, has room to protect MP (18xx.games offers it,
    differential 1870 seed 7102; pbem counted the TP certificate in the closing
    section and offered him nothing)."""
    t = shirley_and_dewey()
    st = t.state
    from pbem.engine.shares import certificate_count

    at(t, "MP", 0, 6)  # $100: the sale keeps MP's certificates counted
    start(t, "TP", "Dewey", 100, 7, 0)  # $10, brown: not counted
    give(t, "TP", 1, player_holder("Shirley"))
    fill_dewey(t, certificate_limit(st) - 1)  # one free
    t.act("Shirley", "sell", sales=[{"corp": "MP", "count": 1}, {"corp": "TP", "count": 1}])
    assert st.zone("TP") == "closed" and not st.corps["TP"].closed
    t.act("Shirley", "pass")
    assert st.round["protection"]["corp"] == "MP"
    assert st.round["protection"]["president"] == "Dewey"
    t.act("Dewey", "protect", corp="MP")
    # TP, in the closing section until Dewey answers, counts neither (brown before)
    assert certificate_count(st, "Dewey") == certificate_limit(st)
    t.act("Dewey", "decline")  # TP's token enters the closing section
    assert st.corps["TP"].closed


def test_p13_a_sale_nobody_may_protect_no_longer_waits() -> None:
    """p.13: a sale whose president may not protect it (he sold it himself) has its
    token moved at once, before the next president is judged: Shirley sells TP (hers;
    into the yellow section), then MP; Dewey, at the limit with his TP share counted
    before the sale, has room for MP once TP's token has moved (18xx.games offers it,
    differential 1870 seed 9149 of run 7; pbem still counted TP as waiting)."""
    t = shirley_and_dewey()
    st = t.state
    from pbem.engine.shares import certificate_count

    at(t, "MP", 0, 6)  # $100: the sale keeps MP's certificates counted
    start(t, "TP", "Shirley", 68, 4, 4)  # $64, one box above the yellow section
    give(t, "TP", 1, player_holder("Shirley"))
    give(t, "TP", 2, player_holder("Dewey"))
    fill_dewey(t, certificate_limit(st))  # at the limit, his TP share counted
    t.act("Shirley", "sell", sales=[{"corp": "TP", "count": 1}, {"corp": "MP", "count": 1}])
    assert st.zone("TP") == "yellow"
    t.act("Shirley", "pass")
    assert st.round["protection"]["corp"] == "MP"
    t.act("Dewey", "protect", corp="MP")
    assert certificate_count(st, "Dewey") == certificate_limit(st)


def test_p13_president_who_sold_this_round_may_not_protect() -> None:
    t = shirley_and_dewey()
    put(t, {"f": "round_set", "values": {"sold": {"Dewey": ["MP"]}}})
    t.act("Shirley", "sell", sales=[{"corp": "MP", "count": 1}])
    t.act("Shirley", "pass")
    assert not t.state.round.get("protection")
    assert t.state.round["current"] == "Dewey"


def test_p13_option_protect_after_selling() -> None:
    t = shirley_and_dewey()
    put(t, {"f": "round_set", "values": {"sold": {"Dewey": ["MP"]}}})
    t.state.options["protect_after_selling"] = "yes"
    t.act("Shirley", "sell", sales=[{"corp": "MP", "count": 1}])
    t.act("Shirley", "pass")
    assert t.state.round["protection"]["president"] == "Dewey"


def test_p13_protection_needs_cash() -> None:
    t = shirley_and_dewey()
    put(t, {"f": "cash", "from": player_holder("Dewey"), "to": BANK,
            "amount": t.cash("Dewey") - 10})
    t.act("Shirley", "sell", sales=[{"corp": "MP", "count": 1}])
    t.act("Shirley", "pass")
    assert not t.state.round.get("protection")


def test_p13_protection_may_exceed_sixty_percent_while_all_are_kept() -> None:
    t = shirley_and_dewey()
    st = t.state
    from pbem.engine.shares import limit_problems

    give(t, "MP", 5, player_holder("Dewey"))
    give(t, "MP", 6, player_holder("Dewey"))
    give(t, "MP", 7, player_holder("Dewey"))
    give(t, "MP", 8, player_holder("Dewey"))  # Dewey 60%, Shirley 40%
    t.act("Shirley", "sell", sales=[{"corp": "MP", "count": 2}])
    t.act("Shirley", "pass")
    t.act("Dewey", "protect")
    assert t.pct("Dewey", "MP") == 80
    assert not [p for p in limit_problems(st, "Dewey") if "MP" in p]
    # selling one is not enough: he must come down to 60%
    second_stock_round(t)
    put(t, {"f": "round_set", "values": {"current": "Dewey"}})
    message = t.refused("Dewey", "sell", sales=[{"corp": "MP", "count": 1}])
    assert "sell at least 2" in message


def test_p13_new_president_by_the_sale_may_not_protect_it() -> None:
    t = stock_round(["Shirley", "Dewey", "Ima", "Ann"])
    second_stock_round(t)
    start(t, "MP", "Shirley", 100, 0, 6)
    for i in (1, 2, 3):
        give(t, "MP", i, player_holder("Dewey"))
    put(t, {"f": "round_set", "values": {"current": "Shirley"}})
    t.act("Shirley", "sell", sales=[{"corp": "MP", "count": 2}])
    assert t.state.president("MP") == "Dewey"
    t.act("Shirley", "pass")
    assert not t.state.round.get("protection")


# -- redemption and reissue (p.17-18) ---------------------------------------------------


def company_with_pool_share() -> Table:
    t = stock_round()
    second_stock_round(t)
    st = t.state
    start(t, "IC", "P3", 100, 0, 6)
    for i in (1, 2, 3):
        give(t, "IC", i, player_holder("P4"))
    for i in (4, 5, 6):
        give(t, "IC", i, player_holder("P1"))
    give(t, "IC", 7, POOL)
    put(t, {"f": "cash", "from": BANK, "to": corp_holder("IC"), "amount": 1000})
    assert st.round["current"] == "P3"
    return t


def test_p17_redeem_from_the_open_market_at_market_price() -> None:
    t = company_with_pool_share()
    st = t.state
    price = st.price("IC")
    assert price is not None
    t.act("P3", "redeem", corp="IC", **{"from": None})
    assert st.corps["IC"].certs[7] == corp_holder("IC")
    assert st.corps["IC"].cash == 1000 - price and st.price("IC") == price
    assert st.round["current"] == "P4"  # the redemption is the whole turn


def test_p17_redemption_limits() -> None:
    t = company_with_pool_share()
    st = t.state
    assert "open market" in t.refused("P3", "redeem", corp="IC", **{"from": "P4"})
    put(t, {"f": "corp", "corp": "IC", "values": {"operated": False}})
    assert "operated" in t.refused("P3", "redeem", corp="IC", **{"from": None})
    put(t, {"f": "corp", "corp": "IC", "values": {"operated": True}})
    t.act("P3", "redeem", corp="IC", **{"from": None})
    put(t, {"f": "round_set", "values": {"current": "P3"}})
    assert "already redeemed" in t.refused("P3", "redeem", corp="IC", **{"from": "P4"})
    # a new stock round: redeem from a player, who may decline
    second_stock_round(t)
    put(t, {"f": "round_set", "values": {"current": "P3"}})
    t.act("P3", "redeem", corp="IC", **{"from": "P4"})
    t.act("P4", "decline")
    assert t.pct("P4", "IC") == 30 and st.round["current"] == "P3"
    t.act("P3", "redeem", corp="IC", **{"from": "P4"})
    t.act("P4", "accept")
    assert t.pct("P4", "IC") == 20
    # six shares must remain with the players and the open market: now 2+2+3 = 7
    second_stock_round(t)
    put(t, {"f": "round_set", "values": {"current": "P3"}})
    t.act("P3", "redeem", corp="IC", **{"from": "P4"})
    t.act("P4", "accept")
    second_stock_round(t)
    put(t, {"f": "round_set", "values": {"current": "P3"}})
    assert "fewer than 6" in t.refused("P3", "redeem", corp="IC", **{"from": "P1"})


def test_p17_redemption_may_not_change_the_presidency() -> None:
    t = company_with_pool_share()
    give(t, "IC", 7, player_holder("P3"))  # P3 20% + 10%, P4 30%
    message = t.refused("P3", "redeem", corp="IC", **{"from": "P3"})
    assert "presidency" in message


def test_p18_reissue_all_at_new_par_money_frozen_until_next_or() -> None:
    t = company_with_pool_share()
    st = t.state
    t.act("P3", "redeem", corp="IC", **{"from": None})
    at(t, "IC", 0, 12)  # $200
    second_stock_round(t)
    put(t, {"f": "round_set", "values": {"current": "P3"}})
    give(t, "IC", 8, POOL)  # the last IPO share leaves the initial offering
    assert not [h for h in st.corps["IC"].certs[1:] if h == IPO]
    t.act("P3", "reissue", corp="IC")
    assert st.corps["IC"].par == 140  # the rulebook's table: $200 -> $140
    assert st.corps["IC"].certs[7] == IPO
    cash = st.corps["IC"].cash
    buyer = st.round["current"]
    t.act(buyer, "buy_share", corp="IC", source="ipo")
    assert st.corps["IC"].cash == cash + 140 and st.corps["IC"].frozen == 140
    from pbem.engine.titles.t1870.redemption import usable_cash

    assert usable_cash(st, "IC") == cash


def test_p18_reissue_par_option_nearest_up() -> None:
    t = company_with_pool_share()
    t.state.options["reissue_par"] = "nearest-up"
    from pbem.engine.titles.t1870.redemption import new_par

    at(t, "IC", 0, 12)
    assert new_par(t.state, "IC") == 160
    at(t, "IC", 0, 18)  # $350
    assert new_par(t.state, "IC") == 275
    t.state.options["reissue_par"] = "table"
    assert new_par(t.state, "IC") == 250


def test_p18_reissue_par_nearest_up_may_be_200_for_a_value_above_266() -> None:
    """D4, 18xx.games: the top-row price nearest 75% of the value, among all of them: at
    $275 (75%: $206) the nearest is $200, not the next price above $200 (found by
    differential testing)."""
    t = company_with_pool_share()
    t.state.options["reissue_par"] = "nearest-up"
    from pbem.engine.titles.t1870.redemption import new_par

    at(t, "IC", 0, 15)  # $275
    assert new_par(t.state, "IC") == 200
    at(t, "IC", 0, 16)  # $300: 225 exactly
    assert new_par(t.state, "IC") == 225
    t.state.options["reissue_max"] = "200"
    assert new_par(t.state, "IC") == 200


def test_p18_reissue_refused_with_shares_in_the_initial_offering() -> None:
    t = company_with_pool_share()
    st = t.state
    put(t, {"f": "cert", "corp": "IC", "index": 7, "to": corp_holder("IC")})
    assert IPO in st.corps["IC"].certs
    assert "initial offering" in t.refused("P3", "reissue", corp="IC")


def test_p13_private_bought_from_another_player_in_a_stock_round() -> None:
    t = stock_round()
    second_stock_round(t)
    put(t, {"f": "phase", "name": "1"})
    who = t.state.round["current"]
    seller = next(n for n in t.state.names if n != who and t.privates(n))
    sym = t.privates(seller)[0]
    t.act(who, "buy_private", private=sym, **{"from": seller}, price=1)
    t.act(seller, "accept")
    assert sym in t.privates(who)


def test_p12_a_private_bought_from_a_player_is_the_turns_purchase() -> None:
    """Buying Shares, p.12: "A player may purchase a private company from another player
    instead of a share certificate": in his own turn, and no share after it (pbem let the
    seller offer it and the buyer buy a share too; found by differential testing)."""
    t = stock_round()
    second_stock_round(t)
    assert t.state.round["current"] == "P3"
    assert "in the buyer's own turn" in t.refused("P3", "sell_private", private="SCC", to="P1",
                                          price=1)
    t.act("P3", "buy_private", private="GRSC", **{"from": "P1"}, price=1)
    t.act("P1", "accept")
    assert "GRSC" in t.privates("P3")
    assert t.state.round["current"] == "P4"  # nothing to sell: the purchase ended the turn


def brown_ic_in_the_pool() -> Table:
    """Option private_trade=site, stock round 2: the IC at $20 (brown zone) with two
    shares in the pool, P3 holding one."""
    t = stock_round(private_trade="site")
    second_stock_round(t)
    start(t, "IC", "P4", 68, 9, 3)  # $20: brown, several shares at once
    for index in (1, 2):
        give(t, "IC", index, POOL)
    give(t, "IC", 3, player_holder("P3"))
    return t


def test_p12_option_private_trade_site_no_sale_after_private_and_share() -> None:
    """Option private_trade=site: 18xx.games counts a private company and a share bought
    in one turn as the two kinds of action of a buy-sell turn, so no sale follows."""
    t = brown_ic_in_the_pool()
    t.act("P3", "buy_private", private="GRSC", **{"from": "P1"}, price=1)
    t.act("P1", "accept")
    t.act("P3", "buy_share", corp="IC", source="pool", count=1)
    assert t.state.round["current"] != "P3"  # no sale left: the turn is over


def test_p12_option_private_trade_site_sale_after_private_sale_and_share() -> None:
    """Option private_trade=site: a private company, a sale and a share are three kinds
    of action for 18xx.games, which then still offers a sale (found by differential
    testing: 1870 seed 1)."""
    t = brown_ic_in_the_pool()
    start(t, "MKT", "P2", 68, 9, 3)
    give(t, "MKT", 1, player_holder("P3"))
    t.act("P3", "buy_private", private="GRSC", **{"from": "P1"}, price=1)
    t.act("P1", "accept")
    t.act("P3", "sell", sales=[{"corp": "MKT", "count": 1}])
    t.act("P3", "buy_share", corp="IC", source="pool", count=1)
    assert t.state.round["current"] == "P3"
    assert any(m["action"]["type"] == "sell" for m in legal_moves(t.state)["P3"])


def test_p12_option_private_trade_site_not_in_phase_1() -> None:
    """Option private_trade=site: 18xx.games offers no private company between players
    in phase 1."""
    t = stock_round(private_trade="site")
    second_stock_round(t)
    put(t, {"f": "phase", "name": "1"})
    who = t.state.round["current"]
    seller = next(n for n in t.state.names if n != who and t.privates(n))
    assert "from phase 2" in t.refused(who, "buy_private", private=t.privates(seller)[0],
                                       **{"from": seller}, price=1)


def test_p25_variant_1850_market_is_the_games_market() -> None:
    """Variants, p.25: with market=1850 the $60 boxes of columns six and seven are white
    and the $40 box of the first column green, in the game itself."""
    plain, old = table(), table(market="1850")
    assert plain.state.rules.market.cell(1, 5) is not None
    cells = old.state.rules.market.cells
    sixty = [c for c in cells.values() if c.price == 60 and c.col in (5, 6)]
    assert sixty and all(c.zone == "plain" for c in sixty)
    assert [c.zone for c in cells.values() if c.price == 40 and c.col == 0] == ["green"]
    assert any(c.zone == "yellow" for c in plain.state.rules.market.cells.values()
               if c.price == 60 and c.col in (5, 6))


def test_p7_p14_certificates_sold_into_the_closing_section_do_not_count() -> None:
    """Share and Certificate Limits, p.6; Closing Section, p.7; the Shirley Sneaky
    example, p.14 (the seller counts by the box his sale took the token to): P3 sells
    one of his three IC shares at $10 (brown, not counted) into the closing section.
    IC closes unless its president protects it, and then its certificates are removed:
    his two left do not count meanwhile, as they did not before (found by differential
    testing, 1870 seed 30139 of run 8: the site let Ben buy a share there, pbem counted
    his FW certificates and refused)."""
    t = stock_round()
    second_stock_round(t)
    start(t, "IC", "P4", 68, 7, 0)  # $10
    for index in (1, 2, 3):
        give(t, "IC", index, player_holder("P3"))
    put(t, {"f": "round_set", "values": {"current": "P3"}})
    before = certificate_count(t.state, "P3")
    t.act("P3", "sell", sales=[{"corp": "IC", "count": 1}])
    assert not t.state.corps["IC"].closed and t.state.zone("IC") == "closed"
    assert certificate_count(t.state, "P3") == before
