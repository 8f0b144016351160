"""The ``pass`` policy: the moves the service makes for a player whose deadline passed
under ``on_deadline=pass``, or whose seat the referee removed (``kick``).

It picks among the moves the engine offers (``legal_moves``) and has each decided by the
engine like any command; it never makes a rule of its own:

- an offer to answer (a private or train sale, a redemption, an undo): decline;
  1870 price protection: decline;
- private auction and stock round: pass (which ends a stock turn begun with a buy);
- operating round: no track and no station (the home station of a company that must
  place it goes to the first city the engine allows), the trains run for the best total
  and the revenue paid out, no train unless the rules force one: then the cheapest the
  company can pay for itself; the turn ends. An 1870 connection run: the marker placed,
  the run paid out. A train over the limit: the cheapest is discarded.

Where no such move is legal (a forced train the president must pay for with his own
money, sales over a limit, a bankruptcy) the policy stops and says why: the referee
decides.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..engine.errors import RulesError
from ..engine.game import apply_facts, decide, legal_moves, to_act
from ..engine.state import GameState
from .deadlines import round_marker

MAX_MOVES = 25  # a decision is a turn: it never takes more

Move = dict[str, Any]


@dataclass
class PolicyResult:
    actions: list[dict[str, Any]] = field(default_factory=list)
    stuck: str | None = None  # why the policy stopped with the decision still open


def pass_policy(state: GameState, player: str) -> PolicyResult:
    """The actions that end ``player``'s current decision, decided in turn on a copy of
    ``state``; ``stuck`` says why it could not finish."""
    game = state.clone()
    result = PolicyResult()
    turn = _turn(game)
    for _ in range(MAX_MOVES):
        if game.finished or player not in to_act(game) or _turn(game) != turn:
            return result
        moves = legal_moves(game).get(player, [])
        choice = choose(game, player, moves)
        if isinstance(choice, str):
            result.stuck = choice
            return result
        try:
            decision = decide(game, player, choice)
        except RulesError as exc:
            result.stuck = str(exc)
            return result
        apply_facts(game, decision.facts)
        result.actions.append(choice)
    result.stuck = f"the pass policy made {MAX_MOVES} moves without ending the turn"
    return result


def _turn(state: GameState) -> tuple[str, str, str]:
    rnd = state.round
    return round_marker(state), str(rnd.get("current")), str(bool(rnd.get("connection")))


def choose(state: GameState, player: str, moves: list[Move]) -> dict[str, Any] | str:
    """The policy's next action among ``moves``, or why there is none."""
    by_type: dict[str, list[Move]] = {}
    for move in moves:
        by_type.setdefault(move["action"]["type"], []).append(move)
    for pick in _PREFERENCES:
        found = pick(state, by_type)
        if found is not None:
            return found
    if not moves:
        return f"{player} has no move the rules allow now"
    return _stuck_reason(state, player, by_type)


def _answer(state: GameState, by_type: dict[str, list[Move]]) -> dict[str, Any] | None:
    if "decline" in by_type and ("accept" in by_type or "protect" in by_type):
        return {"type": "decline"}
    return None


def _home(state: GameState, by_type: dict[str, list[Move]]) -> dict[str, Any] | None:
    turn = state.round.get("turn") or {}
    if state.round.get("kind") == "operating" and turn.get("step") == "home" \
            and by_type.get("token"):
        return dict(by_type["token"][0]["action"])
    return None


def _destination(state: GameState, by_type: dict[str, list[Move]]) -> dict[str, Any] | None:
    for move in by_type.get("destination", []):
        if move["action"].get("marker") == "place":
            return dict(move["action"])
    return None


def _run(state: GameState, by_type: dict[str, list[Move]]) -> dict[str, Any] | None:
    return {"type": "run", "routes": None} if "run" in by_type else None


def _payout(state: GameState, by_type: dict[str, list[Move]]) -> dict[str, Any] | None:
    if "payout" in by_type:
        return {"type": "payout"}
    if "withhold" in by_type and len(by_type) == 1:  # nothing to pay out: it withholds
        return {"type": "withhold"}
    return None


def _discard(state: GameState, by_type: dict[str, list[Move]]) -> dict[str, Any] | None:
    trains = [m["action"] for m in by_type.get("discard", [])]
    if not trains:
        return None
    return dict(min(trains, key=lambda a: (state.rules.train(a["train"]).price, a["train"])))


def _pass(state: GameState, by_type: dict[str, list[Move]]) -> dict[str, Any] | None:
    return {"type": "pass"} if "pass" in by_type else None


def _forced_train(state: GameState, by_type: dict[str, list[Move]]) -> dict[str, Any] | None:
    """A train the rules force, paid by the company itself: the cheapest."""
    corp = state.round.get("current")
    if state.round.get("kind") != "operating" or not corp or "pass" in by_type:
        return None
    cash = state.corps[corp].cash
    offers = [m for m in by_type.get("buy_train", [])
              if m["action"].get("trade") is None and m.get("price", 10**9) <= cash]
    if not offers:
        return None
    cheapest = min(offers, key=lambda m: (m["price"], m["action"]["source"] != "bank"))
    return dict(cheapest["action"])


_PREFERENCES: list[Callable[[GameState, dict[str, list[Move]]], dict[str, Any] | None]] = [
    _answer, _home, _destination, _discard, _run, _payout, _pass, _forced_train,
]


def _stuck_reason(state: GameState, player: str, by_type: dict[str, list[Move]]) -> str:
    corp = state.round.get("current")
    if "buy_train" in by_type or "sell" in by_type or "bankrupt" in by_type:
        return (f"{corp} must buy a train and cannot pay for it alone: {player}'s own money "
                "is needed (or shares sold), which the pass policy does not decide")
    kinds = ", ".join(sorted(by_type))
    return f"none of {player}'s moves now ({kinds}) is one the pass policy makes"
