"""Games and their players."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .base import StoreBase, canonical_json
from .errors import StoreError, UnknownGame, UnknownPlayer
from .keys import hash_key, reply_code

GAME_STATUSES = ("active", "paused", "finished")
NOTIFY_MODES = ("every", "round", "turn")
#: Each player's settings (columns of ``players``) and their values; None: any text
#: (``tz`` is checked by the caller, who knows the time zones).
PLAYER_SETTINGS: dict[str, tuple[str, ...] | None] = {
    "notify": NOTIFY_MODES,
    "mail": ("full", "compact"),
    "picture": ("on", "off"),
    "tz": None,
}


def _decode_game(row: dict[str, Any]) -> dict[str, Any]:
    row["options"] = json.loads(row["options"])
    return row


class GamesMixin(StoreBase):
    def create_game(
        self,
        title: str,
        options: Mapping[str, Any],
        seed: int,
        engine_version: str,
        rules_version: str,
        created: str,
        referee: str | None = None,
    ) -> int:
        """Record a new active game and return its id."""
        with self.transaction():
            table = self.db.table("games")
            table.insert(
                {
                    "title": title,
                    "options": canonical_json(dict(options)),
                    "seed": seed,
                    "engine_version": engine_version,
                    "rules_version": rules_version,
                    "status": "active",
                    "created": created,
                    "referee": referee,
                }
            )
            game_id = table.last_rowid
            assert game_id is not None
            self.seal_game(game_id)
            self.seal_games()
        return game_id

    def game(self, game_id: int) -> dict[str, Any]:
        """The game row with ``options`` decoded; ``UnknownGame`` if there is none."""
        row = self._row("SELECT * FROM games WHERE id = ?", [game_id])
        if row is None:
            raise UnknownGame(game_id)
        return _decode_game(row)

    def replace_options(self, game_id: int, options: Mapping[str, Any]) -> None:
        """Record other options for the game (as ``create_game`` writes them). Only for a
        game whose events so far decide the same under them: the importer, when a log's
        record turns out to need an older reading of the site (pbem.importer.replay)."""
        with self.transaction():
            self._require_game(game_id)
            self.conn.execute("UPDATE games SET options = ? WHERE id = ?",
                              [canonical_json(dict(options)), game_id])
            self.seal_game(game_id)

    def set_status(self, game_id: int, status: str) -> None:
        if status not in GAME_STATUSES:
            raise StoreError(
                f"A game cannot be {status!r}; it is one of {', '.join(GAME_STATUSES)}."
            )
        with self.transaction():
            self._require_game(game_id)
            self.conn.execute("UPDATE games SET status = ? WHERE id = ?", [status, game_id])
            self.seal_game(game_id)

    # -- players ------------------------------------------------------------

    def add_player(self, game_id: int, seat: int, name: str, email: str, key_hash: str) -> None:
        """Seat a player. Names are unique in a game, ignoring case."""
        with self.transaction():
            self._require_game(game_id)
            for player in self.players(game_id):
                if player["seat"] == seat:
                    raise StoreError(
                        f"Seat {seat} of game #{game_id} is already taken by {player['name']}."
                    )
                if player["name"].casefold() == name.casefold():
                    raise StoreError(
                        f"Game #{game_id} already has a player called {player['name']}; "
                        "please choose another name."
                    )
            self.db.table("players").insert(
                {
                    "game_id": game_id,
                    "seat": seat,
                    "name": name,
                    "email": email,
                    "key_hash": key_hash,
                    "notify": "every",
                }
            )
            self.seal_game(game_id)

    def players(self, game_id: int) -> list[dict[str, Any]]:
        """The players of a game, by seat."""
        return self._rows("SELECT * FROM players WHERE game_id = ? ORDER BY seat", [game_id])

    def players_by_email(self, email: str) -> list[dict[str, Any]]:
        """Every seat whose address of record is ``email`` (any case), in any game, with
        its game's title and status, newest game first."""
        return self._rows(
            """SELECT players.*, games.title AS title, games.status AS status
               FROM players JOIN games ON games.id = players.game_id
               WHERE lower(trim(players.email)) = ? ORDER BY players.game_id DESC""",
            [email.strip().lower()],
        )

    def player(self, game_id: int, seat: int) -> dict[str, Any]:
        row = self._row("SELECT * FROM players WHERE game_id = ? AND seat = ?", [game_id, seat])
        if row is None:
            self._require_game(game_id)
            raise UnknownPlayer(game_id, seat)
        return row

    def set_player_email(self, game_id: int, seat: int, email: str) -> None:
        self._update_player(game_id, seat, "email", email)

    def set_player_key_hash(self, game_id: int, seat: int, key_hash: str) -> None:
        self._update_player(game_id, seat, "key_hash", key_hash)

    def set_player_key(self, game_id: int, seat: int, key: str) -> None:
        """Give the player a new key (only its keyed hash is kept); the old key and the
        reply code made from it stop working."""
        self.set_player_key_hash(game_id, seat, self.key_hash(key))

    def key_hash(self, key: str) -> str:
        """What the store keeps of a player's key (an HMAC under the server secret)."""
        return hash_key(key, self.secret)

    def reply_code(self, player: Mapping[str, Any]) -> str:
        """The code in the player's reply address ``pbem+<game>.<code>@domain``."""
        return reply_code(self.secret, int(player["game_id"]), int(player["seat"]),
                          str(player["key_hash"]))

    def is_known_address(self, address: str) -> bool:
        """True when ``address`` (any case) is a player's address of record or a
        referee's, in any game."""
        row = self._row("SELECT 1 AS x FROM players WHERE lower(email) = ? UNION ALL "
                        "SELECT 1 FROM games WHERE lower(referee) = ? LIMIT 1",
                        [address.lower(), address.lower()])
        return row is not None

    def set_notify(self, game_id: int, seat: int, notify: str) -> None:
        self.set_player_setting(game_id, seat, "notify", notify)

    def set_player_setting(self, game_id: int, seat: int, name: str, value: str) -> None:
        """One of a player's settings (``PLAYER_SETTINGS``)."""
        if name not in PLAYER_SETTINGS:
            raise StoreError(
                f"A player has no setting {name!r}; the settings are "
                f"{', '.join(PLAYER_SETTINGS)}."
            )
        allowed = PLAYER_SETTINGS[name]
        if allowed is not None and value not in allowed:
            raise StoreError(
                f"The setting {name} may be {', '.join(allowed)}, not {value!r}."
            )
        self._update_player(game_id, seat, name, value)

    def _update_player(self, game_id: int, seat: int, column: str, value: str) -> None:
        with self.transaction():
            self.player(game_id, seat)  # raises if missing
            self.conn.execute(
                f"UPDATE players SET {column} = ? WHERE game_id = ? AND seat = ?",
                [value, game_id, seat],
            )
            self.seal_game(game_id)
