"""Random game setups the site can play: a title, 2 to 6 players, and a set of the site's
optional rules (with the pbem options the importer gives them, pbem.importer.options),
drawn from one seed so that a game is repeated from its seed alone."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from pbem.importer.options import OPTIONAL_RULES, SITE_READINGS

#: optional rules that cannot be combined (one implies the others' settings)
EXCLUSIVE = {"1870": {"original_rules": {"station_wars", "original_tiles", "max_reissue_200",
                                         "can_protect_if_sold", "original_market"}}}


@dataclass(frozen=True)
class Setup:
    title: str
    players: int
    seed: int
    optional_rules: tuple[str, ...] = ()
    options: dict[str, str] = field(default_factory=dict, hash=False, compare=False)

    def label(self) -> str:
        rules = "+".join(self.optional_rules) or "-"
        return f"{self.title} {self.players}p seed {self.seed} [{rules}]"


def setup_for(title: str, seed: int) -> Setup:
    """The setup of game ``seed``: players and optional rules drawn from the seed (each
    optional rule in a third of the games)."""
    rng = random.Random(f"{title}-{seed}")
    players = rng.randint(2, 6)
    rules = sorted(r for r in OPTIONAL_RULES[title] if rng.random() < 1 / 3)
    for rule, excluded in EXCLUSIVE.get(title, {}).items():
        if rule in rules:
            rules = [r for r in rules if r not in excluded]
    return setup_of(title, players, seed, rules)


def setup_of(title: str, players: int, seed: int, rules: list[str]) -> Setup:
    """The setup of these players and optional rules, with the pbem options they mean."""
    options = dict(SITE_READINGS[title])
    for rule in rules:
        options.update(OPTIONAL_RULES[title][rule])
    return Setup(title, players, seed, tuple(rules), options)
