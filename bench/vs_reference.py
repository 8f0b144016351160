"""pbem against the reference engine (18xx.games, Ruby: ../shared/oracle) on every log of
../shared/fixtures/18xx.games, timed in turn, CPU seconds, best of ``--repeat`` runs:

* import: ``pbem import-18xx FILE --check`` in process (a new SQLite file each run: the
  log read, every action decided by pbem and stored, the outcome compared);
* rebuild: the imported game rebuilt from its stored facts (``service.load`` with its
  snapshots dropped: from the first event);
* audit: ``pbem audit`` (the hash chain, every command decided again);
* the reference: the same log loaded strictly (``strict``: every action processed and
  checked, as a replay that decides) and as the site loads a game to show it (``load``).

Ratios are the reference's time over pbem's: above 1, pbem is faster.  Import and audit
are compared with the strict replay, the rebuild with the plain load.
``python -m bench vs-reference [--repeat N] [--only TEXT]``.

The bench runs with the garbage collector set up as in a short `pbem` command
(`pbem.collector.short_run`, as `pbem import-18xx` and `pbem audit` have it), so the
figures are those commands' (without a process's start-up, the same for every log: the
interpreter and pbem's modules, about 0.3 s of CPU on this machine with their compiled
bytecode kept, 0.6 s where none is, as under PYTHONDONTWRITEBYTECODE=1).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._reference import FIXTURES, best_cpu, cpu_clock, missing, start  # noqa: E402
from pbem import collector, service  # noqa: E402
from pbem.engine import orrun, ortrack  # noqa: E402
from pbem.importer import import_log, outcome  # noqa: E402
from pbem.store import open_store  # noqa: E402

NOW = "2024-01-01T00:00:00+00:00"


def time_pbem(path: Path, folder: Path, repeat: int) -> dict[str, Any]:
    runs = iter(range(1_000_000))

    def imported() -> tuple[Any, int, bool]:
        store = open_store(folder / f"{path.stem}-{next(runs)}.db", now=NOW)
        log, done = import_log(store, path, now=NOW)
        return store, done.game_id, outcome(log, done).matches

    seconds, (store, game_id, matches) = best_cpu(imported, repeat, before=cold_engine)

    def from_the_facts() -> None:  # the rebuild from the facts, not from a snapshot
        cold_engine()
        store.drop_snapshots(game_id)

    rebuild, _ = best_cpu(lambda: service.load(store, game_id), repeat, before=from_the_facts)
    audit, result = best_cpu(lambda: service.audit(store, game_id), repeat, before=cold_engine)
    store.close()
    problems = ([] if matches else ["import differs from the log"]) + \
        ([f"audit: {result.problem}"] if result.problem else [])
    return {"import": seconds, "rebuild": rebuild, "audit": audit,
            "events": result.events, "problem": "; ".join(problems)}


def cold_engine() -> None:
    """Forget what the engine remembers between decisions (reach and routes per board),
    so that each timed run starts as a new process does (`pbem audit` is one): the runs
    after the first would otherwise find the boards of the run before."""
    ortrack.forget_boards()
    orrun.forget_runs()


def time_reference(oracle: Any, path: Path, repeat: int) -> dict[str, Any]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    clock = cpu_clock(oracle.proc.pid)
    strict, answer = best_cpu(lambda: oracle.load(doc, strict=True), repeat, clock)
    plain, _ = best_cpu(lambda: oracle.load(doc, strict=False), repeat, clock)
    return {"strict": strict, "load": plain,
            "problem": "" if answer.get("ok") else f"reference: {answer.get('error')}"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench vs-reference")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="", help="the logs whose path contains this")
    args = parser.parse_args(argv or [])
    with collector.short_run():
        return compare(args.repeat, args.only)


def compare(repeat: int, only: str) -> int:
    why = missing()
    if why or not FIXTURES.is_dir():
        print(f"no comparison: {why or f'{FIXTURES} is absent'}")
        return 0
    logs = [p for p in sorted(FIXTURES.glob("*/*.json")) if only in str(p)]
    print(f"CPU seconds, best of {repeat}; ratio = reference / pbem (above 1: pbem "
          "is faster)")
    print(f"{'log':<46} {'events':>6} {'import':>7} {'audit':>7} {'rebuild':>7} "
          f"{'strict':>7} {'load':>7}  {'x import':>8} {'x audit':>7} {'x rebuild':>9}")
    worst: dict[str, float] = {}
    with start() as oracle, tempfile.TemporaryDirectory() as tmp:
        oracle.request({"cmd": "hello"})
        for path in logs:
            ours = time_pbem(path, Path(tmp), repeat)
            theirs = time_reference(oracle, path, repeat)
            ratios = {"import": theirs["strict"] / ours["import"],
                      "audit": theirs["strict"] / ours["audit"],
                      "rebuild": theirs["load"] / ours["rebuild"]}
            for key, value in ratios.items():
                worst[key] = min(worst.get(key, value), value)
            name = f"{path.parent.name}/{path.stem}"[:46]
            problem = "; ".join(str(p) for p in (ours["problem"], theirs["problem"]) if p)
            print(f"{name:<46} {ours['events']:>6} {ours['import']:>7.3f} "
                  f"{ours['audit']:>7.3f} {ours['rebuild']:>7.3f} {theirs['strict']:>7.3f} "
                  f"{theirs['load']:>7.3f}  {ratios['import']:>7.2f}x {ratios['audit']:>6.2f}x "
                  f"{ratios['rebuild']:>8.2f}x" + (f"  <-- {problem}" if problem else ""),
                  flush=True)
    print("worst ratio over the logs: " + ", ".join(f"{key} {value:.2f}x"
                                                   for key, value in worst.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
