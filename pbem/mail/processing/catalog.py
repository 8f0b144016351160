"""Every command of the mail language, as units (units.py). A new mail command is a
unit in a module of this package, added to the list below."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import game_commands, info, referee, settings, standing, talk, undo
from .units import Action, Catalog, MailCommand

if TYPE_CHECKING:
    from .turn import MailTurn


def help_(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    """help: the catalog's summary, or one command with examples."""
    turn.answers.append(CATALOG.help_text(action.get("topic")))


HELP = MailCommand("help", "Any time", "help <command>",
                   "help alone: the summary of the commands; help bid, help buy train: one "
                   "command with examples.", ("help",), help_, also="`?`")

CATALOG = Catalog([
    *game_commands.UNITS,
    *talk.UNITS,
    HELP,
    *info.UNITS,
    *undo.UNITS,
    *standing.UNITS,
    *settings.UNITS,
    *referee.UNITS,
])
