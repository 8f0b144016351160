"""Time for deadlines: durations, the weekdays that count, and moments shown in UTC and
in a player's own time zone. Pure: every function is given the times it works on.

A game may count only some weekdays (option ``deadline_days=mon-fri``): then time
allowed for a decision runs only on those days (whole UTC days), and a deadline that
would fall on a weekend moves on by the weekend.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .errors import ModerationError

DAY = 86400
HOUR = 3600
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
ALL_DAYS = frozenset(range(7))

_PART = re.compile(r"([0-9]{1,5})\s*(minutes?|mins|min|m|hours?|hrs|hr|h|days?|d)\b",
                   re.IGNORECASE)
_UNIT = {"m": 60, "h": HOUR, "d": DAY}


def parse_duration(text: str, what: str = "a duration") -> int:
    """Seconds in ``72h``, ``3d``, ``90m``, ``1d 12h``, ``48 hours``; a bare number is
    hours."""
    cleaned = text.strip().lower()
    if cleaned.isdigit():
        cleaned += "h"
    parts = _PART.findall(cleaned)
    if not parts or _PART.sub("", cleaned).strip(" ,+") != "":
        raise ModerationError(f"'{text}' is not {what}: write it like 72h, 3d or 90m.")
    seconds = sum(int(n) * _UNIT[unit[0]] for n, unit in parts)
    if seconds <= 0:
        raise ModerationError(f"{what.capitalize()} must be more than nothing, not '{text}'.")
    return seconds


def format_duration(seconds: float) -> str:
    """``3 days``, ``1 day 12 hours``, ``2 hours 30 minutes``, ``45 minutes``."""
    total = max(int(round(seconds / 60)), 0)
    days, rest = divmod(total, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [_plural(days, "day"), _plural(hours, "hour")]
    if not days:
        parts.append(_plural(minutes, "minute"))
    shown = [p for p in parts if p][:2]
    return " ".join(shown) or "less than a minute"


def short_duration(seconds: int) -> str:
    """The way a duration is written in options and commands: ``72h``, ``14d``, ``90m``
    (hours up to four days: that is how deadlines are usually thought of)."""
    if seconds % DAY == 0 and seconds >= 4 * DAY:
        return f"{seconds // DAY}d"
    if seconds % HOUR == 0:
        return f"{seconds // HOUR}h"
    return f"{seconds // 60}m"


def _plural(count: int, word: str) -> str:
    return "" if not count else f"{count} {word}" + ("" if count == 1 else "s")


def parse_days(text: str) -> frozenset[int]:
    """The weekdays that count: ``all``, ``mon-fri``, ``mon,wed,fri``, ``fri-mon``
    (0 is Monday)."""
    cleaned = text.strip().lower()
    if cleaned in ("all", "every", "any", ""):
        return ALL_DAYS
    days: set[int] = set()
    for piece in re.split(r"[,\s]+", cleaned):
        if not piece:
            continue
        first, sep, last = piece.partition("-")
        start = _weekday(first, text)
        end = _weekday(last, text) if sep else start
        day = start
        days.add(day)
        while day != end:
            day = (day + 1) % 7
            days.add(day)
    return frozenset(days)


def format_days(days: frozenset[int]) -> str:
    if days == ALL_DAYS:
        return "all"
    return ",".join(WEEKDAYS[d] for d in sorted(days))


_DAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _weekday(word: str, text: str) -> int:
    for index, name in enumerate(_DAY_NAMES):
        if len(word) >= 3 and name.startswith(word):
            return index
    raise ModerationError(f"'{text}' does not name weekdays: write them like mon-fri or "
                          "mon,wed,fri.")


# -- moments ------------------------------------------------------------------------------------


def parse_moment(text: str) -> datetime:
    """An ISO 8601 time as the store writes it (UTC when it carries no zone)."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def iso(moment: datetime) -> str:
    """The store's format: UTC, milliseconds (pbem.mail.clock)."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def advance(start: datetime, seconds: float, days: frozenset[int] = ALL_DAYS) -> datetime:
    """The moment ``seconds`` of counted time after ``start``: only time on ``days``
    (UTC weekdays) counts."""
    if days == ALL_DAYS or not days:
        return start + timedelta(seconds=seconds)
    moment = start.astimezone(UTC)
    left = float(seconds)
    while True:
        midnight = datetime(moment.year, moment.month, moment.day, tzinfo=UTC)
        next_day = midnight + timedelta(days=1)
        if moment.weekday() in days:
            room = (next_day - moment).total_seconds()
            if left <= room:
                return moment + timedelta(seconds=left)
            left -= room
        moment = next_day


def counted(start: datetime, end: datetime, days: frozenset[int] = ALL_DAYS) -> float:
    """Seconds of counted time from ``start`` to ``end`` (negative when ``end`` is
    earlier)."""
    if end < start:
        return -counted(end, start, days)
    if days == ALL_DAYS or not days:
        return (end - start).total_seconds()
    total = 0.0
    moment = start.astimezone(UTC)
    end = end.astimezone(UTC)
    while moment < end:
        midnight = datetime(moment.year, moment.month, moment.day, tzinfo=UTC)
        stop = min(midnight + timedelta(days=1), end)
        if moment.weekday() in days:
            total += (stop - moment).total_seconds()
        moment = stop
    return total


_UTC_NAMES = frozenset({"utc", "etc/utc", "gmt", "etc/gmt", "z", "zulu", "universal"})


def zone(name: str | None) -> ZoneInfo | None:
    """The time zone of an IANA name (``Europe/Berlin``); None when unknown, none, or
    UTC itself (a time in UTC is shown once)."""
    if not name or name.strip().lower() in _UTC_NAMES:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def show_moment(moment: datetime, tz: str | None = None) -> str:
    """``Tue 2026-05-05 10:00 UTC``, and with a zone ``(12:00 CEST in Europe/Berlin)``;
    the local date too when it is another day."""
    utc = moment.astimezone(UTC)
    text = f"{utc:%a %Y-%m-%d %H:%M} UTC"
    local_zone = zone(tz)
    if local_zone is None:
        return text
    local = moment.astimezone(local_zone)
    shown = f"{local:%H:%M}" if local.date() == utc.date() else f"{local:%a %Y-%m-%d %H:%M}"
    return f"{text} ({shown} {local.tzname()} in {tz})"


def show_date(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%a %Y-%m-%d}"


_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2}))?$")


def parse_date(text: str, tz: str | None = None) -> datetime:
    """``2026-12-24`` (the start of that day) or ``2026-12-24 18:00``, in the zone ``tz``
    when given, else UTC."""
    match = _DATE.match(text.strip())
    if match is None:
        raise ModerationError(f"'{text}' is not a date: write it like 2026-12-24 (or "
                              "2026-12-24 18:00).")
    year, month, day = (int(match[i]) for i in (1, 2, 3))
    hour, minute = int(match[4] or 0), int(match[5] or 0)
    try:
        return datetime(year, month, day, hour, minute, tzinfo=zone(tz) or UTC)
    except ValueError as exc:
        raise ModerationError(f"'{text}' is not a date there is: {exc}.") from exc
