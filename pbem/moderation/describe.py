"""The deadlines as a mail shows them to its recipient: his own first, in UTC and in his
time zone when he set one; who is late; who is away; a paused game."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .deadlines import Schedule
from .timecalc import format_duration, show_date, show_moment


@dataclass(frozen=True)
class DeadlineView:
    """A game's schedule at one moment, to describe to each recipient."""

    schedule: Schedule
    now: datetime

    def lines(self, viewer: str | None, tz: str | None = None) -> list[str]:
        """What ``viewer`` (a seat name, or None for the referee) reads about the
        deadlines; [] when the game has none."""
        schedule, now = self.schedule, self.now
        if schedule.paused and schedule.paused_since is not None:
            return [f"The game is paused by the referee (since "
                    f"{show_moment(schedule.paused_since, tz)}): deadlines are stopped."]
        lines: list[str] = []
        decisions = sorted(schedule.decisions.values(), key=lambda d: d.player != viewer)
        for decision in decisions:
            if decision.due is None:
                continue
            name = decision.player
            you = name == viewer
            if name in schedule.kicked:
                lines.append(f"{name}'s seat is played by the service (removed by the "
                             "referee).")
            elif schedule.is_expired(decision):
                policy = "the referee decides" if schedule.moderation.policy == "wait" else \
                    "the pass policy could not finish; the referee decides"
                who = "You are" if you else f"{name} is"
                lines.append(f"{who} late: the deadline was {show_moment(decision.due, tz)} "
                             f"({policy}).")
            elif you:
                left = format_duration((decision.due - now).total_seconds())
                lines.append(f"Your deadline: {show_moment(decision.due, tz)}, in {left}.")
            else:
                lines.append(f"{name} must act by {show_moment(decision.due, tz)}.")
        for name, absence in sorted(schedule.absences.items()):
            if absence.until > now:
                why = f" ({absence.reason})" if absence.reason else ""
                who = "You are" if name == viewer else f"{name} is"
                lines.append(f"{who} away until {show_date(absence.until)}{why}.")
        return lines

    def late(self) -> list[str]:
        return [d.player for d in self.schedule.late()]

