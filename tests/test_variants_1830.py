"""The variants of the German 1830 rulebook (V-0 to V-8) as game options: for each, the
same position played with and without it, and the difference it makes.  Tests are named
after the variant's number in the book (V-5.1: test_v5_1_...); docs/options.md lists
every option with its rule and default, and the readings taken where the book is
unclear."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_driver import Cli
from enginehelp import Table, first_operating_round, give_cash, give_train
from moderation_table import ModTable

from pbem.engine.board import hexes
from pbem.engine.board.track import closed_lay_ok
from pbem.engine.context import Ctx
from pbem.engine.errors import SetupError
from pbem.engine.game import apply_facts, new_game, to_act
from pbem.engine.ortrack import fitting, terrain_cost
from pbem.engine.registry import book
from pbem.engine.shares import certificate_count, certificate_limit
from pbem.engine.state import corp_holder, player_holder
from pbem.engine.title import load_title
from pbem.engine.trains import bank_offers, left_in_bank
from pbem.notation import format_action, parse_commands
from pbem.render.prompt import prompt_text
from pbem.service import parse_context

# -- positions -------------------------------------------------------------------------------


def second_stock_round(**options: str) -> Table:
    """Stock round 2 of the 4-player game of enginehelp.first_operating_round (PRR: A
    50%, B 10%; C&O: C 60%; NYC: B 50%; B&O: D 50%), D to act first.  The PRR token is
    put on $90 (row 2, column 7) so that every box down shows in the price."""
    t = first_operating_round(**options)
    while t.state.round["kind"] == "operating":
        t.act(t.current, "pass")
    assert t.state.round["number"] == 2 and t.current == "D"
    t.state.corps["PRR"].cell = (2, 7)
    return t


def turn_of(t: Table, who: str) -> None:
    """Everybody before ``who`` passes."""
    while t.current != who:
        t.act(t.current, "pass")


def prr_runs_for(t: Table, revenue_hex: str = "H10") -> None:
    """PRR (A) with a 2-train and track H10-H12: a $30 run, ready to pay."""
    give_train(t, "PRR", "2")
    t.act("A", "lay", tile="57", hex=revenue_hex, exits=None)
    t.act("A", "run", routes=None)


# -- V-1.3 bank size ---------------------------------------------------------------------------


@pytest.mark.parametrize(("bank", "left"), [("12000", 9600), ("4500", 2100), ("20000", 17600)])
def test_v1_3_bank_size(bank: str, left: int) -> None:
    """Full money $12,000 (★), a short game $4,500, a long game $20,000: the bank holds
    that less the players' $2,400."""
    state = new_game("1830", ["A", "B", "C", "D"], 1, {"bank": bank})
    assert state.bank == left and sum(p.cash for p in state.players) == 2400


# -- V-5.3 higher certificate limits ---------------------------------------------------------


def test_v5_3_higher_certificate_limits() -> None:
    """The 1830+ limits (V-5.3): 18 instead of 16 certificates for four players; a
    player at 16 may buy one more."""
    plain, higher = second_stock_round(), second_stock_round(certificate_limit="higher")
    for t in (plain, higher):
        state = t.state
        spare = [(corp, i) for corp in ("ERIE", "CPR") for i in range(1, 7)]
        for corp in ("ERIE", "CPR"):
            state.corps[corp].par, state.corps[corp].cell = 67, (5, 6)
        while certificate_count(state, "D") < 16:
            corp, i = spare.pop()
            state.corps[corp].certs[i] = player_holder("D")
    assert certificate_limit(plain.state) == 16 and certificate_limit(higher.state) == 18
    assert "the limit is 16" in plain.refused("D", "buy_share", corp="PRR", source=None, count=1)
    higher.act("D", "buy_share", corp="PRR", source=None, count=1)


# -- V-5.1 price drops ---------------------------------------------------------------------------


def a_sells_two_prr(**options: str) -> tuple[int, int]:
    """A sells two PRR shares in stock round 2: (A's money received, PRR's row after)."""
    t = second_stock_round(**options)
    turn_of(t, "A")
    before = t.cash("A")
    t.act("A", "sell", sales=[{"corp": "PRR", "count": 2}])
    cell = t.state.corps["PRR"].cell
    assert cell is not None
    return t.cash("A") - before, cell[0]


def test_v5_1_standard_one_box_per_share() -> None:
    assert a_sells_two_prr() == (180, 4)  # $90 each, two boxes down to $76


def test_v5_1_one_box_per_sale() -> None:
    assert a_sells_two_prr(price_drop="per-sale") == (180, 3)  # one box, $82


def test_v5_1_one_box_per_sale_for_shareholders_per_share_for_the_president() -> None:
    """A is PRR's president: two boxes; B, a shareholder, sells one share and C&O's C..."""
    assert a_sells_two_prr(price_drop="per-sale-shareholders") == (180, 4)
    t = second_stock_round(price_drop="per-sale-shareholders")
    t.state.corps["PRR"].certs[5] = player_holder("B")  # B: 20% of PRR, not president
    turn_of(t, "B")
    t.act("B", "sell", sales=[{"corp": "PRR", "count": 2}])
    assert t.state.corps["PRR"].cell == (3, 7)  # one box for the shareholder's sale


def test_v5_1_stock_market_reform_after_the_last_5_train() -> None:
    """Before the last 5-train: one box per share; from the stock round after it was
    bought: one box per sale."""
    assert a_sells_two_prr(price_drop="reform") == (180, 4)
    t = first_operating_round(price_drop="reform")
    state = t.state
    state.trains_sold.update({"2": 6, "3": 5, "4": 4, "5": 2})
    state.phase = "5"
    give_cash(t, "c:PRR", 450)
    t.act("A", "buy_train", train="5", source="bank", price=None, trade=None)  # the last
    assert state.notes["market_reform_from"] == 2
    while state.round["kind"] == "operating":
        t.act(t.current, "pass")
    state.corps["PRR"].cell = (2, 7)
    turn_of(t, "A")
    t.act("A", "sell", sales=[{"corp": "PRR", "count": 2}])
    assert state.corps["PRR"].cell == (3, 7)


