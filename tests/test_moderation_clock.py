"""Deadlines on the game's clock (issue 12, item 1): the time allowed per decision,
weekdays that count, the reminder, the notice when a deadline passes and what the
game's policy does then (wait, or pass in the auction, the stock round and the
operating round), all on an injected clock."""

from __future__ import annotations

from pathlib import Path

import pytest
from enginehelp import first_operating_round, give_cash
from moderation_table import TO_FIRST_OR, ModTable, finish_auction, play
from or1870help import Table1870, give_trains, home, lay_track, operating, shortest_path, start

from pbem.engine.errors import SetupError
from pbem.moderation.errors import ModerationError
from pbem.moderation.options import Moderation, check
from pbem.moderation.policy import pass_policy
from pbem.moderation.timecalc import (
    advance,
    counted,
    parse_days,
    parse_duration,
    parse_moment,
    show_moment,
)

# -- time and options (pure) -----------------------------------------------------------------


def test_durations_and_weekdays() -> None:
    assert parse_duration("72h") == parse_duration("3d") == parse_duration("72") == 259200
    assert parse_duration("1d 12h") == 129600 and parse_duration("90m") == 5400
    with pytest.raises(ModerationError, match="not a duration"):
        parse_duration("soon")
    assert parse_days("mon-fri") == frozenset(range(5))
    assert parse_days("fri-mon") == frozenset({4, 5, 6, 0})
    assert parse_days("Mon, Wednesday, fri") == frozenset({0, 2, 4})
    with pytest.raises(ModerationError, match="weekdays"):
        parse_days("weekdays")


def test_only_the_chosen_weekdays_count() -> None:
    friday = parse_moment("2026-05-08T10:00:00Z")
    days = parse_days("mon-fri")
    # Friday 10:00 + 72 counted hours: 14 h of Friday, 24 of Monday and Tuesday, 10 of Wed.
    assert advance(friday, 72 * 3600, days) == parse_moment("2026-05-13T10:00:00Z")
    assert counted(friday, parse_moment("2026-05-13T10:00:00Z"), days) == 72 * 3600
    saturday = parse_moment("2026-05-09T12:00:00Z")
    assert advance(saturday, 3600, days) == parse_moment("2026-05-11T01:00:00Z")


def test_a_deadline_in_utc_and_in_the_players_zone() -> None:
    moment = parse_moment("2026-05-08T23:30:00Z")
    assert show_moment(moment) == "Fri 2026-05-08 23:30 UTC"
    assert show_moment(moment, "Europe/Berlin") == \
        "Fri 2026-05-08 23:30 UTC (Sat 2026-05-09 01:30 CEST in Europe/Berlin)"
    assert show_moment(moment, "Not/AZone") == "Fri 2026-05-08 23:30 UTC"


def test_options_are_checked_and_written_one_way() -> None:
    assert check({"deadline": "3 days", "on_deadline": "PASS", "deadline_days": "Mon-Fri"}) \
        == {"deadline": "72h", "on_deadline": "pass", "deadline_days": "mon,tue,wed,thu,fri"}
    with pytest.raises(ModerationError, match="on_deadline may be wait, pass"):
        check({"on_deadline": "kick"})
    moderation = Moderation.of({"deadline": "72h", "deadline_operating": "96h", "remind": "12h",
                                "stock_turn": "sell-buy"})
    assert moderation.allowed_for("stock") == 72 * 3600
    assert moderation.allowed_for("operating") == 96 * 3600
    assert moderation.remind == 12 * 3600 and moderation.policy == "wait"
    assert not Moderation.of({}).has_deadlines


def test_a_bad_option_is_refused_when_the_game_is_made(tmp_path: Path) -> None:
    with pytest.raises(SetupError, match="not a duration .option deadline."):
        ModTable(tmp_path, {"deadline": "tomorrow"})


# -- a game on the clock ---------------------------------------------------------------------


@pytest.fixture
def table(tmp_path: Path) -> ModTable:
    return ModTable(tmp_path, {"deadline": "72h"})


