"""The operating round: track, stations, routes, dividends, trains; the 1870 extras."""

from __future__ import annotations

import re
from typing import Any

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
#: run nothing, run none, run no trains
_NOTHING = frozenset({"nothing", "none", "no"})
#: one city of a hex with two: G19.2 (also G19/2)
_NUMBERED_STOP = re.compile(r"(?P<hex>[A-Za-z]{1,2}[0-9]{1,3})[./](?P<city>[1-9])")


# lay


def lay(args: Args, ctx: ParseContext) -> Action:
    """lay 57 H12 SW-NE [with CS]: tile, hex and the sides it must connect, in any order.

    lay 25 H14 SW-NW/SW-E names the placement by its track: two or more pairs of sides
    (each joined by '-', the pairs by '/', ',' or spaces), each pair joined by the tile's
    track, for tiles that touch the same sides in several ways."""
    words, using = take_with(plain(args.words), ctx)
    tile: str | None = None
    hex_: str | None = None
    groups: list[list[str]] = []
    for word in words:
        if word.lower() in _LAY_NOISE:
            continue
        if (found_sides := _side_groups(word)) is not None:
            groups += found_sides
            continue
        for piece in _pieces([word]):
            if piece.lower() in _LAY_NOISE:
                continue
            if (name := side(piece)) is not None:
                groups.append([name])
            elif hex_ is None and (found := hex_name(piece)) is not None:
                hex_ = found
            elif tile is None and (found := tile_name(piece)) is not None:
                tile = found
            else:
                raise _not_lay_word(piece, hex_)
    if tile is None or hex_ is None:
        raise Unclear("say the tile and the hex: lay 57 H12 SW-NE")
    exits = [name for group in groups for name in group]
    action: Action = {"type": "lay", "tile": tile, "hex": hex_, "exits": exits or None,
                      "with": using}
    if len(groups) >= 2 and all(len(group) == 2 for group in groups):
        action["exits"] = list(dict.fromkeys(exits))
        action["paths"] = groups
    return action


