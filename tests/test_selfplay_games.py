"""Whole games of 1830 and 1870 by random legal self-play, 2 to 6 players, to their end,
with the invariants of tests/invariants.py checked after every event (money,
certificates, trains, tiles, stations; 1870's redeemed shares, closed companies and
destination markers), each game rebuilt from its facts and every command decided again
from the state before it through the command language (what `audit` does).

`make test` plays a fixed sample that covers both titles and 2 to 6 players; the full
sweep (200 games of 1830, 100 of 1870) is marked ``sweep``: `pytest -m sweep` runs it,
and so does `make bench` (bench/selfplay.py)."""

from __future__ import annotations

import pytest
from selfplay import play_whole_game, replay_matches

GAMES = {"1830": 200, "1870": 100}
#: the games `make test` plays: seed n has 2 + n % 5 players, so each title's sample
#: covers 2 to 6 players
SAMPLE = {"1830": {0, 1, 2, 3, 4, 7}, "1870": {0, 1, 2, 3, 4}}


def seeds(title: str) -> list[object]:
    return [pytest.param(seed, marks=() if seed in SAMPLE[title] else pytest.mark.sweep)
            for seed in range(GAMES[title])]


@pytest.mark.parametrize("seed", seeds("1830"))
def test_whole_1830_game_keeps_invariants(seed: int) -> None:
    game = play_whole_game(2 + seed % 5, seed, "1830")
    assert game.state.result is not None
    assert game.state.result["reason"] in ("bank", "bankruptcy")
    replay_matches(game)


@pytest.mark.parametrize("seed", seeds("1870"))
def test_whole_1870_game_keeps_invariants(seed: int) -> None:
    game = play_whole_game(2 + seed % 5, seed, "1870")
    assert game.state.result is not None
    replay_matches(game)
