"""Share price protection (1870, Share Price Protection, p.13-14).

A sale drops the share value at once, as in 1830, so the seller's own turn sees the
new value (the Shirley and Dewey example).  When the seller's turn is over, the
presidents of the companies sold are offered, in the order of the sales, a special
turn to buy all the shares just sold at the price the seller received; a president
who does puts the token back where it stood (and in its old place in the stack).

Round keys (stock or operating round): ``protection_queue`` (sales not yet offered,
in order), ``protection`` (the offer waiting for an answer) and ``protection_last``
(the last president who protected, or None).
"""

from __future__ import annotations

from typing import Any

from ...context import Ctx, money, player_cash, require
from ...errors import RulesError
from ...facts import MarketMove, MarketRestore, OverLimit
from ...shares import (
    certificate_count,
    certificate_limit,
    check_presidency,
    corp_counts_toward_limit,
    may_exceed_share_limit,
    ordinary_indexes,
    zone_counts_toward_limit,
)
from ...state import BANK, POOL, GameState, player_holder
from .closing import close_company

RULE = "1870 Share Price Protection, p.13"


def protection_applies(state: GameState) -> bool:
    return bool(state.rules.extra.get("price_protection"))


def offered_at_turn_end(state: GameState) -> bool:
    """Option protection_timing=turn-end (18xx.games): the protection of a president's
    forced sales in an operating round is offered when the company's turn is over (its
    train and private company purchases made), before the connection runs.  Default
    (sale): once the president's sales are made, before the train is bought."""
    return state.options.get("protection_timing", "sale") == "turn-end"


def snapshot(state: GameState, corp: str) -> dict[str, Any]:
    """Where the token stands and who is president, before a sale."""
    c = state.corps[corp]
    assert c.cell is not None
    return {"row": c.cell[0], "col": c.cell[1], "arrival": c.arrival,
            "price": state.price(corp), "president": state.president(corp)}


def queue_sale(ctx: Ctx, seller: str, corp: str, count: int, before: dict[str, Any]) -> None:
    """Remember a sale for the protection offers at the end of the seller's turn; a
    second sale of the same company in the turn joins the first."""
    queue = [dict(s) for s in ctx.state.round.get("protection_queue", [])]
    amount = count * int(before["price"])
    for sale in queue:
        if sale["corp"] == corp and sale["seller"] == seller:
            sale["count"] += count
            sale["amount"] += amount
            break
    else:
        queue.append({"corp": corp, "seller": seller, "count": count, "amount": amount,
                      **before})
    ctx.round_set(protection_queue=queue)


def offer_problem(state: GameState, sale: dict[str, Any],
                  waiting: list[dict[str, Any]] | None = None) -> str | None:
    """Why the president of the company sold is not offered protection, or None.
    ``waiting``: the sales still queued behind it, if not the round's queue (while the
    offers are made, a sale skipped before ``sale`` no longer waits: p.13)."""
    corp = sale["corp"]
    c = state.corps[corp]
    president = state.president(corp)
    if c.closed or president is None:
        return "the company has no president"
    if president != sale["president"]:
        if sale["president"] != sale["seller"] or not own_sale_protectable(state):
            return f"{president} became president by this sale"  # may not protect it (p.13)
        president = sale["president"]  # the site's offer: the president at the sale
    if president == sale["seller"] and not own_sale_protectable(state):
        return f"{president} sold the shares"
    sold = state.round.get("sold", {}).get(president, [])
    if corp in sold and state.options.get("protect_after_selling", "no") != "yes":
        return f"{president} sold {corp} shares this stock round"
    if len(ordinary_indexes(state, corp, POOL)) < sale["count"]:
        return "the shares are no longer in the open market"
    if player_cash(state, president) < sale["amount"]:
        return f"{president} does not have {money(sale['amount'])}"
    if certificate_problem(state, president, sale, waiting) is not None:
        return f"{president} has no certificate room"
    return None


def own_sale_protectable(state: GameState) -> bool:
    """Option protect_own_forced_sale=yes (18xx.games): in an operating round the
    president who made the forced sales may protect those of his own companies, the
    rule against it speaking of shares sold "this stock round" (p.13; the site records
    no operating round's sales as the player's), also one whose presidency his sale
    passed to another player (the site offers protection to the president at the
    sale; buying the shares back may make him president again); not with
    protect_after_selling=yes, which excepts the president's own sale everywhere."""
    return state.round.get("kind") == "operating" and \
        state.options.get("protect_own_forced_sale", "no") == "yes" and \
        state.options.get("protect_after_selling", "no") != "yes"


