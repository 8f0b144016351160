"""Undo by the game's rule (issue 12, item 5) and proposals between players that wait
for the other side (item 6): done, refused with the rule and the reason, asked, accepted,
declined, expired, lapsed; by mail and through pbem act."""

from __future__ import annotations

from pathlib import Path

import pytest
from moderation_table import TO_FIRST_OR, ModTable, play

from pbem.engine.errors import RulesError
from pbem.engine.undo import Move, plan_undo
from pbem.mail.processing.command_line import carry_out
from pbem.service import CommandError

# -- the rule (pure) -----------------------------------------------------------------------------

MOVES = [Move(1, "Ann", "buy SV"), Move(2, "Ben", "buy CS"), Move(3, "Cat", "pass"),
         Move(5, "Dan", "buy DH")]


def test_own_last_takes_back_the_players_last_command_only_before_the_next_acts() -> None:
    plan = plan_undo("own-last", "Dan", MOVES)
    assert (plan.keep, [m.seq for m in plan.take_back], plan.ask) == (4, [5], ())
    with pytest.raises(RulesError, match=r"undo rule is own-last \(a player may take back "
                       r"their own last command, until the next player acts\): Cat has acted "
                       r"since \(event 3: pass\)"):
        plan_undo("own-last", "Ben", MOVES)
    with pytest.raises(RulesError, match="you have made no command that still counts"):
        plan_undo("own-last", "Eve", MOVES)


def test_consent_asks_every_player_who_acted_since() -> None:
    plan = plan_undo("consent", "Ben", MOVES)
    assert (plan.keep, [m.seq for m in plan.take_back]) == (1, [2, 3, 5])
    assert plan.ask == ("Cat", "Dan")
    assert plan_undo("consent", "Dan", MOVES).ask == ()


def test_referee_rule_and_the_services_moves_are_the_referees() -> None:
    with pytest.raises(RulesError, match="undo rule is referee"):
        plan_undo("referee", "Dan", MOVES)
    moves = [*MOVES, Move(6, "Ann", "pass", by_policy=True)]
    with pytest.raises(RulesError, match="made for you by the service"):
        plan_undo("consent", "Ann", moves)


# -- by mail -------------------------------------------------------------------------------------


def test_own_last_by_mail_and_through_pbem_act(tmp_path: Path) -> None:
    table = ModTable(tmp_path, {"deadline": "72h"})
    table.clock.advance(hours=10)
    table.send("Ann", "buy SV")
    table.clock.advance(hours=10)
    table.send("Ann", "undo")
    assert table.commands() == []
    # the decision is hers again, with its deadline (an undo gives no extra time)
    assert table.waiting() == ["Ann"] and table.due("Ann") == "2026-05-07T10:00:00.000+00:00"
    table.send("Ann", "buy SV")
    result = carry_out(table.store, table.game, "Ann", "undo", now=table.clock.now)
    assert result.lines[0].endswith("undo: event 6 (buy SV) is taken back.")
    table.send("Ann", "buy SV")
    table.send("Ben", "buy CS")
    table.new_mail()
    table.send("Ann", "undo")
    [reply] = table.to("Ann", table.new_mail())
    assert "Not done" in reply.subject
    assert ("The game's undo rule is own-last (a player may take back their own last command, "
            "until the next player acts): Ben has acted since") in reply.flat
    with pytest.raises(CommandError, match="Ben has acted since"):
        carry_out(table.store, table.game, "Ann", "undo", now=table.clock.now)


def test_consent_accepted(tmp_path: Path) -> None:
    table = ModTable(tmp_path, {"undo": "consent", "deadline": "72h"})
    play(table, [("Ann", "buy"), ("Ben", "buy")])
    table.new_mail()
    table.send("Ann", "undo")
    [request] = table.moderation("undo_request")
    assert request["command"]["ask"] == ["Ben"]
    mails = table.new_mail()
    [asked] = table.to("Ben", mails)
    assert "Ann asks to take back" in asked.flat and "write accept" in asked.flat
    [reply] = table.to("Ann", mails)
    assert "Ben must agree (accept or decline) by" in reply.flat
    assert len(table.commands()) == 2  # nothing taken back yet
    table.send("Ben", "accept")  # no offer of the game waits for Ben: it answers the undo
    assert table.commands() == []
    assert table.moderation("undo_closed")[-1]["command"]["outcome"] == "done"
    mails = table.to("Ann", table.new_mail())
    assert any("Everyone asked agreed" in m.flat for m in mails)
    assert any(m.subject == "[1830 #1] Private auction: Ann to act" for m in mails)


