"""The game's moderation options: how long a decision may take, what happens when the
time is up, how long a player may be away (docs/options.md, "Deadlines and absences").

They are set with the rules' options (``pbem new 1830 --option deadline=72h``) and
stored with them in the game's options; the engine never sees them (``split``). The
referee may change the time allowed later (``deadline 48h``): the options in force are
the game's, then each such change on the record (``Moderation.read``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import ModerationError
from .timecalc import ALL_DAYS, DAY, HOUR, format_days, parse_days, parse_duration, short_duration

KINDS = ("auction", "stock", "operating")
POLICIES = ("wait", "pass")
DEFAULTS = {"deadline": "none", "deadline_days": "all", "remind": "24h", "on_deadline": "wait",
            "away_max": "14d"}
KEYS = frozenset({*DEFAULTS, *(f"deadline_{kind}" for kind in KINDS)})
_OFF = frozenset({"none", "off", "no", ""})


def split(options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """(the rules' options, the moderation options) of a game's options."""
    rules = {k: v for k, v in options.items() if k not in KEYS}
    moderation = {k: str(v) for k, v in options.items() if k in KEYS}
    return rules, moderation


def check(given: Mapping[str, str]) -> dict[str, str]:
    """The moderation options as stored: each one checked and written the one way
    (``3d`` stays ``3d``, ``72 hours`` becomes ``72h``); raises ModerationError."""
    checked: dict[str, str] = {}
    for key, value in given.items():
        if key not in KEYS:
            raise ModerationError(f"There is no moderation option '{key}'.")
        checked[key] = _normal(key, str(value).strip())
    return checked


def _normal(key: str, value: str) -> str:
    if key == "on_deadline":
        if value.lower() not in POLICIES:
            raise ModerationError(f"Option on_deadline may be {', '.join(POLICIES)}, not "
                                  f"'{value}'.")
        return value.lower()
    if key == "deadline_days":
        days = parse_days(value)
        if not days:
            raise ModerationError("Option deadline_days names no weekday.")
        return format_days(days)
    if key in ("deadline", "remind") or key.startswith("deadline_"):
        if value.lower() in _OFF:
            return "none"
    return short_duration(parse_duration(value, f"a duration (option {key})"))


@dataclass(frozen=True)
class Moderation:
    """The options in force."""

    allowed: Mapping[str, int | None] = field(default_factory=lambda: dict.fromkeys(KINDS))
    days: frozenset[int] = ALL_DAYS
    remind: int | None = 24 * HOUR
    policy: str = "wait"
    away_max: int = 14 * DAY

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> Moderation:
        """From a game's options (the rules' ones are left alone)."""
        _, given = split(options)
        values = {**DEFAULTS, **given}
        base = _seconds(values["deadline"])
        allowed = {kind: _seconds(values.get(f"deadline_{kind}", "")) if
                   f"deadline_{kind}" in values else base for kind in KINDS}
        return cls(allowed=allowed, days=parse_days(values["deadline_days"]),
                   remind=_seconds(values["remind"]), policy=values["on_deadline"],
                   away_max=_seconds(values["away_max"]) or 0)

    @classmethod
    def read(cls, options: Mapping[str, Any], changes: Iterable[Mapping[str, Any]]) -> Moderation:
        """The game's options, then the referee's changes of the time allowed
        (``set_deadline`` moderation commands), in order."""
        moderation = cls.of(options)
        for change in changes:
            moderation = moderation.with_deadline(change.get("seconds"))
        return moderation

    def with_deadline(self, seconds: int | None) -> Moderation:
        """The same options with every kind of decision allowed ``seconds`` (None: no
        deadlines)."""
        return replace(self, allowed=dict.fromkeys(KINDS, seconds))

    def allowed_for(self, kind: str) -> int | None:
        return self.allowed.get(kind if kind in KINDS else "operating")

    @property
    def has_deadlines(self) -> bool:
        return any(v is not None for v in self.allowed.values())

    def describe(self) -> str:
        """One line for mails and ``pbem games``: ``72h per decision (mon-fri), reminder
        24h before; then: wait``."""
        if not self.has_deadlines:
            return "no deadlines"
        times = sorted({v for v in self.allowed.values() if v is not None})
        if len(times) == 1 and all(v is not None for v in self.allowed.values()):
            each = short_duration(times[0])
        else:
            each = ", ".join(f"{kind} {short_duration(v) if v else 'none'}"
                             for kind, v in self.allowed.items())
        days = "" if self.days == ALL_DAYS else f" (counting {format_days(self.days)})"
        remind = f", reminder {short_duration(self.remind)} before" if self.remind else ""
        return f"{each} per decision{days}{remind}; when one passes: {self.policy}"


def _seconds(value: str) -> int | None:
    if value.lower() in _OFF:
        return None
    return parse_duration(value)