def test_the_first_decision_has_its_deadline_from_the_start(table: ModTable) -> None:
    assert table.waiting() == ["Ann"]
    assert table.due("Ann") == "2026-05-07T10:00:00.000+00:00"
    [event] = table.moderation("deadline")
    assert event["log"] == ["Ann must act by Thu 2026-05-07 10:00 UTC."]


def test_every_mail_states_the_deadline(table: ModTable) -> None:
    table.send("Cat", "tz Europe/Berlin")  # Cat's setting (pbem.mail: tz AREA/CITY)
    table.new_mail()
    table.clock.advance(hours=5)
    table.send("Ann", "buy SV")
    mails = table.new_mail()
    [reply] = table.to("Ann", mails)
    assert "Deadlines:\n  Ben must act by Thu 2026-05-07 15:00 UTC." in reply.text
    [turn] = table.to("Ben", mails)
    assert "Your deadline: Thu 2026-05-07 15:00 UTC, in 3 days." in turn.text
    [update] = table.to("Cat", mails)
    assert "Ben must act by Thu 2026-05-07 15:00 UTC (17:00 CEST in Europe/Berlin)." \
        in update.text
    for mail in mails:
        assert "Deadlines:" in mail.text, mail.subject


def test_a_decision_that_goes_on_keeps_its_deadline(table: ModTable) -> None:
    play(table, TO_FIRST_OR[:9])  # the auction, B&O parred: stock round 1, Ann to act
    due = table.due("Ann")
    table.clock.advance(hours=10)
    table.send("Ann", "par PRR 67")  # her turn passes on to Ben
    assert table.due("Ben") != due
    assert table.due("Ben") == "2026-05-07T20:00:00.000+00:00"


def test_reminder_then_notice_under_the_wait_policy(table: ModTable) -> None:
    table.new_mail()
    assert table.tick(hours=47) == []  # the reminder comes 24 h before the deadline
    [fired] = table.tick(hours=1)
    assert (fired.what, fired.player) == ("reminder", "Ann")
    [reminder] = table.new_mail()
    assert reminder.recipient == "ann@players.test"
    assert reminder.subject == "[1830 #1] Reminder: Private auction: Ann to act"
    assert "Your deadline: Thu 2026-05-07 10:00 UTC, in 1 day." in reminder.text
    assert "buy SV" in reminder.text  # what she may do
    assert table.tick(hours=23) == []  # reminded once
    [fired] = table.tick(hours=1)
    assert (fired.what, fired.player) == ("expiry", "Ann")
    mails = table.new_mail()
    assert sorted(m.recipient for m in mails) == [
        "ann@players.test", "ben@players.test", "cat@players.test", "dan@players.test",
        "ref@games.test"]
    for mail in mails:
        assert mail.subject == "[1830 #1] Deadline passed: Ann"
        assert "Ann's deadline, Thu 2026-05-07 10:00 UTC, has passed." in mail.text
        assert "the referee decides" in mail.text
    assert table.commands() == []  # nothing was done for her
    assert table.waiting() == ["Ann"]
    [expired] = table.moderation("expired")
    assert expired["command"]["policy"] == "wait"
    assert table.tick(days=5) == []  # late, not expired again
    table.send("Ben", "show")
    [answer] = table.to("Ben", table.new_mail())
    assert "Ann is late: the deadline was Thu 2026-05-07 10:00 UTC (the referee decides)." \
        in answer.flat
    table.send("Ann", "buy SV")  # she may still move; Ben's clock starts now
    assert table.due("Ben") == "2026-05-15T10:00:00.000+00:00"


def test_pass_policy_in_the_auction_and_the_stock_round(tmp_path: Path) -> None:
    table = ModTable(tmp_path, {"deadline": "24h", "on_deadline": "pass", "remind": "none"})
    [fired] = table.tick(hours=24)
    assert fired.note == "pass: 1 moves"
    assert table.commands() == ["Ann: pass"]
    [event] = [e for e in table.events("command")]
    assert event["source"] == "policy:pass" and event["actor"] == "Ann"
    mails = table.new_mail()
    [turn] = [m for m in mails if "Ben to act" in m.subject]
    assert turn.recipient == "ben@players.test"
    assert "Ann's deadline, Tue 2026-05-05 10:00 UTC, has passed." in turn.text
    assert "Ann passes." in turn.text
    assert not [m for m in table.to("Ben", mails) if "Deadline passed" in m.subject]
    finish_auction(table)
    first = table.waiting()[0]
    table.clock.advance(hours=1)
    table.send(first, "par PRR 67")
    second = table.waiting()[0]
    table.tick(hours=24)  # the next player passes
    assert table.commands()[-1] == f"{second}: pass"
    assert table.waiting() not in ([first], [second])


