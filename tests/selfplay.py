"""Random legal self-play through the engine (decide and apply), for property tests."""

from __future__ import annotations

import random
from typing import Any

from pbem.bots import pick
from pbem.engine.game import Decision, apply_facts, decide, new_game


class SelfPlay:
    def __init__(self, n_players: int, seed: int, title: str = "1830", **options: str) -> None:
        names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][:n_players]
        self.rng = random.Random(seed)
        self.start = new_game(title, names, seed, options)
        self.state = self.start.clone()
        self.history: list[tuple[str, dict[str, Any], Decision]] = []

    def step(self) -> tuple[str, dict[str, Any], Decision]:
        name, action = pick(self.state, self.rng)
        decision = decide(self.state, name, action)
        apply_facts(self.state, decision.facts)
        self.history.append((name, action, decision))
        return name, action, decision