# -- V-6.2 one share at a time --------------------------------------------------------------


def test_v6_2_shares_sold_one_at_a_time_get_the_dropped_price() -> None:
    """In a block both shares fetch $90; one at a time the second fetches $82 (the price
    after the first sale)."""
    assert a_sells_two_prr() == (180, 4)
    assert a_sells_two_prr(share_sales="one-at-a-time") == (90 + 82, 4)


# -- V-5.2 price rise tied to the dividend -----------------------------------------------------


@pytest.mark.parametrize(("rule", "price"), [("always", 71), ("at-least-price", 67)])
def test_v5_2_price_rises_only_with_a_dividend_at_least_the_share_value(rule: str,
                                                                       price: int) -> None:
    """PRR at $67 pays out $30: right to $71, or, tied to the dividend, it stays."""
    t = first_operating_round(dividend_rise=rule)
    prr_runs_for(t)
    t.act("A", "payout")
    assert t.state.price("PRR") == price


def test_v5_2_a_dividend_equal_to_the_share_value_moves_it() -> None:
    t = first_operating_round(dividend_rise="at-least-price")
    prr_runs_for(t)
    t.state.corps["PRR"].cell = (0, 0)  # $60
    t.state.round["turn"]["run"]["revenue"] = 60
    t.act("A", "payout")
    assert t.state.price("PRR") == 67


# -- V-6.4 private companies bought and sold in the same stock round ---------------------------


def private_sold_twice(**options: str) -> Table:
    """In stock round 2, B sells CA to C; then C offers it to D in C's own turn."""
    t = second_stock_round(**options)
    turn_of(t, "B")
    t.act("B", "sell_private", private="CA", to="C", price=100)
    t.act("C", "accept")
    t.act("B", "pass")
    assert t.current == "C" and sorted(t.privates("C")) == ["CA", "DH"]
    return t


def test_v6_4_restricted_private_trading_is_the_default() -> None:
    t = private_sold_twice()
    message = t.refused("C", "sell_private", private="CA", to="D", price=50)
    assert "bought in this stock round" in message
    t.act("C", "sell_private", private="DH", to="D", price=70)  # one held before: may


def test_v6_4_unrestricted_private_trading() -> None:
    t = private_sold_twice(private_resale="free")
    t.act("C", "sell_private", private="CA", to="D", price=50)
    t.act("D", "accept")
    assert sorted(t.privates("D")) == ["BO", "CA"]


def test_v6_4_restriction_lasts_one_stock_round() -> None:
    t = private_sold_twice()
    for _ in range(8):
        if t.state.round["kind"] != "stock":
            break
        t.act(t.current, "pass")
    while t.state.round["kind"] == "operating":
        t.act(t.current, "pass")
    assert t.state.round["number"] == 3
    turn_of(t, "C")
    t.act("C", "sell_private", private="CA", to="D", price=50)


def test_v6_4_stored_games_keep_the_reading_they_were_played_with() -> None:
    """A game recorded before the option existed did not forbid it: it is read with
    private_resale=free, so its commands decide what they decided then."""
    title = load_title("1830")
    old = {k: v for k, v in title.resolve_options({}).items() if k != "private_resale"}
    assert title.options_as_recorded(old)["private_resale"] == "free"
    assert title.resolve_options({})["private_resale"] == "restricted"


# -- V-7.1 split revenue ------------------------------------------------------------------------


def test_v7_1_split_revenue() -> None:
    """PRR runs $30: split, it keeps $20 (half rounded up to $10) and pays $1 per share;
    its share value stays.  Without the option there is no split."""
    plain = first_operating_round()
    prr_runs_for(plain)
    assert "no half dividend" in plain.refused("A", "half")
    t = first_operating_round(split_revenue="yes")
    prr_runs_for(t)
    a, b = t.cash("A"), t.cash("B")
    cash = t.state.corps["PRR"].cash
    t.act("A", "half")
    assert t.state.corps["PRR"].cash == cash + 20
    assert t.cash("A") == a + 5 and t.cash("B") == b + 1 and t.state.price("PRR") == 67


# -- V-8.0 the game ends at the top of the market -----------------------------------------------


def prr_reaches_350(**options: str) -> Table:
    t = first_operating_round(**options)
    prr_runs_for(t)
    t.state.corps["PRR"].cell = (0, 17)  # $325
    t.act("A", "payout")
    assert t.state.price("PRR") == 350
    return t


def test_v8_0_game_ends_after_the_turn_of_the_company_at_the_top() -> None:
    t = prr_reaches_350(game_end="bank-or-top")
    assert not t.state.finished
    t.act("A", "pass")
    assert t.state.finished and t.result["reason"] == "stock_market"


def test_v8_0_standard_end_goes_on() -> None:
    t = prr_reaches_350()
    t.act("A", "pass")
    assert not t.state.finished and t.state.round["current"] == "C&O"


def test_v8_0_top_reached_in_the_stock_round_ends_it() -> None:
    t = second_stock_round(game_end="bank-or-top")
    state = t.state
    for i, holder in enumerate(state.corps["C&O"].certs):
        if holder == "ipo":
            state.corps["C&O"].certs[i] = player_holder("D")  # sold out: rises at the end
    state.corps["C&O"].cell = (1, 18)  # $300, under $350
    t.pass_all()
    assert t.state.finished and t.result["reason"] == "stock_market"


# -- options together ---------------------------------------------------------------------------


