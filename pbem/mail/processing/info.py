"""The commands that answer the sender and change nothing: show, history (and help, which
lists the catalog, in catalog.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..outbound.views import game_view, history_text
from .units import Action, MailCommand

if TYPE_CHECKING:
    from .turn import MailTurn


def show(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    view = game_view(turn.state, actor)
    turn.answers.append(f"{view.board}\n\n{view.market}")
    if view.prompt:
        turn.answers.append("What you can do now:\n" + view.prompt)


def history(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    turn.answers.append(history_text(turn.store, turn.game_id, int(action.get("count", 20)),
                                     actor))


UNITS = [
    MailCommand("show", "Any time", "show",
                "the board, the market and the holdings now, and what you may do.",
                ("show",), show, also="`show board`, `status`"),
    MailCommand("history", "Any time", "history 20",
                "the last 20 events of the game (history alone: 20).", ("history",), history,
                also="`history last 50`, `log`"),
]
