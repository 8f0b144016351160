"""Issue #8's route bench: pbem's best-route search on every position of
../shared/bench/route-positions.csv (the positions of the 18xx.games logs in which a
corporation ran its trains).  For each: the total found, the best total expected, the
time and the search's node count; then how many are exact, and the median, p95, max and
total time.  ``python -m bench routes`` (or ``python bench/routes.py [CSV]``).

The positions are rebuilt by importing the logs (pbem.importer) up to each run and are
cached in bench/.cache/routes/ (gitignored; delete it after a rules change).  Rows of
titles pbem cannot import yet (1870) are skipped with a note.
"""

from __future__ import annotations

import csv
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PBEM_SHARED", ROOT.parent / "shared"))
CSV = SHARED / "bench" / "route-positions.csv"
FIXTURES = SHARED / "fixtures" / "18xx.games"
CACHE = ROOT / "bench" / ".cache" / "routes"

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pbem.engine.board.search import (  # noqa: E402
    RevenueRules,
    best_connection_run,
    best_of,
    search_for,
)
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


def search(position: Position, step: str = "Route") -> tuple[int, int | None, float]:
    """The best total, the node count of the search and the seconds it took.  A
    connection run (1870, step "ConnectionRoute") runs one train from the home city to
    the destination (best_connection_run).  The position's revenue inputs (1870 port,
    cattle, destination marker) come from its `revenue_rules` when the importer gives
    them."""
    rules = getattr(position, "revenue_rules", None) or RevenueRules()
    board_map, board = title_map(position.title), position.board_state()
    started = time.perf_counter()
    if step == "ConnectionRoute":
        corp = load_title(position.title).corporations[position.corp]
        home = (corp.home, corp.home_city or 0)
        assert corp.destination is not None
        found = best_connection_run(board_map, board, position.corp, list(position.trains),
                                    position.column, home, corp.destination, rules)
        return (found.total if found else 0), None, time.perf_counter() - started
    engine = search_for(board_map, board, position.corp, position.column, rules)
    run = best_of(engine, list(position.trains))
    seconds = time.perf_counter() - started
    nodes = engine.stats.get("nodes") if isinstance(engine.stats, dict) else None
    return run.total, nodes, seconds


def rows(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def main(argv: list[str] | None = None) -> int:
    path = Path(argv[0]) if argv else CSV
    if not path.exists():
        print(f"no positions: {path} is absent (set PBEM_SHARED to the shared folder)")
        return 0
    table = rows(path)
    by_fixture: dict[str, dict[int, Position]] = {}
    skipped: dict[str, int] = {}
    times: list[float] = []
    exact = total = 0
    print(f"{'fixture':<44} {'action':>6} {'corp':<5} {'trains':<10} {'found':>6} "
          f"{'expected':>8} {'ms':>8} {'nodes':>9}")
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
        found, nodes, seconds = search(position, row.get("step", "Route"))
        expected = int(row["best_revenue"])
        total += 1
        exact += found == expected
        times.append(seconds)
        flag = "" if found == expected else "  <-- differs"
        print(f"{fixture[:44]:<44} {row['action_id']:>6} {row['corporation']:<5} "
              f"{row['trains']:<10} {found:>6} {expected:>8} {seconds * 1000:>8.1f} "
              f"{nodes if nodes is not None else '-':>9}{flag}")
    for fixture, count in skipped.items():
        print(f"skipped {count} positions of {fixture} (pbem cannot import that title yet)")
    if times:
        ordered = sorted(times)
        p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
        print(f"exact {exact}/{total}; median {statistics.median(times) * 1000:.1f} ms, "
              f"p95 {p95 * 1000:.1f} ms, max {max(times) * 1000:.1f} ms, "
              f"total {sum(times):.2f} s")
    return 0 if exact == total else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
