"""Which game a mail is for, and whether its sender is that game's player.

A mail counts as the player's when it comes from the player's address of
record AND carries the player's secret key: the reply address code
(``pbem+<game>.<code>@domain``, see ``compose.reply_tag``), the key itself in
the plus-address or the subject tag, or a ``key XXXX`` line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...store import Store, UnknownGame, check_key
from ...store.keys import KEY_LENGTH
from ..config import MailConfig
from ..outbound.compose import game_of_own_id, reply_tag
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


def game_by_key(store: Store, mail: InboundMail, key: str | None) -> int | None:
    """The game of a mail that names none (no reply address, tag or reference of ours)
    but comes from a player's address of record with his key on a ``key`` line."""
    if not key or not mail.from_addr:
        return None
    for player in store.players_by_email(mail.from_addr):
        if player["status"] == "active" and key_matches(player["game_id"], player, key):
            return int(player["game_id"])
    return None


def key_matches(game_id: int, player: dict[str, Any], key: str) -> bool:
    if key == reply_tag(game_id, player["seat"], player["key_hash"]):
        return True
    return len(key) == KEY_LENGTH and check_key(key, player["key_hash"])


def authenticate(store: Store, mail: InboundMail, game_id: int,
                 keys: list[str | None]) -> Sender:
    """The player (or the game's referee, as seat -1) whose address and key the mail
    carries; else why not, and whose address of record hears of it."""
    game = store.game(game_id)
    players = store.players(game_id)
    referee = referee_recipient(game)
    if referee is not None and referee["key_hash"]:
        players = [*players, referee]
    given = list(dict.fromkeys(k.lower() for k in keys if k))
    of_record = [p for p in players if p["email"].strip().lower() == mail.from_addr]
    for player in of_record:
        if any(key_matches(game_id, player, key) for key in given):
            if player.get("status") == "kicked":
                return Sender(None, f"the referee removed you from game #{game_id}; your "
                              "seat is played by the service now", notify=player)
            return Sender(player)
    former = _former_player(store, game_id, mail.from_addr)
    if former is not None and not of_record:
        return Sender(None, f"the referee gave your seat {former['player']} in game "
                      f"#{game_id} to another player; mail from you is no longer taken",
                      notify={"email": mail.from_addr, "name": former["player"], "seat": -1,
                              "key_hash": ""})
    if of_record:
        why = ("it carries no key" if not given else "the key in it is not yours")
        return Sender(None, f"{why}; a mail to the game needs your address and your key",
                      notify=of_record[0])
    for player in players:
        if any(key_matches(game_id, player, key) for key in given):
            return Sender(None, f"it came from {mail.from_addr or 'an unknown address'}, which "
                          f"is not your address of record, although it carries your key",
                          notify=player, leaked=True)
    return Sender(None, f"{mail.from_addr or 'the sender'} is not a player of game #{game_id}")
