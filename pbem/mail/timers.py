"""The game clocks' timers: reminders before a deadline, what happens when one passes,
undo requests that expire. ``pbem serve`` runs them (``TimerLoop``), ``pbem tick`` does
one round of the due ones for operators who prefer cron.

Each firing is one transaction: its moderation events, the moves the pass policy makes,
the new deadlines, and the mails (the reminder; a notice to every player and the
referee; "your turn" to whoever must act now) commit together or not at all. The time
comes from the caller, so the tests drive the clock.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from .. import service
from ..engine.game import legal_moves
from ..engine.state import GameState
from ..moderation import record
from ..moderation import undo as undo_rules
from ..moderation.clock import reschedule, schedule_of
from ..moderation.deadlines import Decision, Schedule, Timer, decision_keys
from ..moderation.describe import DeadlineView
from ..moderation.policy import pass_policy
from ..moderation.timecalc import iso, parse_moment, show_moment
from ..notation import format_action
from ..store import Store
from .config import MailConfig
from .outbound.compose import queue_mail, subject_for
from .outbound.notify import (
    TO_REFEREE,
    Activity,
    Notice,
    game_mail,
    notify_others,
    prompt_block,
)
from .outbound.views import StateViews

log = logging.getLogger("pbem.mail.timers")
MAX_PER_GAME = 50  # firings of one game in one round (a kicked seat's turns come in a row)


@dataclass(frozen=True)
class Fired:
    game_id: int
    what: str  # reminder, expiry, undo_expiry
    player: str
    note: str = ""


def due(store: Store, now: str) -> list[tuple[int, Timer]]:
    """The timers due at ``now`` in every active game, earliest first."""
    moment = parse_moment(now)
    found = []
    for game in store.games_list(("active",)):
        timers = schedule_of(store, int(game["id"])).timers()
        found += [(int(game["id"]), t) for t in timers if t.at <= moment]
    return sorted(found, key=lambda item: item[1].at)


def next_due(store: Store) -> datetime | None:
    """When the next timer of any active game is due (None: none is running)."""
    moments = [timer.at for game in store.games_list(("active",))
               for timer in schedule_of(store, int(game["id"])).timers()[:1]]
    return min(moments) if moments else None


def fire_due(store: Store, config: MailConfig, now: str) -> list[Fired]:
    """Fire every timer due at ``now``, one transaction each, game by game."""
    fired: list[Fired] = []
    for game in store.games_list(("active",)):
        game_id = int(game["id"])
        for _ in range(MAX_PER_GAME):
            with store.transaction():
                schedule = schedule_of(store, game_id)
                timers = _due_now(schedule, parse_moment(now))
                if not timers or store.game(game_id)["status"] != "active":
                    break
                fired.append(fire(store, config, game_id, schedule, timers[0], now))
                log.info("game #%s: %s %s %s", game_id, fired[-1].what, fired[-1].player,
                         fired[-1].note)
    return fired


def _due_now(schedule: Schedule, moment: datetime) -> list[Timer]:
    """The timers due at ``moment``; no reminder when the deadline itself has passed."""
    timers = [t for t in schedule.timers() if t.at <= moment]
    expiring = {t.player for t in timers if t.what == "expiry"}
    return [t for t in timers if not (t.what == "reminder" and t.player in expiring)]


def fire(store: Store, config: MailConfig, game_id: int, schedule: Schedule, timer: Timer,
         now: str) -> Fired:
    """One timer, in the caller's transaction."""
    if timer.what == "undo_expiry":
        return _undo_expiry(store, config, game_id, schedule, timer, now)
    state = service.load(store, game_id)
    decision = schedule.decisions[timer.player]
    keys = decision_keys(store.effective_events(game_id), state)
    if keys.get(timer.player) != decision.key:  # the record moved on: plan anew
        reschedule(store, game_id, state, now, record.TIMER, schedule)
        return Fired(game_id, "stale", timer.player, "the decision had changed")
    if timer.what == "reminder":
        return _remind(store, config, game_id, schedule, state, decision, now)
    return _expire(store, config, game_id, schedule, state, decision, now)


def _views(store: Store, game_id: int, state: GameState, now: str,
           schedule: Schedule | None = None) -> StateViews:
    schedule = schedule or schedule_of(store, game_id)
    return StateViews(state, DeadlineView(schedule, parse_moment(now)))


# -- reminders ------------------------------------------------------------------------------------


def _remind(store: Store, config: MailConfig, game_id: int, schedule: Schedule,
            state: GameState, decision: Decision, now: str) -> Fired:
    assert decision.due is not None
    name = decision.player
    record.append(store, game_id, {"type": "reminder", "player": name, "key": decision.key,
                                   "due": iso(decision.due), "quiet": True},
                  f"reminder to {name}", actor=None, source=record.TIMER, now=now,
                  log=[f"{name} is reminded of the deadline, {show_moment(decision.due)}."])
    schedule.reminded.add((name, decision.key))
    game = store.game(game_id)
    player = next(p for p in store.players(game_id) if p["name"] == name)
    views = _views(store, game_id, state, now, schedule)
    out = game_mail(config, game, player, views, "player-reminder.txt", "remind",
                    {"prompt_section": prompt_block(views.view(name))},
                    subject_for(game["title"], game_id, f"Reminder: {views.situation}"))
    queue_mail(store, config, out, now)
    return Fired(game_id, "reminder", name)


