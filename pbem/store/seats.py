"""Seats, the referee and finding games: what running a game to its end needs from the
store (docs/moderation.md).

A seat keeps its name in the game (the engine's player, the record, the commands that
name it); ``person`` is who plays it when that is someone else (a replacement), and
``status`` is ``playing`` or ``kicked`` (played by the service's pass policy).
"""

from __future__ import annotations

from typing import Any

from .base import StoreBase
from .errors import StoreError

PLAYER_STATUSES = ("playing", "kicked")


class SeatsMixin(StoreBase):
    def games_list(self, statuses: tuple[str, ...] = ()) -> list[dict[str, Any]]:
        """Every game (or those of these statuses), by id, ``options`` left as JSON text."""
        if not statuses:
            return self._rows("SELECT * FROM games ORDER BY id")
        marks = ", ".join("?" for _ in statuses)
        return self._rows(f"SELECT * FROM games WHERE status IN ({marks}) ORDER BY id",
                          list(statuses))

    def refereed_by(self, email: str) -> list[dict[str, Any]]:
        """The games whose referee's address is ``email`` (any case), by id."""
        return self._rows("SELECT * FROM games WHERE lower(trim(referee)) = ? ORDER BY id",
                          [email.strip().lower()])

    def set_player_person(self, game_id: int, seat: int, person: str | None) -> None:
        self._set_seat(game_id, seat, "person", person)

    def set_player_status(self, game_id: int, seat: int, status: str) -> None:
        if status not in PLAYER_STATUSES:
            raise StoreError(f"A seat cannot be {status!r}; it is one of "
                             f"{', '.join(PLAYER_STATUSES)}.")
        self._set_seat(game_id, seat, "status", status)

    def set_referee(self, game_id: int, email: str | None, key_hash: str | None) -> None:
        """The game's referee: address and key hash (None, None: no referee)."""
        with self.transaction():
            self._require_game(game_id)
            self.conn.execute("UPDATE games SET referee = ?, referee_key_hash = ? WHERE id = ?",
                              [email, key_hash, game_id])
            self.seal_game(game_id)

    def _set_seat(self, game_id: int, seat: int, column: str, value: str | None) -> None:
        with self.transaction():
            self._require_game(game_id)
            found = self._row("SELECT 1 AS x FROM players WHERE game_id = ? AND seat = ?",
                              [game_id, seat])
            if found is None:
                raise StoreError(f"Game #{game_id} has no player in seat {seat}.")
            self.conn.execute(f"UPDATE players SET {column} = ? WHERE game_id = ? AND seat = ?",
                              [value, game_id, seat])
            self.seal_game(game_id)
