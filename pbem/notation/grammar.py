"""Shared pieces of the grammar: the arguments of a verb and filling slots from words."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pbem.engine.actions import Action

from .context import ParseContext
from .errors import Unclear
from .words import not_private, plain


@dataclass(frozen=True)
class Args:
    """What followed the verb: its words (commas kept as ',') and the raw text."""

    verb: str
    words: list[str]
    raw: str


Handler = Callable[[Args, ParseContext], Action]
Reader = Callable[[str], Any]


@dataclass(frozen=True)
class Slot:
    """One thing a command needs, read from any position among its words."""

    name: str
    read: Reader
    complaint: Callable[[str], Unclear]
    missing: str = ""


def fill(words: list[str], slots: list[Slot], usage: str) -> dict[str, Any]:
    """Give each word to the first empty slot that reads it.

    A word no slot reads is blamed on the first slot left empty (so 'seventy'
    in 'bid CA seventy' is 'not an amount of money'); an empty slot with a
    ``missing`` sentence is an error.
    """
    values: dict[str, Any] = {}
    strays: list[str] = []
    for word in words:
        if not _give(word, slots, values):
            strays.append(word)
    empty = [slot for slot in slots if slot.name not in values]
    if strays:
        if empty:
            raise empty[0].complaint(strays[0])
        raise extra_word(strays[0], usage)
    for slot in empty:
        if slot.missing:
            raise Unclear(f"{slot.missing}; write it as {usage}")
    return values


def _give(word: str, slots: list[Slot], values: dict[str, Any]) -> bool:
    for slot in slots:
        if slot.name in values:
            continue
        value = slot.read(word)
        if value is not None:
            values[slot.name] = value
            return True
    return False


def extra_word(word: str, usage: str) -> Unclear:
    return Unclear(f"I don't know what '{word}' means here; write it as {usage}")


def take_with(words: list[str], ctx: ParseContext) -> tuple[list[str], str | None]:
    """Split off 'with CS' (a private company's special ability)."""
    lowered = [w.lower() for w in words]
    if "with" not in lowered:
        return words, None
    at = lowered.index("with")
    rest = plain(words[at + 1 :])
    if not rest:
        raise Unclear("'with' needs the private company whose ability you use, e.g. 'with CS'")
    private = ctx.private(rest[0])
    if private is None:
        raise not_private(ctx)(rest[0])
    return words[:at] + rest[1:], private


def bare(action_type: str, extras: Iterable[str] = ()) -> Handler:
    """A verb that takes nothing (a few harmless words allowed)."""
    allowed = frozenset(extras)

    def handle(args: Args, ctx: ParseContext) -> Action:
        for word in plain(args.words):
            if word.lower() not in allowed:
                raise Unclear(
                    f"'{args.verb}' takes nothing after it, not '{word}'",
                    suggestions=[args.verb],
                )
        return {"type": action_type}

    return handle