def certificate_problem(state: GameState, president: str, sale: dict[str, Any],
                        waiting: list[dict[str, Any]] | None = None) -> str | None:
    """Protection keeps the token where it stood: if certificates count toward the limit
    there, the shares bought count.  So do the president's certificates of every company
    whose sale waits for its protection offer or answer (this one included): its token
    moves only when protection is declined ("that company's share value token is moved
    according to the normal share value token movement rules", p.13), so they count as
    in the box it stood in before the sale, even where the sale took it into a section
    whose certificates do not count, and not where it took it out of one (brown into
    the closing section)."""
    if not counted_before_sale(state, sale):
        return None
    after = certificates_if_protected(state, president, sale, waiting)
    limit = certificate_limit(state)
    if after > limit:
        return f"That would give you {after} certificates; the limit is {limit}."
    return None


def certificates_if_protected(state: GameState, president: str, sale: dict[str, Any],
                              waiting: list[dict[str, Any]] | None = None) -> int:
    """The president's certificates toward the limit once he has protected ``sale``."""
    after = certificate_count(state, president) + sale["count"]
    holder = player_holder(president)
    for pending in pending_sales(state, sale, waiting):
        before, now = counted_before_sale(state, pending), \
            corp_counts_toward_limit(state, pending["corp"])
        if before != now:  # e.g. from brown into the closing section: no longer counted
            held = len(state.cert_indexes(pending["corp"], holder))
            after += held if before else -held
    return after


def counted_before_sale(state: GameState, sale: dict[str, Any]) -> bool:
    """Whether certificates count toward the limit in the box the token stood in."""
    cell = state.rules.market.cell(sale["row"], sale["col"])
    if cell is None:
        return corp_counts_toward_limit(state, sale["corp"])
    return zone_counts_toward_limit(state, cell.zone)


