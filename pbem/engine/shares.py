"""Certificates: counting against limits (4.3, 4.4), presidency (5.4), floating (5.3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import market
from .context import Ctx
from .registry import book
from .state import BANK, IPO, POOL, GameState, player_holder


def share_units(state: GameState, corp: str, holder: str) -> int:
    """Shares (10% units) of ``corp`` held by ``holder``."""
    return state.percent(corp, holder) // state.rules.ordinary_percent


def corp_counts_toward_limit(state: GameState, corp: str) -> bool:
    return zone_counts_toward_limit(state, state.zone(corp))


def zone_counts_toward_limit(state: GameState, zone: str) -> bool:
    """Whether certificates count toward the limit while the token is in ``zone``.  Not
    in the sections that say so, nor in a closing section: a company whose token stands
    there between a sale and the answer to its price protection closes unless it is
    protected, and its certificates are then removed (the title's rules on the closing
    section and on price protection; the section above it does not count either)."""
    rules = state.rules
    return not (rules.zone_allows(zone, "uncounted") or rules.zone_allows(zone, "closes"))


def certificate_count(state: GameState, name: str) -> int:
    """Certificates counting toward the overall limit: privates, and shares outside
    the yellow/orange/brown zones; the president's certificate counts as one (4.3)."""
    holder = player_holder(name)
    count = len(state.privates_of(holder))
    for sym, corp in state.corps.items():
        held = corp.certs.count(holder)
        if held and corp_counts_toward_limit(state, sym):
            count += held
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
    for sym, corp in state.corps.items():
        if holder not in corp.certs or sym in state.over_limit.get(name, []):
            continue  # none held (0%), or held over the limit by price protection
        pct = state.percent(sym, holder)
        if pct > state.rules.player_share_limit and not may_exceed_share_limit(state, sym):
            problems.append(
                f"{name} holds {pct}% of {sym}, over the {state.rules.player_share_limit}% limit"
            )
    return problems


def pool_shares(state: GameState, corp: str) -> int:
    """Shares (10% units) of ``corp`` in the bank pool, which holds at most
    ``pool_certificate_limit`` of them (5.1: "five shares", 50%)."""
    if not state.rules.has_larger_certificates(corp):  # (certificates of one share)
        return state.corps[corp].certs.count(POOL)
    return share_units(state, corp, POOL)


def ordinary_indexes(state: GameState, corp: str, holder: str) -> list[int]:
    """The ordinary (10%) certificates of ``corp`` that ``holder`` holds."""
    rules = state.rules
    if not rules.has_larger_certificates(corp):
        return [i for i in state.cert_indexes(corp, holder) if i > 0]
    sizes, unit = rules.cert_percents(corp), rules.ordinary_percent
    return [i for i in state.cert_indexes(corp, holder) if i > 0 and sizes[i] == unit]


def extra_indexes(state: GameState, corp: str, holder: str) -> list[int]:
    """The certificates of ``corp`` other than the president's that are worth more than
    a share (the Erie's extra 20%, V-6.5) and that ``holder`` holds."""
    rules = state.rules
    if not rules.has_larger_certificates(corp):
        return []
    sizes, unit = rules.cert_percents(corp), rules.ordinary_percent
    return [i for i in state.cert_indexes(corp, holder) if i > 0 and sizes[i] > unit]


@dataclass(frozen=True)
class Handover:
    """Certificates changing hands for shares of one company: ``given`` (indexes) go,
    and ``change`` (an ordinary share's index from the other side, or None) comes back
    to make up the difference (V-6.5: half of a 20% certificate sold, a 10% share from
    the bank pool in change)."""

    given: tuple[int, ...]
    change: int | None = None