def test_unknown_choices_are_refused_with_what_is_allowed() -> None:
    with pytest.raises(SetupError, match="may be per-share, per-sale"):
        new_game("1830", ["A", "B", "C"], 1, {"price_drop": "two"})


# -- the documentation -----------------------------------------------------------------------


def test_docs_list_every_option_with_its_rule_and_default() -> None:
    """docs/options.md: every 1830 option in one line with its default and, where the
    rulebook has it, its rule."""
    docs = (Path(__file__).parent.parent / "docs" / "options.md").read_text(encoding="utf-8")
    lines = {line.split("|")[1].strip(" `"): line for line in docs.splitlines()
             if line.startswith("| `")}
    for key, opt in load_title("1830").options.items():
        assert key in lines, f"docs/options.md does not list option {key}"
        assert f"| `{opt.default}` |" in lines[key], key
        if opt.rule:
            assert opt.rule in lines[key], f"{key}: the docs do not cite {opt.rule}"


def test_show_names_the_options(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "games.db")
    plain = cli.ok("new", "1830", "--player", "A:a@x.org", "--player", "B:b@x.org").strip()
    assert "Options: none" in cli.ok("show", plain)
    game = cli.new("Ann", "Ben", "Cat", price_drop="per-sale", bank="4500")
    text = cli.ok("show", str(game))
    assert "- bank=4500 (V-1.3): money in the bank" in text
    assert "- price_drop=per-sale (V-5.1)" in text
    assert cli.show(game)["options"]["price_drop"] == "per-sale"
    refused = cli.run("new", "1830", "--player", "A:a@x.org", "--player", "B:b@x.org",
                      "--option", "privates=groups", "--option", "auction_order=lowest-bid")
    assert refused.exit_code != 0 and "cannot be played together" in refused.stderr


def test_export_to_18xx_games_refuses_the_options_the_site_lacks(tmp_path: Path) -> None:
    """The same opening with and without two variants the site does not have: the log is
    written without them, refused with them (naming them and their rules); options that
    decide nothing (seating, visibility, undo) and the site's optional rules export."""
    cli = Cli(tmp_path / "games.db")
    plain = cli.new("Ann", "Ben", "Cat", six_trains="3", undo="consent",
                    visibility="player-cash-hidden")
    variants = cli.new("Ann", "Ben", "Cat", split_revenue="yes", bidding="free-for-all")
    for game in (plain, variants):
        cli.act(game, "Ann", "buy SV")
    log = json.loads(cli.ok("export", str(plain), "--format", "18xx"))
    assert log["settings"]["optional_rules"] == ["optional_6_train"]
    refusal = " ".join(cli.refused("export", str(variants), "--format", "18xx").split())
    assert ("This game is played with options 18xx.games does not have: bidding=free-for-all "
            "(V-1.8), split_revenue=yes (V-7.1).") in refusal


# -- V-1.7 trains, 3.0 indestructible 4-trains ---------------------------------------------------


def trains_left(**options: str) -> dict[str, int | None]:
    state = new_game("1830", ["A", "B", "C"], 1, options)
    return {t.name: left_in_bank(state, t) for t in state.rules.trains}


def test_v1_7_number_of_6_trains_and_diesels() -> None:
    assert trains_left()["6"] == 2 and trains_left(six_trains="3")["6"] == 3
    assert trains_left()["D"] == 6 and trains_left(diesels="unlimited")["D"] is None


def test_v1_7_no_diesels_and_3_0_the_4_trains_never_rust() -> None:
    """With the 6-trains sold the bank offers diesels; without diesels it offers
    nothing, and no diesel ever makes the 4-trains obsolete."""
    plain, without = new_game("1830", ["A", "B"], 1, {}), \
        new_game("1830", ["A", "B"], 1, {"diesels": "none"})
    for state in (plain, without):
        state.trains_sold.update({"2": 6, "3": 5, "4": 4, "5": 3, "6": 2})
    assert [t.name for t in bank_offers(plain)] == ["D"]
    assert bank_offers(without) == [] and trains_left(diesels="none")["D"] == 0


# -- 2.0 the operating order ---------------------------------------------------------------------


def nyc_overtakes_during_prr_turn(**options: str) -> Table:
    """Operating round 2.1: PRR ($90), C&O ($65), NYC ($55) operate in that order; while
    PRR operates NYC's share value goes to $100 (as a forced sale could make it)."""
    t = second_stock_round(**options)
    nyc = t.state.corps["NYC"]
    nyc.floated, nyc.funded, nyc.cell = True, True, (4, 3)
    t.pass_all()
    assert t.state.round["current"] == "PRR"
    nyc.cell = (0, 6)
    t.act("A", "pass")
    return t


def test_2_0_variable_operating_order_follows_the_share_values() -> None:
    assert nyc_overtakes_during_prr_turn().state.round["current"] == "NYC"


def test_2_0_fixed_operating_order() -> None:
    t = nyc_overtakes_during_prr_turn(operating_order="fixed")
    assert t.state.round["current"] == "C&O"
    t.act("C", "pass")
    assert t.state.round["current"] == "NYC"


# -- 3.0 delayed buy-in of private companies -------------------------------------------------------


def prr_buys_the_first_3_train(**options: str) -> Table:
    t = first_operating_round(**options)
    t.state.trains_sold["2"] = 6
    t.act("A", "buy_train", train="3", source="bank", price=None, trade=None)
    assert t.state.phase == "3"
    return t


def test_3_0_privates_buyable_at_once() -> None:
    t = prr_buys_the_first_3_train()
    t.act("A", "buy_private", private="SV", **{"from": "A"}, price=20)
    assert t.state.privates["SV"].owner == "c:PRR"


