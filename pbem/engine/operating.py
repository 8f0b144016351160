"""Operating rounds (1830 6.0, 6.1): private revenue, then each floated corporation in
market order, re-evaluated as prices change.

Round keys: ``sr`` (the stock round before this set), ``index``/``of`` (round i of n),
``operated`` (corporations done this round), ``current`` (the corporation operating),
``turn`` (its progress: ``step`` track/token/run/dividend/trains, ``laid``,
``extra_lay``, ``special_lay``, ``token``, ``run``, ``dividend``, ``bought``,
``home``), ``discards`` (corporations that must discard a train, in market order),
``proposal`` (a purchase awaiting the other side's accept).
"""

from __future__ import annotations

from typing import Any

from . import connection, ending, orrun, ortrack, ortrains, protection
from .auction import pay_private_revenue
from .context import Ctx, money, player_cash, require
from .errors import RulesError
from .facts import PrivateOwner, Station
from .rounds import after_operating_round, floated_in_order
from .state import GameState, corp_holder, player_holder
from .trains import rules_1870

STEPS = ("home", "track", "token", "run", "dividend", "trains")


def new_turn() -> dict[str, Any]:
    return {"step": "track", "laid": False, "extra_lay": False, "special_lay": None,
            "token": False, "run": None, "dividend": None, "bought": 0}


def begin_operating_round(ctx: Ctx, sr_number: int, index: int, count: int) -> None:
    ctx.new_round({"kind": "operating", "sr": sr_number, "index": index, "of": count,
                   "operated": [], "current": None, "turn": new_turn(), "discards": [],
                   "proposal": None})
    ctx.log(f"Operating round {sr_number}.{index} begins.")
    if ending.ends_before_operating(ctx):  # 1870 $400 finish reached in the stock round
        return
    pay_private_revenue(ctx)
    connection.at_round_start(ctx)  # 1870 connection runs, then the first company


def next_corporation(ctx: Ctx) -> None:
    """The unoperated floated corporation highest in market order (6.0)."""
    state = ctx.state
    waiting = [c for c in floated_in_order(state) if c not in state.round["operated"]]
    if not waiting:
        ctx.log(f"Operating round {state.round['sr']}.{state.round['index']} ends.")
        after_operating_round(ctx)
        return
    corp = waiting[0]
    ctx.round_set(current=corp, turn=new_turn())
    ctx.log(f"{corp} operates ({state.president(corp)}).")
    if not ortrack.place_home(ctx, corp):
        ctx.round_set(turn={**state.round["turn"], "step": "home"})
        ctx.log(f"{corp} chooses the city of its home station on {state.rules.corp(corp).home}.")


def step_index(state: GameState) -> int:
    return STEPS.index(state.round["turn"]["step"])


def advance_to(ctx: Ctx, step: str, corp: str) -> None:
    """Move the turn on to ``step``; the order of 6.1 may not be reversed."""
    state = ctx.state
    now = step_index(state)
    if STEPS.index(step) < now:
        raise RulesError(f"{corp} has gone past that step this turn: the order is track, "
                         "station, run, dividend, trains.", "1830 6.1")
    if STEPS.index(step) > now:
        ctx.round_set(turn={**state.round["turn"], "step": step})


def settle_run(ctx: Ctx, corp: str) -> None:
    """Before buying trains or ending the turn: a corporation without a run worth
    anything withholds nothing; one with revenue must decide its dividend."""
    state = ctx.state
    turn = state.round["turn"]
    if turn["dividend"] is not None:
        return
    if turn["run"] is None:
        top = orrun.best(state, corp) if state.corps[corp].trains else None
        if top is not None and top.total > 0:
            raise RulesError(f"{corp} must first run its trains and pay out or withhold "
                             f"(best run: {money(top.total)}).", "1830 6.1")
        orrun.run_trains(ctx, corp, None)
        return
    raise RulesError(f"{corp} ran for {money(turn['run']['revenue'])}: pay out or withhold "
                     "first.", "1830 6.5")


def end_turn(ctx: Ctx, corp: str) -> None:
    state = ctx.state
    settle_run(ctx, corp)
    if ctx.state.corps[corp].closed:
        return
    if ortrains.must_buy_train(state, corp):
        cheapest = ortrains.cheapest_available(state)
        raise RulesError(f"{corp} has a route and no train: it must buy one now (the cheapest "
                         f"costs {money(cheapest or 0)}).", "1830 6.6.2")
    ctx.log(f"{corp} ends its turn.")
    ctx.corp_set(corp, operated=True)
    ctx.round_set(operated=state.round["operated"] + [corp], current=None)
    connection.after_turn(ctx, corp)  # 1870 connection runs, then the next company


# -- deciding -------------------------------------------------------------------------------