def test_consent_declined_expired_and_lapsed(tmp_path: Path) -> None:
    table = ModTable(tmp_path, {"undo": "consent", "deadline": "72h"})
    play(table, [("Ann", "buy"), ("Ben", "buy"), ("Cat", "buy")])
    table.send("Ann", "undo")
    assert table.moderation("undo_request")[-1]["command"]["ask"] == ["Ben", "Cat"]
    table.send("Ben", "accept undo")
    table.new_mail()
    table.send("Cat", "decline undo")
    assert len(table.commands()) == 3
    assert table.moderation("undo_closed")[-1]["command"]["outcome"] == "declined"
    [told] = table.to("Ann", table.new_mail())
    assert "Cat refuses Ann's undo; nothing is taken back." in told.flat
    table.send("Ben", "accept undo")
    [reply] = table.to("Ben", table.new_mail())
    assert "No undo request waits for your answer." in reply.flat
    # expired: nobody answers in time
    table.send("Ann", "undo")
    fired = table.tick(hours=72)
    assert "undo_expiry" in [f.what for f in fired]
    assert table.moderation("undo_closed")[-1]["command"]["outcome"] == "expired"
    assert len(table.commands()) == 3
    # lapsed: the game moves on before the answers
    table.send("Ann", "undo")
    table.send("Dan", "buy")
    assert table.moderation("undo_closed")[-1]["command"]["outcome"] == "lapsed"
    assert len(table.commands()) == 4


def test_referee_rule_asks_the_referee(tmp_path: Path) -> None:
    table = ModTable(tmp_path, {"undo": "referee"})
    table.send("Ann", "buy SV")
    table.new_mail()
    table.send("Ann", "undo")
    mails = table.new_mail()
    [reply] = table.to("Ann", mails)
    assert "only the referee takes moves back; the referee has been asked" in reply.flat
    [request] = table.to("referee", mails)
    assert request.subject == "[1830 #1] Ann asks to undo"
    assert table.commands() == ["Ann: buy SV"]
    table.send("referee", "revert to 0")
    assert table.commands() == []


# -- proposals -----------------------------------------------------------------------------------


def _stock_round_2(table: ModTable) -> None:
    play(table, [*TO_FIRST_OR, ("Ann", "done"), ("Cat", "done")])
    assert table.state().round["kind"] == "stock" and table.waiting() == ["Dan"]


@pytest.fixture
def sr2(tmp_path: Path) -> ModTable:
    table = ModTable(tmp_path, {"deadline": "72h"})
    _stock_round_2(table)
    return table


def test_a_private_sale_between_players_accepted(sr2: ModTable) -> None:
    """1830 3.1: privates change hands between players for a price they agree on, in the
    buyer's or the seller's turn of a stock round other than the first."""
    sr2.send("Dan", "sell private BO to Cat for 100")
    assert sr2.waiting() == ["Cat"]
    assert sr2.due("Cat") is not None
    sr2.send("Cat", "accept")
    assert sr2.state().privates["BO"].owner == "p:Cat"
    assert sr2.waiting() == ["Dan"]  # the seller's turn goes on


def test_a_private_sale_declined(sr2: ModTable) -> None:
    sr2.send("Dan", "sell private BO to Cat for 100")
    sr2.send("Cat", "decline")
    assert sr2.state().privates["BO"].owner == "p:Dan" and sr2.waiting() == ["Dan"]


def test_a_private_sale_expires_at_the_deadline(sr2: ModTable) -> None:
    """An offer left unanswered is declined when the answer's deadline passes, whatever
    the game's policy (here: wait); the seller's turn goes on with its own deadline."""
    sr2.send("Dan", "sell private BO to Cat for 100")
    sr2.new_mail()
    [fired] = sr2.tick(hours=72)
    assert (fired.what, fired.player) == ("expiry", "Cat")
    assert sr2.commands()[-1] == "Cat: decline"
    assert sr2.state().privates["BO"].owner == "p:Dan" and sr2.waiting() == ["Dan"]
    mails = sr2.new_mail()
    [turn] = sr2.to("Dan", mails)
    assert "Cat declines." in turn.flat
    [notice] = sr2.to("Cat", mails)
    assert "An offer that waits for an answer expires at the deadline: Cat declines." \
        in notice.flat
    assert sr2.due("Dan") == "2026-05-10T10:00:00.000+00:00"


