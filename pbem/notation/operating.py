"""The operating round: track, stations, routes, dividends, trains; the 1870 extras."""

from __future__ import annotations

import re

from pbem.engine.actions import Action

from .context import ParseContext
from .errors import Unclear
from .grammar import Args, Slot, fill, take_with
from .words import (
    SIDES,
    hex_name,
    listing,
    money,
    not_corporation,
    not_hex,
    not_money,
    not_train,
    plain,
    side,
    tile_name,
    whole,
)

_LAY_NOISE = frozenset(
    {"tile", "on", "at", "in", "into", "hex", "exits", "exit", "to", "connecting", "sides"}
)
_PIECES = re.compile(r"[-/]+")
_TRAIN_SUFFIX = re.compile(r"(?P<name>.+?)-?trains?", re.IGNORECASE)
_ROUTE_WORD = re.compile(r"[;,:]|[^\s;,:]+")
_ROUTE_NOISE = frozenset({"train", "trains", "runs", "via", "and", "route", "routes"})
#: one city of a hex with two: G19.2 (also G19/2)
_NUMBERED_STOP = re.compile(r"(?P<hex>[A-Za-z]{1,2}[0-9]{1,3})[./](?P<city>[1-9])")


# lay


def lay(args: Args, ctx: ParseContext) -> Action:
    """lay 57 H12 SW-NE [with CS]: tile, hex and the sides it must connect, in any order."""
    words, using = take_with(plain(args.words), ctx)
    tile: str | None = None
    hex_: str | None = None
    exits: list[str] = []
    for word in _pieces(words):
        if word.lower() in _LAY_NOISE:
            continue
        if (name := side(word)) is not None:
            exits.append(name)
        elif hex_ is None and (found := hex_name(word)) is not None:
            hex_ = found
        elif tile is None and (found := tile_name(word)) is not None:
            tile = found
        else:
            raise _not_lay_word(word, hex_)
    if tile is None or hex_ is None:
        raise Unclear("say the tile and the hex: lay 57 H12 SW-NE")
    return {"type": "lay", "tile": tile, "hex": hex_, "exits": exits or None, "with": using}


def _pieces(words: list[str]) -> list[str]:
    """'SW-NE' and 'SW/NE' are two words."""
    return [piece for word in words for piece in _PIECES.split(word) if piece]


def _not_lay_word(word: str, hex_: str | None) -> Unclear:
    if hex_ is not None and hex_name(word) is not None:
        return Unclear(f"'{word}' is a second hex; lay one tile on one hex at a time")
    return Unclear(
        f"'{word}' is not a tile, a hex or a hex side (the sides are {listing(SIDES)}); "
        "write it as lay 57 H12 SW-NE"
    )


# token


def token(args: Args, ctx: ParseContext) -> Action:
    """token E19 | token G19 2 | token F16 with DH."""
    words, using = take_with(plain(args.words, also={"in", "at", "on", "city", "hex"}), ctx)
    slots = [
        Slot("hex", hex_name, not_hex, "say the hex of the station"),
        Slot("city", lambda w: whole(w, "a city number"), _not_city),
    ]
    found = fill(words, slots, "token G19 2")
    return {"type": "token", "hex": found["hex"], "city": found.get("city"), "with": using}


def _not_city(word: str) -> Unclear:
    return Unclear(f"'{word}' is not a city number; a hex with two cities numbers them 1 and 2")


# run


def run(args: Args, ctx: ParseContext) -> Action:
    """run | run 3: H12-I15-J14, 2: E19-F20 (routes by ',' or ';', stops by '-' or spaces;
    G19.2 names the second city of a hex with two)."""
    words = _ROUTE_WORD.findall(re.sub(r"[-–>→]+", " ", args.raw))
    routes: list[dict[str, object]] = []
    for word in words:
        if word in ";,:" or word.lower() in _ROUTE_NOISE:
            continue
        if (train := ctx.train(word)) is not None:
            routes.append({"train": train, "stops": []})
        elif (hex_ := hex_name(word)) is not None:
            _stops(routes, word).append(hex_)
        elif (numbered := _NUMBERED_STOP.fullmatch(word)) is not None:
            _stops(routes, word).append(f"{numbered['hex'].upper()}.{numbered['city']}")
        else:
            raise _not_route_word(word, ctx)
    for route in routes:
        _check_route(route)
    return {"type": "run", "routes": routes or None}


def _stops(routes: list[dict[str, object]], word: str) -> list[str]:
    if not routes:
        raise Unclear(f"say which train runs to {word.upper()}: run 3: H12-I15-J14")
    stops = routes[-1]["stops"]
    assert isinstance(stops, list)
    return stops


def _check_route(route: dict[str, object]) -> None:
    stops = route["stops"]
    assert isinstance(stops, list)
    if len(stops) < 2:
        raise Unclear(
            f"the {route['train']}-train's route needs at least two stops, like 3: H12-I15-J14"
        )


def _not_route_word(word: str, ctx: ParseContext) -> Unclear:
    return Unclear(
        f"'{word}' is neither a train ({listing(ctx.train_names)}) nor a hex; "
        "write routes as run 3: H12-I15-J14, 2: E19-F20",
        word=word,
        vocabulary=ctx.train_names,
    )


# dividends


