"""Every state of several whole self-played 1830 games renders without error, within the
line limits, for the player to act (the prompt), with the game's hidden information."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from renderhelp import check_lines, row
from selfplay import SelfPlay

from pbem.engine.game import to_act
from pbem.render import sections
from pbem.render.svg import svg_map

#: (players, seed, visibility): seeds whose random games end in a few hundred moves
GAMES = [(3, 1, "open"), (4, 3, "corporation-cash-hidden"), (5, 2, "player-cash-hidden")]


@pytest.mark.parametrize(("players", "seed", "visibility"), GAMES)
def test_every_state_of_a_whole_game_renders(players: int, seed: int, visibility: str) -> None:
    game = SelfPlay(players, seed, visibility=visibility)
    rendered = 0
    while not game.state.finished and len(game.history) < 6000:
        name, _, decision = game.step()
        state = game.state
        viewer = (to_act(state) or [name])[0]
        parts = sections(state, viewer, decision.log[-5:])
        check_lines(parts.text())
        if visibility == "player-cash-hidden":
            for p in state.players:
                shown = row(parts.tables, p.name)[1]
                assert shown == ("?" if p.name != viewer else f"${p.cash}"), (p.name, viewer)
        if len(game.history) % 97 == 0:
            ET.fromstring(svg_map(state))
        rendered += 1
    assert rendered > 100 and game.state.finished
    final = sections(game.state, None)
    check_lines(final.text())
    if game.state.finished:
        assert "The game is over." in final.prompt


def special_1870(state) -> bool:  # type: ignore[no-untyped-def]
    """A state with one of 1870's decisions between turns waiting."""
    rnd = state.round
    return bool(rnd.get("protection") or rnd.get("connection") or rnd.get("proposal"))


@pytest.mark.parametrize("seed", [3])
def test_states_of_a_whole_1870_game_render(seed: int) -> None:
    """Every state with a price protection offer, a redemption asked of a player or a
    connection run waiting, and every 20th state, of a self-played 1870 game render
    within the limits; the prompt names the special decision."""
    game = SelfPlay(3, seed, "1870")
    rendered = special = 0
    while not game.state.finished and len(game.history) < 8000:
        name, _, decision = game.step()
        state = game.state
        if not special_1870(state) and len(game.history) % 20:
            continue
        viewer = (to_act(state) or [name])[0]
        parts = sections(state, viewer, decision.log[-5:])
        check_lines(parts.text())
        if special_1870(state):
            special += 1
            assert f"{viewer}: " in parts.prompt, parts.prompt
        rendered += 1
    assert game.state.finished and rendered > 50 and special > 0
    ET.fromstring(svg_map(game.state))
    check_lines(sections(game.state, None).text())
