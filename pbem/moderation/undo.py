"""Undo by the game's rule, with the consent requests of rule ``consent``.

The engine says what an undo takes back and whose consent it needs
(``pbem.engine.undo``); here the answer is carried out: a revert at once, or a request
on the record that waits for ``accept``/``decline`` from each player asked. A request
ends when every one accepted (the revert is made), one declined, its deadline passed,
or the game moved on (a command was made or taken back: the request no longer says
what would be undone).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import service
from ..engine.undo import Move, UndoPlan, plan_undo
from ..store import Store
from . import record
from .deadlines import Schedule, UndoRequest, acting_player
from .timecalc import advance, iso, parse_moment, show_moment

POLICY_SOURCE = "policy:"  # the source of commands the service made for a player


@dataclass
class UndoOutcome:
    """What an undo, an answer or an expiry did: lines for the sender, and who else hears
    what (player -> lines)."""

    lines: list[str] = field(default_factory=list)
    tell: dict[str, list[str]] = field(default_factory=dict)
    reverted: bool = False
    closed: str | None = None  # done, declined, expired, lapsed
    taken: str = ""  # what it takes back: "[41] Ann: buy PRR; [42] Ben: buy NYC"

    def to(self, names: Iterable[str], *lines: str) -> None:
        for name in names:
            self.tell.setdefault(name, []).extend(lines)


def moves(events: Iterable[Mapping[str, Any]]) -> list[Move]:
    """The game's commands that count, as the engine's undo rule reads them."""
    return [Move(e["seq"], acting_player(e), e["text"],
                 str(e.get("source") or "").startswith(POLICY_SOURCE))
            for e in events if e["kind"] == "command"]


def taken_back(taken: Sequence[Move], player: str) -> str:
    """What an undo took back, as its result line says it: "event 8 (buy B&O) is taken
    back", or "events 5 (Ann: buy SV), 6 (Ben: buy CS) are taken back"."""
    if len(taken) == 1 and taken[0].player == player:
        return f"event {taken[0].seq} ({taken[0].text}) is taken back"
    listed = ", ".join(f"{m.seq} ({m.player}: {m.text})" for m in taken)
    return f"event{'s' if len(taken) > 1 else ''} {listed} {'are' if len(taken) > 1 else 'is'} " \
        "taken back"


def request(store: Store, game_id: int, player: str, rule: str, schedule: Schedule, *,
            source: str, now: str) -> UndoOutcome:
    """``player``'s undo: done at once, or asked of the players who acted since.
    RulesError (from the engine) when the rule does not allow it."""
    plan = plan_undo(rule, player, moves(store.effective_events(game_id)))
    taken = "; ".join(f"[{m.seq}] {m.player}: {m.text}" for m in plan.take_back)
    out = UndoOutcome(taken=taken)
    if not plan.ask:
        seq = service.undo(store, game_id, plan.keep, actor=player, source=source, now=now)
        out.reverted = True
        out.lines.append(f"[{seq}] undo: {taken_back(plan.take_back, player)}.")
        return out
    due = _due(schedule, now)
    command = {"type": "undo_request", "player": player, "keep": plan.keep,
               "take_back": [m.seq for m in plan.take_back], "ask": list(plan.ask),
               "due": iso(due) if due else None}
    until = f" by {show_moment(due)}" if due else ""
    asked = " and ".join(plan.ask)
    event = record.append(store, game_id, command, "undo", actor=player, source=source,
                          now=now, log=[f"{player} asks to take back: {taken}; {asked} "
                                        f"must agree{until}."])
    out.lines.append(f"[{event['seq']}] undo: {asked} must agree (accept or decline){until}; "
                     f"it would take back {taken}.")
    out.to(plan.ask, f"{player} asks to take back {taken}.",
           f"It needs the consent of {asked}: write accept (or accept undo) to agree, "
           f"decline (or decline undo) to refuse{until}.",
           "Until then the game goes on; a move made meanwhile ends the request.")
    return out


