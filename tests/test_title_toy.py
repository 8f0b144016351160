"""A title outside the engine (tests/toytitle.py: data plus a rulebook) plays whole games:
the engine needs no change to run a new title.  The toy's own rules show: its step
lists (no stations to place, no private companies to buy), its dividend hook, its
citations."""

from __future__ import annotations

from pathlib import Path

import pytest
import toytitle
from enginehelp import Table
from selfplay import play_whole_game, replay_matches

from pbem import service
from pbem.engine.errors import RulesError
from pbem.engine.game import decide, legal_moves
from pbem.engine.registry import rulebook_of
from pbem.engine.title import load_title, titles
from pbem.store import open_store

NOW = "2025-01-01T00:00:00+00:00"


def test_the_toy_title_is_registered_from_the_tests() -> None:
    assert "toy" in titles()
    assert rulebook_of("toy") is toytitle.RULEBOOK
    rules = load_title("toy")
    assert sorted(rules.corporations) == ["BLU", "RED"] and len(rules.trains) == 2
    assert str(toytitle.DATA).startswith(str(Path(__file__).parent))


@pytest.mark.parametrize("seed", range(6))
def test_whole_toy_games_keep_the_invariants(seed: int) -> None:
    game = play_whole_game(2 + seed % 2, seed, "toy")
    assert game.state.result is not None and game.state.result["reason"] in ("bank",
                                                                          "bankruptcy")
    assert game.state.phase == "3"  # a 3-train came: the 2-trains rusted
    replay_matches(game)


def test_a_toy_game_through_the_service_rebuilds_and_audits(tmp_path: Path) -> None:
    store = open_store(tmp_path / "pbem.db", now=NOW)
    created = service.create_game(store, "toy", [("Ann", ""), ("Ben", "")], seed=1,
                                  seating="fixed", options={}, now=NOW)
    game = created.game_id
    moves = [("Ann", "buy"), ("Ben", "par RED 80")] + [("Ann", "buy RED"), ("Ben", "buy RED")] * 2
    for name, text in moves + [("Ann", "pass"), ("Ben", "pass")]:
        service.act(store, game, name, text, source="cli", now=NOW)
    state = service.load(store, game)
    assert state.corps["RED"].floated and state.round["kind"] == "operating"
    assert service.audit(store, game).problem is None


def operating_red() -> Table:
    """Ann holds the Toy Tramway and 20% of RED, Ben 40% and RED's presidency: the
    first operating round, RED's turn."""
    t = Table(["Ann", "Ben"], title="toy", seating="fixed")
    t.act("Ann", "buy_private")
    t.act("Ben", "par", corp="RED", price=80)
    for _ in range(2):
        t.act("Ann", "buy_share", corp="RED", source=None, count=1)
        t.act("Ben", "buy_share", corp="RED", source=None, count=1)
    t.pass_all()
    assert t.state.round["kind"] == "operating" and t.state.round["current"] == "RED"
    return t


def test_the_toy_turn_has_no_station_step() -> None:
    t = operating_red()
    kinds = {m["action"]["type"] for m in legal_moves(t.state)["Ben"]}
    assert "lay" in kinds and "token" not in kinds and "buy_private" not in kinds
    message = t.refused("Ben", "token", hex="B10", city=None)
    assert message.startswith("In an operating turn RED may lay a tile")


def test_toy_refusals_cite_the_toy_rulebook() -> None:
    t = operating_red()
    with pytest.raises(RulesError) as info:
        decide(t.state, "Ben", {"type": "lay", "tile": "9", "hex": "B6", "exits": ["W", "E"],
                                "with": None})
    assert info.value.message == "No tile may be laid on B6 while a player owns TOY."
    assert info.value.rule == "Toy 3.1"


def test_toy_shares_in_the_initial_offering_pay_the_company() -> None:
    """Toy 3.3: RED runs Redton-West for $40 and pays out $4 a share: Ann's two shares
    $8, Ben's four $16, the four left in the initial offering $16 to RED."""
    t = operating_red()
    t.act("Ben", "lay", tile="57", hex="B4", exits=["W", "E"])
    t.act("Ben", "buy_train", train="2", source="bank", price=None, trade=None)
    t.act("Ben", "pass")
    t.pass_all()  # the stock round
    assert t.state.round["kind"] == "operating" and t.state.round["current"] == "RED"
    cash = {"RED": t.state.corps["RED"].cash, "Ann": t.cash("Ann"), "Ben": t.cash("Ben")}
    t.act("Ben", "run", routes=None)
    assert t.state.round["turn"]["run"]["revenue"] == 40
    t.act("Ben", "payout")
    assert t.state.corps["RED"].cash == cash["RED"] + 16
    assert (t.cash("Ann"), t.cash("Ben")) == (cash["Ann"] + 8, cash["Ben"] + 16)