def test_3_0_delayed_private_buy_in() -> None:
    t = prr_buys_the_first_3_train(private_buy_in="next-round")
    message = t.refused("A", "buy_private", private="SV", **{"from": "A"}, price=20)
    assert "next operating round" in message
    while t.state.round["kind"] != "stock":
        t.act(t.current, "pass")
    while t.state.round["kind"] != "operating" or t.state.round["current"] != "PRR":
        t.act(t.current, "pass")
    t.act("A", "buy_private", private="SV", **{"from": "A"}, price=20)


# -- V-7.7 train limit and the only train ------------------------------------------------------


def prr_at_its_limit(**options: str) -> Table:
    t = first_operating_round(**options)
    for _ in range(4):
        give_train(t, "PRR", "2")
    return t


def test_v7_7_fixed_train_limit() -> None:
    t = prr_at_its_limit()
    assert "the limit" in t.refused("A", "buy_train", train="2", source="bank", price=None,
                                    trade=None)


def test_v7_7_flexible_train_limit_then_discard_without_compensation() -> None:
    t = prr_at_its_limit(train_limit="flexible")
    cash = t.state.corps["PRR"].cash
    t.act("A", "buy_train", train="2", source="bank", price=None, trade=None)
    assert t.state.round["discards"] == ["PRR"] and len(t.state.corps["PRR"].trains) == 5
    t.act("A", "discard", train="2")
    assert len(t.state.corps["PRR"].trains) == 4 and t.state.pool_trains == ["2"]
    assert t.state.corps["PRR"].cash == cash - 80


def c_and_o_offers_for_prrs_only_train(**options: str) -> Table:
    t = first_operating_round(**options)
    prr_runs_for(t)
    t.act("A", "withhold")
    t.act("A", "pass")
    assert t.state.round["current"] == "C&O"
    return t


def test_v7_7_the_only_train_may_be_sold() -> None:
    t = c_and_o_offers_for_prrs_only_train()
    t.act("C", "buy_train", train="2", source="PRR", price=80, trade=None)
    assert t.state.round["proposal"]["seller"] == "PRR"


def test_v7_7_the_only_train_of_a_company_with_a_route_is_kept() -> None:
    t = c_and_o_offers_for_prrs_only_train(only_train="kept")
    assert "only train" in t.refused("C", "buy_train", train="2", source="PRR", price=80,
                                     trade=None)


# -- V-7.6 tile laying ---------------------------------------------------------------------------


def test_v7_6_semi_restricted_and_restricted_laying() -> None:
    """NYC reaches the city of tile 57 on H10 (given here) but no new track of tile 15
    there: semi-restricted, the city's rise from $20 to $30 allows the upgrade;
    restricted, only new track a route extends to does."""
    state = first_operating_round().state
    state.board.tiles["H10"] = ("57", 0)
    state.phase = "3"
    reached = frozenset({("H10", 0)})
    rotation = fitting(state, "H10", "15")[0]
    args = (state.map, state.board, "H10", "15", rotation, "NYC", 0, reached)
    assert closed_lay_ok(*args) and not closed_lay_ok(*args, rise_counts=False)


# -- V-1.8 auction variants -------------------------------------------------------------------


@pytest.mark.parametrize(("rule", "refused", "allowed"), [
    ("at-least-5", [44], [46]), ("multiple-of-5", [46], [50]), ("exactly-5", [50], [45])])
def test_v1_8_raise_steps(rule: str, refused: list[int], allowed: list[int]) -> None:
    """CS (face value $40): the first bid at least $45, then as the variant says."""
    for amount in refused:
        assert "raises" in Table(["A", "B", "C"], bid_raise=rule).refused(
            "A", "bid", private="CS", amount=amount) or amount < 45
    for amount in allowed:
        Table(["A", "B", "C"], bid_raise=rule).act("A", "bid", private="CS", amount=amount)


def ca_bid_by_three(**options: str) -> Table:
    """A, B and C bid on CA (C leads with $175); the bids wait until SV, CS, DH and MH
    are sold, then the auction between them begins."""
    t = Table(["A", "B", "C", "D"], **options)
    t.act("A", "bid", private="CA", amount=165)
    t.act("B", "bid", private="CA", amount=170)
    t.act("C", "bid", private="CA", amount=175)
    for _ in range(4):  # SV, CS, DH, MH
        t.act(t.current, "buy_private")
    assert t.state.round["auction"]["private"] == "CA"
    return t


def auction_of_ca_between_three(**options: str) -> Table:
    t = ca_bid_by_three(**options)
    assert t.current == "A"
    t.act("A", "pass")
    t.act("B", "bid", private=None, amount=180)
    return t


def test_v1_8_pass_and_bid_again() -> None:
    t = auction_of_ca_between_three()
    t.act("C", "pass")
    assert t.current == "A"
    t.act("A", "bid", private=None, amount=185)


def test_v1_8_pass_and_out() -> None:
    t = auction_of_ca_between_three(auction_pass="out")
    t.act("C", "pass")  # C out too: B wins
    assert t.state.privates["CA"].owner == "p:B"


def test_v1_8_formal_bidding_goes_in_turn() -> None:
    """★ Formal bidding: the lowest bidder A first, then clockwise (C-2.2.2)."""
    t = ca_bid_by_three()
    assert to_act(t.state) == ["A"]
    assert "waits for A" in t.refused("B", "bid", private=None, amount=180)


def test_v1_8_free_for_all_bidding() -> None:
    """Free-for-all bidding: A and B answer C's $175 in any order; B's raise asks A and
    C again; C and A pass on it: B buys CA for $180."""
    t = ca_bid_by_three(bidding="free-for-all")
    assert to_act(t.state) == ["A", "B"]
    t.act("B", "bid", private=None, amount=180)
    assert to_act(t.state) == ["A", "C"]
    assert prompt_text(t.state, "C").startswith("Waiting for A and C (")
    assert "bid 185" in prompt_text(t.state, "C") and "bid 185" in prompt_text(t.state, "A")
    assert "You lead" in t.refused("B", "bid", private=None, amount=185)
    t.act("C", "pass")
    assert to_act(t.state) == ["A"]
    assert "You passed" in t.refused("C", "bid", private=None, amount=185)
    before = t.cash("B")
    t.act("A", "pass")
    assert t.state.privates["CA"].owner == "p:B" and t.cash("B") == before - 180


