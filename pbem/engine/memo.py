"""Answers remembered by the objects they were made from, compared by identity.

A title's rules, its map and its tiles are read once and never change, but they are not
hashable (they hold dicts), and an equal copy is another object. ``ByIdentity`` keys an
answer by the ids of those objects and keeps the objects with it, so that no other
object can take their ids while the answer is remembered. ``ByWhatWasRead`` also keeps,
with each answer, how the places it read looked (the tiles of the hexes a walk on the
board came to), and gives it again only where they look the same. This module imports
nothing of pbem: the board package, the engine, the service and the renderers share it."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Answer = TypeVar("Answer")
Place = TypeVar("Place", bound=Hashable)


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


class ByWhatWasRead(Generic[Place, Answer]):
    """Answers by (objects, key) remembered with what they read, at most ``limit``: a
    question asked again is answered without working it out when every place its answer
    read looks as it did then (a walk over a few hexes of a board on which one hex has
    changed since). The last answer per (objects, key) is kept."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._found: dict[Hashable, tuple[tuple[object, ...],
                                          tuple[tuple[Place, Hashable], ...], Answer]] = {}

    def get(self, objects: tuple[object, ...], key: Hashable,
            looks: Callable[[Place], Hashable],
            make: Callable[[set[Place]], Answer]) -> Answer:
        """The answer remembered for ``objects`` (by identity) and ``key`` if each place
        it read still ``looks`` as then, else ``make(read)`` remembered: ``make`` adds
        to ``read`` every place whose look its answer depends on. The answer is shared:
        callers do not change it."""
        full = (*map(id, objects), key)
        found = self._found.get(full)
        if found is not None:
            for place, seen in found[1]:  # (a loop: a generator's calls cost as much)
                if looks(place) != seen:
                    break
            else:
                return found[2]
        read: set[Place] = set()
        answer = make(read)
        if len(self._found) >= self.limit:
            self._found.clear()
        self._found[full] = (objects, tuple((place, looks(place)) for place in read), answer)
        return answer

    def clear(self) -> None:
        self._found.clear()
