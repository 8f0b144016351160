"""Table talk (``say``): kept in the game's history and mailed to the other players.

A ``say`` is stored as an event without facts, so rebuilding and auditing the
game pass over it. The store has no event kind for talk yet; until it has one
(see docs/mail-service.md), talk is written with kind ``TALK_KIND`` and
recognised by its command ``{"type": "say"}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...store import Store
from ..outbound.notify import Talk
from .units import Action, MailCommand

if TYPE_CHECKING:
    from .turn import MailTurn

TALK_KIND = "setup"


def record(store: Store, game_id: int, player: str, text: str, *, source: str, now: str) -> int:
    """Append the talk to the game's history; its seq."""
    seq = store.last_seq(game_id) + 1
    store.append_event(game_id, seq, kind=TALK_KIND, command={"type": "say", "text": text},
                       text=f"say {text}", actor=player, source=source, received=now,
                       facts=[], log=[f"{player} says: {text}"])
    return seq


def is_talk(event: dict[str, Any]) -> bool:
    command = event.get("command")
    return isinstance(command, dict) and command.get("type") == "say"


def say(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    text = action["text"]
    seq = record(turn.store, turn.game_id, actor, text, source=turn.source, now=turn.now)
    turn.results.append(f"[{seq}] say {text}")
    turn.talk.append(Talk(actor, text))


UNITS = [
    MailCommand("say", "Any time", "say <text>",
                "table talk, mailed to all players and kept in the history; the rest of the "
                "line is passed on as written, ';' included.", ("say",), say),
]
