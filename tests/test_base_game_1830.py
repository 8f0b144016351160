"""The 1830 base game of the German rulebook ("Grundspiel", option game=base): the
private companies in groups (1.3; option privates=groups, V-1.8), the forced train
purchase with a bank loan and insolvency (7.6.2, 7.7; option forced_train=loan); each
test beside the same position under 1830 Classic.  The whole game by bots and by the
CLI: tests/test_selfplay_games.py and test_base_game_played_to_its_end_by_the_cli."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cli_driver import Cli
from enginehelp import Table, give_cash, give_train, prr_forced_to_buy
from invariants import check

from pbem.bots import pick
from pbem.engine.errors import SetupError
from pbem.engine.game import apply_facts, decide, legal_moves, new_game
from pbem.engine.title import load_title
from pbem.notation import format_action, parse_command
from pbem.render.prompt import prompt_text
from pbem.service import parse_context

# -- 1.3 the private-company groups ----------------------------------------------------------


def the_books_bidding(**options: str) -> Table:
    """1.3's example: Thomas (banker), Stephan, Franz and Volker, here A, B, C, D."""
    t = Table(["A", "B", "C", "D"], game="base", **options)
    t.act("A", "bid", private=None, amount=5)
    t.act("B", "pass")
    t.act("C", "bid", private=None, amount=10)
    t.act("D", "bid", private=None, amount=20)
    t.act("A", "pass")
    t.act("C", "bid", private=None, amount=25)  # B is skipped: he passed
    t.act("D", "bid", private=None, amount=30)
    t.act("C", "pass")
    return t


def test_1_3_the_books_example_of_the_groups() -> None:
    """Volker takes C&A for $190, Franz CS+DH for $135, Thomas BO for $225 and sets the
    B&O par at $100, Stephan, who never bid, SV+MH for $130; Volker, the highest bidder,
    has the priority deal card in stock round 1."""
    t = the_books_bidding()
    assert t.state.round["choosing"] == ["D", "C", "A", "B"] and t.current == "D"
    t.act("D", "take_group", group=3)  # CA
    t.act("C", "take_group", group=2)  # CS+DH
    t.act("A", "take_group", group=4)  # BO
    assert t.current == "A"
    t.act("A", "par", corp="B&O", price=100)
    assert {n: t.cash(n) for n in "ABCD"} == {"A": 600 - 225, "B": 600 - 130, "C": 600 - 135,
                                            "D": 600 - 190}
    assert sorted(t.privates("B")) == ["MH", "SV"]  # the last group, taken for him
    assert t.pct("D", "PRR") == 10 and t.pct("A", "B&O") == 20
    assert t.state.round["kind"] == "stock" and t.state.priority == "D" and t.current == "D"


def test_1_3_a_player_who_passed_may_not_bid_again() -> None:
    t = Table(["A", "B", "C"], game="base")
    t.act("A", "pass")
    t.act("B", "bid", private=None, amount=5)
    t.act("C", "bid", private=None, amount=10)
    assert t.current == "B"  # A is out
    assert "It is B's turn" in t.refused("A", "bid", private=None, amount=20)


def test_1_3_bids_start_at_5_and_raise_by_5() -> None:
    t = Table(["A", "B", "C"], game="base")
    assert "lowest bid now is $5" in t.refused("A", "bid", private=None, amount=0)
    t.act("A", "bid", private=None, amount=5)
    assert "lowest bid now is $10" in t.refused("B", "bid", private=None, amount=9)


def test_1_3_a_bid_keeps_the_price_of_the_dearest_group() -> None:
    """Three players with $800: the dearest group is SV+BO ($240), so a bid is at most
    $560 (the reading in docs/options.md)."""
    t = Table(["A", "B", "C"], game="base")
    assert "at most $560" in t.refused("A", "bid", private=None, amount=565)
    t.act("A", "bid", private=None, amount=560)


def test_1_3_nobody_bids_all_choose_in_seat_order() -> None:
    t = Table(["A", "B", "C"], game="base")
    t.act("A", "pass")
    t.act("B", "pass")  # C is the one left in: he chooses first
    assert t.state.round["choosing"] == ["C", "A", "B"] and t.state.priority == "C"
    assert "not to be had" in t.refused("C", "take_group", group=4)
    t.act("C", "take_group", group=2)  # CS+CA $200
    assert t.cash("C") == 800 - 200


def test_1_3_bidding_and_choosing_in_their_order() -> None:
    t = the_books_bidding()
    assert "It is D's turn" in t.refused("C", "take_group", group=1)
    assert "bid or pass" in Table(["A", "B"], game="base").refused("A", "take_group", group=1)
    assert "chooses a group" in t.refused("D", "bid", private=None, amount=40)


def test_1_3_without_the_option_the_classic_auction() -> None:
    """C-2.2: the first player may buy the cheapest private company; in the groups
    he may not."""
    Table(["A", "B", "C", "D"]).act("A", "buy_private")
    assert "bid or pass" in Table(["A", "B", "C", "D"], game="base").refused("A", "buy_private")


# -- 7.6.2 the forced purchase with a bank loan, 7.7 insolvency ----------------------------------


