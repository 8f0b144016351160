"""Whole games of 1830 and 1870 by random legal self-play, 2 to 6 players, to their end,
with the invariants of tests/invariants.py checked after every event (money,
certificates, trains, tiles, stations; 1870's redeemed shares, closed companies and
destination markers), each game rebuilt from its facts and every command decided again
from the state before it through the command language (what `audit` does).

1830 is also played with its options (docs/options.md): four games that together play
every choice of every option (selfplay.option_set), and the base game (game=base).

`make test` plays a fixed sample that covers both titles and 2 to 6 players; the full
sweep (200 games of 1830, 100 of 1870, 40 with random options, 20 base games) is marked
``sweep``: `pytest -m sweep` runs it, and so does `make bench` (bench/selfplay.py)."""

from __future__ import annotations

import pytest
from selfplay import option_set, play_whole_game, replay_matches

from pbem.engine.title import load_title

GAMES = {"1830": 200, "1870": 100, "options": 40, "base": 20}
#: the games `make test` plays: seed n has 2 + n % 5 players, so each title's sample
#: covers 2 to 6 players
SAMPLE = {"1830": {0, 1, 2, 3, 4, 7}, "1870": {0, 1, 2, 3, 4}, "options": {0, 1, 2, 3},
          "base": {0}}
#: how the games of a set end
ENDS = ("bank", "bankruptcy", "stock_market")


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


def test_the_sample_plays_every_choice_of_every_option() -> None:
    rules = load_title("1830")
    played = [rules.resolve_options(option_set("1830", n)) for n in SAMPLE["options"]]
    played.append(rules.resolve_options({"game": "base"}))
    for key, opt in rules.options.items():
        assert {options[key] for options in played} == set(opt.choices), key


@pytest.mark.parametrize("seed", seeds("options"))
def test_whole_1830_game_with_options_keeps_invariants(seed: int) -> None:
    game = play_whole_game(2 + seed % 5, seed, "1830", **option_set("1830", seed))
    assert game.state.result is not None and game.state.result["reason"] in ENDS
    replay_matches(game)


@pytest.mark.parametrize("seed", seeds("base"))
def test_whole_1830_base_game_keeps_invariants(seed: int) -> None:
    """The base game (German rules 1.0-8.0): groups, loans, no bankruptcy."""
    game = play_whole_game(2 + seed % 5, seed, "1830", game="base")
    assert game.state.result is not None and game.state.result["reason"] == "bank"
    replay_matches(game)
