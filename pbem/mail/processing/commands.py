"""Carrying out the commands of one mail: game commands through ``service.act``, and
the commands the mail service answers itself (say, help, show, history, notify, undo).

``run_commands`` raises ``CommandError`` at the first refusal; the caller runs it
inside a savepoint, so a refused mail changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ... import service
from ...notation import NotationError, ParseContext, parse_command, split_commands
from ...service import CommandError
from ...store import Store
from ..outbound.views import game_view
from . import talk
from .helptext import help_text

SERVICE_TYPES = frozenset({"say", "help", "show", "history", "notify", "undo"})
REFEREE_TYPES = frozenset({"as", "revert", "replace", "pause", "resume", "deadline", "kick"})


@dataclass
class MailRun:
    """What one mail did, collected for the reply and the notifications."""

    game_id: int
    player: str
    seat: int
    source: str
    now: str
    results: list[str] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)
    happened: list[str] = field(default_factory=list)
    said: list[str] = field(default_factory=list)
    undo_requests: list[str] = field(default_factory=list)
    changed: bool = False


def split(store: Store, game_id: int, text: str) -> list[str]:
    """The commands of the text, one per item (lines, and ';' within a line)."""
    state = service.load(store, game_id)
    return [cmd for _, cmd in split_commands(text, service.parse_context(state))]


def service_action(ctx: ParseContext, command: str) -> dict[str, Any] | None:
    """The action of a command the mail layer handles itself, else None (game commands
    are read by ``service.act`` in the state they apply to)."""
    try:
        action = parse_command(command, ctx)
    except NotationError:
        return None
    return action if action.get("type") in SERVICE_TYPES | REFEREE_TYPES else None


def run_commands(store: Store, commands: list[str], run: MailRun) -> None:
    """Carry out the commands in order: runs of game commands at once through
    ``service.act``, the others here. Raises CommandError at the first refusal."""
    ctx = service.parse_context(service.load(store, run.game_id))
    batch: list[str] = []
    for command in commands:
        action = service_action(ctx, command)
        if action is None:
            batch.append(command)
            continue
        _flush(store, batch, run)
        batch = []
        _service_command(store, command, action, run)
    _flush(store, batch, run)


def _flush(store: Store, batch: list[str], run: MailRun) -> None:
    if not batch:
        return
    result = service.act(store, run.game_id, run.player, "\n".join(batch), source=run.source,
                         now=run.now)
    run.changed = True
    for applied in result.applied:
        run.results.append(f"[{applied.seq}] {applied.text}")
        run.results.extend(f"      {line}" for line in applied.log)
        run.happened.append(f"{run.player}: {applied.text}")
        run.happened.extend(f"      {line}" for line in applied.log)


def _service_command(store: Store, command: str, action: dict[str, Any], run: MailRun) -> None:
    kind = action["type"]
    if kind in REFEREE_TYPES:
        raise CommandError(command, "Referee commands are not taken by mail yet; the referee "
                           "uses the pbem command line (pbem act, pbem undo).", [])
    if kind == "say":
        seq = talk.record(store, run.game_id, run.player, action["text"], source=run.source,
                          now=run.now)
        run.results.append(f"[{seq}] say {action['text']}")
        run.said.append(action["text"])
    elif kind == "help":
        run.answers.append(help_text(action.get("topic")))
    elif kind == "show":
        view = game_view(service.load(store, run.game_id), run.player)
        run.answers.append(f"{view.board}\n\n{view.market}")
        if view.prompt:
            run.answers.append("What you can do now:\n" + view.prompt)
    elif kind == "history":
        run.answers.append(history_text(store, run.game_id, int(action.get("count", 20))))
    elif kind == "notify":
        store.set_notify(run.game_id, run.seat, action["mode"])
        run.results.append(f"notify {action['mode']}: from now on you get "
                           f"{NOTIFY_WORDS[action['mode']]}.")
    elif kind == "undo":
        _undo(store, command, run)


NOTIFY_WORDS = {
    "every": "a mail after every move",
    "round": "one digest mail per round, and your turns",
    "turn": "mail only when it is your turn",
}


def history_text(store: Store, game_id: int, count: int) -> str:
    """The last ``count`` events (reverted ones marked), for ``history N``."""
    events = store.events(game_id)
    kept = {e["seq"] for e in store.effective_events(game_id)}
    lines = [f"The last {min(count, len(events))} of {len(events)} events:"]
    for event in events[-max(count, 1):]:
        mark = "" if event["seq"] in kept or event["kind"] == "revert" else " (undone)"
        lines.append(f"[{event['seq']}] {event['actor'] or '-'}: {event['text']}{mark}")
    return "\n".join(lines)


def _undo(store: Store, command: str, run: MailRun) -> None:
    state = service.load(store, run.game_id)
    rule = str(state.options.get("undo", "own-last"))
    moves = [e for e in store.effective_events(run.game_id) if e["kind"] == "command"]
    if rule == "own-last":
        if not moves or moves[-1]["actor"] != run.player:
            raise CommandError(command, "You can only undo your own last command, and only "
                               "until the next player acts.", [])
        last = moves[-1]
        seq = service.undo(store, run.game_id, last["seq"] - 1, actor=run.player,
                           source=run.source, now=run.now)
        run.changed = True
        run.results.append(f"[{seq}] undo: event {last['seq']} ({last['text']}) is taken back.")
        run.happened.append(f"{run.player} takes back: {last['text']}")
        return
    referee = store.game(run.game_id).get("referee")
    if not referee:
        raise CommandError(command, f"The game's undo rule is '{rule}' and the game has no "
                           "referee to decide; nothing was undone.", [])
    run.undo_requests.append(rule)
    run.results.append(f"undo: the game's undo rule is '{rule}'; the referee has been asked.")