def insolvent_prr() -> Table:
    """PRR borrowed $60 of its 2-train; A has no money."""
    t = prr_forced_to_buy(20, forced_train="loan")
    bank = t.state.bank
    t.act("A", "buy_train", train=None, source=None, price=None, trade=None)
    assert t.state.corps["PRR"].trains == ["2"] and t.state.corps["PRR"].loan == 60
    assert t.cash("A") == 0 and t.state.corps["PRR"].cash == 0 and t.state.bank == bank + 20
    return t


def moves(t: Table, who: str) -> list[str]:
    return [m["action"]["type"] for m in legal_moves(t.state).get(who, [])]


def operate_until(t: Table, corp: str) -> None:
    """Everybody passes until ``corp`` operates."""
    while t.state.round["kind"] != "operating" or t.state.round.get("current") != corp:
        t.act(t.current, "pass")


def test_7_6_2_the_company_borrows_what_it_and_its_president_lack() -> None:
    """Classic (C-2.3): A must sell shares; base game: A pays his $20, the bank lends
    $60."""
    classic = prr_forced_to_buy(20)
    assert "must first sell shares" in classic.refused("A", "buy_train", train=None,
                                                       source=None, price=None, trade=None)
    assert "sell" in moves(classic, "A")
    loans = prr_forced_to_buy(20, forced_train="loan")
    assert "sell" not in moves(loans, "A") and "buy_train" in moves(loans, "A")
    insolvent_prr()


def test_7_6_2_no_bankruptcy_with_loans() -> None:
    classic = prr_forced_to_buy(0)
    for index in (2, 3, 4):
        classic.state.corps["PRR"].certs[index] = "ipo"
    classic.state.corps["NYC"].certs[5] = classic.state.corps["NYC"].certs[6] = "ipo"
    assert "bankrupt" in moves(classic, "A")
    t = prr_forced_to_buy(0, forced_train="loan")
    for index in (2, 3, 4):
        t.state.corps["PRR"].certs[index] = "ipo"
    assert "bankrupt" not in moves(t, "A")
    t.refused("A", "bankrupt")


def test_7_7_an_insolvent_company_pays_no_dividend_and_its_administrator_keeps_its_shares(
) -> None:
    t = insolvent_prr()
    t.act("A", "pass")
    while t.current != "A" or t.state.round["kind"] != "stock":
        t.act(t.current, "pass")
    assert "administrator" in t.refused("A", "sell", sales=[{"corp": "PRR", "count": 1}])
    operate_until(t, "PRR")
    t.act("A", "run", routes=None)  # $30 from H10-H12
    assert "insolvent" in t.refused("A", "payout")
    assert "withhold" in moves(t, "A") and "payout" not in moves(t, "A")
    loan = t.state.corps["PRR"].loan
    t.act("A", "withhold")
    assert t.state.corps["PRR"].loan == loan - 30 and t.state.corps["PRR"].cash == 0


def test_7_7_the_administrators_income_repays_the_loan() -> None:
    """The private companies pay A at the start of the next operating round: SV $5 and MH
    $20 go to the bank for PRR's loan."""
    t = insolvent_prr()
    operate_until(t, "C&O")
    while t.state.round["kind"] != "stock":
        t.act(t.current, "pass")
    t.pass_all()
    assert t.state.round["kind"] == "operating"
    assert t.state.corps["PRR"].loan == 60 - 25 and t.cash("A") == 0


def a_administers_prr_and_nyc() -> Table:
    """PRR owes $60 (insolvent_prr); A is also the administrator of NYC, which owes
    $100; A has no money."""
    t = insolvent_prr()
    nyc = t.state.corps["NYC"]
    nyc.certs[5] = nyc.certs[0]
    nyc.certs[0] = "p:A"
    nyc.loan = 100
    assert t.state.president("NYC") == "A"
    return t


def test_7_7_several_loans_repaid_in_the_charter_order() -> None:
    """Without a choice, the money A takes in repays PRR (first in the charter) first."""
    t = a_administers_prr_and_nyc()
    give_cash(t, "p:A", 20)
    t.act("A", "pass")
    assert (t.state.corps["PRR"].loan, t.state.corps["NYC"].loan) == (40, 100)


def test_7_7_the_administrator_chooses_which_loan_is_repaid_first() -> None:
    """7.7's note: the administrator of several insolvent companies decides the order in
    which the money taken in repays them: repay NYC first, at any time."""
    t = a_administers_prr_and_nyc()
    assert [m["action"] for m in legal_moves(t.state)["A"] if m["action"]["type"] ==
            "repay"] == [{"type": "repay", "corp": "NYC"}]
    assert "repay NYC first" in prompt_text(t.state, "A")
    command = parse_command("repay NYC first", parse_context(t.state))
    assert command == {"type": "repay", "corp": "NYC"} and format_action(command) == \
        "repay NYC first"
    t.act("A", "repay", corp="NYC")
    assert "already repaid first" in t.refused("A", "repay", corp="NYC")
    assert "administers no insolvent company" in t.refused("B", "repay", corp="NYC")
    give_cash(t, "p:A", 20)
    t.act("A", "pass")
    assert (t.state.corps["PRR"].loan, t.state.corps["NYC"].loan) == (60, 80)
    t.state.corps["NYC"].loan = 0
    assert "only insolvent company" in t.refused("A", "repay", corp="PRR")


