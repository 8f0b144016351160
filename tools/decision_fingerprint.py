"""A fingerprint of pbem's decisions, to show that a change for speed (or a refactor)
decides exactly what the tree before it decided.

Plays random self-play games (tests/selfplay.py: the bots' random legal moves, decided
and applied) of both titles, with the option sets of tests/test_selfplay_games.py, and
prints per game and in all a SHA-256 of every command's actor, action, stored facts and
log lines.  Two trees that print the same lines decided the same on these games.

    python tools/decision_fingerprint.py [--games 8] [--tree PATH]

``--tree`` fingerprints another checkout (say ``git worktree add --detach /tmp/old
REV``) with this Python: its ``pbem`` and ``tests`` are put first on the path.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _put_first(tree: Path) -> None:
    for path in (tree / "tests", tree):
        sys.path.insert(0, str(path))


def game_digest(title: str, n: int, max_events: int) -> tuple[str, int]:
    """The digest of self-play game ``n`` of ``title`` and its number of commands."""
    from selfplay import SelfPlay, option_set  # the tree's tests/selfplay.py

    game = SelfPlay(2 + n % 5, n, title, **option_set(title, n))
    digest = hashlib.sha256()
    while not game.state.finished and len(game.history) < max_events:
        actor, action, decision = game.step()
        record: list[Any] = [actor, action, decision.records, decision.log]
        digest.update(json.dumps(record, sort_keys=True, default=str).encode())
    return digest.hexdigest()[:16], len(game.history)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/decision_fingerprint.py")
    parser.add_argument("--games", type=int, default=8, help="games of each title")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to run")
    args = parser.parse_args(argv)
    _put_first(args.tree.resolve())
    from selfplay import MAX_EVENTS

    whole = hashlib.sha256()
    for title in ("1870", "1830"):
        for n in range(args.games):
            digest, commands = game_digest(title, n, MAX_EVENTS)
            whole.update(digest.encode())
            print(f"{title} game {n}: {commands} commands, {digest}", flush=True)
    print(f"all: {whole.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
