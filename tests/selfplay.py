"""Random legal self-play through the engine (decide and apply), for property tests:
a game, its history, and the check that every command decides the same facts again
through the command language (what `pbem audit` does)."""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator
from functools import cache
from typing import Any

from invariants import check

from pbem.bots import pick
from pbem.engine.errors import SetupError
from pbem.engine.game import Decision, apply_facts, decide, new_game
from pbem.engine.state import GameState
from pbem.engine.title import load_title
from pbem.notation import format_action, parse_command
from pbem.service import parse_context

#: a random game that has not ended after this many commands does not end
MAX_EVENTS = 8000


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
        decision.state = None  # kept in the history: its facts, not a whole game a command
        self.history.append((name, action, decision))
        return name, action, decision


def positions_at(title: str, seed: int, at: Collection[int], **options: str
                 ) -> Iterator[GameState]:
    """The positions of a random game (2 + seed % 5 players) after `at` commands each
    (those it reaches), in order: for property tests that compare two answers there."""
    game = SelfPlay(2 + seed % 5, seed, title, **options)
    while not game.state.finished and len(game.history) < max(at):
        game.step()
        if len(game.history) in at:
            yield game.state


def play_whole_game(players: int, seed: int, title: str = "1830", **options: str) -> SelfPlay:
    """A whole game of random legal moves (with the game ``options``), the invariants
    checked after every event."""
    game = SelfPlay(players, seed, title, **options)
    while not game.state.finished:
        actor, action, _ = game.step()
        check(game.state, actor, action)
        assert len(game.history) < MAX_EVENTS, "the game does not end"
    return game


def replay_matches(game: SelfPlay) -> None:
    """Each command, printed as a player would type it and read back, decides the same
    facts from the state before it (the audit, through the command language)."""
    state = game.start.clone()
    for actor, action, decision in game.history:
        text = format_action(action)
        again = decide(state, actor, parse_command(text, parse_context(state)))
        assert again.facts == decision.facts, text
        apply_facts(state, again.facts)
    assert state.to_dict() == game.state.to_dict()
    assert state.clone().to_dict() == state.to_dict()


#: the self-play games that play every choice of every option between them (option_set)
COVERING = 4


def option_set(title: str, n: int) -> dict[str, str]:
    """The options of self-play game ``n``.  Games 0 to COVERING - 1 play every choice of
    every option between them (with the base game's own test): option number k tries its
    choices from number (n + k) modulo its number of choices on, those no earlier game
    played first, and takes the first that goes with the options before it
    (Title.incompatible).  Later games (the sweep): a choice drawn at random for each
    option, the option's default where it cannot go with those before it."""
    rules = load_title(title)
    if n < COVERING:
        return dict(_covering_sets(title)[n])
    rng = random.Random(n)
    chosen: dict[str, str] = {}
    for key, opt in sorted(rules.options.items()):
        chosen[key] = rng.choice(opt.choices)
        if not _compatible(title, chosen):
            chosen[key] = opt.default
    return chosen


@cache
def _covering_sets(title: str) -> tuple[dict[str, str], ...]:
    """The option sets of games 0 to COVERING - 1 (see option_set), each made knowing the
    choices of those before it."""
    options = sorted(load_title(title).options.items())
    sets: list[dict[str, str]] = []
    for n in range(COVERING):
        chosen: dict[str, str] = {}
        for k, (key, opt) in enumerate(options):
            played = {earlier[key] for earlier in sets}
            turn = [opt.choices[(n + k + i) % len(opt.choices)]
                    for i in range(len(opt.choices))]
            for choice in [c for c in turn if c not in played] + \
                    [c for c in turn if c in played]:
                chosen[key] = choice
                if _compatible(title, chosen):
                    break
            else:
                chosen[key] = opt.default
        sets.append(chosen)
    return tuple(sets)


def _compatible(title: str, options: dict[str, str]) -> bool:
    try:
        load_title(title).resolve_options(options)
    except SetupError:
        return False
    return True
