"""The commands a mail may carry, as units: a name (its help topic), its help, and its
handler.

A unit's handler carries the command out on the mail's ``MailTurn``. Game commands
(``bid``, ``buy``, ``lay`` ...) have no handler of their own: the engine decides them
through ``service.act``; their unit gives their help. Every other command (``say``,
``show``, ``notify``, ``undo`` ...) names the action types it handles, and the mail
layer calls its handler.

The mail ``help`` (``help_text``) and the generated part of docs/commands.md
(``tools/make_command_docs.py``) are made from the units, so the help cannot drift
from the commands. The units themselves are listed in ``catalog.py``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .turn import MailTurn

Action = dict[str, Any]
#: ``handler(turn, command, action, actor)``: carry out ``command`` (its text, for
#: refusals) read as ``action``, for ``actor`` (the sender, or the player the referee
#: acts for); raise ``service.CommandError`` to refuse the whole mail.
Handler = Callable[["MailTurn", str, Action, str], None]

#: The groups of the help, in the order a player meets them.
GROUPS = ("Private auction", "Stock round", "Operating round", "Any time", "Settings",
          "Referee")

WIDTH = 78


@dataclass(frozen=True)
class MailCommand:
    """One command of the mail language."""

    name: str  # the help topic: "say", "buy train"
    group: str  # one of GROUPS
    usage: str  # how it is written: "notify every|round|turn"
    help: str  # what it does, for "help <name>" and docs/commands.md
    types: tuple[str, ...] = ()  # action types it handles; () for game commands
    handler: Handler | None = None  # None: the engine decides it (service.act)
    listed: bool = True  # shown in the general help (aliases of a topic are not)
    #: where else the general help lists it: (group, usage) pairs
    elsewhere: tuple[tuple[str, str], ...] = ()
    also: str = ""  # other spellings, for docs/commands.md
    #: it changes the game or its clock: refused from players while the game is paused
    changes_game: bool = False

    def __post_init__(self) -> None:
        if self.group not in GROUPS:
            raise ValueError(f"unit {self.name!r}: group {self.group!r} is not one of {GROUPS}")
        if bool(self.types) != (self.handler is not None):
            raise ValueError(f"unit {self.name!r}: a handler goes with the action types it "
                             "handles")

    @property
    def text(self) -> str:
        """The help of this one command: ``help <name>`` answers with it."""
        return f"help {self.name}: {self.usage}: {self.help}"


class Catalog:
    """Every unit, by help topic and by the action type it handles."""

    def __init__(self, units: list[MailCommand]) -> None:
        self.units = list(units)
        self.by_topic: dict[str, MailCommand] = {}
        self.by_type: dict[str, MailCommand] = {}
        for unit in self.units:
            if unit.name in self.by_topic:
                raise ValueError(f"two units are called {unit.name!r}")
            self.by_topic[unit.name] = unit
            for kind in unit.types:
                if kind in self.by_type:
                    raise ValueError(f"action type {kind!r} has two units")
                self.by_type[kind] = unit

    def handles(self, action: Action) -> MailCommand | None:
        """The unit whose handler carries ``action`` out, or None for a game command."""
        return self.by_type.get(str(action.get("type")))

    @property
    def service_types(self) -> frozenset[str]:
        """The action types the mail layer carries out itself (not the engine)."""
        return frozenset(self.by_type)

    def help_text(self, topic: str | None = None) -> str:
        """``help`` (the summary) or ``help <topic>``."""
        unit = self.by_topic.get(topic or "")
        if unit is not None:
            return "\n".join(textwrap.wrap(unit.text, WIDTH, subsequent_indent="  ",
                                           break_on_hyphens=False))
        return self.summary()

    def summary(self) -> str:
        lines = textwrap.wrap(
            "Write one command per line at the top of your reply (or several on a line, "
            'separated by ";"). All commands of a mail are carried out together or not '
            'at all. The "your turn" mail lists what you may do now, ready to copy.', WIDTH)
        listings = [pair for u in self.units if u.listed
                    for pair in ((u.group, u.usage), *u.elsewhere)]
        for group in GROUPS:
            usages = [usage for where, usage in listings if where == group]
            if usages:
                lines += listing(f"{group}: ", usages)
        lines += textwrap.wrap('"help <command>" explains one (help bid, help buy train). '
                               'A line "end" stops reading.', WIDTH)
        return "\n".join(lines)


def listing(head: str, items: list[str], width: int = WIDTH) -> list[str]:
    """``head`` and the items separated by commas, wrapped between items only (the
    follow-on lines indented by two)."""
    lines: list[str] = []
    line = head.rstrip()
    for index, item in enumerate(items):
        piece = item + ("." if index == len(items) - 1 else ",")
        if len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = " "
        line = f"{line} {piece}"
    return [*lines, line]
