"""The private auction and the stock round: bid, buy, par, sell, exchange."""

from __future__ import annotations

import re

from pbem.engine.actions import Action

from . import operating
from .context import ParseContext
from .errors import Unclear
from .grammar import Args, Slot, extra_word, fill
from .words import (
    money,
    not_corporation,
    not_money,
    not_private,
    plain,
    player_prefix,
    whole,
)

POOL_WORDS = frozenset({"pool", "market"})
IPO_WORDS = frozenset({"ipo", "initial", "offering", "io"})
_SEPARATORS = frozenset({",", "and", "&", "+"})
_MAX_COUNT = 10
#: the size of a certificate larger than a share (the Erie's extra 20%, 1830 V-6.5)
_EXTRA_PERCENT = 20
_PERCENT = re.compile(r"(\d{1,3})\s?%")
_CERTIFICATE_WORDS = frozenset({"certificate", "cert", "share"})
_TRAIN_WORD = re.compile(r"(?:.+?)?-?trains?", re.IGNORECASE)


# bid


def bid(args: Args, ctx: ParseContext) -> Action:
    """bid CA 170 | bid 170 CA | bid 170 on CA | bid 175 (between bidders)."""
    words = plain(args.words, also={"on", "for", "at", "@"})
    private_missing = "" if ctx.in_auction else "say which private company you bid on"
    slots = [
        Slot("private", ctx.private, not_private(ctx), private_missing),
        Slot("amount", lambda w: money(w, "a bid"), not_money, "a bid needs an amount"),
    ]
    found = fill(words, slots, "bid CA 170")
    return {"type": "bid", "private": found.get("private"), "amount": found["amount"]}


# buy


def buy(args: Args, ctx: ParseContext) -> Action:
    """Everything that starts with 'buy': privates, shares, a par, trains."""
    words = plain(args.words, ctx=ctx)
    if not words:
        return _buy_cheapest(ctx)
    if _is_train_purchase(words, ctx):
        return operating.buy_train(words, ctx)
    if words[0].lower() == "private":
        return _buy_private(words[1:], ctx)
    if "par" in (w.lower() for w in words):
        return par_words(words, ctx)
    symbol = next((w for w in words if ctx.corporation(w) or ctx.private(w)), None)
    if symbol is None:
        raise _nothing_to_buy(words, ctx)
    if ctx.private(symbol) and _means_private(symbol, words, ctx):
        return _buy_private(words, ctx)
    return _buy_share(words, ctx)


def _buy_cheapest(ctx: ParseContext) -> Action:
    if ctx.round_kind == "auction":
        return {"type": "buy_private"}
    if ctx.round_kind == "operating":
        raise Unclear("say what to buy, for example 'buy train'")
    raise Unclear("say what to buy, for example 'buy PRR' or 'buy PRR pool'")


def _is_train_purchase(words: list[str], ctx: ParseContext) -> bool:
    if any(_TRAIN_WORD.fullmatch(w) for w in words):
        return True
    first = words[0]
    return (
        ctx.round_kind == "operating"
        and ctx.train(first) is not None
        and not any(ctx.corporation(w) or ctx.private(w) for w in words)
    )


def _means_private(symbol: str, words: list[str], ctx: ParseContext) -> bool:
    """A symbol that is both (BO) is the private in the auction or when bought from a player."""
    if ctx.corporation(symbol) is None or ctx.round_kind == "auction":
        return True
    lowered = [w.lower() for w in words]
    if "for" in lowered:
        return True
    if "from" in lowered:
        seller = words[lowered.index("from") + 1 :]
        return any(ctx.player(" ".join(seller[:size])) for size in range(1, len(seller) + 1))
    return False


def _nothing_to_buy(words: list[str], ctx: ParseContext) -> Unclear:
    ignored = POOL_WORDS | IPO_WORDS | {"from", "bank"}
    unknown = next((w for w in words if whole(w) is None and w.lower() not in ignored), None)
    if unknown is None:
        return Unclear("say which corporation: buy PRR")
    if ctx.round_kind == "auction":
        return not_private(ctx)(unknown)
    return not_corporation(ctx)(unknown)


def _buy_private(words: list[str], ctx: ParseContext) -> Action:
    """buy SV (auction) | buy private DH from Alice for 140 (a corporation buys)."""
    private, seller, price = deal(words, ctx, "from", "buy private DH from Alice for 140")
    if seller is None and price is None:
        return {"type": "buy_private", "private": private}
    if seller is None:
        raise Unclear("say whom you buy it from: buy private DH from Alice for 140")
    if price is None:
        raise Unclear("say the price: buy private DH from Alice for 140")
    return {"type": "buy_private", "private": private, "from": seller, "price": price}