def _side_groups(word: str) -> list[list[str]] | None:
    """'SW-NW/SW-E' -> [['SW', 'NW'], ['SW', 'E']]; None unless the word is only sides."""
    groups = []
    for part in word.split("/"):
        names = [side(piece) for piece in part.split("-") if piece]
        if any(name is None for name in names):
            return None
        if names:
            groups.append([name for name in names if name is not None])
    return groups or None


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
    G19.2 names the second city of a hex with two).  run nothing: no train runs."""
    words = _ROUTE_WORD.findall(re.sub(r"[-–>→]+", " ", args.raw))
    said = {w.lower() for w in words if w not in ";,:"}
    if said & _NOTHING and said <= _NOTHING | _ROUTE_NOISE:
        return {"type": "run", "routes": []}
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
    """redeem MP | redeem MP from Bob (1870: the company buys back one of its shares,
    from the open market or, when it has none, from a player)."""
    words = plain(args.words, ctx=ctx)
    source = None
    lowered = [w.lower() for w in words]
    if "from" in lowered:
        at = lowered.index("from")
        named = words[at + 1:]
        words = words[:at]
        if len(named) != 1:
            raise Unclear("say whom to redeem from, e.g. 'redeem MP from Bob'")
        source = ctx.player(named[0])
        if source is None and named[0].lower() in ("pool", "market", "open"):
            source = "pool"
        if source is None:
            raise Unclear(f"'{named[0]}' is not a player in this game")
    corp = _corp_of(Args(args.verb, words, args.raw), ctx, "redeem MP")
    return {"type": "redeem", "corp": corp, **({"from": source} if source else {})}


def protect(args: Args, ctx: ParseContext) -> Action:
    """protect | protect MP (1870: the president buys the shares just sold)."""
    words = plain(args.words, also={"price", "it", "the"})
    if not words:
        return {"type": "protect"}
    return {"type": "protect", "corp": _corp_of(Args(args.verb, words, args.raw), ctx,
                                                  "protect MP")}


def reissue(args: Args, ctx: ParseContext) -> Action:
    """reissue MP (1870: the company sells one of its shares)."""
    return {"type": "reissue", "corp": _corp_of(args, ctx, "reissue MP")}


def _corp_of(args: Args, ctx: ParseContext, usage: str) -> str:
    slots = [Slot("corp", ctx.corporation, not_corporation(ctx), "say which corporation")]
    corp: str = fill(plain(args.words), slots, usage)["corp"]
    return corp


def repay(args: Args, ctx: ParseContext) -> Action:
    """repay NYC first (1830 base game: the administrator's order of repayment)."""
    words = [w for w in args.words if w.lower() != "first"]
    slots = [Slot("corp", ctx.corporation, not_corporation(ctx), "say which corporation")]
    return {"type": "repay", "corp": fill(plain(words), slots, "repay NYC first")["corp"]}


def port(args: Args, ctx: ParseContext) -> Action:
    """port open M20 | port M20 (the open port) | port closed M20 | port close (the open
    port already placed becomes the closed one) (1870, the Gulf Shipping Company)."""
    words = plain(args.words, also={"token", "at", "in", "on", "hex", "the"})
    state = {w.lower() for w in words} & {"open", "closed", "close"}
    if len(state) > 1:
        raise Unclear("a port is open or closed, not both: port open M20 or port closed M20")
    closed = bool(state & {"closed", "close"})
    rest = [w for w in words if w.lower() not in {"open", "closed", "close"}]
    found = _hex_and_city(rest, "port closed M20" if closed else "port open M20",
                          need_hex=not closed)
    action: Action = {"type": "port", "hex": found.get("hex")}
    if closed:
        action["closed"] = True
    if found.get("city") is not None:
        action["city"] = found["city"]
    return action


def open_port(args: Args, ctx: ParseContext) -> Action:
    """open port M20 (1870)."""
    words = plain(args.words)
    if not words or words[0].lower() != "port":
        raise Unclear("to open a port write 'port open M20'", suggestions=["port"])
    return port(Args("port", ["open", *words[1:]], args.raw), ctx)


def close_port(args: Args, ctx: ParseContext) -> Action:
    """close port | close port M20 (1870: the closed port, closing the Gulf Shipping
    Company)."""
    words = plain(args.words)
    if not words or words[0].lower() != "port":
        raise Unclear("to close the port write 'port closed M20' (or 'port close' for the "
                      "open port already placed)", suggestions=["port"])
    return port(Args("port", ["closed", *words[1:]], args.raw), ctx)


def cattle(args: Args, ctx: ParseContext) -> Action:
    """cattle E12 | cattle I10 2 (1870, the Southern Cattle Company)."""
    words = plain(args.words, also={"token", "at", "in", "on", "hex", "the", "city"})
    found = _hex_and_city(words, "cattle E12", need_hex=True)
    action: Action = {"type": "cattle", "hex": found["hex"]}
    if found.get("city") is not None:
        action["city"] = found["city"]
    return action


def _hex_and_city(words: list[str], usage: str, need_hex: bool) -> dict[str, Any]:
    """A hex and, for a hex with two cities, the city number (both optional)."""
    words = [w for w in words if w.lower() != "city"]
    slots = [
        Slot("hex", hex_name, not_hex, "say the hex" if need_hex else ""),
        Slot("city", lambda w: whole(w, "a city number"), _not_city),
    ]
    return fill(words, slots, usage)


_PLACE_WORDS = frozenset({"place", "placed", "put", "lay", "use"})
_KEEP_WORDS = frozenset({"keep", "kept", "hold", "charter", "station", "100", "$100"})


def destination(args: Args, ctx: ParseContext) -> Action:
    """destination | destination place | destination keep (1870, the connection run: the
    destination marker goes free to the destination, or stays on the charter as a $100
    station marker)."""
    words = [w.lower() for w in plain(args.words, also={"run", "token", "marker", "the",
                                                         "it", "at", "as", "a", "on"})]
    choice: str | None = None
    for word in words:
        if word in _PLACE_WORDS:
            found = "place"
        elif word in _KEEP_WORDS:
            found = "keep"
        else:
            raise Unclear(f"'{word}' is not place or keep; write destination place (the "
                          "marker goes to the destination) or destination keep (a $100 station "
                          "marker)")
        if choice is not None and found != choice:
            raise Unclear("say place or keep, not both")
        choice = found
    return {"type": "destination"} if choice is None else {"type": "destination",
                                                            "marker": choice}
