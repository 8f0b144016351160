"""Absences, pausing, replacing and removing players, and the referee by mail and at
the command line (issue 12, items 2 to 4), on an injected clock."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import fast_key_hashes
from moderation_table import REFEREE, TO_FIRST_OR, ModTable, play

from pbem.mail.processing.command_line import carry_out
from pbem.service import CommandError


@pytest.fixture
def table(tmp_path: Path) -> ModTable:
    return ModTable(tmp_path, {"deadline": "72h", "away_max": "14d"})


# -- absences ------------------------------------------------------------------------------------


def test_away_stops_the_players_clock_and_the_others_are_told(table: ModTable) -> None:
    table.clock.advance(hours=24)  # Ann has 48 h left
    table.new_mail()
    table.send("Ann", "away until 2026-05-10 holiday in Rome")
    assert table.due("Ann") == "2026-05-12T00:00:00.000+00:00"  # 48 h after she is back
    mails = table.new_mail()
    [reply] = table.to("Ann", mails)
    assert "Ann is away until Sun 2026-05-10 (holiday in Rome); Ann's deadlines wait." \
        in reply.flat
    for name in ("Ben", "Cat", "Dan", "referee"):
        [notice] = table.to(name, mails)
        assert "Ann is away until Sun 2026-05-10 (holiday in Rome)" in notice.flat
    assert table.tick(days=3) == []  # her old deadline, Thu 10:00, does not pass
    table.send("Ann", "back")  # Fri 2026-05-08 10:00: back early, with her 48 h
    assert table.due("Ann") == "2026-05-10T10:00:00.000+00:00"
    assert [e["command"]["type"] for e in table.moderation("away", "back")] == ["away", "back"]


def test_a_decision_that_begins_while_away_starts_when_he_is_back(table: ModTable) -> None:
    table.send("Ben", "away until 2026-05-08")
    table.clock.advance(hours=1)
    table.send("Ann", "buy SV")  # now Ben must act; his time starts Friday 00:00
    assert table.due("Ben") == "2026-05-11T00:00:00.000+00:00"
    table.new_mail()
    table.send("Cat", "show")
    [answer] = table.to("Cat", table.new_mail())
    assert "Ben is away until Fri 2026-05-08." in answer.flat


def test_away_within_the_games_limit_and_in_the_future(table: ModTable) -> None:
    table.send("Ann", "away until 2026-06-30")
    [reply] = table.to("Ann", table.new_mail())
    assert "Not done" in reply.subject
    assert "a player may be away at most 14 days at a time (option away_max)" in reply.flat
    assert "is not in the future" in table.answer("Ann", "away until 2026-05-01").flat
    assert "Ann is not away." in table.answer("Ann", "back").flat
    assert table.moderation("away", "back") == []


def test_away_for_days_and_in_the_players_own_zone(table: ModTable) -> None:
    table.store.set_player_setting(table.game, 0, "tz", "America/New_York")
    table.send("Ann", "away until 2026-05-06")  # midnight in New York: 04:00 UTC
    [away] = table.moderation("away")
    assert away["command"]["until"] == "2026-05-06T04:00:00.000+00:00"
    table.send("Ann", "back; away for 2d")
    assert table.moderation("away")[-1]["command"]["until"] == "2026-05-06T10:00:00.000+00:00"


# -- pause and resume ----------------------------------------------------------------------------


def test_pause_stops_the_clock_and_takes_only_the_referees_commands(table: ModTable) -> None:
    table.clock.advance(hours=60)  # Ann has 12 h left
    table.send("referee", "pause")
    assert table.store.game(table.game)["status"] == "paused"
    mails = table.new_mail()
    for name in ("Ann", "Ben", "Cat", "Dan"):
        [notice] = table.to(name, mails)
        assert notice.subject == "[1830 #1] The referee pauses the game"
        assert "The game is paused by the referee" in notice.flat
    table.send("Ann", "buy SV")
    [reply] = table.to("Ann", table.new_mail())
    assert "The game is paused by the referee" in reply.flat and table.commands() == []
    table.send("Ann", "history 5; say are we waiting?")  # answers and talk still work
    assert table.to("Ann", table.new_mail())[0].subject.startswith("[1830 #1] Done")
    assert table.tick(days=10) == []  # no deadline passes while paused
    table.send("referee", "as Ann buy SV")  # the referee acts for a player
    assert table.commands() == ["referee: as Ann buy SV"]
    table.send("referee", "resume")
    # Ben's decision began while the game was paused: his 72 h start at the resume.
    assert table.due("Ben") == "2026-05-19T22:00:00.000+00:00"
    table.send("Ben", "buy CS")
    assert table.commands()[-1] == "Ben: buy CS"


def test_resume_gives_each_deadline_the_time_it_had_left(table: ModTable) -> None:
    table.clock.advance(hours=60)
    table.send("referee", "pause")
    table.clock.advance(days=3)
    table.new_mail()
    table.send("referee", "resume")
    assert table.due("Ann") == "2026-05-10T10:00:00.000+00:00"  # 12 h after the resume
    mails = table.new_mail()
    [notice] = table.to("Ann", mails)
    assert "Ann must act by Sun 2026-05-10 10:00 UTC." in notice.flat


def test_only_the_referee_pauses(table: ModTable) -> None:
    table.send("Ann", "pause")
    [reply] = table.to("Ann", table.new_mail())
    assert "Only the referee may pause the game." in reply.flat
    assert table.store.game(table.game)["status"] == "active"


# -- the referee ---------------------------------------------------------------------------------


def test_the_referee_needs_his_address_and_his_key(table: ModTable) -> None:
    outcome = table.send("referee", "pause", sender="ann@players.test")
    assert outcome.note.startswith("rejected")
    outcome = table.send("referee", "pause", to=table.address("Ann"))  # a player's code
    assert outcome.note.startswith("rejected")
    assert table.store.game(table.game)["status"] == "active"
    mails = table.new_mail()
    assert any(m.recipient == REFEREE and "was not accepted" in m.flat for m in mails)


def test_deadline_and_extend_by_the_referee_are_announced(table: ModTable) -> None:
    table.clock.advance(hours=10)
    table.send("referee", "deadline 48h")
    assert table.due("Ann") == "2026-05-06T10:00:00.000+00:00"  # 48 h from her start
    mails = table.new_mail()
    [notice] = table.to("Ben", mails)
    assert "The referee sets the time allowed: 2 days for each decision." in notice.flat
    table.send("referee", "extend Ann 24h")
    assert table.due("Ann") == "2026-05-07T10:00:00.000+00:00"
    [notice] = table.to("Ann", table.new_mail())
    assert "The referee gives Ann 1 day more: Ann must now act by Thu 2026-05-07 10:00 UTC." \
        in notice.flat
    table.send("referee", "extend Ben 24h")
    [reply] = table.to("referee", table.new_mail())
    assert "Ben has no deadline running now" in reply.flat
    table.send("Ann", "buy SV")  # the next decision has the new time
    assert table.due("Ben") == "2026-05-06T20:00:00.000+00:00"


def test_the_referees_reply_names_the_event_that_records_each_change(table: ModTable) -> None:
    """Every recorded change is answered under its event number, the referee's too, so a
    referee can revert to it or find it in `pbem log`."""
    reply = table.answer("referee", "extend Ann 24h\npause")
    [extend] = table.moderation("extend")
    [pause] = table.moderation("pause")
    assert f"[{extend['seq']}] The referee gives Ann 1 day more" in reply.flat
    assert f"[{pause['seq']}] The referee pauses the game" in reply.flat
    refused = table.answer("referee", "extend Ben 24h")
    assert "Ben has no deadline running now" in refused.flat
    assert "[" not in refused.flat.split("Ben has no deadline")[0].splitlines()[-1]


def test_an_extension_after_the_deadline_passed(table: ModTable) -> None:
    table.tick(hours=72)  # late under the wait policy
    table.clock.advance(hours=5)
    table.send("referee", "extend Ann 24h")  # from now
    assert table.due("Ann") == "2026-05-08T15:00:00.000+00:00"
    [fired] = table.tick(hours=24)
    assert (fired.what, fired.player) == ("expiry", "Ann")


def test_the_referee_at_the_command_line(table: ModTable) -> None:
    result = carry_out(table.store, table.game, "referee", "as Ann buy SV; deadline 24h",
                       now=table.clock.now)
    assert result.lines[0] == "[2] as Ann buy SV"
    assert result.waiting == ["Ben"] and table.due("Ben") == "2026-05-05T10:00:00.000+00:00"
    [event] = [e for e in table.events("command")]
    assert event["actor"] == "referee" and event["command"]["player"] == "Ann"
    with pytest.raises(CommandError, match="Only the referee may act for another player"):
        carry_out(table.store, table.game, "Ben", "as Cat pass", now=table.clock.now)


def test_revert_by_the_referee(table: ModTable) -> None:
    play(table, [("Ann", "buy"), ("Ben", "buy"), ("Cat", "buy")])
    seq = [e for e in table.events("command")][0]["seq"]
    table.new_mail()
    table.send("referee", f"revert to {seq}")
    assert table.commands() == ["Ann: buy"]
    mails = table.new_mail()
    [notice] = [m for m in table.to("Cat", mails) if "The referee" in m.subject]
    assert f"The referee reverts the game to event {seq}: takes back" in notice.flat
    assert table.waiting() == ["Ben"]


# -- replacing and removing players --------------------------------------------------------------


def test_replace_keeps_the_seat_and_refuses_the_old_address(table: ModTable) -> None:
    play(table, TO_FIRST_OR[:9])
    holdings = table.state().player("Ann").cash
    table.new_mail()
    with fast_key_hashes():
        table.send("referee", "replace Ann with Eve eve@players.test")
    ann = table.player("Ann")
    assert (ann["email"], ann["person"], ann["status"]) == ("eve@players.test", "Eve",
                                                           "playing")
    mails = table.new_mail()
    [welcome] = table.to("Ann", mails)  # the seat's address is Eve's now
    assert welcome.recipient == "eve@players.test"
    assert welcome.subject == "[1830 #1] Welcome to game #1, Ann"
    assert "Hello Eve (seat Ann)" in welcome.text
    assert "You take over the seat Ann" in welcome.flat
    assert "Private auction:" in welcome.text and "Ann buys SV" in welcome.flat  # so far
    assert "Your secret key is:" in welcome.text
    for name in ("Ben", "Cat", "Dan"):
        [notice] = table.to(name, mails)
        assert "Eve (eve@players.test) plays the seat Ann from now on" in notice.flat
    assert not [m for m in mails if m.recipient == "ann@players.test"]
    # Ann's old reply address and key no longer work; Eve's do.
    outcome = table.send("Ann", "par PRR 67", sender="ann@players.test",
                         to=table.address("Ann"))
    assert outcome.note.startswith("rejected: the referee gave your seat Ann")
    [refused] = [m for m in table.new_mail() if m.recipient == "ann@players.test"]
    assert "no longer taken" in refused.flat
    table.send("Ann", "par PRR 67")  # from eve@players.test with the seat's new code
    assert table.commands()[-1] == "Ann: par PRR 67"
    assert table.state().player("Ann").cash == holdings - 134


def test_kick_plays_the_seat_by_the_pass_policy(table: ModTable) -> None:
    table.send("referee", "kick Ann")
    assert table.player("Ann")["status"] == "kicked"
    fired = table.tick()  # at once, whatever the game's policy
    assert [f.what for f in fired] == ["expiry"]
    assert table.commands() == ["Ann: pass"]
    [event] = table.events("command")
    assert event["source"] == "policy:kick"
    outcome = table.send("Ann", "buy SV")
    assert outcome.note.startswith("rejected: the referee removed you from game #1")
    mails = table.new_mail()
    assert not [m for m in mails if m.recipient == "ann@players.test"
                and "your turn" in m.text]
    play(table, [("Ben", "buy"), ("Cat", "buy"), ("Dan", "buy")])
    table.tick()  # Ann's seat passes again
    assert table.commands()[-1] == "Ann: pass"
    table.send("referee", "kick Ann")
    [reply] = table.to("referee", table.new_mail())
    assert "Ann was removed already" in reply.flat


def test_the_referee_gets_the_games_dead_letters(table: ModTable,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("renderer exploded")

    monkeypatch.setattr("pbem.mail.processing.process.notify_others", broken)
    outcome = table.send("Ann", "buy SV")
    assert outcome.status == "dead" and table.commands() == []
    [copy] = table.to("referee", table.new_mail())
    assert copy.subject == "[1830 #1] A mail could not be processed"
    assert "RuntimeError: renderer exploded" in copy.flat and "pbem inbox retry" in copy.flat
    [row] = table.store.inbox_list("dead")
    assert row["game_id"] == table.game