def pending_sales(state: GameState, sale: dict[str, Any],
                  waiting: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """``sale`` and the sales still waiting for protection (``waiting``, or the round's
    queue), the first of each company."""
    rnd = state.round
    queued = list(rnd.get("protection_queue") or []) if waiting is None else waiting
    sales = [sale] + ([rnd["protection"]] if rnd.get("protection") else []) + queued
    first: dict[str, dict[str, Any]] = {}
    for each in sales:
        first.setdefault(each["corp"], each)
    return list(first.values())


def settle(ctx: Ctx, sale: dict[str, Any]) -> None:
    """An unprotected sale: "that company's share value token is moved according to the
    normal share value token movement rules" (p.13) now, when the president declines
    or is not offered protection.  The value dropped at the sale already (the Shirley
    Sneaky example), but the token enters its new box now, under the tokens there; a
    token in the closing section closes the company now (p.7), not at the sale."""
    state = ctx.state
    c = state.corps[sale["corp"]]
    if c.closed or c.cell is None:
        return
    if tuple(c.cell) != (sale["row"], sale["col"]):
        ctx.emit(MarketMove.to(state, sale["corp"], c.cell[0], c.cell[1]))  # again, under
    if state.rules.zone_allows(state.zone(sale["corp"]), "closes"):  # it enters the closing
        close_company(ctx, sale["corp"])


def next_offer(ctx: Ctx) -> bool:
    """Offer protection for the next queued sale whose president may protect; False
    once the queue is empty (the caller resumes play)."""
    state = ctx.state
    queue = list(state.round.get("protection_queue", []))
    while queue:
        sale = queue.pop(0)
        problem = offer_problem(state, sale, waiting=queue)  # the sales skipped wait no more
        if problem is not None:
            settle(ctx, sale)
        else:
            ctx.round_set(protection_queue=queue, protection=sale)
            shares = f"{sale['count']} share{'s' if sale['count'] > 1 else ''}"
            ctx.log(f"{sale['president']} may protect the {sale['corp']} share value: buy the "
                    f"{shares} {sale['seller']} sold for {money(sale['amount'])} (protect), "
                    "or decline.")
            return True
    ctx.round_set(protection_queue=[], protection=None)
    return False


def offer_at_turn_end(ctx: Ctx, corp: str) -> bool:
    """With protection_timing=turn-end: ``corp``'s turn is over; offer the protection
    of its president's forced sales.  True while an offer waits (``protection_turn``
    keeps the company, whose connection runs follow the answers)."""
    if not offered_at_turn_end(ctx.state) or not next_offer(ctx):
        return False
    ctx.round_set(protection_turn=corp)
    return True


def protect(ctx: Ctx) -> None:
    """The president buys all the shares sold; the token returns to its box (p.13)."""
    state = ctx.state
    sale = state.round["protection"]
    corp, president = sale["corp"], ctx.actor
    require(offer_problem(state, sale) is None, f"You can no longer protect {corp}: "
            f"{offer_problem(state, sale)}.", RULE)
    holder = player_holder(president)
    ctx.pay(holder, BANK, sale["amount"])
    for index in ordinary_indexes(state, corp, POOL)[:sale["count"]]:
        ctx.move_cert(corp, index, holder)
    check_presidency(ctx, corp)  # the seller of his own forced sale buying it back
    ctx.emit(MarketRestore(corp, sale["row"], sale["col"], sale["arrival"]))
    ctx.log(f"{president} protects {corp}: buys {sale['count']} from the open market for "
            f"{money(sale['amount'])}; the share value stays at ${sale['price']}.")
    pct = state.percent(corp, holder)
    if pct > state.rules.player_share_limit and not may_exceed_share_limit(state, corp):
        corps = sorted(set(state.over_limit.get(president, [])) | {corp})
        ctx.emit(OverLimit(president, corps))
        ctx.log(f"{president} may hold {pct}% of {corp} while keeping all of them.")
    ctx.round_set(protection=None, protection_last=president)
    if state.round.get("kind") == "stock":  # the priority card follows play (p.10, p.13)
        ctx.round_set(last_actor=president)


def decline(ctx: Ctx) -> None:
    sale = ctx.state.round["protection"]
    ctx.log(f"{ctx.actor} does not protect {sale['corp']}.")
    settle(ctx, sale)
    ctx.round_set(protection=None)


def answer(ctx: Ctx, action: dict[str, Any]) -> None:
    """A ``protect`` or ``decline`` by the president offered protection."""
    sale = ctx.state.round["protection"]
    require(ctx.actor == sale["president"], f"{sale['president']} must first decide whether "
            f"to protect {sale['corp']} (protect or decline).", RULE)
    kind = action["type"]
    if kind == "protect":
        require(action.get("corp") in (None, sale["corp"]),
                f"The offer is to protect {sale['corp']}.", RULE)
        protect(ctx)
    elif kind == "decline":
        decline(ctx)
    else:
        raise RulesError(f"Protect {sale['corp']} (buy the {sale['count']} sold for "
                         f"{money(sale['amount'])}) or decline.", RULE)


def moves(state: GameState) -> dict[str, list[dict[str, Any]]]:
    sale = state.round["protection"]
    return {sale["president"]: [
        {"action": {"type": "protect", "corp": sale["corp"]}, "price": sale["amount"]},
        {"action": {"type": "decline"}}]}


def over_limit_sale_problem(state: GameState, name: str, corp: str, count: int) -> str | None:
    """A player holding protected shares over the limit who sells must come down to it;
    with share_limit_compliance=keep (18xx.games) so must any player over the limit."""
    kept = state.options.get("share_limit_compliance", "sell") == "keep"
    if corp not in state.over_limit.get(name, []) and not kept:
        return None
    unit = state.rules.ordinary_percent
    after = state.percent(corp, player_holder(name)) - count * unit
    limit = state.rules.player_share_limit
    if after > limit and not may_exceed_share_limit(state, corp):
        need = (state.percent(corp, player_holder(name)) - limit + unit - 1) // unit
        how = " through price protection" if corp in state.over_limit.get(name, []) else ""
        return (f"You hold {corp} shares over the {limit}% limit{how}: if you sell, sell "
                f"at least {need} to come down to {limit}%.")
    return None


def forget_over_limit(ctx: Ctx, name: str, corp: str) -> None:
    if corp in ctx.state.over_limit.get(name, []):
        ctx.emit(OverLimit(name, [c for c in ctx.state.over_limit[name] if c != corp]))
