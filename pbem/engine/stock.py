"""Stock rounds: par, buy, sell, private companies between players, pass; the round ends
when everybody has passed in turn.

Round keys: ``number``, ``current``, ``passes`` (consecutive), ``last_actor`` (last
player to buy or sell), ``turn`` ({bought, sold: [corps in order], acted}), ``sold``
({player: [corps sold this round]}), ``proposal`` (a private sale awaiting an answer).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .context import Ctx, money, player_cash, require
from .errors import RulesError
from .facts import Par, PrivateOwner
from .registry import book, cite
from .shares import (
    certificate_count,
    certificate_limit,
    check_float,
    check_presidency,
    corp_counts_toward_limit,
    extra_indexes,
    limit_problems,
    may_exceed_share_limit,
    new_president,
    ordinary_indexes,
    pool_shares,
    sale_plan,
    share_units,
)
from .state import BANK, IPO, POOL, GameState, holder_name, player_holder
from .steps import Moves, PlayersRound, Step


def new_stock_round(number: int, first: str) -> dict[str, Any]:
    return {
        "kind": "stock", "number": number, "current": first, "passes": 0, "last_actor": None,
        "turn": new_turn(), "sold": {}, "proposal": None,
    }


def new_turn() -> dict[str, Any]:
    return {"bought": False, "sold": [], "acted": False}


def turn_order_rule(state: GameState) -> str:
    return state.options.get("stock_turn", "sell-buy-sell")


# -- buying -------------------------------------------------------------------------------


def may_buy_now(state: GameState, corp: str | None = None) -> str | None:
    """Why the current player may not buy now (a share of ``corp``), or None."""
    turn = state.round["turn"]
    if turn["bought"] and not more_after_private(state, corp):
        return "You have already bought a certificate this turn."
    if turn["sold"] and turn_order_rule(state) == "buy-sell":
        return "In this game you may not buy after selling in the same turn."
    if turn.get("company_action"):
        return "You acted for a company this turn; that is the whole turn."
    name = state.round.get("current")
    if state.options.get("compliance") == "sell-first" and name in state.names and \
            limit_problems(state, name) and may_sell_any(state, name):
        return (f"{'; '.join(limit_problems(state, name))}: sell to come within the limits "
                "before buying (option compliance=sell-first).")
    return None


def more_after_private(state: GameState, corp: str | None) -> bool:
    """Option private_trade=site: after a private company bought from a player, the site
    still sells shares of a company in a zone where several may be bought in a turn, while
    no share of another company was bought in it (its ``can_buy_multiple?`` looks at
    share purchases only)."""
    turn = state.round["turn"]
    return corp is not None and bool(turn.get("private_bought")) and \
        private_trade(state) == "site" and \
        state.rules.zone_allows(state.zone(corp), "multi_buy") and \
        all(other == corp for other in turn.get("shares_of", []))


def buys_after_private(state: GameState, name: str) -> list[dict[str, Any]]:
    """The share purchases still open after a private company bought (more_after_private):
    from the bank pool (option brown_buy=pool-and-ipo: or the initial offering), of a
    company in a zone where several may be bought."""
    sources = multi_buy_sources(state)
    return [m for m in buy_moves(state, name) if m["action"]["type"] == "buy_share"
            and m["action"]["source"] in sources
            and may_buy_now(state, m["action"]["corp"]) is None]


def multi_buy_sources(state: GameState) -> tuple[str, ...]:
    """Where several shares of a brown-zone company may be bought in one turn: the bank
    pool (5.2), and the initial offering with option brown_buy=pool-and-ipo (18xx.games'
    multiple_brown_from_ipo)."""
    return ("pool", "ipo") if state.options.get("brown_buy") == "pool-and-ipo" else ("pool",)


def buy_blockers(state: GameState, name: str, corp: str, count: int, counted: bool,
                 certificates: int | None = None) -> str | None:
    """Why ``name`` may not take ``count`` more shares of ``corp`` (in ``certificates``
    certificates, as many as shares if None), or None (4.3, 5.2)."""
    if corp in state.round["sold"].get(name, []):
        return f"You sold {corp} this stock round, so you may not buy it again until the next."
    holder = player_holder(name)
    rules = state.rules
    pct = state.percent(corp, holder) + count * rules.ordinary_percent
    if pct > rules.player_share_limit and not may_exceed_share_limit(state, corp):
        return (f"That would give you {pct}% of {corp}; a player may hold at most "
                f"{rules.player_share_limit}% unless its share value is in the orange or "
                "brown zone.")
    if counted:
        added = count if certificates is None else certificates
        after, limit = certificate_count(state, name) + added, certificate_limit(state)
        if after > limit:
            return f"That would give you {after} certificates; the limit is {limit}."
    return None


def place_par_token(ctx: Ctx, corp: str, price: int) -> None:
    rules = ctx.state.rules
    cell = rules.market.par_cell(price)
    pars = ", ".join(f"${p}" for p in rules.market.par_prices)
    require(cell is not None, f"{money(price)} is not a par value; choose one of {pars}.",
            cite(ctx.state, "par"))
    assert cell is not None
    ctx.emit(Par.at(ctx.state, corp, price, cell.row, cell.col))
    ctx.log(f"{corp} is parred at {money(price)}.")


def par(ctx: Ctx, corp: str, price: int) -> None:
    state, actor = ctx.state, ctx.actor
    c = state.corps[corp]
    require(c.par is None and c.certs[0] == IPO,
            f"{corp} already has a par value; buy a share with: buy {corp}.",
            cite(ctx.state, "buy"))
    blocked = may_buy_now(state)
    require(blocked is None, blocked or "", cite(ctx.state, "stock_turn"))
    cost = 2 * price
    pars = ", ".join(f"${p}" for p in state.rules.market.par_prices)
    require(state.rules.market.par_cell(price) is not None,
            f"{money(price)} is not a par value; choose one of {pars}.", cite(ctx.state, "par"))
    require(player_cash(state, actor) >= cost, f"The {corp} president's certificate at par "
            f"{money(price)} costs {money(cost)}; you have {money(player_cash(state, actor))}.",
            cite(ctx.state, "buy"))
    problem = buy_blockers(state, actor, corp, 2, counted=False)
    require(problem is None, problem or "", cite(ctx.state, "certificates"))
    after, limit = certificate_count(state, actor) + 1, certificate_limit(state)
    require(after <= limit, f"That would give you {after} certificates; the limit is {limit}.",
            cite(ctx.state, "certificates"))
    place_par_token(ctx, corp, price)
    ctx.pay(player_holder(actor), BANK, cost)
    ctx.move_cert(corp, 0, player_holder(actor))
    ctx.log(f"{actor} buys the {corp} president's certificate for {money(cost)}.")
    after_buy(ctx, corp)


def choose_source(state: GameState, corp: str, source: str | None, percent: int) -> str:
    if source is not None:
        return IPO if source == "ipo" else POOL
    return IPO if certificates_of_size(state, corp, IPO, percent) else POOL


def certificates_of_size(state: GameState, corp: str, holder: str, percent: int) -> list[int]:
    """The certificates of ``percent`` that ``holder`` has of ``corp`` (not the
    president's): ordinary shares, or a larger certificate (V-6.5)."""
    if percent == state.rules.ordinary_percent:
        return ordinary_indexes(state, corp, holder)
    return [i for i in extra_indexes(state, corp, holder) if state.cert_percent(corp, i) == percent]


def buy_share(ctx: Ctx, corp: str, source: str | None, count: int,
              percent: int | None = None) -> None:
    """``count`` shares of ``corp``, or with ``percent`` the one certificate of that size
    (the Erie's extra 20%, V-6.5), bought from the initial offering or the pool."""
    state, actor = ctx.state, ctx.actor
    c = state.corps[corp]
    require(c.par is not None, f"{corp} has no par value yet: buy its president's certificate "
            f"first, e.g. par {corp} {state.rules.market.par_prices[-1]}.", cite(ctx.state, "buy"))
    blocked = may_buy_now(state, corp)
    require(blocked is None, blocked or "", cite(ctx.state, "stock_turn"))
    unit = state.rules.ordinary_percent
    size = unit if percent is None else percent
    if size != unit:
        require_larger_certificate(state, corp, source, size, count)
    where = choose_source(state, corp, source, size)
    require(not (state.round["turn"]["bought"] and where == IPO
                 and "ipo" not in multi_buy_sources(state)), "After a private company "
            "bought this turn, only shares from the bank pool (option private_trade=site).",
            cite(ctx.state, "multi_buy"))
    place = "the initial offering" if where == IPO else "the bank pool"
    available = certificates_of_size(state, corp, where, size)
    require(count >= 1, "Buy at least one share.")
    require(bool(available), "" if available else no_share(state, corp, source, where),
            cite(ctx.state, "buy"))
    if count > 1:
        multi = state.rules.zone_allows(state.zone(corp), "multi_buy")
        require(multi and (where == POOL or "ipo" in multi_buy_sources(state)),
                f"You may buy several shares at once only from the bank pool of a corporation "
                f"whose share value is in the brown zone; {corp} is at ${state.price(corp)}.",
                cite(ctx.state, "multi_buy"))
        require(len(available) >= count, f"There are only {len(available)} {corp} shares in "
                f"{place}.")
    price = c.par if where == IPO else state.price(corp)
    assert price is not None
    shares = count * size // unit
    cost = price * shares
    what = (f"{count} {corp} share{'s' if count > 1 else ''}" if size == unit
            else f"The {corp} {size}% certificate")
    require(player_cash(state, actor) >= cost, f"{what} from {place} cost"
            f"{'s' if size != unit else ''} {money(cost)}; you have "
            f"{money(player_cash(state, actor))}.", cite(ctx.state, "buy"))
    problem = buy_blockers(state, actor, corp, shares, corp_counts_toward_limit(state, corp),
                           certificates=count)
    require(problem is None, problem or "", cite(ctx.state, "certificates"))
    for index in available[:count]:
        ctx.move_cert(corp, index, player_holder(actor))
    if where == IPO:
        book(state).ipo_share_bought(ctx, actor, corp, cost)
    else:
        ctx.pay(player_holder(actor), BANK, cost)
    bought = (f"{count} shares" if count > 1 else "a share") if size == unit \
        else f"the {size}% certificate"
    ctx.log(f"{actor} buys {bought} of {corp} from {place} for {money(cost)}.")
    after_buy(ctx, corp)


def no_share(state: GameState, corp: str, source: str | None, where: str) -> str:
    """There is no share to buy; where a larger certificate (V-6.5) could be bought
    instead, the sentence says so."""
    places = {IPO: "the initial offering", POOL: "the bank pool"}
    named = places[where] if source is not None else "the initial offering or the bank pool"
    for place in ((where,) if source is not None else (IPO, POOL)):
        found = extra_indexes(state, corp, place)
        if found:
            size = state.cert_percent(corp, found[0])
            there = "there" if source is not None else f"in {places[place]}"
            return (f"There is no {corp} share in {named}; its {size}% certificate is "
                    f"{there}: buy {corp} {size}%.")
    return f"There is no {corp} share in {places[where]}."


def require_larger_certificate(state: GameState, corp: str, source: str | None, size: int,
                               count: int) -> None:
    """A certificate larger than a share is bought alone, where the game has one and
    where it lies (V-6.5)."""
    rule = cite(state, "extra_certificate")
    sizes = sorted({p for p in state.rules.cert_percents(corp)[1:]
                    if p != state.rules.ordinary_percent})
    require(size in sizes, f"{corp} has no {size}% certificate besides the president's "
            f"in this game: buy a share with buy {corp}.", rule)
    require(count == 1, f"Buy the {corp} {size}% certificate alone (it is one certificate).",
            rule)
    holders = [state.corps[corp].certs[i] for i, p in
               enumerate(state.rules.cert_percents(corp)) if i > 0 and p == size]
    wanted = None if source is None else (IPO if source == "ipo" else POOL)
    require(any(h in (IPO, POOL) and wanted in (None, h) for h in holders),
            f"The {corp} {size}% certificate is not "
            + ("for sale: " if wanted is None else
               f"in the {'initial offering' if wanted == IPO else 'bank pool'}: ")
            + f"{where_it_is(state, holders[0])}.", rule)


def where_it_is(state: GameState, holder: str) -> str:
    if holder == IPO:
        return "it is in the initial offering"
    if holder == POOL:
        return "it is in the bank pool"
    return f"{holder_name(holder)} holds it"


def after_buy(ctx: Ctx, corp: str) -> None:
    check_presidency(ctx, corp)
    check_float(ctx, corp)
    turn = ctx.state.round["turn"]
    # 18xx.games (private_trade=site) forbids a sale after exactly two kinds of action
    # ending with a purchase (its can_sell_order?): a private company and a share count
    # as two, a private company, a sale and a share as three
    with_private = bool(turn.get("private_bought")) and private_trade(ctx.state) == "site"
    shares_of = {"shares_of": sorted({*turn.get("shares_of", []), corp})} if with_private \
        else {}  # (more_after_private)
    ctx.round_set(turn={**turn, "bought": True, "acted": True, **shares_of,
                        "sold_before_buy": bool(turn["sold"]) != with_private},
                  last_actor=ctx.actor)
    maybe_end_turn(ctx)


def maybe_end_turn(ctx: Ctx) -> None:
    """After buying, the turn ends by itself when nothing more may be done in it."""
    state, actor = ctx.state, ctx.actor
    if not may_sell_any(state, actor) or turn_order_rule(state) == "sell-buy":
        end_turn(ctx)


# -- selling ----------------------------------------------------------------------------------


def may_sell_now(state: GameState) -> str | None:
    if state.round["number"] == 1:
        return "No certificates may be sold in the first stock round."
    turn = state.round["turn"]
    if turn["bought"] and turn_order_rule(state) == "sell-buy":
        return "In this game you may not sell after buying in the same turn."
    if turn["bought"] and turn.get("sold_before_buy") and \
            turn_order_rule(state) == "sell-buy-or-buy-sell":
        return ("You sold, then bought this turn: you may not sell again (sell then buy, or "
                "buy then sell, never sell, buy and sell).")
    if turn.get("company_action"):
        return "You acted for a company this turn; that is the whole turn."
    return None


def sale_blocker(state: GameState, name: str, corp: str, count: int) -> str | None:
    """Why ``name`` may not sell ``count`` shares of ``corp`` now, or None (5.1)."""
    holder = player_holder(name)
    c = state.corps[corp]
    held = share_units(state, corp, holder)
    if held == 0:
        return f"You hold no {corp} shares."
    if count < 1:
        return "Sell at least one share."
    if count > held:
        return f"You hold only {held} {corp} share{'s' if held > 1 else ''}."
    if c.par is None:
        return f"{corp} shares cannot be sold before {corp} has a par value."
    if corp in state.round.get("turn", {}).get("sold", []) and \
            state.rules.extra.get("selling", {}).get("once_per_company_per_turn"):
        return (f"You sold {corp} shares this turn already: a company's shares are sold in "
                "one sale.")
    over = book(state).sale_problem(state, name, corp, count)
    if over is not None:
        return over
    pool = pool_shares(state, corp)
    limit = state.rules.pool_certificate_limit
    if pool + count > limit:
        return (f"The bank pool may hold at most {limit} {corp} shares "
                f"({limit * state.rules.ordinary_percent}%); it has {pool}, so you may sell at "
                f"most {limit - pool}.")
    if c.certs[0] == holder:
        remaining = (held - count) * state.rules.ordinary_percent
        ordinary = held - state.rules.president_percent // state.rules.ordinary_percent
        if count > ordinary:
            others = [
                state.percent(corp, player_holder(n)) for n in state.names if n != name
            ]
            best = max(others, default=0)
            if best < state.rules.president_percent or best <= remaining:
                return (f"You may not sell the {corp} president's certificate: no other player "
                        "holds enough shares to take over the presidency.")
    if state.rules.has_larger_certificates(corp) and sale_plan(state, name, corp, count) is None:
        return (f"That sale needs half of your {corp} {larger_held(state, corp, name)}% "
                f"certificate: it may be sold only with a {state.rules.ordinary_percent}% "
                f"{corp} share in the bank pool to take back in change, and the pool has none.")
    return None


def larger_held(state: GameState, corp: str, name: str) -> int:
    """The percent of the larger certificate (V-6.5) ``name`` would hold of ``corp``."""
    found = extra_indexes(state, corp, player_holder(name))
    return state.cert_percent(corp, found[0]) if found else 2 * state.rules.ordinary_percent


def sell_options(state: GameState, name: str) -> dict[str, int]:
    """The most shares of each corporation ``name`` may sell now."""
    return dict(sellable(state, name))


def may_sell_any(state: GameState, name: str) -> bool:
    """Whether ``name`` may sell shares now (``bool(sell_options(...))``, found without
    trying every corporation)."""
    return next(sellable(state, name), None) is not None


def sellable(state: GameState, name: str) -> Iterator[tuple[str, int]]:
    """Each corporation ``name`` may sell shares of now, with the most he may sell, in
    the order of the corporations, found one after another."""
    if may_sell_now(state) is not None:
        return
    for corp in state.corps:
        for count in range(share_units(state, corp, player_holder(name)), 0, -1):
            if sale_blocker(state, name, corp, count) is None:
                yield corp, count
                break


def sell(ctx: Ctx, sales: list[dict[str, Any]]) -> None:
    state = ctx.state
    blocked = may_sell_now(state)
    require(blocked is None, blocked or "", cite(ctx.state, "sell"))
    seen = [s["corp"] for s in sales]
    require(len(seen) == len(set(seen)), "Name each corporation once in a sale.")
    for sale in sales:
        sell_block(ctx, sale["corp"], sale["count"])
    ctx.round_set(turn={**state.round["turn"], "acted": True}, last_actor=ctx.actor)


def sell_block(ctx: Ctx, corp: str, count: int) -> None:
    """Sell ``count`` shares of one corporation; the price drops after the whole block."""
    state, actor = ctx.state, ctx.actor
    problem = sale_blocker(state, actor, corp, count)
    require(problem is None, problem or "", cite(ctx.state, "sell"))
    book(state).sell_shares(ctx, actor, corp, count)
    sold = dict(state.round["sold"])
    sold[actor] = sorted(set(sold.get(actor, [])) | {corp})
    turn = state.round["turn"]
    ctx.round_set(sold=sold, turn={**turn, "sold": turn["sold"] + [corp]})


# -- private companies between players (3.1) ---------------------------------------------------


def propose_private_sale(ctx: Ctx, sym: str, seller: str, buyer: str, price: int) -> None:
    state = ctx.state
    require(state.round["number"] > 1, "Private companies may not change hands between players "
            "in the first stock round.", cite(ctx.state, "private_sale"))
    require(sym in state.privates and not state.privates[sym].closed,
            f"{sym} is not an open private company (all close when the phase that closes "
            "them begins).", cite(ctx.state, "privates_close"))
    require(state.privates[sym].owner == player_holder(seller), f"{seller} does not own {sym}.")
    require(buyer != seller and buyer in state.names, f"{buyer} is not another player.")
    problem = book(state).private_sale_problem(state, sym, seller, buyer)
    require(problem is None, problem or "", cite(ctx.state, "private_sale"))
    require(price >= 0, "The price must be at least $0.")
    require(player_cash(state, buyer) >= price, f"{buyer} does not have {money(price)}.")
    require(certificate_count(state, buyer) < certificate_limit(state),
            f"{buyer} is at the certificate limit.", cite(ctx.state, "certificates"))
    trade_as_purchase(state, ctx.actor, buyer)
    answer_by = buyer if ctx.actor == seller else seller
    ctx.round_set(proposal={"private": sym, "seller": seller, "buyer": buyer, "price": price,
                            "proposer": ctx.actor, "answer_by": answer_by})
    ctx.log(f"{ctx.actor} proposes: {sym} from {seller} to {buyer} for {money(price)}; "
            f"{answer_by} may accept or decline.")


def private_trade(state: GameState) -> str:
    """How players trade private companies (option private_trade): "turn" (in the buyer's
    or the seller's stock turn), "purchase" (the buyer buys it in his turn "instead of a
    share certificate"), "site" (18xx.games: as "purchase", and not before the phase of
    the title's ``private_trade_from_phase``).  cite(state, "private_trade")."""
    return state.options.get("private_trade", "turn")


def trade_as_purchase(state: GameState, actor: str, buyer: str) -> None:
    """The checks of a private company bought as the turn's purchase."""
    mode = private_trade(state)
    if mode == "turn":
        return
    rule = cite(state, "private_trade")
    require(actor == buyer, "A player buys a private company from another in the buyer's own "
            f"turn, as the purchase of that turn: {buyer} may make the offer (buy private ... "
            "from ...).", rule)
    blocked = may_buy_now(state)
    require(blocked is None, f"{blocked or ''} A private company bought from another player "
            "is the turn's purchase.", rule)
    first = str(state.rules.extra.get("private_trade_from_phase", ""))
    require(mode != "site" or not first or (state.phase or "") >= first,
            f"18xx.games lets players trade private companies from phase {first} on "
            "(option private_trade=site).", rule)


def answer_private_sale(ctx: Ctx, accepted: bool) -> None:
    state = ctx.state
    prop = state.round["proposal"]
    ctx.round_set(proposal=None)
    if not accepted:
        ctx.log(f"{ctx.actor} declines.")
        return
    sym, seller, buyer, price = prop["private"], prop["seller"], prop["buyer"], prop["price"]
    require(player_cash(state, buyer) >= price, f"{buyer} no longer has {money(price)}.")
    require(private_still_held(state, prop), f"{seller} no longer has {sym} to sell.")
    ctx.pay(player_holder(buyer), player_holder(seller), price)
    ctx.emit(PrivateOwner(sym, player_holder(buyer)))
    ctx.log(f"{buyer} buys {sym} from {seller} for {money(price)}.")
    ctx.round_set(turn={**state.round["turn"], "acted": True}, last_actor=prop["proposer"])
    book(state).private_changed_hands(ctx, sym)
    if private_trade(state) != "turn":  # the turn's purchase
        turn = state.round["turn"]
        ctx.round_set(turn={**turn, "bought": True, "sold_before_buy": bool(turn["sold"]),
                            "private_bought": True})
        if (not may_sell_any(state, buyer) or turn_order_rule(state) == "sell-buy") and \
                not buys_after_private(state, buyer):
            end_turn(ctx, buyer)


def private_still_held(state: GameState, prop: dict[str, Any]) -> bool:
    """Whether the seller of a proposed private company still has it open (a private
    company may be exchanged or closed while the sale waits for an answer)."""
    private = state.privates[prop["private"]]
    return private.owner == player_holder(prop["seller"]) and not private.closed


# -- passing and the end of the round ----------------------------------------------------------


def pass_or_done(ctx: Ctx) -> None:
    state, actor = ctx.state, ctx.actor
    problems = limit_problems(state, actor)
    if problems and may_sell_any(state, actor):
        raise RulesError(f"{'; '.join(problems)}: sell enough certificates before ending your "
                         "turn.", cite(ctx.state, "certificates"))
    if state.round["turn"]["acted"]:
        ctx.log(f"{actor} ends the turn.")
        end_turn(ctx)
        return
    ctx.log(f"{actor} passes.")
    passes = state.round["passes"] + 1
    if passes >= len(state.players):
        book(state).stock_round_ends(ctx)
        return
    ctx.round_set(passes=passes, current=state.left_of(actor), turn=new_turn())


def end_turn(ctx: Ctx, player: str | None = None) -> None:
    """The turn is over: offers for its sales when the title has price protection
    (Rulebook.offers_after_stock_turn), then the next player."""
    ctx.round_set(passes=0, turn=new_turn(), protection_last=None,
                  protection_seller=player or ctx.actor)
    if not book(ctx.state).offers_after_stock_turn(ctx):
        resume_after_protection(ctx)


def resume_after_protection(ctx: Ctx) -> None:
    """Play resumes left of the last president who protected a sale of the turn (price
    protection), or left of the player whose turn it was."""
    state = ctx.state
    after = state.round.get("protection_last") or state.round.get("protection_seller") \
        or ctx.actor
    ctx.round_set(current=state.left_of(after), protection_last=None, protection_seller=None)


# -- the round as steps ----------------------------------------------------------------------


@dataclass(frozen=True)
class StockRound(PlayersRound):
    """A blocking step first (a proposal to answer, the title's price protection offer);
    else the player whose turn it is acts, by the step for the action's type."""

    def not_your_turn(self, state: GameState, actor: str) -> str:
        rnd = state.round
        return f"It is {rnd['current']}'s turn in stock round {rnd['number']}, not {actor}'s."

    def refusal(self, state: GameState) -> RulesError:
        return RulesError("In a stock round you may par a corporation, buy a share, sell "
                          "shares, sell a private company to another player, or pass.",
                          cite(state, "stock"))


class AnswerPrivateSale(Step):
    """A private company offered between players waits for the other side (3.1)."""

    actions = frozenset({"accept", "decline"})
    turn = False

    def blocks(self, state: GameState) -> bool:
        return bool(state.round.get("proposal"))

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        prop = ctx.state.round["proposal"]
        require(ctx.actor == prop["answer_by"] and action["type"] in ("accept", "decline"),
                f"{prop['answer_by']} must first accept or decline the sale of "
                f"{prop['private']} for {money(prop['price'])}.")
        answer_private_sale(ctx, action["type"] == "accept")

    def moves(self, state: GameState) -> Moves:
        prop = state.round["proposal"]
        held = private_still_held(state, prop)
        return {prop["answer_by"]: ([{"action": {"type": "accept"}}] if held else []) +
                [{"action": {"type": "decline"}}]}


class BuyShares(Step):
    """A president's certificate at a par value, or a share (5.2)."""

    actions = frozenset({"par", "buy_share"})

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        if action["type"] == "par":
            par(ctx, action["corp"], action["price"])
        else:
            buy_share(ctx, action["corp"], action.get("source"), action.get("count", 1),
                      action.get("percent"))

    def moves(self, state: GameState) -> Moves:
        name = state.round["current"]
        if may_buy_now(state) is None:
            return {name: buy_moves(state, name)}
        if state.round["turn"].get("private_bought"):
            return {name: buys_after_private(state, name)}
        return {}

    def offers_other(self, state: GameState, name: str, kinds: frozenset[str]) -> bool:
        if name != state.round["current"] or may_buy_now(state) is not None:
            return super().offers_other(state, name, kinds)
        return any(m["action"]["type"] not in kinds for m in each_buy_move(state, name))


class SellShares(Step):
    """Shares sold to the bank pool (5.1)."""

    actions = frozenset({"sell"})

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        sell(ctx, action["sales"])

    def moves(self, state: GameState) -> Moves:
        name = state.round["current"]
        moves = []
        for corp, most in sell_options(state, name).items():
            least = min(n for n in range(1, most + 1)
                        if sale_blocker(state, name, corp, n) is None)
            moves.append({"action": {"type": "sell", "sales": [{"corp": corp, "count": least}]},
                          "min": least, "max": most})
        return {name: moves}

    def offers_other(self, state: GameState, name: str, kinds: frozenset[str]) -> bool:
        return "sell" not in kinds and name == state.round["current"] and \
            may_sell_any(state, name)


class SellPrivate(Step):
    """A private company offered to or asked of another player (3.1); the other side
    accepts or declines."""

    actions = frozenset({"sell_private", "buy_private"})

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        actor = ctx.actor
        if action["type"] == "sell_private":
            propose_private_sale(ctx, action["private"], actor, action["to"], action["price"])
        elif action.get("from"):
            propose_private_sale(ctx, action["private"], action["from"], actor, action["price"])
        else:
            raise STOCK_ROUND.refusal(ctx.state)


class PassOrDone(Step):
    """``pass`` (nothing done this turn) or ``done`` (the turn ends); everybody passing
    in turn ends the round (5.0)."""

    actions = frozenset({"pass"})

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        pass_or_done(ctx)

    def moves(self, state: GameState) -> Moves:
        name = state.round["current"]
        if limit_problems(state, name) and may_sell_any(state, name):
            return {}
        return {name: [{"action": {"type": "pass"}}]}


def company_action_done(ctx: Ctx, president: str | None = None) -> None:
    """A company's action (a title's redemption or reissue) is the president's whole
    turn and moves the priority."""
    president = president or ctx.actor
    turn = ctx.state.round["turn"]
    ctx.round_set(turn={**turn, "acted": True, "company_action": True}, last_actor=president)
    end_turn(ctx, president)


#: the stock round's common steps, in order
STEPS: tuple[Step, ...] = (AnswerPrivateSale(), BuyShares(), SellShares(), SellPrivate(),
                           PassOrDone())
#: the round of the common steps (a title with steps of its own makes its own)
STOCK_ROUND = StockRound("stock", STEPS)


def buy_moves(state: GameState, name: str) -> list[dict[str, Any]]:
    return list(each_buy_move(state, name))


def each_buy_move(state: GameState, name: str) -> Iterator[dict[str, Any]]:
    """The purchases ``name`` may make now (buy_moves), found one after another."""
    cash = player_cash(state, name)
    for corp, c in state.corps.items():
        if c.par is None and c.certs[0] == IPO:
            for price in state.rules.market.par_prices:
                if cash >= 2 * price and buy_blockers(state, name, corp, 2, False) is None and \
                        certificate_count(state, name) < certificate_limit(state):
                    yield {"action": {"type": "par", "corp": corp, "price": price},
                           "price": 2 * price}
            continue
        if c.par is None:
            continue
        counted = corp_counts_toward_limit(state, corp)
        if buy_blockers(state, name, corp, 1, counted) is not None:
            continue
        for where, cost in ((IPO, c.par), (POOL, state.price(corp))):
            if cost is not None and ordinary_indexes(state, corp, where) and cash >= cost:
                source = "ipo" if where == IPO else "pool"
                yield {"action": {"type": "buy_share", "corp": corp, "source": source,
                                  "count": 1}, "price": cost}
        yield from larger_certificate_moves(state, name, corp, counted)


def larger_certificate_moves(state: GameState, name: str, corp: str,
                             counted: bool) -> list[dict[str, Any]]:
    """The purchases of a certificate larger than a share (the Erie's extra 20%, V-6.5)
    that ``name`` may make now."""
    c, unit = state.corps[corp], state.rules.ordinary_percent
    moves: list[dict[str, Any]] = []
    if not state.rules.has_larger_certificates(corp):
        return moves
    for where, price in ((IPO, c.par), (POOL, state.price(corp))):
        for index in extra_indexes(state, corp, where):
            size = state.cert_percent(corp, index)
            cost = (price or 0) * size // unit
            if price is None or player_cash(state, name) < cost or buy_blockers(
                    state, name, corp, size // unit, counted, certificates=1) is not None:
                continue
            moves.append({"action": {"type": "buy_share", "corp": corp,
                                     "source": "ipo" if where == IPO else "pool",
                                     "count": 1, "percent": size}, "price": cost})
    return moves


__all__ = ["new_president", "new_stock_round", "place_par_token"]
