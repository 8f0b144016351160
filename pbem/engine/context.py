"""The decision context: a scratch copy of the state that records facts as they happen.

``decide`` works on a clone; every change goes through ``emit``, which applies the
fact to the clone at once (so later rules see the new state) and records it.
Rebuilding a game applies the recorded facts in order to reach the same state.
"""

from __future__ import annotations

from typing import Any

from .errors import RulesError
from .facts import Cash, Cert, CorpSet, Fact, RoundNew, RoundSet
from .state import BANK, GameState, player_holder


class Ctx:
    def __init__(self, state: GameState, actor: str) -> None:
        self.state = state
        self.actor = actor
        self.facts: list[Fact] = []
        self.lines: list[str] = []
        #: the bank's lowest cash in this decision, and the kind of round then: a bank a
        #: payment empties has run out of money even if a company closing in the same
        #: decision gives it money back (ending.note_bank_break)
        self.bank_low: tuple[int, str | None] | None = None

    # -- recording -------------------------------------------------------------
    def emit(self, fact: Fact) -> None:
        fact.apply(self.state)
        self.facts.append(fact)

    def log(self, line: str) -> None:
        self.lines.append(line)

    # -- common facts ------------------------------------------------------------
    def pay(self, payer: str, payee: str, amount: int) -> None:
        """Move ``amount`` dollars; the bank may go below zero (paid on paper, 7.0)."""
        if amount:
            self.emit(Cash(payer, payee, amount))
            if payer == BANK:
                bank = bank_level(self.state)
                if self.bank_low is None or bank < self.bank_low[0]:
                    self.bank_low = (bank, self.state.round.get("kind"))

    def move_cert(self, corp: str, index: int, to: str) -> None:
        self.emit(Cert(corp, index, to))

    def round_set(self, **values: Any) -> None:
        self.emit(RoundSet(values))

    def new_round(self, round_: dict[str, Any]) -> None:
        self.emit(RoundNew(round_))

    def corp_set(self, corp: str, **values: Any) -> None:
        self.emit(CorpSet(corp, values))


def bank_level(state: GameState) -> int:
    """The bank's cash as its running out is judged: with bank_break=overdrawn
    (18xx.games) less the capital of the corporations floated in this stock round, which
    the site pays at the float and pbem at the round's end (5.3)."""
    if state.options.get("bank_break", "empty") == "overdrawn":
        return state.bank - state.unpaid_capital()
    return state.bank


def require(condition: bool, message: str, rule: str | None = None) -> None:
    """Refuse the command with ``message`` unless ``condition`` holds."""
    if not condition:
        raise RulesError(message, rule)


def player_cash(state: GameState, name: str) -> int:
    return state.cash_of(player_holder(name))


def money(amount: int) -> str:
    return f"-${-amount}" if amount < 0 else f"${amount}"
