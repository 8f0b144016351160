"""The initial purchase of private companies: buy the cheapest, bid on the others, an
auction between the bidders; what happens when everybody passes and who bids first
between the bidders are the title's data (auction.all_pass, auction.start).

Round keys: ``current`` (whose buy-bid turn), ``passes`` (consecutive passes),
``bids`` ({private: {player: amount}} in the order made), ``auction`` (None or
the auction between bidders: private, order, leader, high, current, passes; with
free-for-all bidding ``current`` is None and ``passed`` lists who passed on the high
bid),
``must_buy`` (SV at $0: the current player must take it), ``pending_par`` (the
BO owner must set the B&O par value now).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .context import Ctx, money, player_cash, require
from .errors import RulesError
from .facts import Bid, BidsCleared, Priority, PrivateOwner, PrivatePrice
from .registry import book, cite
from .state import BANK, GameState, player_holder
from .steps import Moves, PlayersRound, Step

MIN_RAISE = 5


def new_auction_round(first: str) -> dict[str, Any]:
    return {
        "kind": "auction", "current": first, "passes": 0, "bids": {}, "auction": None,
        "must_buy": False, "pending_par": None,
    }


def unsold(state: GameState) -> list[str]:
    """Unsold private companies, cheapest first."""
    return [
        p.sym for p in state.rules.privates_by_value()
        if state.privates[p.sym].owner == BANK and not state.privates[p.sym].closed
    ]


def committed(state: GameState, name: str, except_private: str | None = None) -> int:
    """Money ``name`` has set aside for bids (1.2.1)."""
    return sum(
        bids[name] for sym, bids in state.round.get("bids", {}).items()
        if name in bids and sym != except_private
    )


def available(state: GameState, name: str, except_private: str | None = None) -> int:
    return player_cash(state, name) - committed(state, name, except_private)


def best_bid(state: GameState, sym: str) -> int | None:
    bids = state.round.get("bids", {}).get(sym, {})
    return max(bids.values()) if bids else None


def minimum_bid(state: GameState, sym: str) -> int:
    """At least $5 over the face value or over the best bid (1.2.1)."""
    best = best_bid(state, sym)
    return (best if best is not None else state.rules.private(sym).value) + MIN_RAISE


# -- the round as steps ------------------------------------------------------------------


@dataclass(frozen=True)
class AuctionRound(PlayersRound):
    """A blocking step first (a par value to set, an auction between bidders); else the
    player whose turn it is buys, bids or passes."""

    def not_your_turn(self, state: GameState, actor: str) -> str:
        return f"It is {state.round['current']}'s turn in the private auction, not {actor}'s."

    def refusal(self, state: GameState) -> RulesError:
        return RulesError("In the private auction you may buy the cheapest private company, "
                          "bid on another one, or pass.", cite(state, "auction"))


class ParFreePresident(Step):
    """The buyer of a private company that brings a president's certificate sets its
    par value before anything else (the title's hook: par_free_president)."""

    actions = frozenset({"par"})
    turn = False

    def blocks(self, state: GameState) -> bool:
        return bool(state.round.get("pending_par"))

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        state, actor, kind = ctx.state, ctx.actor, action["type"]
        owner, corp = state.round["pending_par"]["player"], state.round["pending_par"]["corp"]
        require(actor == owner, f"{owner} must first set the par value of {corp}.")
        require(kind == "par", f"You received the {corp} president's certificate: set its par "
                f"value first, e.g. par {corp} 100.", cite(state, "buy"))
        book(state).par_free_president(ctx, action)
        ctx.round_set(pending_par=None)
        continue_after_sale(ctx)

    def moves(self, state: GameState) -> Moves:
        owner, corp = state.round["pending_par"]["player"], state.round["pending_par"]["corp"]
        return {owner: [{"action": {"type": "par", "corp": corp, "price": p}}
                        for p in state.rules.market.par_prices]}


class AuctionBetweenBidders(Step):
    """Several bids on the private company next in line: the bidders bid on it."""

    actions = frozenset({"bid", "pass"})
    turn = False

    def blocks(self, state: GameState) -> bool:
        return bool(state.round.get("auction"))

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        decide_in_auction(ctx, action)

    def moves(self, state: GameState) -> Moves:
        auction = state.round["auction"]
        return {name: bidder_moves(state, name, auction)
                for name in answering(state, auction)}


def open_high_bid(state: GameState) -> str | None:
    """With free-for-all bidding, the high bid the bidders answer in any order ("CA
    $180 Ben"): one decision for each of them however the others answer it, so a
    deadline runs from the bid (pbem.moderation); None otherwise."""
    auction = state.round.get("auction")
    if not auction or auction["current"] is not None:
        return None
    return f"{auction['private']} {money(auction['high'])} {auction['leader']}"


def bidder_moves(state: GameState, name: str, auction: dict[str, Any]) -> list[dict[str, Any]]:
    sym = auction["private"]
    low, high = auction["high"] + MIN_RAISE, available(state, name, except_private=sym)
    moves: list[dict[str, Any]] = [{"action": {"type": "pass"}}]
    if high >= low:
        moves.insert(0, {"action": {"type": "bid", "private": None, "amount": low},
                         **bid_range(state, low, high)})
    return moves


def answering(state: GameState, auction: dict[str, Any]) -> list[str]:
    """The bidders the auction between bidders waits for: the one whose turn it is; with
    free-for-all bidding every bidder but the leader who has not passed on the high
    bid, in seat order."""
    if auction["current"] is not None:
        return [auction["current"]]
    return [n for n in auction["order"]
            if n != auction["leader"] and n not in auction["passed"]]


class BuyCheapest(Step):
    """The cheapest private company may be bought at its price (1.2)."""

    actions = frozenset({"buy_private"})

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        buy_cheapest(ctx, action.get("private"))

    def moves(self, state: GameState) -> Moves:
        name = state.round["current"]
        cheapest = unsold(state)[0]
        if available(state, name) >= state.privates[cheapest].price:
            return {name: [{"action": {"type": "buy_private", "private": cheapest},
                            "price": state.privates[cheapest].price}]}
        return {}


class BidOnPrivate(Step):
    """A bid on a private company other than the cheapest (1.2.1)."""

    actions = frozenset({"bid"})

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        place_bid(ctx, action.get("private"), action["amount"])

    def moves(self, state: GameState) -> Moves:
        name = state.round["current"]
        if state.round["must_buy"]:
            return {}
        moves = []
        for sym in unsold(state)[1:]:
            low, high = minimum_bid(state, sym), available(state, name, except_private=sym)
            if high >= low:
                moves.append({"action": {"type": "bid", "private": sym, "amount": low},
                              **bid_range(state, low, high)})
        return {name: moves}


class PassInAuction(Step):
    """A pass; when everybody has passed, the title's data say what happens (1.2.3)."""

    actions = frozenset({"pass"})

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        state = ctx.state
        require(not state.round["must_buy"], f"The {unsold(state)[0]} costs $0 now: you must "
                "take it (buy).", cite(state, "auction_all_pass"))
        pass_turn(ctx)

    def moves(self, state: GameState) -> Moves:
        if state.round["must_buy"]:
            return {}
        return {state.round["current"]: [{"action": {"type": "pass"}}]}


#: the private auction's steps (the titles' data vary what happens in them)
STEPS: tuple[Step, ...] = (ParFreePresident(), AuctionBetweenBidders(), BuyCheapest(),
                           BidOnPrivate(), PassInAuction())


def buy_cheapest(ctx: Ctx, sym: str | None) -> None:
    state, actor = ctx.state, ctx.actor
    cheapest = unsold(state)[0]
    price = state.privates[cheapest].price
    if sym is not None and sym != cheapest:
        require(sym in unsold(state), f"{sym} is not for sale any more.")
        raise RulesError(f"Only the cheapest private company can be bought outright: "
                         f"buy {cheapest} for {money(price)}; bid on {sym} instead "
                         f"(at least {money(minimum_bid(state, sym))}).", cite(state, "auction"))
    require(available(state, actor) >= price,
            f"{cheapest} costs {money(price)} and you have {money(available(state, actor))} "
            "not set aside for bids.", cite(state, "auction"))
    ctx.log(f"{actor} buys {cheapest} for {money(price)}.")
    sell_private(ctx, cheapest, actor, price)
    left = state.left_of(actor)
    ctx.emit(Priority(left))
    ctx.round_set(passes=0, must_buy=False, current=left)
    if not state.round["pending_par"]:
        continue_after_sale(ctx)


def sell_private(ctx: Ctx, sym: str, buyer: str, price: int) -> None:
    ctx.pay(player_holder(buyer), BANK, price)
    ctx.emit(PrivateOwner(sym, player_holder(buyer)))
    ctx.emit(BidsCleared(sym))
    book(ctx.state).on_private_bought(ctx, sym, buyer)


def place_bid(ctx: Ctx, sym: str | None, amount: int) -> None:
    state, actor = ctx.state, ctx.actor
    left = unsold(state)
    require(sym is not None, "Name the private company you bid on, e.g. bid "
            f"{left[-1]} {minimum_bid(state, left[-1])}.")
    assert sym is not None
    require(sym in left, f"{sym} is not for sale any more.")
    require(sym != left[0], f"{sym} is the cheapest private company: buy it for "
            f"{money(state.privates[sym].price)} rather than bid.", cite(state, "auction"))
    low = minimum_bid(state, sym)
    require(amount >= low, f"The minimum bid for {sym} is {money(low)}.",
            cite(state, "auction_bid"))
    check_raise(state, low - MIN_RAISE, amount)
    free = available(state, actor, except_private=sym)
    require(amount <= free, f"You cannot bid {money(amount)}: you have {money(free)} not set "
            "aside for other bids.", cite(state, "auction_bid"))
    ctx.emit(Bid(sym, actor, amount))
    ctx.log(f"{actor} bids {money(amount)} for {sym}.")
    ctx.round_set(passes=0, current=state.left_of(actor))


def check_raise(state: GameState, previous: int, amount: int) -> None:
    """A title's rule on the size of a raise (raise steps)."""
    problem = book(state).bid_problem(state, previous, amount)
    require(problem is None, problem or "", cite(state, "auction_bid"))


def bid_range(state: GameState, low: int, high: int) -> dict[str, int]:
    """The amounts a listed bid may take: min, max and the step between them."""
    step = book(state).bid_step(state)
    return {"min": low, "max": high if step else low, "step": step or 1}


def pass_turn(ctx: Ctx) -> None:
    state, actor = ctx.state, ctx.actor
    passes = state.round["passes"] + 1
    ctx.log(f"{actor} passes.")
    if passes < len(state.players):
        ctx.round_set(passes=passes, current=state.left_of(actor))
        return
    if all_pass_rule(state) == "revenue-then-drop":
        everybody_passed_revenue_then_drop(ctx)
        return
    cheapest = unsold(state)[0]
    first = state.rules.privates_by_value()[0].sym
    if cheapest == first:
        price = max(0, state.privates[first].price - MIN_RAISE)
        ctx.emit(PrivatePrice(first, price))
        ctx.log(f"Everybody passed: the price of {first} drops to {money(price)}.")
        ctx.round_set(passes=0, current=state.left_of(actor), must_buy=price == 0)
        return
    ctx.log("Everybody passed: the private companies pay their revenue.")
    pay_private_revenue(ctx)
    ctx.round_set(passes=0, current=resumes_with(state, actor))


def resumes_with(state: GameState, last: str) -> str:
    """Who bids after everybody passed: the priority holder (the rulebooks), or,
    with option auction_resume=next (18xx.games), the player left of the last to pass."""
    if state.options.get("auction_resume", "priority") == "next":
        return state.left_of(last)
    return state.priority


def all_pass_rule(state: GameState) -> str:
    """What happens when everybody passes (data auction.all_pass): "drop-first" lowers
    the cheapest private's price first; "revenue-then-drop" holds an operating round that
    pays the privates' revenue and
    then lowers the first private's price (Purchasing Private Companies, p.10)."""
    return str(state.rules.extra.get("auction", {}).get("all_pass", "drop-first"))


def everybody_passed_revenue_then_drop(ctx: Ctx) -> None:
    """An operating round of private revenue only, then the price of the first private
    drops $5 if it is unsold; at $0 the priority holder receives it (p.10)."""
    state = ctx.state
    if any(p.owner != BANK and not p.closed for p in state.privates.values()):
        ctx.log("Everybody passed: an operating round in which the private companies pay "
                "their revenue.")
        pay_private_revenue(ctx)
    else:
        ctx.log("Everybody passed.")
    first = state.rules.privates_by_value()[0].sym
    if state.privates[first].owner == BANK:
        drop = int(state.rules.private(first).extra.get("price_drop_when_unsold", MIN_RAISE))
        price = max(0, state.privates[first].price - drop)
        ctx.emit(PrivatePrice(first, price))
        ctx.log(f"The price of {first} drops to {money(price)}.")
        if price == 0:
            holder = resumes_with(state, ctx.actor)
            ctx.log(f"{holder} receives {first} at no charge.")
            sell_private(ctx, first, holder, 0)
            ctx.emit(Priority(state.left_of(holder)))
            ctx.round_set(passes=0, current=state.priority)
            if not state.round["pending_par"]:
                continue_after_sale(ctx)
            return
    first_player = resumes_with(state, ctx.actor)
    ctx.round_set(passes=0, current=first_player)
    ctx.log(f"Another initial stock round begins with {first_player}.")


def pay_private_revenue(ctx: Ctx) -> None:
    state = ctx.state
    for p in state.rules.privates_by_value():
        private = state.privates[p.sym]
        if private.owner != BANK and not private.closed:
            ctx.pay(BANK, private.owner, p.revenue)
            ctx.log(f"{p.sym} pays {money(p.revenue)} to {private.owner.split(':', 1)[1]}.")


# -- resolving bids -------------------------------------------------------------------


def continue_after_sale(ctx: Ctx) -> None:
    """After a private is sold: resolve bids on the next cheapest (1.2.2), start an
    auction, or, when all are sold, start the first stock round."""
    state = ctx.state
    while True:
        left = unsold(state)
        if not left:
            book(state).auction_ends(ctx)
            return
        bids = state.round["bids"].get(left[0], {})
        if not bids:
            ctx.round_set(current=state.priority)
            return
        if len(bids) == 1:
            (bidder, amount), = bids.items()
            ctx.log(f"{bidder} is the only bidder for {left[0]} and buys it for {money(amount)}.")
            sell_private(ctx, left[0], bidder, amount)
            if state.round["pending_par"]:
                return
            continue
        start_bidder_auction(ctx, left[0], bids)
        return


def start_bidder_auction(ctx: Ctx, sym: str, bids: dict[str, int]) -> None:
    state = ctx.state
    leader = max(bids, key=lambda name: bids[name])
    if auction_start_rule(state) == "left-of-highest" and not lowest_bids_first(state):
        first = next(n for n in state.clockwise_from(leader)[1:] if n in bids)
    else:
        first = min(bids, key=lambda name: bids[name])
    order = [name for name in state.clockwise_from(first) if name in bids]
    auction = {"private": sym, "order": order, "leader": leader, "high": bids[leader],
               "current": first, "passes": 0}
    if book(state).free_bidding(state):
        auction.update(current=None, passed=[])
        others = " and ".join(answering(state, auction))
        ctx.log(f"Auction for {sym} between {', '.join(order)}: {leader} leads with "
                f"{money(bids[leader])}; {others} may raise or pass, in any order.")
    else:
        ctx.log(f"Auction for {sym} between {', '.join(order)}: {leader} leads with "
                f"{money(bids[leader])}; {first} bids first.")
    ctx.round_set(auction=auction)


def auction_start_rule(state: GameState) -> str:
    """Who bids first between the bidders (data auction.start): the lowest bidder, or
    the bidder to the left of the highest bidder (with option auction_order=lowest-bid
    the lowest bidder, as on 18xx.games)."""
    return str(state.rules.extra.get("auction", {}).get("start", "lowest-bid"))


def lowest_bids_first(state: GameState) -> bool:
    """Option auction_order=lowest-bid (18xx.games): the lowest bidder always bids next
    and a bidder who passes leaves the auction.  Default (1.2.2): the lowest bidder
    starts, then clockwise; a player who passed may bid again."""
    return state.options.get("auction_order", "clockwise") == "lowest-bid"


def lowest_bidder(state: GameState, auction: dict[str, Any]) -> str:
    """The bidder still in the auction with the lowest bid (not the leader)."""
    bids = state.round["bids"].get(auction["private"], {})
    waiting = [n for n in auction["order"] if n != auction["leader"]]
    return min(waiting, key=lambda name: bids.get(name, 0))


def next_bidder(auction: dict[str, Any], after: str) -> str:
    order = auction["order"]
    i = order.index(after)
    for step in range(1, len(order) + 1):
        name = order[(i + step) % len(order)]
        if name != auction["leader"]:
            return name
    return after


def decide_in_auction(ctx: Ctx, action: dict[str, Any]) -> None:
    state, actor = ctx.state, ctx.actor
    auction = dict(state.round["auction"])
    sym = auction["private"]
    if auction["current"] is None:
        decide_free_bidding(ctx, auction, action)
        return
    require(actor == auction["current"], f"The auction for {sym} waits for "
            f"{auction['current']}, not {actor}.")
    kind = action["type"]
    if kind == "bid":
        raise_in_auction(ctx, auction, action)
        auction.update(passes=0)
        auction["current"] = (lowest_bidder(state, auction) if lowest_bids_first(state)
                              else next_bidder(auction, actor))
        ctx.round_set(auction=auction)
    elif kind == "pass" and book(state).pass_leaves_auction(state):
        ctx.log(f"{actor} passes and leaves the auction for {sym}.")
        after = next_bidder(auction, actor)
        auction["order"] = [n for n in auction["order"] if n != actor]
        if len(auction["order"]) == 1:
            win_auction(ctx, auction)
            return
        auction["current"] = lowest_bidder(state, auction) if lowest_bids_first(state) \
            else after
        ctx.round_set(auction=auction)
    elif kind == "pass":
        ctx.log(f"{actor} passes in the auction for {sym}.")
        auction["passes"] += 1
        if auction["passes"] >= len(auction["order"]) - 1:
            win_auction(ctx, auction)
            return
        auction["current"] = next_bidder(auction, actor)
        ctx.round_set(auction=auction)
    else:
        raise RulesError(f"In the auction for {sym} you may bid (at least "
                         f"{money(auction['high'] + MIN_RAISE)}) or pass.",
                         cite(state, "auction_bidders"))


def raise_in_auction(ctx: Ctx, auction: dict[str, Any], action: dict[str, Any]) -> None:
    """The actor's bid in the auction between bidders, checked and recorded; ``auction``
    gets the new leader and high bid (the caller stores it)."""
    state, actor, sym = ctx.state, ctx.actor, auction["private"]
    named = action.get("private")
    require(named in (None, sym), f"The auction is for {sym}; bid on {named} later.")
    low = auction["high"] + MIN_RAISE
    require(action["amount"] >= low, f"The minimum bid for {sym} is {money(low)}.",
            cite(state, "auction_bidders"))
    check_raise(state, auction["high"], action["amount"])
    free = available(state, actor, except_private=sym)
    require(action["amount"] <= free, f"You cannot bid {money(action['amount'])}: you "
            f"have {money(free)} not set aside for other bids.", cite(state, "auction_bid"))
    ctx.emit(Bid(sym, actor, action["amount"]))
    ctx.log(f"{actor} bids {money(action['amount'])} for {sym}.")
    auction.update(leader=actor, high=action["amount"])


def decide_free_bidding(ctx: Ctx, auction: dict[str, Any], action: dict[str, Any]) -> None:
    """Free-for-all bidding (the title's hook free_bidding): every bidder but the leader
    answers the high bid, raising or passing, in any order; a raise asks all the others
    again; the leader wins when every other bidder has passed on his bid (or, where a
    pass leaves the auction, when he is the last one in)."""
    state, actor, sym = ctx.state, ctx.actor, auction["private"]
    leader, high = auction["leader"], money(auction["high"])
    require(actor in auction["order"], f"The auction for {sym} is between "
            f"{', '.join(auction['order'])}; {actor} is not in it.", cite(state, "auction_bidders"))
    require(actor != leader, f"You lead the auction for {sym} with {high}: the others may "
            "raise or pass.", cite(state, "auction_bidders"))
    require(actor not in auction["passed"], f"You passed on {leader}'s {high} for {sym}; you "
            "may bid again if someone raises.", cite(state, "auction_bidders"))
    kind = action["type"]
    if kind == "bid":
        raise_in_auction(ctx, auction, action)
        auction["passed"] = []
    elif kind == "pass" and book(state).pass_leaves_auction(state):
        ctx.log(f"{actor} passes and leaves the auction for {sym}.")
        auction["order"] = [n for n in auction["order"] if n != actor]
    elif kind == "pass":
        ctx.log(f"{actor} passes on {leader}'s {high} for {sym}.")
        auction["passed"] = [*auction["passed"], actor]
    else:
        raise RulesError(f"In the auction for {sym} you may bid (at least "
                         f"{money(auction['high'] + MIN_RAISE)}) or pass.",
                         cite(state, "auction_bidders"))
    if not answering(state, auction):
        win_auction(ctx, auction)
        return
    ctx.round_set(auction=auction)


def win_auction(ctx: Ctx, auction: dict[str, Any]) -> None:
    """The high bidder buys; the priority deal card does not move (1.2.2)."""
    sym, leader, high = auction["private"], auction["leader"], auction["high"]
    ctx.log(f"{leader} wins the auction and buys {sym} for {money(high)}.")
    ctx.round_set(auction=None)
    sell_private(ctx, sym, leader, high)
    if not ctx.state.round["pending_par"]:
        continue_after_sale(ctx)
