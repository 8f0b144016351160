"""Finding games (issue 12, item 7: pbem games, list by mail, history ranges) and the
round report (item 8), checked on a game played here and against an 18xx.games log
whose figures are read from the log itself."""

from __future__ import annotations

import os
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid
from pathlib import Path

import pytest
from cli_driver import Cli
from moderation_table import TO_FIRST_OR, ModTable, play

from pbem import service
from pbem.importer import import_log
from pbem.importer.sitelog import effective_actions, read_log
from pbem.render.report import build_report, report_text

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PBEM_SHARED", ROOT.parent / "shared"))
FIXTURES = SHARED / "fixtures" / "18xx.games"
#: One log of each title (the others agree too; the import takes a few seconds each).
LOGS = [FIXTURES / "1830" / "29133.json",
        FIXTURES / "1870" / "1644327587 Mississippi river madness.json"]


# -- pbem games ----------------------------------------------------------------------------------


def test_pbem_games_lists_where_each_game_stands(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "pbem.db")
    first = cli.new("Ann", "Ben", "Cat", deadline="72h")
    second = cli.new("Dan", "Eve")
    cli.act(second, "Dan", "buy")
    cli.ok("act", str(first), "--as", "referee", "pause")
    out = cli.ok("games")
    assert f"#{first:<4} 1830  private auction  [paused]" in out
    assert "players: Ann, Ben, Cat" in out
    assert f"#{second:<4} 1830  private auction" in out
    assert "to act: Eve since " in out
    assert "deadline:" not in out.split(f"#{second}")[1]  # no deadlines in that game
    only = cli.ok("games", "--status", "paused")
    assert f"#{first}" in only and f"#{second}" not in only
    cli.ok("act", str(first), "--as", "referee", "resume")
    out = cli.ok("games")
    assert "to act: Ann since " in out and "deadline: " in out.split(f"#{second}")[0]


# -- list and history by mail --------------------------------------------------------------------


def test_list_by_mail_with_and_without_a_game(tmp_path: Path) -> None:
    table = ModTable(tmp_path, {"deadline": "72h"})
    table.send("Ann", "list")
    [answer] = table.to("Ann", table.new_mail())
    assert "Your games (ann@players.test):" in answer.text
    assert "#1 1830, private auction; you play Ann." in answer.flat
    assert "to act: Ann since Mon 2026-05-04 10:00 UTC" in answer.flat
    assert "deadline: Thu 2026-05-07 10:00 UTC" in answer.flat
    # to the service's address, no tag, no key: only the sender's own games, only to him
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ben@players.test", "pbem@games.test", "games?"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content("list\n\n-- \nBen")
    outcome = table.deliver(msg.as_bytes(policy=SMTP))
    assert outcome.status == "processed"
    [answer] = table.new_mail()
    assert answer.recipient == "ben@players.test" and "you play Ben" in answer.flat
    msg.replace_header("From", "stranger@else.test")
    msg.replace_header("Message-ID", make_msgid(domain="else.test"))
    assert table.deliver(msg.as_bytes(policy=SMTP)).status == "ignored"
    assert table.new_mail() == []
    table.send("referee", "list")
    [answer] = table.to("referee", table.new_mail())
    assert "#1 1830, private auction; you referee it." in answer.flat


def test_history_ranges(tmp_path: Path) -> None:
    table = ModTable(tmp_path)
    play(table, TO_FIRST_OR[:6])
    assert "Events 2 to 4 of 6:\n[2] Ben: buy\n[3] Cat: buy\n[4] Dan: pass" in \
        table.answer("Ann", "history 2-4").text
    assert "The game has events 1 to 6; there is none from 40 to 50." in \
        table.answer("Ann", "history 40-50").flat


# -- the round report ----------------------------------------------------------------------------


def test_report_of_a_game_played_here(tmp_path: Path) -> None:
    """Figures known from the moves: the auction's prices, SR 1's pars and buys, PRR's
    two 2-trains at $80 (phase 2), and in OR 2.1 PRR's $30 run (H10-H12) paid out."""
    table = ModTable(tmp_path)
    play(table, [*TO_FIRST_OR, ("Ann", "lay 57 H10 W-E; buy train; buy train; done"),
                 ("Cat", "done"), *[(who, "pass") for who in ("Dan", "Ann", "Ben", "Cat")],
                 ("Ann", "run\npayout\ndone")])
    report = build_report(service.initial(table.store, table.game),
                          table.store.effective_events(table.game))
    titles = [r.title for r in report.rounds]
    assert titles == ["Private auction", "Stock round 1", "Operating round 1.1",
                      "Stock round 2", "Operating round 2.1"]
    auction = report.rounds[0].lines
    assert auction[:3] == ["Ann buys SV for $20.", "Ben buys CS for $40.",
                           "Cat buys DH for $70."]
    assert "Dan buys BO for $220." in auction and "Dan receives 20% of B&O." in auction
    assert "Ann starts PRR at $67 (-$134)." in report.rounds[1].lines
    assert [(b.corp, b.train, b.price) for b in report.trains] == [("PRR", "2", 80)] * 2
    assert [(r.corp, r.revenue, r.dividend) for r in report.rounds[4].runs] == \
        [("PRR", 30, "payout")]
    text = report_text(report)
    assert "Operating round 2.1:\n  PRR runs for $30, paid out ($3 a share)." in text
    cli = Cli(table.store_path)
    assert cli.ok("report", str(table.game)) == text
    page = cli.ok("export", str(table.game), "--format", "html")
    assert "<h2>Round by round</h2>" in page
    assert "PRR runs for $30, paid out ($3 a share)." in page


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.parent.name)
def test_report_agrees_with_the_18xx_games_log(tmp_path: Path, path: Path) -> None:
    """Each company's revenue and dividend, each train bought and its price, and the final
    scores, as the log's own actions state them (an 1870 connection run is paid or kept
    like any run there)."""
    if not path.exists():
        pytest.skip(f"{path} is absent: the 18xx.games logs live in ../shared (or "
                    "$PBEM_SHARED)")
    log = read_log(path)
    store = ModTable(tmp_path, referee=None).store
    _, imported = import_log(store, str(path), emails={}, to=None,
                             now="2026-01-01T00:00:00+00:00")
    report = build_report(service.initial(store, imported.game_id),
                          store.effective_events(imported.game_id))
    actions = effective_actions(log.actions)
    runs, trains = [], []
    for index, action in enumerate(actions):
        if action["type"] == "run_routes":
            revenue = sum(route["revenue"] for route in action["routes"])
            kind = next(a["kind"] for a in actions[index + 1:] if a["type"] == "dividend")
            runs.append((action["entity"], revenue, kind))
        elif action["type"] == "buy_train":
            trains.append((action["entity"], action["price"]))
    ours = [(r.corp, r.revenue, r.dividend.removeprefix("connection "))
            for r in report.runs if r.revenue > 0]
    theirs = [run for run in runs if run[1] > 0]
    assert ours == theirs and len(ours) > 20
    assert [(b.corp, b.price) for b in report.trains] == trains
    names = imported.names
    assert {names[key]: score for key, score in log.result_by_key().items()} == report.scores
    assert report.finished and "Final scores" in report_text(report)
