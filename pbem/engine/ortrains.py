"""Buying trains in an operating turn, forced purchases and sales, bankruptcy and excess
trains (where a title's rules differ: its Rulebook.forced_sale, forced_sale_problem,
corporate_train_with_president_money, train_sale_declined)."""

from __future__ import annotations

from typing import Any

from . import orrun
from .context import Ctx, money, player_cash, require
from .ending import end_game
from .errors import RulesError
from .facts import MarketRestore, PrivateClosed, PrivateOwner
from .registry import book, cite
from .shares import (
    pool_shares,
    share_units,
)
from .state import BANK, POOL, GameState, corp_holder, player_holder
from .stock import sale_blocker
from .title import TrainDef
from .trains import (
    bank_offers,
    buy_from_bank,
    has_room,
    move_train,
    obsolete_by,
    over_limit,
    train_limit,
)

# -- what is available ------------------------------------------------------------------------


def cheapest_available(state: GameState) -> int | None:
    """The cheapest train in the bank or the pool (6.6.2)."""
    prices = [t.price for t in bank_offers(state)]
    prices += [state.rules.train(t).price for t in state.pool_trains]
    return min(prices) if prices else None


def must_buy_train(state: GameState, corp: str) -> bool:
    """A corporation with a legal route and no train must buy one, while the bank or the
    pool has one to sell (6.6.2); a train from another corporation needs its consent."""
    return (not state.corps[corp].trains and cheapest_available(state) is not None
            and orrun.has_route(state, corp))


def in_emergency(state: GameState, corp: str) -> bool:
    """Forced to buy and the treasury cannot pay for the cheapest train (6.6.2)."""
    cheapest = cheapest_available(state)
    return (cheapest is not None and state.corps[corp].cash < cheapest
            and must_buy_train(state, corp))


def emergency_shortfall(state: GameState, corp: str) -> int:
    cheapest = cheapest_available(state) or 0
    president = state.president(corp)
    assert president is not None
    return cheapest - state.corps[corp].cash - player_cash(state, president)


# -- buying ------------------------------------------------------------------------------------