def decide(ctx: Ctx, action: dict[str, Any]) -> None:
    state = ctx.state
    rnd = state.round
    kind = action["type"]
    if rnd.get("connection"):  # 1870: a connection run between turns
        connection.decide(ctx, action)
        return
    if rnd.get("protection"):  # 1870: price protection of a forced sale
        protection.answer(ctx, action)
        if not protection.next_offer(ctx):
            ctx.round_set(protection_last=None)
        return
    if rnd["proposal"]:
        answer_proposal(ctx, kind)
        return
    if rnd["discards"]:
        require(kind == "discard", f"{state.president(rnd['discards'][0])} must first choose "
                f"a train for {rnd['discards'][0]} to discard (discard N).", "1830 6.6.1")
        ortrains.discard(ctx, action["train"])
        return
    corp = rnd["current"]
    president = state.president(corp)
    require(ctx.actor == president, f"{corp} is operating; its president {president} acts now, "
            f"not {ctx.actor}.")
    if rnd["turn"].get("retoken") and not (kind == "buy_private" and action.get("from")):
        ortrack.move_station(ctx, corp, action)  # (a private may be bought meanwhile,
        return  # as on 18xx.games, whose reading station_retile=choose is)
    HANDLERS.get(kind, refuse)(ctx, corp, action)
    if state.corps[corp].closed and state.round.get("current") == corp:
        end_closed_turn(ctx, corp)


def end_closed_turn(ctx: Ctx, corp: str) -> None:
    """A company that closed during its own turn (1870: its token entered the closing
    section) operates no further."""
    state = ctx.state
    ctx.round_set(operated=state.round["operated"] + [corp], current=None,
                  discards=[c for c in state.round["discards"] if c != corp])
    connection.after_turn(ctx, corp)


