"""The five 1870 logs of ../shared/fixtures/18xx.games imported into pbem (issue #7):
each replays to its recorded result and passes ``audit``, exports to the site's format
and imports again to the same state; every run position gives the bench's best total.
Then the rules the logs brought up, each named after the rule or the option
(docs/18xx-games.md, docs/1870.md).  Skips when ../shared is absent."""

from __future__ import annotations

import csv
import json
import os
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from importhelp import commands_as_read

from pbem import service
from pbem.cli import main
from pbem.engine.board.written import check_run
from pbem.engine.errors import RulesError
from pbem.engine.facts import GameOver
from pbem.engine.game import apply_facts, decide
from pbem.engine.market import operating_order
from pbem.engine.orrun import revenue_column, revenue_rules, train_specs
from pbem.engine.state import GameState
from pbem.engine.titles.t1870 import connection
from pbem.importer import export_game, import_log, outcome, replay
from pbem.importer.options import READ_BY, Reader
from pbem.importer.positions import CONNECTION, run_positions
from pbem.importer.replay import Imported, Replay
from pbem.importer.sitelog import SiteLog, read_log
from pbem.importer.t1870 import (
    TRACK_READING,
    asks_connections,
    connection_check_matters,
    connection_check_unread,
)
from pbem.notation import format_action, parse_command
from pbem.store import Store, open_store

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PBEM_SHARED", ROOT.parent / "shared"))
FIXTURES = SHARED / "fixtures" / "18xx.games"
POSITIONS = SHARED / "bench" / "route-positions.csv"
ABSENT = f"{FIXTURES} is absent: the 18xx.games logs live in ../shared (or $PBEM_SHARED)"
LOGS_1870 = sorted(p.name for p in (FIXTURES / "1870").glob("*.json"))
BANK = "1870_game_end_bank.json"
MADNESS = "1644327587 Mississippi river madness.json"
OLD = "34110.json"

pytestmark = pytest.mark.skipif(not FIXTURES.is_dir(), reason=ABSENT)


@cache
def imported(name: str, to: int | None = None) -> tuple[SiteLog, Imported, Store]:
    """The log imported (up to action ``to``) once per test process."""
    store = open_store(":memory:", now="2024-01-01T00:00:00+00:00")
    log, result = import_log(store, FIXTURES / "1870" / name, to=to,
                             now="2024-01-01T00:00:00+00:00")
    assert result.refusal is None, result.refusal and result.refusal.reason
    return log, result, store


def state_at(name: str, to: int) -> GameState:
    return imported(name, to)[1].state.clone()


# -- the logs ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", LOGS_1870)
def test_1870_log_replays_to_its_result_and_passes_audit(name: str) -> None:
    log, result, store = imported(name)
    found = outcome(log, result)
    assert found.matches, found.problems
    assert found.finished and found.scores == log.result_by_key()
    assert found.reason == log.end_reason
    assert service.audit(store, result.game_id).problem is None


@pytest.mark.parametrize("name", LOGS_1870)
def test_1870_export_imports_again_to_the_same_state(name: str, tmp_path: Path) -> None:
    log, result, store = imported(name)
    document = export_game(store, result.game_id)
    assert document["title"] == "1870"
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    again_log, again = import_log(store, path)
    assert again.refusal is None and outcome(again_log, again).matches
    assert again.state.to_dict() == result.state.to_dict()


@pytest.mark.parametrize("name", LOGS_1870)
def test_1870_commands_are_what_the_notation_reads_from_their_text(name: str) -> None:
    _, result, store = imported(name)
    sent, differing = commands_as_read(store, result)
    assert sent > 100 and differing == []


def test_cli_import_1870_check(tmp_path: Path) -> None:
    runner = CliRunner()
    done = runner.invoke(main, ["--db", str(tmp_path / "pbem.db"), "import-18xx",
                                str(FIXTURES / "1870" / OLD), "--check"])
    assert done.exit_code == 0, done.output
    assert "1927" in done.output and "2031" in done.output
    assert "end: manually_ended" in done.output
    assert "older reading: connection_check=track" in done.output


@pytest.mark.skipif(not POSITIONS.exists(), reason=f"{POSITIONS} is absent")
@pytest.mark.parametrize("name", [MADNESS, OLD])
def test_1870_run_positions_give_the_bench_totals(name: str) -> None:
    """bench/routes.py's 1870 rows of two logs: the position just before each run,
    normal or connection run; pbem's best total is the exhaustive best."""
    with open(POSITIONS, encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["fixture"] == f"1870/{name}"]
    positions, stopped = run_positions(read_log(FIXTURES / "1870" / name))
    assert stopped is None and rows
    for row in rows:
        position = positions[int(row["action_id"])]
        assert position.step == row["step"]
        assert position.claimed == int(row["claimed_revenue"])
        assert position.best_total() == int(row["best_revenue"]), row


