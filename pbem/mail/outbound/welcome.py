"""The welcome mails of a new game (the rules of the house and each player's key), and
new keys for the players of a database written before keys were keyed (the mail
service issues them when it starts, see ``reissue_legacy_keys``)."""

from __future__ import annotations

import logging
from typing import Any

from ... import service
from ...moderation.clock import schedule_of
from ...moderation.describe import DeadlineView
from ...moderation.timecalc import parse_moment
from ...render.options import options_text
from ...store import Store, new_player_key
from ...store.keys import is_legacy_hash
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
    seats = ", ".join(p["name"] for p in store.players(game_id))
    game = store.game(game_id)
    ids = []
    with store.transaction():
        if referee_key is not None:
            views = game_views(store, game_id, now)
            ids.append(_referee_welcome(store, config, game, views, seats, referee_key, now))
        ids += queue_key_mails(store, config, game_id, keys, now, "player-welcome.txt",
                               "welcome", "Welcome to game #{game}, {name}",
                               {"seats": seats, "lines_per_mail": config.limits.lines_per_mail,
                                "options_section": options_text(game["title"],
                                                                game["options"])},
                               takeover)
    return ids


def queue_key_mails(store: Store, config: MailConfig, game_id: int, keys: dict[str, str],
                    now: str, template: str, purpose: str, subject: str,
                    values: dict[str, object],
                    takeover: dict[str, str] | None = None) -> list[str]:
    """One mail per player named in ``keys`` (name -> key) with his key, the game now and
    the commands when it is his turn; ``subject`` may name {game} and {name}. Only the
    headers of these mails are kept once sent (compose.KEY_PURPOSES). ``takeover``: name
    -> the summary of the game for a player who takes the seat over."""
    game = store.game(game_id)
    views = game_views(store, game_id, now)
    ids = []
    with store.transaction():
        for player in store.players(game_id):
            if player["name"] not in keys:
                continue
            mine: dict[str, object] = {
                **values, "key": keys[player["name"]], "email": player["email"],
                "board_section": _board_and_turn(views, player["name"]),
                "deadline_rule": deadline_rule(views),
                "takeover_section": (takeover or {}).get(player["name"], ""),
            }
            out = game_mail(config, game, player, views, template, purpose, mine,
                            subject_for(game["title"], game_id,
                                        subject.format(game=game_id, name=player["name"])))
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