def pay(args: Args, ctx: ParseContext) -> Action:
    """pay | pay out | pay dividends | pay half."""
    words = [w.lower() for w in plain(args.words)]
    if "half" in words:
        return {"type": "half"}
    for word in words:
        if word not in {"out", "dividend", "dividends", "all", "full", "revenue"}:
            raise Unclear(f"'pay' takes nothing after it, not '{word}'", suggestions=["payout"])
    return {"type": "payout"}


# trains


def buy_train(words: list[str], ctx: ParseContext) -> Action:
    """buy train [4] [pool | bank | from NYC] [for 150] [trade 5], in any order."""
    found: dict[str, str | int | None] = dict.fromkeys(("train", "source", "price", "trade"))
    words = _train_words(words, ctx)
    at = 0
    while at < len(words):
        at = _read_train_word(words, at, found, ctx) + 1
    return {"type": "buy_train", **found}


def _train_words(words: list[str], ctx: ParseContext) -> list[str]:
    """'4-train' -> '4'; 'train' and 'in' (trade in) dropped."""
    out: list[str] = []
    for word in words:
        match = _TRAIN_SUFFIX.fullmatch(word)
        if match and ctx.train(match["name"]):
            out.append(match["name"])
        elif word.lower() not in {"train", "trains", "in", "new"}:
            out.append(word)
    return out


def _read_train_word(
    words: list[str], at: int, found: dict[str, str | int | None], ctx: ParseContext
) -> int:
    """Read the word at ``at`` (and what it needs after it); return the last index used."""
    word, lowered = words[at], words[at].lower()
    if lowered == "from":
        _set(found, "source", _train_source(_next(words, at), ctx), word)
        return at + 1
    if lowered in {"for", "at", "@", "price"}:
        _set(found, "price", _price(_next(words, at)), word)
        return at + 1
    if lowered in {"trade", "trading", "exchange", "exchanging"}:
        _set(found, "trade", _train(_next(words, at), ctx), word)
        return at + 1
    if lowered in {"pool", "bank"} or ctx.corporation(word):
        _set(found, "source", _train_source(word, ctx), word)
    elif found["train"] is None and ctx.train(word):
        found["train"] = ctx.train(word)
    elif "$" in word:
        _set(found, "price", _price(word), word)
    else:
        raise _not_train_word(word, found, ctx)
    return at


def _next(words: list[str], at: int) -> str:
    if at + 1 >= len(words):
        raise Unclear(f"'{words[at]}' needs something after it, as in buy train 3 from NYC for 150")
    return words[at + 1]


def _set(found: dict[str, str | int | None], key: str, value: str | int, word: str) -> None:
    if found[key] is not None:
        raise Unclear(f"'{word}' gives the {key} a second time")
    found[key] = value


def _train_source(word: str, ctx: ParseContext) -> str:
    lowered = word.lower()
    if lowered in {"pool", "bank"}:
        return lowered
    corp = ctx.corporation(word)
    if corp is None:
        raise not_corporation(ctx)(word)
    return corp


def _price(word: str) -> int:
    price = money(word, "a price")
    if price is None:
        raise not_money(word)
    return price


def _train(word: str, ctx: ParseContext) -> str:
    train = ctx.train(word)
    if train is None:
        raise not_train(ctx)(word)
    return train


def _not_train_word(word: str, found: dict[str, str | int | None], ctx: ParseContext) -> Unclear:
    if found["train"] is not None and money(word) is not None:
        return Unclear(f"'{word}' is not a train; to give a price write 'for {word}'")
    return not_train(ctx)(word)


def discard(args: Args, ctx: ParseContext) -> Action:
    """discard 3 (a train over the limit)."""
    words = _train_words(plain(args.words), ctx)
    slots = [Slot("train", ctx.train, not_train(ctx), "say which train to discard")]
    return {"type": "discard", "train": fill(words, slots, "discard 3")["train"]}


# 1870


def redeem(args: Args, ctx: ParseContext) -> Action:
    """redeem MP (1870: the company buys back one of its shares)."""
    return {"type": "redeem", "corp": _corp_of(args, ctx, "redeem MP")}


def reissue(args: Args, ctx: ParseContext) -> Action:
    """reissue MP (1870: the company sells one of its shares)."""
    return {"type": "reissue", "corp": _corp_of(args, ctx, "reissue MP")}


def _corp_of(args: Args, ctx: ParseContext, usage: str) -> str:
    slots = [Slot("corp", ctx.corporation, not_corporation(ctx), "say which corporation")]
    corp: str = fill(plain(args.words), slots, usage)["corp"]
    return corp


def port(args: Args, ctx: ParseContext) -> Action:
    """port M20 | port open M20 (1870)."""
    return {"type": "port", "hex": _hex_of(args, "port M20", {"open", "token"})}


def open_port(args: Args, ctx: ParseContext) -> Action:
    """open port M20 (1870)."""
    words = plain(args.words)
    if not words or words[0].lower() != "port":
        raise Unclear("to open a port write 'port M20'", suggestions=["port"])
    return port(Args("port", words[1:], args.raw), ctx)


def cattle(args: Args, ctx: ParseContext) -> Action:
    """cattle E12 (1870)."""
    return {"type": "cattle", "hex": _hex_of(args, "cattle E12", {"token"})}


def _hex_of(args: Args, usage: str, extra: set[str]) -> str:
    words = plain(args.words, also=extra | {"at", "in", "on", "hex"})
    hex_: str = fill(words, [Slot("hex", hex_name, not_hex, "say the hex")], usage)["hex"]
    return hex_
