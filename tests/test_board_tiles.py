"""Tiles, the 1830 manifest and the upgrade rule (1830 rules 6.2.2 and appendix)."""

import json
from collections import Counter

import pytest

from pbem.engine.board.map import load_map
from pbem.engine.board.tiles import (
    End,
    can_upgrade,
    derive_upgrade_table,
    load_tiles,
    parse_track,
    unique_rotations,
)
from pbem.engine.rulesdata import rules_dir

# The rulebook appendix "Track Tile Manifest & Upgrades" (1830, Lookout 2018).
APPENDIX_UPGRADES = {
    "7": "18 26 27 28 29", "8": "16 19 23 24 25 28 29", "9": "18 19 20 23 24 26 27",
    "57": "14 15", "14": "63", "15": "63", "16": "43 70", "18": "43", "19": "45 46",
    "20": "44 47", "23": "41 43 45 47", "24": "42 43 46 47", "25": "40 45 46",
    "26": "42 44 45", "27": "41 44 46", "28": "39 43 46 70", "29": "39 43 45 70",
    "53": "61", "54": "62", "59": "64 65 66 67 68",
}


@pytest.fixture(scope="module")
def board_map():
    return load_map("1830")


def test_every_manifest_tile_loads(board_map):
    tiles = load_tiles()
    assert set(board_map.manifest) <= set(tiles)
    for tile in board_map.tiles.values():
        for a, b in tile.paths:
            for end in (a, b):
                assert end.kind == "edge" or end.n < len(tile.stops), tile.id
        for index, _ in enumerate(tile.stops):
            assert tile.stop_exits(index), f"tile {tile.id} stop {index} has no track"


def test_manifest_counts_per_colour_are_34_25_26(board_map):
    per_colour: Counter[str] = Counter()
    for tile_id, count in board_map.manifest.items():
        per_colour[board_map.tiles[tile_id].colour] += count
    assert dict(per_colour) == {"yellow": 34, "green": 25, "brown": 26}
    assert len(board_map.manifest) == 46


def test_appendix_upgrade_table_is_stored(board_map):
    expected = {old: tuple(new.split()) for old, new in APPENDIX_UPGRADES.items()}
    assert dict(board_map.upgrades) == expected


def test_appendix_upgrade_table_is_derived_from_geometry(board_map):
    derived = derive_upgrade_table(board_map.tiles, board_map.hexes.values())
    as_ids = {old: " ".join(u["to"] for u in ups) for old, ups in derived.items() if ups}
    assert as_ids == APPENDIX_UPGRADES


def test_labelled_upgrades_name_their_hexes(board_map):
    derived = derive_upgrade_table(board_map.tiles, board_map.hexes.values())
    assert {u["to"]: u["only_on_hexes"] for u in derived["53"]} == {"61": ["E23", "I15"]}
    assert all(u["only_on_hexes"] == ["D10", "E5", "E11", "H18"] for u in derived["59"])
    assert all("only_on_hexes" not in u for u in derived["57"])


def test_6_2_2_old_track_must_be_kept(board_map):
    tiles = board_map.tiles
    # 9 is straight 0-3; 18 keeps it only at the same or the opposite rotation.
    assert [r for r in range(6) if can_upgrade(tiles["9"], 0, tiles["18"], r)] == [0, 3]
    # with the old tile turned, the allowed rotations turn with it
    assert [r for r in range(6) if can_upgrade(tiles["9"], 2, tiles["18"], r)] == [2, 5]
    # 57 -> 14: city keeps exits 0 and 3
    assert [r for r in range(6) if can_upgrade(tiles["57"], 0, tiles["14"], r)] == [0, 2, 3, 5]


def test_6_2_2_only_one_colour_later(board_map):
    tiles = board_map.tiles
    assert not can_upgrade(tiles["9"], 0, tiles["40"], 0)  # yellow -> brown
    assert not can_upgrade(tiles["18"], 0, tiles["9"], 0)  # green -> yellow
    assert not can_upgrade(tiles["57"], 0, tiles["57"], 0)


def test_6_2_2_labels_must_match(board_map):
    tiles = board_map.tiles
    hexes = board_map.hexes
    assert can_upgrade(tiles["59"], 0, tiles["64"], 2, hexes["E5"])
    assert not can_upgrade(tiles["57"], 0, tiles["53"], 0)
    # 53 (B) keeps 57's track but is labelled B: only on a B hex.
    assert not can_upgrade(tiles["57"], 0, tiles["53"], 0, hexes["H16"])


def test_6_2_2_separate_cities_are_never_joined(board_map):
    tiles = board_map.tiles
    # 59 at rotation 0: city 0 on edge 0, city 1 on edge 2.  63 has one city: refused
    # (different count), and no OO tile joins both old exits in one city.
    for new_id in ("64", "65", "66", "67", "68"):
        for r in range(6):
            if can_upgrade(tiles["59"], 0, tiles[new_id], r):
                new = tiles[new_id]
                cities = [new.stop_exits(i, r) for i in range(2)]
                assert not any({0, 2} <= exits for exits in cities)


def test_tile_exits_rotate_clockwise(board_map):
    tile = board_map.tiles["57"]
    assert tile.exits(0) == {0, 3}
    assert tile.exits(1) == {1, 4}
    assert tile.stop_exits(0, 2) == {2, 5}


def test_unique_rotations_drop_identical_layouts(board_map):
    assert unique_rotations(board_map.tiles["57"], list(range(6))) == [0, 1, 2]
    assert unique_rotations(board_map.tiles["7"], list(range(6))) == list(range(6))


def test_track_notation():
    assert parse_track("0-c1") == (End("edge", 0), End("stop", 1))
    assert parse_track("1-4") == (End("edge", 1), End("edge", 4))
    with pytest.raises(ValueError):
        parse_track("6-c0")


def test_rules_dir_can_be_overridden(monkeypatch, tmp_path):
    monkeypatch.setenv("PBEM_RULES", str(tmp_path))
    assert rules_dir() == tmp_path
    (tmp_path / "tiles.json").write_text(json.dumps(
        {"tiles": {"x": {"colour": "yellow", "track": ["0-3"]}}}))
    assert list(load_tiles()) == ["x"]
