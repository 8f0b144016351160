"""The whole-game self-play sweep: every game of tests/test_selfplay_games.py (200 of
1830, 100 of 1870, 2 to 6 players), each played to its end with the invariants checked
after every event, rebuilt and audited.  `make test` plays a fixed sample of them; this
runs the rest too (the tests marked ``sweep``) on two workers and prints the time.
``python -m bench selfplay``."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-m", "sweep or not sweep", "-n", "2",
         "--dist", "worksteal", "-p", "no:cacheprovider", "tests/test_selfplay_games.py"],
        cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    summary = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
    print(f"self-play sweep: {summary}")
    print(f"self-play sweep: {elapsed:.0f} s on 2 workers")
    if done.returncode != 0:
        print(done.stdout[-4000:])
        raise RuntimeError("the self-play sweep failed")


if __name__ == "__main__":
    main()
