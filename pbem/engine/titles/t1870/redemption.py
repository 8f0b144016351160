"""Share redemption and reissue on a company's behalf (1870, Share Redemption and Share
Reissue, p.17-18).

Either is the president's whole stock turn.  Redeemed certificates are held by the
company (holder ``c:<CORP>``); reissued ones go to the initial offering at a new par,
and the money of their sale is frozen until the next operating round
(``Corporation.frozen``).
"""

from __future__ import annotations

from typing import Any

from ...context import Ctx, money, require
from ...errors import RulesError
from ...shares import new_president, ordinary_indexes, share_units
from ...state import BANK, IPO, POOL, GameState, corp_holder, player_holder

REDEEM_RULE = "1870 Share Redemption, p.17"
REISSUE_RULE = "1870 Share Reissue, p.18"


def applies(state: GameState) -> bool:
    return "redemption" in state.rules.extra


def usable_cash(state: GameState, corp: str) -> int:
    c = state.corps[corp]
    return c.cash - c.frozen


def redeemed(state: GameState, corp: str) -> int:
    return share_units(state, corp, corp_holder(corp))


def with_players_and_pool(state: GameState, corp: str) -> int:
    units = share_units(state, corp, POOL)
    return units + sum(share_units(state, corp, player_holder(n)) for n in state.names)


# -- redemption ---------------------------------------------------------------------------


def redeem_problem(state: GameState, president: str, corp: str, source: str | None) -> str | None:
    """Why ``president`` may not redeem a ``corp`` share from ``source`` (a player's name,
    "pool" or None for the open market), or None."""
    limits = state.rules.extra["redemption"]
    c = state.corps[corp]
    if state.president(corp) != president:
        return f"Only the president of {corp} may redeem its shares."
    if state.round.get("turn", {}).get("acted"):
        return "A redemption is a whole stock turn: you have already acted in this one."
    if not c.operated:
        return f"{corp} may not redeem a share before it has operated."
    if corp in state.round.get("redeemed", []):
        return f"{corp} has already redeemed a share this stock round."
    if redeemed(state, corp) >= limits["max_in_treasury"]:
        return (f"{corp} already holds {limits['max_in_treasury']} redeemed shares, the most "
                "allowed.")
    if with_players_and_pool(state, corp) - 1 < limits["min_with_players_and_pool"]:
        return (f"After a redemption fewer than {limits['min_with_players_and_pool']} {corp} "
                "shares would remain with the players and the open market.")
    price = state.price(corp) or 0
    if usable_cash(state, corp) < price:
        return (f"{corp} has {money(usable_cash(state, corp))} it may use now; a share costs "
                f"{money(price)}.")
    in_pool = bool(ordinary_indexes(state, corp, POOL))
    if source in (None, "pool"):
        return None if in_pool else (f"There is no {corp} share in the open market: name the "
                                     f"player to redeem from, e.g. redeem {corp} from "
                                     f"{president}.")
    if in_pool:
        return f"{corp} must redeem from the open market while it holds {corp} shares."
    if source not in state.names:
        return f"{source} is not a player."
    holder = player_holder(source)
    if not ordinary_indexes(state, corp, holder):
        return (f"{source} holds no ordinary {corp} share (the president's certificate is "
                "never redeemed).")
    if source == president:
        held = state.percent(corp, holder) - state.rules.ordinary_percent
        if new_president(state, corp, president, held) is not None:
            return "That redemption would change the presidency, which is not allowed."
    return None


def redeem(ctx: Ctx, corp: str, source: str | None) -> bool:
    """Start a redemption; True when it is done now, False when the player must agree."""
    state, actor = ctx.state, ctx.actor
    problem = redeem_problem(state, actor, corp, source)
    require(problem is None, problem or "", REDEEM_RULE)
    if source in (None, "pool", actor):
        complete_redemption(ctx, corp, POOL if source in (None, "pool") else player_holder(actor))
        return True
    price = state.price(corp) or 0
    ctx.round_set(proposal={"kind": "redeem", "corp": corp, "seller": source, "price": price,
                            "proposer": actor, "answer_by": source})
    ctx.log(f"{actor} asks {source} to sell a {corp} share to {corp} for {money(price)}; "
            f"{source} may accept or decline.")
    return False


