"""``undo``, by the game's undo rule (option ``undo``), and the answers to a consent
request (``accept undo`` / ``decline undo``, or plain ``accept`` / ``decline`` when no
offer of the game waits for the player's answer)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.errors import RulesError
from ...engine.game import legal_moves
from ...moderation import undo as undo_rules
from ...moderation.clock import schedule_of
from ...service import CommandError
from ..outbound.notify import Notice
from .units import Action, MailCommand

if TYPE_CHECKING:
    from .turn import MailTurn


def undo(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    rule = str(turn.state.options.get("undo", "own-last"))
    if rule == "referee":
        _ask_referee(turn, command, rule, actor)
        return
    schedule = schedule_of(turn.store, turn.game_id)
    try:
        out = undo_rules.request(turn.store, turn.game_id, actor, rule, schedule,
                                 source=turn.source, now=turn.now)
    except RulesError as exc:
        raise CommandError(command, str(exc), []) from exc
    _outcome(turn, actor, out)
    if out.reverted:
        turn.happened.append(f"{actor} takes back: {out.taken}")


def _ask_referee(turn: MailTurn, command: str, rule: str, actor: str) -> None:
    referee = turn.store.game(turn.game_id).get("referee")
    if not referee:
        raise CommandError(command, f"The game's undo rule is {rule} (only the referee takes "
                           "moves back) and the game has no referee; nothing was undone.", [])
    turn.undo_requests.append(rule)
    turn.results.append(f"undo: the game's undo rule is {rule}: only the referee takes moves "
                        "back; the referee has been asked.")


def answer(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    """accept undo / decline undo (and plain accept / decline routed here)."""
    schedule = schedule_of(turn.store, turn.game_id)
    request = undo_rules.open_request_for(schedule, actor)
    if request is None:
        raise CommandError(command, "No undo request waits for your answer.", [])
    out = undo_rules.answer(turn.store, turn.game_id, actor, request,
                            action["answer"] == "accept", source=turn.source, now=turn.now)
    _outcome(turn, actor, out)


def _outcome(turn: MailTurn, actor: str, out: undo_rules.UndoOutcome) -> None:
    turn.results.extend(out.lines)
    for name, lines in out.tell.items():
        if name != turn.player:
            turn.notices.append(Notice(_subject(lines[0]), tuple(lines), (name,)))
    if out.reverted:
        turn.reload()  # the game went back: the one rebuild an undo needs
        turn.changed = True


def _subject(line: str) -> str:
    return line if len(line) <= 60 else line[:57].rsplit(" ", 1)[0] + "..."


def answers_undo(turn: MailTurn, action: Action, actor: str) -> bool:
    """Whether a plain ``accept``/``decline`` of ``actor`` answers an undo request: one
    waits for him and no offer of the game does."""
    if action.get("type") not in ("accept", "decline"):
        return False
    if undo_rules.open_request_for(schedule_of(turn.store, turn.game_id), actor) is None:
        return False
    offered = {m["action"]["type"] for m in legal_moves(turn.state).get(actor, [])}
    return not offered & {"accept", "decline"}


UNITS = [
    MailCommand("undo", "Any time", "undo",
                "take back your last command, by the game's undo rule: your own last "
                "command until the next player acts (own-last, the default); with the "
                "consent of every player who acted since (consent: they are asked, and "
                "answer accept or decline); or the referee decides (referee).",
                ("undo",), undo, changes_game=True),
    MailCommand("accept undo", "Any time", "accept undo",
                "agree to another player's undo (decline undo refuses it); plain accept or "
                "decline does the same when no offer of the game waits for your answer.",
                ("undo_answer",), answer, also="`decline undo`", changes_game=True),
]