def test_v1_8_free_for_all_bidding_pass_and_re_enter() -> None:
    """★ Pass and re-enter: C passed on B's $180, and may bid again on A's $185."""
    t = ca_bid_by_three(bidding="free-for-all")
    t.act("B", "bid", private=None, amount=180)
    t.act("C", "pass")
    t.act("A", "bid", private=None, amount=185)
    assert to_act(t.state) == ["B", "C"]
    t.act("C", "bid", private=None, amount=190)
    assert t.state.round["auction"]["leader"] == "C"


def test_v1_8_free_for_all_bidding_pass_and_out() -> None:
    """Pass and out: C's pass takes him out; A's raise asks only B."""
    t = ca_bid_by_three(bidding="free-for-all", auction_pass="out")
    t.act("B", "bid", private=None, amount=180)
    t.act("C", "pass")
    t.act("A", "bid", private=None, amount=185)
    assert to_act(t.state) == ["B"]
    assert "not in it" in t.refused("C", "bid", private=None, amount=190)
    t.act("B", "pass")
    assert t.state.privates["CA"].owner == "p:A"


@pytest.mark.parametrize("other", [{"privates": "groups"}, {"auction_order": "lowest-bid"}])
def test_v1_8_free_for_all_bidding_is_refused_where_there_is_no_such_auction(
        other: dict[str, str]) -> None:
    with pytest.raises(SetupError, match="cannot be played together"):
        new_game("1830", ["A", "B", "C"], 1, {"bidding": "free-for-all", **other})


# -- 4.0 the DH's station ---------------------------------------------------------------------


def prr_laid_the_dh_tile_and_comes_back(**options: str) -> Table:
    """PRR owns the DH, lays its tile on F16 in operating round 1.1 without a station,
    and operates again in 2.1 (no route to F16)."""
    t = first_operating_round(**options)
    t.state.privates["DH"].owner = corp_holder("PRR")
    t.act("A", "lay", tile="57", hex="F16", exits=["SW", "NE"], **{"with": "DH"})
    t.act("A", "pass")
    while t.state.round["kind"] != "operating" or t.state.round["current"] != "PRR":
        t.act(t.current, "pass")
    return t


def test_4_0_dh_station_fixed() -> None:
    t = prr_laid_the_dh_tile_and_comes_back()
    assert "in the turn" in t.refused("A", "token", hex="F16", city=None, **{"with": "DH"})


def test_4_0_dh_station_flexible() -> None:
    t = prr_laid_the_dh_tile_and_comes_back(dh_station="flexible")
    t.act("A", "token", hex="F16", city=None, **{"with": "DH"})
    assert t.state.board.tokens["F16"] == [["PRR"]]


# -- variants pbem does not play ------------------------------------------------------------------


@pytest.mark.parametrize(("option", "words"), [
    ("board", "V-1.2"), ("home_choice", "V-7.3"), ("tiles", "V-1.4")])
def test_variants_pbem_does_not_play_are_refused_with_a_sentence(option: str,
                                                                 words: str) -> None:
    with pytest.raises(SetupError, match=f"pbem does not play .*{words}"):
        new_game("1830", ["A", "B", "C"], 1, {option: "yes"})


# -- 3.0 delayed rusting ------------------------------------------------------------------------


def first_4_train_bought(**options: str) -> Table:
    """PRR (a 2-train, a route H10-H12) has run; C&O, with a 2-train too, buys the first
    4-train in its turn: the 2-trains are obsolete."""
    t = first_operating_round(**options)
    prr_runs_for(t)
    t.act("A", "payout")
    t.act("A", "pass")
    give_train(t, "C&O", "2")
    t.state.trains_sold.update({"2": 6, "3": 5})
    t.state.phase = "3"
    t.state.corps["C&O"].cash = 400
    t.act("C", "buy_train", train="4", source="bank", price=None, trade=None)
    return t


def test_3_0_trains_rust_at_once() -> None:
    t = first_4_train_bought()
    assert t.state.corps["PRR"].trains == [] and t.state.corps["PRR"].rusting == []
    assert t.state.corps["C&O"].trains == ["4"]


def test_3_0_delayed_rusting_the_obsolete_trains_run_once_more() -> None:
    t = first_4_train_bought(rusting="delayed")
    prr = t.state.corps["PRR"]
    assert prr.trains == [] and prr.rusting == ["2"] and t.state.trains_scrapped["2"] == 2
    assert t.state.corps["C&O"].trains == ["4"] and t.state.corps["C&O"].rusting == ["2"]
    t.act("C", "pass")
    while t.state.round["kind"] != "operating" or t.state.round["current"] != "PRR":
        t.act(t.current, "pass")
    t.act("A", "run", routes=None)
    assert t.state.round["turn"]["run"]["revenue"] == 30  # the obsolete 2-train ran
    assert prr.rusting == []
    t.act("A", "withhold")
    assert "must buy" in t.refused("A", "pass")  # a route and no train now


@pytest.mark.parametrize(("rule", "cost"), [("no", 120), ("half-cost", 60)])
def test_4_0_schuylkill_valley(rule: str, cost: int) -> None:
    """PRR owns the SV: the first tile on G15 (a $120 mountain) costs it $120, or with
    the variant $60 and the SV leaves the game; NYC pays $120 either way."""
    t = first_operating_round(schuylkill_valley=rule)
    state = t.state
    state.privates["SV"].owner = corp_holder("PRR")
    assert terrain_cost(state, "PRR", "G15") == cost
    assert terrain_cost(state, "NYC", "G15") == 120
    ctx = Ctx(state, "A")
    book(state).tile_laid(ctx, "PRR", "G15", cost)
    apply_facts(state, ctx.facts)
    assert state.privates["SV"].closed == (rule == "half-cost")


