"""The game's clock on the record: rescheduling after a change, pausing and resuming,
changing or extending deadlines. Each function writes its moderation events in the
caller's transaction and returns the schedule as it now stands."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..engine.state import GameState
from ..store import Store
from . import record
from .deadlines import Decision, Schedule, decision_keys, record_plan
from .errors import ModerationError
from .timecalc import advance, counted, format_duration, parse_moment, show_moment


def schedule_of(store: Store, game_id: int) -> Schedule:
    """The game's clock as its record has it now."""
    return Schedule.read(store.game(game_id)["options"], record.events(store, game_id))


def reschedule(store: Store, game_id: int, state: GameState, now: str, source: str,
               schedule: Schedule | None = None, force: bool = False,
               events: list[dict[str, Any]] | None = None) -> Schedule:
    """After the game changed: record who must act by when, if that changed (``force``:
    in any case; nothing while the game is paused: ``resume`` reschedules).
    ``events``: the game's effective events, when the caller has just read them."""
    schedule = schedule or schedule_of(store, game_id)
    if schedule.paused:
        return schedule
    keys = decision_keys(store.effective_events(game_id) if events is None else events, state)
    kind = str(state.round.get("kind", ""))
    planned = schedule.plan(keys, kind, parse_moment(now))
    return _record(store, game_id, schedule, planned, kind, source, now, force=force)


def _record(store: Store, game_id: int, schedule: Schedule, planned: dict[str, Decision],
            kind: str, source: str, now: str, actor: str | None = None,
            force: bool = False) -> Schedule:
    if not (force or schedule.differs(planned)):
        return schedule
    event = record_plan(store, game_id, planned, kind, source=source, now=now, actor=actor)
    schedule._take(event["command"], parse_moment(now), event["seq"])
    return schedule


def rewrite(store: Store, game_id: int, schedule: Schedule, source: str, now: str) -> Schedule:
    """Record the schedule's decisions as they stand (after a change made to them: an
    absence, an extension), unless the game is paused."""
    if schedule.paused:
        return schedule
    return _record(store, game_id, schedule, dict(schedule.decisions), schedule.kind, source,
                   now, force=True)


# -- the referee's clock -------------------------------------------------------------------------


def pause(store: Store, game_id: int, *, actor: str, source: str, now: str) -> list[str]:
    """Stop the game's clock: deadlines stop, only the referee's commands are taken."""
    game = store.game(game_id)
    if game["status"] == "paused":
        raise ModerationError(f"Game #{game_id} is paused already; resume restarts it.")
    if game["status"] == "finished":
        raise ModerationError(f"Game #{game_id} is over.")
    log = ["The referee pauses the game: deadlines stop, and only the referee's commands "
           "are taken until it resumes."]
    record.append(store, game_id, {"type": "pause"}, "pause", actor=actor, source=source,
                  now=now, log=log)
    store.set_status(game_id, "paused")
    return log


def resume(store: Store, game_id: int, state: GameState, *, actor: str, source: str,
           now: str) -> list[str]:
    """Restart the clock: each deadline that was running gets the time it had left when
    the game was paused."""
    game = store.game(game_id)
    if game["status"] != "paused":
        raise ModerationError(f"Game #{game_id} is not paused.")
    schedule = schedule_of(store, game_id)
    stopped = schedule.paused_since
    record.append(store, game_id, {"type": "resume"}, "resume", actor=actor, source=source,
                  now=now, log=["The referee resumes the game."])
    store.set_status(game_id, "active")
    moment = parse_moment(now)
    if stopped is not None:
        days = schedule.moderation.days
        for name, decision in list(schedule.decisions.items()):
            if decision.due is not None and decision.due > stopped:
                left = counted(stopped, decision.due, days)
                schedule.decisions[name] = replace(decision, due=advance(moment, left, days))
    schedule.paused_since = None
    schedule = reschedule(store, game_id, state, now, source, schedule,
                          force=schedule.recorded)
    return ["The referee resumes the game.", *_dues(schedule)]


def set_deadline(store: Store, game_id: int, state: GameState, seconds: int | None, *,
                 actor: str, source: str, now: str) -> list[str]:
    """The referee changes the time allowed for every decision; the decisions waiting now
    get it too, counted from when each began (or from now, where none was running)."""
    from .timecalc import short_duration

    text = f"deadline {short_duration(seconds)}" if seconds else "deadline off"
    what = (f"{format_duration(seconds)} for each decision" if seconds else
            "no deadlines")
    record.append(store, game_id, {"type": "set_deadline", "seconds": seconds}, text,
                  actor=actor, source=source, now=now,
                  log=[f"The referee sets the time allowed: {what}."])
    schedule = schedule_of(store, game_id)
    moment = parse_moment(now)
    kind = str(state.round.get("kind", ""))
    keys = decision_keys(store.effective_events(game_id), state)
    planned: dict[str, Decision] = {}
    for name, key in keys.items():
        old = schedule.decisions.get(name)
        if seconds is None or name in schedule.kicked:
            planned[name] = schedule.fresh(name, key, kind, moment)
            continue
        start = old.start if old is not None and old.key == key and old.due else moment
        absence = schedule.away(name, moment)
        begin = max(start, absence.until) if absence else start
        planned[name] = Decision(name, key, start, advance(begin, seconds,
                                                             schedule.moderation.days))
    if not schedule.paused:
        schedule = _record(store, game_id, schedule, planned, kind, source, now, force=True)
    return [f"The referee sets the time allowed: {what}.", *_dues(schedule)]


def extend(store: Store, game_id: int, player: str, seconds: int, *, actor: str, source: str,
           now: str) -> list[str]:
    """More time for one player's decision: from his deadline, or from now when it has
    passed already."""
    schedule = schedule_of(store, game_id)
    decision = schedule.decisions.get(player)
    if decision is None or decision.due is None:
        raise ModerationError(f"{player} has no deadline running now; extend gives more time "
                              "to a decision the game is waiting for.")
    moment = parse_moment(now)
    base = max(decision.due, moment)
    due = advance(base, seconds, schedule.moderation.days)
    log = [f"The referee gives {player} {format_duration(seconds)} more: {player} must now "
           f"act by {show_moment(due)}."]
    record.append(store, game_id, {"type": "extend", "player": player, "seconds": seconds},
                  f"extend {player} {format_duration(seconds)}", actor=actor, source=source,
                  now=now, log=log)
    schedule.decisions[player] = replace(decision, due=due)
    rewrite(store, game_id, schedule, source, now)
    return log


def _dues(schedule: Schedule) -> list[str]:
    return [f"{d.player} must act by {show_moment(d.due)}." for d in
            schedule.decisions.values() if d.due is not None and not schedule.is_expired(d)]
