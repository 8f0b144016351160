"""The commands that answer the sender and change nothing: show, history (and help, which
lists the catalog, in catalog.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...moderation.listing import mail_listing
from ..outbound.views import game_view, history_range, history_text
from .units import Action, MailCommand

if TYPE_CHECKING:
    from .turn import MailTurn


def show(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    view = game_view(turn.state, actor)
    turn.answers.append(f"{view.board}\n\n{view.market}")
    if view.prompt:
        turn.answers.append("What you can do now:\n" + view.prompt)


def history(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    viewer = None if turn.by_referee else actor  # the referee sees every event
    if action.get("first"):
        turn.answers.append(history_range(turn.store, turn.game_id, int(action["first"]),
                                          int(action["last"]), viewer))
        return
    turn.answers.append(history_text(turn.store, turn.game_id, int(action.get("count") or 20),
                                     viewer))


def listing(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    """The sender's games (by his address) and where each stands."""
    sender = turn.sender_address()
    turn.answers.append(mail_listing(turn.store, sender, turn.sender_tz()))


UNITS = [
    MailCommand("show", "Any time", "show",
                "the board, the market and the holdings now, and what you may do.",
                ("show",), show, also="`show board`, `status`"),
    MailCommand("history", "Any time", "history 20",
                "the last 20 events of the game (history alone: 20); history 120-180: "
                "events 120 to 180.", ("history",), history,
                also="`history last 50`, `history 120-180`, `log`"),
    MailCommand("list", "Any time", "list",
                "your games (all those your address plays or referees) and where each "
                "stands: round, who must act since when, the deadline; also in a mail to "
                "the service's address without a game's tag.", ("list",), listing,
                also="`games`, `my games`"),
]
