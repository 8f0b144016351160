"""Every game mail shows what happened since the recipient's last turn (issue #6):
the log lines of the events after his last command that counts, everything since the
start for a player who has not acted yet, bounded for a long absence. The same
section in ``pbem show GAME --as PLAYER``."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_driver import Cli
from mailtable import NOW, Mail, Table

from pbem import service
from pbem.mail.outbound.compose import build, message_id
from pbem.mail.outbound.notify import Activity, game_over_mail
from pbem.render import RECENT_LIMIT, since_last_turn


def section(mail: Mail) -> list[str]:
    """The lines under "Since your last turn:" (their continuation lines joined)."""
    lines = mail.text.replace("\r\n", "\n").splitlines()
    assert lines.count("Since your last turn:") == 1, mail.text
    found: list[str] = []
    for line in lines[lines.index("Since your last turn:") + 1:]:
        if line.startswith("    "):
            found[-1] += " " + line.strip()
        elif line.startswith("  "):
            found.append(line.strip())
        else:
            break
    return found


def only(mails: list[Mail]) -> Mail:
    assert len(mails) == 1, [m.subject for m in mails]
    return mails[0]


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)


def play(table: Table, *moves: tuple[str, str]) -> list[Mail]:
    """Send each move by mail (each must be done); the mails queued by the last one."""
    mails: list[Mail] = []
    for name, body in moves:
        assert table.send(name, body).status == "processed"
        mails = table.new_mail()
        assert only(table.to(name, mails)).subject.split("] ")[1].startswith("Done"), body
    return mails


FIRST_LAP = [("Ann", "buy SV"), ("Ben", "buy CS"), ("Cat", "buy DH"), ("Dan", "buy MH")]


def test_your_turn_shows_the_moves_since_the_own_last_move(table: Table) -> None:
    mails = play(table, *FIRST_LAP, ("Ann", "pass"), ("Ben", "pass"), ("Cat", "pass"))
    turn = only(table.to("Dan", mails))
    assert "it is your turn" in turn.text
    assert section(turn) == ["Ann passes.", "Ben passes.", "Cat passes."]
    # nothing from before Dan's own last move (buy MH), nor that move itself
    assert "Ann buys SV" not in turn.text and "Cat buys DH" not in turn.text
    assert "Dan buys MH" not in turn.text
    # under the commands, as the renderer puts it; no second "What happened:"
    text = turn.text.replace("\r\n", "\n")
    assert text.index("What you can do now:") < text.index("Since your last turn:")
    assert text.index("Since your last turn:") < text.index("The game now")
    assert "What happened:" not in text


def test_updates_show_the_moves_since_the_own_last_move(table: Table) -> None:
    mails = play(table, *FIRST_LAP, ("Ann", "pass"), ("Ben", "pass"), ("Cat", "pass"))
    assert section(only(table.to("Ann", mails))) == ["Ben passes.", "Cat passes."]
    assert section(only(table.to("Ben", mails))) == ["Cat passes."]
    assert "news from" in only(table.to("Ann", mails)).text


def test_a_player_who_has_not_acted_sees_everything_so_far(table: Table) -> None:
    mails = play(table, ("Ann", "buy SV"))
    assert section(only(table.to("Dan", mails))) == ["Ann buys SV for $20."]
    mails = play(table, ("Ben", "buy CS"), ("Cat", "buy DH"))
    assert section(only(table.to("Dan", mails))) == [
        "Ann buys SV for $20.", "Ben buys CS for $40.", "Cat buys DH for $70."]


def test_talk_and_undo_in_the_recap(table: Table) -> None:
    play(table, ("Cat", "say good luck"), ("Ann", "buy SV"), ("Ben", "buy CS"))
    mails = play(table, ("Ben", "undo"))
    # Cat's own talk is not news to her; the undo says what it took back
    assert section(only(table.to("Cat", mails))) == ["Ann buys SV for $20.",
                                                     "Ben takes back: buy CS"]
    assert section(only(table.to("Dan", mails))) == ["Cat says: good luck",
                                                     "Ann buys SV for $20.",
                                                     "Ben takes back: buy CS"]
    # Ben's undone move no longer counts as his last turn; his own undo is no news
    assert since_last_turn(table.store.events(table.game), "Ben") == [
        "Cat says: good luck", "Ann buys SV for $20."]
    mails = play(table, ("Ben", "buy CS"))
    assert section(only(table.to("Cat", mails))) == [
        "Ann buys SV for $20.", "Ben takes back: buy CS", "Ben buys CS for $40."]


def test_a_long_absence_is_cut_to_the_last_lines(table: Table) -> None:
    chatter = [f"say note {n:02}" for n in range(1, 81)]
    play(table, ("Ann", "\n".join(chatter[:40])), ("Ann", "\n".join(chatter[40:])))
    mails = play(table, ("Ann", "buy SV"))
    shown = section(only(table.to("Ben", mails)))
    assert len(shown) == RECENT_LIMIT
    left_out = 81 - (RECENT_LIMIT - 1)
    assert shown[0] == (f'({left_out} earlier lines left out; the command "history 50" '
                        "lists the last 50 moves.)")
    assert shown[1] == f"Ann says: note {left_out + 1:02}"
    assert shown[-2:] == ["Ann says: note 80", "Ann buys SV for $20."]


def test_since_last_turn_from_the_stored_events(table: Table) -> None:
    play(table, *FIRST_LAP, ("Ann", "pass"))
    events = table.store.events(table.game)
    assert since_last_turn(events, "Ann") == []
    assert since_last_turn(events, "Ben") == ["Cat buys DH for $70.", "Dan buys MH for $110.",
                                              "Ann passes."]
    assert since_last_turn(events, "Ben", limit=2, more="see the log") == [
        "(2 earlier lines left out; see the log.)", "Ann passes."]
    assert since_last_turn(events, "Ben", limit=3) == since_last_turn(events, "Ben")


def test_game_over_mail_shows_the_recap(table: Table) -> None:
    state = service.load(table.store, table.game)
    state.finished = True
    state.result = {"reason": "The bank is broken.", "scores": {"Ann": 4200, "Ben": 5100},
                    "winners": ["Ben"], "bankrupt": None}
    run = Activity(table.game, "Ann", happened=["Ann: pass"])
    game = table.store.game(table.game)
    for name, recent, shown in (("Cat", ["Ann passes."], "Since your last turn:"),
                                ("Ann", [], "What happened:")):
        out = game_over_mail(table.config, game, table.players[name], state, run, recent)
        raw = build(table.config, out, message_id(table.config, table.game, "over"), NOW)
        assert shown in Mail({"recipient": out.recipient, "raw": raw}).text


def test_show_as_a_player(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "pbem.db")
    game = cli.new("Ann", "Ben", "Cat")
    for who, command in (("Ann", "buy SV"), ("Ben", "buy CS"), ("Cat", "buy DH")):
        cli.act(game, who, command)
    text = cli.ok("show", str(game), "--as", "Ben")
    assert "Since your last turn:\n  Cat buys DH for $70.\n" in text
    assert "Ann buys SV" not in text
    html = cli.ok("show", str(game), "--as", "Ben", "--format", "html")
    assert "Cat buys DH for $70." in html
    assert "Since your last turn:" not in cli.ok("show", str(game))
