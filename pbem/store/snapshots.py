"""Snapshots: a game's state after one of its events, kept for speed (pbem.snapshot says
what is in one and when it may be used). Never the truth: the events are; a snapshot
can be dropped at any time and the game is rebuilt from its events.

Each snapshot is sealed with the server secret (its game, seq, event hash, engine and a
digest of the state), so that a state written into the file by anything but this server
is never read back: a state is unpickled only when its seal holds (``sealed``)."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from .base import StoreBase

#: Snapshots kept per game (the newest ones).
KEEP = 2


class SnapshotsMixin(StoreBase):
    def put_snapshot(self, game_id: int, seq: int, event_hash: str, engine: str,
                     state: bytes) -> None:
        """Keep the state after event ``seq`` (whose hash is ``event_hash``), written by
        ``engine``, sealed; older snapshots of the game beyond the newest KEEP go."""
        seal = self._snapshot_seal(game_id, seq, event_hash, engine, state)
        with self.transaction():
            self.conn.execute(
                "INSERT OR REPLACE INTO snapshots (game_id, seq, hash, engine, state, seal) "
                "VALUES (?, ?, ?, ?, ?, ?)", [game_id, seq, event_hash, engine, state, seal])
            self.conn.execute(
                "DELETE FROM snapshots WHERE game_id = ? AND seq NOT IN (SELECT seq FROM "
                "snapshots WHERE game_id = ? ORDER BY seq DESC LIMIT ?)",
                [game_id, game_id, KEEP])

    def snapshots(self, game_id: int, up_to: int | None = None) -> list[dict[str, Any]]:
        """The game's snapshots, newest first (those after event ``up_to`` left out):
        seq, hash, engine, state and ``sealed`` (whether its seal holds; read the state
        of none that is not)."""
        rows = self._rows(
            "SELECT seq, hash, engine, state, seal FROM snapshots WHERE game_id = ? AND "
            "seq <= ? ORDER BY seq DESC", [game_id, up_to if up_to is not None else 2**62])
        for row in rows:
            expected = self._snapshot_seal(game_id, row["seq"], row["hash"], row["engine"],
                                           bytes(row["state"]))
            row["sealed"] = hmac.compare_digest(str(row.pop("seal")), expected)
        return rows

    def _snapshot_seal(self, game_id: int, seq: int, event_hash: str, engine: str,
                       state: bytes) -> str:
        return self.secret.mac("snapshot", game_id, seq, event_hash, engine,
                               hashlib.sha256(state).hexdigest())

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
