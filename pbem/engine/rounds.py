"""The round sequence: the private auction, stock rounds, sets of operating rounds.

The title's rulebook owns the sequence (Rulebook.auction_ends, stock_round_ends,
operating_round_ends); these are the common steps between rounds it takes."""

from __future__ import annotations

from .context import Ctx
from .ending import end_game, note_bank_break
from .facts import Ending, Phase, Priority
from .market import move, operating_order
from .operating import begin_operating_round
from .registry import book
from .state import BANK, IPO, POOL, GameState
from .stock import new_stock_round


def start_first_stock_round(ctx: Ctx) -> None:
    """All private companies are sold: phase 2 and the first stock round begin (2.2)."""
    state = ctx.state
    number = 1
    if state.phase is None:
        first = state.rules.phases[0].name
        ctx.emit(Phase(first))
        ctx.log(f"All private companies are sold: phase {first} begins.")
    ctx.new_round(new_stock_round(number, state.priority))
    ctx.log(f"Stock round {number} begins; {state.priority} has the priority deal card.")


def end_stock_round(ctx: Ctx) -> None:
    """All passed: priority to the left of the last to buy or sell, sold-out
    corporations move up, newly floated ones receive their capital (5.0, 4.5, 5.3)."""
    state = ctx.state
    number = state.round["number"]
    last = state.round["last_actor"]
    ctx.log(f"Everybody passed: stock round {number} ends.")
    if last is not None:
        ctx.emit(Priority(state.left_of(last)))
    for sym in operating_order(state, sold_out(state)):  # share value order (4.5)
        move(ctx, sym, "up")
    for sym, corp in state.corps.items():
        if corp.floated and not corp.funded:
            capital = state.capital(sym)
            ctx.pay(BANK, f"c:{sym}", capital)
            ctx.corp_set(sym, funded=True)
            ctx.log(f"{sym} receives ${capital} from the bank.")
    if state.ending is not None and state.ending["after"] == "next set":
        ctx.emit(Ending({**state.ending, "after": "set"}))
    start_operating_set(ctx, number)


def sold_out(state: GameState) -> list[str]:
    return [
        sym for sym, c in state.corps.items()
        if c.cell is not None and all(h not in (IPO, POOL) for h in c.certs)
    ]


def start_operating_set(ctx: Ctx, sr_number: int) -> None:
    state = ctx.state
    assert state.phase is not None
    count = state.rules.phase(state.phase).operating_rounds
    start_operating_round(ctx, sr_number, 1, count)


def start_operating_round(ctx: Ctx, sr_number: int, index: int, count: int) -> None:
    book(ctx.state).before_operating_round(ctx)
    begin_operating_round(ctx, sr_number, index, count)


def after_operating_round(ctx: Ctx) -> None:
    """The next operating round of the set, or the next stock round."""
    state = ctx.state
    rnd = state.round
    if rnd["index"] < rnd["of"]:
        start_operating_round(ctx, rnd["sr"], rnd["index"] + 1, rnd["of"])
        return
    note_bank_break(ctx)  # the bank emptied by the set's last payments
    if state.ending is not None and state.ending["after"] == "set":
        end_game(ctx, state.ending["reason"])
        return
    start_next_stock_round(ctx, rnd["sr"])


def start_next_stock_round(ctx: Ctx, sr_number: int) -> None:
    state = ctx.state
    ctx.new_round(new_stock_round(sr_number + 1, state.priority))
    ctx.log(f"Stock round {sr_number + 1} begins; {state.priority} has the priority deal card.")