def test_7_7_the_administrator_stays_until_the_loan_is_repaid() -> None:
    """B holds more of PRR than A while it is insolvent: A stays its administrator; once
    the loan is repaid, B is president."""
    t = insolvent_prr()
    state = t.state
    prr = state.corps["PRR"]
    prr.certs = ["p:B" if holder == "ipo" else holder for holder in prr.certs]
    prr.certs[prr.certs.index("p:A", 1)] = "ipo"
    assert t.pct("B", "PRR") == 50 and t.pct("A", "PRR") == 40
    state.player("B").cash -= 20
    state.player("A").cash += 20
    t.act("A", "pass")  # A's $20 repay; the loan is not paid off
    assert state.president("PRR") == "A" and prr.loan == 40
    state.player("B").cash -= 40
    state.player("A").cash += 40
    t.act(t.current, "pass")
    assert prr.loan == 0 and state.president("PRR") == "B"


def test_7_7_no_company_buys_the_only_train_of_an_insolvent_one() -> None:
    t = insolvent_prr()
    t.act("A", "pass")
    assert t.state.round["current"] == "C&O"
    message = t.refused("C", "buy_train", train="2", source="PRR", price=80, trade=None)
    assert "insolvent" in message and "only train" in message
    give_train(t, "PRR", "2")
    t.act("C", "buy_train", train="2", source="PRR", price=80, trade=None)
    assert t.state.round["proposal"]["seller"] == "PRR"


# -- the options together ---------------------------------------------------------------------


def test_1_0_the_base_game_sets_its_options() -> None:
    state = new_game("1830", ["A", "B", "C"], 1, {"game": "base"})
    assert (state.options["privates"], state.options["forced_train"]) == ("groups", "loan")
    assert state.options["visibility"] == "open"
    mixed = new_game("1830", ["A", "B", "C"], 1, {"game": "base", "forced_train": "sales"})
    assert mixed.options["forced_train"] == "sales"


@pytest.mark.parametrize(("options", "words"), [
    ({"privates": "groups", "auction_order": "lowest-bid"}, "there is none"),
    ({"game": "base", "bankruptcy": "declare"}, "nobody goes bankrupt"),
    ({"forced_train": "loan", "forced_sale": "any"}, "no shares are sold"),
])
def test_options_that_cannot_go_together_are_refused(options: dict[str, str],
                                                     words: str) -> None:
    with pytest.raises(SetupError, match=words):
        new_game("1830", ["A", "B", "C"], 1, options)


# -- the whole base game through the CLI ------------------------------------------------------


def test_base_game_played_to_its_end_by_the_cli(tmp_path: Path) -> None:
    """A 3-player base game (short, V-1.3 bank $4,500) played by bots, every command sent
    through `pbem act`, 25 to a call: as the player when one player made them all, else
    as the referee acting for each (`as Ann pass`); the CLI's game ends as the engine's
    did, and `pbem audit` passes."""
    cli = Cli(tmp_path / "games.db")
    game = cli.new("Ann", "Ben", "Cat", game="base", bank="4500")
    options = load_title("1830").resolve_options({"game": "base", "bank": "4500",
                                                  "seating": "fixed"})
    state = new_game("1830", ["Ann", "Ben", "Cat"], 1, options)
    rng = random.Random(3)
    commands: list[tuple[str, str]] = []
    while not state.finished:
        name, action = pick(state, rng)
        apply_facts(state, decide(state, name, action).facts)
        check(state, name, action)
        commands.append((name, format_action(action)))
    for start in range(0, len(commands), 25):
        chunk = commands[start:start + 25]
        actors = {name for name, _ in chunk}
        if len(actors) == 1:
            cli.act(game, chunk[0][0], "\n".join(text for _, text in chunk))
        else:
            cli.act(game, "referee", "\n".join(f"as {name} {text}" for name, text in chunk))
    shown = cli.show(game)
    assert shown["finished"] and shown["result"] == state.result
    assert state.result is not None and state.result["reason"] == "bank"
    cli.ok("audit", str(game))


def test_7_0_option_bank_break_overdrawn_an_empty_bank_has_not_broken() -> None:
    """7.0: the game ends when the bank runs out of money.  By default a bank left with
    exactly $0 has run out; with bank_break=overdrawn (18xx.games: broken only by a
    payment larger than its cash) it breaks at the next payment."""
    from pbem.engine.context import Ctx
    from pbem.engine.ending import note_bank_break

    for option, ends in (("empty", True), ("overdrawn", False)):
        state = new_game("1830", ["A", "B", "C"], 1, {"bank_break": option})
        state.round = {"kind": "operating"}
        state.bank = 0
        note_bank_break(Ctx(state, "A"))
        assert (state.ending is not None) is ends
        state.bank = -10
        note_bank_break(Ctx(state, "A"))
        assert state.ending == {"reason": "bank", "after": "set"}