def test_an_offer_holds_only_the_turn_it_was_made_in(sr2: ModTable) -> None:
    """The sale is part of the seller's turn (3.1): the turn waits for the answer, while
    what may be done out of turn (MH for an NYC share, appendix) and talk go on."""
    sr2.send("Dan", "sell private BO to Cat for 100")
    sr2.send("Ann", "exchange MH; say go on, Cat")
    assert sr2.commands()[-1] == "Ann: exchange MH"
    assert sr2.waiting() == ["Cat"]
    sr2.new_mail()
    sr2.send("Ben", "buy PRR")
    [reply] = sr2.to("Ben", sr2.new_mail())
    assert "Not done" in reply.subject and "Cat must first accept or decline" in reply.flat


def test_a_train_offered_between_companies_expires_as_declined(tmp_path: Path) -> None:
    """6.6: a train bought from another corporation at a price both presidents agree on,
    within the buying corporation's turn; unanswered, the offer is declined at the
    deadline and the buyer's turn goes on."""
    table = ModTable(tmp_path, {"deadline": "48h", "remind": "none"})
    play(table, [*TO_FIRST_OR, ("Ann", "buy train; buy train; done"), ("Cat", "done"),
                 *[(who, "pass") for who in ("Dan", "Ann", "Ben", "Cat")],
                 ("Ann", "done")])
    assert table.state().round["current"] == "C&O"
    table.send("Cat", "buy train 2 from PRR for 50")
    assert table.waiting() == ["Ann"]
    table.tick(hours=48)
    assert table.commands()[-1] == "Ann: decline"
    state = table.state()
    assert state.corps["PRR"].trains == ["2", "2"] and table.waiting() == ["Cat"]
    table.send("Cat", "buy train 2 from PRR for 50")
    table.send("Ann", "accept")
    assert table.state().corps["C&O"].trains == ["2"]


@pytest.fixture
def phase3(tmp_path: Path) -> ModTable:
    """Operating round 2.1 in phase 3 (the first 3-train bought by the PRR): corporations
    may buy private companies (1830 3.1, 6.5 phase 3)."""
    table = ModTable(tmp_path, {"deadline": "72h", "remind": "none"})
    play(table, [*TO_FIRST_OR, ("Ann", "buy train; buy train; buy train; done"),
                 ("Cat", "buy train; buy train; buy train; done")])
    while table.state().round["kind"] == "stock":
        [who] = table.waiting()
        play(table, [(who, "pass")])
    play(table, [("Ann", "buy train")])
    state = table.state()
    assert (state.phase, state.round["current"], table.waiting()) == ("3", "PRR", ["Ann"])
    return table


def test_a_private_bought_by_a_company_from_another_player_accepted(phase3: ModTable) -> None:
    """1830 3.1: a corporation buys a private from a player for half to twice its face
    value; a player who is not its president must agree. The PRR's turn goes on."""
    phase3.send("Ann", "buy private CS from Ben for 60")
    assert phase3.waiting() == ["Ben"] and phase3.due("Ben") is not None
    cash = phase3.state().cash_of("p:Ben")
    phase3.send("Ben", "accept")
    state = phase3.state()
    assert state.privates["CS"].owner == "c:PRR" and state.cash_of("p:Ben") == cash + 60
    assert phase3.waiting() == ["Ann"]


def test_a_private_bought_by_a_company_declined_and_expired(phase3: ModTable) -> None:
    phase3.send("Ann", "buy private CS from Ben for 60")
    phase3.send("Ben", "decline")
    assert phase3.state().privates["CS"].owner == "p:Ben" and phase3.waiting() == ["Ann"]
    phase3.send("Ann", "buy private CS from Ben for 70")
    phase3.new_mail()
    [fired] = phase3.tick(hours=72)
    assert (fired.what, fired.player) == ("expiry", "Ben")
    assert phase3.commands()[-1] == "Ben: decline"
    assert phase3.state().privates["CS"].owner == "p:Ben" and phase3.waiting() == ["Ann"]
    [turn] = phase3.to("Ann", phase3.new_mail())
    assert "Ben declines." in turn.flat


def test_the_pass_policy_declines_an_1870_redemption_from_a_player() -> None:
    """1870 p.17: a company may redeem a share from a player who agrees; unanswered, the
    offer is declined like any other."""
    from test_stock_1870 import company_with_pool_share, put, second_stock_round

    from pbem.moderation.policy import pass_policy

    table = company_with_pool_share()
    table.act("P3", "redeem", corp="IC", **{"from": None})
    second_stock_round(table)
    put(table, {"f": "round_set", "values": {"current": "P3"}})
    table.act("P3", "redeem", corp="IC", **{"from": "P4"})
    assert table.state.round["proposal"]["answer_by"] == "P4"
    result = pass_policy(table.state, "P4")
    assert result.stuck is None and result.actions == [{"type": "decline"}]
