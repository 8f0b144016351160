"""Answers remembered by the objects they were made from, compared by identity.

A title's rules, its map and its tiles are read once and never change, but they are not
hashable (they hold dicts), and an equal copy is another object. ``ByIdentity`` keys an
answer by the ids of those objects and keeps the objects with it, so that no other
object can take their ids while the answer is remembered. It imports nothing of pbem:
the board package, the engine, the service and the renderers share it."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Answer = TypeVar("Answer")


class ByIdentity(Generic[Answer]):
    """Answers by (objects, key), at most ``limit``: all are forgotten when it is full
    (the questions of one game come back soon)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._found: dict[Hashable, tuple[tuple[object, ...], Answer]] = {}

    def get(self, objects: tuple[object, ...], key: Hashable,
            make: Callable[[], Answer]) -> Answer:
        """The answer remembered for ``objects`` (by identity) and ``key``, else
        ``make()`` remembered. The answer is shared: callers do not change it."""
        full = (*map(id, objects), key)
        found = self._found.get(full)
        if found is None:
            if len(self._found) >= self.limit:
                self._found.clear()
            found = self._found[full] = (objects, make())  # objects kept: ids stay theirs
        return found[1]
