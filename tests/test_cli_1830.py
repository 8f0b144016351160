"""The CLI end to end: the rulebook's auction example (1.2), bad input, audit, undo."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_driver import Cli

BOOK = [
    ("Gerald", "bid CA 165"), ("Dave", "bid BO 225"), ("Bruce", "bid DH 75"),
    ("Alex", "bid $170 on CA"), ("Gerald", "bid DH 80"), ("Dave", "buy"),
    ("Bruce", "pass"), ("Alex", "buy CS"), ("Bruce", "bid 85"), ("Gerald", "bid 90"),
    ("Bruce", "bid 95"), ("Gerald", "pass"), ("Gerald", "buy"), ("Gerald", "bid 175"),
    ("Alex", "bid 200"), ("Gerald", "bid 207"), ("Alex", "bid 212"), ("Gerald", "pass"),
    ("Dave", "par B&O 100"),
]


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path / "pbem.db")


def book_game(cli: Cli) -> int:
    game = cli.new("Gerald", "Dave", "Bruce", "Alex")
    for who, command in BOOK:
        cli.act(game, who, command)
    return game


def test_1_2_book_auction_example_through_pbem_act(cli: Cli) -> None:
    game = book_game(cli)
    state = cli.show(game)
    players = {p["name"]: p for p in state["players"]}
    assert (players["Gerald"]["cash"], players["Gerald"]["privates"]) == (490, ["MH"])
    assert (players["Dave"]["cash"], sorted(players["Dave"]["privates"])) == (355, ["BO", "SV"])
    assert players["Dave"]["priority"] and players["Dave"]["shares"] == {"B&O": 20}
    assert (players["Bruce"]["cash"], players["Bruce"]["privates"]) == (505, ["DH"])
    assert (players["Alex"]["cash"], sorted(players["Alex"]["privates"])) == (348, ["CA", "CS"])
    assert players["Alex"]["shares"] == {"PRR": 10}
    assert state["round"] == "stock round 1" and state["to_act"] == ["Dave"]
    assert cli.ok("audit", str(game)).strip() == f"audit ok: {len(BOOK)} events"


def test_several_commands_are_all_or_nothing(cli: Cli) -> None:
    game = cli.new("A", "B", "C")
    cli.act(game, "A", "bid CS 45")
    before = cli.events(game)
    message = cli.refused("act", str(game), "--as", "B", "bid DH 75; bid CS 50")
    assert "Not done: bid CS 50" in message and "C's turn" in message
    assert cli.events(game) == before  # the first, legal, bid was not recorded either
    cli.act(game, "B", "bid DH 75")
    assert cli.events(game) == before + 1


@pytest.mark.parametrize(
    ("who", "command", "expected"),
    [
        ("A", "frobnicate", "not a command"),
        ("B", "buy", "A's turn"),
        ("Zed", "buy", "no player 'Zed'"),
        ("A", "bid CS 44", "minimum bid for CS is $45"),
        ("A", "bid CS 4500", "you have $800"),
        ("A", "bid XX 50", "XX"),
        ("A", "bid CS fifty", "fifty"),
        ("A", "bid CS 45.5", "whole"),
        ("A", "buy DH", "cheapest"),
        ("A", "par PRR 82", "private auction"),
        ("A", "sell 2 PRR", "private auction"),
        ("A", "bid SV 25", "cheapest"),
        ("A", "", "no command"),
        ("A", ";;;", "no command"),
        ("A", "lay 57 H12", "private auction"),
    ],
)
def test_bad_input_gets_a_sentence_and_nothing_is_recorded(
    cli: Cli, who: str, command: str, expected: str
) -> None:
    game = cli.new("A", "B", "C")
    message = cli.refused("act", str(game), "--as", who, command)
    assert expected.lower() in message.lower(), message
    assert cli.events(game) == 0


def test_unknown_game_and_setup_errors(cli: Cli) -> None:
    assert "no game #9" in cli.refused("show", "9").lower()
    result = cli.run("new", "1830", "--player", "A:a@example.org")
    assert result.exit_code == 2 and "2 to 6 players" in result.stderr
    result = cli.run("new", "1830", "--player", "A:a@x.org", "--player", "B:b@x.org",
                     "--option", "stock_turn=sideways")
    assert result.exit_code == 2 and "sell-buy-sell" in result.stderr
    result = cli.run("new", "1899", "--player", "A:a@x.org", "--player", "B:b@x.org")
    assert result.exit_code == 2 and "1830" in result.stderr


def test_undo_is_an_appended_revert_event(cli: Cli) -> None:
    game = cli.new("A", "B", "C")
    cli.act(game, "A", "buy")
    cli.act(game, "B", "buy")
    assert cli.ok("undo", str(game), "--to", "1").strip() == "[3] revert to 1"
    state = cli.show(game)
    assert {p["name"]: p["privates"] for p in state["players"]}["B"] == []
    assert state["to_act"] == ["B"]
    assert cli.events(game) == 3
    cli.act(game, "B", "bid DH 80")
    assert cli.ok("audit", str(game)).startswith("audit ok: 4 events")
    assert "[2] " in cli.ok("log", str(game))


def test_audit_names_a_tampered_event(cli: Cli, tmp_path: Path) -> None:
    import sqlite3

    game = cli.new("A", "B", "C")
    cli.act(game, "A", "buy")
    cli.act(game, "B", "buy")
    con = sqlite3.connect(cli.db)
    con.execute("DROP TRIGGER IF EXISTS events_no_update")
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type='trigger'").fetchall():
        con.execute(f"DROP TRIGGER {name}")
    con.execute("UPDATE events SET text = 'buy SV' WHERE seq = 2")
    con.commit()
    result = cli.run("audit", str(game))
    assert result.exit_code == 1 and "event 2" in result.stderr


def test_every_command_has_help_with_an_example(cli: Cli) -> None:
    from pbem.cli import main

    for name in main.commands:
        text = cli.ok(name, "--help")
        assert "Example" in text, name
