"""Trains: what the bank offers, buying, phases, obsolescence and excess trains
(the rulebooks' phases and train rules)."""

from __future__ import annotations

from typing import Any

from .context import Ctx, money
from .facts import Phase, PrivateClosed, Train
from .market import operating_order
from .registry import book
from .state import BANK, POOL, GameState, corp_holder
from .title import TrainDef

SCRAP = "scrap"
#: the phase events the common rules carry out; a title carries out its others
#: (Rulebook.phase_event)
COMMON_EVENTS = frozenset({"close_privates", "privates_buyable"})


def train_count(state: GameState, train: TrainDef) -> int | None:
    """Copies of ``train`` in the game (None: unlimited), by the title's rules and the
    game's options (Rulebook.train_count)."""
    return book(state).train_count(state, train)


def left_in_bank(state: GameState, train: TrainDef) -> int | None:
    count = train_count(state, train)
    return None if count is None else count - state.trains_sold.get(train.name, 0)


def bank_offers(state: GameState) -> list[TrainDef]:
    """Trains the bank sells now: the next type in order, and diesels once the first
    6-train is sold even while 6-trains remain (6.6)."""
    offers: list[TrainDef] = []
    for train in state.rules.trains:
        after = train.extra.get("available_after")
        if after is not None:
            if state.trains_sold.get(after, 0) and left_in_bank(state, train) != 0:
                offers.append(train)
            continue
        if left_in_bank(state, train) != 0:
            if not offers:
                offers.append(train)
    return offers


def has_room(state: GameState, corp: str) -> bool:
    """Whether ``corp`` may buy a train: under the limit, or a title's rule lets it go
    over and discard down to it."""
    return len(state.corps[corp].trains) < train_limit(state) or \
        book(state).exceeds_train_limit(state)


def train_limit(state: GameState) -> int:
    assert state.phase is not None
    return state.rules.phase(state.phase).train_limit


def phase_for_train(state: GameState, name: str) -> str | None:
    """The phase the first train ``name`` starts, if it is later than the current one."""
    names = [p.name for p in state.rules.phases]
    for phase in state.rules.phases:
        if phase.on_train == name and state.phase is not None and \
                names.index(phase.name) > names.index(state.phase):
            return phase.name
    return None


def move_train(ctx: Ctx, name: str, source: str, dest: str) -> None:
    ctx.emit(Train(name, source, dest))


def buy_from_bank(ctx: Ctx, corp: str, train: TrainDef, price: int) -> None:
    ctx.pay(corp_holder(corp), BANK, price)
    move_train(ctx, train.name, BANK, corp_holder(corp))
    ctx.log(f"{corp} buys a {train.name}-train from the bank for {money(price)}.")
    first = ctx.state.trains_sold.get(train.name, 0) == 1
    new_phase = phase_for_train(ctx.state, train.name) if first else None
    if new_phase is not None:
        enter_phase(ctx, new_phase)
    for old in ctx.state.rules.trains:
        if old.rusts_on != train.name:
            continue
        if rusts_on_last(old):
            if left_in_bank(ctx.state, train) == 0:
                rust(ctx, old.name)
        elif first and new_phase is None:  # a train that starts no phase (a plus train)
            rust(ctx, old.name)


def rusts_on_last(train: TrainDef) -> bool:
    """Whether ``train`` is made obsolete by the last train of its rusts_on type rather
    than the first (data rusts_on_last: a plus train that goes with the last diesel);
    with unlimited trains of that type it never is."""
    return bool(train.extra.get("rusts_on_last"))


def obsolete_by(state: GameState, old: str, bought: TrainDef) -> bool:
    """Whether trains ``old`` leave the game when ``bought`` is bought from the bank now
    (a train traded in for it goes to the scrap, not the pool)."""
    train = state.rules.train(old)
    if train.rusts_on != bought.name:
        return False
    return not rusts_on_last(train) or left_in_bank(state, bought) == 1


def enter_phase(ctx: Ctx, name: str) -> None:
    """A phase begins at once: obsolete trains go, privates may close; the phase's
    events (data phases[].events): privates become buyable, privates close (their placed
    tokens stay), and the title's own (Rulebook.phase_event).  Trains over the new limit
    are discarded by their presidents afterwards (ortrains.after_purchase)."""
    state = ctx.state
    phase = state.rules.phase(name)
    ctx.emit(Phase(name))
    ctx.log(f"Phase {phase.rulebook} begins: train limit {phase.train_limit}, "
            f"tiles {', '.join(phase.tiles)}.")
    trigger = phase.on_train
    for train in state.rules.trains:
        if train.rusts_on == trigger and not rusts_on_last(train):
            rust(ctx, train.name)
    trigger_def = state.rules.train(trigger) if trigger else None
    closes = "close_privates" in phase.events or (
        trigger_def is not None and bool(trigger_def.extra.get("closes_privates")))
    if closes:
        close_all_privates(ctx)
    if "privates_buyable" in phase.events:
        ctx.log("Public companies may now buy private companies from players.")
    for event in phase.events:
        if event not in COMMON_EVENTS:
            book(state).phase_event(ctx, event)


def rust(ctx: Ctx, name: str) -> None:
    """All trains ``name`` are removed from play (corporations and the pool); with a
    title's delayed rusting those of the corporations run once more first
    (Corporation.rusting, orrun.running)."""
    state = ctx.state
    delayed = book(state).rusting_delayed(state)
    for sym, corp in state.corps.items():
        count = corp.trains.count(name)
        for _ in range(count):
            move_train(ctx, name, corp_holder(sym), SCRAP)
        if delayed and count:
            ctx.corp_set(sym, rusting=[*corp.rusting, *[name] * count])
    for _ in range(state.pool_trains.count(name)):
        move_train(ctx, name, POOL, SCRAP)
    if delayed:
        ctx.log(f"All {name}-trains are obsolete: those of the corporations run once more, "
                "in their next run, and then leave the game.")
    else:
        ctx.log(f"All {name}-trains are obsolete and removed from play.")


def close_all_privates(ctx: Ctx) -> None:
    for sym, private in ctx.state.privates.items():
        if not private.closed:
            ctx.emit(PrivateClosed(sym))
    ctx.log("All private companies close.")


def over_limit(state: GameState) -> list[str]:
    """Corporations holding more trains than the limit, in market order (6.6.1)."""
    limit = train_limit(state)
    corps = [s for s, c in state.corps.items() if len(c.trains) > limit and c.cell]
    return operating_order(state, corps)


def describe_trains(trains: list[str]) -> str:
    return ", ".join(trains) if trains else "none"


def train_moves_summary(state: GameState) -> dict[str, Any]:
    return {"bank": [t.name for t in bank_offers(state)], "pool": list(state.pool_trains)}
