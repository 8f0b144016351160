"""The end of the game: the bank breaks, or a player goes bankrupt; the final scores
(cash, shares at market value, private companies at face value).  A bankrupt player's
score is the title's rule (Rulebook.bankrupt_score); a title's other ends are its own
(a finish when a share value reaches the top of the market)."""

from __future__ import annotations

from typing import Any

from .context import Ctx, money
from .facts import Ending, GameOver
from .registry import book, cite
from .state import BANK, GameState, player_holder


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
