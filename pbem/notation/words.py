"""Reading single words: amounts, counts, hexes, hex sides, symbols and players.

Readers return None when a word is plainly something else, and raise Unclear
when it is the right kind of word written wrongly (``170.5`` as an amount).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from .context import ParseContext
from .errors import Unclear

SIDES = ("SW", "W", "NW", "NE", "E", "SE")
_SIDE_WORDS = {side.lower(): side for side in SIDES} | {
    "southwest": "SW",
    "west": "W",
    "northwest": "NW",
    "northeast": "NE",
    "east": "E",
    "southeast": "SE",
}

#: Words that never change the meaning of a command.
NOISE = frozenset(
    {"a", "an", "the", "of", "share", "shares", "certificate", "certificates", "please", "$"}
)

_TOKEN = re.compile(r"\$?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?\$?(?![0-9])|,|[^\s,]+")
_NUMBERISH = re.compile(r"[-+]?\$?[-+]?[0-9][0-9.,]*\$?")
_MONEY = re.compile(r"\$?(?P<int>[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?P<frac>\.[0-9]*)?\$?")
_WHOLE = re.compile(r"#?(?P<int>[0-9]+)(?P<frac>\.[0-9]*)?")
_HEX = re.compile(r"[A-Z]{1,2}[0-9]{1,3}")
_TILE = re.compile(r"#?(?P<id>[0-9]{1,4})")
_MAX_DIGITS = 9


def tokenize(text: str) -> list[str]:
    """Words separated by spaces; commas are words of their own; '1,000' is one word."""
    return _TOKEN.findall(text)


#: Words a player's name follows: "to Bob", "from Alice".
PARTY_WORDS = frozenset({"to", "from", "by"})


def plain(words: Iterable[str], also: Iterable[str] = (),
          ctx: ParseContext | None = None) -> list[str]:
    """The words without commas, noise words and the extra words given. With ``ctx``, a
    player's name after to/from/by stays even when it is a noise word (a player
    called A: ``sell private MH to A for 100``)."""
    skip = NOISE | {",", *also}
    kept: list[str] = []
    previous = ""
    for word in words:
        named = ctx is not None and previous in PARTY_WORDS and ctx.player(word) is not None
        if named or word.lower() not in skip:
            kept.append(word)
        previous = word.lower()
    return kept


def looks_numeric(word: str) -> bool:
    return _NUMBERISH.fullmatch(word) is not None


def money(word: str, what: str = "an amount") -> int | None:
    """Whole dollars ('$170', '170$', '1,000'), or None for a word that is no number."""
    if not looks_numeric(word):
        return None
    if "-" in word:
        raise Unclear(f"{what} cannot be negative ('{word}')")
    match = _MONEY.fullmatch(word)
    if match is None:
        raise Unclear(f"'{word}' is not an amount of money; write whole dollars, like 170")
    if (match["frac"] or "").strip(".0"):
        raise Unclear(f"'{word}' is not a whole number of dollars; amounts are whole dollars")
    value = _number(match["int"].replace(",", ""), word)
    if value <= 0:
        raise Unclear(f"{what} must be more than $0")
    return value


def whole(word: str, what: str = "a count", least: int = 1) -> int | None:
    """A whole number of at least ``least`` ('#2' too), or None for a word that is no number."""
    if not looks_numeric(word) and not word.startswith("#"):
        return None
    match = _WHOLE.fullmatch(word)
    if match is None:
        if "-" in word:
            raise Unclear(f"{what} cannot be negative ('{word}')")
        if "$" in word:
            raise Unclear(f"'{word}' is an amount of money, not {what}")
        return None
    if (match["frac"] or "").strip(".0"):
        raise Unclear(f"'{word}' is not a whole number; {what} is a whole number")
    value = _number(match["int"], word)
    if value < least:
        raise Unclear(f"{what} must be at least {least}")
    return value


def _number(digits: str, word: str) -> int:
    if len(digits.lstrip("0")) > _MAX_DIGITS:
        raise Unclear(f"'{word}' is far too large")
    return int(digits)


def hex_name(word: str) -> str | None:
    """'h12' -> 'H12'."""
    name = word.upper()
    return name if _HEX.fullmatch(name) else None


def tile_name(word: str) -> str | None:
    """'57' or '#57' -> '57' (leading zeros dropped)."""
    match = _TILE.fullmatch(word)
    if match is None:
        return None
    return match["id"].lstrip("0") or "0"


def side(word: str) -> str | None:
    """'sw' or 'southwest' -> 'SW'."""
    return _SIDE_WORDS.get(word.lower())


def listing(items: Iterable[str]) -> str:
    return ", ".join(items)


# Complaints: what to say about a word that should have been something.


def not_corporation(ctx: ParseContext) -> Callable[[str], Unclear]:
    def complain(word: str) -> Unclear:
        if ctx.private(word):
            return Unclear(f"'{word}' is a private company, not a corporation")
        return Unclear(
            f"'{word}' is not a corporation in {ctx.title}; "
            f"the corporations are {listing(ctx.corporation_symbols)}",
            word=word,
            vocabulary=list(ctx.corporations),
        )

    return complain


def not_private(ctx: ParseContext) -> Callable[[str], Unclear]:
    def complain(word: str) -> Unclear:
        if ctx.corporation(word):
            return Unclear(f"'{word}' is a corporation, not a private company")
        return Unclear(
            f"'{word}' is not a private company in {ctx.title}; "
            f"the private companies are {listing(ctx.private_symbols)}",
            word=word,
            vocabulary=list(ctx.privates),
        )

    return complain


def not_train(ctx: ParseContext) -> Callable[[str], Unclear]:
    def complain(word: str) -> Unclear:
        return Unclear(
            f"'{word}' is not a train in {ctx.title}; the trains are {listing(ctx.train_names)}",
            word=word,
            vocabulary=ctx.train_names,
        )

    return complain


def not_player(ctx: ParseContext, word: str) -> Unclear:
    if not ctx.players:
        return Unclear(f"'{word}' is not a player in this game")
    return Unclear(
        f"'{word}' is not a player in this game; the players are {listing(ctx.players)}",
        word=word,
        vocabulary=ctx.players,
    )


def not_money(word: str) -> Unclear:
    return Unclear(f"'{word}' is not an amount of money")


def not_hex(word: str) -> Unclear:
    return Unclear(f"'{word}' is not a hex; hexes are named like H12")


def player_prefix(words: list[str], ctx: ParseContext) -> tuple[str, int]:
    """The player named by the first words (names may have spaces), and how many words."""
    for size in range(len(words), 0, -1):
        name = ctx.player(" ".join(words[:size]))
        if name is not None:
            return name, size
    if not words:
        raise Unclear("a player's name is missing")
    raise not_player(ctx, words[0])
