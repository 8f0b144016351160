"""Parts of the 18xx.games importer's own bookkeeping around the commands: the actions
after the one under way (a view of the log, not a copy), the lay fields a translator
works out once for each tile and rotation, and the time and source its commands carry."""

from __future__ import annotations

import pytest

from pbem.engine.game import new_game
from pbem.engine.ortrack import lay_fields
from pbem.importer.replay import ImportStopped, Replay, stamp, timestamp
from pbem.importer.t1830 import Translator1830
from pbem.importer.translate import Upcoming
from pbem.store import open_store


def actions(n: int) -> list[dict[str, int]]:
    return [{"id": i} for i in range(n)]


def test_upcoming_is_the_actions_after_the_one_under_way() -> None:
    log = actions(5)
    after = Upcoming(log, 1)
    assert len(after) == 3 and list(after) == log[2:]
    assert after[0] is log[2] and after[-1] is log[4] and after[-3] is log[2]
    assert after[1:] == log[3:]
    assert bool(after) and not Upcoming(log, 4) and list(Upcoming(log, 4)) == []
    with pytest.raises(IndexError):
        after[3]
    with pytest.raises(IndexError):
        after[-4]


def test_upcoming_by_default_is_nothing() -> None:
    assert not Upcoming() and list(Upcoming()) == [] and len(Upcoming()) == 0


def test_upcoming_sees_the_log_as_it_is_without_a_copy() -> None:
    log = actions(3)
    after = Upcoming(log, 0)
    log[2]["id"] = 7
    assert [a["id"] for a in after] == [1, 7]


def test_lay_fields_are_those_of_the_engine_in_new_lists_each_time() -> None:
    state = new_game("1830", ["A", "B", "C"], 0, {})
    translator = Translator1830({})
    for name, rotation in (("57", 1), ("25", 0), ("25", 3), ("9", 4)):
        tile = state.map.tiles[name]
        first = translator._lay_fields(state, name, rotation)
        again = translator._lay_fields(state, name, rotation)
        assert first == again == lay_fields(tile, rotation, list(range(6)))
        assert first is not again and first["exits"] is not again["exits"]
        if "paths" in first:
            assert all(a is not b for a, b in zip(first["paths"], again["paths"], strict=True))
    assert any("paths" in translator._lay_fields(state, "25", r) for r in range(6))


def test_an_actions_commands_carry_its_id_and_time() -> None:
    assert stamp({"id": 12, "created_at": 1614556800}) == \
        ("18xx.games action 12", "2021-03-01T00:00:00+00:00")
    assert stamp({}) == ("18xx.games action -", "")
    assert timestamp("2021-03-01 10:00") == "2021-03-01 10:00"


def test_the_track_laid_must_be_the_sites() -> None:
    state = new_game("1830", ["A", "B", "C"], 0, {})
    replay = Replay(open_store(":memory:"), 0, Translator1830({}), state)
    state.board.tiles["H12"] = ("57", 1)
    for rotation in (1, 4):  # 57 at 4 is 57 at 1
        replay.check_tile({"tile": "57-0", "hex": "H12", "rotation": rotation})
    for tile, rotation in (("57-0", 2), ("9-0", 1)):
        with pytest.raises(ImportStopped, match="pbem laid"):
            replay.check_tile({"tile": tile, "hex": "H12", "rotation": rotation})
    with pytest.raises(ImportStopped, match="pbem laid None on H14"):
        replay.check_tile({"tile": "57-0", "hex": "H14", "rotation": 1})
