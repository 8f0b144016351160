"""The $400 finish (1870 Variants, $400 Finish, p.25; option finish_on_400=yes): when a
share value reaches $400 the company finishes operating and the game ends; reached at
the end of a stock round, no company operates (the mechanics: pbem/engine/ending.py,
shared with 1830's V-8.0)."""

from __future__ import annotations

from ...context import Ctx
from ...ending import (
    at_top,
    end_at_top_before_operating,
    end_game,
    ends_after_turn,
    note_top_reached,
)
from ...state import GameState

REASON = "400"

__all__ = ["ends_after_turn", "ends_before_operating", "finish_on_400", "note_400"]


def finish_on_400(state: GameState) -> bool:
    return state.options.get("finish_on_400", "no") == "yes"


def note_400(ctx: Ctx, corp: str) -> None:
    """After ``corp``'s dividend: with the $400 finish, its token reaching $400 ends the
    game once it has finished operating (Variants, p.25)."""
    state = ctx.state
    if not finish_on_400(state):
        return
    if state.options.get("finish_400_timing", "turn") == "at-once":
        if corp in at_top(state):
            ctx.log(f"{corp}'s share value has reached ${state.price(corp)}: the game ends "
                    "at once (option finish_400_timing=at-once).")
            end_game(ctx, REASON)
        return
    note_top_reached(ctx, corp, REASON)


def ends_before_operating(ctx: Ctx) -> bool:
    """At the start of an operating round: a token that reached $400 in the stock round
    ends the game with no company operating (Variants, p.25).  True: the game is over."""
    return finish_on_400(ctx.state) and end_at_top_before_operating(ctx, REASON)
