"""The 1830 base game's purchase of the private companies in groups (German rulebook,
"Grundspiel" 1.3; option game=base; V-1.8 "Bieten & Auswählen").

The six private companies form as many groups as there are players (data
base_game.groups).  Beginning with the banker (the first seat) each player bids or
passes, clockwise; the first bid is at least $5 and every bid raises the last by at
least $5; a player who passes is out of the bidding.  When all but one have passed, the
players choose a group in the order of their bids, highest first (the one left in first),
then those who never bid in seat order from the banker.  Each pays his bid plus the
group's price to the bank; the highest bidder (the first to choose) gets the priority
deal card for the first stock round.

Round keys (kind "auction", round "groups"): ``current`` (whose turn to bid or choose),
``group_bids`` ({player: his last bid}), ``out`` (who passed), ``choosing`` (None while
bidding, then the players still to choose in order), ``taken`` ({group number: player}),
``pending_par`` (the BO owner sets the B&O par value) and the keys of the auction round
that other parts of pbem read (``bids``, ``auction``, ``must_buy``, ``passes``).

Readings (docs/options.md): a player may bid at most what leaves him the price of the
dearest group, since he must buy whichever group is left to him; when all but one have
passed, the one left chooses first even if he never bid; a group's price is the sum of
its companies' prices (the book's table prints $260 for SV+BO with three players, $20
over that sum, a misprint: every other group is the sum); the last player takes the
group left without a command.
"""

from __future__ import annotations

from typing import Any

from ... import auction
from ...auction import sell_private
from ...context import Ctx, money, player_cash, require
from ...errors import RulesError
from ...facts import Priority
from ...registry import book, cite
from ...state import BANK, GameState, player_holder
from ...steps import Moves, Step

MIN_RAISE = 5
#: the citation of the refusals
RULE = "1830 base game 1.3 (German rules)"


def in_groups(state: GameState) -> bool:
    """Option privates=groups (the base game)."""
    return state.options.get("privates", "auction") == "groups"


def new_groups_round(first: str) -> dict[str, Any]:
    return {"kind": "auction", "round": "groups", "current": first, "group_bids": {},
            "out": [], "choosing": None, "taken": {}, "pending_par": None, "bids": {},
            "auction": None, "must_buy": False, "passes": 0}


def groups(state: GameState) -> list[list[str]]:
    """The groups of this number of players, numbered from 1 in the list's order."""
    table = state.rules.extra["base_game"]["groups"]
    return [list(g) for g in table[str(len(state.players))]]


def group_price(state: GameState, group: list[str]) -> int:
    return sum(state.rules.private(sym).value for sym in group)


def group_name(group: list[str]) -> str:
    return "+".join(group)


def free_groups(state: GameState) -> list[int]:
    """The numbers of the groups nobody has taken yet."""
    taken = {int(n) for n in state.round["taken"]}
    return [n for n in range(1, len(groups(state)) + 1) if n not in taken]


def highest_bid(state: GameState) -> int:
    return max(state.round["group_bids"].values(), default=0)


def most_to_bid(state: GameState, name: str) -> int:
    """A bid leaves the bidder the price of the dearest group (the reading above)."""
    dearest = max(group_price(state, g) for g in groups(state))
    return player_cash(state, name) - dearest


def bidding(state: GameState) -> bool:
    return state.round.get("choosing") is None


def in_bidding(state: GameState) -> list[str]:
    return [n for n in state.names if n not in state.round["out"]]


# -- the steps ------------------------------------------------------------------------------


class GroupPar(auction.ParFreePresident):
    """The player who took the BO sets the B&O par value before the next one chooses."""

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        state = ctx.state
        owner, corp = state.round["pending_par"]["player"], state.round["pending_par"]["corp"]
        require(ctx.actor == owner, f"{owner} must first set the par value of {corp}.")
        require(action["type"] == "par", f"You received the {corp} president's certificate: "
                f"set its par value first, e.g. par {corp} 100.", cite(state, "buy"))
        book(state).par_free_president(ctx, action)
        ctx.round_set(pending_par=None)
        next_chooser(ctx)


class BidForFirstChoice(Step):
    """A bid for the first choice of a group (1.3)."""

    actions = frozenset({"bid"})

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        state, actor = ctx.state, ctx.actor
        require(bidding(state), choose_first(state), RULE)
        require(action.get("private") is None, "In the base game you bid for the first "
                "choice of a group, not on a private company: bid 10.", RULE)
        amount, low = action["amount"], highest_bid(state) + MIN_RAISE
        require(amount >= low, f"The lowest bid now is {money(low)}.", RULE)
        high = most_to_bid(state, actor)
        require(amount <= high, f"You may bid at most {money(max(high, 0))}: you must keep "
                "the price of the dearest group, which you may be left with.",
                RULE)
        ctx.round_set(group_bids={**state.round["group_bids"], actor: amount})
        ctx.log(f"{actor} bids {money(amount)} for the first choice of a group.")
        ctx.round_set(current=next_bidder(state, actor))

    def moves(self, state: GameState) -> Moves:
        name = state.round["current"]
        if not bidding(state):
            return {}
        low, high = highest_bid(state) + MIN_RAISE, most_to_bid(state, name)
        if high < low:
            return {}
        return {name: [{"action": {"type": "bid", "private": None, "amount": low},
                        "min": low, "max": high}]}


