"""Games stored by an older pbem rebuild and audit identically with this one.

tests/data/legacy-engine-1.db was written by pbem with engine version 1 (main at 3a3f4fb,
the last commit before facts were typed and versioned) by tools/make_legacy_db.py: games
of 1830 and 1870 played to their end through the service by random legal players, with
a referee's revert in each, 1870 companies closing, tiles laid and upgraded, stations
moved by a lay.  Beside it, legacy-engine-1.json holds each game's final state as that
pbem rebuilt it.  Rebuilding now (the stored facts read through pbem.engine's upcast)
reaches the same state, and the audit decides every stored command again to the stored
facts.

A later rules fix that changes a decision in these games makes their audit fail at the
command it changes: that is the audit doing its work.  Such a fix says so in its
commit, and the database is then written again by the engine just before the fix only
if that engine still stores version-1 facts; otherwise the game's audit is expected to
stop there and the test names that event (EXPECTED_AUDIT).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from pbem import service
from pbem.store import Store, open_store

DATA = Path(__file__).resolve().parent / "data"
LEGACY = DATA / "legacy-engine-1.db"
RECORDED: dict[str, Any] = json.loads(LEGACY.with_suffix(".json").read_text())
GAMES = sorted(RECORDED["games"], key=int)
#: game -> the first event a later rules fix decides differently:
#: 2: 95abe88 (1870 p.9): the MRBC's free home lay is used where the president writes
#: "with MRBC"; SSW's "lay 5 H17 NE-E" of event 302 was free, it now pays the terrain
EXPECTED_AUDIT: dict[str, int] = {"2": 302}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """A copy of the legacy database (opening a store may migrate it)."""
    copy = tmp_path_factory.mktemp("legacy") / LEGACY.name
    shutil.copyfile(LEGACY, copy)
    return open_store(copy, now="2025-06-01T00:00:00+00:00")


def same(recorded: Any, now: Any, where: str = "state") -> None:
    """Every value recorded then is the value now (a field added since may be new)."""
    if isinstance(recorded, dict) and isinstance(now, dict):
        for key, value in recorded.items():
            assert key in now, f"{where}.{key} is gone"
            same(value, now[key], f"{where}.{key}")
        return
    assert recorded == now, where


def test_the_database_holds_games_of_both_titles_with_reverts(store: Store) -> None:
    titles = {store.game(int(g))["title"] for g in GAMES}
    assert titles == {"1830", "1870"}
    for game in GAMES:
        events = store.events(int(game))
        assert len(events) == RECORDED["games"][game]["events"]
        assert store.game(int(game))["engine_version"] == RECORDED["engine_version"]
    kinds = {e["kind"] for g in GAMES for e in store.events(int(g))}
    assert "revert" in kinds


@pytest.mark.parametrize("game", GAMES)
def test_a_legacy_game_rebuilds_to_the_state_recorded(store: Store, game: str) -> None:
    state = service.load(store, int(game))
    now = json.loads(json.dumps(state.to_dict()))
    same(RECORDED["games"][game]["state"], now)
    assert state.finished


@pytest.mark.parametrize("game", GAMES)
def test_a_legacy_game_passes_audit(store: Store, game: str) -> None:
    result = service.audit(store, int(game))
    if game in EXPECTED_AUDIT:
        assert [p.seq for p in result.problems] == [EXPECTED_AUDIT[game]], result.problems
    else:
        assert result.problem is None, result.problem
    assert result.events == RECORDED["games"][game]["events"]