def complete_redemption(ctx: Ctx, corp: str, source: str) -> None:
    state = ctx.state
    price = state.price(corp) or 0
    index = ordinary_indexes(state, corp, source)[0]
    ctx.move_cert(corp, index, corp_holder(corp))
    ctx.pay(corp_holder(corp), BANK if source == POOL else source, price)
    where = "the open market" if source == POOL else source.split(":", 1)[1]
    ctx.log(f"{corp} redeems a share from {where} for {money(price)}; the share value does "
            "not change.")
    ctx.round_set(redeemed=sorted(set(state.round.get("redeemed", [])) | {corp}))


# -- reissue --------------------------------------------------------------------------------


def reissue_problem(state: GameState, president: str, corp: str) -> str | None:
    if state.president(corp) != president:
        return f"Only the president of {corp} may reissue its shares."
    if state.round.get("turn", {}).get("acted"):
        return "A reissue is a whole stock turn: you have already acted in this one."
    if not redeemed(state, corp):
        return f"{corp} holds no redeemed shares to reissue."
    if ordinary_indexes(state, corp, IPO):
        return f"{corp} still has shares in the initial offering."
    if corp in state.round.get("reissued", []):
        return f"{corp} has already reissued shares this stock round."
    return None


def nearest(prices: list[int], value: float) -> int:
    """The price nearest ``value``; ties go up."""
    return min(prices, key=lambda p: (abs(p - value), -p))


def new_par(state: GameState, corp: str) -> int:
    """The higher of the old par and the par for 75% of the share value (p.18): the
    rulebook's table (option reissue_par=table) or the nearest price, ties up."""
    data = state.rules.extra["reissue"]
    value = state.price(corp) or 0
    top_row = sorted(c.price for (r, _), c in state.rules.market.cells.items() if r == 0)
    pars = list(data["par_prices"])
    table = {int(k): v for k, v in data["table"].items()}
    limit = 200 if state.options.get("reissue_max") == "200" else None
    if state.options.get("reissue_par", "table") == "table":
        target: float = table.get(value, 0.75 * value)
        candidates = pars if target <= max(pars) else [p for p in top_row if p > max(pars)]
    else:  # 18xx.games: the top-row price nearest 75% of the value, ties up (D4)
        target = 0.75 * value
        candidates = [p for p in top_row if limit is None or p <= limit]
    par = nearest(candidates, target)
    if limit is not None:
        par = min(par, limit)
    old = state.corps[corp].par or 0
    return max(old, par)


def reissue(ctx: Ctx, corp: str) -> None:
    state, actor = ctx.state, ctx.actor
    problem = reissue_problem(state, actor, corp)
    require(problem is None, problem or "", REISSUE_RULE)
    par = new_par(state, corp)
    indexes = ordinary_indexes(state, corp, corp_holder(corp))
    for index in indexes:
        ctx.move_cert(corp, index, IPO)
    ctx.corp_set(corp, par=par, reissued=True)
    ctx.log(f"{corp} reissues {len(indexes)} share{'s' if len(indexes) > 1 else ''} to the "
            f"initial offering at a par value of {money(par)}; the money from their sale may "
            "be used from the next operating round.")
    ctx.round_set(reissued=sorted(set(state.round.get("reissued", [])) | {corp}))


def ipo_sale_pays_company(ctx: Ctx, corp: str, amount: int) -> None:
    """A reissued share bought from the initial offering: the price goes to the company,
    frozen until the next operating round (p.18)."""
    c = ctx.state.corps[corp]
    ctx.corp_set(corp, frozen=c.frozen + amount)


def unfreeze(ctx: Ctx) -> None:
    """At the start of an operating round, reissue money becomes usable."""
    for sym, c in ctx.state.corps.items():
        if c.frozen:
            ctx.corp_set(sym, frozen=0)


# -- what may be done ---------------------------------------------------------------------


def moves(state: GameState, name: str) -> list[dict[str, Any]]:
    if not applies(state):
        return []
    found: list[dict[str, Any]] = []
    for corp, c in state.corps.items():
        if c.closed or state.president(corp) != name:
            continue
        if reissue_problem(state, name, corp) is None:
            found.append({"action": {"type": "reissue", "corp": corp}})
        sources: list[str | None] = [None] + [n for n in state.names]
        for source in sources:
            if redeem_problem(state, name, corp, source) is None:
                action = {"type": "redeem", "corp": corp}
                if source is not None:
                    action["from"] = source
                found.append({"action": action, "price": state.price(corp)})
    return found


def refuse_elsewhere(kind: str) -> None:
    raise RulesError(f"Shares are {kind}ed on a company's behalf in the president's stock "
                     "turn.", REDEEM_RULE if kind == "redeem" else REISSUE_RULE)
