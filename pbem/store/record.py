"""Anchors of the record: what the hash chain alone cannot show.

The chain shows an edited or deleted event in the middle of a game, but not the last
events (or all of them) removed, nor a changed player. So each game has a **sealed chain
head** in ``chain_heads``: the number of events, the last hash, and a digest of the
game's setup and players (title, options, seed, versions, referee and his key hash; each
seat's name, address, key hash, and who plays it and how), sealed with an HMAC under the
server secret. Every store method that appends an event or changes a game's row or
players reseals it (``seal_game``); anything else that changes them shows. The list of
the games is sealed the same way (``meta`` rows ``game_ids`` and ``games_seal``), so a
game deleted whole shows too.

``verify_record(game_id)`` and ``verify_games()`` return the problems, each with its
game and, where there is one, the event's seq. ``pbem audit`` adds the re-decision of
every event (service.audit).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Any

from .base import StoreBase, canonical_json
from .events import ZERO_HASH, broken_links, decode_event
from .secret import ServerSecret

_GAME_FIELDS = ("id", "title", "options", "seed", "engine_version", "rules_version", "created",
                "referee")
_PLAYER_FIELDS = ("seat", "name", "email", "key_hash")
#: Fields of running a game to its end (migration 0005): in the digest when they differ
#: from their default, so the rosters sealed before them stay valid.
_GAME_EXTRA = {"referee_key_hash": None}
_PLAYER_EXTRA = {"person": None, "status": "playing"}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a game's record, as a sentence for the operator."""

    game_id: int
    seq: int | None
    text: str

    def __str__(self) -> str:
        where = f"game #{self.game_id}" + (f", event {self.seq}" if self.seq is not None else "")
        return f"{where}: {self.text}"


