"""What happened since a player's last turn, from the stored events of a game.

``since_last_turn(events, player)`` gives the lines a mail or ``pbem show --as``
shows under "Since your last turn:". ``events`` is every stored event of the game in
seq order, reverts included (``Store.events``).

* The player's last turn is his last command that still counts (not taken back).
  A player who has not acted yet sees everything since the start of the game.
* Each event after it gives its log lines: the engine's sentences, which say who did
  what ("Ben buys CS for $40.", "Cat says: hi" for table talk); an event without log
  lines gives ``actor: command``.
* Commands that were taken back are left out; the undo (a revert event) says what it
  took back ("Ann takes back: buy SV").
* The player's own doing after his last turn (his table talk, his undo) is left out.
* Private events are shown only to those they are for (``visible_to``): talk to some
  players (``say to Bob: ...``), and a player's standing orders and settings. Talk,
  orders and settings are not part of the game: a revert does not take them back.
* The clock's bookkeeping (deadlines set, reminders sent: a command marked ``quiet``)
  is left out.
* At most ``limit`` lines: the last ones, after a line saying how many earlier lines
  were left out (``more`` may add where to find them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.store.events import SERVICE_KINDS

#: Lines shown at most: about one operating round of a full table.
RECENT_LIMIT = 60

Event = Mapping[str, Any]


def last_turn(events: Sequence[Event], player: str) -> int:
    """The seq of ``player``'s last command that counts, 0 when there is none."""
    last = 0
    for event in kept_events(events):
        if event["kind"] == "command" and event["actor"] == player:
            last = int(event["seq"])
    return last


def is_talk(event: Event) -> bool:
    """Table talk (kind ``talk``; written as kind ``setup`` before there was one)."""
    command = event.get("command")
    return isinstance(command, Mapping) and command.get("type") == "say"


def is_service_event(event: Event) -> bool:
    """Talk, a standing order or a setting: not part of the game."""
    return event["kind"] in SERVICE_KINDS or is_talk(event)


def talk_heard_by(event: Event) -> list[str]:
    """Those private talk was said to (empty: said to everybody, or not talk)."""
    command = event.get("command")
    to = command.get("to") if isinstance(command, Mapping) else None
    return [str(name) for name in to] if to else []


def is_public(event: Event) -> bool:
    """Seen by every player: not private talk, not a player's standing order or setting."""
    return event["kind"] not in ("order", "setting") and not talk_heard_by(event)


def visible_to(event: Event, viewer: str | None) -> bool:
    """May ``viewer`` (None: the referee) see this event? Private talk only its speaker
    and those it was said to; a standing order or a setting only its player."""
    if viewer is None or is_public(event):
        return True
    return viewer == event["actor"] or viewer in talk_heard_by(event)


def since_last_turn(events: Sequence[Event], player: str, limit: int = RECENT_LIMIT,
                    more: str = "") -> list[str]:
    """The lines of what happened after ``player``'s last turn (see the module)."""
    after = last_turn(events, player)
    kept = {int(e["seq"]) for e in kept_events(events)}
    lines: list[str] = []
    so_far: list[Event] = []  # what counted before each revert, to say what it took back
    for event in events:
        seq = int(event["seq"])
        if event["kind"] == "revert":
            target = int(event["revert_to"])
            dropped = [e for e in so_far if int(e["seq"]) > target]
            so_far = [e for e in so_far if int(e["seq"]) <= target]
            if seq > after and event["actor"] != player:
                lines += _revert_lines(event, dropped)
            continue
        so_far.append(event)
        if quiet(event):
            continue
        counts = seq in kept or is_service_event(event)
        if seq > after and counts and event["actor"] != player and visible_to(event, player):
            lines += [str(line) for line in event["log"] or []] or [_command_line(event)]
    return bounded(lines, limit, more)


def quiet(event: Event) -> bool:
    """An event no recap shows: the clock's bookkeeping (a deadline set, a reminder sent;
    their command says ``quiet``)."""
    command = event.get("command")
    return isinstance(command, Mapping) and bool(command.get("quiet"))


def bounded(lines: list[str], limit: int = RECENT_LIMIT, more: str = "") -> list[str]:
    """The last ``limit`` lines, after a line saying how many were left out (0: all)."""
    if limit < 1 or len(lines) <= limit:
        return lines
    left_out = len(lines) - (limit - 1)
    word = "line" if left_out == 1 else "lines"
    note = f"({left_out} earlier {word} left out{'; ' + more if more else ''}.)"
    return [note, *lines[-(limit - 1):]]


def kept_events(events: Sequence[Event]) -> list[Event]:
    """The events that count, in order: a revert drops what it takes back (as
    ``pbem.store.effective``)."""
    kept: list[Event] = []
    for event in events:
        if event["kind"] == "revert":
            kept = [e for e in kept if int(e["seq"]) <= int(event["revert_to"])]
        else:
            kept.append(event)
    return kept


def _command_line(event: Event) -> str:
    return f"{event['actor'] or '-'}: {event['text']}"


def _revert_lines(event: Event, dropped: list[Event]) -> list[str]:
    who = event["actor"] or "The referee"
    moves = [e for e in dropped if e["kind"] == "command"]
    if not moves:
        return [str(line) for line in event["log"] or []] or [_command_line(event)]
    taken = "; ".join(e["text"] if e["actor"] == who else f"{e['actor'] or '-'}: {e['text']}"
                      for e in moves)
    return [f"{who} takes back: {taken}"]
