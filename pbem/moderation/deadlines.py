"""Who must decide what, since when, and by when.

A *decision* is a player's turn as the game waits for it: it starts when the game
begins to wait for the player (after another player's command, or when the operating
company changes) and lasts through the player's own commands of that turn. Its *key*
says which turn it is (the round, the last command by someone else, the company
operating), so a decision that goes on keeps its deadline and a new one gets its own.

Deadlines are computed from times on the record (when a decision began, the options
in force, absences, pauses) and written there as ``deadline`` moderation events each
time the decisions or their deadlines change; the timers read them back
(``Schedule``). So the record says at every point who had until when, and rebuilding a
game never depends on the clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..engine.auction import open_high_bid
from ..engine.game import REFEREE, to_act
from ..engine.state import GameState
from . import record
from .options import Moderation
from .timecalc import advance, counted, iso, parse_moment

KICK = "kick"


@dataclass(frozen=True)
class Decision:
    player: str
    key: str
    start: datetime
    due: datetime | None


@dataclass(frozen=True)
class Absence:
    player: str
    since: datetime
    until: datetime
    reason: str


@dataclass(frozen=True)
class Timer:
    """Something the clock must do at ``at``: ``reminder`` or ``expiry`` of a player's
    decision, or ``undo_expiry`` of a consent request (``request``: its seq)."""

    at: datetime
    what: str
    player: str = ""
    request: int = 0


@dataclass
class UndoRequest:
    seq: int
    player: str
    to: int
    take_back: list[int]
    ask: list[str]
    due: datetime | None
    answers: dict[str, str] = field(default_factory=dict)

    @property
    def waiting_for(self) -> list[str]:
        return [p for p in self.ask if p not in self.answers]


@dataclass
class Schedule:
    """The game's clock as the record has it (read from its moderation events)."""

    moderation: Moderation
    decisions: dict[str, Decision] = field(default_factory=dict)
    kind: str = ""
    reminded: set[tuple[str, str]] = field(default_factory=set)  # (player, decision key)
    #: (player, decision key, due) -> the policy it passed under
    expired: dict[tuple[str, str, str], str] = field(default_factory=dict)
    paused_since: datetime | None = None
    absences: dict[str, Absence] = field(default_factory=dict)
    kicked: set[str] = field(default_factory=set)
    undo_requests: dict[int, UndoRequest] = field(default_factory=dict)  # open ones
    recorded: bool = False  # a deadline event exists
    #: every decision the record had, by (player, key): one that comes back (an undo
    #: took the game back to it) has its old deadline again
    seen: dict[tuple[str, str], Decision] = field(default_factory=dict)

    @classmethod
    def read(cls, options: Mapping[str, Any], events: Iterable[dict[str, Any]]) -> Schedule:
        """From the game's options and its moderation events, in order."""
        events = list(events)
        changes = [e["command"] for e in record.of_type(events, "set_deadline")]
        schedule = cls(Moderation.read(options, changes))
        for event in events:
            schedule._take(event["command"], parse_moment(event["received"]), event["seq"])
        return schedule

    def _take(self, command: dict[str, Any], when: datetime, seq: int) -> None:
        kind = command.get("type")
        player = command.get("player", "")
        if kind == "deadline":
            self.recorded = True
            self.kind = command.get("kind", "")
            self.decisions = {
                name: Decision(name, key, parse_moment(command["start"][name]),
                               _moment(command["due"].get(name)))
                for name, key in command["keys"].items()}
            self.seen.update({(d.player, d.key): d for d in self.decisions.values()})
        elif kind == "reminder":
            self.reminded.add((player, command["key"]))
        elif kind == "expired":
            mark = (player, command.get("key", ""), command["due"])
            self.expired[mark] = command.get("policy", "wait")
        elif kind == "pause":
            self.paused_since = when
        elif kind == "resume":
            self.paused_since = None
        elif kind == "away":
            self.absences[player] = Absence(player, when, parse_moment(command["until"]),
                                            command.get("reason", ""))
        elif kind == "back":
            self.absences.pop(player, None)
        elif kind == "kick":
            self.kicked.add(player)
        elif kind == "replace":
            self.kicked.discard(player)
            self.absences.pop(player, None)
        elif kind == "undo_request":
            self.undo_requests[seq] = UndoRequest(seq, player, command["keep"],
                                                  list(command["take_back"]),
                                                  list(command["ask"]), _moment(command["due"]))
        elif kind == "undo_answer" and command["request"] in self.undo_requests:
            self.undo_requests[command["request"]].answers[player] = command["answer"]
        elif kind == "undo_closed":
            self.undo_requests.pop(command["request"], None)

    # -- reading -----------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        return self.paused_since is not None

    def away(self, player: str, now: datetime) -> Absence | None:
        """The player's absence at ``now`` (or one announced to begin later)."""
        absence = self.absences.get(player)
        return absence if absence is not None and absence.until > now else None

    def is_expired(self, decision: Decision) -> bool:
        return decision.due is not None and \
            (decision.player, decision.key, iso(decision.due)) in self.expired

    def late(self) -> list[Decision]:
        """Decisions whose deadline passed and that are still waiting (policy ``wait``, or
        a pass the policy could not finish)."""
        return [d for d in self.decisions.values() if self.is_expired(d)]

    def timers(self) -> list[Timer]:
        """What the clock must do next, earliest first (nothing while paused)."""
        if self.paused:
            return []
        found: list[Timer] = []
        for decision in self.decisions.values():
            if decision.due is None or self.is_expired(decision):
                continue
            name = decision.player
            if name not in self.kicked and self.moderation.remind and \
                    (name, decision.key) not in self.reminded:
                at = self.remind_at(decision)
                if at is not None:
                    found.append(Timer(at, "reminder", name))
            found.append(Timer(decision.due, "expiry", name))
        for request in self.undo_requests.values():
            if request.due is not None:
                found.append(Timer(request.due, "undo_expiry", request.player, request.seq))
        return sorted(found, key=lambda t: (t.at, t.what != "reminder"))

    def remind_at(self, decision: Decision) -> datetime | None:
        """``remind`` before the deadline (counted time), but not in the first half of
        the time allowed and not while the player is away; None when there is no room."""
        assert decision.due is not None and self.moderation.remind
        days = self.moderation.days
        absence = self.absences.get(decision.player)
        begin = max(decision.start, absence.until) if absence else decision.start
        total = counted(begin, decision.due, days)
        if total <= 0:
            return None
        at = advance(begin, max(total - self.moderation.remind, total / 2), days)
        return at if at < decision.due else None

    # -- planning ----------------------------------------------------------------------------

    def fresh(self, player: str, key: str, kind: str, now: datetime) -> Decision:
        """A decision that begins now: its deadline (None without one); a removed
        player's is now (the pass policy plays it at once)."""
        if player in self.kicked:
            return Decision(player, key, now, now)
        allowed = self.moderation.allowed_for(kind)
        if allowed is None:
            return Decision(player, key, now, None)
        absence = self.away(player, now)
        begin = max(now, absence.until) if absence else now
        return Decision(player, key, now, advance(begin, allowed, self.moderation.days))

    def plan(self, keys: Mapping[str, str], kind: str, now: datetime) -> dict[str, Decision]:
        """The decisions for the players the game waits for now: those that go on keep
        their deadline, new ones get their own."""
        planned: dict[str, Decision] = {}
        for player, key in keys.items():
            old = self.decisions.get(player)
            if old is None or old.key != key:
                old = self.seen.get((player, key))
            planned[player] = old if old is not None and player not in self.kicked else \
                self.fresh(player, key, kind, now)
        return planned

    def differs(self, planned: Mapping[str, Decision]) -> bool:
        """Whether ``planned`` must be recorded: a deadline appears, changes or goes."""
        def dues(decisions: Mapping[str, Decision]) -> set[tuple[str, str, str | None]]:
            return {(d.player, d.key, iso(d.due) if d.due else None)
                    for d in decisions.values()}

        if not self.recorded and all(d.due is None for d in planned.values()):
            return False
        return dues(planned) != dues(self.decisions)


