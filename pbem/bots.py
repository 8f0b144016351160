"""Random players: each picks one of the moves the engine lists as legal.

Used by `make demo` to play a whole game, by the self-play tests and by the differential
runner (bench/differential).  The choice is weighted by the situation so that games
move on and reach their late phases: privates get bought, presidents float their
corporations, corporations lay track most turns, run, mostly pay out (withhold while
saving for a train), buy the newest trains rather than fill their slots with old
ones, and nobody sells or passes more than a real player would.  Every move comes from the
engine's listing (``legal_moves``); a subclass may add moves the listing leaves out
(``extra_moves``) or drop some (``allowed``).
"""

from __future__ import annotations

import random
from typing import Any

from .engine.game import legal_moves
from .engine.state import GameState
from .engine.trains import bank_offers, has_room

Move = dict[str, Any]
Choice = tuple[str, Move]  # (player, listed move)

#: relative weights of move types, by round kind
WEIGHTS = {
    "auction": {"buy_private": 6, "bid": 3, "pass": 3, "par": 1, "exchange": 0.2},
    "stock": {"par": 3, "buy_share": 6, "sell": 1.2, "pass": 3, "exchange": 0.3,
              "accept": 1, "decline": 1, "redeem": 0.6, "reissue": 0.4, "protect": 1.5,
              "buy_private": 0.8, "repay": 0.2},
    "operating": {"lay": 6, "token": 3, "run": 12, "payout": 8, "withhold": 1.5, "half": 2,
                  "buy_train": 5, "pass": 2, "discard": 1, "sell": 1, "bankrupt": 1,
                  "accept": 2, "decline": 0.5, "exchange": 0.05, "protect": 1.5,
                  "decline_protection": 1, "destination": 1, "cattle": 2, "port": 2,
                  "buy_private": 0.6, "repay": 0.2},
}


def concrete(move: Move, rng: random.Random) -> dict[str, Any]:
    """A concrete action from a listed move: amounts and counts drawn from their range."""
    action = dict(move["action"])
    if "min" in move:
        low, high = move["min"], move["max"]
        step = move.get("step", 1)
        if action["type"] == "bid":  # bidders raise modestly, so money stays free to buy
            value = low if rng.random() < 0.7 else \
                low + step * rng.randint(0, (min(high, low + 60) - low) // step)
        else:
            value = rng.randint(low, high)
        if action["type"] == "sell":
            action["sales"] = [{"corp": action["sales"][0]["corp"], "count": value}]
        elif action["type"] == "buy_share":
            action["count"] = value
        elif "price" in action:
            action["price"] = value
        else:
            action["amount"] = value
    return action


class Bot:
    """A random player weighted by the situation (see the module's docstring)."""

    weights = WEIGHTS

    def choices(self, state: GameState, only: str | None = None) -> list[Choice]:
        listed = [(name, m) for name, ms in legal_moves(state).items() for m in ms
                  if only in (None, name)]
        listed += [(n, m) for n, m in self.extra_moves(state) if only in (None, n)]
        return [(n, m) for n, m in listed if self.allowed(state, n, m)]

    def extra_moves(self, state: GameState) -> list[Choice]:
        """Moves to consider besides the listed ones (none here)."""
        return []

    def allowed(self, state: GameState, name: str, move: Move) -> bool:
        return True

    def choose(self, state: GameState, rng: random.Random,
               only: str | None = None) -> tuple[str, dict[str, Any]]:
        """(player, action): a move drawn by kind, then by its weight in the situation."""
        options = self.choices(state, only)
        if not options:
            raise LookupError("no legal move")
        weights = self.weights.get(state.round["kind"], {})
        by_type: dict[str, list[Choice]] = {}
        for option in options:
            kind = option[1]["action"]["type"]
            if kind == "decline" and state.round.get("protection"):
                kind = "decline_protection"
            by_type.setdefault(kind, []).append(option)
        kinds = sorted(by_type)
        situation = [weights.get(k, 1) * self.factor(state, k, by_type[k]) for k in kinds]
        kind = rng.choices(kinds, situation)[0]
        group = by_type[kind]
        name, move = rng.choices(group, [self.move_weight(state, m) for _, m in group])[0]
        return name, concrete(move, rng)

    def move_weight(self, state: GameState, move: Move) -> float:
        """How likely a move is among those of its kind: a corporation that has trains
        buys mostly the newest type the bank sells (players do not fill their slots
        with old trains, which would stop the game short of its later phases)."""
        action = move["action"]
        if action["type"] == "buy_train" and state.round["kind"] == "operating":
            corp = state.corps.get(state.round.get("current") or "")
            if corp is not None and corp.trains and \
                    action.get("train") not in {t.name for t in bank_offers(state)}:
                return 0.1
        return 1.0

    def factor(self, state: GameState, kind: str, options: list[Choice]) -> float:
        """How much more (or less) likely a kind of move is in this situation."""
        rnd = state.round
        if rnd["kind"] == "stock":
            return self.stock_factor(state, kind, options)
        if rnd["kind"] == "operating" and rnd.get("current"):
            factor = self.operating_factor(state, kind, rnd["current"])
            return factor * max(self.move_weight(state, m) for _, m in options)
        return 1.0

    def stock_factor(self, state: GameState, kind: str, options: list[Choice]) -> float:
        floated = sum(1 for c in state.corps.values() if c.floated and not c.closed)
        name = state.round.get("current")
        cash = state.player(name).cash if name in state.names else 0
        if kind == "par":  # start corporations until a good number runs
            return 3.0 if floated < len(state.players) + 1 else 0.3
        if kind == "buy_share":  # above all to float what was started
            unfloated = any(c.par is not None and not c.floated and not c.closed
                            for c in state.corps.values())
            return 2.0 if unfloated else 1.0
        if kind == "sell":
            return 0.15 if cash > 100 else 0.4
        return 1.0

    def operating_factor(self, state: GameState, kind: str, corp: str) -> float:
        c = state.corps[corp]
        if kind == "buy_train":
            return 4.0 if not c.trains else 1.0
        if kind == "pass":
            return 0.5 if not c.trains else 1.0
        if kind == "lay":  # players lay track nearly every turn: routes to run
            return 3.0
        if kind in SAVING and saving_for_a_train(state, corp):
            return SAVING[kind]
        return 1.0


#: the dividend of a corporation saving for a train: mostly withheld, as players do
SAVING = {"withhold": 6.0, "half": 1.0, "payout": 0.25}


def saving_for_a_train(state: GameState, corp: str) -> bool:
    """Whether ``corp`` has room for a train the bank sells now but not the money for
    the cheapest (then players withhold, so that games move on to the later phases)."""
    offers = bank_offers(state)
    return bool(offers) and has_room(state, corp) and \
        state.corps[corp].cash < min(t.price for t in offers)


BOT = Bot()


def pick(state: GameState, rng: random.Random, only: str | None = None) -> tuple[str, dict]:
    """(player, action): a legal move, weighted by kind; ``only``: that player's moves."""
    return BOT.choose(state, rng, only)
