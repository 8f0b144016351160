"""The end of the game (1830 7.0, 7.1): the bank breaks, or a player goes bankrupt.

1870 (Ending the Game, Bankruptcy, Winning the Game, p.24-25): the same two ends; the
bankrupt player's cash is forfeited to the bank and he is scored like everybody else
(he may win).  Variant $400 finish (option finish_on_400=yes, Variants p.25): when a
share value reaches $400 the company finishes operating and the game ends; reached at
the end of a stock round, no company operates."""

from __future__ import annotations

from typing import Any

from .context import Ctx, money
from .facts import Ending, GameOver
from .state import BANK, GameState, player_holder
from .trains import rules_1870

FINISH_RULE = "1870 Variants, $400 Finish, p.25"


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
    ctx.emit(Ending({"reason": "bank", "after": after}))
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


def finish_on_400(state: GameState) -> bool:
    return state.options.get("finish_on_400", "no") == "yes"


def at_top(state: GameState) -> list[str]:
    """Companies whose share value is the market's highest ($400 in 1870)."""
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


def end_game(ctx: Ctx, reason: str, bankrupt: str | None = None) -> None:
    """The game is over: everybody scored.  A bankrupt player's cash is forfeited to the
    bank (1870 p.25; 1830 6.7 note: his score is "the value of all of the shares that he
    could not sell", his money went towards the train)."""
    state = ctx.state
    if bankrupt is not None:
        cash = state.player(bankrupt).cash
        if cash > 0:
            ctx.pay(player_holder(bankrupt), BANK, cash)
            rule = "Bankruptcy, p.25" if rules_1870(state) else "1830 6.7"
            ctx.log(f"{bankrupt} forfeits {money(cash)} to the bank ({rule}).")
    scores: dict[str, int] = {}
    for p in state.players:
        if p.name == bankrupt and not rules_1870(state):
            scores[p.name] = share_value(state, p.name)
        else:
            scores[p.name] = worth(state, p.name)
    best = max(scores.values())
    winners = [n for n, v in scores.items() if v == best]
    result: dict[str, Any] = {"reason": reason, "scores": scores, "winners": winners,
                              "bankrupt": bankrupt}
    ctx.emit(GameOver(result))
    ctx.log("The game is over: " + ", ".join(f"{n} {money(v)}" for n, v in
                                             sorted(scores.items(), key=lambda kv: -kv[1])) +
            f". {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}.")