def _moment(value: str | None) -> datetime | None:
    return parse_moment(value) if value else None


# -- decisions from the game -------------------------------------------------------------------


def acting_player(event: Mapping[str, Any]) -> str:
    """Whose command an event is: the referee's ``as Alice ...`` is Alice's."""
    command = event.get("command") or {}
    if event.get("actor") == REFEREE and command.get("type") == "as":
        return str(command.get("player"))
    return str(event.get("actor") or "")


def round_marker(state: GameState) -> str:
    rnd = state.round
    return f"{rnd.get('kind')}:{rnd.get('number', rnd.get('sr'))}.{rnd.get('index', 0)}"


def decision_keys(events: Iterable[Mapping[str, Any]], state: GameState) -> dict[str, str]:
    """player -> the key of the decision the game waits for (``events``: the game's
    effective events): a new one after each command of another player, or, for the
    bidders answering a high bid in any order (free-for-all bidding), after each bid."""
    if state.finished:
        return {}
    commands = [e for e in events if e["kind"] == "command"]
    rnd = state.round
    corp = rnd.get("current") if rnd.get("kind") == "operating" else None
    keys: dict[str, str] = {}
    answering = open_high_bid(state)
    for player in to_act(state):
        other = next((e["seq"] for e in reversed(commands) if acting_player(e) != player), 0)
        keys[player] = f"{round_marker(state)}|{answering or other}|{corp or '-'}"
    return keys


def deadline_command(planned: Mapping[str, Decision], kind: str) -> dict[str, Any]:
    return {"type": "deadline", "kind": kind, "quiet": True,
            "keys": {d.player: d.key for d in planned.values()},
            "start": {d.player: iso(d.start) for d in planned.values()},
            "due": {d.player: iso(d.due) if d.due else None for d in planned.values()}}


def deadline_log(planned: Mapping[str, Decision]) -> list[str]:
    from .timecalc import show_moment

    lines = [f"{d.player} must act by {show_moment(d.due)}." for d in planned.values()
             if d.due is not None]
    return lines or ["No deadline is running."]


def record_plan(store: Any, game_id: int, planned: Mapping[str, Decision], kind: str, *,
                source: str, now: str, actor: str | None = None) -> dict[str, Any]:
    """Write the decisions and their deadlines on the record."""
    command = deadline_command(planned, kind)
    return record.append(store, game_id, command, "deadlines", actor=actor, source=source,
                         now=now, log=deadline_log(planned))
