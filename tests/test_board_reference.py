"""The board data and rules checked against the reference facts in ../shared/reference.

These tests skip when ../shared is absent; pbem itself reads only rules/.
"""

import importlib.util
import json
import os
from pathlib import Path

import pytest

from pbem.engine.board.map import BoardState, MapHex, load_map
from pbem.engine.board.tiles import derive_upgrade_table, load_tiles
from pbem.engine.board.track import placements

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = Path(os.environ.get("PBEM_REFERENCE", ROOT.parent / "shared" / "reference"))
ALL_COLOURS = ("yellow", "green", "brown", "gray")

pytestmark = pytest.mark.skipif(
    not (REFERENCE / "tiles.json").exists(),
    reason=f"reference data not found in {REFERENCE} (set PBEM_REFERENCE)",
)
TITLES = [t for t in ("1830", "1870") if (ROOT / "rules" / t / "map.json").exists()]


def reference(name):
    return json.loads((REFERENCE / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("title", TITLES)
def test_derived_upgrades_equal_the_reference_table(title):
    board_map = load_map(title)
    derived = derive_upgrade_table(board_map.tiles, board_map.hexes.values())
    assert derived == reference(f"{title}.json")["upgrades"]


@pytest.mark.parametrize("title", TITLES)
def test_track_may_exit_equals_the_reference(title):
    board_map = load_map(title)
    for hex_ in reference(f"{title}.json")["map"]["hexes"]:
        if "track_may_exit" in hex_:
            assert sorted(board_map.track_may_exit(hex_["coord"])) == hex_["track_may_exit"]


@pytest.mark.parametrize("title", TITLES)
def test_first_tiles_equal_the_reference(title):
    board_map = load_map(title)
    board = BoardState.new(board_map)
    for hex_ in reference(f"{title}.json")["map"]["hexes"]:
        if "first_tile_options" not in hex_:
            continue
        options = {o["tile"]: o for o in hex_["first_tile_options"]}
        for tile_id in board_map.tiles:
            got = placements(board_map, board, hex_["coord"], tile_id, ALL_COLOURS)
            assert got == options.get(tile_id, {}).get("rotations", []), (hex_["coord"], tile_id)
            if "rotations_while_river_closed" in options.get(tile_id, {}):
                closed = placements(board_map, board, hex_["coord"], tile_id, ALL_COLOURS,
                                    river_closed=True)
                assert closed == options[tile_id]["rotations_while_river_closed"]


@pytest.mark.parametrize("title", TITLES)
def test_map_facts_equal_the_reference(title):
    board_map = load_map(title)
    ref_hexes = reference(f"{title}.json")["map"]["hexes"]
    assert len(board_map.hexes) == len(ref_hexes)
    for hex_ in ref_hexes:
        mine = board_map.hexes[hex_["coord"]]
        assert mine.name == hex_["location_name"]
        assert mine.cost == sum(t["cost"] for t in hex_["terrain"])
        neighbours = {int(e): c for e, c in hex_["neighbours"].items()}
        assert board_map.neighbours(hex_["coord"]) == neighbours
        assert [s.value("brown") for s in mine.tile.stops] == [
            rc["revenue"]["brown"] if isinstance(rc["revenue"], dict) else rc["revenue"]
            for rc in hex_["revenue_centres"]
        ]
        assert len(mine.tile.paths) == len(hex_["paths"])
        homes = {h["corporation"]: h["city_index"] for h in hex_.get("home_of", [])}
        assert dict(mine.homes) == homes


def test_tiles_equal_the_reference():
    ref = reference("tiles.json")["tiles"]
    mine = load_tiles()
    assert set(mine) == set(ref)
    for tile_id, tile in ref.items():
        assert mine[tile_id].colour == tile["colour"]
        assert mine[tile_id].label == tile["label"]
        assert sorted(mine[tile_id].exits()) == tile["exits"]
        assert [s.slots for s in mine[tile_id].stops if s.kind == "city"] == [
            rc.get("slots", 1) for rc in tile["revenue_centres"] if rc["type"] == "city"]
        for title, count in tile["count"].items():
            if title in TITLES:
                assert load_map(title).manifest[tile_id] == count


def test_generator_reproduces_rules(tmp_path):
    spec = importlib.util.spec_from_file_location("gen", ROOT / "tools" / "make_board_data.py")
    assert spec and spec.loader
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    assert gen.main(["--reference", str(REFERENCE), "--out", str(tmp_path),
                     "--titles", *TITLES]) == 0
    written = [Path("tiles.json")] + [Path(t) / "map.json" for t in TITLES]
    for rel in written:
        assert (tmp_path / rel).read_bytes() == (ROOT / "rules" / rel).read_bytes(), rel
        for ref_file in REFERENCE.iterdir():
            assert (tmp_path / rel).read_bytes() != ref_file.read_bytes()


@pytest.mark.parametrize("title", TITLES)
def test_can_upgrade_agrees_with_the_reference_table(title):
    """can_upgrade(old, q, new, q + r, hex) for every tile pair, rotation and kind of hex."""
    from pbem.engine.board.tiles import can_upgrade, may_lie_on

    board_map = load_map(title)
    table = reference(f"{title}.json")["upgrades"]
    hexes = [h for h in board_map.hexes.values() if h.buildable]
    for old in board_map.tiles.values():
        allowed = {u["to"]: u for u in table[old.id]}
        homes: dict[tuple[str | None, ...], MapHex] = {}
        for h in hexes:  # one hex per set of labels is enough
            if may_lie_on(old, h):
                homes.setdefault(tuple(h.label_for(c) for c in ALL_COLOURS), h)
        for new in board_map.tiles.values():
            entry = allowed.get(new.id)
            for h in homes.values():
                rotations = [] if entry is None else entry["relative_rotations"]
                on_hex = entry is not None and h.coord in entry.get("only_on_hexes", [h.coord])
                on_hex = on_hex and entry is not None and \
                    h.coord not in entry.get("not_on_hexes", [])
                for q in (0, 1):
                    for r in range(6):
                        expected = on_hex and r in rotations
                        got = can_upgrade(old, q, new, (q + r) % 6, h)
                        assert got == expected, (old.id, new.id, h.coord, q, r)
