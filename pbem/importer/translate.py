"""Site actions -> pbem commands: what every title shares.

A translator turns one effective site action into the pbem commands that do the same
(``translate``), says which commands the site carried out by itself before it
(``before``: e.g. the site ends a corporation's turn when nothing is left to do, pbem
waits for ``done``), and keeps the site's names (certificates, trains, tiles) in a
``Shadow``.  common.CommonTranslator adds what 1830 and 1870 share; titles subclass that
(t1830.Translator1830, t1870.Translator1870).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, overload

from ..engine.state import GameState
from . import ids
from .shadow import Shadow
from .sitelog import SiteAction

Action = dict[str, Any]


class Unsupported(Exception):
    """A site action pbem cannot express (yet)."""


class ReadingDiffers(Unsupported):
    """The log shows that the site read a rule as the game ``options`` given here do
    (an older version of the site): the replay may start again with them."""

    def __init__(self, message: str, options: dict[str, str]) -> None:
        super().__init__(message)
        self.options = options


class Upcoming(Sequence[SiteAction]):
    """The actions after the one at ``at`` in ``actions``, without copying them (the
    replay asks for them at every action: a copy would make it quadratic in the log's
    length)."""

    __slots__ = ("actions", "start")

    def __init__(self, actions: Sequence[SiteAction] = (), at: int = -1) -> None:
        self.actions, self.start = actions, at + 1

    def __len__(self) -> int:
        return max(len(self.actions) - self.start, 0)

    @overload
    def __getitem__(self, index: int) -> SiteAction: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[SiteAction]: ...

    def __getitem__(self, index: int | slice) -> SiteAction | Sequence[SiteAction]:
        if isinstance(index, slice):
            return list(self)[index]
        if not -len(self) <= index < len(self):
            raise IndexError("no such upcoming action")
        return self.actions[self.start + index % len(self)]

    def __iter__(self) -> Iterator[SiteAction]:
        return islice(self.actions, self.start, None)


@dataclass(frozen=True)
class Command:
    """One pbem command: who sends it and the action; ``why`` notes an implicit one.
    The action is as the notation reads its text back (format_action, parse_command):
    no field the notation leaves out (tests/test_import_18xx.py checks every command of
    the logs)."""

    actor: str
    action: Action
    why: str = ""


@dataclass
class Translator:
    #: site player key -> pbem player name
    names: dict[str, str]
    shadow: Shadow = field(default_factory=Shadow)
    #: the actions after the one being translated (set by the replay), and how many of
    #: them the translation took in as well (e.g. brown-zone shares bought one by one)
    upcoming: Sequence[SiteAction] = field(default_factory=Upcoming)
    absorbed: int = 0
    #: the site action types whose ``verify`` may raise ReadingDiffers; ``before`` and
    #: ``translate`` change nothing of the translator for them, so that the replay may
    #: take their commands back and do them again under the reading
    may_reread: frozenset[str] = frozenset()

    # -- names ---------------------------------------------------------------------------
    def player(self, entity: Any) -> str:
        try:
            return self.names[str(entity)]
        except KeyError:
            raise Unsupported(f"unknown player {entity!r}") from None

    def tile_name(self, tile_id: str) -> str:
        """pbem's tile name of a site tile copy id ("57-0" -> "57")."""
        return ids.tile(tile_id)[0]

    @staticmethod
    def president(state: GameState, corp: str) -> str:
        name = state.president(corp)
        if name is None:
            raise Unsupported(f"{corp} has no president")
        return name

    @staticmethod
    def private_owner(state: GameState, sym: str) -> str:
        """"p:Alice" or "c:PRR": who owns a private company now."""
        private = state.privates.get(sym)
        if private is None:
            raise Unsupported(f"unknown private company {sym}")
        return private.owner

    # -- the protocol ----------------------------------------------------------------------
    def before(self, state: GameState, site: SiteAction) -> list[Command]:
        """Commands the site did by itself before ``site`` (none by default)."""
        return []

    def translate(self, state: GameState, site: SiteAction) -> list[Command]:
        handler = getattr(self, "on_" + str(site.get("type")), None)
        if handler is None:
            raise Unsupported(f"pbem cannot import a {site.get('type')!r} action")
        commands: list[Command] = handler(state, site)
        return commands

    def verify(self, state: GameState, site: SiteAction) -> None:
        """Raise Unsupported when pbem's state after ``site`` is not the site's (what the
        log records of it: e.g. which companies make a connection run now)."""

    def after(self, state: GameState, site: SiteAction) -> None:
        """Update the shadow once ``site`` is done (``state`` is pbem's state after it)."""

    def finish(self, state: GameState) -> list[Command]:
        """Commands the site did by itself after its last action."""
        return []
