"""Table talk: ``say <text>`` to everybody, ``say to Bob: <text>`` to those named.

Talk is an event of kind ``talk`` without facts, so rebuilding and auditing the game
pass over it, and a revert does not take it back. Private talk reaches only the
players named (and the referee where the game's option ``private_talk`` is
``referee``); ``pbem.render.recent.visible_to`` keeps it out of the others' mails.
Games stored before the kind existed have their talk as kind ``setup``; it is read
the same (``is_talk``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...render.recent import is_talk
from ...store import Store
from ..outbound.notify import Talk
from .units import Action, MailCommand

if TYPE_CHECKING:
    from .turn import MailTurn

__all__ = ["UNITS", "is_talk", "record"]


def record(store: Store, game_id: int, player: str, text: str, *, source: str, now: str,
           to: Sequence[str] = ()) -> int:
    """Append the talk to the game's history; its seq."""
    seq = store.last_seq(game_id) + 1
    command: dict[str, object] = {"type": "say", "text": text}
    if to:
        command["to"] = list(to)
    heard = f" to {', '.join(to)}" if to else ""
    store.append_event(game_id, seq, kind="talk", command=command,
                       text=f"say{heard}{':' if to else ''} {text}", actor=player,
                       source=source, received=now, facts=[],
                       log=[f"{player} says{heard}: {text}"])
    return seq


def say(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    text, to = action["text"], tuple(action.get("to") or ())
    if actor in to:
        to = tuple(name for name in to if name != actor)
    seq = record(turn.store, turn.game_id, actor, text, source=turn.source, now=turn.now,
                 to=to)
    heard = f" to {', '.join(to)}" if to else ""
    turn.results.append(f"[{seq}] say{heard}: {text}")
    turn.talk.append(Talk(actor, text, to))


UNITS = [
    MailCommand("say", "Any time", "say <text>",
                "table talk, mailed to all players and kept in the history; say to Bob: "
                "<text> (or say to Bob, Cat: ...) reaches only those named, and the referee "
                "where the game says so. The rest of the line is passed on as written, ';' "
                "included.", ("say",), say, also="`say to Bob and Cat: ...`"),
]
