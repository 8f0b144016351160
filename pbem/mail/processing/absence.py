"""``away`` and ``back``: a player's absence; his deadlines wait (within ``away_max``)
and the others are told."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from ...moderation import seats
from ...moderation.errors import ModerationError
from ...moderation.timecalc import parse_date, parse_moment
from ...service import CommandError
from ..outbound.notify import EVERYONE, Notice
from .units import Action, MailCommand

if TYPE_CHECKING:
    from .turn import MailTurn


def away(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    seat = _seat(turn, command, actor)
    now = parse_moment(turn.now)
    try:
        until = parse_date(action["until"], seat.get("tz")) if action.get("until") else \
            now + timedelta(hours=int(action["hours"]))
        lines = seats.away(turn.store, turn.game_id, actor, until, action.get("reason") or "",
                           actor=turn.player, source=turn.source, now=turn.now)
    except ModerationError as exc:
        raise CommandError(command, str(exc), []) from exc
    _tell(turn, actor, lines)


def back(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    _seat(turn, command, actor)
    try:
        lines = seats.back(turn.store, turn.game_id, actor, actor=turn.player,
                           source=turn.source, now=turn.now)
    except ModerationError as exc:
        raise CommandError(command, str(exc), []) from exc
    _tell(turn, actor, lines)


def _seat(turn: MailTurn, command: str, actor: str) -> dict[str, Any]:
    try:
        return seats.seat(turn.store, turn.game_id, actor)
    except ModerationError as exc:
        raise CommandError(command, "Only a player is away or back (the referee: as Alice "
                           "away until 2026-12-24).", []) from exc


def _tell(turn: MailTurn, player: str, lines: list[str]) -> None:
    turn.results.extend(lines)
    turn.notices.append(Notice(lines[0], tuple(lines), (EVERYONE,)))


UNITS = [
    MailCommand("away", "Any time", "away until 2026-12-24 [reason]",
                "you are away until that day begins (00:00 in your time zone when you set "
                "one, else UTC; away for 5d works too): your deadlines wait, within the "
                "time the game allows (option away_max), and the others are told.", ("away",), away,
                also="`away until 2026-12-24 18:00 holiday`, `away for 5d`",
                changes_game=True),
    MailCommand("back", "Any time", "back",
                "you are back before the day you gave: your deadlines run again.",
                ("back",), back, changes_game=True),
]
