"""Whole games of 1830 by random legal self-play, 2 to 6 players, to the bank break or a
bankruptcy, with the invariants checked after every event, the game rebuilt from its
facts, and every command decided again from the state before it (what `audit` does)."""

from __future__ import annotations

import pytest
from invariants import check
from selfplay import SelfPlay

from pbem.engine.game import apply_facts, decide
from pbem.notation import format_action, parse_command
from pbem.service import parse_context

GAMES = 200
MAX_EVENTS = 8000


def play_whole_game(players: int, seed: int) -> SelfPlay:
    game = SelfPlay(players, seed)
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


@pytest.mark.parametrize("seed", range(GAMES))
def test_whole_game_keeps_invariants(seed: int) -> None:
    players = 2 + seed % 5
    game = play_whole_game(players, seed)
    assert game.state.result is not None
    assert game.state.result["reason"] in ("bank", "bankruptcy")
    replay_matches(game)
