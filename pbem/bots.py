"""A random legal player: picks any move the engine lists as legal.

Used by `make demo` to play a whole game and by the self-play tests.  The choice is
weighted so that games move on (privates get bought, corporations lay track, run and
buy trains) and reach their end.  Every move comes from the engine's listing.
"""

from __future__ import annotations

import random
from typing import Any

from .engine.game import legal_moves
from .engine.state import GameState

#: relative weights of move types, by round kind
WEIGHTS = {
    "auction": {"buy_private": 6, "bid": 3, "pass": 3, "par": 1, "exchange": 0.2},
    "stock": {"par": 3, "buy_share": 6, "sell": 1.5, "pass": 3, "exchange": 0.3,
              "accept": 1, "decline": 1},
    "operating": {"lay": 6, "token": 3, "run": 10, "payout": 8, "withhold": 2,
                  "buy_train": 5, "pass": 2, "discard": 1, "sell": 1, "bankrupt": 1,
                  "accept": 1, "decline": 1, "exchange": 0.05},
}


def concrete(move: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A concrete action from a listed move: amounts and counts drawn from their range."""
    action = dict(move["action"])
    if "min" in move:
        low, high = move["min"], move["max"]
        if action["type"] == "bid":  # bidders raise modestly, so money stays free to buy
            value = low if rng.random() < 0.7 else rng.randint(low, min(high, low + 60))
        else:
            value = rng.randint(low, high)
        if action["type"] == "sell":
            action["sales"] = [{"corp": action["sales"][0]["corp"], "count": value}]
        elif action["type"] == "buy_share":
            action["count"] = value
        else:
            action["amount"] = value
    return action


def pick(state: GameState, rng: random.Random, only: str | None = None) -> tuple[str, dict]:
    """(player, action): a legal move, weighted by kind; ``only``: that player's moves."""
    moves = legal_moves(state)
    options = [(name, m) for name, ms in moves.items() for m in ms if only in (None, name)]
    weights = WEIGHTS.get(state.round["kind"], {})
    by_type: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for option in options:
        by_type.setdefault(option[1]["action"]["type"], []).append(option)
    kinds = sorted(by_type)
    kind = rng.choices(kinds, [weights.get(k, 1) for k in kinds])[0]
    name, move = rng.choice(by_type[kind])
    return name, concrete(move, rng)
