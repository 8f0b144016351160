"""The referee's commands. By mail they are refused for now (the referee uses the
command line: pbem act, pbem undo); their units give their help."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...service import CommandError
from .units import Action, MailCommand

if TYPE_CHECKING:
    from .turn import MailTurn

REFEREE = "Referee"


def not_by_mail(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    raise CommandError(command, "Referee commands are not taken by mail yet; the referee "
                       "uses the pbem command line (pbem act, pbem undo).", [])


UNITS = [
    MailCommand("referee", REFEREE, "pbem act, pbem undo, pbem audit",
                "the referee uses the pbem command line for now.", listed=False),
    MailCommand("as", REFEREE, "as Alice <command>", "act for a player.", ("as",),
                not_by_mail),
    MailCommand("revert", REFEREE, "revert to 123",
                "undo everything after event 123 (kept in the history as an undo).",
                ("revert",), not_by_mail),
    MailCommand("replace", REFEREE, "replace Alice with new@example.org",
                "a new person takes over Alice's seat.", ("replace",), not_by_mail),
    MailCommand("pause", REFEREE, "pause", "stop the game's clock.", ("pause",), not_by_mail),
    MailCommand("resume", REFEREE, "resume", "restart the game's clock.", ("resume",),
                not_by_mail),
    MailCommand("deadline", REFEREE, "deadline 72h",
                "the time each player has to answer.", ("deadline",), not_by_mail),
    MailCommand("kick", REFEREE, "kick Alice", "remove a player who vanished.", ("kick",),
                not_by_mail),
]
