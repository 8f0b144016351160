"""The end of the game: the bank breaks, or a player goes bankrupt; the final scores
(cash, shares at market value, private companies at face value).  A bankrupt player's
score is the title's rule (Rulebook.bankrupt_score); a title's other ends are its own
(a finish when a share value reaches the top of the market)."""

from __future__ import annotations

from typing import Any

from .context import Ctx, bank_level, money
from .facts import Ending, GameOver
from .registry import book, cite
from .state import BANK, GameState, player_holder


def bank_broken(state: GameState, cash: int | None = None) -> bool:
    """The bank has run out of money (its cash now, or ``cash``, context.bank_level): it
    pays on from now on on paper (7.0).  Option bank_break=overdrawn (18xx.games): only
    once a payment exceeds what it has, the capital of corporations floated in this
    stock round counted as paid; a bank left with exactly $0 has not broken yet."""
    cash = bank_level(state) if cash is None else cash
    if state.options.get("bank_break", "empty") == "overdrawn":
        return cash < 0
    return cash <= 0


def note_bank_break(ctx: Ctx) -> None:
    """Called after every decision, and before a set of operating rounds ends: the first
    time the bank runs out, fix when the game ends: after the current set of operating
    rounds, or, in a stock round, after it and one more set (7.0).  The bank has run
    out at the payment that emptied it, in the round of that payment, even if money came
    back later in the decision (a company closing returns its treasury: a company that
    withheld the bank's last money and closed, found by differential testing)."""
    state = ctx.state
    if state.ending is not None or state.finished:
        return
    low = ctx.bank_low
    if low is not None and bank_broken(state, low[0]):
        kind = low[1]
    elif bank_broken(state):
        kind = state.round.get("kind")
    else:
        return
    after = "set" if kind == "operating" else "next set"
    ctx.emit(Ending({"reason": "bank", "after": after}))
    when = ("at the end of this set of operating rounds" if after == "set" else
            "after this stock round and one more set of operating rounds")
    ctx.log(f"The bank has run out of money: the game ends {when}.")


# -- the top of the market (a title's finish there): the title says when -----------------


def at_top(state: GameState) -> list[str]:
    """Companies whose share value is the market's highest."""
    top = state.rules.market.max_price
    return [sym for sym, c in state.corps.items() if c.cell is not None and state.price(sym) == top]


def note_top_reached(ctx: Ctx, corp: str, reason: str) -> None:
    """After ``corp``'s dividend in a game that ends at the top of the market: its token
    there ends the game once it has finished operating; no other company operates."""
    state = ctx.state
    if corp not in at_top(state) or state.ending is not None and state.ending["reason"] == reason:
        return
    ctx.emit(Ending({"reason": reason, "after": "turn", "corp": corp}))
    ctx.log(f"{corp}'s share value has reached ${state.price(corp)}: the game ends when "
            f"{corp} has finished operating; no other company operates.")


def ends_after_turn(state: GameState) -> bool:
    """The game ends when the operating company's turn is over (the top reached)."""
    return state.ending is not None and state.ending.get("after") == "turn"


def end_at_top_before_operating(ctx: Ctx, reason: str) -> bool:
    """At the start of an operating round: a token that reached the top in the stock
    round ends the game with no company operating.  True: the game is over."""
    state = ctx.state
    if not at_top(state):
        return False
    ctx.log(f"{', '.join(at_top(state))} reached ${state.rules.market.max_price} in the stock "
            "round: no company operates and the game ends.")
    end_game(ctx, reason)
    return True


def share_value(state: GameState, name: str) -> int:
    holder = player_holder(name)
    return sum(state.percent(c, holder) // 10 * (state.price(c) or 0) for c in state.corps)


def private_value(state: GameState, name: str) -> int:
    return sum(state.rules.private(s).value for s in state.privates_of(player_holder(name)))


def worth(state: GameState, name: str) -> int:
    """Cash, shares at market value, and owned private companies at face value (7.0)."""
    return state.player(name).cash + share_value(state, name) + private_value(state, name)


def end_game(ctx: Ctx, reason: str, bankrupt: str | None = None) -> None:
    """The game is over: everybody scored.  A bankrupt player's cash is forfeited to the
    bank (his money went towards the train); his score is the title's rule
    (Rulebook.bankrupt_score)."""
    state = ctx.state
    if bankrupt is not None:
        cash = state.player(bankrupt).cash
        if cash > 0:
            ctx.pay(player_holder(bankrupt), BANK, cash)
            ctx.log(f"{bankrupt} forfeits {money(cash)} to the bank "
                    f"({cite(state, 'bankruptcy')}).")
    scores: dict[str, int] = {}
    for p in state.players:
        scores[p.name] = worth(state, p.name)
        if p.name == bankrupt:
            scores[p.name] = book(state).bankrupt_score(state, p.name, scores[p.name],
                                                        share_value(state, p.name))
    best = max(scores.values())
    winners = [n for n, v in scores.items() if v == best]
    result: dict[str, Any] = {"reason": reason, "scores": scores, "winners": winners,
                              "bankrupt": bankrupt}
    ctx.emit(GameOver(result))
    ctx.log("The game is over: " + ", ".join(f"{n} {money(v)}" for n, v in
                                             sorted(scores.items(), key=lambda kv: -kv[1])) +
            f". {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}.")