def _due(schedule: Schedule, now: str) -> Any:
    """A request expires when a decision begun now would: the game's deadline."""
    allowed = schedule.moderation.allowed_for(schedule.kind or "operating")
    if allowed is None:
        return None
    return advance(parse_moment(now), allowed, schedule.moderation.days)


def open_request_for(schedule: Schedule, player: str) -> UndoRequest | None:
    """The open request that waits for ``player``'s answer."""
    for req in schedule.undo_requests.values():
        if player in req.waiting_for:
            return req
    return None


def answer(store: Store, game_id: int, player: str, req: UndoRequest, accepted: bool, *,
           source: str, now: str) -> UndoOutcome:
    """``player`` accepts or declines request ``req``; the revert when all accepted."""
    word = "accept" if accepted else "decline"
    record.append(store, game_id, {"type": "undo_answer", "request": req.seq,
                                   "player": player, "answer": word},
                  f"{word} undo", actor=player, source=source, now=now,
                  log=[f"{player} {'agrees to' if accepted else 'refuses'} {req.player}'s undo."])
    req.answers[player] = word
    out = UndoOutcome()
    out.lines.append(f"{word} undo: you {'agree to' if accepted else 'refuse'} "
                     f"{req.player}'s undo.")
    if not accepted:
        _close(store, game_id, req, "declined", source, now)
        out.closed = "declined"
        out.to([req.player, *req.ask], f"{player} refuses {req.player}'s undo; nothing is "
               "taken back.")
        return out
    if req.waiting_for:
        out.to([req.player], f"{player} agrees to your undo; waiting for "
               f"{' and '.join(req.waiting_for)}.")
        return out
    seq = service.undo(store, game_id, req.to, actor=req.player, source=source, now=now)
    _close(store, game_id, req, "done", source, now)
    out.reverted, out.closed = True, "done"
    line = (f"[{seq}] Everyone asked agreed: {req.player}'s undo takes back events "
            f"{req.take_back[0]} to {req.take_back[-1]}.")
    out.lines.append(line)
    out.to([req.player, *req.ask], line)
    return out


def expire(store: Store, game_id: int, req: UndoRequest, *, now: str) -> UndoOutcome:
    _close(store, game_id, req, "expired", record.TIMER, now)
    out = UndoOutcome(closed="expired")
    missing = " and ".join(req.waiting_for)
    out.to([req.player, *req.ask], f"{req.player}'s undo request expired: {missing} did not "
           "answer in time; nothing is taken back.")
    return out


def lapse(store: Store, game_id: int, schedule: Schedule, events: list[dict[str, Any]], *,
          source: str, now: str) -> UndoOutcome:
    """End the requests the game has moved past (a command made or taken back since)."""
    out = UndoOutcome()
    commands = [e["seq"] for e in events if e["kind"] == "command"]
    last = commands[-1] if commands else 0
    for req in list(schedule.undo_requests.values()):
        if req.take_back and last == req.take_back[-1]:
            continue
        _close(store, game_id, req, "lapsed", source, now)
        schedule.undo_requests.pop(req.seq, None)
        out.closed = "lapsed"
        out.to([req.player, *req.ask], f"{req.player}'s undo request has lapsed: the game "
               "has moved on since it was made; nothing is taken back.")
    return out


def _close(store: Store, game_id: int, req: UndoRequest, outcome: str, source: str,
           now: str) -> None:
    record.append(store, game_id, {"type": "undo_closed", "request": req.seq,
                                   "outcome": outcome}, f"undo request {outcome}",
                  actor=None, source=source, now=now,
                  log=[f"{req.player}'s undo request: {outcome}."])


def plan_for(rule: str, player: str, events: Iterable[Mapping[str, Any]]) -> UndoPlan:
    return plan_undo(rule, player, moves(events))
