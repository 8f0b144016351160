"""Certificates: counting against limits (4.3, 4.4), presidency (5.4), floating (5.3)."""

from __future__ import annotations

from . import market
from .context import Ctx
from .registry import book
from .state import BANK, IPO, POOL, GameState, player_holder


def share_units(state: GameState, corp: str, holder: str) -> int:
    """Shares (10% units) of ``corp`` held by ``holder``."""
    return state.percent(corp, holder) // state.rules.ordinary_percent


def corp_counts_toward_limit(state: GameState, corp: str) -> bool:
    return not state.rules.zone_allows(state.zone(corp), "uncounted")


def certificate_count(state: GameState, name: str) -> int:
    """Certificates counting toward the overall limit: privates, and shares outside
    the yellow/orange/brown zones; the president's certificate counts as one (4.3)."""
    holder = player_holder(name)
    count = len(state.privates_of(holder))
    for sym, corp in state.corps.items():
        if corp_counts_toward_limit(state, sym):
            count += sum(1 for h in corp.certs if h == holder)
    return count


def certificate_limit(state: GameState) -> int:
    """The limit for this many players; it falls as companies close where the data
    has a column for fewer companies."""
    rules = state.rules
    if len(rules.certificate_limits.get(len(state.players), {})) > 1:
        return rules.certificate_limit_for(len(state.players), open_companies(state))
    return rules.certificate_limit[len(state.players)]


def open_companies(state: GameState) -> int:
    """Public companies still in the game (not closed), for the certificate limit."""
    return sum(1 for c in state.corps.values() if not c.closed)


def may_exceed_share_limit(state: GameState, corp: str) -> bool:
    return state.rules.zone_allows(state.zone(corp), "over_60")


def limit_problems(state: GameState, name: str) -> list[str]:
    """Sentences describing how ``name`` is over a certificate limit (empty if within)."""
    problems = []
    count, limit = certificate_count(state, name), certificate_limit(state)
    if count > limit:
        problems.append(f"{name} holds {count} certificates, over the limit of {limit}")
    if state.options.get("share_limit_compliance", "sell") == "keep":
        return problems  # (18xx.games) shares over the limit are kept, none bought
    holder = player_holder(name)
    for sym in state.corps:
        pct = state.percent(sym, holder)
        if sym in state.over_limit.get(name, []):
            continue
        if pct > state.rules.player_share_limit and not may_exceed_share_limit(state, sym):
            problems.append(
                f"{name} holds {pct}% of {sym}, over the {state.rules.player_share_limit}% limit"
            )
    return problems


def pool_certificates(state: GameState, corp: str) -> int:
    return sum(1 for h in state.corps[corp].certs if h == POOL)


def ordinary_indexes(state: GameState, corp: str, holder: str) -> list[int]:
    return [i for i in state.cert_indexes(corp, holder) if i > 0]


def new_president(
    state: GameState, corp: str, current: str, held: int | None = None
) -> str | None:
    """The player who must take the presidency from ``current``: the one holding the
    most shares if that is more than ``current`` holds (or will hold: ``held``); ties go
    to the player nearest clockwise from ``current`` (5.4).  None when ``current`` stays
    president."""
    if held is None:
        held = state.percent(corp, player_holder(current))
    best, best_pct = None, held
    for name in state.clockwise_from(current)[1:]:
        pct = state.percent(corp, player_holder(name))
        if pct > best_pct:
            best, best_pct = name, pct
    return best


def swap_presidency(ctx: Ctx, corp: str, old: str, new: str) -> None:
    """``new`` takes the president's certificate and gives ``old`` two ordinary ones."""
    state = ctx.state
    given = ordinary_indexes(state, corp, player_holder(new))[:2]
    ctx.move_cert(corp, 0, player_holder(new))
    for index in given:
        ctx.move_cert(corp, index, player_holder(old))
    ctx.log(f"{new} becomes president of {corp}.")


def check_presidency(ctx: Ctx, corp: str) -> None:
    """After a change of holdings, hand the presidency over if someone exceeds the
    president (5.4)."""
    current = ctx.state.president(corp)
    if current is None or book(ctx.state).presidency_fixed(ctx.state, corp):
        return
    successor = new_president(ctx.state, corp, current)
    if successor is not None:
        swap_presidency(ctx, corp, current, successor)


def sold_from_ipo_percent(state: GameState, corp: str) -> int:
    return 100 - state.percent(corp, IPO)


def check_float(ctx: Ctx, corp: str) -> None:
    """Floated once 60% has left the initial offering (5.3); funded at the end of the
    stock round."""
    c = ctx.state.corps[corp]
    if not c.floated and sold_from_ipo_percent(ctx.state, corp) >= \
            ctx.state.rules.corp_float_percent(corp):
        ctx.corp_set(corp, floated=True)
        ctx.log(f"{corp} floats.")


def sell_to_pool(ctx: Ctx, seller: str, corp: str, count: int, price_moves: bool = True,
                 protected: bool = False, rows: int | None = None) -> None:
    """``seller`` sells ``count`` shares of ``corp`` to the bank pool at the current
    price: a presidency that passes is handed over first (certificates swapped), and the
    price drops one box per share after the whole block (5.1, 5.4, 4.5), or ``rows``
    boxes where the title's rules say otherwise, unless ``price_moves`` is False (a
    bankrupt president's sale, option bankrupt_prices).  A ``protected`` sale closes the
    company only when the protection is declined.  The caller has checked that the sale
    is allowed."""
    state = ctx.state
    holder = player_holder(seller)
    price = state.price(corp) or 0
    if state.corps[corp].certs[0] == holder:
        remaining = state.percent(corp, holder) - count * state.rules.ordinary_percent
        successor = new_president(state, corp, seller, remaining)
        if successor:
            swap_presidency(ctx, corp, seller, successor)
    for index in ordinary_indexes(state, corp, holder)[:count]:
        ctx.move_cert(corp, index, POOL)
    ctx.pay(BANK, holder, price * count)
    shares = f"{count} shares" if count > 1 else "a share"
    if not price_moves:
        ctx.log(f"{seller} sells {shares} of {corp} for ${price * count}; the share value "
                "stays (a bankrupt president's sale).")
        return
    ctx.log(f"{seller} sells {shares} of {corp} for ${price * count}.")
    market.move(ctx, corp, "down", count if rows is None else rows, close=not protected)