def certificates_for(state: GameState, corp: str, held: Sequence[int], percent: int,
                     change_from: Sequence[int] = ()) -> Handover | None:
    """Which of the certificates ``held`` (indexes, not the president's) make up
    ``percent`` of ``corp``: ordinary shares first, so that the fewest certificates are
    left (a 20% certificate counts as one, 5.3); if none do, a larger certificate with an
    ordinary share of ``change_from`` given back.  None when neither is possible."""
    unit = state.rules.ordinary_percent
    ordinary = [i for i in held if state.cert_percent(corp, i) == unit]
    larger = [i for i in held if state.cert_percent(corp, i) != unit]
    options = [(n, 0) for n in range(len(larger) + 1)]
    if change_from:
        options += [(n, 1) for n in range(1, len(larger) + 1)]
    for n, change in options:
        rest = percent + change * unit - sum(state.cert_percent(corp, i) for i in larger[:n])
        if rest >= 0 and rest % unit == 0 and rest // unit <= len(ordinary):
            given = tuple(larger[:n]) + tuple(ordinary[:rest // unit])
            return Handover(given, change_from[0] if change else None)
    return None


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


def presidency_handover(state: GameState, corp: str, new: str) -> Handover:
    """What ``new`` gives the old president for the president's certificate: shares
    worth as much, two 10% shares, or the 20% certificate where he holds no two (5.4,
    V-6.5)."""
    held = [i for i in state.cert_indexes(corp, player_holder(new)) if i > 0]
    found = certificates_for(state, corp, held, state.rules.president_percent)
    assert found is not None, f"{new} holds more than the president of {corp}"
    return found


def swap_presidency(ctx: Ctx, corp: str, old: str, new: str) -> None:
    """``new`` takes the president's certificate and gives ``old`` shares for it."""
    state = ctx.state
    given = presidency_handover(state, corp, new).given
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


@dataclass(frozen=True)
class SalePlan:
    """A sale of shares to the pool: the player who takes the presidency first (None:
    it stays), the certificates he gives the seller for it, and the certificates sold
    with the change taken back (V-6.5)."""

    successor: str | None
    handed: tuple[int, ...]
    sold: Handover


def sale_plan(state: GameState, seller: str, corp: str, count: int) -> SalePlan | None:
    """How ``seller`` sells ``count`` shares of ``corp`` to the pool: a presidency that
    passes is handed over first (5.4), then the seller's certificates other than the
    president's make up the sale; with certificates larger than a share, half of one may
    be sold with an ordinary share of the pool given back (V-6.5).  None when the
    certificates cannot make up ``count`` shares."""
    holder = player_holder(seller)
    unit = state.rules.ordinary_percent
    held = [i for i in state.cert_indexes(corp, holder) if i > 0]
    successor: str | None = None
    handed: tuple[int, ...] = ()
    if state.corps[corp].certs[0] == holder:
        successor = new_president(state, corp, seller,
                                  state.percent(corp, holder) - count * unit)
        if successor is not None:
            handed = presidency_handover(state, corp, successor).given
            held = sorted(held + list(handed))  # in index order, as before V-6.5
    sold = certificates_for(state, corp, held, count * unit,
                            change_from=ordinary_indexes(state, corp, POOL))
    return None if sold is None else SalePlan(successor, handed, sold)


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
    plan = sale_plan(state, seller, corp, count)
    assert plan is not None, f"{seller} cannot sell {count} {corp}"
    if plan.successor:
        swap_presidency(ctx, corp, seller, plan.successor)
    for index in plan.sold.given:
        ctx.move_cert(corp, index, POOL)
    if plan.sold.change is not None:
        ctx.move_cert(corp, plan.sold.change, holder)
    ctx.pay(BANK, holder, price * count)
    shares = f"{count} shares" if count > 1 else "a share"
    which = sold_certificates_text(state, corp, plan.sold)
    if not price_moves:
        ctx.log(f"{seller} sells {shares} of {corp}{which} for ${price * count}; the share "
                "value stays (a bankrupt president's sale).")
        return
    ctx.log(f"{seller} sells {shares} of {corp}{which} for ${price * count}.")
    market.move(ctx, corp, "down", count if rows is None else rows, close=not protected)


def sold_certificates_text(state: GameState, corp: str, sold: Handover) -> str:
    """" (the 20% certificate)" where a sale includes a certificate larger than a share,
    "" for ordinary shares only."""
    unit = state.rules.ordinary_percent
    larger = [state.cert_percent(corp, i) for i in sold.given if state.cert_percent(corp, i) > unit]
    if not larger:
        return ""
    names = " and ".join(f"the {p}% certificate" for p in larger)
    if sold.change is None:
        return f" ({names})"
    return f" (half of {names}: a {unit}% share from the bank pool comes back in change)"
