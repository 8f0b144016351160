"""A small driver for engine tests: a game in memory, actions as dicts."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.engine.errors import RulesError
from pbem.engine.facts import Fact
from pbem.engine.game import apply_facts, decide, new_game, to_act
from pbem.engine.state import GameState, player_holder


class Table:
    def __init__(self, names: list[str], title: str = "1830", **options: str) -> None:
        self.state: GameState = new_game(title, names, 1, options)
        self.log: list[str] = []
        self.facts: list[list[Fact]] = []

    def act(self, who: str, kind: str, **fields: Any) -> list[str]:
        decision = decide(self.state, who, {"type": kind, **fields})
        apply_facts(self.state, decision.facts)
        self.facts.append(decision.facts)
        self.log.extend(decision.log)
        return decision.log

    def refused(self, who: str, kind: str, **fields: Any) -> str:
        before = self.state.to_dict()
        with pytest.raises(RulesError) as info:
            decide(self.state, who, {"type": kind, **fields})
        assert self.state.to_dict() == before
        return info.value.message

    @property
    def result(self) -> dict[str, Any]:
        """The result of the finished game."""
        assert self.state.result is not None, "the game is not over"
        return self.state.result

    @property
    def ending(self) -> dict[str, Any]:
        """How the game ends, once that is fixed."""
        assert self.state.ending is not None, "the end of the game is not fixed"
        return self.state.ending

    def cash(self, who: str) -> int:
        return self.state.player(who).cash

    def pct(self, who: str, corp: str) -> int:
        return self.state.percent(corp, player_holder(who))

    def privates(self, who: str) -> list[str]:
        return self.state.privates_of(player_holder(who))

    @property
    def current(self) -> str:
        waiting = to_act(self.state)
        assert len(waiting) == 1, waiting
        return waiting[0]

    def pass_all(self) -> None:
        """Everybody passes until the round changes."""
        kind = self.state.round["kind"], self.state.round.get("number")
        while (self.state.round["kind"], self.state.round.get("number")) == kind:
            self.act(self.current, "pass")


def sell_all_privates(table: Table, buyers: list[str]) -> None:
    """Each of ``buyers`` in turn buys the cheapest private until all are sold."""
    i = 0
    while table.state.round["kind"] == "auction":
        rnd = table.state.round
        if rnd["pending_par"]:
            table.act(rnd["pending_par"]["player"], "par", corp="B&O", price=100)
            continue
        who = rnd["current"]
        if who == buyers[i % len(buyers)]:
            table.act(who, "buy_private")
            i += 1
        else:
            table.act(who, "pass")


def privates_sold_b_and_o_parred(**options: str) -> Table:
    """A 4-player game after the private auction (A: SV, MH; B: CS, CA; C: DH; D: BO)
    with D's B&O parred at $100: stock round 1, A to act."""
    t = Table(["A", "B", "C", "D"], **options)
    for who in ["A", "B", "C"]:
        t.act(who, "buy_private")  # SV, CS, DH
    t.act("D", "pass")
    t.act("A", "buy_private")  # MH
    t.act("B", "buy_private")  # CA
    t.act("C", "pass")
    t.act("D", "buy_private")  # BO
    t.act("D", "par", corp="B&O", price=100)
    return t


def first_operating_round(**options: str) -> Table:
    """A 4-player game at the start of operating round 1.1: PRR (A, par 67) and C&O
    (C, par 67) floated; NYC (B) and B&O (D) not.  A: SV, MH; B: CS, CA; C: DH; D: BO."""
    t = privates_sold_b_and_o_parred(**options)
    t.act("A", "par", corp="PRR", price=67)
    t.act("B", "par", corp="NYC", price=67)
    t.act("C", "par", corp="C&O", price=67)
    for _ in range(3):
        for who, corp in [("D", "B&O"), ("A", "PRR"), ("B", "NYC"), ("C", "C&O")]:
            t.act(who, "buy_share", corp=corp, source=None, count=1)
    for who in ["D", "A", "B"]:
        t.act(who, "pass")
    t.act("C", "buy_share", corp="C&O", source=None, count=1)
    for who in ["D", "A", "B", "C"]:
        t.act(who, "pass")
    return t


def prr_forced_to_buy(president_cash: int, **options: str) -> Table:
    """PRR has a route (H10-H12), no train and no money; A, its president (50%), has
    ``president_cash`` and two NYC shares worth $67 each."""
    t = first_operating_round(**options)
    t.act("A", "lay", tile="57", hex="H10", exits=None)
    t.act("A", "run", routes=None)
    t.state.bank += t.state.corps["PRR"].cash
    t.state.corps["PRR"].cash = 0
    t.state.bank += t.cash("A") - president_cash
    t.state.player("A").cash = president_cash
    t.state.corps["NYC"].certs[5] = "p:A"
    t.state.corps["NYC"].certs[6] = "p:A"
    return t


def give_train(table: Table, corp: str, name: str) -> None:
    """Put a train from the bank into a corporation (test set-up, as if bought)."""
    state = table.state
    state.trains_sold[name] = state.trains_sold.get(name, 0) + 1
    state.corps[corp].trains.append(name)


def give_cash(table: Table, holder: str, amount: int) -> None:
    """Move money from the bank (test set-up)."""
    state = table.state
    state.bank -= amount
    if holder.startswith("p:"):
        state.player(holder[2:]).cash += amount
    else:
        state.corps[holder[2:]].cash += amount


def sell_out_trains(table: Table, name: str) -> None:
    """Mark every train ``name`` as sold and gone (test set-up: the bank has none left)."""
    state = table.state
    count = state.rules.train(name).count or 0
    left = count - state.trains_sold.get(name, 0)
    state.trains_sold[name] = count
    state.trains_scrapped[name] = state.trains_scrapped.get(name, 0) + left
