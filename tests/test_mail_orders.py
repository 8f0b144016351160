"""Standing orders (issue 13): auto pass, auto buy PRR until 60%, auto cancel, auto; by
mail and by the command line. Each executed order is its player's command with the
source 'auto <seq>'; orders are dropped, with a mail to their player, when the round
ends, when someone else buys or sells a share of the corporation, or when the
player's cash no longer covers a share."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_driver import Cli
from click.testing import CliRunner
from mailtable import Table, check_widths

from pbem import service
from pbem.cli import main
from pbem.orders import current_orders

AUCTION = [("Ann", "buy SV"), ("Ben", "buy CS"), ("Cat", "buy DH"), ("Dan", "buy MH"),
           ("Ann", "buy CA"), ("Ben", "buy BO"), ("Ben", "par B&O 100")]


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)


def stock_round_1(table: Table) -> None:
    """Ann: SV, CA (and 10% PRR); Ben: CS, BO (B&O president at $100); Cat: DH; Dan: MH.
    Stock round 1, Cat to act (priority), then Dan, Ann, Ben."""
    for name, command in AUCTION:
        assert table.send(name, command).status == "processed"
    table.new_mail()
    assert service.load(table.store, table.game).round["current"] == "Cat"


def flat(text: str) -> str:
    """The text with its line breaks and indentation as single spaces (sentences are
    wrapped to 78 columns)."""
    return " ".join(text.split())


def events(table: Table) -> list[dict[str, object]]:
    return table.store.events(table.game)


def test_auto_pass_passes_each_turn_until_the_round_ends(table: Table) -> None:
    table.send("Dan", "auto pass")  # private auction, Ann to act: nothing happens yet
    [reply] = table.to("Dan", table.new_mail())
    assert "auto pass: pass in each of your turns for the rest of this round" in flat(reply.text)
    table.send("Ann", "buy SV")
    table.send("Ben", "buy CS")
    table.send("Cat", "buy DH")  # Dan's turn: his order passes for him
    passed = [e for e in events(table) if e["actor"] == "Dan" and e["kind"] == "command"]
    assert [e["text"] for e in passed] == ["pass"]
    order_seq = next(e["seq"] for e in events(table) if e["kind"] == "order")
    assert passed[0]["source"] == f"auto {order_seq}"
    mails = table.new_mail()
    cat = table.to("Cat", mails)[-1]  # the answer to her mail
    assert "Dan: pass" in flat(cat.text) and "(Dan's standing order auto pass)" in flat(cat.text)
    assert table.to("Dan", mails) == [] or all("your turn" not in flat(m.text)
                                               for m in table.to("Dan", mails))
    for name, command in [("Ann", "buy MH"), ("Ben", "buy CA")]:
        table.send(name, command)
    table.new_mail()
    table.send("Cat", "buy BO")  # the last private: Dan passes again, then Cat pars B&O
    table.send("Cat", "par B&O 100")  # the auction ends: Dan's order with it
    mails = table.new_mail()
    dan = table.to("Dan", mails)[-1]
    assert "Your standing order auto pass is dropped: the round it was for has ended." in \
        flat(dan.text)
    check_widths(dan.text)
    assert current_orders(table.store.events_of_kind(table.game, ("order",))) == {}
    assert service.audit(table.store, table.game).problem is None


def test_auto_buy_until_a_share_of_the_corporation(table: Table) -> None:
    stock_round_1(table)
    table.send("Cat", "auto buy B&O until 30%")  # Cat's turn: buys at once
    table.send("Dan", "pass")
    table.send("Ann", "pass")
    table.send("Ben", "pass")  # Cat's turn again: buys her second B&O share
    state = service.load(table.store, table.game)
    assert state.percent("B&O", "p:Cat") == 20
    texts = [(e["actor"], e["text"], e["source"]) for e in events(table)
             if e["kind"] == "command" and str(e["source"]).startswith("auto")]
    assert [t[:2] for t in texts] == [("Cat", "buy B&O"), ("Cat", "buy B&O")]
    table.send("Dan", "pass")
    table.send("Ann", "pass")
    table.send("Ben", "pass")  # Cat buys her third share: 30%
    table.send("Dan", "pass")
    table.send("Ann", "pass")
    table.send("Ben", "pass")  # Cat holds 30%: her order passes
    state = service.load(table.store, table.game)
    assert state.percent("B&O", "p:Cat") == 30
    assert [e["text"] for e in events(table) if e["actor"] == "Cat"
            and e["kind"] == "command"][-1] == "pass"
    assert service.audit(table.store, table.game).problem is None


def test_a_buy_order_is_dropped_when_someone_else_buys_that_corporation(table: Table) -> None:
    stock_round_1(table)
    table.send("Dan", "auto buy B&O")  # not his turn: set, nothing done
    table.new_mail()
    table.send("Cat", "buy B&O")  # Cat buys a B&O share: Dan's order assumed otherwise
    mails = table.new_mail()
    [dan] = table.to("Dan", mails)
    assert "Your standing order auto buy B&O is dropped: Cat bought or sold B&O shares" \
        in flat(dan.text)
    assert "it is your turn" in flat(dan.text)  # the note rides on his your-turn mail
    assert current_orders(table.store.events_of_kind(table.game, ("order",))) == {}


def test_a_buy_order_is_dropped_when_the_cash_no_longer_covers_it(table: Table) -> None:
    stock_round_1(table)
    for _ in range(5):  # Cat buys B&O while Dan, Ann and Ben pass: $430 -> $30
        if service.load(table.store, table.game).player("Cat").cash < 100:
            break
        table.send("Cat", "buy B&O")
        for name in ("Dan", "Ann", "Ben"):
            table.send(name, "pass")
    table.new_mail()
    assert service.waiting_for(service.load(table.store, table.game)) == ["Cat"]
    table.send("Cat", "auto buy B&O")  # her turn, $30 left: dropped at once
    [reply] = table.to("Cat", table.new_mail())
    assert "auto buy B&O is dropped: your cash ($30) no longer covers a B&O share ($100)" \
        in flat(reply.text)
    assert "It is your turn." in flat(reply.text)  # nothing was done for her


def test_an_order_acts_only_at_the_start_of_its_player_s_turn(tmp_path: Path) -> None:
    """The player may always act himself first: a buy, then auto pass in the same mail;
    the order does nothing in this turn and passes in the next one."""
    table = Table(tmp_path)
    stock_round_1(table)
    table.send("Cat", "buy B&O\nauto pass")
    cat = [e for e in events(table) if e["actor"] == "Cat" and e["kind"] == "command"]
    assert [e["text"] for e in cat][-1] == "buy B&O" and not str(cat[-1]["source"]) \
        .startswith("auto")
    for name in ("Dan", "Ann", "Ben"):
        table.send(name, "pass")  # Cat's turn: her order passes; all passed: SR 1 ends
    cat = [e for e in events(table) if e["actor"] == "Cat" and e["kind"] == "command"]
    assert cat[-1]["text"] == "pass" and str(cat[-1]["source"]).startswith("auto")
    rnd = service.load(table.store, table.game).round  # nothing floated: no operating round
    assert (rnd["kind"], rnd["number"]) == ("stock", 2)
    assert current_orders(table.store.events_of_kind(table.game, ("order",))) == {}
    assert service.audit(table.store, table.game).problem is None


def test_auto_lists_cancels_and_refuses(table: Table) -> None:
    table.send("Ann", "auto")
    [reply] = table.to("Ann", table.new_mail())
    assert "You have no standing order" in flat(reply.text)
    table.send("Ann", "auto buy PRR")
    [reply] = table.to("Ann", table.new_mail())
    assert "Not done" in reply.subject
    assert "auto buy PRR works in a stock round" in flat(reply.text)
    table.send("Ann", "auto cancel")
    [reply] = table.to("Ann", table.new_mail())
    assert "You have no standing order to cancel." in flat(reply.text)
    table.send("Dan", "auto pass")
    table.send("Dan", "auto")
    [reply] = table.to("Dan", table.new_mail())[-1:]
    assert "Your standing order: auto pass" in flat(reply.text)
    table.send("Dan", "auto cancel")
    [reply] = table.to("Dan", table.new_mail())
    assert "Dan cancels the standing order auto pass." in flat(reply.text)
    assert current_orders(table.store.events_of_kind(table.game, ("order",))) == {}
    # nobody else hears of a player's orders
    others = [m for m in table.all_mail() if m.recipient != "dan@players.test"]
    assert others and not [m for m in others if "Dan sets" in flat(m.text)]


def test_settings_list_the_order(table: Table) -> None:
    table.send("Dan", "auto pass\nsettings")
    [reply] = table.to("Dan", table.new_mail())
    assert "auto pass" in flat(reply.text) and "your standing order" in flat(reply.text)


def test_orders_by_the_command_line(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "pbem.db")
    game = cli.new("Ann", "Ben", "Cat")
    assert "Cat sets a standing order: auto pass" in cli.act(game, "Cat", "auto pass")
    cli.act(game, "Ann", "buy SV")
    out = cli.act(game, "Ben", "buy CS")
    assert "Cat: pass" in out and "(Cat's standing order auto pass)" in out
    assert "Your standing order: auto pass" in cli.act(game, "Cat", "auto")
    assert "audit ok" in cli.ok("audit", str(game))


# -- settings ------------------------------------------------------------------------------------


def test_settings_are_events_of_their_player(table: Table) -> None:
    table.send("Ann", "mail compact\npicture off\ntz europe/berlin\nnotify round\nsettings")
    [reply] = table.to("Ann", table.new_mail())
    text = flat(reply.text)
    for line in ("mail compact", "picture off", "tz Europe/Berlin", "notify round"):
        assert line in text
    ann = table.store.players(table.game)[0]
    assert (ann["mail"], ann["picture"], ann["tz"], ann["notify"]) == \
        ("compact", "off", "Europe/Berlin", "round")
    settings = [e for e in events(table) if e["kind"] == "setting"]
    assert [e["text"] for e in settings] == ["mail compact", "picture off", "tz Europe/Berlin",
                                            "notify round"]
    table.send("Ann", "tz Mars/Olympus")
    [refused] = table.to("Ann", table.new_mail())
    assert "'Mars/Olympus' is not a time zone" in flat(refused.text)
    table.send("Ben", "history 10")
    [history] = table.to("Ben", table.new_mail())
    assert "mail compact" not in history.text  # a player's settings are his alone


def test_key_new_replaces_the_key_and_the_reply_address(table: Table) -> None:
    old_address = table.address("Ann")
    table.send("Ann", "key new")
    mails = table.to("Ann", table.new_mail())
    [new_key] = [m for m in mails if "Your new key" in m.subject]
    [reply] = [m for m in mails if "Done" in m.subject]
    key = new_key.text.split("Your new secret key is:")[1].split()[0]
    table.players = {p["name"]: p for p in table.store.players(table.game)}
    new_address = table.address("Ann")
    assert new_address != old_address and new_address in flat(new_key.text)
    assert reply.message["Reply-To"].addresses[0].addr_spec == new_address
    assert new_key.message["Reply-To"].addresses[0].addr_spec == new_address
    assert [e["text"] for e in events(table)] == ["key new"]
    assert key not in str(events(table))  # the key itself is never on the record
    refused = table.send("Ann", "buy SV", to=old_address)
    assert refused.status == "ignored" and table.texts() == ["key new"]
    assert table.send("Ann", "buy SV", to=new_address).status == "processed"
    assert table.send("Ben", f"key {key}\nbuy CS", to="pbem@games.test",
                      subject=f"[1830 #{table.game}]").status == "ignored"


# -- private talk --------------------------------------------------------------------------------


def test_private_talk_reaches_only_those_named(tmp_path: Path) -> None:
    table = Table(tmp_path, options={"private_talk": "referee"})
    table.send("Ann", "say to Ben: shall we share the B&O?\nsay good luck all")
    mails = table.new_mail()
    [ben] = table.to("Ben", mails)
    assert "(to Ben) shall we share the B&O?" in flat(ben.text)
    assert "good luck all" in flat(ben.text)
    for name in ("Cat", "Dan"):
        [mail] = table.to(name, mails)
        assert "shall we share" not in mail.text and "good luck all" in flat(mail.text)
    [referee] = [m for m in mails if m.recipient == "ref@games.test"]
    assert "shall we share" in flat(referee.text) and "good luck" not in referee.text
    talk = [e for e in events(table) if e["kind"] == "talk"]
    assert [e["text"] for e in talk] == ["say to Ben: shall we share the B&O?",
                                         "say good luck all"]
    table.send("Cat", "history 5")
    [history] = table.to("Cat", table.new_mail())
    assert "shall we share" not in history.text and "say good luck all" in history.text
    table.send("Ann", "buy SV")
    table.new_mail()
    table.send("Ben", "buy CS")  # Cat's turn: what happened since does not show the secret
    [turn] = [m for m in table.to("Cat", table.new_mail()) if "your turn" in m.text]
    assert "good luck all" in flat(turn.text) and "shall we share" not in turn.text


def test_talk_is_never_undone(table: Table) -> None:
    """Table talk was stored as an event of kind setup and, after a revert, shown as
    "(undone)"."""
    table.send("Ann", "buy SV\nsay sorry, Ben")
    table.send("Ann", "undo")
    table.send("Ben", "history 10")
    [history] = table.to("Ben", table.new_mail())[-1:]
    lines = history.text.splitlines()
    assert any("say sorry, Ben" in line and "(undone)" not in line for line in lines)
    assert any(line.endswith("buy SV (undone)") for line in lines)
    assert [e["kind"] for e in events(table) if "sorry" in str(e["text"])] == ["talk"]


def test_private_talk_stays_off_the_archive_page_and_the_site_log(tmp_path: Path) -> None:
    """The archive page and the 18xx.games log are shared with everybody: private talk,
    standing orders and settings are not on them; the referee's copy has them."""
    table = Table(tmp_path)
    table.send("Ann", "say to Ben: shall we share the B&O?\nsay good luck all\nauto pass")
    table.new_mail()
    db = str(table.store.db.conn.execute("PRAGMA database_list").fetchone()[2])

    def export(*args: str) -> str:
        result = CliRunner().invoke(main, ["--db", db, "export", str(table.game), *args])
        assert result.exit_code == 0, result.output
        return result.output

    public, referee = export("--format", "html"), export("--format", "html", "--private")
    site = export("--format", "18xx")
    for shared in (public, site):
        assert "good luck all" in shared and "shall we share" not in shared
    assert '<tr class="order"' not in public  # the order itself; what it did is public
    assert "shall we share" in referee and '<tr class="order"' in referee
