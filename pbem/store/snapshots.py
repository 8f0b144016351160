"""Snapshots: a game's state after one of its events, kept for speed (pbem.snapshot says
what is in one and when it may be used). Never the truth: the events are; a snapshot
can be dropped at any time and the game is rebuilt from its events."""

from __future__ import annotations

from typing import Any

from .base import StoreBase

#: Snapshots kept per game (the newest ones).
KEEP = 2


class SnapshotsMixin(StoreBase):
    def put_snapshot(self, game_id: int, seq: int, event_hash: str, engine: str,
                     state: bytes) -> None:
        """Keep the state after event ``seq`` (whose hash is ``event_hash``), written by
        ``engine``; older snapshots of the game beyond the newest KEEP go."""
        with self.transaction():
            self.conn.execute(
                "INSERT OR REPLACE INTO snapshots (game_id, seq, hash, engine, state) "
                "VALUES (?, ?, ?, ?, ?)", [game_id, seq, event_hash, engine, state])
            self.conn.execute(
                "DELETE FROM snapshots WHERE game_id = ? AND seq NOT IN (SELECT seq FROM "
                "snapshots WHERE game_id = ? ORDER BY seq DESC LIMIT ?)",
                [game_id, game_id, KEEP])

    def snapshots(self, game_id: int, up_to: int | None = None) -> list[dict[str, Any]]:
        """The game's snapshots, newest first (those after event ``up_to`` left out)."""
        return self._rows(
            "SELECT seq, hash, engine, state FROM snapshots WHERE game_id = ? AND seq <= ? "
            "ORDER BY seq DESC", [game_id, up_to if up_to is not None else 2**62])

    def drop_snapshots(self, game_id: int | None = None, seq: int | None = None) -> int:
        """Forget snapshots: one (``seq``), a game's, or all; how many went."""
        where, params = [], []
        if game_id is not None:
            where.append("game_id = ?")
            params.append(game_id)
        if seq is not None:
            where.append("seq = ?")
            params.append(seq)
        sql = "DELETE FROM snapshots" + (" WHERE " + " AND ".join(where) if where else "")
        with self.transaction():
            return self.conn.execute(sql, params).rowcount

    def event_marks(self, game_id: int) -> list[dict[str, Any]]:
        """Every event's seq, kind, revert_to and hash, in seq order: what it takes to
        tell which events count (``effective``) without reading their content."""
        return self._rows("SELECT seq, kind, revert_to, hash FROM events WHERE game_id = ? "
                          "ORDER BY seq", [game_id])
