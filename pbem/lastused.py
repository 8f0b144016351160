"""A bounded store of the values used last, by key: what the mail and the map pictures
keep between mails in one process (the drawings, the pictures, their base64 lines, the
maps a mail showed).  A lookup or a put makes its key the latest; beyond ``size`` the
one used longest ago goes.  Not locked: a caller shared between threads holds its own
lock around it."""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LastUsed(Generic[K, V]):
    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the latest), or None."""
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
        return found

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key`` as the latest; the oldest goes beyond ``size``."""
        self._kept[key] = value
        self._kept.move_to_end(key)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)

    def values(self) -> list[V]:
        """The values kept, the one used longest ago first."""
        return list(self._kept.values())

    def items(self) -> list[tuple[K, V]]:
        """(key, value) of each kept, the one used longest ago first."""
        return list(self._kept.items())

    def clear(self) -> None:
        self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)
