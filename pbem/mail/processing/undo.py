"""``undo``, by the game's undo rule (option ``undo``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import service
from ...service import CommandError
from .units import Action, MailCommand

if TYPE_CHECKING:
    from .turn import MailTurn


def undo(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    rule = str(turn.state.options.get("undo", "own-last"))
    if rule == "own-last":
        _own_last(turn, command, actor)
        return
    referee = turn.store.game(turn.game_id).get("referee")
    if not referee:
        raise CommandError(command, f"The game's undo rule is '{rule}' and the game has no "
                           "referee to decide; nothing was undone.", [])
    turn.undo_requests.append(rule)
    turn.results.append(f"undo: the game's undo rule is '{rule}'; the referee has been asked.")


def _own_last(turn: MailTurn, command: str, actor: str) -> None:
    moves = [e for e in turn.store.effective_events(turn.game_id) if e["kind"] == "command"]
    if not moves or moves[-1]["actor"] != actor:
        raise CommandError(command, "You can only undo your own last command, and only "
                           "until the next player acts.", [])
    last = moves[-1]
    seq = service.undo(turn.store, turn.game_id, last["seq"] - 1, actor=actor,
                       source=turn.source, now=turn.now)
    turn.reload()  # the game went back: the one rebuild an undo needs
    turn.changed = True
    turn.results.append(f"[{seq}] undo: event {last['seq']} ({last['text']}) is taken back.")
    turn.happened.append(f"{actor} takes back: {last['text']}")


UNITS = [
    MailCommand("undo", "Any time", "undo",
                "take back your last command, by the game's undo rule: your own last "
                "command until the next player acts (the default), or the referee is asked.",
                ("undo",), undo),
]
