"""The sender's own settings: what mail he gets, his time zone, his key.

Each change is an event of kind ``setting`` on the game's record (its player's alone:
the others never see it) and the player's row in the store (what the service reads).
``key new`` replaces the key: the event says so (the key itself is never recorded),
and the new key and reply address are mailed to the address of record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from ...orders import current_orders
from ...service import CommandError
from ...store import new_player_key
from ..outbound.templates import wrap_paragraph
from .units import Action, MailCommand

if TYPE_CHECKING:
    from .turn import MailTurn

NOTIFY_WORDS = {
    "every": "a mail after every move",
    "round": "one digest mail per round, and your turns",
    "turn": "mail only when it is your turn",
}
MAIL_WORDS = {
    "full": "your mails show the board, the market and the map",
    "compact": "your mails show the results, what you may do, what happened since your "
               "last turn and your holdings; show sends the board, the market and the map",
}
PICTURE_WORDS = {
    "on": "full mails carry the map as a picture",
    "off": "full mails carry the map as text only",
}


def record(turn: MailTurn, actor: str, name: str, value: str, text: str) -> int:
    """The setting's event and the player's row; the event's seq."""
    seq = turn.store.last_seq(turn.game_id) + 1
    turn.store.append_event(turn.game_id, seq, kind="setting",
                            command={"type": "setting", "name": name, "value": value},
                            text=text, actor=actor, source=turn.source, received=turn.now,
                            facts=[], log=[f"{actor}: {text}"])
    if name != "key":
        turn.store.set_player_setting(turn.game_id, seat_of(turn, actor), name, value)
    return seq


def seat_of(turn: MailTurn, name: str) -> int:
    return next(p["seat"] for p in turn.store.players(turn.game_id) if p["name"] == name)


def notify(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    mode = action["mode"]
    seq = record(turn, actor, "notify", mode, f"notify {mode}")
    turn.results.append(f"[{seq}] notify {mode}: from now on you get {NOTIFY_WORDS[mode]}.")


def mail(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    mode = action["mode"]
    seq = record(turn, actor, "mail", mode, f"mail {mode}")
    turn.results.append(f"[{seq}] mail {mode}: from now on {MAIL_WORDS[mode]}.")


def picture(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    value = "on" if action["on"] else "off"
    seq = record(turn, actor, "picture", value, f"picture {value}")
    turn.results.append(f"[{seq}] picture {value}: {PICTURE_WORDS[value]}.")


def tz(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    zone = time_zone(action["zone"])
    if zone is None:
        raise CommandError(command, f"'{action['zone']}' is not a time zone; name it as in "
                           "tz Europe/Berlin, tz America/New_York or tz UTC.", [])
    seq = record(turn, actor, "tz", zone, f"tz {zone}")
    turn.results.append(f"[{seq}] tz {zone}: your time zone is {zone}.")


def time_zone(name: str) -> str | None:
    """The IANA time zone ``name`` names (any case), or None."""
    if name.upper() in ("UTC", "GMT", "Z"):
        return "UTC"
    wanted = name.casefold()
    found = next((z for z in available_timezones() if z.casefold() == wanted), None)
    if found is None:
        return None
    try:
        ZoneInfo(found)
    except (ZoneInfoNotFoundError, ValueError):
        return None
    return found


def key(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    """A new key: the old key and the old reply address are refused from now on."""
    new = new_player_key()
    turn.store.set_player_key(turn.game_id, seat_of(turn, actor), new)
    seq = record(turn, actor, "key", "new", "key new")
    turn.new_keys[actor] = new
    turn.results.append(f"[{seq}] key new: your new key and reply address are mailed to "
                        "your address of record; the old ones are refused from now on.")


def settings(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    player = next(p for p in turn.store.players(turn.game_id) if p["name"] == actor)
    order = current_orders(turn.store.events_of_kind(turn.game_id, ("order",))).get(actor)
    rows = [
        ("notify " + player["notify"], NOTIFY_WORDS[player["notify"]]),
        ("mail " + player["mail"], MAIL_WORDS[player["mail"]]),
        ("picture " + player["picture"], PICTURE_WORDS[player["picture"]]),
        ("tz " + player["tz"], "your time zone"),
        (order.text if order else "auto", "your standing order" if order else
         "no standing order"),
    ]
    lines = [f"Your settings in this game ({player['email']}):"]
    lines += [f"  {setting:<22} {meaning}" for setting, meaning in rows]
    lines.append("Change one by writing it, e.g. notify turn, mail compact, picture off, "
                 "tz Europe/Berlin; key new gives you a new key and reply address.")
    turn.answers.append("\n".join(wrap_paragraph(line) for line in lines))


SETTINGS = "Settings"
UNITS = [
    MailCommand("settings", SETTINGS, "settings", "lists your settings and standing order.",
                ("settings",), settings),
    MailCommand("notify", SETTINGS, "notify every|round|turn",
                "what you get of other players' moves: notify every (a mail after each "
                "move, the default), notify round (one digest a round), notify turn (only "
                "your own turns). Your turns are always mailed.", ("notify",), notify,
                also="`notify all`, `notify me every round`, `notify my turn`"),
    MailCommand("mail", SETTINGS, "mail compact|full",
                "mail compact: your mails show the results, what you may do, what happened "
                "since your last turn and your holdings (show sends the board, the market "
                "and the map); mail full (the default): also the board, the market and the "
                "map.", ("mail",), mail, also="`mail short`"),
    MailCommand("picture", SETTINGS, "picture on|off",
                "whether a full mail carries the map as a picture (on, the default) or as "
                "text only.", ("picture",), picture),
    MailCommand("tz", SETTINGS, "tz Europe/Berlin",
                "your time zone, by its name (tz America/New_York, tz UTC, the default), "
                "for the times your mails show.", ("tz",), tz, also="`timezone Europe/Berlin`"),
    MailCommand("key", SETTINGS, "key new",
                "a new key and reply address, mailed to your address of record; the old "
                "ones are refused from then on (if a game mail of yours was forwarded, or a "
                "stranger used your reply address). A line key XXXXXXXX with your commands "
                "gives your key where a mail has no reply address.", ("key",), key),
]
