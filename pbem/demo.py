"""`make demo`: a short scripted 1830 start played through the real CLI.

Four players run the private auction of the rulebook's example (1.2), float
corporations in the first stock round, sit through the operating rounds, and
trade in the second stock round; the state is printed at the end.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

PLAYERS = ["Gerald", "Dave", "Bruce", "Alex"]

SCRIPT = [
    # the private auction, as in the rulebook's example (1.2)
    ("Gerald", "bid CA 165"), ("Dave", "bid BO 225"), ("Bruce", "bid DH 75"),
    ("Alex", "bid CA 170"), ("Gerald", "bid DH 80"), ("Dave", "buy SV"), ("Bruce", "pass"),
    ("Alex", "buy CS"), ("Bruce", "bid 85"), ("Gerald", "bid 90"), ("Bruce", "bid 95"),
    ("Gerald", "pass"), ("Gerald", "buy MH"), ("Gerald", "bid 175"), ("Alex", "bid 200"),
    ("Gerald", "bid 207"), ("Alex", "bid 212"), ("Gerald", "pass"), ("Dave", "par B&O 100"),
    # stock round 1: NYC and PRR float, B&O stops at 50%
    ("Dave", "buy B&O"), ("Bruce", "par NYC 67"), ("Alex", "par PRR 76"), ("Gerald", "buy NYC"),
    ("Dave", "buy B&O"), ("Bruce", "buy NYC"), ("Alex", "buy PRR"), ("Gerald", "buy NYC"),
    ("Dave", "buy B&O"), ("Bruce", "buy NYC"), ("Alex", "buy PRR"), ("Gerald", "buy PRR"),
    ("Dave", "pass"), ("Bruce", "pass"), ("Alex", "pass"), ("Gerald", "pass"),
]

# stock round 2: Dave has the priority (left of Gerald, the last to buy)
STOCK_ROUND_2 = [
    ("Dave", "pass"), ("Bruce", "sell 1 NYC; par C&O 71; done"), ("Alex", "buy NYC pool; done"),
    ("Gerald", "exchange MH"), ("Gerald", "buy NYC"), ("Gerald", "done"),
]


def pbem(db: Path, *args: str, check: bool = True) -> str:
    result = subprocess.run([sys.executable, "-m", "pbem", "--db", str(db), *args],
                            capture_output=True, text=True)
    if check and result.returncode != 0:
        raise SystemExit(f"pbem {' '.join(args)} failed:\n{result.stderr}")
    return result.stdout + result.stderr


def say(text: str) -> None:
    print(text, flush=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "demo.db"
        args = ["new", "1830", "--seating", "fixed", "--seed", "1830"]
        for name in PLAYERS:
            args += ["--player", f"{name}:{name.lower()}@example.org"]
        game = pbem(db, *args).split()[0]
        say(f"$ pbem new 1830 --player Gerald:... (4 players)  -> game {game}")
        for who, command in SCRIPT:
            say(f'$ pbem act {game} --as {who} "{command}"')
            say(pbem(db, "act", game, "--as", who, command).rstrip())
        # the operating rounds: corporations can only end their turn so far
        while True:
            waiting = pbem(db, "show", game).splitlines()
            line = next(x for x in waiting if x.startswith("Waiting for:"))
            who = line.split(":", 1)[1].strip()
            state = pbem(db, "show", game, "--format", "json")
            if '"round": "stock round 2"' in state:
                break
            say(f'$ pbem act {game} --as {who} "done"')
            say(pbem(db, "act", game, "--as", who, "done").rstrip())
        for who, command in STOCK_ROUND_2:
            say(f'$ pbem act {game} --as {who} "{command}"')
            say(pbem(db, "act", game, "--as", who, command, check=False).rstrip())
        say(f"\n$ pbem show {game}")
        say(pbem(db, "show", game).rstrip())
        say(f"\n$ pbem audit {game}")
        say(pbem(db, "audit", game).rstrip())


if __name__ == "__main__":
    main()
