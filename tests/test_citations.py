"""Refusals cite the rulebook of the game's title (issue 13: 1870 refusals cited "rule
1830 4.3", "1830 6.6.2", "1830 6.7"): the core names a rule by a key, each title's
rulebook gives its citation (pbem/engine/titles/*)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from enginehelp import Table
from or1870help import Table1870, give_trains, home, lay_track, operating, start

from pbem.engine.errors import RulesError
from pbem.engine.game import decide
from pbem.engine.registry import rulebook_of

ENGINE = Path(__file__).resolve().parents[1] / "pbem" / "engine"


def cited_keys() -> set[str]:
    """Every rule key the engine cites."""
    found: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        found |= set(re.findall(r'cite\((?:[a-z_.]+, )?"([a-z_]+)"\)', path.read_text()))
    return found


def test_the_engine_cites_rules_by_key() -> None:
    assert {"track", "station", "certificates", "forced_train", "bankruptcy"} <= cited_keys()


@pytest.mark.parametrize(("title", "prefix"), [("1830", "1830 "), ("1870", "1870 ")])
def test_each_title_cites_every_key_from_its_own_rulebook(title: str, prefix: str) -> None:
    citations = rulebook_of(title).citations
    assert cited_keys() <= set(citations), cited_keys() - set(citations)
    assert all(c.startswith(prefix) for c in citations.values())


def refusal(table: Table, who: str, kind: str, **fields: object) -> RulesError:
    with pytest.raises(RulesError) as info:
        decide(table.state, who, {"type": kind, **fields})
    return info.value


def test_1870_certificate_limit_cites_p6() -> None:
    """A buy over the certificate limit: 1870 Share and Certificate Limits, p.6."""
    t = Table1870(["A", "B", "C", "D", "E", "F"], phase="2")
    for corp in ("MP", "SSW", "IC"):
        start(t, corp, 100, {"A": 6})
    t.state.round = {"kind": "stock", "number": 2, "current": "A", "passes": 0,
                     "last_actor": None, "turn": {"bought": False, "sold": [], "acted": False},
                     "sold": {}, "proposal": None}
    start(t, "TP", 100, {"B": 2})
    error = refusal(t, "A", "buy_share", corp="TP", source="ipo", count=1)
    assert "the limit is 11" in error.message
    assert error.rule == "1870 Share and Certificate Limits, p.6"


def test_1870_forced_purchase_cites_p22() -> None:
    """TP, with a route Dallas-Fort Worth and no train, must buy one before it ends its
    turn: 1870 Purchase Trains, p.22 (it cited 1830 6.6.2)."""
    t = Table1870(["A", "B"])
    start(t, "TP", 100, {"A": 6}, cash=500)
    home(t, "TP")
    lay_track(t, ["J5", "J3"])
    operating(t, "TP", step="trains", run={"revenue": 0, "routes": []}, dividend="withhold")
    error = refusal(t, "A", "pass")
    assert "must buy one now" in error.message
    assert error.rule == "1870 Purchase Trains, p.22"


def test_1870_turn_order_cites_the_operating_round_summary() -> None:
    t = Table1870(["A", "B"])
    start(t, "TP", 100, {"A": 6}, cash=500)
    home(t, "TP")
    operating(t, "TP", step="dividend", run={"revenue": 0, "routes": []}, dividend="withhold")
    error = refusal(t, "A", "lay", tile="57", hex="J5", exits=["W", "E"])
    assert error.message.startswith("TP has gone past that step")
    assert error.rule == "1870 Operating Round Summary, p.13"


def test_1830_keeps_its_numbering() -> None:
    t = Table(["A", "B", "C"])
    error = refusal(t, "A", "bid", private="CS", amount=41)
    assert error.rule == "1830 1.2.1"


def test_1870_route_refusals_cite_operate_trains() -> None:
    """A written route with more stops than its train counts: 1870 Operate Trains, p.21
    (board/written.py cited 1830 6.4.1 in every title)."""
    t = Table1870(["A", "B"])
    start(t, "TP", 100, {"A": 6}, cash=500)
    give_trains(t, "TP", "2")
    home(t, "TP")
    lay_track(t, ["J5", "J3"])
    operating(t, "TP", step="run")
    error = refusal(t, "A", "run", routes=[{"train": "2", "stops": ["J5", "J3", "J5"]}])
    assert "counts at most 2 stops" in error.message
    assert error.rule == "1870 Operate Trains, p.21"