@pytest.mark.skipif(not POSITIONS.exists(), reason=f"{POSITIONS} is absent")
def test_1870_connection_run_positions() -> None:
    with open(POSITIONS, encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.DictReader(handle)
                if r["fixture"] == f"1870/{BANK}" and r["step"] == CONNECTION]
    positions, _ = run_positions(read_log(FIXTURES / "1870" / BANK))
    assert rows
    for row in rows:
        position = positions[int(row["action_id"])]
        assert position.step == CONNECTION and position.revenue_rules.end_bonus
        assert position.best_total() == int(row["best_revenue"]), row


# -- engine fixes (the rulebook) -----------------------------------------------------------------


def test_p13_unprotected_sale_token_enters_its_box_when_protection_is_declined() -> None:
    """Share Price Protection, p.13: "If a company president chooses not to protect the
    company's share price, that company's share value token is moved" - then, after
    the seller's turn.  In 1870_game_end_bank.json 9263 sells 3 MP (not protected), then
    pars ATSF at $68 in the same turn: MP's token arrives in the $68 box after ATSF's,
    so ATSF operates first."""
    state = state_at(BANK, 344)
    assert state.corps["MP"].cell == state.corps["ATSF"].cell == (5, 6)
    assert operating_order(state, ["MP", "ATSF"]) == ["ATSF", "MP"]


def test_p23_destination_marker_is_a_station_for_routes() -> None:
    """Connection Run, p.23 / Operate Trains, p.21: the destination station marker placed
    at the edge of the destination hex is one of the company's station markers: a route
    may start there (SSW's 5-train J3-F5, 1870_game_end_bank.json action 653)."""
    state = state_at(BANK, 653)
    assert state.board.markers["destination:SSW"]["stop"] is None
    routes = [{"train": "5", "stops": ["J3", "F5"]}, {"train": "4", "stops": ["J3", "J5",
                                                                             "H13", "H17"]}]
    run = check_run(state.map, state.board, "SSW", train_specs(state, "SSW"), routes,
                    revenue_column(state), revenue_rules(state, "SSW"))
    assert run.total == 130 + 180


def test_p23_destination_marker_lets_its_routes_pass_the_city() -> None:
    """A city full of other companies' stations blocks a route (p.21), but not the
    company whose destination marker stands there (SSW through J3, action 860)."""
    state = state_at(BANK, 860)
    routes = [{"train": "5", "stops": ["J5", "J3", "H13", "I14", "M20"]}]
    trains = train_specs(state, "SSW")[:1]
    run = check_run(state.map, state.board, "SSW", trains, routes, revenue_column(state),
                    revenue_rules(state, "SSW"))
    assert [s for s, _ in run.routes[0].stops] == routes[0]["stops"]
    assert run.total == run.routes[0].revenue > 0
    board = state.board.copy()
    del board.markers["destination:SSW"]  # without its marker J3 blocks SSW like anyone
    with pytest.raises(RulesError):
        check_run(state.map, board, "SSW", trains, routes, revenue_column(state),
                  revenue_rules(state, "SSW"))


def test_p10_slsf_private_is_the_presidents_certificate() -> None:
    """Private Companies, p.10: the SLSF private "is the president's certificate of the
    St. Louis San Francisco Railway": once the par value is set it is not a private
    company besides (no second $140 in the owner's worth, no second certificate)."""
    state = imported(MADNESS)[1].state
    assert state.privates["SLSF"].closed
    owner = state.privates["SLSF"].owner[2:]
    assert "SLSF" not in state.privates_of("p:" + owner)
    assert state.result is not None and state.result["scores"]["Player_1"] == 1599


# -- the site's readings (options) ---------------------------------------------------------------


def test_share_limit_compliance_keep_and_sell() -> None:
    """1870_game_end_bank.json action 951: 9263 holds 100% of TP, whose token has left
    the green section; the site lets him pass (share_limit_compliance=keep); the
    rulebook (Compliance Sales, p.15) has him sell down to 60% first (sell)."""
    state = state_at(BANK, 951)
    assert state.options["share_limit_compliance"] == "keep"
    decide(state, "Player_1", {"type": "pass"})
    state.options["share_limit_compliance"] = "sell"
    with pytest.raises(RulesError, match="100% of TP"):
        decide(state, "Player_1", {"type": "pass"})


