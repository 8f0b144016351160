"""Issue #8's route bench: pbem's best-route search on every position of
../shared/bench/route-positions.csv (the positions of the 18xx.games logs in which a
corporation ran its trains).  For each: the total found, the best total expected, the
CPU time (best of ``--repeat`` runs; the search with the position's TrackGraph made
beforehand, as the engine keeps one per position and the reference's router runs on its
game's graph made before; the summary gives the cold figures too, TrackGraph made in the
search) and the search's node count, and the CPU time of the
reference's router (18xx.games' auto-router run by bench/reference_routes.rb on the
oracle of ../shared/oracle) in the same position; then how many are exact, the median,
p95, max and total time, and where pbem is slower than the reference and by how much.
``python -m bench routes`` (or ``python bench/routes.py [CSV] [--repeat N]
[--reference-cap S] [--no-reference]``).

The reference's times are measured once per machine and kept in
bench/.cache/routes/reference-<engine commit>.json (delete it to measure again); its
search is stopped after ``--reference-cap`` seconds of path walk and as many of combining
(its heaviest positions take minutes), and such positions show as ">".

The positions are rebuilt by importing the logs (pbem.importer) up to each run and are
cached in bench/.cache/routes/ (gitignored; delete it after a rules change).  Rows of
titles pbem cannot import yet (1870) are skipped with a note.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PBEM_SHARED", ROOT.parent / "shared"))
CSV = SHARED / "bench" / "route-positions.csv"
FIXTURES = SHARED / "fixtures" / "18xx.games"
CACHE = ROOT / "bench" / ".cache" / "routes"

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._reference import ORACLE, engine_version  # noqa: E402
from bench._reference import missing as reference_missing  # noqa: E402
from pbem.engine.board.map import BoardState, Map  # noqa: E402
from pbem.engine.board.routegraph import RouteGraph, StopKey  # noqa: E402
from pbem.engine.board.search import (  # noqa: E402
    RevenueRules,
    best_connection_run,
    best_of,
    search_for,
)
from pbem.engine.board.track import TrackGraph  # noqa: E402
from pbem.engine.maps import title_map  # noqa: E402
from pbem.engine.title import load_title  # noqa: E402
from pbem.importer.positions import Position, run_positions  # noqa: E402
from pbem.importer.sitelog import read_log  # noqa: E402
from pbem.importer.translate import Unsupported  # noqa: E402


def positions(fixture: str) -> dict[int, Position]:
    """The fixture's run positions, from the cache or by importing the log."""
    cache = CACHE / (fixture.replace("/", "__") + ".json")
    source = FIXTURES / fixture
    if cache.exists() and cache.stat().st_mtime >= source.stat().st_mtime:
        data = json.loads(cache.read_text(encoding="utf-8"))
        return {int(k): Position.from_json(v) for k, v in data.items()}
    found, stopped = run_positions(read_log(source))
    if stopped:
        print(f"  note: {fixture}: the import stopped early ({stopped})")
    CACHE.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps({k: p.to_json() for k, p in found.items()}), encoding="utf-8")
    return found


def search(position: Position, step: str = "Route") -> tuple[int, int | None, float, float]:
    """The best total, the node count of the search, the seconds it took with the
    position's TrackGraph made beforehand (as the engine runs it: orrun.track_graph keeps
    one per position for laying track, placing stations and every company's run; the
    reference's router too runs on its game's graph made before) and the seconds with
    the TrackGraph made too (cold).  A connection run (1870, step "ConnectionRoute")
    runs one train from the home city to the destination (best_connection_run).  The
    position's revenue inputs (1870 port, cattle, destination marker) come from its
    `revenue_rules` when the importer gives them."""
    rules = getattr(position, "revenue_rules", None) or RevenueRules()
    board_map, board = title_map(position.title), position.board_state()
    started = time.process_time()
    track = TrackGraph(board_map, board)
    made = time.process_time()

    def make_graph(board_map: Map, board: BoardState, corp: str, column: str | int,
                   values: Mapping[StopKey, int] | None = None, *,
                   whole: bool = False) -> RouteGraph:
        return RouteGraph(board_map, board, corp, column, values, track, whole)

    if step == "ConnectionRoute":
        corp = load_title(position.title).corporations[position.corp]
        home = (corp.home, corp.home_city or 0)
        assert corp.destination is not None
        found = best_connection_run(board_map, board, position.corp, list(position.trains),
                                    position.column, home, corp.destination, rules,
                                    make_graph)
        done = time.process_time()
        return (found.total if found else 0), None, done - made, done - started
    engine = search_for(board_map, board, position.corp, position.column, rules, make_graph)
    run = best_of(engine, list(position.trains))
    done = time.process_time()
    nodes = engine.stats.get("nodes") if isinstance(engine.stats, dict) else None
    return run.total, nodes, done - made, done - started


