"""`make demo`: 1830 played through the real CLI, then by bots to the final score.

Part 1 is a scripted start with four players: the private auction of the rulebook's
example (1.2), the first stock round, the first operating round and the second stock
round, each command a `pbem act` call.  Part 2 lets bots (random legal players, the
same moves a player is offered) play the game on to its end through the service, one
transaction per command, and prints the final state, the scores and the audit.
"""

from __future__ import annotations

import random
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
    # operating round 1.1: PRR (higher share value) first, then NYC
    ("Alex", "lay 57 H10"), ("Alex", "buy train; done"),
    ("Bruce", "lay 57 E19 NW-SE; buy train; buy train; done"),
    # stock round 2: Dave has the priority (left of Gerald, the last to buy)
    ("Dave", "pass"), ("Bruce", "sell 1 NYC; par C&O 71; done"), ("Alex", "pass"),
    ("Gerald", "exchange MH; buy NYC pool; done"),
]


def pbem(db: Path, *args: str, check: bool = True) -> str:
    result = subprocess.run([sys.executable, "-m", "pbem", "--db", str(db), *args],
                            capture_output=True, text=True)
    if check and result.returncode != 0:
        raise SystemExit(f"pbem {' '.join(args)} failed:\n{result.stderr}")
    return result.stdout + result.stderr


def say(text: str = "") -> None:
    print(text, flush=True)


def scripted_start(db: Path) -> str:
    args = ["new", "1830", "--seating", "fixed", "--seed", "1830"]
    for name in PLAYERS:
        args += ["--player", f"{name}:{name.lower()}@example.org"]
    game = pbem(db, *args).split()[0]
    say(f"$ pbem new 1830 --seating fixed --player Gerald:... (4 players)  -> game {game}")
    for who, command in SCRIPT:
        say(f'$ pbem act {game} --as {who} "{command}"')
        say(pbem(db, "act", game, "--as", who, command).rstrip())
    return game


def bots_play_to_the_end(db: Path, game: str, seed: int = 1830) -> int:
    """Bots choose among the legal moves; each command goes through the service as text,
    exactly as a player's would.  Returns the number of commands played."""
    from . import service
    from .bots import pick
    from .notation import format_action
    from .store import open_store

    store = open_store(db)
    rng = random.Random(seed)
    count = 0
    last_round = ""
    while True:
        state = service.load(store, int(game))
        if state.finished:
            return count
        who, action = pick(state, rng)
        text = format_action(action)
        service.act(store, int(game), who, text, source="demo-bot", now="2026-01-01T00:00:00")
        count += 1
        now = service.load(store, int(game)).round
        label = f"{now.get('kind')} {now.get('number') or now.get('sr')}"
        if label != last_round:
            say(f"  ... {label} (after {count} bot commands)")
            last_round = label


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "demo.db"
        say("== Part 1: a scripted start, every command through `pbem act` ==")
        game = scripted_start(db)
        say(f"\n$ pbem show {game}")
        say(pbem(db, "show", game).rstrip())
        say("\n== Part 2: bots play on to the end of the game ==")
        played = bots_play_to_the_end(db, game)
        say(f"\nThe bots played {played} commands.")
        say(f"\n$ pbem show {game}")
        say(pbem(db, "show", game).rstrip())
        say(f"\n$ pbem audit {game}")
        say(pbem(db, "audit", game).rstrip())
    say("\n== Part 3: the same game loop by email, on mail servers started on loopback ==")
    from .maildemo import main as mail_demo

    mail_demo()


if __name__ == "__main__":
    main()