# -- expiries -------------------------------------------------------------------------------------


def _expire(store: Store, config: MailConfig, game_id: int, schedule: Schedule,
            state: GameState, decision: Decision, now: str) -> Fired:
    assert decision.due is not None
    name = decision.player
    kicked = name in schedule.kicked
    policy = "kick" if kicked else schedule.moderation.policy
    offer = _answering_offer(state, name)
    acts = policy != "wait" or offer
    result = pass_policy(state, name) if acts else None
    stuck = result.stuck if result else None
    record.append(store, game_id, {"type": "expired", "player": name, "key": decision.key,
                                   "due": iso(decision.due), "policy": policy,
                                   "stuck": stuck},
                  f"deadline passed: {name}", actor=None, source=record.TIMER, now=now,
                  log=[_passed_line(name, decision, kicked)])
    moves: list[str] = []
    after = state
    if result is not None and result.actions:
        texts = [format_action(action) for action in result.actions]
        done = service.act(store, game_id, name, "\n".join(texts),
                           source=f"{undo_rules.POLICY_SOURCE}{policy}", now=now, state=state)
        assert done.state is not None
        after = done.state
        moves = [line for applied in done.applied for line in applied.log]
    schedule = schedule_of(store, game_id)
    undo_rules.lapse(store, game_id, schedule, store.effective_events(game_id),
                     source=record.TIMER, now=now)
    schedule = reschedule(store, game_id, after, now, record.TIMER, schedule)
    lines = _expiry_lines(name, decision, policy, offer, moves, stuck, kicked)
    views = _views(store, game_id, after, now, schedule)
    # Everyone hears of it; who must act now reads it in his "your turn" mail instead.
    told = [p["name"] for p in store.players(game_id)
            if not (moves and p["name"] in views.waiting)]
    notices = [] if kicked and not stuck else \
        [Notice(f"Deadline passed: {name}", tuple(lines), (*told, TO_REFEREE))]
    if stuck:
        notices.append(Notice(f"The referee decides for {name}", tuple(
            [f"{name}'s deadline passed and the pass policy could not finish: {stuck}.",
             f"As referee: as {name} <command>, extend {name} 24h, or kick {name}."]),
            (TO_REFEREE,)))
    activity = Activity(game_id, "", list(moves), changed=bool(moves), notices=notices,
                        turns_only=True)
    notify_others(store, config, state, after, activity, now, views)
    return Fired(game_id, "expiry", name, f"{policy}: {len(moves)} moves"
                 + (f"; stuck: {stuck}" if stuck else ""))


def _answering_offer(state: GameState, name: str) -> bool:
    """The decision is an answer to an offer (accept/decline, 1870 price protection):
    it expires as a decline under any policy."""
    kinds = {m["action"]["type"] for m in legal_moves(state).get(name, [])}
    return "decline" in kinds and bool(kinds & {"accept", "protect"})


def _passed_line(name: str, decision: Decision, kicked: bool) -> str:
    assert decision.due is not None
    if kicked:
        return f"{name}'s seat was removed by the referee: the service moves for it."
    return f"{name}'s deadline, {show_moment(decision.due)}, has passed."


def _expiry_lines(name: str, decision: Decision, policy: str, offer: bool, moves: list[str],
                  stuck: str | None, kicked: bool) -> list[str]:
    lines = [_passed_line(name, decision, kicked)]
    if policy == "wait" and not offer:
        lines.append(f"The game's policy is to wait (on_deadline=wait): the referee decides. "
                     f"{name} may still move.")
        return lines
    if offer and policy == "wait":
        lines.append(f"An offer that waits for an answer expires at the deadline: {name} "
                     "declines.")
    elif not kicked:
        lines.append(f"The game's policy (on_deadline=pass): the service moves for {name}.")
    lines += [f"  {move}" for move in moves]
    if stuck:
        lines.append(f"The pass policy could not finish: {stuck}. The referee decides.")
    return lines


# -- undo requests --------------------------------------------------------------------------------


def _undo_expiry(store: Store, config: MailConfig, game_id: int, schedule: Schedule,
                 timer: Timer, now: str) -> Fired:
    request = schedule.undo_requests[timer.request]
    out = undo_rules.expire(store, game_id, request, now=now)
    state = service.load(store, game_id)
    views = _views(store, game_id, state, now)
    notices = [Notice("An undo request expired", tuple(lines), (name,))
               for name, lines in out.tell.items()]
    notify_others(store, config, state, state, Activity(game_id, "", notices=notices), now,
                  views)
    return Fired(game_id, "undo_expiry", request.player)
