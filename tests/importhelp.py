"""What the tests of the imported 18xx.games logs share."""

from __future__ import annotations

from pbem.importer.replay import Imported
from pbem.notation import format_action
from pbem.store import Store


def commands_as_read(store: Store, result: Imported) -> tuple[int, list[str]]:
    """The number of the import's commands, and those whose action is not what the
    game stored for it: what the notation read from the text the importer formatted
    (translate.Command: the translators make their actions as the notation reads them
    back, so that a caller may hand them to the game without the round trip)."""
    sent = [(command.actor, command.action) for entry in result.applied
            for command, _ in entry.commands]
    stored = [(event["actor"], event["command"]) for event
              in store.events(result.game_id, facts=False) if event["kind"] == "command"]
    differing = [f"{actor}: {format_action(action)}: {action} read as {read}"
                 for (actor, action), (_, read) in zip(sent, stored, strict=False)
                 if action != read]
    if len(stored) - len(sent) not in (0, 1):  # the turn the log's end ended (``finish``)
        differing.append(f"{len(sent)} commands sent, {len(stored)} stored")
    return len(sent), differing
