"""Operating rounds: private revenue, then each floated corporation in market order,
re-evaluated as prices change; each corporation's turn in a fixed order of steps.

The round is a Round of steps (pbem/engine/steps.py) that each title declares in its
own order (pbem/engine/titles/*).  The steps here are the common ones: answering a
proposal, discarding a train, the home station, laying track, placing a station,
running, the dividend, buying trains (with forced sales and bankruptcy), buying a
private company, ending the turn.  A title replaces a step with its own (a subclass)
or adds one.

Round keys: ``sr`` (the stock round before this set), ``index``/``of`` (round i of n),
``operated`` (corporations done this round), ``current`` (the corporation operating),
``turn`` (its progress: ``step`` track/token/run/dividend/trains, ``laid``,
``extra_lay``, ``special_lay``, ``token``, ``run``, ``dividend``, ``bought``,
``home``), ``discards`` (corporations that must discard a train, in market order),
``proposal`` (a purchase awaiting the other side's accept).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import market, orrun, ortrack, ortrains
from .auction import pay_private_revenue
from .board.map import tile_at
from .context import Ctx, money, player_cash, require
from .errors import RulesError
from .facts import PrivateOwner, Station
from .registry import book, cite
from .state import GameState, corp_holder, player_holder
from .steps import Moves, Round, Step
from .trains import bank_offers, has_room

STEPS = ("home", "track", "token", "run", "dividend", "trains")


def new_turn() -> dict[str, Any]:
    return {"step": "track", "laid": False, "extra_lay": False, "special_lay": None,
            "token": False, "run": None, "dividend": None, "bought": 0}


def begin_operating_round(ctx: Ctx, sr_number: int, index: int, count: int) -> None:
    ctx.new_round({"kind": "operating", "sr": sr_number, "index": index, "of": count,
                   "operated": [], "current": None, "turn": new_turn(), "discards": [],
                   "proposal": None})
    ctx.log(f"Operating round {sr_number}.{index} begins.")
    book(ctx.state).operating_round_begins(ctx)


def start_turns(ctx: Ctx) -> None:
    """The round's first company (the title may put something before it)."""
    pay_private_revenue(ctx)
    book(ctx.state).between_turns(ctx, None)


def next_corporation(ctx: Ctx) -> None:
    """The unoperated floated corporation highest in market order (6.0)."""
    state = ctx.state
    waiting = [c for c in book(state).operating_turn_order(state)
               if c not in state.round["operated"]]
    if not waiting:
        ctx.log(f"Operating round {state.round['sr']}.{state.round['index']} ends.")
        book(state).operating_round_ends(ctx)
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
    """Move the turn on to ``step``; the order of the turn may not be reversed."""
    state = ctx.state
    now = step_index(state)
    if STEPS.index(step) < now:
        raise RulesError(f"{corp} has gone past that step this turn: the order is track, "
                         "station, run, dividend, trains.", cite(state, "turn"))
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
        top = orrun.best(state, corp) if orrun.running(state, corp) else None
        if top is not None and top.total > 0:
            raise RulesError(f"{corp} must first run its trains and pay out or withhold "
                             f"(best run: {money(top.total)}).", cite(state, "turn"))
        orrun.run_trains(ctx, corp, None)
        return
    raise RulesError(f"{corp} ran for {money(turn['run']['revenue'])}: pay out or withhold "
                     "first.", cite(state, "dividend"))


def closes_before_its_trains(state: GameState, corp: str) -> bool:
    """A corporation that has not run yet, whose trains run nothing (or that has none),
    and whose value, moving left at its dividend (no revenue), enters a closing section
    (a title's market rule): it closes before its train step, so no train purchase,
    forced sale or bankruptcy comes first (18xx.games: the same)."""
    if state.round["turn"]["run"] is not None or not market.closes_moving(state, corp, "left"):
        return False
    ctx = Ctx(state.clone(), state.president(corp) or "")
    try:
        settle_run(ctx, corp)
    except RulesError:
        return False
    return ctx.state.corps[corp].closed


def settle_before_trains(ctx: Ctx, corp: str) -> None:
    """``settle_run`` before a train step action; refused if the company closes there."""
    settle_run(ctx, corp)
    require(not ctx.state.corps[corp].closed, f"{corp} runs nothing, and its value moving "
            "left at the dividend takes it into the closing section: it closes before its "
            "train step. End its turn with done.", cite(ctx.state, "turn"))


