"""Every command of the mail language, as units (units.py). A new mail command is a
unit in a module of this package, added to the list below."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import absence, game_commands, guide, info, referee, settings, standing, talk, undo
from .units import Action, Catalog, MailCommand, listing

if TYPE_CHECKING:
    from .turn import MailTurn


def help_(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    """help: the catalog's summary, one command with examples, or a part of the guide."""
    turn.answers.append(help_answer(action.get("topic")))


def help_answer(topic: str | None) -> str:
    """What ``help`` answers by mail: a part of the players' guide (``help stock``), one
    command (``help bid``), or the summary of the commands and the guide's parts."""
    part = guide.parts().get(topic or "")
    if part is not None:
        return part.text
    if topic in CATALOG.by_topic:
        return CATALOG.help_text(topic)
    parts = [f"help {name}" for name in guide.parts()]
    return "\n".join([CATALOG.help_text(None), *listing("The players' guide, in parts:", parts)])


HELP = MailCommand("help", "Any time", "help <command>",
                   "help alone: the summary of the commands and the parts of the players' "
                   "guide; help bid, help buy train: one command with examples; help stock: "
                   "that part of the guide.", ("help",), help_, also="`?`")

CATALOG = Catalog([
    *game_commands.UNITS,
    *talk.UNITS,
    HELP,
    *info.UNITS,
    *undo.UNITS,
    *absence.UNITS,
    *standing.UNITS,
    *settings.UNITS,
    *referee.UNITS,
])
