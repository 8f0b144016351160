"""The 18xx.games logs of ../shared/fixtures imported into pbem (issue #7): each 1830 log
replays to its recorded result, passes ``audit``, exports to the site's format and
imports again to the same state; the conformance table lists every log; pbem's best
routes are the bench's best totals.  Skips when ../shared is absent."""

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
from pbem.importer import export_game, import_log, outcome
from pbem.importer.conformance import Row, check_file
from pbem.importer.positions import run_positions
from pbem.importer.replay import Imported
from pbem.importer.sitelog import SiteLog, read_log
from pbem.store import Store, open_store

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PBEM_SHARED", ROOT.parent / "shared"))
FIXTURES = SHARED / "fixtures" / "18xx.games"
POSITIONS = SHARED / "bench" / "route-positions.csv"
ABSENT = f"{FIXTURES} is absent: the 18xx.games logs live in ../shared (or $PBEM_SHARED)"
LOGS_1830 = sorted(p.name for p in (FIXTURES / "1830").glob("*.json"))

pytestmark = pytest.mark.skipif(not FIXTURES.is_dir(), reason=ABSENT)


@cache
def imported(name: str) -> tuple[SiteLog, Imported, Store]:
    """The log imported once per test process."""
    store = open_store(":memory:", now="2024-01-01T00:00:00+00:00")
    log, result = import_log(store, FIXTURES / "1830" / name, now="2024-01-01T00:00:00+00:00")
    return log, result, store


@pytest.mark.parametrize("name", LOGS_1830)
def test_1830_log_replays_to_its_result_and_passes_audit(name: str) -> None:
    log, result, store = imported(name)
    found = outcome(log, result)
    assert found.matches, found.problems
    assert found.finished and found.scores == log.result_by_key()
    assert service.audit(store, result.game_id).problem is None


@pytest.mark.parametrize("name", LOGS_1830)
def test_1830_export_imports_again_to_the_same_state(name: str, tmp_path: Path) -> None:
    log, result, store = imported(name)
    document = export_game(store, result.game_id)
    assert result.state.result is not None
    assert document["result"] == {str(i + 1): result.state.result["scores"][result.names[p.key]]
                                  for i, p in enumerate(log.players)}
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    again_log, again = import_log(store, path)
    assert again.refusal is None and outcome(again_log, again).matches
    assert again.state.to_dict() == result.state.to_dict()


@pytest.mark.parametrize("name", LOGS_1830)
def test_1830_commands_are_what_the_notation_reads_from_their_text(name: str) -> None:
    _, result, store = imported(name)
    sent, differing = commands_as_read(store, result)
    assert sent > 100 and differing == []


def test_conformance_table_lists_every_log(tmp_path: Path) -> None:
    rows: list[Row] = []
    for path in sorted(FIXTURES.rglob("*.json")):
        if path.parent.name == "1830":  # already imported: reuse it
            log, result, _ = imported(path.name)
            found = outcome(log, result)
            verdict = f"matches ({found.reason})" if found.matches else "; ".join(found.problems)
            rows.append(Row(path, log.title, len(result.applied), verdict, found.matches))
        else:
            rows.append(check_file(path, tmp_path / f"{len(rows)}.db"))
    print("\n" + "\n".join(row.line(FIXTURES) for row in rows))
    assert {row.title for row in rows} == {"1830", "1870"}
    for row in rows:
        assert row.matches, row.line(FIXTURES)


def test_a_run_of_no_route_is_run_nothing(tmp_path: Path) -> None:
    """The site records a corporation that runs no route as ``run_routes`` with no
    routes (and, for the $0, a withhold): pbem's "run nothing" (legal with the site's
    best_run=free), the $0 withheld with it.  29133.json with its first run emptied."""
    data = json.loads((FIXTURES / "1830" / "29133.json").read_text(encoding="utf-8"))
    actions = data["actions"]
    at = next(i for i, a in enumerate(actions) if a["type"] == "run_routes")
    corp = actions[at]["entity"]
    actions[at]["routes"] = []
    after = next(a for a in actions[at + 1:] if a["type"] == "dividend")
    after["kind"] = "withhold"
    stop = next(a["id"] for a in actions[at + 1:] if a["type"] != "dividend")
    path = tmp_path / "no-route.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    store = open_store(":memory:", now="2024-01-01T00:00:00+00:00")
    _, result = import_log(store, path, to=stop)
    assert result.refusal is None, result.refusal and result.refusal.reason
    texts = [t for a in result.applied if a.site.get("id") == actions[at]["id"]
             for _, t in a.commands]
    assert texts == ["run nothing"]
    assert result.state.round["turn"]["run"] == {"revenue": 0, "routes": []}
    assert result.state.round["turn"]["dividend"] == "withhold"
    assert result.state.round["current"] == corp


def test_cli_import_check_and_to(tmp_path: Path) -> None:
    db = str(tmp_path / "pbem.db")
    runner = CliRunner()
    log = str(FIXTURES / "1830" / "29133.json")
    done = runner.invoke(main, ["--db", db, "import-18xx", log, "--check"])
    assert done.exit_code == 0, done.output
    assert "Player_4" in done.output and "416" in done.output and "end: bankrupt" in done.output
    stopped = runner.invoke(main, ["--db", db, "import-18xx", log, "--to", "250"])
    assert stopped.exit_code == 0 and "Stopped before action 250" in stopped.output
    exported = runner.invoke(main, ["--db", db, "export", "1", "--format", "18xx"])
    assert exported.exit_code == 0 and json.loads(exported.output)["title"] == "1830"


@pytest.mark.skipif(not POSITIONS.exists(), reason=f"{POSITIONS} is absent")
@pytest.mark.parametrize("name", ["29133.json", "1830_game_end_bank.json"])
def test_best_routes_are_the_bench_totals(name: str) -> None:
    """A fast subset of bench/routes.py: every run of two logs; pbem's best total equals
    the exhaustive best, and is at least what the players ran."""
    with open(POSITIONS, encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["fixture"] == f"1830/{name}"]
    positions, stopped = run_positions(read_log(FIXTURES / "1830" / name))
    assert stopped is None and rows
    for row in rows[:60]:
        position = positions[int(row["action_id"])]
        assert position.claimed == int(row["claimed_revenue"])
        assert position.best_total() == int(row["best_revenue"]), row