def rows(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def best_search(position: Position, step: str, repeat: int
                ) -> tuple[int, int | None, float, float]:
    """``search`` run ``repeat`` times: its result with the least CPU times."""
    runs = [search(position, step) for _ in range(max(1, repeat))]
    best = min(runs, key=lambda run: run[2])
    return best[0], best[1], best[2], min(run[3] for run in runs)


def reference_times(table: list[dict[str, Any]], cap: float) -> dict[tuple[str, int], Any]:
    """The reference router's CPU seconds per position (fixture, action id), with the
    revenue it found and whether it was stopped: read from the cache, else measured
    (bench/reference_routes.rb, one Ruby process per log) and cached."""
    cache = CACHE / f"reference-{engine_version()}.json"
    if cache.exists():
        data = json.loads(cache.read_text(encoding="utf-8"))
        return {(f, int(a)): v for f, by_action in data.items() for a, v in by_action.items()}
    print(f"measuring the reference's router on {len(table)} positions (once; kept in "
          f"{cache.relative_to(ROOT)})", flush=True)
    found: dict[str, dict[str, Any]] = {}
    for fixture in dict.fromkeys(row["fixture"] for row in table):
        lines = "".join(f"{row['action_id']} {row['corporation']}\n" for row in table
                        if row["fixture"] == fixture)
        done = subprocess.run(
            ["ruby", str(ROOT / "bench" / "reference_routes.rb"), str(ORACLE),
             str(FIXTURES / fixture), "3", str(cap), str(cap)],
            input=lines, capture_output=True, text=True, check=True)
        found[fixture] = {str(answer["action_id"]): answer for answer in
                          map(json.loads, done.stdout.splitlines())}
    CACHE.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(found, indent=0), encoding="utf-8")
    return {(f, int(a)): v for f, by_action in found.items() for a, v in by_action.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/routes.py")
    parser.add_argument("csv", nargs="?", default=str(CSV))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--reference-cap", type=float, default=5.0)
    parser.add_argument("--no-reference", action="store_true")
    args = parser.parse_args(argv or [])
    path = Path(args.csv)
    if not path.exists():
        print(f"no positions: {path} is absent (set PBEM_SHARED to the shared folder)")
        return 0
    table = rows(path)
    why = "not asked for" if args.no_reference else reference_missing()
    reference = reference_times(table, args.reference_cap) if why is None else {}
    if why:
        print(f"no reference times: {why}")
    by_fixture: dict[str, dict[int, Position]] = {}
    skipped: dict[str, int] = {}
    times: list[float] = []
    slower: list[tuple[float, str]] = []  # (pbem - reference, where)
    cold_times: list[float] = []
    cold_slower: list[tuple[float, str]] = []
    exact = total = 0
    print(f"CPU ms, best of {args.repeat}")
    print(f"{'fixture':<44} {'action':>6} {'corp':<5} {'trains':<10} {'found':>6} "
          f"{'expected':>8} {'ms':>8} {'nodes':>9} {'ref ms':>9}")
    for row in table:
        fixture = row["fixture"]
        if fixture not in by_fixture and fixture not in skipped:
            try:
                by_fixture[fixture] = positions(fixture)
            except Unsupported as exc:
                skipped[fixture] = 0
                print(f"  note: {fixture} skipped: {exc}")
        if fixture in skipped:
            skipped[fixture] += 1
            continue
        position = by_fixture[fixture].get(int(row["action_id"]))
        if position is None:
            print(f"  note: {fixture} action {row['action_id']}: position not reached")
            continue
        found, nodes, seconds, cold = best_search(position, row.get("step", "Route"),
                                                  args.repeat)
        cold_times.append(cold)
        expected = int(row["best_revenue"])
        total += 1
        exact += found == expected
        times.append(seconds)
        flag = "" if found == expected else "  <-- differs"
        theirs = reference.get((fixture, int(row["action_id"])))
        ref = "-"
        if theirs is not None:
            ref = f"{'>' if theirs['timed_out'] else ''}{theirs['cpu'] * 1000:.1f}"
            where = f"{fixture} {row['action_id']} {row['corporation']}"
            if seconds > theirs["cpu"] and not theirs["timed_out"]:
                slower.append(((seconds - theirs["cpu"]) * 1000, where))
            if cold > theirs["cpu"] and not theirs["timed_out"]:
                cold_slower.append(((cold - theirs["cpu"]) * 1000, where))
        print(f"{fixture[:44]:<44} {row['action_id']:>6} {row['corporation']:<5} "
              f"{row['trains']:<10} {found:>6} {expected:>8} {seconds * 1000:>8.1f} "
              f"{nodes if nodes is not None else '-':>9} {ref:>9}{flag}", flush=True)
    for fixture, count in skipped.items():
        print(f"skipped {count} positions of {fixture} (pbem cannot import that title yet)")
    if times:
        ordered = sorted(times)
        p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
        print(f"exact {exact}/{total}; median {statistics.median(times) * 1000:.1f} ms, "
              f"p95 {p95 * 1000:.1f} ms, max {max(times) * 1000:.1f} ms, "
              f"total {sum(times):.2f} s; with the TrackGraph made too (cold): median "
              f"{statistics.median(cold_times) * 1000:.1f} ms, max "
              f"{max(cold_times) * 1000:.1f} ms")
    if reference:
        theirs_total = sum(v["cpu"] for v in reference.values())
        print(f"the reference: total {theirs_total:.1f} s CPU (positions it stopped counted "
              f"at their cap); pbem slower on {len(slower)} of {total} positions"
              + (f", by at most {max(slower)[0]:.2f} ms ({max(slower)[1]})" if slower else "")
              + f"; by more than 0.5 ms on {sum(1 for d, _ in slower if d > 0.5)}; cold: "
              f"slower on {len(cold_slower)}"
              + (f", by at most {max(cold_slower)[0]:.2f} ms ({max(cold_slower)[1]})"
                 if cold_slower else ""))
    return 0 if exact == total else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
