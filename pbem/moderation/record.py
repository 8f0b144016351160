"""Moderation events on the game's record.

Events of kind ``moderation`` carry no facts: rebuilding and auditing a game pass over
them, and a revert does not take them back (an absence, a replacement or a passed
deadline happened, whatever the game's moves). Their ``command`` is a dict with a
``type``:

========================  =====================================================
``deadline``              the decisions waiting now and their deadlines:
                          ``due`` {player: time}, ``keys`` {player: decision},
                          ``kind`` (auction, stock, operating)
``reminder``              a reminder was mailed: ``player``, ``key``, ``due``
``expired``               a deadline passed: ``player``, ``key``, ``due``, ``policy``
                          (``wait``, ``pass``, ``kick``), ``stuck`` (why the
                          policy could not finish, or None)
``pause`` / ``resume``    the referee stopped / restarted the game's clock
``set_deadline``          the referee changed the time allowed: ``seconds`` (None:
                          no deadlines)
``extend``                the referee gave ``player`` ``seconds`` more
``away`` / ``back``       ``player`` is away ``until`` a time (``reason``) / back
``replace``               seat ``player`` is played from now on by ``person`` at
                          ``email`` (was ``old_email``)
``kick``                  seat ``player`` is played by the pass policy from now on
``undo_request``          ``player`` asks to take back events ``take_back`` (the
                          game kept to ``keep``), ``ask``: the players whose consent
                          is needed,
                          ``due``: when the request expires
``undo_answer``           ``player`` answers request ``request``: ``accept``/``decline``
``undo_closed``           request ``request`` ended: ``outcome`` (done, declined,
                          expired, lapsed)
========================  =====================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..store import Store

KIND = "moderation"
TIMER = "timer"  # the source of what the service's clock records


def append(store: Store, game_id: int, command: Mapping[str, Any], text: str, *,
           actor: str | None, source: str, now: str, log: list[str]) -> dict[str, Any]:
    """Append one moderation event after the game's last event; the event."""
    seq = store.last_seq(game_id) + 1
    return store.append_event(game_id, seq, kind=KIND, command=dict(command), text=text,
                              actor=actor, source=source, received=now, facts=[], log=log)


def events(store: Store, game_id: int) -> list[dict[str, Any]]:
    """The game's moderation events, in order."""
    return store.events_of_kind(game_id, (KIND,))


def of_type(moderation: list[dict[str, Any]], *types: str) -> list[dict[str, Any]]:
    return [e for e in moderation if e["command"].get("type") in types]
