"""CPU seconds of one random self-play game (tests/selfplay.py: random legal moves chosen
by pbem.bots, decided and applied; no invariant checks), to its end: ``--games`` games
of each title with 2 + seed % 5 players, seeds from 0; per game and the median.
Issue 16's goal: a random 1870 game in a median of at most 3 s.
``python -m bench selfplay-games [--games N] [--titles 1870,1830]``."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for path in (ROOT, ROOT / "tests"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from selfplay import MAX_EVENTS, SelfPlay  # noqa: E402


def one_game(title: str, seed: int) -> tuple[float, int]:
    """CPU seconds and commands of the game of ``seed``."""
    started = time.process_time()
    game = SelfPlay(2 + seed % 5, seed, title)
    while not game.state.finished and len(game.history) < MAX_EVENTS:
        game.step()
    return time.process_time() - started, len(game.history)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench selfplay-games")
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--titles", default="1870,1830")
    args = parser.parse_args(argv or [])
    for title in args.titles.split(","):
        times = []
        for seed in range(args.games):
            seconds, commands = one_game(title, seed)
            times.append(seconds)
            print(f"{title} seed {seed} ({2 + seed % 5} players): {commands} commands, "
                  f"{seconds:.1f} s CPU", flush=True)
        print(f"{title}: {len(times)} random games, median {statistics.median(times):.1f} s, "
              f"max {max(times):.1f} s CPU per game")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
