"""1830 V-6.5, the Erie's extra 20% certificate (option erie_20): two of the Erie's 10%
shares are replaced by one 20% certificate, "erhältlich, sobald das Direktorzertifikat
gekauft wurde"; any player may buy it "anstatt eines 10%-Anteils"; its owner may sell
only 10% of it "falls mindestens ein 10%-Zertifikat 'zum Wechseln' im Bankpool liegt.
Aktien in der Bank können dafür nicht verwendet werden" (German rulebook, p.32).

Each test plays the same position with and without the option; docs/options.md gives
the readings taken (the ordinary shares are sold first; the new president hands over
two 10% shares, or the 20% certificate when he has no two; the pool limit is 50%)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_driver import Cli
from enginehelp import Table, first_operating_round, give_cash, prr_forced_to_buy
from selfplay import play_whole_game, replay_matches

from pbem.engine.context import Ctx
from pbem.engine.dividends import distribute
from pbem.engine.dividends import share_units as dividend_units
from pbem.engine.game import legal_moves, new_game
from pbem.engine.shares import certificate_count, certificate_limit
from pbem.engine.state import IPO, POOL, player_holder
from pbem.engine.title import load_title
from pbem.notation import format_action, parse_commands
from pbem.render.prompt import prompt_text
from pbem.render.tables import holdings_text, tables_text
from pbem.service import parse_context

#: the index of the Erie's extra 20% certificate with the option (a 10% share without)
EXTRA = 1


def erie_parred(**options: str) -> Table:
    """Stock round 2 of enginehelp's 4-player game (PRR: A, C&O: C, NYC: B, B&O: D),
    every player given $1,000 more; D pars ERIE at $67 and ends the turn: A to act."""
    t = first_operating_round(**options)
    while t.state.round["kind"] == "operating":
        t.act(t.current, "pass")
    for name in "ABCD":
        give_cash(t, player_holder(name), 1000)
    t.act("D", "par", corp="ERIE", price=67)
    t.act("D", "pass")
    assert t.current == "A"
    return t


def hold(t: Table, holder: str, *indexes: int) -> None:
    """Put ERIE certificates with ``holder`` (test set-up)."""
    for index in indexes:
        t.state.corps["ERIE"].certs[index] = holder


def turn_of(t: Table, who: str) -> None:
    while t.current != who:
        t.act(t.current, "pass")


def buy(t: Table, who: str, percent: int | None = None, source: str | None = None) -> None:
    extra = {"percent": percent} if percent else {}
    t.act(who, "buy_share", corp="ERIE", source=source, count=1, **extra)


def buy_refused(t: Table, who: str, percent: int | None = None,
                source: str | None = None) -> str:
    extra = {"percent": percent} if percent else {}
    return t.refused(who, "buy_share", corp="ERIE", source=source, count=1, **extra)


def sell(t: Table, who: str, count: int) -> None:
    t.act(who, "sell", sales=[{"corp": "ERIE", "count": count}])


def certs_of(t: Table, holder: str) -> list[int]:
    return t.state.cert_indexes("ERIE", holder)


# -- the certificates -----------------------------------------------------------------------


def test_v6_5_two_erie_shares_become_one_20_certificate() -> None:
    plain = new_game("1830", ["A", "B"], 1, {})
    extra = new_game("1830", ["A", "B"], 1, {"erie_20": "yes"})
    assert plain.rules.cert_percents("ERIE") == (20,) + (10,) * 8
    assert extra.rules.cert_percents("ERIE") == (20, 20, 10, 10, 10, 10, 10, 10)
    assert len(plain.corps["ERIE"].certs) == 9 and len(extra.corps["ERIE"].certs) == 8
    assert extra.percent("ERIE", IPO) == 100
    for sym in ("PRR", "NYC", "B&M"):  # only the Erie's certificates change
        assert extra.rules.cert_percents(sym) == plain.rules.cert_percents(sym)


def test_v6_5_the_option_is_off_by_default_and_goes_with_the_base_game() -> None:
    """V-6.5 changes certificates only: nothing in the base game's rules (groups, loans,
    open information) conflicts with it."""
    rules = load_title("1830")
    assert rules.resolve_options({})["erie_20"] == "no"
    options = rules.resolve_options({"game": "base", "erie_20": "yes"})
    assert options["privates"] == "groups" and options["erie_20"] == "yes"


# -- buying -------------------------------------------------------------------------------


def test_v6_5_the_20_certificate_is_bought_instead_of_a_share() -> None:
    """A buys the 20% at twice the par price: 20% of ERIE in one certificate."""
    t = erie_parred(erie_20="yes")
    cash, count = t.cash("A"), certificate_count(t.state, "A")
    buy(t, "A", percent=20)
    assert "A buys the 20% certificate of ERIE from the initial offering for $134." in t.log
    assert t.pct("A", "ERIE") == 20 and t.cash("A") == cash - 134
    assert certificate_count(t.state, "A") == count + 1
    assert certs_of(t, player_holder("A")) == [EXTRA]
    # that was the turn's purchase: no 10% share besides it
    assert "already bought" in buy_refused(t, "A")
    plain = erie_parred()
    assert buy_refused(plain, "A", percent=20) == (
        "ERIE has no 20% certificate besides the president's in this game: buy a share "
        "with buy ERIE.")


def test_v6_5_the_20_certificate_only_once_the_president_s_certificate_is_bought() -> None:
    t = first_operating_round(erie_20="yes")
    while t.state.round["kind"] == "operating":
        t.act(t.current, "pass")
    assert "ERIE has no par value yet" in buy_refused(t, "D", percent=20)


def test_v6_5_a_10_share_is_still_bought_from_the_initial_offering_first() -> None:
    """buy ERIE takes a 10% share; with only the 20% left in the initial offering the
    sentence points to it."""
    t = erie_parred(erie_20="yes")
    buy(t, "A")
    assert certs_of(t, player_holder("A")) == [2]
    hold(t, "p:C", 3, 4, 5, 6, 7)
    turn_of(t, "B")
    assert buy_refused(t, "B") == ("There is no ERIE share in the initial offering or the "
                                   "bank pool; its 20% certificate is in the initial "
                                   "offering: buy ERIE 20%.")
    assert buy_refused(t, "B", source="ipo") == ("There is no ERIE share in the initial "
                                                 "offering; its 20% certificate is there: "
                                                 "buy ERIE 20%.")


def test_v6_5_the_20_certificate_from_the_bank_pool() -> None:
    """Sold to the pool whole, the 20% certificate is bought there at twice the share
    value."""
    t = erie_parred(erie_20="yes")
    hold(t, POOL, EXTRA)
    assert "not in the initial offering: it is in the bank pool" in \
        buy_refused(t, "A", percent=20, source="ipo")
    buy(t, "A", percent=20)
    assert "A buys the 20% certificate of ERIE from the bank pool for $134." in t.log
    assert t.pct("A", "ERIE") == 20 and t.state.percent("ERIE", POOL) == 0
    turn_of(t, "B")
    assert "not for sale: A holds it" in buy_refused(t, "B", percent=20)


def test_v6_5_the_60_percent_limit_counts_the_20_certificate() -> None:
    """D, the president with 40%, may buy the 20% (60%); with 50% he may not (70%),
    though a 10% share he may."""
    t = erie_parred(erie_20="yes")
    hold(t, player_holder("D"), 2, 3)
    turn_of(t, "D")
    buy(t, "D", percent=20)
    assert t.pct("D", "ERIE") == 60
    over = erie_parred(erie_20="yes")
    hold(over, player_holder("D"), 2, 3, 4)
    turn_of(over, "D")
    assert "That would give you 70% of ERIE" in buy_refused(over, "D", percent=20)
    buy(over, "D")
    assert over.pct("D", "ERIE") == 60


def test_v6_5_the_20_certificate_counts_as_one_certificate() -> None:
    """At one certificate under the limit A may buy the 20% certificate: 20% more, one
    certificate more (5.3: "Anteil" is 10%, "Zertifikat" the card)."""
    for options in ({}, {"erie_20": "yes"}):
        t = erie_parred(**options)
        spare = [("CPR", i) for i in range(1, 9)] + [("NYNH", i) for i in range(1, 9)]
        for corp in ("CPR", "NYNH"):
            t.state.corps[corp].par, t.state.corps[corp].cell = 67, (5, 6)
        while certificate_count(t.state, "A") < certificate_limit(t.state) - 1:
            corp, i = spare.pop()
            t.state.corps[corp].certs[i] = player_holder("A")
        if options:
            buy(t, "A", percent=20)
            assert t.pct("A", "ERIE") == 20
        else:
            buy(t, "A")
            assert t.pct("A", "ERIE") == 10
        assert certificate_count(t.state, "A") == certificate_limit(t.state)


# -- selling ------------------------------------------------------------------------------


def test_v6_5_the_20_certificate_sold_whole() -> None:
    """A sells 2 ERIE: the 20% certificate goes to the pool as one certificate; without
    the option two 10% shares do.  The money and the drop are the same."""
    results = []
    for options, indexes in (({}, (1, 2)), ({"erie_20": "yes"}, (EXTRA,))):
        t = erie_parred(**options)
        hold(t, player_holder("A"), *indexes)
        cash = t.cash("A")
        sell(t, "A", 2)
        results.append((t.cash("A") - cash, t.state.corps["ERIE"].cell, certs_of(t, POOL)))
    assert results[0][:2] == results[1][:2] == (134, (7, 6))
    assert results[0][2] == [1, 2] and results[1][2] == [EXTRA]


def test_v6_5_half_of_the_20_certificate_sold_with_a_10_share_from_the_pool() -> None:
    """A holds the 20% certificate alone and sells one share: the certificate goes to
    the pool and a 10% share of the pool comes back to A in change."""
    t = erie_parred(erie_20="yes")
    hold(t, player_holder("A"), EXTRA)
    hold(t, POOL, 7)
    cash = t.cash("A")
    sell(t, "A", 1)
    assert t.cash("A") == cash + 67 and t.pct("A", "ERIE") == 10
    assert certs_of(t, player_holder("A")) == [7] and certs_of(t, POOL) == [EXTRA]
    assert ("A sells a share of ERIE (half of the 20% certificate: a 10% share from the "
            "bank pool comes back in change) for $67.") in t.log


def test_v6_5_no_half_sale_without_a_10_share_in_the_pool() -> None:
    """Shares in the initial offering cannot be used for the change ("Aktien in der
    Bank können dafür nicht verwendet werden"); the whole certificate may be sold."""
    t = erie_parred(erie_20="yes")
    hold(t, player_holder("A"), EXTRA)
    assert t.state.percent("ERIE", IPO) > 0 and t.state.percent("ERIE", POOL) == 0
    message = t.refused("A", "sell", sales=[{"corp": "ERIE", "count": 1}])
    assert message == ("That sale needs half of your ERIE 20% certificate: it may be sold "
                       "only with a 10% ERIE share in the bank pool to take back in change, "
                       "and the pool has none.")
    sell(t, "A", 2)
    assert certs_of(t, POOL) == [EXTRA]
    plain = erie_parred()
    hold(plain, player_holder("A"), 1, 2)
    sell(plain, "A", 1)  # without the option a share is a share


def test_v6_5_the_10_shares_are_sold_before_the_20_certificate() -> None:
    """With the 20% certificate and a 10% share, selling one share sells the 10%
    share: A keeps one certificate, not two."""
    t = erie_parred(erie_20="yes")
    hold(t, player_holder("A"), EXTRA, 2)
    hold(t, POOL, 7)
    count = certificate_count(t.state, "A")
    sell(t, "A", 1)
    assert certs_of(t, player_holder("A")) == [EXTRA]
    assert certificate_count(t.state, "A") == count - 1


def test_v6_5_the_bank_pool_holds_at_most_50_percent() -> None:
    """With 40% in the pool the 20% certificate may not go there whole (60%); half of
    it may, 10% from the pool coming back (the pool then holds the 20% and three 10%
    shares, 50%)."""
    t = erie_parred(erie_20="yes")
    hold(t, player_holder("A"), EXTRA)
    hold(t, POOL, 4, 5, 6, 7)
    message = t.refused("A", "sell", sales=[{"corp": "ERIE", "count": 2}])
    assert message == ("The bank pool may hold at most 5 ERIE shares (50%); it has 4, so "
                       "you may sell at most 1.")
    sell(t, "A", 1)
    assert t.state.percent("ERIE", POOL) == 50 and len(certs_of(t, POOL)) == 4
    plain = erie_parred()
    hold(plain, player_holder("A"), 1, 2)
    hold(plain, POOL, 5, 6, 7, 8)
    assert "at most 1" in plain.refused("A", "sell", sales=[{"corp": "ERIE", "count": 2}])


def erie_at_90(**options: str) -> Table:
    """erie_parred with ERIE's token on $90 (row 2, column 7): each box down shows."""
    t = erie_parred(**options)
    t.state.corps["ERIE"].cell = (2, 7)
    return t


def test_v6_5_with_v6_2_one_at_a_time_the_20_certificate_sold_whole_is_one_sale() -> None:
    """Shares sold one at a time (V-6.2): half of the 20% certificate with change at
    $90, then the 10% share received at $82; without change in the pool the
    certificate goes whole, one sale of two shares at $90 (two boxes down either way)."""
    t = erie_at_90(erie_20="yes", share_sales="one-at-a-time")
    hold(t, player_holder("A"), EXTRA)
    hold(t, POOL, 7)
    cash = t.cash("A")
    sell(t, "A", 2)
    assert t.cash("A") - cash == 90 + 82 and t.state.corps["ERIE"].cell == (4, 7)
    assert certs_of(t, POOL) == [EXTRA, 7]
    whole = erie_at_90(erie_20="yes", share_sales="one-at-a-time")
    hold(whole, player_holder("A"), EXTRA)
    cash = whole.cash("A")
    sell(whole, "A", 2)
    assert whole.cash("A") - cash == 2 * 90 and whole.state.corps["ERIE"].cell == (4, 7)
    plain = erie_at_90(share_sales="one-at-a-time")
    hold(plain, player_holder("A"), 1, 2)
    cash = plain.cash("A")
    sell(plain, "A", 2)
    assert plain.cash("A") - cash == 90 + 82


# -- the president --------------------------------------------------------------------------


def test_v6_5_the_new_president_hands_over_the_20_certificate_without_two_10_shares() -> None:
    """B holds the 20% certificate and buys a 10% share: 30% against D's 20%, B takes
    the presidency and gives D the 20% certificate (he has no two 10% shares); without
    the option B, holding two 10% shares, gives those."""
    t = erie_parred(erie_20="yes")
    hold(t, player_holder("B"), EXTRA)
    turn_of(t, "B")
    buy(t, "B")
    assert t.state.president("ERIE") == "B" and t.pct("B", "ERIE") == 30
    assert certs_of(t, player_holder("D")) == [EXTRA] and t.pct("D", "ERIE") == 20
    plain = erie_parred()
    hold(plain, player_holder("B"), 1, 2)
    turn_of(plain, "B")
    buy(plain, "B")
    assert plain.state.president("ERIE") == "B"
    assert certs_of(plain, player_holder("D")) == [1, 2]


def test_v6_5_the_new_president_hands_over_two_10_shares_where_he_has_them() -> None:
    """B (the 20% certificate and two 10% shares, 40%) buys a share against D's 40%: he
    gives D two 10% shares and keeps the 20% certificate (the book's rule, 6.4)."""
    t = erie_parred(erie_20="yes")
    hold(t, player_holder("B"), EXTRA, 2, 3)
    hold(t, player_holder("D"), 4, 5)
    turn_of(t, "B")
    buy(t, "B")
    assert t.state.president("ERIE") == "B"
    assert certs_of(t, player_holder("D")) == [2, 3, 4, 5]  # B's two and his own two
    assert certs_of(t, player_holder("B")) == [0, EXTRA, 6]


def test_v6_5_a_president_selling_out_receives_the_20_certificate_and_sells_it() -> None:
    """D (president, 20%) sells 2 ERIE; B, with the 20% certificate and a 10% share,
    takes the presidency and gives D the 20% certificate, which D sells whole."""
    t = erie_parred(erie_20="yes")
    hold(t, player_holder("B"), EXTRA, 2)
    turn_of(t, "D")
    sell(t, "D", 2)
    assert t.state.president("ERIE") == "B" and t.pct("D", "ERIE") == 0
    assert certs_of(t, POOL) == [EXTRA] and certs_of(t, player_holder("B")) == [0, 2]


# -- operating rounds: forced sales and bankruptcy ----------------------------------------------


def a_forced_with_the_20(president_cash: int, **options: str) -> Table:
    """enginehelp's forced train purchase (PRR needs $80; A has ``president_cash``), A
    holding 20% of ERIE (at $67) and no NYC: the 20% certificate with the option, two
    10% shares without."""
    t = prr_forced_to_buy(president_cash, **options)
    t.state.corps["NYC"].certs[5] = t.state.corps["NYC"].certs[6] = IPO
    erie = t.state.corps["ERIE"]
    erie.par, erie.cell = 67, (5, 6)
    erie.certs[0] = player_holder("D")
    hold(t, player_holder("A"), *((EXTRA,) if options.get("erie_20") else (1, 2)))
    for index in (2, 3, 4):  # A keeps only PRR's president's certificate
        t.state.corps["PRR"].certs[index] = IPO
    return t


def test_v6_5_a_forced_sale_sells_half_of_the_20_certificate_with_change() -> None:
    """A ($20) needs $60 more: one ERIE share is enough, half of the 20% certificate
    with a 10% share of the pool in change; the pool has none: the whole certificate."""
    t = a_forced_with_the_20(20, erie_20="yes")
    hold(t, POOL, 7)
    t.act("A", "sell", sales=[{"corp": "ERIE", "count": 1}])
    assert t.cash("A") == 87 and certs_of(t, player_holder("A")) == [7]
    t.act("A", "buy_train", train=None, source=None, price=None, trade=None)
    no_change = a_forced_with_the_20(20, erie_20="yes")
    offered = [m for m in legal_moves(no_change.state)["A"] if m["action"]["type"] == "sell"]
    assert [(m["action"]["sales"], m["min"], m["max"]) for m in offered] == [
        ([{"corp": "ERIE", "count": 2}], 2, 2)]  # the whole certificate, not one share
    assert "needs half of your ERIE 20% certificate" in no_change.refused(
        "A", "sell", sales=[{"corp": "ERIE", "count": 1}])
    no_change.act("A", "sell", sales=[{"corp": "ERIE", "count": 2}])
    assert no_change.cash("A") == 154 and certs_of(no_change, POOL) == [EXTRA]
    plain = a_forced_with_the_20(20)
    plain.act("A", "sell", sales=[{"corp": "ERIE", "count": 1}])
    assert plain.cash("A") == 87


def test_v6_5_bankruptcy_sells_the_20_certificate() -> None:
    """A ($0) with the 20% certificate at $30 cannot raise $80: as on 18xx.games
    (bankruptcy=declare) the sale is made for him, the certificate whole to the pool,
    and the game ends; by the book he sells it himself first."""
    t = a_forced_with_the_20(0, erie_20="yes", bankruptcy="declare")
    t.state.corps["ERIE"].cell = (7, 2)  # $30
    t.act("A", "bankrupt")
    assert t.state.finished and t.result["bankrupt"] == "A"
    assert certs_of(t, POOL) == [EXTRA] and t.pct("A", "ERIE") == 0
    book = a_forced_with_the_20(0, erie_20="yes")
    book.state.corps["ERIE"].cell = (7, 2)
    assert "Only a president who cannot raise" in book.refused("A", "bankrupt")
    book.act("A", "sell", sales=[{"corp": "ERIE", "count": 2}])
    book.act("A", "bankrupt")
    assert book.state.finished and certs_of(book, POOL) == [EXTRA]


def test_v6_5_the_20_certificate_is_paid_two_shares_of_a_dividend() -> None:
    """A dividend of $7 a share pays the 20% certificate $14, as two 10% shares."""
    paid = []
    for options in ({"erie_20": "yes"}, {}):
        t = a_forced_with_the_20(0, **options)
        ctx = Ctx(t.state.clone(), "D")
        assert dividend_units(ctx.state, "ERIE")[player_holder("A")] == 2
        distribute(ctx, "ERIE", 7)
        paid.append(ctx.state.player("A").cash - t.cash("A"))
    assert paid == [14, 14]


# -- commands, mails, export, the CLI and self-play -------------------------------------------


@pytest.mark.parametrize(("text", "action"), [
    ("buy ERIE 20%", {"type": "buy_share", "corp": "ERIE", "source": None, "count": 1,
                      "percent": 20}),
    ("buy the 20% certificate of erie from the pool",
     {"type": "buy_share", "corp": "ERIE", "source": "pool", "count": 1, "percent": 20}),
    ("buy 20% ERIE ipo", {"type": "buy_share", "corp": "ERIE", "source": "ipo", "count": 1,
                          "percent": 20}),
])
def test_v6_5_the_command_for_the_20_certificate(text: str, action: dict[str, object]) -> None:
    ctx = parse_context(new_game("1830", ["A", "B", "C"], 1, {"erie_20": "yes"}))
    assert parse_commands(text, ctx)[0].action == action
    assert parse_commands(format_action(action), ctx)[0].action == action


def test_v6_5_the_share_view_and_the_prompt_show_the_20_certificate() -> None:
    t = erie_parred(erie_20="yes")
    assert "ERIE 20% $134" in prompt_text(t.state, "A")
    assert "ERIE's extra 20% certificate: in the initial offering." in tables_text(t.state)
    buy(t, "A", percent=20)
    text = tables_text(t.state)
    assert "ERIE's extra 20% certificate: held by A." in text
    assert "+ with an extra 20% certificate (one certificate)" in " ".join(text.split())
    row = next(line for line in text.splitlines() if line.startswith("*A ") or
               line.startswith("A "))
    assert "20+" in row.split()
    assert "ERIE 20% (with the 20% certificate) at $67" in holdings_text(t.state, "A")
    plain = erie_parred()
    buy(plain, "A")
    assert "extra 20% certificate" not in tables_text(plain.state)
    assert "20+" not in tables_text(plain.state)


def test_v6_5_a_game_by_the_cli_shows_audits_and_is_not_exported(tmp_path: Path) -> None:
    """pbem new --option erie_20=yes, the 20% certificate bought by mail command, shown,
    audited; the 18xx.games export refuses the option (the site lacks it)."""
    cli = Cli(tmp_path / "games.db")
    game = cli.new("Ann", "Ben", "Cat", erie_20="yes")
    for who, command in [("Ann", "buy SV"), ("Ben", "buy CS"), ("Cat", "buy DH"),
                         ("Ann", "buy MH"), ("Ben", "buy CA"), ("Cat", "buy BO"),
                         ("Cat", "par B&O 100"), ("Ann", "par ERIE 67")]:
        cli.act(game, who, command)
    assert "Ben buys the 20% certificate of ERIE from the initial offering for $134." in \
        cli.act(game, "Ben", "buy ERIE 20%")
    text = cli.ok("show", str(game))
    assert "- erie_20=yes (V-6.5): two of the Erie's 10% shares are replaced" in text
    assert "ERIE's extra 20% certificate: held by Ben." in text
    shown = cli.show(game)
    assert shown["options"]["erie_20"] == "yes"
    erie = next(c for c in shown["corporations"] if c["symbol"] == "ERIE")
    assert erie["extra_certificates"] == [{"percent": 20, "holder": "Ben"}]
    assert "extra_certificates" not in shown["corporations"][0]  # PRR
    assert "audit ok" in cli.ok("audit", str(game))
    refusal = " ".join(cli.refused("export", str(game), "--format", "18xx").split())
    assert "options 18xx.games does not have: erie_20=yes (V-6.5)" in refusal
    assert json.loads(cli.ok("export", str(game)))["events"]


def test_v6_5_a_game_with_the_20_certificate_played_to_its_end() -> None:
    """Two bots play to the end with the option: the 20% certificate is bought from
    the initial offering, half of it sold with change, bought again from the pool;
    the invariants hold after every event and the audit replays every command."""
    game = play_whole_game(2, 0, "1830", erie_20="yes")
    assert game.state.result is not None
    said = [line for _, _, decision in game.history for line in decision.log]
    assert any("buys the 20% certificate of ERIE from the initial offering" in s
               for s in said)
    assert any("(half of the 20% certificate: a 10% share from the bank pool comes back "
               "in change)" in s for s in said)
    assert any("buys the 20% certificate of ERIE from the bank pool" in s for s in said)
    replay_matches(game)
