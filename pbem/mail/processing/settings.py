"""The sender's own settings: what mail he gets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .units import Action, MailCommand

if TYPE_CHECKING:
    from .turn import MailTurn

NOTIFY_WORDS = {
    "every": "a mail after every move",
    "round": "one digest mail per round, and your turns",
    "turn": "mail only when it is your turn",
}


def notify(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    mode = action["mode"]
    turn.store.set_notify(turn.game_id, turn.seat_of(actor), mode)
    turn.results.append(f"notify {mode}: from now on you get {NOTIFY_WORDS[mode]}.")


UNITS = [
    MailCommand("notify", "Settings", "notify every|round|turn",
                "what you get of other players' moves: notify every (a mail after each "
                "move, the default), notify round (one digest a round), notify turn (only "
                "your own turns). Your turns are always mailed.", ("notify",), notify,
                also="`notify all`, `notify me every round`, `notify my turn`"),
]
