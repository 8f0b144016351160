"""Text renderings: hidden information per recipient, the compact prompt, the market's
stacking order, line lengths of a mail's parts, `pbem show`."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from cli_driver import Cli
from enginehelp import Table, sell_all_privates
from positions import late_1830, midgame_1830
from renderhelp import check_lines, row

from pbem.engine.game import new_game
from pbem.render import full_text, mail_parts, market_text, prompt_text, state_json
from pbem.render.board_text import text_board
from pbem.render.market_text import stacks
from pbem.render.prompt import offers
from pbem.render.tables import tables_text

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


# -- hidden information -----------------------------------------------------------------------


def test_open_game_shows_everything_to_everyone() -> None:
    state = midgame_1830()
    text = tables_text(state, "Carol")
    assert row(text, "Alice")[1] == "$182" and row(text, "NYC")[2] == "$145"


def test_corporation_cash_hidden_except_for_the_president() -> None:
    state = midgame_1830()
    state.options["visibility"] = "corporation-cash-hidden"
    bob = tables_text(state, "Bob")
    assert row(bob, "NYC")[2] == "$145" and row(bob, "B&O")[2] == "$460"  # his own
    assert row(bob, "PRR")[2] == "?" and row(bob, "NYNH")[2] == "?"
    assert row(bob, "Alice")[1] == "$182"  # player cash stays open
    assert "hidden by the game's visibility option" in bob
    assert row(tables_text(state), "PRR")[2] == "$312"  # the referee sees all


def test_player_cash_hidden_each_sees_his_own() -> None:
    state = midgame_1830()
    state.options["visibility"] = "player-cash-hidden"
    carol = tables_text(state, "Carol")
    assert row(carol, "Carol")[1] == "$311" and row(carol, "Carol")[3] == "$627"
    assert row(carol, "Alice")[1] == "?" and row(carol, "Alice")[3].endswith("+?")
    assert row(carol, "PRR")[2] == "?"  # secret money: treasuries too (V-0.1)
    data = state_json(state, viewer="Carol")
    cash = {p["name"]: p["cash"] for p in data["players"]}
    assert cash == {"Alice": None, "Bob": None, "Carol": 311, "Dave": None}
    assert {c["symbol"]: c["treasury"] for c in data["corporations"]}["PRR"] is None


def test_prompt_of_the_president_shows_his_treasury_only() -> None:
    state = midgame_1830()
    state.options["visibility"] = "player-cash-hidden"
    parts = mail_parts(state, "Dave")
    assert "$47" in parts.text  # his own cash
    assert "$182" not in parts.text and "$312" not in parts.text
    assert "$182" not in parts.html and "$312" not in parts.html


# -- the prompt -------------------------------------------------------------------------------


def first_stock_round() -> Table:
    table = Table(["Ann", "Ben", "Cat", "Dan"])
    sell_all_privates(table, ["Ann", "Ben", "Cat", "Dan"])
    return table


def test_par_moves_fold_into_one_line() -> None:
    table = first_stock_round()
    who = table.current
    found = offers(table.state, who)
    pars = [o for o in found if o.example.startswith("par ")]
    assert len(pars) == 1
    assert re.search(r"PRR\|NYC\|.* at 67, 71, 76, 82, 90 or 100 \(costs twice par\)",
                     pars[0].note)
    text = prompt_text(table.state, who, ["Ann buys SV for $20."])
    assert text.startswith(f"Waiting for {who} (stock round 1).")
    assert "Since your last turn:\n  Ann buys SV for $20." in text
    assert len(text.splitlines()) < 16
    check_lines(text)


def test_auction_prompt_has_minimum_bids_and_prices() -> None:
    state = new_game("1830", ["Ann", "Ben", "Cat"], 1, {"seating": "fixed"})
    text = prompt_text(state, "Ann")
    assert "buy SV" in text and "costs $20" in text
    assert re.search(r"bid CS 45 +at least \$45", text)
    assert prompt_text(state, "Ben").endswith("Ben, you have nothing to do now.")


def test_every_offer_example_is_a_legal_command_text() -> None:
    from pbem.engine.game import legal_moves
    from pbem.notation import format_action

    table = first_stock_round()
    who = table.current
    legal = {format_action(m["action"]) for m in legal_moves(table.state)[who]}
    for offer in offers(table.state, who):
        assert offer.example in legal, offer


# -- market -----------------------------------------------------------------------------------


def test_market_stack_order_follows_arrival() -> None:
    state = midgame_1830()  # PRR arrived at (3, 7) before B&O
    assert stacks(state)[(3, 7)] == ["PRR", "B&O"]
    text = market_text(state)
    assert "PRR on top of B&O" in text and "*    PB" in text
    state.corps["PRR"].arrival, state.corps["B&O"].arrival = 9, 3
    assert "B&O on top of PRR" in market_text(state)
    assert "Operating order: NYC $90 (done), PRR $82, B&O $82, NYNH $67" in text


# -- mail parts and show ----------------------------------------------------------------------


def test_mail_parts_fit_and_agree() -> None:
    state = late_1830()
    parts = mail_parts(state, "Alice", ["Bob lays tile 57 on H16."])
    check_lines(parts.text)
    assert parts.text.count("\n") > 150
    assert "Since your last turn:" in parts.text and "HEXES" in parts.text
    ET.fromstring(parts.svg)
    if parts.png is not None:
        assert parts.png.startswith(PNG_SIGNATURE)
        assert 'src="cid:map"' in parts.html
    else:
        assert "<svg" in parts.html
    assert parts.html.startswith("<!DOCTYPE html>") and "<pre" in parts.html
    assert 'style="background:#237333;color:#ffffff;font-weight:bold">PRR</span>' in parts.html


def test_show_prints_every_section(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "pbem.db")
    game = cli.new("Ann", "Ben", "Cat")
    cli.act(game, "Ann", "buy SV")
    out = cli.ok("show", str(game), "--as", "ben")
    for heading in ("Waiting for Ben", "Ben, you may now", "Player Cash", "STOCK MARKET",
                    "MAP (1830", "HEXES"):
        assert heading in out
    check_lines(out)
    data = json.loads(cli.ok("show", str(game), "--format", "json", "--as", "Ann"))
    assert data["players"][0]["cash"] == 780
    ET.fromstring(cli.ok("show", str(game), "--format", "svg"))
    page = cli.ok("show", str(game), "--format", "html")
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "cid:" not in page


def test_full_text_and_board_of_the_start() -> None:
    state = midgame_1830()
    check_lines(full_text(state))
    board = text_board(state)
    assert "H12 Altoona  printed gray  W-E city $10 [PRR]  W-E" in board
    assert "G19 New York & Newark  #54 green NY" in board
