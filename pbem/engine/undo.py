"""Undo by the game's rule (option ``undo``): what a player's ``undo`` takes back, and
whose consent it needs. Pure: it reads the game's moves, never the clock or the store.

- ``own-last`` (the default): a player takes back his own last command, until the next
  player acts;
- ``consent``: a player takes back his own last command, and with it every command
  made since, when every other player who acted since agrees;
- ``referee``: only the referee takes moves back (``revert to N``).

A move the service made for a player (the ``pass`` policy after a deadline, a removed
player's seat) is not the player's own: only the referee takes it back.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RulesError

RULES = ("own-last", "consent", "referee")
RULE_TEXT = {
    "own-last": "a player may take back their own last command, until the next player acts",
    "consent": "a player may take back their own last command, and the commands made since "
               "when every player who made them agrees",
    "referee": "only the referee takes moves back",
}


@dataclass(frozen=True)
class Move:
    """One command of the game that counts (not taken back)."""

    seq: int
    player: str  # whose command it is (the referee's "as Alice ..." is Alice's)
    text: str
    by_policy: bool = False  # made by the service for the player (deadline, kick)


@dataclass(frozen=True)
class UndoPlan:
    keep: int  # the last event kept: revert to it
    take_back: tuple[Move, ...]
    ask: tuple[str, ...]  # the players whose consent is needed, in the order they acted


def plan_undo(rule: str, player: str, moves: list[Move]) -> UndoPlan:
    """What ``player``'s undo does under ``rule``; RulesError with the rule and the
    reason when it may not."""
    if rule not in RULES:
        raise RulesError(f"The game's undo rule '{rule}' is not one of {', '.join(RULES)}.")
    refuse = _Refuse(rule)
    if rule == "referee":
        raise refuse("players' undo requests go to the referee")
    own = [i for i, m in enumerate(moves) if m.player == player]
    if not own:
        raise refuse("you have made no command that still counts")
    last = own[-1]
    mine = moves[last]
    since = moves[last + 1:]
    if mine.by_policy:
        raise refuse(f"your last command (event {mine.seq}: {mine.text}) was made for you by "
                     "the service, which only the referee takes back")
    if rule == "own-last" and since:
        other = since[0]
        raise refuse(f"{other.player} has acted since (event {other.seq}: {other.text})")
    ask = tuple(dict.fromkeys(m.player for m in since if m.player != player))
    return UndoPlan(mine.seq - 1, tuple(moves[last:]), ask)


class _Refuse:
    def __init__(self, rule: str) -> None:
        self.rule = rule

    def __call__(self, why: str) -> RulesError:
        return RulesError(f"The game's undo rule is {self.rule} ({RULE_TEXT[self.rule]}): "
                          f"{why}; nothing was undone.")
