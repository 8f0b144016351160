"""``python -m bench.differential``: random games of 1830 and 1870 played in pbem and in
the 18xx.games engine (../shared/oracle), compared after every action.

    python -m bench.differential --games 20 --seed 1            # both titles
    python -m bench.differential --title 1870 --games 500 --seed 1000 --workers 2
    python -m bench.differential --games 1000 --probing 0.02 --probe-every 5   # long runs
    python -m bench.differential --fixtures                     # the 18xx.games logs
    python -m bench.differential --title 1870 --seeds 5003,5012 --probing 0.02 --probe-every 5

Prints one line per game (its setup, commands, site actions, states compared, end,
time) and each first divergence; saves the site actions up to it as a reproduction in
--out (default bench/.cache/differential/); ends with the totals and the speed."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from .oracle import missing
from .runner import Job, Result, play_games, save

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.differential",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--title", choices=["1830", "1870", "both"], default="both")
    parser.add_argument("--games", type=int, default=4, help="games per title")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--seeds", type=lambda text: [int(s) for s in text.split(",")],
                        default=None, metavar="S1,S2,...",
                        help="play these seeds instead of --games from --seed (e.g. the "
                             "divergent games of a run, played again)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--probing", type=float, default=0.05,
                        help="share of positions where near-legal moves are tried")
    parser.add_argument("--probe-every", type=int, default=1, metavar="N",
                        help="probe only in the games whose seed is a multiple of N (the "
                             "probes cost most of a game's time: each move the site refuses "
                             "makes the oracle replay its game)")
    parser.add_argument("--limit", type=int, default=4000, help="commands per game at most")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / ".cache" / "differential")
    parser.add_argument("--fixtures", action="store_true",
                        help="compare the 18xx.games logs of ../shared/fixtures instead")
    parser.add_argument("--quiet", action="store_true", help="only divergences and totals")
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop after the games that end within this time, with the totals")
    args = parser.parse_args(argv)
    why = missing()
    if why:
        print(f"differential testing skipped: {why}")
        return 0
    if args.fixtures:
        from .fixtures import main as fixtures_main

        return fixtures_main(args.quiet)
    titles = ["1830", "1870"] if args.title == "both" else [args.title]
    seeds = args.seeds or range(args.seed, args.seed + args.games)
    jobs = [Job(t, s, args.probing if s % args.probe_every == 0 else 0.0, args.limit)
            for s in seeds for t in titles]
    return report(play_games(jobs, args.workers), args.out, args.quiet, len(jobs), args.minutes)


def report(results: object, out: Path, quiet: bool, total: int,
           minutes: float | None = None) -> int:
    started = time.perf_counter()
    done: list[Result] = []
    for res in results:  # type: ignore[attr-defined]
        if minutes is not None and time.perf_counter() - started > 60 * minutes:
            print(f"time is up ({minutes:g} minutes): the games still being played are "
                  "left out", flush=True)
            break
        done.append(res)
        line = (f"{len(done):>5}/{total} {res.label:<44} {res.commands:>5} cmds "
                f"{res.site_actions:>5} acts {res.compared:>5} cmp "
                f"{(res.reason or ('over' if res.finished else 'not over')):<10} "
                f"ph {res.phase or '-':<2} {res.seconds:6.1f}s")
        if res.error:
            print(line + "\n    CRASH " + res.error.replace("\n", "\n    "), flush=True)
        elif res.divergence:
            path = save(res, out)
            print(line + f"\n    {res.divergence}\n    saved {path}", flush=True)
        elif not quiet:
            print(line, flush=True)
    wall = time.perf_counter() - started
    summary(done, wall)
    return 1 if any(r.divergence or r.error for r in done) else 0


def summary(done: list[Result], wall: float) -> None:
    for title in sorted({r.title for r in done}):
        rs = [r for r in done if r.title == title]
        actions = sum(r.site_actions for r in rs)
        seconds = sum(r.seconds for r in rs)
        oracle = sum(r.oracle_seconds for r in rs)
        ends = Counter(r.reason or ("unfinished" if not r.finished else "over") for r in rs)
        phases = Counter(r.phase for r in rs)
        seen: Counter[str] = Counter()
        for r in rs:
            seen.update(r.seen)
        bad = [r for r in rs if r.divergence or r.error]
        print(f"\n{title}: {len(rs)} games, {sum(r.commands for r in rs)} pbem commands, "
              f"{actions} site actions, {sum(r.compared for r in rs)} states compared, "
              f"{sum(r.probes for r in rs)} probes; {len(bad)} with a divergence or crash")
        print(f"  ends: {dict(ends)}; last phases: {dict(phases)}")
        print(f"  moves: {dict(sorted(seen.items()))}")
        if seconds:
            print(f"  {seconds:.0f} s of play ({oracle:.0f} s in the oracle): "
                  f"{actions / seconds:.0f} site actions/s, {seconds / len(rs):.1f} s/game")
    print(f"\nwall time {wall:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
