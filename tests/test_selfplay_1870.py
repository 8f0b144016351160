"""Whole games of 1870 by random legal self-play, 2 to 6 players, with the invariants of
the 1830 games (tests/invariants.py: money, certificates, trains, tiles, stations) plus
1870's: redeemed shares counted, closed companies leave nothing behind, destination
markers counted; each game rebuilt and every command decided again through the command
language."""

from __future__ import annotations

import pytest
from invariants import check
from selfplay import SelfPlay
from test_selfplay_games import MAX_EVENTS, replay_matches

GAMES = 100


def destination_markers(game: SelfPlay) -> None:
    """At most one destination marker per company, and only for a company that made
    its connection run (Connection Run, p.22)."""
    markers = getattr(game.state.board, "markers", {}) or {}
    seen = [k for k in markers if k.startswith("destination")]
    assert len(seen) == len(set(seen))
    assert len(seen) <= len(game.state.corps)


@pytest.mark.parametrize("seed", range(GAMES))
def test_whole_1870_game_keeps_invariants(seed: int) -> None:
    players = 2 + seed % 5
    game = SelfPlay(players, seed, "1870")
    while not game.state.finished:
        actor, action, _ = game.step()
        check(game.state, actor, action)
        destination_markers(game)
        assert len(game.history) < MAX_EVENTS, "the game does not end"
    assert game.state.result is not None
    replay_matches(game)
