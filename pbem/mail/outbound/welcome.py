"""The welcome mails of a new game (the rules of the house and each player's key), and
new keys for the players of a database written before keys were keyed (the mail
service issues them when it starts, see ``reissue_legacy_keys``)."""

from __future__ import annotations

import logging

from ... import service
from ...store import Store, new_player_key
from ...store.keys import is_legacy_hash
from ..config import MailConfig
from .compose import queue_mail, subject_for, thread_root
from .notify import board_block, game_mail, prompt_block
from .views import StateViews


def queue_welcome(store: Store, config: MailConfig, game_id: int, keys: dict[str, str],
                  now: str) -> list[str]:
    """Queue one welcome mail per player (``keys``: name -> the key just issued);
    the Message-IDs. The player to act first also finds the prompt in it."""
    seats = ", ".join(p["name"] for p in store.players(game_id))
    return queue_key_mails(store, config, game_id, keys, now, "player-welcome.txt", "welcome",
                           "Welcome to game #{game}, {name}",
                           {"seats": seats, "lines_per_mail": config.limits.lines_per_mail})


def queue_key_mails(store: Store, config: MailConfig, game_id: int, keys: dict[str, str],
                    now: str, template: str, purpose: str, subject: str,
                    values: dict[str, object]) -> list[str]:
    """One mail per player named in ``keys`` (name -> key) with his key, the game now and
    the commands when it is his turn; ``subject`` may name {game} and {name}. Only the
    headers of these mails are kept once sent (compose.KEY_PURPOSES)."""
    game = store.game(game_id)
    views = StateViews(service.load(store, game_id))
    ids = []
    with store.transaction():
        for player in store.players(game_id):
            if player["name"] not in keys:
                continue
            mine: dict[str, object] = {
                **values, "key": keys[player["name"]], "email": player["email"],
                "board_section": _board_and_turn(views, player["name"]),
            }
            out = game_mail(config, game, player, views, template, purpose, mine,
                            subject_for(game["title"], game_id,
                                        subject.format(game=game_id, name=player["name"])))
            out.extra_references = [thread_root(config, game_id, "root")]
            ids.append(queue_mail(store, config, out, now))
    return ids


def _board_and_turn(views: StateViews, name: str) -> str:
    view = views.view(name)
    prompt = prompt_block(view)
    turn = f"It is your turn first.\n{prompt}" if prompt else ""
    return board_block(view) + "\n" + turn


def reissue_keys(store: Store, game_id: int) -> dict[str, str]:
    """New keys for every player of a game (the old ones stop working); name -> key."""
    keys: dict[str, str] = {}
    with store.transaction():
        for player in store.players(game_id):
            key = new_player_key()
            store.set_player_key(game_id, player["seat"], key)
            keys[player["name"]] = key
    return keys


log = logging.getLogger("pbem.mail")


def reissue_legacy_keys(store: Store, config: MailConfig, now: str) -> dict[tuple[int, str], str]:
    """New keys for the players whose key was stored before the server secret (an
    8-character key, hashed without it, and a reply code anyone with the database
    could compute): each gets a mail with the new key and the game now. Mails still
    waiting to be sent with an old reply address are not sent (the new mail
    replaces them). Returns {(game id, name): key}; {} when there is nothing to do."""
    issued: dict[tuple[int, str], str] = {}
    with store.transaction():
        for game_id in store.game_ids():
            players = [p for p in store.players(game_id) if is_legacy_hash(p["key_hash"])]
            if not players:
                continue
            keys = {}
            for player in players:
                keys[player["name"]] = key = new_player_key()
                store.set_player_key(game_id, player["seat"], key)
                issued[(game_id, player["name"])] = key
            _drop_stale_mail(store, config, game_id)
            _queue_new_keys(store, config, game_id, keys, now)
    if issued:
        log.warning("issued new keys to %d players of databases written before keyed keys",
                    len(issued))
    return issued


def _drop_stale_mail(store: Store, config: MailConfig, game_id: int) -> None:
    marker = f"{config.local_part}+{game_id}.".encode()
    for row in store.outbox_list("pending", 100_000):
        if row["game_id"] == game_id and marker in bytes(store.outbox_get(row["id"])["raw"]):
            store.outbox_mark_failed(row["id"], "not sent: written with a reply address from "
                                     "before the new keys; the mail with the new key "
                                     "replaces it")


def _queue_new_keys(store: Store, config: MailConfig, game_id: int, keys: dict[str, str],
                    now: str) -> None:
    queue_key_mails(store, config, game_id, keys, now, "player-keys-replaced.txt", "key",
                    "Your new key for game #{game}, {name}", {})
