"""Commands the service answers at any time, and the referee's commands."""

from __future__ import annotations

import re

from pbem.engine.actions import Action

from .context import ParseContext
from .errors import Unclear
from .grammar import Args, Handler, Slot, extra_word, fill
from .lexicon import HELP_TOPICS, canonical_verb
from .words import plain, player_prefix, whole

_NOTIFY_MODES = (
    ("round", {"round", "rounds", "digest", "daily"}),
    ("turn", {"turn", "turns", "mine", "own"}),
    ("every", {"every", "all", "each", "move", "moves", "everything", "always"}),
)
_SHOW_WORDS = frozenset(
    {"board", "map", "market", "all", "everything", "holdings", "status", "game", "me"}
)
_DURATION = re.compile(r"(?P<n>[0-9]{1,5})\s*(?P<unit>h|hr|hrs|hours?|d|days?)?", re.IGNORECASE)
_EMAIL = re.compile(r"[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+")
HISTORY_DEFAULT = 20


def say(text: str) -> Action:
    """say <text>: table talk, kept exactly as typed."""
    if not text:
        raise Unclear("'say' needs the words to pass on, like: say good luck everyone")
    return {"type": "say", "text": text}


def help_(args: Args, ctx: ParseContext) -> Action:
    """help | help bid | help buy train."""
    words = [w.lower() for w in plain(args.words, also={"on", "with", "for", "about"})]
    if not words:
        return {"type": "help", "topic": None}
    joined = " ".join(words)
    if joined in HELP_TOPICS:
        return {"type": "help", "topic": joined}
    verb = canonical_verb(words[0])
    if verb is not None and verb in HELP_TOPICS and len(words) == 1:
        return {"type": "help", "topic": verb}
    raise Unclear(
        f"there is no help on '{joined}'; 'help' alone lists the commands",
        word=joined,
        vocabulary=list(HELP_TOPICS),
    )


def show(args: Args, ctx: ParseContext) -> Action:
    """show (board, market and holdings)."""
    for word in plain(args.words):
        if word.lower() not in _SHOW_WORDS:
            raise Unclear(f"'show' shows everything; leave out '{word}'", suggestions=["show"])
    return {"type": "show"}


_RANGE = re.compile(r"#?(?P<first>[0-9]{1,7})\s*(?:-|to|\.\.)\s*#?(?P<last>[0-9]{1,7})",
                    re.IGNORECASE)


def history(args: Args, ctx: ParseContext) -> Action:
    """history | history 20 (the last events) | history 120-180 (events 120 to 180)."""
    words = plain(args.words, also={"last", "events", "moves", "lines", "from", "of"})
    span = _RANGE.fullmatch(" ".join(words))
    if span is not None:
        first, last = int(span["first"]), int(span["last"])
        if first < 1 or last < first:
            raise Unclear("write the events in order, like history 120-180")
        return {"type": "history", "count": None, "first": first, "last": last}
    slots = [Slot("count", lambda w: whole(w, "the number of events"), _not_count)]
    count = fill(words, slots, "history 20").get("count", HISTORY_DEFAULT)
    return {"type": "history", "count": count}


def _not_count(word: str) -> Unclear:
    return Unclear(f"'{word}' is not a number of events; write it as history 20")


def notify(args: Args, ctx: ParseContext) -> Action:
    """notify every | notify round | notify turn."""
    words = {w.lower() for w in plain(args.words, also={"me", "on", "per", "of", "my", "at"})}
    for mode, spellings in _NOTIFY_MODES:
        if words & spellings:
            return {"type": "notify", "mode": mode}
    raise Unclear("say how often: notify every (move), notify round or notify turn")


# referee


def revert(args: Args, ctx: ParseContext) -> Action:
    """revert to 123 (undo everything after event 123)."""
    words = plain(args.words, also={"to", "event", "seq", "number"})
    slots = [
        Slot(
            "seq",
            lambda w: whole(w, "an event number", least=0),
            _not_event,
            "say the event number",
        )
    ]
    return {"type": "revert", "seq": fill(words, slots, "revert to 123")["seq"]}


def _not_event(word: str) -> Unclear:
    return Unclear(f"'{word}' is not an event number; write it as revert to 123")


def replace(args: Args, ctx: ParseContext) -> Action:
    """replace Alice with Ben ben@example.org (or: with ben@example.org, the seat's name
    kept for the new player)."""
    words = [w for w in args.words if w != ","]
    player, size = player_prefix(_until(words, {"with", "by"}), ctx)
    rest = [w for w in words[size:] if w.lower() not in {"with", "by"}]
    if not rest:
        raise Unclear("write it as replace Alice with Ben ben@example.org")
    email = rest[-1].removeprefix("mailto:").strip("<>")
    if _EMAIL.fullmatch(email) is None:
        raise Unclear(f"'{rest[-1]}' is not an email address; write it as replace Alice "
                      "with Ben ben@example.org")
    person = " ".join(rest[:-1]).strip() or None
    if person is not None and not person.replace(" ", "").replace("-", "").isalnum():
        raise Unclear(f"'{person}' is not a usable name; use letters and digits")
    return {"type": "replace", "player": player, "person": person, "email": email}


