"""The referee's commands, by mail (from the referee's address, with the referee's key)
and through ``pbem act GAME --as referee``: acting for a player, the game's clock,
seats, reverting. Each change is on the record and announced to every player."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ... import service
from ...engine.game import REFEREE as REFEREE_ACTOR
from ...moderation import clock, seats
from ...moderation.errors import ModerationError
from ...moderation.summary import takeover_summary
from ...service import CommandError
from .undo import answers_undo
from .units import Action, MailCommand

if TYPE_CHECKING:
    from .turn import MailTurn

REFEREE = "Referee"
HOUR = 3600


def referee_only(turn: MailTurn, command: str, what: str) -> None:
    if not turn.by_referee:
        raise CommandError(command, f"Only the referee may {what}.", [])


def act_for(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    """as Alice <command>: a game command is decided as Alice's and recorded as the
    referee's; a mail command is carried out for Alice."""
    referee_only(turn, command, "act for another player")
    player, inner = action["player"], action["action"]
    if answers_undo(turn, inner, player):
        inner = {"type": "undo_answer", "answer": inner["type"]}
    unit = turn.unit_for(inner)
    if unit is None:
        turn.play([command], actor=REFEREE_ACTOR)
        turn.announce(f"The referee acts for {player}: {_inner_text(command, player)}.")
        return
    if unit.handler is None or unit.group == REFEREE:
        raise CommandError(command, "The referee acts for a player with a player's command.",
                           [])
    unit.handler(turn, _inner_text(command, player), inner, player)
    turn.announce(f"The referee acts for {player}: {_inner_text(command, player)}.")


def _inner_text(command: str, player: str) -> str:
    """The command after ``as <player>``."""
    rest = command.strip()[2:].strip()
    return rest[len(player):].strip() if rest.casefold().startswith(player.casefold()) else rest


def revert(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    referee_only(turn, command, "revert the game")
    target = int(action["seq"])
    gone = [e for e in turn.store.effective_events(turn.game_id)
            if e["kind"] == "command" and e["seq"] > target]
    seq = service.undo(turn.store, turn.game_id, target, actor=REFEREE_ACTOR,
                       source=turn.source, now=turn.now)
    turn.reload()
    taken = "; ".join(f"[{e['seq']}] {e['text']}" for e in gone) or "no command"
    turn.results.append(f"[{seq}] revert to {target}: takes back {taken}.")
    turn.happened.append(f"The referee reverts the game to event {target}.")
    turn.announce(f"The referee reverts the game to event {target}: takes back {taken}.")


def replace(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    referee_only(turn, command, "replace a player")
    name = action["player"]
    person = action.get("person") or name
    first = turn.store.last_seq(turn.game_id) + 1
    try:
        log, key = seats.replace_player(turn.store, turn.game_id, turn.state, name, person,
                                        action["email"], actor=REFEREE_ACTOR,
                                        source=turn.source, now=turn.now)
    except ModerationError as exc:
        raise CommandError(command, str(exc), []) from exc
    turn.welcomes[name] = (key, takeover_summary(turn.store, turn.game_id, turn.state, name,
                                                 person))
    _report(turn, first, log)


def pause(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    referee_only(turn, command, "pause the game")
    _clock(turn, command, lambda: clock.pause(turn.store, turn.game_id, actor=REFEREE_ACTOR,
                                              source=turn.source, now=turn.now))
    turn.paused = True


def resume(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    referee_only(turn, command, "resume the game")
    _clock(turn, command, lambda: clock.resume(turn.store, turn.game_id, turn.state,
                                               actor=REFEREE_ACTOR, source=turn.source,
                                               now=turn.now))
    turn.paused = False


def deadline(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    referee_only(turn, command, "change the deadlines")
    hours = action.get("hours")
    _clock(turn, command, lambda: clock.set_deadline(
        turn.store, turn.game_id, turn.state, hours * HOUR if hours else None,
        actor=REFEREE_ACTOR, source=turn.source, now=turn.now))


def extend(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    referee_only(turn, command, "extend a deadline")
    _clock(turn, command, lambda: clock.extend(
        turn.store, turn.game_id, action["player"], int(action["hours"]) * HOUR,
        actor=REFEREE_ACTOR, source=turn.source, now=turn.now))


def kick(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    referee_only(turn, command, "remove a player")
    _clock(turn, command, lambda: seats.kick(turn.store, turn.game_id, turn.state,
                                             action["player"], actor=REFEREE_ACTOR,
                                             source=turn.source, now=turn.now))


def _clock(turn: MailTurn, command: str, change: Callable[[], list[str]]) -> None:
    """Carry out a change of the game's clock or seats; its lines go to the sender and to
    every player."""
    first = turn.store.last_seq(turn.game_id) + 1
    try:
        lines = change()
    except ModerationError as exc:
        raise CommandError(command, str(exc), []) from exc
    _report(turn, first, lines)


def _report(turn: MailTurn, seq: int, lines: list[str]) -> None:
    """The referee's change to the sender under the number of the event that records it
    (as every recorded command is answered; none when nothing was recorded), and to every
    player."""
    recorded = turn.store.last_seq(turn.game_id) >= seq
    turn.results.extend([f"[{seq}] {lines[0]}", *lines[1:]] if lines and recorded else lines)
    turn.announce(*lines)


UNITS = [
    MailCommand("referee", REFEREE, "as Alice <command>, deadline 48h, pause",
                "the referee's commands, by mail from the referee's address with the "
                "referee's key, or with pbem act GAME --as referee; each change is "
                "recorded and announced to every player.", listed=False),
    MailCommand("as", REFEREE, "as Alice <command>",
                "act for a player: recorded as the referee's, for Alice.", ("as",), act_for,
                changes_game=True),
    MailCommand("revert", REFEREE, "revert to 123",
                "take the game back to event 123 (kept in the history as an undo).",
                ("revert",), revert, changes_game=True),
    MailCommand("replace", REFEREE, "replace Alice with Ben ben@example.org",
                "Ben takes Alice's seat over, with its holdings and history: a new key and "
                "a welcome mail for Ben; mail from Alice's address is refused from then on.",
                ("replace",), replace, changes_game=True),
    MailCommand("pause", REFEREE, "pause",
                "stop the game's clock: deadlines stop and only the referee's commands are "
                "taken.", ("pause",), pause, changes_game=True),
    MailCommand("resume", REFEREE, "resume",
                "restart the game's clock: each deadline gets the time it had left.",
                ("resume",), resume, changes_game=True),
    MailCommand("deadline", REFEREE, "deadline 72h",
                "the time allowed for each decision from now on (deadline 3d, deadline off).",
                ("deadline",), deadline, changes_game=True),
    MailCommand("extend", REFEREE, "extend Alice 24h",
                "give Alice 24 hours more for the decision the game waits for.",
                ("extend",), extend, changes_game=True),
    MailCommand("kick", REFEREE, "kick Alice",
                "remove a player who vanished: the seat passes from now on (the pass "
                "policy) and mail from its player is refused.", ("kick",), kick,
                changes_game=True),
    MailCommand("end game", REFEREE, "end game",
                "end the game now: everybody is scored as it stands."),
]
