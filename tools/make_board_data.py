#!/usr/bin/env python3
"""Write pbem's board data (rules/tiles.json, rules/<title>/map.json) from the
reference facts in ../shared/reference (tiles.json, 1830.json, 1870.json).

The engine never reads the reference: it reads only what this script writes.
Run from the repository root:  .venv/bin/python tools/make_board_data.py
Options: --reference DIR (default $PBEM_REFERENCE or ../shared/reference),
         --out DIR (default rules/), --titles 1830 1870.

Decisions taken here (see docs/board.md):
* Off-board areas are grouped by the reference's `offboard_area` (so 1830's I1+J2
  form one "Gulf" area although the source groups only I1).
* 1870's red hexes (cities with 0/1 token slots and terminal track) become
  off-board stops with slots: a route may start or end there, never pass through.
* A hex's labels are kept per tile colour ("labels": {"green": "OO"}), which
  covers printed labels and 1870's future labels (P on brown, K/L on gray).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
COLOUR_ORDER = ["white", "yellow", "green", "brown", "gray"]
KIND = {"white_buildable": "white", "yellow_preprinted": "yellow",
        "gray_preprinted": "gray", "red_offboard": "red"}


# -- tiles ------------------------------------------------------------------------------------

def end_text(end: dict[str, int]) -> str:
    return str(end["edge"]) if "edge" in end else f"c{end['rc']}"


def track_list(paths: list[dict[str, Any]]) -> list[str]:
    return [f"{end_text(p['a'])}-{end_text(p['b'])}" for p in paths]


def stop_entry(rc: dict[str, Any], red: bool = False) -> dict[str, Any]:
    kind = "offboard" if red else rc["type"]
    entry: dict[str, Any] = {"kind": kind}
    if rc.get("revenue"):
        entry["revenue"] = rc["revenue"]
    if kind == "city":
        entry["slots"] = rc.get("slots", 1)
    elif rc.get("slots"):
        entry["slots"] = rc["slots"]
    if "loc" in rc:
        entry["at"] = rc["loc"]
    return entry


def tile_entry(tile: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = {"colour": tile["colour"]}
    if tile.get("label"):
        entry["label"] = tile["label"]
    if tile["revenue_centres"]:
        entry["stops"] = [stop_entry(rc) for rc in tile["revenue_centres"]]
    entry["track"] = track_list(tile["paths"])
    return entry


def tile_sort_key(item: tuple[str, dict[str, Any]]) -> tuple[int, int, str]:
    tile_id, tile = item
    digits = "".join(ch for ch in tile_id if ch.isdigit())
    return COLOUR_ORDER.index(tile["colour"]), int(digits or 0), tile_id


def make_tiles(reference: dict[str, Any]) -> dict[str, Any]:
    tiles = sorted(reference["tiles"].items(), key=tile_sort_key)
    return {
        "about": "Track tiles of 1830 and 1870, at rotation 0. Written by "
                 "tools/make_board_data.py; format in docs/board.md.",
        "colours": COLOUR_ORDER[1:],
        "tiles": {tile_id: tile_entry(tile) for tile_id, tile in tiles},
    }


# -- maps -------------------------------------------------------------------------------------

def future_labels(hex_: dict[str, Any], label_hexes: dict[str, list[str]],
                  tiles: dict[str, Any]) -> dict[str, str]:
    """Colour -> label a tile of that colour must carry here, where that differs from
    the printed label (1870: P for brown, K/L for gray)."""
    labels: dict[str, str] = {}
    future = hex_.get("future_label")
    if future:
        labels[future["colour"]] = future["label"]
    for label, coords in label_hexes.items():
        if hex_["coord"] in coords and not hex_.get("label"):
            colours = {t["colour"] for t in tiles.values() if t.get("label") == label}
            for colour in colours:
                labels.setdefault(colour, label)
    return {c: labels[c] for c in COLOUR_ORDER if c in labels}


def river_entry(partition: dict[str, Any]) -> dict[str, Any]:
    only = partition.get("track_only_on")
    return {"a": partition["side_a_edges"], "b": partition["side_b_edges"],
            "track_only_on": {"side_a": "a", "side_b": "b"}.get(only or "")}


def hex_entry(hex_: dict[str, Any], label_hexes: dict[str, list[str]],
              tiles: dict[str, Any], specials: dict[str, list[str]]) -> dict[str, Any]:
    kind = KIND[hex_["kind"]]
    entry: dict[str, Any] = {}
    if hex_.get("location_name"):
        entry["name"] = hex_["location_name"]
    entry["kind"] = kind
    if hex_.get("label"):
        entry["label"] = hex_["label"]
    labels = future_labels(hex_, label_hexes, tiles)
    if labels:
        entry["labels"] = labels
    for terrain in hex_["terrain"]:
        entry["cost"] = terrain["cost"]
        entry["terrain"] = terrain["type"]
    if hex_["revenue_centres"]:
        entry["stops"] = [stop_entry(rc, red=kind == "red") for rc in hex_["revenue_centres"]]
    if hex_["paths"]:
        entry["track"] = track_list(hex_["paths"])
    if kind == "red":
        entry["area"] = hex_["offboard_area"]
        if any(rc.get("hide_revenue") for rc in hex_["revenue_centres"]):
            entry["hide_revenue"] = True
    impassable = [b["edge"] for b in hex_["borders"] if b.get("type") == "impassable"]
    if impassable:
        entry["impassable"] = sorted(impassable)
    if hex_.get("partitions"):
        entry["river"] = river_entry(hex_["partitions"][0])
    if hex_.get("home_of"):
        entry["home"] = {h["corporation"]: h["city_index"] for h in hex_["home_of"]}
    if hex_.get("private_company_hex_of"):
        entry["private"] = hex_["private_company_hex_of"]
    marks = [name for name, coords in specials.items() if hex_["coord"] in coords]
    if marks:
        entry["marks"] = marks
    return entry


SPECIAL_MARKS = {"port_token_hexes": "port", "cattle_token_hexes": "cattle"}


def make_map(game: dict[str, Any], tiles: dict[str, Any]) -> dict[str, Any]:
    title = game["game"]
    parity = {hex_["row_parity"] for hex_ in _with_parity(game["map"]["hexes"])}
    assert len(parity) == 1, f"{title}: mixed coordinate parity"
    specials = {SPECIAL_MARKS[k]: v for k, v in game.get("special_hex_lists", {}).items()
                if k in SPECIAL_MARKS}
    columns = list(dict.fromkeys(p["offboard_revenue"] for p in game["phases"]))
    return {
        "title": title,
        "about": f"The {title} board: printed hexes, tile manifest and upgrade table. "
                 "Written by tools/make_board_data.py; format in docs/board.md.",
        "row_plus_column": "odd" if parity == {1} else "even",
        "revenue_columns": columns,
        "hexes": {h["coord"]: hex_entry(h, game["label_hexes"], tiles, specials)
                  for h in game["map"]["hexes"]},
        "manifest": {tile_id: n for tile_id, n in game["tile_manifest"].items()},
        "upgrades": {old: [u["to"] for u in ups]
                     for old, ups in game["upgrades"].items() if ups},
    }


def _with_parity(hexes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for hex_ in hexes:
        coord = hex_["coord"]
        row = ord(coord[0]) - ord("A")
        out.append({"row_parity": (row + int(coord[1:])) % 2})
    return out


# -- output -----------------------------------------------------------------------------------

def format_json(value: Any, indent: int = 0, inline_from: int = 2) -> str:
    """JSON with one line per entry from depth `inline_from` on, or where it fits;
    a long object of plain numbers is wrapped a few entries per line."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, dict) or indent >= inline_from or indent * 2 + len(flat) <= 90:
        return flat
    pad = "  " * (indent + 1)
    if all(isinstance(v, int) for v in value.values()):
        return "{\n" + _wrapped([f"{json.dumps(k)}: {v}" for k, v in value.items()], pad) \
            + "\n" + "  " * indent + "}"
    items = [f"{pad}{json.dumps(k)}: {format_json(v, indent + 1, inline_from)}"
             for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"


def _wrapped(items: list[str], pad: str, width: int = 90) -> str:
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + len(item) + 2 <= width:
            lines[-1] += f", {item}"
        else:
            lines.append(pad + item)
    return ",\n".join(lines)


def write(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(format_json(data) + "\n", encoding="utf-8")
    print(f"wrote {path}")


def main(argv: list[str] | None = None) -> int:
    default_ref = os.environ.get("PBEM_REFERENCE") or str(ROOT.parent / "shared" / "reference")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", default=default_ref)
    parser.add_argument("--out", default=str(ROOT / "rules"))
    parser.add_argument("--titles", nargs="*", default=["1830", "1870"])
    args = parser.parse_args(argv)
    ref, out = Path(args.reference), Path(args.out)
    if not (ref / "tiles.json").exists():
        print(f"no reference data in {ref}", file=sys.stderr)
        return 1
    tiles = json.loads((ref / "tiles.json").read_text(encoding="utf-8"))
    write(out / "tiles.json", make_tiles(tiles))
    for title in args.titles:
        game = json.loads((ref / f"{title}.json").read_text(encoding="utf-8"))
        write(out / title / "map.json", make_map(game, tiles["tiles"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
