"""``make bench``'s differential testing (issue 18): two random games per title played
in pbem and in the 18xx.games engine, compared after every command, with their speed
(bench/differential; skipped with a message without ruby or ../shared/oracle).  The
long runs: ``python -m bench.differential --games 1000 --workers 2 --minutes 600``."""

from __future__ import annotations

from bench.differential.__main__ import main as run


def main() -> int:
    return run(["--games", "2", "--seed", "1", "--quiet"])


if __name__ == "__main__":
    raise SystemExit(main())