def test_compliance_sales_p15_keep_sells_down_to_sixty_percent_in_one_sale() -> None:
    """With share_limit_compliance=keep the site lets 9263 keep 100% of TP (yellow
    section), but a sale must bring him down to 60% at once (G1870 BuySellParShares
    #can_sell?, ``holding_ok?`` after the sale): the oracle refuses 1 share of TP at
    action 951 and takes 4 (differential testing, 1870 seed 1008, "Cannot sell shares
    of SP").  The rulebook (Compliance Sales, p.15: he sells down to 60% in that turn)
    lets him sell one at a time."""
    state = state_at(BANK, 951)
    one = {"type": "sell", "sales": [{"corp": "TP", "count": 1}]}
    with pytest.raises(RulesError, match="sell at least 4 to come down to 60%"):
        decide(state, "Player_1", one)
    decide(state, "Player_1", {"type": "sell", "sales": [{"corp": "TP", "count": 4}]})
    state.options["share_limit_compliance"] = "sell"
    decide(state, "Player_1", one)


def test_connection_check_track_for_a_log_of_early_2021() -> None:
    """34110.json (March 2021) records MP's connection run with a 3- and a 4-train while
    its only route from St. Louis to Dallas has five stops: the site then made the run
    once track joined them (connection_check=track); pbem's default, the rulebook's
    "can run one of its trains" (p.23), does not.  The importer finds the reading from
    the log's record and imports with it."""
    state = state_at(OLD, 227)
    assert state.options["connection_check"] == "track"
    assert state.round["connection"]["corp"] == "MP"
    state.options["connection_check"] = "train"
    assert not connection.eligible(state, "MP")
    assert state_at(BANK, 344).options["connection_check"] == "train"


