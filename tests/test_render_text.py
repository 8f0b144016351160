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

from pbem.engine.game import legal_moves, new_game, to_act
from pbem.notation import parse_command
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
    """Each example is legal as it stands, all of its commands in turn ('buy PRR; done')."""
    from pbem.engine.game import apply_facts, decide
    from pbem.notation import split_commands
    from pbem.service import parse_context

    table = first_stock_round()
    who = table.current
    for offer in offers(table.state, who):
        state = table.state.clone()
        for _, command in split_commands(offer.example, parse_context(state)):
            action = parse_command(command, parse_context(state))
            apply_facts(state, decide(state, who, action).facts)


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
    assert '<b style="background:#237333;color:#fff">PRR</b>' in parts.html


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


def play_round(table: Table) -> None:
    """Play the current round to its end: run and pay out, buy a train when one must,
    else pass (test set-up)."""
    def key() -> tuple[object, ...]:
        rnd = table.state.round
        return rnd["kind"], rnd.get("number", rnd.get("sr")), rnd.get("index")

    start = key()
    while key() == start:
        who = to_act(table.state)[0]
        moves = [dict(m["action"]) for m in legal_moves(table.state)[who]]
        pick = next((m for kind in ("run", "payout", "buy_train", "pass")
                     for m in moves if m["type"] == kind), moves[0])
        table.act(who, pick.pop("type"), **pick)


def test_done_column_is_this_round_s() -> None:
    """Issue 13: the Done column showed 'yes' for every company at the start of every
    operating round from OR 2.1 on (it read 'has ever operated')."""
    from enginehelp import first_operating_round

    table = first_operating_round()
    play_round(table)  # OR 1.1
    play_round(table)  # SR 2
    assert table.state.round["kind"] == "operating" and table.state.round["sr"] == 2
    rows = {line.split()[0]: line.split()[-1] for line in tables_text(table.state, None)
            .splitlines() if line[:4] in ("PRR ", "C&O ")}
    assert rows == {"PRR": "no", "C&O": "no"}
    assert "operating round 2.1 of 2 -" in tables_text(table.state, None)
    first = table.state.round["current"]
    while table.state.round["current"] == first:  # the first company operates
        who = table.current
        moves = [dict(m["action"]) for m in legal_moves(table.state)[who]]
        pick = next((m for kind in ("run", "payout", "pass")
                     for m in moves if m["type"] == kind), moves[0])
        table.act(who, pick.pop("type"), **pick)
    done = {line.split()[0]: line.split()[-1] for line in tables_text(table.state, None)
            .splitlines() if line[:4] in ("PRR ", "C&O ")}
    assert done == {first: "yes", ({"PRR", "C&O"} - {first}).pop(): "no"}


def test_run_example_is_the_operating_company_s_own() -> None:
    """Issue 13: the prompt's run example for NYC named PRR's track (run 2: H12-H10), and
    a company owning only a 3-train was offered run 2: ...; a company without a route
    worth anything is told so instead of being shown an example."""
    from enginehelp import first_operating_round, give_train

    from pbem.render.prompt import example_route

    table = first_operating_round()
    for corp in ("PRR", "C&O"):
        table.state.corps[corp].trains = []
    give_train(table, "C&O", "3")
    give_train(table, "PRR", "2")
    seen: list[str] = []
    while len(seen) < 2:
        who, corp = table.current, str(table.state.round["current"])
        moves = [dict(m["action"]) for m in legal_moves(table.state)[who]]
        if any(m["type"] == "run" for m in moves):
            [offer] = [o for o in offers(table.state, who) if o.example == "run"]
            assert offer.note.startswith("no route earns anything yet")
            home = table.state.rules.corp(corp).home
            train = table.state.corps[corp].trains[0]
            assert example_route(table.state) == f"{train}: {home}-..."
            seen.append(corp)
            table.act(who, "run", routes=None)
            continue
        pick = next(m for m in moves if m["type"] in ("payout", "withhold", "pass"))
        table.act(who, pick.pop("type"), **pick)
    assert sorted(seen) == ["C&O", "PRR"]
    for state in (midgame_1830(), late_1830()):
        current = state.round.get("current")
        if not current:
            continue
        for name in state.names:
            for offer in offers(state, name):
                found = re.search(r"e\.g\. run (\w+):", offer.note)
                if offer.example == "run" and found:
                    assert found.group(1) in state.corps[current].trains


def test_a_stock_turn_is_one_mail() -> None:
    """Issue 13: from stock round 2 on every turn cost two mails, because a buy does not
    end the turn and nothing suggested 'buy PRR; done'. The your-turn prompt shows it
    where the turn goes on after the buy, and 'done' once the player has acted."""
    from enginehelp import first_operating_round, privates_sold_b_and_o_parred

    table = privates_sold_b_and_o_parred()  # stock round 1: a buy ends the turn there
    who = table.current
    assert "buy B&O" in [o.example for o in offers(table.state, who)]
    table = first_operating_round()
    play_round(table)  # OR 1.1: stock round 2, a buy leaves the turn open (sales)
    who = table.current
    examples = [o.example for o in offers(table.state, who)]
    assert "buy PRR; done" in examples and "pass" in examples
    table.act(who, "buy_share", corp="PRR", source=None, count=1)
    assert table.current == who
    examples = [o.example for o in offers(table.state, who)]
    assert "done" in examples and "pass" not in examples
    table.act(who, "pass")
    assert table.current != who
