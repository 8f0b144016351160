"""The mail service's processing, without servers: one stored message in, one
transaction, the reply and the notifications in the outbox."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from mailtable import NOW, Table, check_widths

from pbem import service
from pbem.mail.config import Limits
from pbem.mail.outbound.welcome import queue_welcome


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)


def test_all_or_nothing(table: Table) -> None:
    assert table.send("Ann", "buy SV\nbid CA 5").status == "processed"
    assert table.texts() == []
    mails = table.new_mail()
    [reply] = table.to("Ann", mails)
    assert "Not done" in reply.subject
    assert "bid CA 5" in reply.text and "None of the commands" in reply.text
    assert "bid CA 165" in reply.text  # the closest legal commands
    assert table.to("Ben", mails) == []


def test_turn_reply_and_updates(table: Table) -> None:
    table.send("Ann", "buy SV")
    mails = table.new_mail()
    [reply] = table.to("Ann", mails)
    assert reply.subject == f"[1830 #{table.game}] Done - Private auction: Ben to act"
    assert reply.message["In-Reply-To"]
    [turn] = table.to("Ben", mails)
    assert "it is your turn" in turn.text and "What you can do now:" in turn.text
    assert re.search(r"^  buy CS +costs \$40\r?$", turn.text, re.M)
    [update] = table.to("Cat", mails)
    assert "Ann buys SV for $20." in update.text
    for mail in mails:
        assert mail.message["Auto-Submitted"] == "auto-generated"
        assert mail.message["X-PBEM-Game"] == str(table.game)
        assert mail.message["Reply-To"].addresses[0].addr_spec.startswith(f"pbem+{table.game}.")
        assert mail.message["References"].strip().startswith(f"<pbem.{table.game}.sr0@")
        check_widths(mail.text)


def test_any_time_commands(table: Table) -> None:
    outcome = table.send("Cat", "say Hello; good luck\nhelp bid\nshow\nhistory 5\nnotify turn")
    assert outcome.status == "processed"
    mails = table.new_mail()
    [reply] = table.to("Cat", mails)
    assert "Done" in reply.subject
    assert "help bid: bid CA 170" in reply.text
    assert "The last 1 of 1 events:" in reply.text
    assert "notify turn" in reply.text
    assert table.store.player(table.game, 2)["notify"] == "turn"
    talk = table.to("Ann", mails)
    assert len(talk) == 1 and "Cat says: Hello; good luck" in talk[0].subject
    assert table.texts() == ["say Hello; good luck", "notify turn"]
    assert service.audit(table.store, table.game).problem is None
    assert service.load(table.store, table.game).round["kind"] == "auction"


def test_undo_own_last(table: Table) -> None:
    table.send("Ann", "buy SV")
    table.new_mail()
    table.send("Ben", "undo")
    assert "Not done" in table.to("Ben", table.new_mail())[0].subject
    table.send("Ann", "undo")
    mails = table.new_mail()
    assert "Done" in table.to("Ann", mails)[0].subject
    assert table.to("Ann", mails)[0].text.count("What you can do now:") == 1
    state = service.load(table.store, table.game)
    assert state.privates["SV"].owner == "bank"


def test_notify_turn_and_round(table: Table) -> None:
    table.send("Cat", "notify turn")
    table.send("Dan", "notify round")
    table.new_mail()
    table.send("Ann", "buy SV")
    mails = table.new_mail()
    assert table.to("Cat", mails) == [] and table.to("Dan", mails) == []
    for name, command in [("Ben", "buy CS"), ("Cat", "buy DH"), ("Dan", "buy MH"),
                          ("Ann", "buy CA"), ("Ben", "buy BO")]:
        table.send(name, command)
    mails = table.new_mail()
    assert not [m for m in table.to("Dan", mails) if "this round" in m.text]
    table.send("Ben", "par B&O 100")  # the auction is over: stock round 1 begins
    mails = table.new_mail()
    digest = [m for m in table.to("Dan", mails) if "What happened this round:" in m.text]
    assert len(digest) == 1 and "Ann buys SV for $20." in digest[0].text


def test_keys(table: Table) -> None:
    key = table.keys["Ann"]
    assert table.send("Ann", f"key {key}\nbuy SV", to="pbem@games.test",
                      subject=f"[1830 #{table.game}] move").status == "processed"
    assert table.texts() == ["buy SV"]
    outcome = table.send("Ben", "buy CS", to="pbem@games.test",
                         subject=f"Re: [1830 #{table.game} key {table.keys['Ben']}]")
    assert outcome.status == "processed" and table.texts()[-1] == "buy CS"
    outcome = table.send("Cat", "key AAAAAAAA\nbuy DH", to="pbem@games.test",
                         subject=f"[1830 #{table.game}]")
    assert outcome.status == "ignored" and "not yours" in outcome.note
    table.new_mail()


def test_routing_by_reference(table: Table) -> None:
    queue_welcome(table.store, table.config, table.game, table.keys, NOW)
    welcome = table.to("Ann", table.new_mail())[0]
    outcome = table.send("Ann", f"buy SV\nkey {table.keys['Ann']}", to="pbem@games.test",
                         subject="Re: hello",
                         headers={"In-Reply-To": str(welcome.message["Message-ID"])})
    assert outcome.status == "processed" and outcome.game_id == table.game
    lost = table.send("Ann", "buy SV", to="pbem@games.test", subject="hello")
    assert lost.status == "ignored" and "no game" in lost.note


def test_reply_cap_stops_a_loop(tmp_path: Path) -> None:
    """A player's own autoresponder (no robot headers) answers every mail: the daily
    cap on replies ends the loop."""
    table = Table(tmp_path, limits=Limits(replies_per_address_per_day=3))
    table.send("Ann", "I am on holiday until Monday.")
    rounds = 0
    while (answer := table.to("Ann", table.new_mail())) and rounds < 20:
        rounds += 1
        table.send("Ann", "I am on holiday until Monday.\n\n> " + answer[0].subject)
    assert rounds == 3  # three replies in all, then silence
    assert table.texts() == []


def test_dead_letter_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(tmp_path)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("renderer exploded")

    monkeypatch.setattr("pbem.mail.processing.process.notify_others", broken)
    outcome = table.send("Ann", "buy SV")
    assert outcome.status == "dead" and "renderer exploded" in outcome.note
    assert table.texts() == []  # nothing of it was applied
    [row] = table.store.inbox_list("dead")
    assert "RuntimeError" in row["error"]
    monkeypatch.undo()
    from pbem.mail.processing.inbox import retry

    assert retry(table.store, table.config, row["id"], NOW).status == "processed"
    assert table.texts() == ["buy SV"]


def test_game_over_mail(table: Table) -> None:
    from pbem.mail.outbound.notify import Activity, game_over_mail

    state = service.load(table.store, table.game)
    state.finished = True
    state.result = {"reason": "The bank is broken.", "scores": {"Ann": 4200, "Ben": 5100},
                    "winners": ["Ben"], "bankrupt": None}
    run = Activity(table.game, "Ann", happened=["Ann: pass"])
    out = game_over_mail(table.config, table.store.game(table.game), table.players["Cat"],
                         state, run)
    assert out.subject == f"[1830 #{table.game}] Game over: Ben wins"
    from pbem.mail.outbound.templates import fill

    text = fill(table.config.templates_dir, out.template, out.values)
    assert "The bank is broken." in text
    assert text.index("Ben          $5100") < text.index("Ann          $4200")


# -- issue 13: what a game by email found ------------------------------------------------------


def test_greeting_above_the_commands_is_ignored_and_listed(table: Table) -> None:
    """'Hi all!' above 'bid CA 170' failed the whole mail ("Did you mean: bid CA 165?")."""
    assert table.send("Ann", "Hi all!\n\nbid CA 170\n\nOn Monday, pbem wrote:\n> old\n") \
        .status == "processed"
    assert table.texts() == ["bid CA 170"]
    [reply] = table.to("Ann", table.new_mail())
    assert "Done" in reply.subject
    ignored = reply.text[reply.text.index("Ignored lines:"):]
    assert "Hi all!  (not a command, above your first command)" in ignored
    table.send("Ben", "biid CS 45")  # a misspelt command is no greeting: refused with a hint
    [refused] = table.to("Ben", table.new_mail())
    assert "Not done" in refused.subject and "bid CS 45" in refused.text
    assert table.texts() == ["bid CA 170"]


def test_a_mail_without_commands_is_answered_within_78_columns(table: Table) -> None:
    table.send("Ann", "Hello,\n\n-- \nAnn, with a signature that is long enough to matter")
    [reply] = table.to("Ann", table.new_mail())
    assert "Your mail had no commands." in reply.text
    check_widths(reply.text)


def test_lines_per_mail_above_fifty(tmp_path: Path) -> None:
    """limits.lines_per_mail above 50 had no effect (a fixed 50 cut first)."""
    table = Table(tmp_path, limits=Limits(lines_per_mail=60))
    table.send("Ann", "\n".join(f"say {n}" for n in range(58)))
    assert len(table.texts()) == 58
    (tmp_path / "small").mkdir()
    small = Table(tmp_path / "small", limits=Limits(lines_per_mail=3))
    small.send("Ann", "say 1\nsay 2\nsay 3\nsay 4")
    assert small.texts() == ["say 1", "say 2", "say 3"]
    [reply] = small.to("Ann", small.new_mail())
    assert "say 4  (more than 3 command lines)" in reply.text


def test_a_key_line_routes_a_mail_without_a_tag(table: Table) -> None:
    """A mail from a registered address with a valid key line but no tag in the subject
    ("my move in 1830 #1") was silently ignored."""
    key = table.keys["Ann"]
    outcome = table.send("Ann", f"buy SV\nkey {key}", to="pbem@games.test",
                         subject=f"my move in 1830 #{table.game}")
    assert outcome.status == "processed" and outcome.game_id == table.game
    assert table.texts() == ["buy SV"]
    table.new_mail()
    lost = table.send("Ben", "buy CS", to="pbem@games.test", subject="my move")
    assert lost.status == "ignored"
    [answer] = table.to("Ben", table.new_mail())
    assert answer.subject == "Which game is your mail for?"
    assert f"[1830 #{table.game}]  you play Ben (active)" in answer.text
    assert answer.message["In-Reply-To"]
    stranger = table.send("Ben", "buy CS", to="pbem@games.test", subject="my move",
                          sender="nobody@elsewhere.test")
    assert stranger.status == "ignored" and table.new_mail() == []


def test_rejections_answer_in_the_game_s_thread(table: Table) -> None:
    """Rejection mails carried no In-Reply-To/References; the warning about a stranger
    using a player's reply address told the wrong person to answer with Reply and never
    said the address had leaked or how to get a new one."""
    table.send("Ann", "buy SV", to="pbem@games.test", subject=f"[1830 #{table.game}]")
    [own] = table.to("Ann", table.new_mail())
    assert own.subject.endswith("Your mail was not accepted")
    assert own.message["In-Reply-To"]
    assert f"<pbem.{table.game}.sr0@" in own.message["References"]
    table.send("Ann", "buy SV", sender="mallory@elsewhere.test")
    mails = table.new_mail()
    [warning] = table.to("Ann", mails)
    # the warning goes to Ann alone; the game's referee gets his copy of the rejection
    assert [m.recipient for m in mails] == ["ref@games.test", "ann@players.test"]
    assert warning.subject.endswith("Your reply address has leaked")
    assert "came from mallory@elsewhere.test" in warning.text
    assert "key new" in warning.text and 'answer with "Reply"' not in warning.text
    assert f"<pbem.{table.game}.sr0@" in warning.message["References"]
    check_widths(warning.text)


def test_subjects_are_cut_at_the_end_of_a_word(table: Table) -> None:
    table.send("Cat", "say Gentlemen, I propose an alliance against the Pennsylvania "
               "tonight")
    talk = table.to("Ann", table.new_mail())[0]
    assert talk.subject.endswith("Cat says: Gentlemen, I propose an alliance...")