# -- V-6.3 several brown-zone shares, V-1.1 seating -----------------------------------------------


def prr_in_the_brown_zone(**options: str) -> Table:
    t = second_stock_round(**options)
    market = t.state.rules.market
    t.state.corps["PRR"].cell = next(pos for pos, cell in sorted(market.cells.items())
                                     if cell.zone == "brown")
    turn_of(t, "B")
    return t


def test_v6_3_several_brown_zone_shares_from_the_pool_only() -> None:
    t = prr_in_the_brown_zone()
    assert "only from the bank pool" in t.refused("B", "buy_share", corp="PRR", source="ipo",
                                                  count=2)


def test_v6_3_several_brown_zone_shares_from_the_initial_offering_too() -> None:
    t = prr_in_the_brown_zone(brown_buy="pool-and-ipo")
    give_cash(t, "p:B", 500)
    t.act("B", "buy_share", corp="PRR", source="ipo", count=2)
    assert t.pct("B", "PRR") == 30


def test_v1_1_seating_random_or_as_given(tmp_path: Path) -> None:
    """C-2.1 (★): the seats are drawn (from the game's seed); free seating: the order
    the players are given."""
    cli = Cli(tmp_path / "games.db")
    players = [arg for n in "ABCDEF" for arg in ("--player", f"{n}:{n.lower()}@x.org")]
    orders = []
    for seating in ("fixed", "random"):
        game = cli.ok("new", "1830", *players, "--seed", "7", "--seating", seating).strip()
        orders.append([p["name"] for p in cli.show(int(game))["players"]])
    assert orders[0] == list("ABCDEF") and sorted(orders[1]) == orders[0] != orders[1]


def test_v1_8_free_for_all_bidding_by_mail(tmp_path: Path) -> None:
    """By mail: the two bidders under the lead get a turn mail and a deadline each, in
    any order; Ben's raise asks Ann and Cat; when their deadlines pass the pass policy
    passes both, and Ben buys CA."""
    table = ModTable(tmp_path, {"bidding": "free-for-all", "deadline": "24h",
                                "on_deadline": "pass", "remind": "none"})
    for name, command in [("Ann", "bid CA 165"), ("Ben", "bid CA 170"),
                          ("Cat", "bid CA 175"), ("Dan", "buy SV"), ("Ann", "buy CS"),
                          ("Ben", "buy DH"), ("Cat", "buy MH")]:
        table.send(name, command)
    assert table.waiting() == ["Ann", "Ben"]
    assert table.due("Ann") == table.due("Ben") is not None
    mails = table.new_mail()
    for name in ("Ann", "Ben"):
        assert any("bid 180" in m.text for m in table.to(name, mails)), name
    table.clock.advance(hours=2)
    table.send("Ben", "Hi all!\nbid 180")
    assert table.waiting() == ["Ann", "Cat"]
    table.tick(hours=24)
    assert table.commands()[-2:] == ["Ann: pass", "Cat: pass"]
    assert table.state().privates["CA"].owner == "p:Ben"


# -- V-7.9 plus trains (V-1.7, and their rusting, 3.0) ---------------------------------------------


def test_v1_7_plus_trains_replace_the_last_train_of_each_type() -> None:
    """V-7.9: a 2+2, 3+3, 4+4, 5+5 and 6+6 "ersetzen jeweils die letzte Lok ihres Typs";
    the bank sells each after the others of its type (with the extra 6-train: two 6s)."""
    plain, plus = trains_left(), trains_left(plus_trains="yes")
    assert plain == {"2": 6, "3": 5, "4": 4, "5": 3, "6": 2, "D": 6}
    assert plus == {"2": 5, "2+2": 1, "3": 4, "3+3": 1, "4": 3, "4+4": 1, "5": 2, "5+5": 1,
                    "6": 1, "6+6": 1, "D": 6}
    assert trains_left(plus_trains="yes", six_trains="3")["6"] == 2
    state = new_game("1830", ["A", "B", "C"], 1, {"plus_trains": "yes"})
    state.trains_sold["2"] = 5
    assert [t.name for t in bank_offers(state)] == ["2+2"]
    state.trains_sold.update({"2+2": 1, "3": 4, "3+3": 1, "4": 3, "4+4": 1, "5": 2,
                              "5+5": 1, "6": 1})
    assert [t.name for t in bank_offers(state)] == ["6+6", "D"]


def c_and_o_by_akron(train: str, **options: str) -> Table:
    """Operating round 1.1, the C&O's turn (PRR has passed): Cleveland (F6, its home)
    joined to the two towns of Akron & Canton (G7, tile 2) and on to Pittsburgh (H10)
    through H8; the C&O holds one ``train``."""
    t = first_operating_round(**options)
    t.act("A", "pass")
    board = t.state.board
    for coord, tile, rotation in (("G7", "2", 2), ("H8", "8", 2), ("H10", "57", 1)):
        board.tiles[coord] = (tile, rotation)
        board.tiles_left[tile] -= 1
    give_train(t, "C&O", train)
    return t


