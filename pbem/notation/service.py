"""Commands the service answers at any time, and the referee's commands."""

from __future__ import annotations

import re

from pbem.engine.actions import Action

from .context import ParseContext
from .errors import Unclear
from .grammar import Args, Slot, extra_word, fill
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


def history(args: Args, ctx: ParseContext) -> Action:
    """history | history 20 (the last events)."""
    words = plain(args.words, also={"last", "events", "moves", "lines"})
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
    """replace Alice with new@example.org."""
    words = [w for w in args.words if w != ","]
    player, size = player_prefix(_until(words, {"with", "by"}), ctx)
    rest = [w for w in words[size:] if w.lower() not in {"with", "by"}]
    if len(rest) != 1:
        raise Unclear("write it as replace Alice with new@example.org")
    email = rest[0].removeprefix("mailto:").strip("<>")
    if _EMAIL.fullmatch(email) is None:
        raise Unclear(f"'{rest[0]}' is not an email address")
    return {"type": "replace", "player": player, "email": email}


def _until(words: list[str], stops: set[str]) -> list[str]:
    lowered = [w.lower() for w in words]
    ends = [lowered.index(stop) for stop in stops if stop in lowered]
    return words[: min(ends)] if ends else words


def deadline(args: Args, ctx: ParseContext) -> Action:
    """deadline 72h | deadline 3d | deadline 48 hours."""
    text = " ".join(plain(args.words))
    match = _DURATION.fullmatch(text)
    if match is None:
        raise Unclear("write the deadline in hours or days, like deadline 72h or deadline 3d")
    hours = int(match["n"]) * (24 if (match["unit"] or "h").lower().startswith("d") else 1)
    if hours <= 0:
        raise Unclear("a deadline must be at least 1 hour")
    return {"type": "deadline", "hours": hours}


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
