"""A small driver for engine tests: a game in memory, actions as dicts."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.engine.errors import RulesError
from pbem.engine.game import apply_facts, decide, new_game, to_act
from pbem.engine.state import GameState, player_holder


class Table:
    def __init__(self, names: list[str], **options: str) -> None:
        self.state: GameState = new_game("1830", names, 1, options)
        self.log: list[str] = []
        self.facts: list[list[dict[str, Any]]] = []

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
