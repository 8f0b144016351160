"""Rounds as ordered lists of steps, as tobymao/18xx's rounds are (the operating round of
each of its titles is such a list of steps).

A title declares each of its rounds (pbem/engine/titles/*) as a Round holding its
steps in order.  A step is one part of the round: what it decides, the moves it offers,
and whether it is waiting for an answer now.

* A step that ``blocks`` (a proposal to answer, a train to discard, a price protection
  offer, a connection run) takes every action while it waits: it decides it or refuses
  it.  The first blocking step in the list wins.
* Otherwise the action goes to the first step of the turn whose ``actions`` hold its
  type (a step that acts only while it blocks declares none).  In an operating round
  the steps marked ``turn`` are the operating company's turn: only its president acts
  in them; the others (``turn`` False) are interruptions.
* ``moves`` lists what a step offers now; in the operating turn a step that ``holds``
  (a dividend still to decide) keeps the steps after it out of the listing.

A rule of one title is a step of that title's list (a subclass where it differs from
the common step), never a branch in the core.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .context import Ctx, require
from .errors import RulesError
from .state import GameState

#: a move as legal_moves lists it: {"action": {...}} with "min"/"max"/"price" as needed
Move = dict[str, Any]
#: who may act and the moves each may make
Moves = dict[str, list[Move]]


class Step:
    """One part of a round.  Subclasses set ``actions`` and override what they do."""

    #: the action types the step decides
    actions: frozenset[str] = frozenset()
    #: part of the turn of the player (or, in an operating round, the company) whose
    #: turn it is; False: an interruption, that only acts while it blocks
    turn: bool = True

    def blocks(self, state: GameState) -> bool:
        """Whether the step waits for an answer now, before anything else may happen."""
        return False

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        raise NotImplementedError

    def moves(self, state: GameState) -> Moves:
        """The moves the step offers now, by player."""
        return {}

    def offers_other(self, state: GameState, name: str, kinds: frozenset[str]) -> bool:
        """Whether the step offers ``name`` a move now whose type is not one of ``kinds``:
        what its ``moves`` list (a step that overrides this answers from the same
        listing, stopping at the first such move)."""
        return any(m["action"]["type"] not in kinds for m in self.moves(state).get(name, []))

    def holds(self, state: GameState) -> bool:
        """Whether the steps after it are not offered yet (operating turn listings)."""
        return False

    def lets_by(self, action: dict[str, Any]) -> bool:
        """Whether ``action`` goes to its own step while this one blocks the turn."""
        return False


@dataclass(frozen=True)
class Round:
    """A round of a title: its kind ("auction", "stock", "operating") and its steps in
    order.  decide/legal are the round's own (auction.py, stock.py, operating.py)."""

    kind: str
    steps: tuple[Step, ...]

    def waiting(self, state: GameState, turn: bool | None = None) -> Step | None:
        """The first step that blocks now (of the turn's steps, of the others, or any)."""
        for step in self.steps:
            if (turn is None or step.turn == turn) and step.blocks(state):
                return step
        return None

    def step_for(self, kind: str) -> Step | None:
        """The first step of the turn that decides actions of type ``kind``."""
        return next((s for s in self.steps if s.turn and kind in s.actions), None)

    def offers(self, state: GameState, name: str) -> list[Move]:
        """The moves the steps of the turn offer ``name`` now, in the steps' order."""
        moves: list[Move] = []
        for step in self.steps:
            if step.turn:
                moves += step.moves(state).get(name, [])
        return moves

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        raise NotImplementedError

    def legal(self, state: GameState) -> Moves:
        raise NotImplementedError

    def offers_other(self, state: GameState, name: str, kinds: frozenset[str]) -> bool:
        """Whether ``legal`` offers ``name`` a move whose type is not one of ``kinds``."""
        return any(m["action"]["type"] not in kinds for m in self.legal(state).get(name, []))


@dataclass(frozen=True)
class PlayersRound(Round):
    """A round of player turns (the private auction, a stock round): a blocking step
    first; else the player whose turn it is (round key ``current``) acts, by the step
    for the action's type."""

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        state = ctx.state
        waiting = self.waiting(state)
        if waiting is not None:
            waiting.decide(ctx, action)
            return
        require(ctx.actor == state.round["current"], self.not_your_turn(state, ctx.actor))
        step = self.step_for(action["type"])
        if step is None:
            raise self.refusal(state)
        step.decide(ctx, action)

    def legal(self, state: GameState) -> Moves:
        waiting = self.waiting(state)
        if waiting is not None:
            return waiting.moves(state)
        name = state.round["current"]
        return {name: self.offers(state, name)}

    def offers_other(self, state: GameState, name: str, kinds: frozenset[str]) -> bool:
        """As ``legal`` lists them, asked of the steps one by one until one offers such
        a move (each may stop at its first)."""
        waiting = self.waiting(state)
        if waiting is not None:
            return waiting.offers_other(state, name, kinds)
        return name == state.round["current"] and \
            any(step.offers_other(state, name, kinds) for step in self.steps if step.turn)

    def not_your_turn(self, state: GameState, actor: str) -> str:
        return f"It is {state.round['current']}'s turn, not {actor}'s."

    def refusal(self, state: GameState) -> RulesError:
        """The refusal of an action no step of the round decides."""
        return RulesError("That cannot be done in this round.")

