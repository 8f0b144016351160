"""Which game a mail is for, and whether its sender is that game's player.

A mail counts as the player's when it comes from the player's address of
record AND carries the player's secret key: the reply address code
(``pbem+<game>.<code>@domain``, see ``store.keys.reply_code``), the key itself in
the plus-address or the subject tag, or a ``key XXXX`` line. One key is checked per
mail, with one keyed hash (no slow hash a stranger could make the server compute).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...store import Store, UnknownGame
from ...store.keys import (
    KEY_LENGTH,
    digest_matches,
    key_digest,
    normalize_key,
    reply_code_matches,
)
from ..config import MailConfig
from ..outbound.compose import game_of_own_id
from ..outbound.notify import referee_recipient
from .mime import InboundMail
from .routing import find_plus_address, referenced_ids, subject_tag

REPLACED = "replace"


def _former_player(store: Store, game_id: int, address: str) -> dict[str, Any] | None:
    """The replace event that took a seat from ``address``, if any."""
    for event in reversed(store.events_of_kind(game_id, ("moderation",))):
        command = event["command"]
        if command.get("type") == REPLACED and \
                str(command.get("old_email", "")).strip().lower() == address:
            return dict(command)
    return None


@dataclass(frozen=True)
class Sender:
    player: dict[str, Any] | None  # the authenticated player, or None
    reason: str = ""  # why not, for the rejection reply
    notify: dict[str, Any] | None = None  # whose address of record hears of a rejection
    #: the player's key came from another address: the reply address has leaked
    leaked: bool = False


def _exists(store: Store, game_id: int) -> bool:
    try:
        store.game(game_id)
    except UnknownGame:
        return False
    return True


def find_game(store: Store, config: MailConfig, mail: InboundMail) -> tuple[int, str | None] | None:
    """(game id, key or code from the plus-address) by plus-address, subject tag, or
    a reference to one of our mails, in that order; None when nothing matches."""
    plus = find_plus_address(mail, config.local_part, config.mail_domain)
    if plus is not None and _exists(store, plus[0]):
        return plus
    tagged = subject_tag(mail.subject)
    if tagged is not None and _exists(store, tagged):
        return tagged, None
    for mid in referenced_ids(mail):
        row = store.outbox_by_message_id(mid)
        game_id = row["game_id"] if row else game_of_own_id(config, mid)
        if game_id is not None and _exists(store, game_id):
            return int(game_id), None
    return None


def first_key(keys: list[str | None]) -> str | None:
    """The one key a mail is checked with: the first given, in the order of the
    caller's list (plus-address, subject tag, key line)."""
    return next((key.lower() for key in keys if key), None)


def key_holders(store: Store, game_id: int, players: list[dict[str, Any]],
                key: str | None) -> list[dict[str, Any]]:
    """The players whose reply code or key ``key`` is: one keyed hash of the key, then
    constant-time comparisons, whatever the number of players."""
    if not key:
        return []
    digest = key_digest(key, store.secret) if _could_be_key(key) else None
    return [p for p in players
            if reply_code_matches(key, store.secret, game_id, p["seat"], p["key_hash"])
            or (digest is not None and digest_matches(digest, p["key_hash"]))]


def _could_be_key(key: str) -> bool:
    return len(normalize_key(key)) == KEY_LENGTH


def game_by_key(store: Store, mail: InboundMail, key: str | None) -> int | None:
    """The game of a mail that names none (no reply address, tag or reference of ours)
    but comes from a player's address of record with his key on a ``key`` line (one
    keyed hash of the key, whatever the number of his games)."""
    if not key or not mail.from_addr:
        return None
    active = [p for p in store.players_by_email(mail.from_addr) if p["status"] == "active"]
    digest = key_digest(key, store.secret) if _could_be_key(key) else None
    for player in active:
        if digest is not None and digest_matches(digest, player["key_hash"]):
            return int(player["game_id"])
    return None


def authenticate(store: Store, mail: InboundMail, game_id: int,
                 keys: list[str | None]) -> Sender:
    """The player (or the game's referee, as seat -1) the mail is from, or why not and
    whom to tell. At most one key is checked per mail (the first one given), and the
    address of record first."""
    game = store.game(game_id)
    players = store.players(game_id)
    referee = referee_recipient(game)
    if referee is not None and referee["key_hash"]:
        players = [*players, referee]
    key = first_key(keys)
    of_record = [p for p in players
                 if mail.from_addr and p["email"].strip().lower() == mail.from_addr]
    mine = key_holders(store, game_id, of_record, key) if of_record else []
    if mine and mine[0].get("status") == "kicked":
        return Sender(None, f"the referee removed you from game #{game_id}; your seat "
                      "is played by the service now", notify=mine[0])
    if mine:
        return Sender(mine[0])
    former = None if of_record else _former_player(store, game_id, mail.from_addr)
    if former is not None:
        return Sender(None, f"the referee gave your seat {former['player']} in game "
                      f"#{game_id} to another player; mail from you is no longer taken",
                      notify={"email": mail.from_addr, "name": former["player"], "seat": -1,
                              "key_hash": ""})
    if of_record:
        why = ("it carries no key" if not key else "the key in it is not yours")
        return Sender(None, f"{why}; a mail to the game needs your address and your key",
                      notify=of_record[0])
    holders = key_holders(store, game_id, players, key)
    if holders:
        return Sender(None, f"it came from {mail.from_addr or 'an unknown address'}, which "
                      f"is not your address of record, although it carries your key",
                      notify=holders[0], leaked=True)
    return Sender(None, f"{mail.from_addr or 'the sender'} is not a player of game #{game_id}")
