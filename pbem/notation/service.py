"""Commands the service answers at any time, and the referee's commands."""

from __future__ import annotations

import re

from pbem.engine.actions import Action

from .context import ParseContext
from .errors import Unclear
from .grammar import Args, Handler, Slot, extra_word, fill
from .lexicon import GUIDE_PARTS, HELP_TOPICS, canonical_verb
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


_PRIVATE = re.compile(r"to\s+(?P<names>[^:]+?)\s*:\s*(?P<text>.*)", re.IGNORECASE | re.DOTALL)


def say(text: str, ctx: ParseContext | None = None) -> Action:
    """say <text>: table talk to everybody, kept exactly as typed; say to Bob: <text>
    (or to Bob, Cat: ...) reaches only those named."""
    if not text:
        raise Unclear("'say' needs the words to pass on, like: say good luck everyone")
    private = _PRIVATE.fullmatch(text) if ctx is not None else None
    if private is not None:
        names = [n for n in re.split(r"\s*(?:,|\band\b)\s*", private["names"]) if n]
        found = [ctx.player(n) for n in names] if ctx is not None else []
        if names and all(found):
            if not private["text"].strip():
                raise Unclear("say what to pass on: say to Bob: shall we team up?")
            return {"type": "say", "text": private["text"].strip(),
                    "to": list(dict.fromkeys(n for n in found if n))}
    return {"type": "say", "text": text}


def help_(args: Args, ctx: ParseContext) -> Action:
    """help | help bid | help buy train."""
    words = [w.lower() for w in plain(args.words, also={"on", "with", "for", "about"})]
    if not words:
        return {"type": "help", "topic": None}
    joined = " ".join(words)
    if joined in HELP_TOPICS or joined in GUIDE_PARTS:
        return {"type": "help", "topic": joined}
    verb = canonical_verb(words[0])
    if verb is not None and verb in HELP_TOPICS and len(words) == 1:
        return {"type": "help", "topic": verb}
    raise Unclear(
        f"there is no help on '{joined}'; 'help' alone lists the commands",
        word=joined,
        vocabulary=[*HELP_TOPICS, *GUIDE_PARTS],
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
    """kick Alice (the name as it is: a player may be called A)."""
    words = [w for w in args.words if w != ","]
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


# standing orders and settings

_SOURCES = {"ipo": "ipo", "initial": "ipo", "offering": "ipo", "pool": "pool", "market": "pool",
            "bank": "pool"}
_PERCENT = re.compile(r"(?P<n>[0-9]{1,3})\s*%?")


def auto(args: Args, ctx: ParseContext) -> Action:
    """auto | auto pass | auto cancel | auto buy PRR [ipo|pool] [until 60%]."""
    words = [w for w in plain(args.words, also={"from", "the", "share", "shares", "one"})]
    lowered = [w.lower() for w in words]
    if not words:
        return {"type": "auto"}
    if lowered in (["pass"], ["done"]):
        return {"type": "auto", "order": "pass"}
    if lowered[0] in ("cancel", "off", "stop", "none", "clear") and len(words) == 1:
        return {"type": "auto", "cancel": True}
    if lowered[0] == "buy":
        return _auto_buy(words[1:], ctx)
    raise Unclear("a standing order is auto pass, auto buy PRR until 60%, auto cancel, or "
                  "auto alone (your orders)", suggestions=["auto pass", "auto cancel"])


def _auto_buy(words: list[str], ctx: ParseContext) -> Action:
    usage = "auto buy PRR until 60%"
    order: Action = {"type": "auto", "order": "buy"}
    at = 0
    while at < len(words):
        word, lowered = words[at], words[at].lower()
        if "corp" not in order and ctx.corporation(word) is not None:
            order["corp"] = ctx.corporation(word)
        elif lowered in _SOURCES and "source" not in order:
            order["source"] = _SOURCES[lowered]
        elif lowered in ("until", "to", "upto", "till") and at + 1 < len(words):
            order["until"] = _percent(words[at + 1], usage)
            at += 1
        elif _PERCENT.fullmatch(word) and "until" not in order:
            order["until"] = _percent(word, usage)
        else:
            raise Unclear(f"'{word}' does not belong in a standing order; write it as {usage}"
                          " (or auto buy PRR pool until 60%)", word=word,
                          vocabulary=ctx.corporation_symbols)
        at += 1
    if "corp" not in order:
        raise Unclear(f"say which corporation: {usage}")
    return order


def _percent(word: str, usage: str) -> int:
    match = _PERCENT.fullmatch(word)
    if match is None or not 10 <= int(match["n"]) <= 100:
        raise Unclear(f"'{word}' is not a share of a corporation in percent; write it as {usage}")
    return int(match["n"])


def mail(args: Args, ctx: ParseContext) -> Action:
    """mail compact | mail full."""
    words = {w.lower() for w in plain(args.words, also={"me", "please"})}
    for mode in ("compact", "full"):
        if words == {mode} or words == {mode, "mail"}:
            return {"type": "mail", "mode": mode}
    if words & {"short", "small", "brief"}:
        return {"type": "mail", "mode": "compact"}
    raise Unclear("say which mail you want: mail compact (results, prompt, your holdings) or "
                  "mail full (also the board, the market and the map)",
                  suggestions=["mail compact", "mail full"])


def picture(args: Args, ctx: ParseContext) -> Action:
    """picture on | picture off (the map as an image in full mails)."""
    words = {w.lower() for w in plain(args.words)}
    if words <= {"on", "yes", "show"} and words:
        return {"type": "picture", "on": True}
    if words <= {"off", "no", "none", "hide"} and words:
        return {"type": "picture", "on": False}
    raise Unclear("write picture on or picture off", suggestions=["picture on", "picture off"])


def tz(args: Args, ctx: ParseContext) -> Action:
    """tz Europe/Berlin (a time zone by its IANA name; tz UTC)."""
    words = plain(args.words, also={"is", "to", "="})
    if len(words) != 1 or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_+\-/]{1,40}", words[0]):
        raise Unclear("name your time zone like tz Europe/Berlin or tz America/New_York",
                      suggestions=["tz UTC"])
    return {"type": "tz", "zone": words[0]}


def key(args: Args, ctx: ParseContext) -> Action:
    """key new: a new key and reply address (the old ones refused from then on)."""
    words = [w.lower() for w in plain(args.words, also={"a", "please", "me"})]
    if words == ["new"]:
        return {"type": "key", "new": True}
    raise Unclear("key new asks for a new key and reply address; a line key XXXXXXXX gives "
                  "your key with your commands", suggestions=["key new"])