def buy_train(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    state = ctx.state
    source = action.get("source")
    if source not in (None, "bank", "pool"):
        propose_from_corporation(ctx, corp, action)
        return
    train = pick_train(state, action.get("train"), source)
    trade = action.get("trade")
    price = train.price
    if trade is not None:
        trade_in = train.extra.get("trade_in", {})
        require(train.name == "D" or "trade_in" in train.extra, "Only a diesel is bought with a "
                "trade-in.", cite(state, "trains"))
        require(trade in trade_in.get("trains", []), f"A diesel may be traded in for a "
                f"{', '.join(trade_in.get('trains', []))}-train only.", cite(state, "trains"))
        require(trade in state.corps[corp].trains, f"{corp} has no {trade}-train to trade in.",
                cite(state, "trains"))
        price = trade_in["price"]
    else:
        require(has_room(state, corp), f"{corp} already has "
                f"{len(state.corps[corp].trains)} trains, the limit in this phase.",
                cite(state, "trains"))
    pay_for_train(ctx, corp, price, cheapest=True)
    if trade is not None:
        obsolete = obsolete_by(state, trade, train)
        move_train(ctx, trade, corp_holder(corp), "scrap" if obsolete else POOL)
        ctx.log(f"{corp} trades in a {trade}-train.")
    if source == "pool":
        ctx.pay(corp_holder(corp), BANK, price)
        move_train(ctx, train.name, POOL, corp_holder(corp))
        ctx.log(f"{corp} buys a {train.name}-train from the bank pool for {money(price)}.")
    else:
        buy_from_bank(ctx, corp, train, price)
    after_purchase(ctx, corp)


def pick_train(state: GameState, name: str | None, source: str | None) -> TrainDef:
    offers = bank_offers(state)
    if source == "pool":
        require(bool(state.pool_trains), "There is no train in the bank pool.",
        cite(state, "trains"))
        if name is None:
            name = min(state.pool_trains, key=lambda t: state.rules.train(t).price)
        require(name in state.pool_trains, f"There is no {name}-train in the bank pool.",
                cite(state, "trains"))
        return state.rules.train(name)
    require(bool(offers), "The bank has no trains left.", cite(state, "trains"))
    if name is None:
        return offers[0]
    for train in offers:
        if train.name == name:
            return train
    names = " or ".join(f"a {t.name}-train ({money(t.price)})" for t in offers)
    raise RulesError(f"The bank sells {names} now, not a {name}-train.", cite(state, "trains"))


def pay_for_train(ctx: Ctx, corp: str, price: int, cheapest: bool) -> None:
    """Check the money; in a forced purchase the president pays what the treasury
    cannot, for the cheapest train only (6.6.2)."""
    state = ctx.state
    cash = state.corps[corp].cash
    if cash >= price:
        return
    president = state.president(corp)
    assert president is not None
    require(must_buy_train(state, corp), f"A {money(price)} train is more than {corp}'s "
            f"{money(cash)}.", cite(state, "trains"))
    require(cheapest and price == cheapest_available(state), f"{corp} cannot pay for this train; "
            f"with {president}'s money it must buy the cheapest train available "
            f"({money(cheapest_available(state) or 0)}).", cite(state, "forced_train"))
    needed = price - cash
    if player_cash(state, president) < needed and book(state).bank_lends(state):
        book(state).borrow_for_train(ctx, corp, price)
        return
    require(player_cash(state, president) >= needed, f"{corp} and {president} together have "
            f"{money(cash + player_cash(state, president))}; the train costs {money(price)}. "
            f"{president} must first sell shares (sell N CORP) to raise the difference.",
            cite(state, "forced_sales"))
    ctx.pay(player_holder(president), corp_holder(corp), needed)
    ctx.log(f"{president} gives {corp} {money(needed)} towards the train.")


def after_purchase(ctx: Ctx, corp: str) -> None:
    state = ctx.state
    closes = [s for s, p in state.privates.items() if not p.closed and
              state.rules.private(s).extra.get("closes_on_first_train_of") == corp]
    for sym in closes:
        ctx.emit(PrivateClosed(sym))
        ctx.log(f"{sym} closes: {corp} has bought its first train.")
    ctx.round_set(turn={**state.round["turn"], "step": "trains",
                        "bought": state.round["turn"]["bought"] + 1})
    discards = over_limit(state)
    if discards:
        ctx.round_set(discards=discards)
        ctx.log(f"Over the train limit of {train_limit(state)}: {', '.join(discards)} must "
                "discard a train.")


# -- trains between corporations -------------------------------------------------------------


def propose_from_corporation(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    state = ctx.state
    seller: str = action["source"]
    require(seller in state.corps and seller != corp, f"{seller} is not another corporation.")
    trains = state.corps[seller].trains
    name: str | None = action.get("train")
    if name is None and len(set(trains)) == 1:
        name = trains[0]
    if name is None or name not in trains:
        raise RulesError(f"{seller} has no {name or 'such'}-train to sell.", cite(state, "trains"))
    problem = book(state).train_sale_problem(state, seller, corp)
    require(problem is None, problem or "", cite(state, "trains"))
    price: int | None = action.get("price")
    if price is None or price < 1:
        raise RulesError("Name a price of at least $1, e.g. buy train "
                         f"{name} from {seller} for {state.rules.train(name).price}.",
                         cite(state, "trains"))
    require(has_room(state, corp), f"{corp} is at its train limit.",
            cite(state, "trains"))
    if state.corps[corp].cash < price:
        require(book(state).corporate_train_with_president_money(state),
                f"{corp} has only {money(state.corps[corp].cash)}: with "
                "the president's money a train may be bought only from the bank or the open "
                "market (the cheapest there).", cite(state, "forced_train"))
        require(price <= state.rules.train(name).price, "With the president's money a train "
                "from another corporation costs at most its face value.",
                cite(state, "forced_train"))
        cheapest = cheapest_available(state)
        require(must_buy_train(state, corp), f"{corp} has only {money(state.corps[corp].cash)}.",
                cite(state, "trains"))
        president = state.president(corp)
        assert president is not None
        require(state.corps[corp].cash + player_cash(state, president) >= price,
                f"{corp} and {president} together cannot pay {money(price)}.",
                cite(state, "forced_train"))
        assert cheapest is None or cheapest >= 0
    proposal = {"kind": "train", "buyer": corp, "seller": seller, "train": name, "price": price,
                "answer_by": state.president(seller)}
    if state.president(seller) == state.president(corp):
        complete_train_sale(ctx, proposal)
        return
    ctx.round_set(proposal=proposal)
    ctx.log(f"{corp} offers {money(price)} for {seller}'s {name}-train; "
            f"{proposal['answer_by']} may accept or decline.")


def complete_train_sale(ctx: Ctx, proposal: dict[str, Any]) -> None:
    state = ctx.state
    corp, seller, name, price = (proposal["buyer"], proposal["seller"], proposal["train"],
                                 proposal["price"])
    if state.corps[corp].cash < price:
        president = state.president(corp)
        assert president is not None
        ctx.pay(player_holder(president), corp_holder(corp), price - state.corps[corp].cash)
    ctx.pay(corp_holder(corp), corp_holder(seller), price)
    move_train(ctx, name, corp_holder(seller), corp_holder(corp))
    ctx.log(f"{corp} buys a {name}-train from {seller} for {money(price)}.")
    after_purchase(ctx, corp)


# -- excess trains -----------------------------------------------------------------------------


def discard(ctx: Ctx, name: str) -> None:
    state = ctx.state
    corp = state.round["discards"][0]
    require(ctx.actor == state.president(corp), f"{state.president(corp)} must first choose a "
            f"train for {corp} to discard.", cite(state, "discard"))
    require(name in state.corps[corp].trains, f"{corp} has no {name}-train.")
    move_train(ctx, name, corp_holder(corp), POOL)
    ctx.log(f"{corp} discards a {name}-train to the bank pool.")
    ctx.round_set(discards=over_limit(state))


# -- forced sales and bankruptcy ----------------------------------------------------------------


def emergency_sell(ctx: Ctx, corp: str, sales: list[dict[str, Any]]) -> None:
    """The president sells shares to raise money for a forced train purchase (6.6.3)."""
    state = ctx.state
    president = ctx.actor
    rule = cite(state, "forced_sales")
    require(in_emergency(state, corp), "Shares may be sold in an operating round only to pay "
            "for a forced train purchase.", rule)
    remember_position(ctx)
    only_enough = state.options.get("forced_sale", "only-enough") == "only-enough"
    for sale in sales:
        short = emergency_shortfall(state, corp)
        require(short > 0 or not only_enough, f"{president} already has enough money for the "
                "train: sell no more.", rule)
        other, count = sale["corp"], sale["count"]
        problem = forced_sale_problem(state, president, corp, other, count)
        require(problem is None, problem or "", rule)
        require(not only_enough or not smaller_sale_enough(state, president, corp, other, count),
                f"Selling {count - 1} would already raise enough: the president may sell "
                "only what the train needs.", rule)
        book(state).forced_sale(ctx, president, other, count, corp)
    book(state).after_forced_sales(ctx)


def smaller_sale_enough(state: GameState, president: str, corp: str, other: str,
                        count: int) -> bool:
    """Whether ``count - 1`` shares of ``other`` would already pay for ``corp``'s train,
    and may be sold (half of a 20% certificate needs change in the pool, V-6.5)."""
    smaller = count - 1
    return smaller > 0 and \
        proceeds(state, president, other, smaller) >= emergency_shortfall(state, corp) and \
        forced_sale_problem(state, president, corp, other, smaller) is None


def forced_sale_problem(
    state: GameState, name: str, corp: str, other: str, count: int
) -> str | None:
    problem = sale_blocker(state, name, other, count)
    if problem is not None:
        return problem
    problem = book(state).forced_sale_problem(state, name, corp, other, count)
    if problem is not None:
        return problem
    if other == corp:
        holder = player_holder(name)
        remaining = state.percent(corp, holder) - count * state.rules.ordinary_percent
        for rival in state.names:
            if rival != name and state.percent(corp, player_holder(rival)) > remaining:
                return (f"Selling {count} {corp} would hand the presidency of {corp} to "
                        f"{rival}; a forced sale may not change it.")
    return None


def bankruptcy_certain(state: GameState, name: str, corp: str) -> bool:
    """Whether even every sale ``name`` may still make cannot pay for ``corp``'s train."""
    if not in_emergency(state, corp):
        return False
    blocks = largest_sales(state, name, corp)
    raisable = sum(proceeds(state, name, c, n) for c, n in blocks.items())
    return emergency_shortfall(state, corp) > raisable


def proceeds(state: GameState, name: str, corp: str, count: int) -> int:
    """What ``name`` receives for ``count`` shares of ``corp`` sold now (the title's
    rule: Rulebook.sale_proceeds)."""
    return book(state).sale_proceeds(state, name, corp, count) if count > 0 else 0


def emergency_sales(state: GameState, corp: str) -> dict[str, int]:
    """The most shares of each corporation the president may sell now (6.6.3)."""
    president = state.president(corp)
    if president is None or not in_emergency(state, corp) or emergency_shortfall(state, corp) <= 0:
        return {}
    options = {}
    for other in state.corps:
        held = share_units(state, other, player_holder(president))
        for count in range(held, 0, -1):
            if forced_sale_problem(state, president, corp, other, count) is None:
                short = emergency_shortfall(state, corp)
                needed = next((n for n in range(1, count + 1)
                               if proceeds(state, president, other, n) >= short and
                               forced_sale_problem(state, president, corp, other, n) is None),
                              count)
                options[other] = needed
                break
    return options


def fewest_forced_sale(state: GameState, corp: str, other: str, most: int) -> int:
    """The fewest shares of ``other`` the president may sell for ``corp``'s train: one,
    or two where his only certificate is a 20% one whose half needs change the pool
    lacks (V-6.5)."""
    president = state.president(corp) or ""
    return next((n for n in range(1, most + 1)
                 if forced_sale_problem(state, president, corp, other, n) is None), most)


def bankrupt(ctx: Ctx, corp: str) -> None:
    """The president cannot raise the money: he is bankrupt and the game ends (6.7).

    Default (bankruptcy=after-sales): he declares it once he has sold every share he may.
    Option bankruptcy=declare (18xx.games): he may declare it as soon as even those sales
    could not raise the money; they are then made for him (the largest block of each
    corporation he may sell), and the game ends."""
    state = ctx.state
    declare = state.options.get("bankruptcy", "after-sales") == "declare"
    short = emergency_shortfall(state, corp) if in_emergency(state, corp) else 0
    if declare:
        blocks = largest_sales(state, ctx.actor, corp)
        raisable = sum(proceeds(state, ctx.actor, c, n) for c, n in blocks.items())
        require(short > raisable, "Only a president who cannot raise the money for a forced "
                "train purchase, even by selling every share they may, goes bankrupt.",
                cite(state, "bankruptcy"))
        for other, count in blocks.items():
            book(state).forced_sale(ctx, ctx.actor, other, count, corp)
    else:
        require(short > 0 and not emergency_sales(state, corp), "Only a president who cannot "
                "raise the money for a forced train purchase, even by selling every share they "
                "may, goes bankrupt.", cite(state, "bankruptcy"))
    ctx.log(f"{ctx.actor} cannot raise the money for {corp}'s train and is bankrupt.")
    end_game(ctx, "bankruptcy", bankrupt=ctx.actor)


def largest_sales(state: GameState, name: str, corp: str) -> dict[str, int]:
    """For each corporation, the most shares ``name`` may sell for ``corp``'s train."""
    blocks = {}
    for other in state.corps:
        for count in range(share_units(state, other, player_holder(name)), 0, -1):
            if forced_sale_problem(state, name, corp, other, count) is None:
                blocks[other] = count
                break
    return blocks


def pool_room(state: GameState, corp: str) -> int:
    return state.rules.pool_certificate_limit - pool_shares(state, corp)


def offer_private_for_emergency(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    """In a forced train purchase the president may sell a private company to another
    player who accepts, at any agreed price (6.6.3, C-2.3.2)."""
    state = ctx.state
    president = ctx.actor
    require(in_emergency(state, corp) and emergency_shortfall(state, corp) > 0,
            "In an operating round a president sells a private company to a player only to "
            "raise money for a forced train purchase.", cite(state, "forced_sales"))
    sym, buyer, price = action["private"], action["to"], action["price"]
    private = state.privates.get(sym)
    require(private is not None and not private.closed
            and private.owner == player_holder(president), f"{president} does not own {sym}.")
    require(buyer in state.names and buyer != president, f"{buyer} is not another player.")
    require(price >= 0 and player_cash(state, buyer) >= price,
            f"{buyer} does not have {money(price)}.")
    remember_position(ctx)
    ctx.round_set(proposal={"kind": "private_to_player", "buyer": buyer, "seller": president,
                            "private": sym, "price": price, "answer_by": buyer})
    ctx.log(f"{president} offers {sym} to {buyer} for {money(price)}; {buyer} may accept or "
            "decline.")


def complete_emergency_private_sale(ctx: Ctx, proposal: dict[str, Any]) -> None:
    state = ctx.state
    buyer, seller, sym, price = (proposal["buyer"], proposal["seller"], proposal["private"],
                                 proposal["price"])
    require(player_cash(state, buyer) >= price, f"{buyer} no longer has {money(price)}.")
    ctx.pay(player_holder(buyer), player_holder(seller), price)
    ctx.emit(PrivateOwner(sym, player_holder(buyer)))
    ctx.log(f"{buyer} buys {sym} from {seller} for {money(price)}.")


# -- a change of president in the corporation selling the train (6.6.3) ------------------------
#
# "Any changes of president caused by share sales take place immediately.  In this case,
# the new president may cancel the purchase of one of his new company's trains by the
# company without a train during this process.  If that occurs, the position will be
# restored to that at the beginning of the train-buying step (and the beleaguered
# president must try a different plan)." (6.6.3; the rules questions' "Buying Trains
# Summary": "If the Corporation selling the Train changes President, the incoming
# President must agree to the transaction; if he does not, the game state is restored to
# its position before any train purchase.")  The train changes hands after the forced
# sales, so the new president answers the offer; declining restores the position from
# before the first forced sale (nothing else happens in between: the corporation has no
# train until it buys one).


def remember_position(ctx: Ctx) -> None:
    """Before the first forced sale (or private company offered) of this train purchase:
    who holds what, the money and the share values, to restore if need be."""
    state = ctx.state
    if state.round["turn"].get("before_sales") is not None:
        return
    cash = {BANK: state.bank}
    cash.update({player_holder(p.name): p.cash for p in state.players})
    cash.update({corp_holder(sym): c.cash for sym, c in state.corps.items()})
    position = {
        "certs": {sym: list(c.certs) for sym, c in state.corps.items()},
        "cash": cash,
        "market": {sym: [*c.cell, c.arrival] for sym, c in state.corps.items()
                   if c.cell is not None},
        "privates": {sym: p.owner for sym, p in state.privates.items()},
    }
    ctx.round_set(turn={**state.round["turn"], "before_sales": position})


def restore_before_sales(ctx: Ctx, proposal: dict[str, Any]) -> None:
    """The president of the selling corporation declined: if the forced sales made him its
    president, the position goes back to the start of the train purchase (where the
    title's rules have it, its Rulebook.train_sale_declined calls this)."""
    state = ctx.state
    before = state.round["turn"].get("before_sales")
    seller = proposal["seller"]
    if before is None or before["certs"][seller][0] == state.corps[seller].certs[0]:
        return  # the seller kept its president
    buyer, president = proposal["buyer"], state.president(proposal["buyer"])
    restore_position(ctx, before)
    ctx.log(f"{ctx.actor}, president of {seller} since the forced sales, cancels the sale of "
            f"its train: the position goes back to the start of {buyer}'s train purchase, and "
            f"{president} must try another plan ({cite(state, 'forced_sales')}).")


def restore_position(ctx: Ctx, before: dict[str, Any]) -> None:
    state = ctx.state
    for sym, certs in before["certs"].items():
        for index, holder in enumerate(certs):
            if state.corps[sym].certs[index] != holder:
                ctx.move_cert(sym, index, holder)
    for sym, owner in before["privates"].items():
        if state.privates[sym].owner != owner:
            ctx.emit(PrivateOwner(sym, owner))
    for holder, amount in before["cash"].items():
        now = state.bank if holder == BANK else state.cash_of(holder)
        if holder != BANK and now != amount:
            if now > amount:
                ctx.pay(holder, BANK, now - amount)
            else:
                ctx.pay(BANK, holder, amount - now)
    for sym, (row, col, arrival) in before["market"].items():
        c = state.corps[sym]
        if c.cell is None or tuple(c.cell) != (row, col) or c.arrival != arrival:
            ctx.emit(MarketRestore(sym, row, col, arrival))
    ctx.round_set(turn={**state.round["turn"], "before_sales": None})