def _until(words: list[str], stops: set[str]) -> list[str]:
    lowered = [w.lower() for w in words]
    ends = [lowered.index(stop) for stop in stops if stop in lowered]
    return words[: min(ends)] if ends else words


def deadline(args: Args, ctx: ParseContext) -> Action:
    """deadline 72h | deadline 3d | deadline 48 hours | deadline off."""
    text = " ".join(plain(args.words))
    if text.lower() in ("off", "none", "no"):
        return {"type": "deadline", "hours": None}
    return {"type": "deadline", "hours": _hours(text, "deadline 72h or deadline 3d")}


def extend(args: Args, ctx: ParseContext) -> Action:
    """extend Alice 24h | extend Alice by 2 days."""
    words = [w for w in plain(args.words, also={"by", "for"})]
    player, size = player_prefix(_until(words, {w for w in words if w[:1].isdigit()}), ctx)
    return {"type": "extend", "player": player,
            "hours": _hours(" ".join(words[size:]), "extend Alice 24h")}


def _hours(text: str, example: str) -> int:
    """Whole hours in ``72h``, ``3d``, ``48 hours`` (at least one)."""
    match = _DURATION.fullmatch(text)
    if match is None:
        raise Unclear(f"write the time in hours or days, like {example}")
    hours = int(match["n"]) * (24 if (match["unit"] or "h").lower().startswith("d") else 1)
    if hours <= 0:
        raise Unclear("the time must be at least 1 hour")
    return hours


_AWAY_UNTIL = re.compile(
    r"(?:until|till|til|to)\s+(?P<date>\d{4}-\d{1,2}-\d{1,2})(?:[ T](?P<time>\d{1,2}:\d{2}))?"
    r"(?P<reason>.*)", re.IGNORECASE | re.DOTALL)
_AWAY_FOR = re.compile(r"(?:for\s+)?(?P<n>[0-9]{1,3})\s*(?P<unit>d|days?|h|hours?)\b"
                       r"(?P<reason>.*)", re.IGNORECASE | re.DOTALL)


def away(text: str) -> Action:
    """away until 2026-12-24 [reason] | away until 2026-12-24 18:00 [reason] |
    away for 5d [reason]: the rest of the line is the reason, as written."""
    text = text.strip()
    until = _AWAY_UNTIL.fullmatch(text)
    if until is not None:
        moment = until["date"] + (f" {until['time']}" if until["time"] else "")
        return {"type": "away", "until": moment, "hours": None,
                "reason": _reason(until["reason"])}
    spell = _AWAY_FOR.fullmatch(text)
    if spell is not None:
        hours = int(spell["n"]) * (24 if spell["unit"].lower().startswith("d") else 1)
        if hours <= 0:
            raise Unclear("be away at least 1 hour")
        return {"type": "away", "until": None, "hours": hours,
                "reason": _reason(spell["reason"])}
    raise Unclear("say until when, like away until 2026-12-24 holiday (or away for 5d)")


def _reason(text: str) -> str:
    return " ".join(text.strip(" ,:;-.").split())


def back(args: Args, ctx: ParseContext) -> Action:
    """back (from an absence)."""
    words = plain(args.words, also={"again", "now", "i", "am", "i'm", "home"})
    if words:
        raise extra_word(words[0], "back")
    return {"type": "back"}


def listing(args: Args, ctx: ParseContext) -> Action:
    """list (my games and their state)."""
    words = plain(args.words, also={"my", "games", "game", "all"})
    if words:
        raise extra_word(words[0], "list")
    return {"type": "list"}


def answer(kind: str) -> Handler:
    """accept / decline (an offer made to you); accept undo / decline undo (a player's
    request to take moves back)."""
    def handle(args: Args, ctx: ParseContext) -> Action:
        words = [w.lower() for w in plain(args.words, also={"it", "offer", "that", "the"})]
        if words in (["undo"], ["to", "undo"], ["request"], ["undo", "request"]):
            return {"type": "undo_answer", "answer": kind}
        for word in words:
            raise Unclear(f"'{args.verb}' takes nothing after it, not '{word}' (or: "
                          f"{kind} undo)", suggestions=[kind, f"{kind} undo"])
        return {"type": kind}

    return handle


def kick(args: Args, ctx: ParseContext) -> Action:
    """kick Alice."""
    words = plain(args.words)
    player, size = player_prefix(words, ctx)
    if size != len(words):
        raise extra_word(words[size], "kick Alice")
    return {"type": "kick", "player": player}


def end(args: Args, ctx: ParseContext) -> Action:
    """end turn = pass ('end' alone ends the commands of a mail); end game: the referee
    ends the game now, with everybody's score as it stands."""
    words = [w.lower() for w in plain(args.words, also={"my", "our", "the", "now"})]
    if words == ["turn"]:
        return {"type": "pass"}
    if words == ["game"]:
        return {"type": "end_game"}
    raise Unclear(
        "to end your turn write 'done' ('end' alone marks the end of your commands)",
        suggestions=["done"],
    )
