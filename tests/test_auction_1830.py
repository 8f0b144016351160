"""The initial purchase of private companies, 1830 rules 1.2 and C-2.2."""

from __future__ import annotations

from enginehelp import Table

PLAYERS = ["Gerald", "Dave", "Bruce", "Alex"]


def book_example() -> Table:
    t = Table(PLAYERS)
    t.act("Gerald", "bid", private="CA", amount=165)
    t.act("Dave", "bid", private="BO", amount=225)
    t.act("Bruce", "bid", private="DH", amount=75)
    t.act("Alex", "bid", private="CA", amount=170)
    t.act("Gerald", "bid", private="DH", amount=80)
    t.act("Dave", "buy_private")
    t.act("Bruce", "pass")
    t.act("Alex", "buy_private", private="CS")
    t.act("Bruce", "bid", private=None, amount=85)
    t.act("Gerald", "bid", private=None, amount=90)
    t.act("Bruce", "bid", private=None, amount=95)
    t.act("Gerald", "pass")
    t.act("Gerald", "buy_private")
    t.act("Gerald", "bid", private=None, amount=175)
    t.act("Alex", "bid", private=None, amount=200)
    t.act("Gerald", "bid", private=None, amount=207)
    t.act("Alex", "bid", private=None, amount=212)
    t.act("Gerald", "pass")
    t.act("Dave", "par", corp="B&O", price=100)
    return t


def test_1_2_book_example_ends_with_the_printed_holdings() -> None:
    t = book_example()
    assert (t.cash("Gerald"), t.privates("Gerald")) == (490, ["MH"])
    assert (t.cash("Dave"), sorted(t.privates("Dave"))) == (355, ["BO", "SV"])
    assert (t.cash("Bruce"), t.privates("Bruce")) == (505, ["DH"])
    assert (t.cash("Alex"), sorted(t.privates("Alex"))) == (348, ["CA", "CS"])
    assert t.pct("Alex", "PRR") == 10
    assert t.pct("Dave", "B&O") == 20
    assert t.state.priority == "Dave"
    assert t.state.round["kind"] == "stock" and t.state.round["current"] == "Dave"


def test_1_2_buying_the_cheapest_moves_priority_to_the_left() -> None:
    t = Table(PLAYERS)
    t.act("Gerald", "buy_private")
    assert t.state.priority == "Dave"
    assert t.privates("Gerald") == ["SV"] and t.cash("Gerald") == 580


def test_1_2_only_the_cheapest_can_be_bought() -> None:
    t = Table(PLAYERS)
    message = t.refused("Gerald", "buy_private", private="DH")
    assert "cheapest" in message and "SV" in message


def test_1_2_1_bid_must_exceed_face_value_by_5() -> None:
    t = Table(PLAYERS)
    assert "minimum bid for CS is $45" in t.refused("Gerald", "bid", private="CS", amount=44)
    t.act("Gerald", "bid", private="CS", amount=45)
    assert "$50" in t.refused("Dave", "bid", private="CS", amount=49)


def test_1_2_1_no_bid_on_the_cheapest() -> None:
    t = Table(PLAYERS)
    assert "buy it" in t.refused("Gerald", "bid", private="SV", amount=25)


def test_1_2_1_bid_money_is_set_aside() -> None:
    t = Table(PLAYERS)
    t.act("Gerald", "bid", private="BO", amount=500)
    t.act("Dave", "pass")
    t.act("Bruce", "pass")
    t.act("Alex", "pass")
    assert "$100 not set aside" in t.refused("Gerald", "bid", private="CA", amount=165)
    # raising a bid on the same company reuses the money set aside for it
    t.act("Gerald", "bid", private="BO", amount=600)


def test_1_2_wrong_player_is_refused() -> None:
    t = Table(PLAYERS)
    assert "Gerald's turn" in t.refused("Dave", "buy_private")


def test_1_2_2_single_bidder_buys_at_bid_and_priority_stays() -> None:
    t = Table(PLAYERS)
    t.act("Gerald", "bid", private="CS", amount=50)
    t.act("Dave", "buy_private")  # SV; priority to Bruce; CS resolved: Gerald buys for $50
    assert t.privates("Gerald") == ["CS"] and t.cash("Gerald") == 550
    assert t.state.priority == "Bruce" and t.state.round["current"] == "Bruce"


