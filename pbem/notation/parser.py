"""Text to actions: splitting a mail's lines into commands, and reading each one."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.engine.actions import Action

from . import market, operating, service
from .context import ParseContext
from .errors import NotationError, Unclear
from .grammar import Args, Handler, bare
from .printer import format_action
from .suggest import closest, replacements
from .words import not_player, tokenize

_HANDLERS: dict[str, Handler] = {
    "bid": market.bid,
    "buy": market.buy,
    "purchase": market.buy,
    "par": market.par,
    "start": market.par,
    "sell": market.sell,
    "exchange": market.exchange,
    "swap": market.exchange,
    "accept": service.answer("accept"),
    "agree": service.answer("accept"),
    "decline": service.answer("decline"),
    "reject": service.answer("decline"),
    "refuse": service.answer("decline"),
    "pass": bare("pass", {"turn"}),
    "done": bare("pass"),
    "end": service.end,
    "take": market.take,
    "lay": operating.lay,
    "tile": operating.lay,
    "upgrade": operating.lay,
    "token": operating.token,
    "station": operating.token,
    "run": operating.run,
    "payout": bare("payout"),
    "pay": operating.pay,
    "withhold": bare("withhold", {"revenue", "earnings", "all", "it"}),
    "keep": bare("withhold", {"revenue", "earnings", "all", "it"}),
    "hold": bare("withhold", {"revenue", "earnings", "all", "it"}),
    "half": bare("half", {"pay", "payout", "dividend"}),
    "halve": bare("half"),
    "discard": operating.discard,
    "bankrupt": bare("bankrupt", {"declare", "i", "am", "go"}),
    "bankruptcy": bare("bankrupt", {"declare"}),
    "scrap": operating.discard,
    "protect": operating.protect,
    "redeem": operating.redeem,
    "reissue": operating.reissue,
    "repay": operating.repay,
    "destination": operating.destination,
    "port": operating.port,
    "open": operating.open_port,
    "close": operating.close_port,
    "cattle": operating.cattle,
    "help": service.help_,
    "?": service.help_,
    "show": service.show,
    "status": service.show,
    "history": service.history,
    "log": service.history,
    "notify": service.notify,
    "undo": bare("undo", {"last", "that", "it", "move"}),
    "revert": service.revert,
    "replace": service.replace,
    "pause": bare("pause", {"game"}),
    "resume": bare("resume", {"game"}),
    "deadline": service.deadline,
    "kick": service.kick,
    "extend": service.extend,
    "back": service.back,
    "list": service.listing,
    "games": service.listing,
    "auto": service.auto,
    "mail": service.mail,
    "picture": service.picture,
    "tz": service.tz,
    "timezone": service.tz,
    "settings": bare("settings", {"my", "all"}),
    "key": service.key,
}

_SAY = re.compile(r"say(?:\s+|$)", re.IGNORECASE)
_AWAY = re.compile(r"away(?:\s+|$)", re.IGNORECASE)
_FIRST_WORD = re.compile(r"(?P<word>[^\s,;]+)[\s,]*(?P<rest>.*)", re.DOTALL)
_BULLET = re.compile(r"(?:[-*•]\s+)+")
_QUOTE_LIMIT = 60
_SUGGESTIONS = 3


@dataclass(frozen=True)
class ParsedCommand:
    """One command of a mail: where it was, what it said, and its action or error."""

    text: str
    line: int
    action: Action | None = None
    error: NotationError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def parse_command(text: str, ctx: ParseContext) -> Action:
    """Read one command; raise NotationError with a sentence for the player."""
    try:
        return _read(text, ctx)
    except Unclear as unclear:
        raise _explain(text, unclear, ctx) from None


def parse_commands(text: str, ctx: ParseContext) -> list[ParsedCommand]:
    """Read every command of a text; never raises (errors are kept per command)."""
    parsed: list[ParsedCommand] = []
    for line, command in split_commands(text, ctx):
        try:
            parsed.append(ParsedCommand(command, line, action=parse_command(command, ctx)))
        except NotationError as error:
            parsed.append(ParsedCommand(command, line, error=error))
    return parsed


def split_commands(text: str, ctx: ParseContext) -> list[tuple[int, str]]:
    """(line number, command) for each command: one per line or several split by ';'.

    A command starting with 'say' (also after 'as <player>') takes the rest of its
    line, ';' included; a 'run' takes its routes up to the next ';' that does not
    start another route ('run 3: H12-I15; 2: E19-F20; payout' is a run and a payout).
    """
    commands: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        commands.extend((number, command) for command in _split_line(line, ctx))
    return commands


def _split_line(line: str, ctx: ParseContext) -> list[str]:
    commands: list[str] = []
    rest = line
    while rest:
        head, _, tail = rest.partition(";")
        verb = _verb_of(head, ctx)
        if verb in ("say", "away"):  # the rest of the line: talk, an absence's reason
            head, tail = rest, ""
        elif verb == "run":  # its routes run on past ';' while what follows is a route
            while tail and _starts_route(tail.partition(";")[0], ctx):
                route, _, tail = tail.partition(";")
                head += ";" + route
        if head.strip():
            commands.append(head.strip())
        rest = tail
    return commands


def _verb_of(command: str, ctx: ParseContext) -> str:
    """The verb of a command (after 'as <player>'), lower-cased."""
    command = _unbullet(command.strip())
    verb, rest = _first_word(command)
    if verb.lower() == "as":
        player = _player_at_start(rest, ctx)
        if player is None:
            return "as"
        verb, rest = _first_word(rest[len(player) :].strip())
    return verb.lower()


_ROUTE_START = re.compile(
    r"\s*(?P<train>[A-Za-z0-9+]+?)(?:-?trains?)?\s*(?::|\s+[A-Za-z]{1,2}[0-9])"
)


def _starts_route(text: str, ctx: ParseContext) -> bool:
    """Does ``text`` (what follows a ';' on a run line) start a route ('2: E19-F20',
    '2 E19 F20') rather than another command ('payout', 'buy train')?"""
    match = _ROUTE_START.match(text)
    return match is not None and ctx.train(match["train"]) is not None


# reading one command


def _read(text: str, ctx: ParseContext, nested: bool = False) -> Action:
    command = _unbullet(text.strip().lstrip(",; "))
    if not command:
        raise Unclear("there is no command here")
    if len(command.splitlines()) > 1:
        raise Unclear("that is more than one line; write one command per line")
    say = _SAY.match(command)
    if say:
        return service.say(command[say.end() :], ctx)
    away = _AWAY.match(command)
    if away:
        return service.away(command[away.end() :])
    verb_word, rest = _first_word(command)
    verb = verb_word.lower()
    if verb not in _HANDLERS:
        verb = verb.rstrip(".:!?")
    if verb == "as":
        return _read_as(rest, ctx, nested)
    rest = rest.rstrip(" .!?")
    if verb != "run" and ";" in rest:
        raise Unclear("';' separates commands; write one command at a time")
    handler = _HANDLERS.get(verb)
    if handler is None:
        raise Unclear(f"'{verb_word}' is not a command", word=verb_word, vocabulary=_verbs())
    return handler(Args(verb, tokenize(rest), rest), ctx)


def _verbs() -> list[str]:
    return [*_HANDLERS, "say", "as", "away"]


def _read_as(rest: str, ctx: ParseContext, nested: bool) -> Action:
    """as Alice <command>: the referee acts for a player."""
    if nested:
        raise Unclear("'as' cannot be used inside 'as'")
    player = _player_at_start(rest, ctx)
    if player is None:
        raise not_player(ctx, _first_word(rest)[0] or "(nobody)")
    inner = rest[len(player) :].strip()
    if not inner:
        raise Unclear(f"say what {ctx.player(player)} does: as {ctx.player(player)} pass")
    return {"type": "as", "player": ctx.player(player), "action": _read(inner, ctx, True)}


def _player_at_start(text: str, ctx: ParseContext) -> str | None:
    """The player whose name starts ``text`` (longest name first), as typed there."""
    for name in sorted(ctx.players, key=len, reverse=True):
        typed = text[: len(name)]
        after = text[len(name) : len(name) + 1]
        if typed.casefold() == name.casefold() and (after == "" or after.isspace()):
            return typed
    return None


def _first_word(command: str) -> tuple[str, str]:
    match = _FIRST_WORD.match(command)
    if match is None:
        return "", command
    return match["word"], match["rest"]


def _unbullet(command: str) -> str:
    return _BULLET.sub("", command, count=1) if _BULLET.match(command) else command


# explaining


def _explain(text: str, unclear: Unclear, ctx: ParseContext) -> NotationError:
    suggestions = _suggestions(text, unclear, ctx)
    message = f"I did not understand '{_quote(text)}': {unclear.reason}."
    if suggestions:
        message += f" Did you mean: {', '.join(suggestions)}?"
    return NotationError(message, text, suggestions, unclear.reason)


def _quote(text: str) -> str:
    text = " ".join(text.split())
    if len(text) <= _QUOTE_LIMIT:
        return text
    return text[: _QUOTE_LIMIT - 3] + "..."


def _suggestions(text: str, unclear: Unclear, ctx: ParseContext) -> list[str]:
    candidates = list(unclear.suggestions)
    if unclear.word is not None:
        candidates += replacements(text, unclear.word, unclear.vocabulary)
    repaired = [canonical for c in candidates if (canonical := _canonical(c, ctx)) is not None]
    legal = closest(text, ctx.legal, n=_SUGGESTIONS)
    return list(dict.fromkeys(repaired + legal))[:_SUGGESTIONS]


def _canonical(text: str, ctx: ParseContext) -> str | None:
    try:
        return format_action(_read(text, ctx))
    except Unclear:
        return None