def test_v7_9_a_plus_train_counts_towns_besides_its_large_cities() -> None:
    """V-7.9: "Eine 2+2-Lok kann also bis zu 2 große und zusätzlich bis zu 2 kleine
    Städte anfahren": Cleveland ($30), a town of Akron & Canton ($10) and Pittsburgh
    ($20) earn the 2+2 $60 where a 2-train earns $40 (Cleveland and the town); going on
    to Altoona (a third large city) it may not."""
    plain = c_and_o_by_akron("2")
    plain.act("C", "run", routes=None)
    plus = c_and_o_by_akron("2+2", plus_trains="yes")
    plus.act("C", "run", routes=None)
    assert plain.state.round["turn"]["run"]["revenue"] == 40
    assert plus.state.round["turn"]["run"]["revenue"] == 60
    written = c_and_o_by_akron("2+2", plus_trains="yes")
    assert written.refused(
        "C", "run", routes=[{"train": "2+2", "stops": ["F6", "G7", "H10", "H12"]}]
    ).startswith("The 2+2-train counts at most 2 large cities (cities and off-boards) and 2 "
                 "towns; F6-G7-H10-H12 has 3 and 1.")
    written.act("C", "run", routes=[{"train": "2+2", "stops": ["F6", "G7", "H10"]}])
    assert written.state.round["turn"]["run"]["revenue"] == 60


def c_and_o_buys(own: str, buys: str, sold: dict[str, int], phase: str,
                 trade: str | None = None, **options: str) -> Table:
    """Operating round 1.1: the PRR holds a 2, a 4 and a 3+3 (set up), the C&O holds
    ``own`` and buys ``buys`` from the bank (trading in ``trade``), with ``sold`` trains
    sold before and the game in ``phase``."""
    t = first_operating_round(**options)
    t.act("A", "pass")
    give_train(t, "C&O", own)
    t.state.corps["PRR"].trains = ["2", "4"]
    t.state.trains_sold.update(sold)
    t.state.phase = phase
    t.state.corps["C&O"].cash = 1200
    t.act("C", "buy_train", train=buys, source="bank", price=None, trade=trade)
    return t


BEFORE_4 = {"2": 5, "2+2": 0, "3": 4, "3+3": 1}
BEFORE_6 = {"2": 5, "2+2": 1, "3": 4, "3+3": 1, "4": 3, "4+4": 1, "5": 2, "5+5": 1}
BEFORE_D = {**BEFORE_6, "6": 1, "6+6": 1}


def test_3_0_plus_trains_2_2_rusts_at_the_4_4_not_the_first_4() -> None:
    """3.0 "Verzögertes Verschrotten für die Plus-Loks": the 2+2 "erst bei der 4+4";
    the 2-trains go with the first 4-train as without the variant."""
    plain = c_and_o_buys("2", "4", {"2": 6, "3": 5}, "3")
    assert plain.state.corps["C&O"].trains == ["4"] and plain.state.corps["PRR"].trains == ["4"]
    plus = c_and_o_buys("2+2", "4", {**BEFORE_4, "2+2": 1}, "3", plus_trains="yes")
    assert plus.state.corps["C&O"].trains == ["2+2", "4"]
    assert plus.state.corps["PRR"].trains == ["4"]
    last = c_and_o_buys("2+2", "4+4", {**BEFORE_4, "2+2": 1, "4": 3}, "4",
                        plus_trains="yes")
    assert last.state.corps["C&O"].trains == ["4+4"]
    assert last.state.trains_scrapped["2+2"] == 1
    delayed = c_and_o_buys("2+2", "4+4", {**BEFORE_4, "2+2": 1, "4": 3}, "4",
                           plus_trains="yes", rusting="delayed")
    assert delayed.state.corps["C&O"].trains == ["4+4"]
    assert delayed.state.corps["C&O"].rusting == ["2+2"]  # runs once more (3.0)


def test_3_0_plus_trains_3_3_rusts_at_the_6_6() -> None:
    plus = c_and_o_buys("3+3", "6", {**BEFORE_6, "3+3": 1}, "5", plus_trains="yes")
    assert plus.state.corps["C&O"].trains == ["3+3", "6"] and plus.state.phase == "6"
    last = c_and_o_buys("3+3", "6+6", {**BEFORE_6, "6": 1}, "6", plus_trains="yes")
    assert last.state.corps["C&O"].trains == ["6+6"]


def test_3_0_plus_trains_4_4_rusts_at_the_last_diesel() -> None:
    """The 4+4 goes with the last (sixth) diesel, the 4-trains with the first; a 4+4
    traded in for a diesel before the last goes to the bank pool, for the last one out
    of the game."""
    first = c_and_o_buys("4+4", "D", BEFORE_D, "6", plus_trains="yes")
    assert first.state.corps["C&O"].trains == ["4+4", "D"]
    assert first.state.corps["PRR"].trains == ["2"]  # its 4 is obsolete (it had no 2+2)
    last = c_and_o_buys("4+4", "D", {**BEFORE_D, "D": 5}, "D", plus_trains="yes")
    assert last.state.corps["C&O"].trains == ["D"]
    traded = c_and_o_buys("4+4", "D", BEFORE_D, "6", trade="4+4", plus_trains="yes")
    assert traded.state.corps["C&O"].trains == ["D"] and traded.state.pool_trains == ["4+4"]
    traded_last = c_and_o_buys("4+4", "D", {**BEFORE_D, "D": 5}, "D", trade="4+4",
                               plus_trains="yes")
    assert traded_last.state.pool_trains == [] and traded_last.state.trains_scrapped["4+4"] == 1
    unlimited = c_and_o_buys("4+4", "D", {**BEFORE_D, "D": 5}, "D", plus_trains="yes",
                             diesels="unlimited")
    assert unlimited.state.corps["C&O"].trains == ["4+4", "D"]  # no last diesel


# -- V-7.8 replacing #59 tiles ------------------------------------------------------------------


def oo_tile_with_stations(stations: list[list[str]], **options: str) -> Table:
    """Operating round 1.1 in phase 5, the PRR (A) to act: Hamilton & Toronto (D10) holds
    a #59 with its cities' track to the N side (city 1) and to the SE... side two steps
    round (city 2), and the given stations (per city)."""
    t = first_operating_round(**options)
    t.state.phase = "5"
    board = t.state.board
    board.tiles["D10"] = ("59", 0)
    board.tiles_left["59"] -= 1
    board.tokens["D10"] = stations
    return t


