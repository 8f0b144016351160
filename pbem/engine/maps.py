"""The map as a title's data and the game's options read it: rules/<title>/game.json
"board" holds the readings (the station spaces of gray tiles, upgrades the rulebook
does not allow, labels a brown tile may ignore, tiles whose cities an upgrade may
join), and the options choose among them (gray_tiles, upgrades, flexible exits).
GameState.map is the map these give."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from typing import Any

from .board.map import Map, load_map
from .memo import ByIdentity
from .title import Title


@cache
def title_map(title: str) -> Map:
    """The title's static map (read once)."""
    return load_map(title)


def board_data(rules: Title) -> Mapping[str, Any]:
    board: Mapping[str, Any] = rules.extra.get("board", {})
    return board


def rules_map(title: str, rules: Title) -> Map:
    """The map with the title's tile readings applied (gray tile station spaces,
    upgrades the rulebook does not allow removed)."""
    return maps_for(title, *board_key(rules))[0]


def board_key(rules: Title) -> tuple[Any, ...]:
    """What maps_for reads of the title's board data, remembered per rules object (a
    title's rules do not change once read)."""
    return _BOARD_KEYS.get((rules,), None, lambda: _board_key(rules))


_BOARD_KEYS: ByIdentity[tuple[Any, ...]] = ByIdentity(1000)


def _board_key(rules: Title) -> tuple[Any, ...]:
    data = board_data(rules)
    slots = tuple(sorted((str(t), int(n)) for t, n in data.get("gray_tile_slots", {}).items()))
    removed = tuple(sorted((str(a), str(b)) for a, b in data.get("upgrades_removed", [])))
    joining = tuple(sorted(str(t) for t in data.get("joining_tiles", [])))
    return slots, removed, bool(data.get("p_hexes_allow_63", False)), joining


@cache
def maps_for(title: str, slots: tuple[tuple[str, int], ...],
             removed: tuple[tuple[str, str], ...], allow_63: bool,
             joining: tuple[str, ...] = ()) -> tuple[Map, Map | None]:
    """(the map, the map for an unlabelled brown tile on a P hex or None)."""
    base = title_map(title)
    tiles = dict(base.tiles)
    for tile_id, n in slots:
        tile = tiles.get(tile_id)
        if tile is not None:
            stops = tuple(replace(s, slots=n) if s.kind == "city" else s for s in tile.stops)
            tiles[tile_id] = replace(tile, stops=stops)
    gone = set(removed)
    upgrades = {old: tuple(n for n in new if (old, n) not in gone)
                for old, new in base.upgrades.items()}
    main = replace(base, tiles=tiles, upgrades=upgrades, joining=frozenset(joining))
    if not allow_63:
        return main, None
    unlabelled = {
        c: replace(h, future_labels={k: v for k, v in h.future_labels.items() if k != "brown"})
        if h.future_labels.get("brown") == "P" else h
        for c, h in main.hexes.items()
    }
    return main, replace(main, hexes=unlabelled)