def _buy_share(words: list[str], ctx: ParseContext) -> Action:
    """buy PRR | buy PRR pool | buy 3 NYC from the pool | buy NYC ipo | buy ERIE 20%
    (a certificate of that size: the Erie's extra 20%, 1830 V-6.5)."""
    corp: str | None = None
    count: int | None = None
    source: str | None = None
    percent: int | None = None
    for word in _without_bank(words):
        lowered = word.lower()
        if (size := _PERCENT.fullmatch(lowered)) is not None:
            if percent is not None:
                raise Unclear("say one size of certificate: buy ERIE 20%")
            percent = int(size[1])
        elif lowered in _CERTIFICATE_WORDS:
            continue
        elif lowered in POOL_WORDS | IPO_WORDS:
            source = _one_source(source, "pool" if lowered in POOL_WORDS else "ipo")
        elif corp is None and ctx.corporation(word):
            corp = ctx.corporation(word)
        elif (number := whole(word, "the number of shares")) is not None:
            if corp is not None or count is not None:
                raise _number_after_symbol(word, number, corp or "PRR")
            count = number
        elif lowered != "from":
            raise not_corporation(ctx)(word) if corp is None else extra_word(word, "buy PRR pool")
    if corp is None:
        raise Unclear("say which corporation: buy PRR")
    if percent is None:
        return {"type": "buy_share", "corp": corp, "source": source, "count": count or 1}
    if count not in (None, 1):
        raise Unclear(f"a {percent}% certificate is bought alone: buy {corp} {percent}%")
    return {"type": "buy_share", "corp": corp, "source": source, "count": 1, "percent": percent}


def _without_bank(words: list[str]) -> list[str]:
    """'bank pool' is the pool; 'bank' alone could be either place."""
    lowered = [w.lower() for w in words]
    if "bank" not in lowered:
        return words
    if "pool" in lowered:
        return [w for w in words if w.lower() != "bank"]
    raise Unclear("say 'pool' (the bank pool) or 'ipo' (the initial offering), not 'bank'")


def _one_source(current: str | None, new: str) -> str:
    if current not in (None, new):
        raise Unclear("say either 'pool' or 'ipo', not both")
    return new


def _number_after_symbol(word: str, number: int, corp: str) -> Unclear:
    if number == _EXTRA_PERCENT:
        return Unclear(
            f"'{word}' after {corp} is not a number of shares; to buy a {number}% certificate "
            f"write 'buy {corp} {number}%' (where the game has one), to start {corp} at "
            f"${number} 'par {corp} {number}'",
            suggestions=[f"buy {corp} {number}%", f"par {corp} {number}"],
        )
    if number > _MAX_COUNT:
        return Unclear(
            f"'{word}' after {corp} is not a number of shares; to start {corp} at ${number} "
            f"write 'par {corp} {number}'",
            suggestions=[f"par {corp} {number}"],
        )
    return Unclear(
        f"put the number of shares before the corporation: 'buy {number} {corp}'",
        suggestions=[f"buy {number} {corp}"],
    )


# par


def par(args: Args, ctx: ParseContext) -> Action:
    """par PRR 82 | par PRR at 82 | par 82 PRR."""
    return par_words(plain(args.words), ctx)


def par_words(words: list[str], ctx: ParseContext) -> Action:
    words = [w for w in words if w.lower() not in {"par", "at", "@", "for", "price", "value"}]
    slots = [
        Slot("corp", ctx.corporation, not_corporation(ctx), "say which corporation to start"),
        Slot("price", lambda w: money(w, "a par price"), not_money, "say the par price"),
    ]
    found = fill(words, slots, "par PRR 82")
    return {"type": "par", "corp": found["corp"], "price": found["price"]}


# sell


def sell(args: Args, ctx: ParseContext) -> Action:
    """sell 2 PRR, 1 NYC | sell PRR | sell private DH to Bob for 80."""
    lowered = [w.lower() for w in args.words]
    if (lowered and lowered[0] == "private") or "to" in lowered:
        return _sell_private(plain(args.words, also={"private"}, ctx=ctx), ctx)
    words = [w for w in args.words if w.lower() not in {"a", "an", "the", "of", "$"}]
    sales = [sale for chunk in _chunks(words) for sale in _chunk_sales(chunk, ctx)]
    if not sales:
        raise Unclear("say what to sell: sell 2 PRR")
    return {"type": "sell", "sales": sales}


def _sell_private(words: list[str], ctx: ParseContext) -> Action:
    usage = "sell private DH to Bob for 80"
    private, buyer, price = deal(words, ctx, "to", usage)
    if buyer is None:
        raise Unclear(f"say whom you sell it to: {usage}")
    if price is None:
        raise Unclear(f"say the price: {usage}")
    return {"type": "sell_private", "private": private, "to": buyer, "price": price}