#: tile 64 at rotation 0 on D10: its long curve (city 1) takes both sides of the #59
JOINED = [hexes.edge_name(e) for e in (0, 2, 3, 4)]


def test_v7_8_fixed_exits_keep_the_cities_apart() -> None:
    """★ "Feste Ausgänge": the upgrade keeps each city's connection, so the long curve
    may not join the two track segments of the #59."""
    t = oo_tile_with_stations([["PRR"], []])
    assert "would not be kept" in t.refused("A", "lay", tile="64", hex="D10", exits=JOINED)


def test_v7_8_flexible_exits_join_the_segments_and_the_president_chooses_the_city() -> None:
    """"Flexible Ausgänge": the long curve joins the two segments of a #59 holding fewer
    than two stations; the president of the company with the station there chooses its
    city before anything else."""
    t = oo_tile_with_stations([[], ["PRR"]], flexible_59="yes")
    t.act("A", "lay", tile="64", hex="D10", exits=JOINED)
    assert t.state.board.tiles["D10"] == ("64", 0)
    assert t.state.board.tokens["D10"] == [["PRR"], []]  # with the track it had
    assert "A must first choose the city of PRR's station on D10" in t.refused("A", "pass")
    t.act("A", "token", hex="D10", city=2, **{"with": None})
    assert t.state.board.tokens["D10"] == [[], ["PRR"]]
    assert t.state.round["current"] == "PRR" and not t.state.round.get("joined_station")
    kept = oo_tile_with_stations([[], ["PRR"]], flexible_59="yes")
    kept.act("A", "lay", tile="64", hex="D10", exits=JOINED)
    kept.act("A", "token", hex="D10", city=1, **{"with": None})
    assert kept.state.board.tokens["D10"] == [["PRR"], []]


def test_v7_8_flexible_exits_not_with_two_stations() -> None:
    t = oo_tile_with_stations([["PRR"], ["C&O"]], flexible_59="yes")
    assert "would not keep their cities" in t.refused("A", "lay", tile="64", hex="D10",
                                                      exits=JOINED)


def test_v7_8_the_president_of_the_station_s_company_chooses() -> None:
    """"entscheidet sich der Direktor jener Gesellschaft": the PRR (A), coming from its
    station on Dunkirk & Buffalo (E11, a #59 turned to D10), joins the segments of
    D10's #59, where the C&O (C) has its station: C chooses the city, in the PRR's
    turn, and A may not."""
    t = first_operating_round(flexible_59="yes")
    t.state.phase = "5"
    board = t.state.board
    board.tiles.update({"D10": ("59", 5), "E11": ("59", 2)})
    board.tiles_left["59"] -= 2
    board.tokens.update({"D10": [[], ["C&O"]], "E11": [["PRR"], []]})
    t.act("A", "lay", tile="64", hex="D10", exits=[hexes.edge_name(e) for e in (5, 1, 2, 3)])
    assert t.state.board.tokens["D10"] == [["C&O"], []]
    assert prompt_text(t.state, "C").startswith(
        "Waiting for C (the city of C&O's station on D10, operating round 1.1 of 1).")
    assert "token D10 1            C&O's station goes into city 1 or city 2" in \
        prompt_text(t.state, "C")
    assert "C must first choose the city of C&O's station on D10" in \
        t.refused("A", "token", hex="D10", city=2, **{"with": None})
    t.act("C", "token", hex="D10", city=2, **{"with": None})
    assert t.state.board.tokens["D10"] == [[], ["C&O"]] and t.current == "A"


def test_v7_9_and_v7_8_games_by_the_cli(tmp_path: Path) -> None:
    """pbem new --option plus_trains=yes --option flexible_59=yes: the game shows both
    options and the plus trains the bank sells."""
    cli = Cli(tmp_path / "games.db")
    game = cli.new("Ann", "Ben", "Cat", plus_trains="yes", flexible_59="yes")
    text = cli.ok("show", str(game))
    assert "- plus_trains=yes (V-7.9): a 2+2, 3+3, 4+4, 5+5 and 6+6 replace" in text
    assert "- flexible_59=yes (V-7.8): a #59 holding fewer than two stations" in text
    assert "2-train $80, 5 left; 2+2-train $80, 1 left;" in text
    assert cli.show(game)["options"]["plus_trains"] == "yes"


@pytest.mark.parametrize(("text", "action"), [
    ("buy train 2+2", {"type": "buy_train", "train": "2+2", "source": None, "price": None,
                       "trade": None}),
    ("buy a 4+4-train from PRR for 100", {"type": "buy_train", "train": "4+4",
                                          "source": "PRR", "price": 100, "trade": None}),
    ("buy train D trade 5+5", {"type": "buy_train", "train": "D", "source": None,
                               "price": None, "trade": "5+5"}),
    ("discard 3+3", {"type": "discard", "train": "3+3"}),
    ("run 3: H12-H10; 2+2: F6-G7-H10", {"type": "run", "routes": [
        {"train": "3", "stops": ["H12", "H10"]}, {"train": "2+2", "stops": ["F6", "G7", "H10"]}]}),
    ("run 2+2 f6 g7 h10", {"type": "run", "routes": [
        {"train": "2+2", "stops": ["F6", "G7", "H10"]}]}),
])
def test_v7_9_commands_name_the_plus_trains(text: str, action: dict[str, object]) -> None:
    ctx = parse_context(new_game("1830", ["A", "B", "C"], 1, {"plus_trains": "yes"}))
    assert parse_commands(text, ctx)[0].action == action
    assert parse_commands(format_action(action), ctx)[0].action == action