class PassOutOfBidding(Step):
    """A pass: out of the bidding (1.3: a player who passes may not bid again)."""

    actions = frozenset({"pass"})

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        state, actor = ctx.state, ctx.actor
        require(bidding(state), choose_first(state), RULE)
        ctx.round_set(out=[*state.round["out"], actor])
        ctx.log(f"{actor} passes and is out of the bidding.")
        left = in_bidding(state)
        if len(left) > 1:
            ctx.round_set(current=next_bidder(state, actor))
            return
        order = choosing_order(state, left[0])
        ctx.emit(Priority(order[0]))
        ctx.log(f"The bidding is over. The players choose in this order: {', '.join(order)}; "
                f"{order[0]} receives the priority deal card.")
        ctx.round_set(choosing=order, current=order[0])
        next_chooser(ctx, announce=False)

    def moves(self, state: GameState) -> Moves:
        if not bidding(state):
            return {}
        return {state.round["current"]: [{"action": {"type": "pass"}}]}


class TakeGroup(Step):
    """``take group 2``: the player whose choice it is buys a group (1.3)."""

    actions = frozenset({"take_group"})

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        state = ctx.state
        require(not bidding(state), "The bidding is not over yet: bid or pass.",
                RULE)
        number = action["group"]
        free = free_groups(state)
        require(number in free, f"Group {number} is not to be had; the groups left are "
                f"{listing(state, free)}.", RULE)
        take(ctx, ctx.actor, number)
        if not state.round["pending_par"]:
            next_chooser(ctx)

    def moves(self, state: GameState) -> Moves:
        if bidding(state):
            return {}
        name = state.round["current"]
        return {name: [{"action": {"type": "take_group", "group": n}} for n in free_groups(state)]}


#: the steps of the base game's first round
STEPS: tuple[Step, ...] = (GroupPar(), BidForFirstChoice(), PassOutOfBidding(), TakeGroup())


class GroupsRound(auction.AuctionRound):
    def refusal(self, state: GameState) -> RulesError:
        what = "bid or pass" if bidding(state) else "take a group (take group 2)"
        return RulesError(f"In the base game's purchase of the private companies you {what}.",
                          RULE)


# -- the mechanics ----------------------------------------------------------------------------


def next_bidder(state: GameState, after: str) -> str:
    return next(n for n in state.clockwise_from(after)[1:] if n not in state.round["out"])


def choosing_order(state: GameState, last_in: str) -> list[str]:
    """The one left in first, then the other bidders by their bids, highest first, then
    those who never bid in seat order from the banker."""
    bids = state.round["group_bids"]
    bidders = sorted((n for n in bids if n != last_in), key=lambda n: -bids[n])
    others = [n for n in state.names if n not in bids and n != last_in]
    return [last_in, *bidders, *others]


def choose_first(state: GameState) -> str:
    return (f"The bidding is over: {state.round['current']} chooses a group "
            f"({listing(state, free_groups(state))}), e.g. take group {free_groups(state)[0]}.")


def listing(state: GameState, numbers: list[int]) -> str:
    all_groups = groups(state)
    return ", ".join(f"{n}: {group_name(all_groups[n - 1])} "
                     f"{money(group_price(state, all_groups[n - 1]))}" for n in numbers)


def take(ctx: Ctx, name: str, number: int) -> None:
    """``name`` pays his bid and the group's price and receives its companies."""
    state = ctx.state
    group = groups(state)[number - 1]
    bid = state.round["group_bids"].get(name, 0)
    price = group_price(state, group)
    ctx.round_set(taken={**state.round["taken"], str(number): name},
                  choosing=state.round["choosing"][1:])
    if bid:
        ctx.pay(player_holder(name), BANK, bid)
    ctx.log(f"{name} takes group {number} ({group_name(group)}) for {money(price)}"
            + (f" plus the bid of {money(bid)}." if bid else "."))
    for sym in group:
        sell_private(ctx, sym, name, state.privates[sym].price)


def next_chooser(ctx: Ctx, announce: bool = True) -> None:
    """The next player chooses; the last takes the group left; then the first stock
    round begins."""
    state = ctx.state
    while state.round["choosing"]:
        name = state.round["choosing"][0]
        ctx.round_set(current=name)
        free = free_groups(state)
        if len(free) > 1:
            if announce:
                ctx.log(f"{name} chooses a group: {listing(state, free)}.")
            return
        take(ctx, name, free[0])
        if state.round["pending_par"]:
            return
    book(state).auction_ends(ctx)

