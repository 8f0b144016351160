"""Operating rounds (1830 6.0): private revenue, then each floated corporation in market order.

Round keys: ``sr`` (the stock round before this set), ``index`` and ``of`` (operating
round i of n), ``operated`` (corporations done this round), ``current`` (the
corporation operating, or None).

What a corporation does in its turn (track, stations, trains, dividends) belongs to
the operating-round rules still to come; until then a corporation can only end its
turn, which counts as running nothing (no dividend: the share value moves left, 4.5).
"""

from __future__ import annotations

from typing import Any

from . import market
from .auction import pay_private_revenue
from .context import Ctx, require
from .errors import NotImplementedRule
from .rounds import after_operating_round, floated_in_order
from .state import GameState

NOT_YET = (
    "pbem cannot carry out operating-round actions (track, stations, trains, dividends) "
    "yet; a corporation can only end its turn with 'done', which counts as running nothing."
)


def begin_operating_round(ctx: Ctx, sr_number: int, index: int, count: int) -> None:
    ctx.new_round({"kind": "operating", "sr": sr_number, "index": index, "of": count,
                   "operated": [], "current": None})
    ctx.log(f"Operating round {sr_number}.{index} begins.")
    pay_private_revenue(ctx)
    next_corporation(ctx)


def next_corporation(ctx: Ctx) -> None:
    """The unoperated floated corporation highest in market order, re-evaluated each time."""
    state = ctx.state
    waiting = [c for c in floated_in_order(state) if c not in state.round["operated"]]
    if not waiting:
        ctx.log(f"Operating round {state.round['sr']}.{state.round['index']} ends.")
        after_operating_round(ctx)
        return
    corp = waiting[0]
    ctx.round_set(current=corp)
    ctx.log(f"{corp} operates ({state.president(corp)}).")


def operating_player(state: GameState) -> str | None:
    corp = state.round.get("current")
    return state.president(corp) if corp else None


def decide(ctx: Ctx, action: dict[str, Any]) -> None:
    state = ctx.state
    corp = state.round["current"]
    president = state.president(corp)
    require(ctx.actor == president, f"{corp} is operating; its president {president} acts now, "
            f"not {ctx.actor}.")
    if action["type"] != "pass":
        raise NotImplementedRule(NOT_YET)
    ctx.log(f"{corp} runs nothing and pays no dividend.")
    market.move(ctx, corp, "left")
    ctx.emit("corp", corp=corp, values={"operated": True})
    ctx.round_set(operated=state.round["operated"] + [corp], current=None)
    next_corporation(ctx)


def legal(state: GameState) -> dict[str, list[dict[str, Any]]]:
    player = operating_player(state)
    return {player: [{"action": {"type": "pass"}}]} if player else {}
