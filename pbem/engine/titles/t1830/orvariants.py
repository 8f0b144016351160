"""1830's operating-round variants (the German rulebook, 2.0, 3.0, V-1.7, V-7.7).

* operating_order (2.0): the order of the companies may change during an operating round
  when a share value changes (★, "Variable Betriebsreihenfolge"), or it is fixed at the
  start of the round ("Feste Betriebsreihenfolge").
* diesels (V-1.7; 3.0 "Unzerstörbare 4er-Loks"): six diesels (★), unlimited, or none (the
  4-trains are never made obsolete); six_trains: two 6-trains (★) or three.
* private_buy_in (3.0): corporations may buy private companies from the operating round
  in which the first 3-train is bought (the phase, ★), or only from the next operating
  round on ("Verzögertes Hineinkaufen").
* train_limit (V-7.7): a company at its train limit may not buy a train (★), or it may
  and then puts trains in the bank pool without compensation until it is within the
  limit ("Flexibles Loklimit"; its president chooses, as for a phase change, 6.6.1).
* only_train (V-7.7): a company with a legal route may be bought its only train (★:
  it needs a train only in its own turn), or may not.

Readings (docs/options.md): the fixed order is the market order when the round's first
company operates, companies that close drop out of it; the delayed buy-in counts
operating rounds, so a 3-train bought in the last operating round of a set lets
companies buy privates in the first one of the next set.
"""

from __future__ import annotations

from ...context import Ctx
from ...facts import Note
from ...market import floated_in_order
from ...orrun import has_route
from ...state import GameState
from ...title import TrainDef

#: notes key: the operating round (sr, index) in which privates became buyable
BUYABLE = "privates_buyable_in"


def train_count(state: GameState, train: TrainDef) -> int | None:
    if train.name == "6" and state.options.get("six_trains") == "3":
        return (train.count or 0) + 1  # with plus trains (V-7.9): two 6s and the 6+6
    if train.name == "D":
        diesels = state.options.get("diesels", "6")
        return None if diesels == "unlimited" else 0 if diesels == "none" else train.count
    return train.count


def fixed_order(state: GameState) -> bool:
    return state.options.get("operating_order", "variable") == "fixed"


def turn_order(state: GameState) -> list[str]:
    """The companies in the order they operate this round."""
    order = state.round.get("order")
    if not fixed_order(state) or order is None:
        return floated_in_order(state)
    return [c for c in order if not state.corps[c].closed]


def fix_order(ctx: Ctx) -> None:
    """At the start of an operating round with the fixed order: remember it."""
    if fixed_order(ctx.state):
        ctx.round_set(order=floated_in_order(ctx.state))


def note_buyable(ctx: Ctx) -> None:
    """After each command: the operating round in which private companies became
    buyable (for the delayed buy-in)."""
    state = ctx.state
    if state.options.get("private_buy_in", "phase") != "next-round" or BUYABLE in state.notes:
        return
    if state.phase is None or not state.rules.phase(state.phase).corporations_buy_privates:
        return
    rnd = state.round
    if rnd.get("kind") == "operating":
        ctx.emit(Note(BUYABLE, [rnd["sr"], rnd["index"]]))
        ctx.log("Corporations may buy private companies from the next operating round on "
                "(delayed buy-in).")


def buy_in_problem(state: GameState) -> str | None:
    rnd = state.round
    if state.notes.get(BUYABLE) == [rnd.get("sr"), rnd.get("index")]:
        return ("The first 3-train was bought in this operating round: corporations may buy "
                "private companies from the next operating round on (delayed buy-in).")
    return None


def flexible_limit(state: GameState) -> bool:
    return state.options.get("train_limit", "fixed") == "flexible"


def only_train_problem(state: GameState, seller: str) -> str | None:
    if state.options.get("only_train", "may-be-sold") != "kept":
        return None
    if len(state.corps[seller].trains) == 1 and has_route(state, seller):
        return f"{seller} has a route and this is its only train: it may not be bought from it."
    return None