class RecordMixin(StoreBase):
    # -- sealing ------------------------------------------------------------------------

    def seal_game(self, game_id: int) -> None:
        """Write the game's chain head and its seal (in the caller's transaction)."""
        with self.transaction():
            last = self._row("SELECT COUNT(*) AS n, MAX(seq) AS seq FROM events "
                             "WHERE game_id = ?", [game_id])
            count = int(last["n"]) if last else 0
            last_hash = ZERO_HASH
            if count:
                row = self._row("SELECT hash FROM events WHERE game_id = ? AND seq = ?",
                                [game_id, last["seq"] if last else 0])
                last_hash = row["hash"] if row else ZERO_HASH
            roster = self._roster(game_id)
            seal = _head_seal(self.secret, game_id, count, last_hash, roster)
            self.conn.execute(
                "INSERT OR REPLACE INTO chain_heads (game_id, events, last_hash, roster, seal) "
                "VALUES (?, ?, ?, ?, ?)", [game_id, count, last_hash, roster, seal])

    def seal_games(self) -> None:
        """Seal the list of every game's id (after a game is created)."""
        with self.transaction():
            ids = [int(r["id"]) for r in self._rows("SELECT id FROM games ORDER BY id")]
            listed = canonical_json(ids)
            self._set_meta("game_ids", listed)
            self._set_meta("games_seal", self.secret.mac("games", listed))

    def _roster(self, game_id: int) -> str:
        game = self._row("SELECT * FROM games WHERE id = ?", [game_id]) or {}
        players = self._rows("SELECT * FROM players WHERE game_id = ? ORDER BY seat", [game_id])
        setup = {
            "game": _fields(game, _GAME_FIELDS, _GAME_EXTRA),
            "players": [_fields(p, _PLAYER_FIELDS, _PLAYER_EXTRA) for p in players],
        }
        return hashlib.sha256(canonical_json(setup).encode("utf-8")).hexdigest()

    # -- meta ---------------------------------------------------------------------------

    def meta(self, name: str) -> str | None:
        row = self._row("SELECT value FROM meta WHERE name = ?", [name])
        return None if row is None else str(row["value"])

    def _set_meta(self, name: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?)",
                          [name, value])

    # -- checking -----------------------------------------------------------------------

    def verify_record(self, game_id: int) -> list[Problem]:
        """The game's hash chain, its sealed head and its setup and players."""
        return self._verify_rows(game_id, self._event_rows(game_id))

    def verified_events(self, game_id: int) -> tuple[list[dict[str, Any]], list[Problem]]:
        """Every event of the game in seq order, JSON decoded (``events``), and the
        problems of its record (``verify_record``), the events read once for both."""
        rows = self._event_rows(game_id)
        problems = self._verify_rows(game_id, rows)
        events = []
        for row in rows:
            try:
                events.append(decode_event(row))
            except ValueError:  # JSON columns changed outside pbem: nothing after can be read
                problems.append(Problem(game_id, int(row["seq"]), "its stored JSON does not "
                                        "decode: the record was changed outside pbem; the "
                                        "events from here on cannot be checked"))
                break
        return events, problems

    def _event_rows(self, game_id: int) -> list[dict[str, Any]]:
        """The game's event rows as stored, in seq order."""
        self._require_game(game_id)
        return self._rows("SELECT * FROM events WHERE game_id = ? ORDER BY seq", [game_id])

    def _verify_rows(self, game_id: int, rows: list[dict[str, Any]]) -> list[Problem]:
        problems = [Problem(game_id, seq, "its hash does not match the chain: the event was "
                            "changed, or an event before it deleted")
                    for seq in broken_links(rows, self.secret)]
        problems += self._verify_head(game_id, rows)
        earlier = self.meta(f"broken_before_keying:{game_id}")
        if earlier is not None:
            problems.append(Problem(game_id, int(earlier), "the record was already broken here "
                                    "when it was first keyed (migration 0004)"))
        return problems

    def _verify_head(self, game_id: int, rows: list[dict[str, Any]]) -> list[Problem]:
        head = self._row("SELECT * FROM chain_heads WHERE game_id = ?", [game_id])
        if head is None:
            return [Problem(game_id, None, "its sealed chain head is missing: the record was "
                            "changed outside pbem")]
        seal = _head_seal(self.secret, game_id, head["events"], head["last_hash"],
                          head["roster"])
        if not _same(seal, head["seal"]):
            return [Problem(game_id, None, "its chain head does not match its seal: the record "
                            "was changed outside pbem")]
        problems = []
        count, last_hash = len(rows), rows[-1]["hash"] if rows else ZERO_HASH
        if count < head["events"]:
            problems.append(Problem(game_id, count + 1, f"the record ends at event {count}, "
                                    f"but {head['events']} events were recorded: events were "
                                    "deleted"))
        elif count > head["events"]:
            problems.append(Problem(game_id, head["events"] + 1, f"{count} events, but "
                                    f"{head['events']} were recorded: events were added outside "
                                    "pbem"))
        elif not _same(last_hash, head["last_hash"]):
            problems.append(Problem(game_id, count, "the last event is not the one recorded"))
        if head["roster"] != self._roster(game_id):
            problems.append(Problem(game_id, None, "the game's settings or players (names, "
                                    "addresses, keys) were changed outside pbem"))
        return problems

    def verify_games(self) -> list[Problem]:
        """Every game listed in the sealed list of games exists, and no other."""
        listed = self.meta("game_ids")
        seal = self.meta("games_seal")
        ids = [int(r["id"]) for r in self._rows("SELECT id FROM games ORDER BY id")]
        if listed is None or seal is None or not _same(self.secret.mac("games", listed), seal):
            first = ids[0] if ids else 0
            return [Problem(first, None, "the sealed list of games is missing or was changed")]
        known = set(json.loads(listed))
        problems = [Problem(g, None, "the game was deleted from the database")
                    for g in sorted(known - set(ids))]
        problems += [Problem(g, None, "the game was added outside pbem")
                     for g in sorted(set(ids) - known)]
        return problems

    def game_ids(self) -> list[int]:
        return [int(r["id"]) for r in self._rows("SELECT id FROM games ORDER BY id")]


def _fields(row: dict[str, Any], fields: tuple[str, ...],
            extra: dict[str, Any]) -> dict[str, Any]:
    chosen = {k: row.get(k) for k in fields}
    chosen.update({k: row[k] for k, default in extra.items() if row.get(k, default) != default})
    return chosen


def _head_seal(secret: ServerSecret, game_id: int, events: int, last_hash: str,
               roster: str) -> str:
    return secret.mac("head", game_id, events, last_hash, roster)


def _same(a: object, b: object) -> bool:
    return isinstance(a, str) and isinstance(b, str) and hmac.compare_digest(
        a.encode("utf-8"), b.encode("utf-8"))
