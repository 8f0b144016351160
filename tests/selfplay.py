"""Random legal self-play: a player picks any move the engine lists as legal."""

from __future__ import annotations

import random
from typing import Any

from pbem.engine.game import Decision, apply_facts, decide, legal_moves, new_game
from pbem.engine.state import GameState


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


def pick(state: GameState, rng: random.Random, pass_weight: float = 0.35) -> tuple[str, dict]:
    moves = legal_moves(state)
    options = [(name, m) for name, ms in moves.items() for m in ms]
    passes = [o for o in options if o[1]["action"]["type"] == "pass"]
    others = [o for o in options if o[1]["action"]["type"] != "pass"]
    buys = [o for o in others if o[1]["action"]["type"] == "buy_private"]
    if buys and rng.random() < 0.5:
        name, move = rng.choice(buys)
        return name, concrete(move, rng)
    if passes and (not others or rng.random() < pass_weight):
        name, move = rng.choice(passes)
    else:
        name, move = rng.choice(others)
    return name, concrete(move, rng)


class SelfPlay:
    def __init__(self, n_players: int, seed: int, **options: str) -> None:
        names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][:n_players]
        self.rng = random.Random(seed)
        self.start = new_game("1830", names, seed, options)
        self.state = self.start.clone()
        self.history: list[tuple[str, dict[str, Any], Decision]] = []

    def step(self) -> tuple[str, dict[str, Any], Decision]:
        name, action = pick(self.state, self.rng)
        decision = decide(self.state, name, action)
        apply_facts(self.state, decision.facts)
        self.history.append((name, action, decision))
        return name, action, decision
