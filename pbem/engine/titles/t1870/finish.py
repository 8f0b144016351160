"""The $400 finish (1870 Variants, $400 Finish, p.25; option finish_on_400=yes): when a
share value reaches $400 the company finishes operating and the game ends; reached at
the end of a stock round, no company operates."""

from __future__ import annotations

from ...context import Ctx
from ...ending import end_game
from ...facts import Ending
from ...state import GameState

FINISH_RULE = "1870 Variants, $400 Finish, p.25"


def finish_on_400(state: GameState) -> bool:
    return state.options.get("finish_on_400", "no") == "yes"


def at_top(state: GameState) -> list[str]:
    """Companies whose share value is the market's highest ($400)."""
    top = state.rules.market.max_price
    return [sym for sym, c in state.corps.items() if c.cell is not None and state.price(sym) == top]


def note_400(ctx: Ctx, corp: str) -> None:
    """After ``corp``'s dividend: with the $400 finish, its token reaching $400 ends the
    game once it has finished operating (Variants, p.25)."""
    state = ctx.state
    if not finish_on_400(state) or corp not in at_top(state):
        return
    if state.ending is not None and state.ending["reason"] == "400":
        return
    if state.options.get("finish_400_timing", "turn") == "at-once":
        ctx.log(f"{corp}'s share value has reached ${state.price(corp)}: the game ends at "
                "once (option finish_400_timing=at-once).")
        end_game(ctx, "400")
        return
    ctx.emit(Ending({"reason": "400", "after": "turn", "corp": corp}))
    ctx.log(f"{corp}'s share value has reached ${state.price(corp)}: the game ends when "
            f"{corp} has finished operating; no other company operates.")


def ends_after_turn(state: GameState) -> bool:
    """The $400 finish: the game ends when the operating company's turn is over."""
    return state.ending is not None and state.ending.get("after") == "turn"


def ends_before_operating(ctx: Ctx) -> bool:
    """At the start of an operating round: a token that reached $400 in the stock round
    ends the game with no company operating (Variants, p.25).  True: the game is over."""
    state = ctx.state
    if not finish_on_400(state) or not at_top(state):
        return False
    ctx.log(f"{', '.join(at_top(state))} reached ${state.rules.market.max_price} in the stock "
            "round: no company operates and the game ends.")
    end_game(ctx, "400")
    return True
