"""The end of the game (1830 7.0, 7.1): the bank breaks, or a player goes bankrupt."""

from __future__ import annotations

from typing import Any

from .context import Ctx, money
from .state import GameState, player_holder


def bank_broken(state: GameState) -> bool:
    """The bank has run out of money: it pays on from now on on paper (7.0)."""
    return state.bank <= 0


def note_bank_break(ctx: Ctx) -> None:
    """Called after every decision: the first time the bank runs out, fix when the game
    ends: after the current set of operating rounds, or, in a stock round, after it and
    one more set (7.0)."""
    state = ctx.state
    if state.ending is not None or state.finished or not bank_broken(state):
        return
    kind = state.round.get("kind")
    after = "set" if kind == "operating" else "next set"
    ctx.emit("ending", ending={"reason": "bank", "after": after})
    when = ("at the end of this set of operating rounds" if after == "set" else
            "after this stock round and one more set of operating rounds")
    ctx.log(f"The bank has run out of money: the game ends {when}.")


def share_value(state: GameState, name: str) -> int:
    holder = player_holder(name)
    return sum(state.percent(c, holder) // 10 * (state.price(c) or 0) for c in state.corps)


def private_value(state: GameState, name: str) -> int:
    return sum(state.rules.private(s).value for s in state.privates_of(player_holder(name)))


def worth(state: GameState, name: str) -> int:
    """Cash, shares at market value, and owned private companies at face value (7.0)."""
    return state.player(name).cash + share_value(state, name) + private_value(state, name)


def end_game(ctx: Ctx, reason: str, bankrupt: str | None = None) -> None:
    state = ctx.state
    scores: dict[str, int] = {}
    for p in state.players:
        scores[p.name] = share_value(state, p.name) if p.name == bankrupt else worth(state, p.name)
    best = max(scores.values())
    winners = [n for n, v in scores.items() if v == best]
    result: dict[str, Any] = {"reason": reason, "scores": scores, "winners": winners,
                              "bankrupt": bankrupt}
    ctx.emit("game_over", result=result)
    ctx.log("The game is over: " + ", ".join(f"{n} {money(v)}" for n, v in
                                             sorted(scores.items(), key=lambda kv: -kv[1])) +
            f". {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}.")
