"""The welcome mails of a new game: the rules of the house and each player's key."""

from __future__ import annotations

from ... import service
from ...store import Store, hash_key, new_player_key
from ..config import MailConfig
from .compose import queue_mail, subject_for, thread_root
from .notify import board_block, game_mail, prompt_block
from .views import StateViews


def queue_welcome(store: Store, config: MailConfig, game_id: int, keys: dict[str, str],
                  now: str) -> list[str]:
    """Queue one welcome mail per player (``keys``: name -> the key just issued);
    the Message-IDs. The player to act first also finds the prompt in it."""
    game = store.game(game_id)
    views = StateViews(service.load(store, game_id))
    players = store.players(game_id)
    seats = ", ".join(p["name"] for p in players)
    ids = []
    with store.transaction():
        for player in players:
            if player["name"] not in keys:
                continue
            values: dict[str, object] = {
                "key": keys[player["name"]], "email": player["email"], "seats": seats,
                "lines_per_mail": config.limits.lines_per_mail,
                "board_section": _board_and_turn(views, player["name"]),
            }
            out = game_mail(config, game, player, views, "player-welcome.txt", "welcome", values,
                            subject_for(game["title"], game_id,
                                        f"Welcome to game #{game_id}, {player['name']}"))
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
            store.set_player_key_hash(game_id, player["seat"], hash_key(key))
            keys[player["name"]] = key
    return keys