def end_turn(ctx: Ctx, corp: str) -> None:
    state = ctx.state
    settle_run(ctx, corp)
    if ctx.state.corps[corp].closed:
        return
    if ortrains.must_buy_train(state, corp):
        cheapest = ortrains.cheapest_available(state)
        raise RulesError(f"{corp} has a route and no train: it must buy one now (the cheapest "
                         f"costs {money(cheapest or 0)}).", cite(state, "forced_train"))
    ctx.log(f"{corp} ends its turn.")
    ctx.corp_set(corp, operated=True)
    ctx.round_set(operated=state.round["operated"] + [corp], current=None)
    book(state).between_turns(ctx, corp)


def end_closed_turn(ctx: Ctx, corp: str) -> None:
    """A company that closed during its own turn (its token entered a closing section)
    operates no further."""
    state = ctx.state
    ctx.round_set(operated=state.round["operated"] + [corp], current=None,
                  discards=[c for c in state.round["discards"] if c != corp])
    book(state).between_turns(ctx, corp)


def operating_corp(state: GameState) -> str:
    corp = state.round["current"]
    assert corp is not None
    return str(corp)


def require_home(state: GameState, corp: str) -> None:
    if state.round["turn"]["step"] == "home":
        home = state.rules.corp(corp).home
        raise RulesError(f"{corp} must first place its home station: token {home} 1 or "
                         f"token {home} 2.", cite(state, "home_station"))


def private_lay_any_time(state: GameState) -> bool:
    """Option private_lay=any-time (18xx.games): a private company's tile lay (CS, DH)
    may be made at any point of the owner's turn.  Default (track-step): it is part of
    laying track, the first step of the turn (6.1)."""
    return state.options.get("private_lay", "track-step") == "any-time"


# -- the round --------------------------------------------------------------------------------


@dataclass(frozen=True)
class OperatingRound(Round):
    """The interruptions first (the first blocking step takes the action); then the
    operating company's president acts: a blocking step of the turn (the home station),
    else the step for the action's type."""

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        state = ctx.state
        waiting = self.waiting(state, turn=False)
        if waiting is not None:
            waiting.decide(ctx, action)
            return
        corp = operating_corp(state)
        president = state.president(corp)
        require(ctx.actor == president, f"{corp} is operating; its president {president} acts "
                f"now, not {ctx.actor}.")
        blocking = self.waiting(state, turn=True)
        step = blocking if blocking is not None and not blocking.lets_by(action) \
            else self.step_for(action["type"])
        if step is None or not step.turn:
            raise RulesError(f"In an operating turn {corp} may lay a tile, place a station, "
                             "run, pay out or withhold, buy trains or a private company, and "
                             "end with done.", cite(state, "turn"))
        step.decide(ctx, action)
        if state.corps[corp].closed and state.round.get("current") == corp:
            end_closed_turn(ctx, corp)

    def legal(self, state: GameState) -> Moves:
        waiting = self.waiting(state, turn=False)
        if waiting is not None:
            return waiting.moves(state)
        corp = state.round.get("current")
        if not corp:
            return {}
        president = state.president(corp)
        assert president is not None
        blocking = self.waiting(state, turn=True)
        if blocking is not None:
            return blocking.moves(state)
        moves: list[dict[str, Any]] = []
        for step in self.steps:
            if step.turn:
                moves += step.moves(state).get(president, [])
                if step.holds(state):
                    break
        return {president: moves}