def test_1_2_2_auction_lowest_bidder_starts_and_passer_may_return() -> None:
    t = Table(PLAYERS)
    t.act("Gerald", "bid", private="CS", amount=45)
    t.act("Dave", "bid", private="CS", amount=50)
    t.act("Bruce", "bid", private="CS", amount=55)
    t.act("Alex", "buy_private")  # SV sold: CS auction among Gerald, Dave, Bruce
    auction = t.state.round["auction"]
    assert auction["current"] == "Gerald" and auction["leader"] == "Bruce"
    t.act("Gerald", "pass")
    t.act("Dave", "bid", amount=60, private=None)
    # Bruce is no longer leading and must answer; Gerald may come back in
    t.act("Bruce", "pass")
    t.act("Gerald", "bid", amount=65, private=None)
    t.act("Dave", "pass")
    t.act("Bruce", "pass")
    assert t.privates("Gerald") == ["CS"] and t.cash("Gerald") == 535
    assert t.state.priority == "Gerald"  # to the left of Alex, unchanged by the auction


def test_1_2_2_auction_raise_at_least_5() -> None:
    t = Table(PLAYERS)
    t.act("Gerald", "bid", private="CS", amount=45)
    t.act("Dave", "bid", private="CS", amount=50)
    t.act("Bruce", "buy_private")
    assert "$55" in t.refused("Gerald", "bid", private=None, amount=54)
    assert "waits for Gerald" in t.refused("Dave", "bid", private=None, amount=60)


def test_1_2_3_all_pass_sv_price_drops_by_5() -> None:
    t = Table(PLAYERS)
    for name in PLAYERS:
        t.act(name, "pass")
    assert t.state.privates["SV"].price == 15
    assert t.state.round["current"] == "Gerald"


def test_1_2_3_sv_at_zero_must_be_taken() -> None:
    t = Table(PLAYERS)
    for _ in range(4):
        for name in PLAYERS:
            t.act(name, "pass")
    assert t.state.privates["SV"].price == 0
    assert "must take it" in t.refused("Gerald", "pass")
    t.act("Gerald", "buy_private")
    assert t.privates("Gerald") == ["SV"] and t.cash("Gerald") == 600
    assert t.state.priority == "Dave"


def test_1_2_3_all_pass_after_sv_sold_privates_pay_revenue() -> None:
    t = Table(PLAYERS)
    t.act("Gerald", "buy_private")
    for name in ["Dave", "Bruce", "Alex", "Gerald"]:
        t.act(name, "pass")
    assert t.cash("Gerald") == 600 - 20 + 5
    assert t.state.round["current"] == t.state.priority == "Dave"


def all_pass_after_a_bid(**options: str) -> Table:
    """Gerald buys the SV (Dave gets the priority deal card); Dave bids on the CA; then
    Bruce, Alex, Gerald and Dave pass."""
    t = Table(PLAYERS, **options)
    t.act("Gerald", "buy_private")
    t.act("Dave", "bid", private="CA", amount=165)
    for name in ["Bruce", "Alex", "Gerald", "Dave"]:
        t.act(name, "pass")
    return t


def test_1_2_3_after_everybody_passed_the_priority_holder_goes_on() -> None:
    """1.2.3: "Then the buy-bid-turn sequence resumes with the player with the priority
    deal card"."""
    t = all_pass_after_a_bid()
    assert t.state.priority == "Dave" and t.state.round["current"] == "Dave"


def test_1_2_3_option_auction_resume_next_as_on_18xx_games() -> None:
    """Option auction_resume=next (18xx.games' WaterfallAuction: the turn goes on to the
    player after the last to pass; found by differential testing)."""
    t = all_pass_after_a_bid(auction_resume="next")
    assert t.state.round["current"] == "Bruce"


def test_ca_gives_a_free_prr_share() -> None:
    t = Table(["A", "B"])
    for _ in range(4):  # A: SV, B: CS, A: DH, B: MH
        t.act(t.current, "buy_private")
    assert t.pct("A", "PRR") == 0
    t.act("A", "buy_private")  # CA
    assert t.pct("A", "PRR") == 10
    assert t.state.corps["PRR"].certs[1] == "p:A"  # the first non-president certificate


def test_bo_owner_sets_par_before_anything_else() -> None:
    t = Table(["A", "B"])
    for _ in range(6):
        t.act(t.current, "buy_private")
    owner = t.state.round["pending_par"]["player"]
    assert t.pct(owner, "B&O") == 20
    other = "A" if owner == "B" else "B"
    assert "must first set the par value of B&O" in t.refused(other, "pass")
    assert "not a par value" in t.refused(owner, "par", corp="B&O", price=80)
    t.act(owner, "par", corp="B&O", price=90)
    assert t.state.corps["B&O"].par == 90 and t.cash(owner) == 1200 - sum(
        [20, 70, 160][i] if owner == "A" else [40, 110, 220][i] for i in range(3))
    assert t.state.round["kind"] == "stock"
