"""Absences, replacing and removing players, and the referee's key.

An absence (``away until 2026-12-24 holiday``) stops the player's clock: a deadline
running when he leaves gets the time it had left when he is back, a decision that
begins while he is away starts its time when he is back. ``away_max`` bounds one
absence. A replacement keeps the seat (its name in the game, its holdings and its
history) and gives it to another person, with a new key; a removed player's seat is
played by the pass policy from then on.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from ..engine.state import GameState
from ..identity import InvalidPlayer, check_address, check_name
from ..store import Store, new_player_key
from . import record
from .clock import reschedule, rewrite, schedule_of
from .errors import ModerationError
from .timecalc import advance, counted, format_duration, iso, parse_moment, show_date


def seat(store: Store, game_id: int, name: str) -> dict[str, Any]:
    for player in store.players(game_id):
        if player["name"].casefold() == name.casefold():
            return player
    raise ModerationError(f"Game #{game_id} has no seat called {name}.")


def away(store: Store, game_id: int, player: str, until: datetime, reason: str, *,
         actor: str, source: str, now: str) -> list[str]:
    """``player`` is away until ``until``: his deadlines wait."""
    schedule = schedule_of(store, game_id)
    moment = parse_moment(now)
    if until <= moment:
        raise ModerationError(f"{show_date(until)} is not in the future; write the day you "
                              "are back, like away until 2026-12-24.")
    longest = schedule.moderation.away_max
    if (until - moment).total_seconds() > longest:
        raise ModerationError(
            f"In this game a player may be away at most {format_duration(longest)} at a time "
            f"(option away_max); until {show_date(until)} is "
            f"{format_duration((until - moment).total_seconds())}. The referee may extend a "
            "deadline.")
    why = f" ({reason})" if reason else ""
    log = [f"{player} is away until {show_date(until)}{why}; {player}'s deadlines wait."]
    text = f"away until {until:%Y-%m-%d %H:%M}" + (f" {reason}" if reason else "")
    record.append(store, game_id, {"type": "away", "player": player, "until": iso(until),
                                   "reason": reason}, text, actor=actor, source=source,
                  now=now, log=log)
    decision = schedule.decisions.get(player)
    if decision is not None and decision.due is not None and decision.due > moment:
        days = schedule.moderation.days
        left = counted(moment, decision.due, days)
        schedule.decisions[player] = replace(decision, due=advance(until, left, days))
        rewrite(store, game_id, schedule, source, now)
    return log


def back(store: Store, game_id: int, player: str, *, actor: str, source: str,
         now: str) -> list[str]:
    """``player`` is back before the day he gave: his clock runs again from now."""
    schedule = schedule_of(store, game_id)
    moment = parse_moment(now)
    absence = schedule.away(player, moment)
    if absence is None:
        raise ModerationError(f"{player} is not away.")
    log = [f"{player} is back."]
    record.append(store, game_id, {"type": "back", "player": player}, "back", actor=actor,
                  source=source, now=now, log=log)
    decision = schedule.decisions.get(player)
    if decision is not None and decision.due is not None and decision.due > absence.until:
        days = schedule.moderation.days
        left = counted(absence.until, decision.due, days)  # what it had left after the absence
        schedule.decisions[player] = replace(decision, due=advance(moment, left, days))
        rewrite(store, game_id, schedule, source, now)
    return log


def replace_player(store: Store, game_id: int, state: GameState, name: str, person: str,
                   email: str, *, actor: str, source: str, now: str) -> tuple[list[str], str]:
    """Seat ``name`` is played by ``person`` at ``email`` from now on: a new key (returned
    with the log), the seat's decision starts again; the old address is refused."""
    player = seat(store, game_id, name)
    person = person.strip() or name
    try:
        check_address(email)
        if person.casefold() != name.casefold():
            check_name(person, [p["name"] for p in store.players(game_id)
                                if p["seat"] != player["seat"]])
    except InvalidPlayer as exc:
        raise ModerationError(str(exc)) from exc
    if person.casefold() != name.casefold():
        for other in store.players(game_id):
            if other["seat"] != player["seat"] and person.casefold() in (
                    other["name"].casefold(), (other["person"] or "").casefold()):
                raise ModerationError(f"{person} already plays in game #{game_id}; choose "
                                      "another name for the new player.")
    key = new_player_key()
    store.set_player_email(game_id, player["seat"], email)
    store.set_player_key(game_id, player["seat"], key)
    store.set_player_person(game_id, player["seat"],
                            None if person.casefold() == name.casefold() else person)
    store.set_player_status(game_id, player["seat"], "playing")
    who = name if person.casefold() == name.casefold() else f"{person} ({email})"
    log = [f"The referee replaces {_person(player)}: {who} plays the seat {name} from now "
           f"on, with its holdings and history; mail from {player['email']} is refused from "
           "now on."]
    record.append(store, game_id, {"type": "replace", "player": name, "person": person,
                                   "email": email, "old_email": player["email"]},
                  f"replace {name} with {person} {email}", actor=actor, source=source, now=now,
                  log=log)
    schedule = schedule_of(store, game_id)
    schedule.decisions.pop(name, None)  # the new player's own time for the decision
    reschedule(store, game_id, state, now, source, schedule)
    return log, key


def kick(store: Store, game_id: int, state: GameState, name: str, *, actor: str, source: str,
         now: str) -> list[str]:
    """Seat ``name`` is played by the pass policy from now on; its player's mail is
    refused."""
    player = seat(store, game_id, name)
    if player["status"] == "kicked":
        raise ModerationError(f"{name} was removed already; replace {name} with a new "
                              "player to give the seat to someone.")
    store.set_player_status(game_id, player["seat"], "kicked")
    log = [f"The referee removes {_person(player)} from the game: the seat {name} passes "
           "from now on (the pass policy), and mail from its player is refused."]
    record.append(store, game_id, {"type": "kick", "player": name}, f"kick {name}",
                  actor=actor, source=source, now=now, log=log)
    schedule = schedule_of(store, game_id)
    schedule.decisions.pop(name, None)
    reschedule(store, game_id, state, now, source, schedule)
    return log


def _person(player: dict[str, Any]) -> str:
    return player["person"] or player["name"]


def new_referee_key(store: Store, game_id: int) -> str:
    """A new key for the game's referee (the old one stops working)."""
    game = store.game(game_id)
    if not game["referee"]:
        raise ModerationError(f"Game #{game_id} has no referee.")
    key = new_player_key()
    store.set_referee(game_id, game["referee"], store.key_hash(key))
    return key
