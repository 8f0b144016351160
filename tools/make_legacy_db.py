"""Write a database of games played to their end by the code as it is, with their final
states, for the test that games stored by an older pbem still rebuild and audit
identically (tests/test_legacy_games.py).

    python tools/make_legacy_db.py tests/data/legacy-<engine version>.db

Each game is random legal play (pbem.bots) through the service, as a player would make
it (commands in the notation, one transaction each), with a referee's revert in the
middle and the play going on after it.  Beside the database, ``<name>.json`` holds each
game's final state (GameState.to_dict()) and the number of its events.  A database is
written once, by the pbem it preserves, and never rewritten: the point is that it
keeps what that pbem stored (legacy-engine-1.db: main at 3a3f4fb, run from a checkout
of it with this script copied in).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pbem import service  # noqa: E402
from pbem.bots import pick  # noqa: E402
from pbem.engine.game import ENGINE_VERSION  # noqa: E402
from pbem.notation import format_action  # noqa: E402
from pbem.store import Store, open_store  # noqa: E402

NOW = "2025-01-01T00:00:00+00:00"

#: (title, players, seed, options, commands typed first, revert after event N to event M)
GAMES: list[tuple[str, int, int, dict[str, str], list[tuple[str, str]], tuple[int, int]]] = [
    # everybody passes once in the auction (the SV price drops), stations move into the
    # city a lay chooses (station_retile=choose), the bank breaks
    ("1830", 4, 1, {"station_retile": "choose"},
     [("Ann", "pass"), ("Ben", "pass"), ("Cat", "pass"), ("Dan", "pass")], (700, 690)),
    # companies close in the closing section, price protection, markers, the bank breaks
    ("1870", 4, 0, {}, [], (1700, 1690)),
    # a longer 1870 game: more track and stations, the later phases
    ("1870", 3, 2, {}, [], (900, 880)),
    # 1830 with five players to the bank break
    ("1830", 5, 4, {}, [], (300, 250)),
]


def play(store: Store, title: str, players: int, seed: int, options: dict[str, str],
         opening: list[tuple[str, str]], revert: tuple[int, int]) -> int:
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][:players]
    created = service.create_game(store, title, [(n, f"{n.lower()}@example.org")
                                                 for n in names],
                                  seed=seed, seating="fixed", options=options, now=NOW,
                                  referee="ref@example.org")
    game = created.game_id
    rng = random.Random(seed)
    state = service.load(store, game)
    for name, text in opening:
        state = _state(service.act(store, game, name, text, source="cli", now=NOW,
                                   state=state))
    reverted = False
    while not state.finished and store.last_seq(game) < 8000:
        if not reverted and store.last_seq(game) >= revert[0]:
            service.undo(store, game, revert[1], actor="referee", source="cli", now=NOW)
            state = service.load(store, game)
            reverted = True
        name, action = pick(state, rng)
        state = _state(service.act(store, game, name, format_action(action), source="cli",
                                   now=NOW, state=state))
    return game


def _state(result: Any) -> Any:
    assert result.state is not None
    return result.state


def main(path: str) -> None:
    target = Path(path)
    if target.exists():
        raise SystemExit(f"{target} exists; a legacy database is never rewritten.")
    store = open_store(target, now=NOW)
    expected: dict[str, Any] = {"engine_version": ENGINE_VERSION, "games": {}}
    for spec in GAMES:
        game = play(store, *spec)
        state = service.load(store, game)
        expected["games"][str(game)] = {"events": store.last_seq(game),
                                        "state": state.to_dict()}
        print(f"game {game}: {spec[0]}, {store.last_seq(game)} events, "
              f"{state.result and state.result['reason']}")
    store.conn.execute("VACUUM")
    store.close()
    target.with_suffix(".json").write_text(json.dumps(expected, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