@pytest.mark.parametrize("matters", ["as read", "always"])
def test_an_older_reading_found_late_keeps_the_decisions_before_it(
        matters: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """34110.json's record needs connection_check=track at its action 220: the game takes
    the option there and goes on (Replay.reread: the commands before it whose decision
    may read it to another answer are decided again under it, the same facts), instead
    of replaying the log from the start.  Both ways store the same events and options;
    and so when every command that may read it is decided again ("always": on the game
    rebuilt up to each)."""
    now = "2024-01-01T00:00:00+00:00"
    if matters == "always":
        reader = READ_BY["connection_check"]
        monkeypatch.setitem(READ_BY, "connection_check",
                            Reader(reader.asks, lambda state: True))
    store = open_store(":memory:", now=now)
    _, once = import_log(store, FIXTURES / "1870" / OLD, now=now)
    monkeypatch.setattr(Replay, "reread", lambda *_: False)  # from the start instead
    again_store = open_store(":memory:", now=now, secret=store.secret)  # the same hashes
    _, again = import_log(again_store, FIXTURES / "1870" / OLD, now=now)
    assert once.readings == again.readings == TRACK_READING
    assert store.game(once.game_id)["options"] == again_store.game(again.game_id)["options"]
    fields = ("seq", "kind", "command", "text", "actor", "source", "facts", "log", "hash")
    assert [[e[f] for f in fields] for e in store.events(once.game_id)] == \
        [[e[f] for f in fields] for e in again_store.events(again.game_id)]
    assert once.state.to_dict() == again.state.to_dict()


def test_an_older_reading_is_not_kept_when_a_decision_before_it_differs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Should a command before the action decide otherwise under the reading, the game
    is replayed from the start with it (here: every command counts as one that asks, and
    a pass decides otherwise)."""
    real = decide

    def other(state: GameState, actor: str, action: dict[str, object]) -> object:
        decision = real(state, actor, action)
        if action["type"] == "pass" and state.options.get("connection_check") == "track":
            decision.log.append("(differs)")
        return decision

    monkeypatch.setitem(READ_BY, "connection_check",
                        Reader(lambda state, facts: True, lambda state: True))
    monkeypatch.setattr(replay, "decide", other)
    store = open_store(":memory:", now="2024-01-01T00:00:00+00:00")
    log, result = import_log(store, FIXTURES / "1870" / OLD, now="2024-01-01T00:00:00+00:00")
    assert result.readings == TRACK_READING and outcome(log, result).matches
    assert service.audit(store, result.game_id).problem is None


@pytest.mark.parametrize("name", LOGS_1870)
def test_every_command_that_asks_for_connection_runs_is_one_reread_decides_again(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Replay.reread decides again only the commands t1870.asks_connections names (the
    others cannot read connection_check): every command of the log whose decision asks
    connection.eligible is one of them."""
    _, result, store = imported(name)
    asked: list[str] = []
    real = connection.eligible

    def eligible(state: GameState, corp: str) -> bool:
        asked.append(corp)
        return real(state, corp)

    monkeypatch.setattr(connection, "eligible", eligible)
    state = service.initial(store, result.game_id)
    asking = 0
    for event in store.events(result.game_id):
        if event["kind"] == "command":
            asked.clear()
            assert decide(state, event["actor"], event["command"]).records == event["facts"]
            if asked:
                asking += 1
                assert asks_connections(state, event["facts"]), event["seq"]
        apply_facts(state, event["facts"] or [])
    assert asking



@pytest.mark.parametrize("name", LOGS_1870)
def test_connection_check_matters_wherever_its_readings_may_answer_otherwise(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Replay.reread decides again only a command for which t1870.connection_check_matters
    says yes in a state it passes through (the state before it, then after each of its
    facts; not again after a fact connection_check_unread names). On every 1870 log: each
    state in which a decision asks connection.eligible is one of these, and wherever
    eligible answers yes under either reading, connection_check_matters does too; and
    after a fact connection_check_unread names it answers as before."""
    _, result, store = imported(name)
    asked: list[tuple[dict[str, object], bool]] = []
    real = connection.eligible

    def eligible(state: GameState, corp: str) -> bool:
        answers = []
        for check in ("train", "track"):
            trial = state.clone()
            trial.options = {**state.options, "connection_check": check}
            answers.append(real(trial, corp))
        if any(answers):
            assert connection_check_matters(state), (corp, answers)
        asked.append((state.to_dict(), any(answers)))
        return real(state, corp)

    monkeypatch.setattr(connection, "eligible", eligible)
    state = service.initial(store, result.game_id)
    calls = yes = unread = 0
    for event in store.events(result.game_id):
        facts = event["facts"] or []
        if event["kind"] != "command":
            apply_facts(state, facts)
            continue
        asked.clear()
        assert decide(state, event["actor"], event["command"]).records == facts
        passed = [state.to_dict()]
        before = connection_check_matters(state) if asked else False
        for fact in facts:
            apply_facts(state, [fact])
            passed.append(state.to_dict())
            if asked and connection_check_unread(fact):
                unread += 1
                assert connection_check_matters(state) == before, (event["seq"], fact)
            elif asked:
                before = connection_check_matters(state)
        for at, answered in asked:
            assert at in passed, event["seq"]
            calls, yes = calls + 1, yes + answered
    assert calls and unread and (yes or name == MADNESS)  # Mississippi: no connection run

# -- the referee ends the game -----------------------------------------------------------------


def test_referee_end_game_scores_as_it_stands() -> None:
    """The site's end_game (a game ended by hand) is the referee's ``end game``."""
    assert parse_command("end game", service.parse_context(state_at(MADNESS, 360))) == \
        {"type": "end_game"}
    assert format_action({"type": "end_game"}) == "end game"
    state = state_at(MADNESS, 360)
    with pytest.raises(RulesError, match="Only the referee"):
        decide(state, "Player_1", {"type": "end_game"})
    facts = decide(state, "referee", {"type": "end_game"}).facts
    over = next(f for f in facts if isinstance(f, GameOver))
    assert over.result["reason"] == "manual"
    assert over.result["scores"] == {"Player_1": 1599, "Player_2": 1751,
                                     "Player_3": 1423, "Player_4": 1635}


def test_cli_referee_end_game(tmp_path: Path) -> None:
    db = str(tmp_path / "pbem.db")
    runner = CliRunner()
    log = str(FIXTURES / "1870" / MADNESS)
    stopped = runner.invoke(main, ["--db", db, "import-18xx", log, "--to", "360"])
    assert stopped.exit_code == 0, stopped.output
    refused = runner.invoke(main, ["--db", db, "act", "1", "--as", "Player_1", "end game"])
    assert refused.exit_code == 1 and "Only the referee" in refused.output
    done = runner.invoke(main, ["--db", db, "act", "1", "--as", "referee", "end game"])
    assert done.exit_code == 0 and "The game is over" in done.output, done.output
    assert runner.invoke(main, ["--db", db, "audit", "1"]).exit_code == 0