def test_pass_policy_in_the_operating_round(tmp_path: Path) -> None:
    """6.1: no track, no station, the best run paid out (6.4, 6.5), no train unless one
    is forced; the turn ends."""
    table = ModTable(tmp_path, {"deadline": "48h", "on_deadline": "pass", "remind": "none"})
    play(table, TO_FIRST_OR)
    assert table.state().round["kind"] == "operating" and table.waiting() == ["Ann"]  # PRR
    table.tick(hours=48)  # no train and no route: nothing to run or to buy
    assert table.commands()[-1] == "Ann: pass"
    assert table.state().round.get("current") == "C&O" and table.waiting() == ["Cat"]
    play(table, [("Cat", "done"), *[(who, "pass") for who in ("Dan", "Ann", "Ben", "Cat")]])
    # Operating round 2.1 (phase 2: one a set): PRR has no train yet and no route
    play(table, [("Ann", "lay 57 H10 W-E; buy train; buy train; done"), ("Cat", "done")])
    play(table, [(who, "pass") for who in ("Dan", "Ann", "Ben", "Cat")])
    state = table.state()
    assert state.round["kind"] == "operating" and state.round["current"] == "PRR"
    tiles = dict(state.board.tiles)
    table.tick(hours=48)
    assert table.commands()[-3:] == ["Ann: run", "Ann: payout", "Ann: pass"]
    [run] = [e for e in table.store.effective_events(table.game) if e["text"] == "run"][-1:]
    assert run["source"] == "policy:pass"
    assert any("runs for $30" in line for line in run["log"])
    state = table.state()
    assert dict(state.board.tiles) == tiles and state.corps["PRR"].trains == ["2", "2"]
    assert table.waiting() == ["Cat"]


def test_policy_buys_a_forced_train_the_company_can_pay_for() -> None:
    """6.6.2: a corporation with a route and no train must buy one: the policy buys the
    cheapest the company pays for alone."""
    table = first_operating_round()
    table.act("A", "lay", tile="57", hex="H10", exits=["W", "E"], **{"with": None})
    result = pass_policy(table.state, "A")
    assert result.stuck is None
    assert result.actions == [
        {"type": "buy_train", "train": "2", "source": "bank", "price": None, "trade": None},
        {"type": "pass"}]


def test_policy_waits_for_the_referee_when_the_president_must_pay() -> None:
    """6.6.3: when the company cannot pay, the president's own money (or his shares) is
    needed, which the policy does not decide."""
    table = first_operating_round()
    table.act("A", "lay", tile="57", hex="H10", exits=["W", "E"], **{"with": None})
    give_cash(table, "c:PRR", 40 - table.state.corps["PRR"].cash)
    result = pass_policy(table.state, "A")
    assert result.actions == []
    assert result.stuck is not None and "A's own money" in result.stuck



def test_policy_makes_an_1870_connection_run() -> None:
    """1870 Connection Run (p.22-23): at the deadline the marker is placed at the
    destination and the run paid out; the round goes on with the next company."""
    table = Table1870(["A", "B", "C", "D"], phase="3")
    start(table, "FW", 100, {"A": 6}, cash=500)
    start(table, "TP", 90, {"B": 6}, cash=300)
    home(table, "FW")
    home(table, "TP")
    give_trains(table, "FW", "4")
    lay_track(table, shortest_path(table, "J3", "A2"))
    operating(table, "FW", step="trains", run={"revenue": 50, "routes": []},
              dividend="withhold")
    table.act("A", "pass")
    assert table.state.round["connection"]["corp"] == "FW"
    result = pass_policy(table.state, "A")
    assert result.stuck is None
    assert [a["type"] for a in result.actions] == ["destination", "run", "payout"]
    assert result.actions[0]["marker"] == "place"
