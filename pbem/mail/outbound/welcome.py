"""The welcome mails of a new game: the rules of the house and each player's key."""

from __future__ import annotations

from typing import Any

from ... import service
from ...moderation.clock import schedule_of
from ...moderation.describe import DeadlineView
from ...moderation.timecalc import parse_moment
from ...store import Store, hash_key, new_player_key
from ..config import MailConfig
from .compose import queue_mail, subject_for, thread_root
from .notify import board_block, game_mail, prompt_block, referee_recipient
from .views import StateViews


def game_views(store: Store, game_id: int, now: str) -> StateViews:
    """The game now, with its deadlines, for mails that are not the answer to a move."""
    schedule = schedule_of(store, game_id)
    return StateViews(service.load(store, game_id), DeadlineView(schedule, parse_moment(now)))


def deadline_rule(views: StateViews) -> str:
    """One line of the house rules: the game's deadlines."""
    assert views.deadlines is not None
    moderation = views.deadlines.schedule.moderation
    if not moderation.has_deadlines:
        return "This game has no deadlines."
    return f"Deadlines: {moderation.describe()}."


def queue_welcome(store: Store, config: MailConfig, game_id: int, keys: dict[str, str],
                  now: str, referee_key: str | None = None,
                  takeover: dict[str, str] | None = None) -> list[str]:
    """Queue one welcome mail per player (``keys``: name -> the key just issued);
    the Message-IDs. The player to act first also finds the prompt in it.
    ``referee_key``: the referee's new key, mailed to the referee. ``takeover``: seat ->
    the summary of the game for a player who takes the seat over (a replacement)."""
    game = store.game(game_id)
    views = game_views(store, game_id, now)
    players = store.players(game_id)
    seats = ", ".join(p["name"] for p in players)
    ids = []
    with store.transaction():
        if referee_key is not None:
            ids.append(_referee_welcome(store, config, game, views, seats, referee_key, now))
        for player in players:
            if player["name"] not in keys:
                continue
            values: dict[str, object] = {
                "key": keys[player["name"]], "email": player["email"], "seats": seats,
                "lines_per_mail": config.limits.lines_per_mail,
                "board_section": _board_and_turn(views, player["name"]),
                "deadline_rule": deadline_rule(views),
                "takeover_section": (takeover or {}).get(player["name"], ""),
            }
            out = game_mail(config, game, player, views, "player-welcome.txt", "welcome", values,
                            subject_for(game["title"], game_id,
                                        f"Welcome to game #{game_id}, {player['name']}"))
            out.extra_references = [thread_root(config, game_id, "root")]
            ids.append(queue_mail(store, config, out, now))
    return ids


def _referee_welcome(store: Store, config: MailConfig, game: dict[str, Any],
                     views: StateViews, seats: str, key: str, now: str) -> str:
    """The referee's welcome: his key and his commands."""
    referee = referee_recipient(store.game(game["id"]))
    assert referee is not None
    out = game_mail(config, game, referee, views, "referee-welcome.txt", "welcome",
                    {"key": key, "email": referee["email"], "seats": seats,
                     "deadline_rule": deadline_rule(views)},
                    subject_for(game["title"], game["id"], f"You referee game #{game['id']}"))
    out.extra_references = [thread_root(config, game["id"], "root")]
    return queue_mail(store, config, out, now)


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