class TurnStep(Step):
    """A step of the operating company's turn: decided for the operating company."""

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        self.act(ctx, operating_corp(ctx.state), action)

    def act(self, ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
        raise NotImplementedError

    def moves(self, state: GameState) -> Moves:
        corp = operating_corp(state)
        president = state.president(corp)
        assert president is not None
        found = self.offers(state, corp)
        return {president: found} if found else {}

    def offers(self, state: GameState, corp: str) -> list[dict[str, Any]]:
        return []

    def holds(self, state: GameState) -> bool:
        return self.holding(state, operating_corp(state))

    def holding(self, state: GameState, corp: str) -> bool:
        return False


# -- interruptions ------------------------------------------------------------------------------


class AnswerProposal(Step):
    """A purchase waiting for the other side: the train or private company a corporation
    offered to buy, a private company offered to a player in a forced sale."""

    actions = frozenset({"accept", "decline"})
    turn = False

    def blocks(self, state: GameState) -> bool:
        return bool(state.round.get("proposal"))

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        state = ctx.state
        kind = action["type"]
        prop = state.round["proposal"]
        require(ctx.actor == prop["answer_by"] and kind in ("accept", "decline"),
                f"{prop['answer_by']} must first accept or decline {prop['buyer']}'s offer.")
        ctx.round_set(proposal=None)
        if kind == "decline":
            ctx.log(f"{ctx.actor} declines.")
            if prop["kind"] == "train":
                book(state).train_sale_declined(ctx, prop)
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

    def moves(self, state: GameState) -> Moves:
        return {state.round["proposal"]["answer_by"]: [{"action": {"type": "accept"}},
                                                       {"action": {"type": "decline"}}]}


class DiscardTrain(Step):
    """Over the train limit: the presidents discard, in market order (6.6.1)."""

    actions = frozenset({"discard"})
    turn = False

    def blocks(self, state: GameState) -> bool:
        return bool(state.round.get("discards"))

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        state = ctx.state
        corp = state.round["discards"][0]
        require(action["type"] == "discard", f"{state.president(corp)} must first choose a "
                f"train for {corp} to discard (discard N).", cite(state, "discard"))
        ortrains.discard(ctx, action["train"])

    def moves(self, state: GameState) -> Moves:
        corp = state.round["discards"][0]
        president = state.president(corp)
        assert president is not None
        return {president: [{"action": {"type": "discard", "train": t}}
                            for t in sorted(set(state.corps[corp].trains))]}


# -- the turn -----------------------------------------------------------------------------------


class ChooseStationCities(TurnStep):
    """Option station_retile=choose (18xx.games): after a tile is laid on a hex with
    several cities and no track, where stations stand, the laying corporation puts each
    station into the city it chooses (ortrack.ask_station_cities)."""

    # it takes the turn's actions only while it blocks (a token, or a refusal)

    def blocks(self, state: GameState) -> bool:
        return bool(state.round.get("current") and state.round["turn"].get("retoken"))

    def act(self, ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
        ortrack.move_station(ctx, corp, action)

    def lets_by(self, action: dict[str, Any]) -> bool:
        # a private company may be bought from a player meanwhile: the site's buy-company
        # step comes before its station step
        return action["type"] == "buy_private" and bool(action.get("from"))

    def offers(self, state: GameState, corp: str) -> list[dict[str, Any]]:
        if not self.blocks(state):
            return []
        coord = state.round["turn"]["retoken"]["hex"]
        return [{"action": {"type": "token", "hex": coord, "city": i + 1, "with": None}}
                for i in range(2)]


class ChooseJoinedCity(Step):
    """After a lay that joined the track of several cities into one (a tile of
    Map.joining: a flexible-exits variant), the president of the company with a station
    there chooses the city it goes into (ortrack.ask_joined_station)."""

    actions = frozenset({"token"})
    turn = False

    def blocks(self, state: GameState) -> bool:
        return bool(state.round.get("joined_station"))

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        ortrack.choose_joined_city(ctx, action)

    def moves(self, state: GameState) -> Moves:
        pending = state.round["joined_station"]
        tile, _ = tile_at(state.map, state.board, pending["hex"])
        return {str(state.president(pending["corp"])): [
            {"action": {"type": "token", "hex": pending["hex"], "city": i + 1, "with": None}}
            for i in tile.cities()]}


class HomeStation(TurnStep):
    """A corporation whose home hex has several cities and a tile already places its
    home station first, in the city it chooses (6.3.1)."""

    # it takes the turn's actions only while it blocks (a token, or a refusal)

    def blocks(self, state: GameState) -> bool:
        return bool(state.round.get("current")) and state.round["turn"]["step"] == "home"

    def act(self, ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
        state = ctx.state
        if action["type"] != "token":
            require_home(state, corp)
        home = state.rules.corp(corp).home
        rule = cite(state, "home_station")
        require(action["hex"].upper() == home, f"{corp} must first place its home station on "
                f"{home}: token {home} 1 or token {home} 2.", rule)
        stop = ortrack.city_for(state, home, action.get("city"))
        problem = ortrack.token_problem(state, corp, home, stop)
        require(problem is None, problem or "", rule)
        ctx.emit(Station.on(state, home, stop, corp))
        ctx.log(f"{corp} places its home station on {home} city {stop + 1}.")
        ctx.round_set(turn={**state.round["turn"], "step": "track"})

    def offers(self, state: GameState, corp: str) -> list[dict[str, Any]]:
        if not self.blocks(state):
            return []
        home = state.rules.corp(corp).home
        return [{"action": {"type": "token", "hex": home, "city": i + 1, "with": None}}
                for i in range(2) if ortrack.token_problem(state, corp, home, i) is None]


class LayTrack(TurnStep):
    """One tile laid or upgraded per turn, or a private company's lay (6.2)."""

    actions = frozenset({"lay"})

    def act(self, ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
        if not (action.get("with") and private_lay_any_time(ctx.state)):
            advance_to(ctx, "track", corp)
        self.lay(ctx, corp, action)

    def lay(self, ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
        ortrack.lay(ctx, corp, action)

    def offers(self, state: GameState, corp: str) -> list[dict[str, Any]]:
        turn = state.round["turn"]
        if step_index(state) <= STEPS.index("track") and not turn["laid"]:
            return self.lays(state, corp)
        return []

    def lays(self, state: GameState, corp: str) -> list[dict[str, Any]]:
        return ortrack.lay_options(state, corp)


class PlaceStation(TurnStep):
    """One station per turn, in a city the corporation reaches (6.3)."""

    actions = frozenset({"token"})

    def act(self, ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
        advance_to(ctx, "token", corp)
        self.place(ctx, corp, action)

    def place(self, ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
        ortrack.place_station(ctx, corp, action)

    def offers(self, state: GameState, corp: str) -> list[dict[str, Any]]:
        turn = state.round["turn"]
        if step_index(state) <= STEPS.index("token") and not turn["token"]:
            return self.places(state, corp)
        return []

    def places(self, state: GameState, corp: str) -> list[dict[str, Any]]:
        return ortrack.token_options(state, corp)


class RunTrains(TurnStep):
    """The trains run, the best total or the routes written (6.4)."""

    actions = frozenset({"run"})

    def act(self, ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
        advance_to(ctx, "run", corp)
        orrun.run_trains(ctx, corp, action.get("routes"))

    def offers(self, state: GameState, corp: str) -> list[dict[str, Any]]:
        turn = state.round["turn"]
        if turn["dividend"] is None and turn["run"] is None and orrun.running(state, corp):
            return [{"action": {"type": "run", "routes": None}}]
        return []


class Dividend(TurnStep):
    """Pay out or withhold the run's revenue (6.5); until it is decided nothing of the
    train step is offered.  A title with more kinds of dividend adds them (``kinds``)."""

    actions = frozenset({"payout", "withhold", "half"})
    #: the dividends the title knows
    kinds: tuple[str, ...] = ("payout", "withhold")

    def act(self, ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
        state = ctx.state
        advance_to(ctx, "dividend", corp) if state.round["turn"]["run"] else None
        self.check_kind(state, corp, action["type"])
        orrun.decide_dividend(ctx, corp, action["type"])

    def kinds_for(self, state: GameState, corp: str) -> tuple[str, ...]:
        """The dividends ``corp`` may declare now (a title's variants may vary them)."""
        return self.kinds

    def check_kind(self, state: GameState, corp: str, kind: str) -> None:
        if kind not in self.kinds_for(state, corp):
            raise RulesError(f"In {state.title} a corporation pays out or withholds; there is "
                             "no half dividend.", cite(state, "dividend"))

    def revenue(self, state: GameState, corp: str) -> int | None:
        turn = state.round["turn"]
        if turn["dividend"] is not None:
            return None
        revenue = turn["run"]["revenue"] if turn["run"] else None
        if revenue is None and orrun.running(state, corp):
            revenue = orrun.best(state, corp).total
        return revenue

    def offers(self, state: GameState, corp: str) -> list[dict[str, Any]]:
        if self.revenue(state, corp):
            return [{"action": {"type": kind}} for kind in self.kinds_for(state, corp)]
        return []

    def holding(self, state: GameState, corp: str) -> bool:
        return bool(self.revenue(state, corp))


class BuyTrains(TurnStep):
    """Buying trains from the bank, the pool or another corporation (6.6); forced
    purchases (6.6.2)."""

    actions = frozenset({"buy_train"})

    def act(self, ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
        settle_before_trains(ctx, corp)
        ortrains.buy_train(ctx, corp, action)

    def offers(self, state: GameState, corp: str) -> list[dict[str, Any]]:
        found = train_moves(state, corp)
        return [] if found and closes_before_its_trains(state, corp) else found


class ForcedSales(TurnStep):
    """A president raising money for a forced train purchase: shares (6.6.3), or a
    private company offered to another player (C-2.3.2)."""

    actions = frozenset({"sell", "sell_private"})

    def act(self, ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
        if action["type"] == "sell_private":
            ortrains.offer_private_for_emergency(ctx, corp, action)
            return
        settle_before_trains(ctx, corp)  # forced sales belong to the train step
        ortrains.emergency_sell(ctx, corp, action["sales"])

    def offers(self, state: GameState, corp: str) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        if ortrains.in_emergency(state, corp) and closes_before_its_trains(state, corp):
            return found
        for other, most in ortrains.emergency_sales(state, corp).items():
            least = ortrains.fewest_forced_sale(state, corp, other, most)
            found.append({"action": {"type": "sell", "sales": [{"corp": other, "count": least}]},
                          "min": least, "max": most})
        return found


class Bankruptcy(TurnStep):
    """A president who cannot raise the money for a forced train purchase (6.7)."""

    actions = frozenset({"bankrupt"})

    def act(self, ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
        settle_before_trains(ctx, corp)  # without revenue it withholds first (6.1, 6.5)
        ortrains.bankrupt(ctx, corp)

    def offers(self, state: GameState, corp: str) -> list[dict[str, Any]]:
        if ortrains.in_emergency(state, corp) and ortrains.emergency_shortfall(state, corp) > 0 \
                and not ortrains.emergency_sales(state, corp) and \
                not closes_before_its_trains(state, corp):
            return [{"action": {"type": "bankrupt"}}]
        return []


class BuyPrivate(TurnStep):
    """A corporation buys a private company from a player (3.1): in the phases the
    title's data allow, for half to twice its face value, with the owner's accept
    unless he is the president."""

    actions = frozenset({"buy_private"})

    def act(self, ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
        buy_private(ctx, corp, action)


class EndTurn(TurnStep):
    """``done``: the turn ends (a corporation with a route and no train must buy one)."""

    actions = frozenset({"pass"})

    def act(self, ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
        end_turn(ctx, corp)

    def offers(self, state: GameState, corp: str) -> list[dict[str, Any]]:
        if not ortrains.must_buy_train(state, corp) or closes_before_its_trains(state, corp):
            return [{"action": {"type": "pass"}}]
        return []


# -- private companies --------------------------------------------------------------------------


def buy_private(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    state = ctx.state
    assert state.phase is not None
    rules = book(state)
    rule = cite(state, "private_purchase")
    sym: str = action.get("private") or ""
    early = rules.early_private_sale(state, corp, sym)
    require(early is not None or state.rules.phase(state.phase).corporations_buy_privates,
            rules.private_purchase_phases(), rule)
    problem = rules.private_purchase_problem(state, corp, action.get("private") or "")
    require(early is not None or problem is None, problem or "", rule)
    private = state.privates.get(sym)
    if private is None or private.closed:
        raise RulesError(f"{sym} is not an open private company.")
    require(private.owner.startswith("p:"), f"{sym} is not owned by a player; corporations never "
            "sell private companies.", rule)
    pdef = state.rules.private(sym)
    require(not pdef.extra.get("no_sale_to_corporation"), f"{sym} may not be sold to a "
            "corporation.", cite(state, "private_abilities"))
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
    book(ctx.state).private_bought_by_corporation(ctx, corp, sym)


# -- what may be done -------------------------------------------------------------------------


def operating_player(state: GameState) -> str | None:
    corp = state.round.get("current")
    return state.president(corp) if corp else None


def train_moves(state: GameState, corp: str) -> list[dict[str, Any]]:
    c = state.corps[corp]
    cash = c.cash
    forced = ortrains.must_buy_train(state, corp)
    if forced:
        president = state.president(corp)
        assert president is not None
        cash += player_cash(state, president)
    cheapest = ortrains.cheapest_available(state)
    if forced and book(state).bank_lends(state):
        cash = max(cash, cheapest or 0)
    moves: list[dict[str, Any]] = []
    room = has_room(state, corp)
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