def refuse(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    raise RulesError(f"In an operating turn {corp} may lay a tile, place a station, run, pay "
                     "out or withhold, buy trains or a private company, and end with done.",
                     "1830 6.1")


def do_home(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    state = ctx.state
    home = state.rules.corp(corp).home
    require(action["hex"].upper() == home, f"{corp} must first place its home station on "
            f"{home}: token {home} 1 or token {home} 2.", "1830 6.3.1")
    stop = ortrack.city_for(state, home, action.get("city"))
    problem = ortrack.token_problem(state, corp, home, stop)
    require(problem is None, problem or "", "1830 6.3.1")
    ctx.emit(Station.on(state, home, stop, corp))
    ctx.log(f"{corp} places its home station on {home} city {stop + 1}.")
    ctx.round_set(turn={**state.round["turn"], "step": "track"})


def do_lay(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    require_home(ctx.state, corp)
    if not (action.get("with") and private_lay_any_time(ctx.state)):
        advance_to(ctx, "track", corp)
    ortrack.lay(ctx, corp, action)


def private_lay_any_time(state: GameState) -> bool:
    """Option private_lay=any-time (18xx.games): a private company's tile lay (CS, DH)
    may be made at any point of the owner's turn.  Default (track-step): it is part of
    laying track, the first step of the turn (6.1)."""
    return state.options.get("private_lay", "track-step") == "any-time"


def do_token(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    if ctx.state.round["turn"]["step"] == "home":
        do_home(ctx, corp, action)
        return
    advance_to(ctx, "token", corp)
    ortrack.place_station(ctx, corp, action)


def require_home(state: GameState, corp: str) -> None:
    if state.round["turn"]["step"] == "home":
        home = state.rules.corp(corp).home
        raise RulesError(f"{corp} must first place its home station: token {home} 1 or "
                         f"token {home} 2.", "1830 6.3.1")


def do_run(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    require_home(ctx.state, corp)
    advance_to(ctx, "run", corp)
    orrun.run_trains(ctx, corp, action.get("routes"))


def do_dividend(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    require_home(ctx.state, corp)
    advance_to(ctx, "dividend", corp) if ctx.state.round["turn"]["run"] else None
    orrun.decide_dividend(ctx, corp, action["type"])


def do_buy_train(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    require_home(ctx.state, corp)
    settle_run(ctx, corp)
    if ctx.state.corps[corp].closed:
        return
    ortrains.buy_train(ctx, corp, action)


def do_sell(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    require_home(ctx.state, corp)
    settle_run(ctx, corp)  # forced sales belong to the train step, after the dividend (6.1)
    if ctx.state.corps[corp].closed:
        return
    ortrains.emergency_sell(ctx, corp, action["sales"])


def do_bankrupt(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    require_home(ctx.state, corp)
    settle_run(ctx, corp)  # a corporation without revenue withholds first (6.1, 6.5)
    if ctx.state.corps[corp].closed:
        return
    ortrains.bankrupt(ctx, corp)


PRIVATE_RULE_1870 = "1870 Purchasing Private Companies, p.19"


def do_buy_private(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    """A corporation buys a private company from a player, phases 3 and 4 (3.1)."""
    state = ctx.state
    require_home(state, corp)
    assert state.phase is not None
    rule = PRIVATE_RULE_1870 if rules_1870(state) else "1830 3.1"
    early = early_sale(state, corp, action.get("private") or "")  # 1870 MRBC, phase 1
    require(early is not None or state.rules.phase(state.phase).corporations_buy_privates,
            "Public companies may buy private companies only in phases 2 and 3 (from the "
            "first 3-train to the first 5-train)." if rules_1870(state) else
            "Corporations may buy private companies only in phases 3 and 4 (after the first "
            "3-train).", rule)
    sym: str = action.get("private") or ""
    private = state.privates.get(sym)
    if private is None or private.closed:
        raise RulesError(f"{sym} is not an open private company.")
    require(private.owner.startswith("p:"), f"{sym} is not owned by a player; corporations never "
            "sell private companies.", rule)
    pdef = state.rules.private(sym)
    require(not pdef.extra.get("no_sale_to_corporation"), f"{sym} may not be sold to a "
            "corporation.", "1870 Private Companies, p.10" if rules_1870(state) else
            "1830 appendix")
    price: int | None = action.get("price")
    low, high = early or (pdef.value // 2, pdef.value * 2)
    if price is None or not low <= price <= high:
        raise RulesError(f"{sym} may be bought for {money(low)} to {money(high)} "
                         f"({'in phase 1' if early else 'half to twice its face value'}).",
                         rule)
    require(state.corps[corp].cash >= price, f"{corp} has only {money(state.corps[corp].cash)}.")
    seller = private.owner[2:]
    proposal = {"kind": "private", "buyer": corp, "seller": seller, "private": sym,
                "price": price, "answer_by": seller}
    if seller == state.president(corp):
        complete_private_sale(ctx, proposal)
        return
    ctx.round_set(proposal=proposal)
    ctx.log(f"{corp} offers {seller} {money(price)} for {sym}; {seller} may accept or decline.")


def complete_private_sale(ctx: Ctx, proposal: dict[str, Any]) -> None:
    corp, seller, sym, price = (proposal["buyer"], proposal["seller"], proposal["private"],
                                proposal["price"])
    ctx.pay(corp_holder(corp), player_holder(seller), price)
    ctx.emit(PrivateOwner(sym, corp_holder(corp)))
    ctx.log(f"{corp} buys {sym} from {seller} for {money(price)}.")
    if rules_1870(ctx.state):
        from .track1870 import after_private_bought

        after_private_bought(ctx, corp, sym)


def early_sale(state: GameState, corp: str, sym: str) -> tuple[int, int] | None:
    """1870: the MRBC may be bought in phase 1 by MP or SSW for $20-40 (p.9, p.19)."""
    if not rules_1870(state):
        return None
    from .track1870 import early_private_sale

    return early_private_sale(state, corp, sym)


def answer_proposal(ctx: Ctx, kind: str) -> None:
    state = ctx.state
    prop = state.round["proposal"]
    require(ctx.actor == prop["answer_by"] and kind in ("accept", "decline"),
            f"{prop['answer_by']} must first accept or decline {prop['buyer']}'s offer.")
    ctx.round_set(proposal=None)
    if kind == "decline":
        ctx.log(f"{ctx.actor} declines.")
        if prop["kind"] == "train":
            ortrains.train_sale_declined(ctx, prop)
        return
    if prop["kind"] == "private_to_player":
        ortrains.complete_emergency_private_sale(ctx, prop)
        return
    if prop["kind"] == "train":
        ortrains.complete_train_sale(ctx, prop)
    else:
        require(state.corps[prop["buyer"]].cash >= prop["price"],
                f"{prop['buyer']} no longer has {money(prop['price'])}.")
        complete_private_sale(ctx, prop)


def do_pass(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    require_home(ctx.state, corp)
    end_turn(ctx, corp)


HANDLERS = {
    "lay": do_lay,
    "token": do_token,
    "run": do_run,
    "payout": do_dividend,
    "withhold": do_dividend,
    "half": do_dividend,
    "buy_train": do_buy_train,
    "buy_private": do_buy_private,
    "sell": do_sell,
    "sell_private": lambda ctx, corp, action: ortrains.offer_private_for_emergency(
        ctx, corp, action),
    "bankrupt": do_bankrupt,
    "pass": do_pass,
    "cattle": lambda ctx, corp, action: do_marker(ctx, corp, action),
    "port": lambda ctx, corp, action: do_marker(ctx, corp, action),
}


def do_marker(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    """1870: the cattle token (SCC) or a port token (GSC), any time in the owning
    company's operating turn (Private Companies, p.9)."""
    require(rules_1870(ctx.state), f"There are no {action['type']} tokens in "
            f"{ctx.state.title}.")
    from . import tokens

    (tokens.place_cattle if action["type"] == "cattle" else tokens.place_port)(ctx, corp, action)


# -- what may be done -------------------------------------------------------------------------


def operating_player(state: GameState) -> str | None:
    corp = state.round.get("current")
    return state.president(corp) if corp else None


def legal(state: GameState) -> dict[str, list[dict[str, Any]]]:
    rnd = state.round
    if rnd.get("connection"):
        return connection.legal(state)
    if rnd.get("protection"):
        return protection.moves(state)
    if rnd["proposal"]:
        return {rnd["proposal"]["answer_by"]: [{"action": {"type": "accept"}},
                                              {"action": {"type": "decline"}}]}
    if rnd["discards"]:
        corp = rnd["discards"][0]
        president = state.president(corp)
        assert president is not None
        return {president: [{"action": {"type": "discard", "train": t}}
                            for t in sorted(set(state.corps[corp].trains))]}
    corp = rnd.get("current")
    if not corp:
        return {}
    president = state.president(corp)
    assert president is not None
    return {president: corporation_moves(state, corp)}


def corporation_moves(state: GameState, corp: str) -> list[dict[str, Any]]:
    turn = state.round["turn"]
    step = turn["step"]
    if turn.get("retoken"):
        coord = turn["retoken"]["hex"]
        return [{"action": {"type": "token", "hex": coord, "city": i + 1, "with": None}}
                for i in range(2)]
    if step == "home":
        home = state.rules.corp(corp).home
        return [{"action": {"type": "token", "hex": home, "city": i + 1, "with": None}}
                for i in range(2)
                if ortrack.token_problem(state, corp, home, i) is None]
    moves: list[dict[str, Any]] = []
    if rules_1870(state):
        from .tokens import marker_moves
        from .track1870 import private_moves

        moves += marker_moves(state, corp) + private_moves(state, corp)
    if STEPS.index(step) <= STEPS.index("track") and not turn["laid"]:
        moves += ortrack.lay_options(state, corp)
    if STEPS.index(step) <= STEPS.index("token") and not turn["token"]:
        moves += ortrack.token_options(state, corp)
    if turn["dividend"] is None:
        if turn["run"] is None and state.corps[corp].trains:
            moves.append({"action": {"type": "run", "routes": None}})
        revenue = turn["run"]["revenue"] if turn["run"] else None
        if revenue is None and state.corps[corp].trains:
            revenue = orrun.best(state, corp).total
        if revenue:
            moves.append({"action": {"type": "payout"}})
            moves.append({"action": {"type": "withhold"}})
            if rules_1870(state):
                moves.append({"action": {"type": "half"}})
            return moves
    moves += train_moves(state, corp)
    sales = ortrains.emergency_sales(state, corp)
    for other, most in sales.items():
        moves.append({"action": {"type": "sell", "sales": [{"corp": other, "count": 1}]},
                      "min": 1, "max": most})
    if ortrains.in_emergency(state, corp) and ortrains.emergency_shortfall(state, corp) > 0 \
            and not sales:
        moves.append({"action": {"type": "bankrupt"}})
    if not ortrains.must_buy_train(state, corp):
        moves.append({"action": {"type": "pass"}})
    return moves


def train_moves(state: GameState, corp: str) -> list[dict[str, Any]]:
    from .trains import bank_offers, train_limit

    c = state.corps[corp]
    cash = c.cash
    forced = ortrains.must_buy_train(state, corp)
    if forced:
        president = state.president(corp)
        assert president is not None
        cash += player_cash(state, president)
    cheapest = ortrains.cheapest_available(state)
    moves: list[dict[str, Any]] = []
    room = len(c.trains) < train_limit(state)
    for train in bank_offers(state):
        ok = cash >= train.price if not forced or c.cash >= train.price else \
            train.price == cheapest and cash >= train.price
        if room and ok:
            moves.append({"action": {"type": "buy_train", "train": train.name, "source": "bank",
                                     "price": None, "trade": None}, "price": train.price})
        trade = train.extra.get("trade_in")
        if trade:
            for old in sorted(set(c.trains) & set(trade["trains"])):
                if c.cash >= trade["price"]:
                    moves.append({"action": {"type": "buy_train", "train": train.name,
                                             "source": "bank", "price": None, "trade": old},
                                  "price": trade["price"]})
    for name in sorted(set(state.pool_trains)):
        price = state.rules.train(name).price
        ok = c.cash >= price or (forced and price == cheapest and cash >= price)
        if room and ok:
            moves.append({"action": {"type": "buy_train", "train": name, "source": "pool",
                                     "price": None, "trade": None}, "price": price})
    return moves