def _chunks(words: list[str]) -> list[list[str]]:
    """Split at commas and 'and'; drop 'share(s)'."""
    chunks: list[list[str]] = [[]]
    for word in words:
        if word.lower() in _SEPARATORS:
            chunks.append([])
        elif word.lower() not in {"share", "shares", "certificate", "certificates"}:
            chunks[-1].append(word)
    return [chunk for chunk in chunks if chunk]


def _chunk_sales(chunk: list[str], ctx: ParseContext) -> list[dict[str, object]]:
    """'2 PRR 1 NYC' (counts before) or 'PRR 2 NYC 1' (counts after)."""
    if ctx.corporation(chunk[0]) is not None and _is_count(chunk[-1]):
        return _sales_counts_after(chunk, ctx)
    return _sales_counts_before(chunk, ctx)


def _sales_counts_before(chunk: list[str], ctx: ParseContext) -> list[dict[str, object]]:
    sales: list[dict[str, object]] = []
    pending: int | None = None
    for word in chunk:
        number = _count(word)
        if number is None:
            sales.append({"corp": _corp_for_sale(word, ctx), "count": pending or 1})
            pending = None
        elif pending is None:
            pending = number
        else:
            raise _one_number_too_many(word)
    if pending is not None:
        raise Unclear(f"'{pending}' needs a corporation after it: sell {pending} PRR")
    return sales


def _sales_counts_after(chunk: list[str], ctx: ParseContext) -> list[dict[str, object]]:
    sales: list[dict[str, object]] = []
    counted = True
    for word in chunk:
        number = _count(word)
        if number is None:
            sales.append({"corp": _corp_for_sale(word, ctx), "count": 1})
            counted = False
        elif counted:
            raise _one_number_too_many(word)
        else:
            sales[-1]["count"] = number
            counted = True
    return sales


def _one_number_too_many(word: str) -> Unclear:
    return Unclear(f"'{word}' is one number too many; write it as sell 2 PRR, 1 NYC")


def _is_count(word: str) -> bool:
    try:
        return whole(word) is not None
    except Unclear:
        return False


def _count(word: str) -> int | None:
    return whole(word, "the number of shares to sell")


def _corp_for_sale(word: str, ctx: ParseContext) -> str:
    corp = ctx.corporation(word)
    if corp is not None:
        return corp
    private = ctx.private(word)
    if private:
        raise Unclear(
            f"'{word}' is a private company; to sell it write 'sell private {private} to "
            "<player> for <price>'"
        )
    raise not_corporation(ctx)(word)


# exchange


def exchange(args: Args, ctx: ParseContext) -> Action:
    """exchange MH (for an NYC share: the title decides which)."""
    words = plain(args.words, also={"private"})
    lowered = [w.lower() for w in words]
    if "for" in lowered:
        words = _without_exchange_target(words, lowered.index("for"), ctx)
    slots = [Slot("private", ctx.private, not_private(ctx), "say which private to exchange")]
    found = fill(words, slots, "exchange MH")
    return {"type": "exchange", "private": found["private"]}


def _without_exchange_target(words: list[str], at: int, ctx: ParseContext) -> list[str]:
    target = words[at + 1 :]
    if len(target) != 1 or ctx.corporation(target[0]) is None:
        raise Unclear("write it as exchange MH (the rules say for which share)")
    return words[:at]


# helpers shared by private sales and purchases


def deal(
    words: list[str], ctx: ParseContext, party_word: str, usage: str
) -> tuple[str, str | None, int | None]:
    """A private company, the other player after ``party_word``, and a price, in any order."""
    private: str | None = None
    party: str | None = None
    price: int | None = None
    at = 0
    while at < len(words):
        word, lowered = words[at], words[at].lower()
        if lowered == party_word and party is None:
            party, size = player_prefix(words[at + 1 :], ctx)
            at += size
        elif lowered in {"for", "at", "@"} and price is None:
            price = _price_after(words, at)
            at += 1
        elif private is None and ctx.private(word):
            private = ctx.private(word)
        elif price is None and (amount := money(word, "a price")) is not None:
            price = amount
        else:
            raise not_private(ctx)(word) if private is None else extra_word(word, usage)
        at += 1
    if private is None:
        raise Unclear(f"say which private company: {usage}")
    return private, party, price


def _price_after(words: list[str], at: int) -> int:
    if at + 1 >= len(words):
        raise Unclear(f"'{words[at]}' needs a price after it")
    price = money(words[at + 1], "a price")
    if price is None:
        raise not_money(words[at + 1])
    return price


# 1830 base game


def take(args: Args, ctx: ParseContext) -> Action:
    """take group 2 (1830 base game: the private-company groups)."""
    words = plain(args.words, also={"group"})
    slots = [Slot("group", lambda w: whole(w, "a group number"), _not_group, "say which group")]
    found = fill(words, slots, "take group 2")
    return {"type": "take_group", "group": found["group"]}


def _not_group(word: str) -> Unclear:
    return Unclear(f"'{word}' is not a group number; write it as take group 2")
