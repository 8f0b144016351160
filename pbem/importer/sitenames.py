"""The site's names for the things pbem's facts move, kept while walking a pbem game:
tile copies ("57-2": the third tile 57), trains ("4-1": the second 4-train sold) and
printed map tiles ("D14-0", "city-2").  Used by the exporter."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: 1830: the site's id of each printed map hex with a city, town or off-board area
#: (fixtures README, "Cities, towns, offboards and route nodes").
PRINTED_1830 = {
    "A9": "A9-0", "A11": "A11-0", "A19": "A19-0", "B10": "city-2", "B16": "B16-0",
    "B20": "town-0", "B24": "B24-0", "C15": "C15-0", "D2": "D2-0", "D4": "town-1",
    "D10": "D10-1", "D14": "D14-0", "E5": "E5-0", "E7": "E7-0", "E11": "E11-0",
    "E19": "city-0", "E23": "E23-0", "F2": "F2-0", "F4": "F4-0", "F6": "F6-0",
    "F10": "town-2", "F16": "F16-0", "F20": "F20-2", "F22": "F22-2", "F24": "F24-1",
    "G7": "G7-0", "G17": "G17-1", "G19": "G19-0", "H4": "city-1", "H10": "city-3",
    "H12": "H12-0", "H16": "city-4", "H18": "H18-1", "I1": "I1-0", "I15": "I15-0",
    "I19": "I19-0", "J2": "J2-0", "J14": "J14-1", "K13": "K13-0", "K15": "K15-0",
}

#: 1870: the same for its printed cities and towns (all named after their hex)
PRINTED_1870 = {
    "A2": "A2-0", "A22": "A22-0", "B9": "B9-0", "B11": "B11-0", "B19": "B19-1",
    "C18": "C18-0", "D5": "D5-2", "E12": "E12-0", "F5": "F5-3", "H13": "H13-4",
    "H17": "H17-0", "J3": "J3-0", "J5": "J5-1", "K16": "K16-5", "L11": "L11-0",
    "M2": "M2-6", "M6": "M6-7", "M14": "M14-0", "M20": "M20-0", "M22": "M22-0",
    "N1": "N1-0", "N7": "N7-0", "N17": "N17-0", "A10": "A10-0", "A16": "A16-0",
    "B7": "B7-0", "B13": "B13-1", "D9": "D9-1", "D17": "D17-0", "D21": "D21-2",
    "E8": "E8-3", "E20": "E20-1", "F9": "F9-4", "G10": "G10-5", "G20": "G20-6",
    "H3": "H3-2", "H21": "H21-7", "I10": "I10-0", "I14": "I14-8", "J9": "J9-9",
    "K4": "K4-10", "K14": "K14-0", "K20": "K20-11", "M8": "M8-12", "M10": "M10-13",
    "N21": "N21-0",
}

PRINTED = {"1830": PRINTED_1830, "1870": PRINTED_1870}

#: the site's list of corporations (its ``CORPORATIONS``), the order in which it closes
#: those whose token is in the closing section after an action
#: (``Game::Base#close_corporations_in_close_cell!``); pbem closes them as each price
#: falls, and the order puts their trains in the pool, where the site sells only the
#: first of each type (``Depot#depot_trains``)
SITE_CORPORATIONS = {
    "1830": ("PRR", "NYC", "CPR", "B&O", "C&O", "ERIE", "NYNH", "B&M"),
    "1870": ("ATSF", "SSW", "SP", "SLSF", "MP", "MKT", "IC", "GMO", "FW", "TP"),
}

#: tile copies the site leaves out with 1870's optional rule original_tiles (pbem's
#: option tiles=original): tobymao/18xx G1870 ``OPTION_TILES_REMOVE_ORIGINAL_GAME``
REMOVED_ORIGINAL_1870 = frozenset(
    "4-0 4-1 7-0 7-1 8-0 8-1 9-0 9-1 9-2 16-0 17-0 18-0 19-0 20-0 25-0 25-1 26-0 27-0 "
    "28-0 29-0 141-0 142-0 40-0 70-0 145-0 146-0 147-0".split())


def removed_copies(title: str, options: dict[str, str]) -> frozenset[str]:
    """The site's tile copies not in play with the game's options."""
    if title == "1870" and options.get("tiles") == "original":
        return REMOVED_ORIGINAL_1870
    return frozenset()


def printed_owners(title: str) -> dict[str, str]:
    """Printed tile ids that do not start with their hex ("city-2") -> hex."""
    return {tile: coord for coord, tile in PRINTED.get(title, {}).items()
            if not tile.startswith(coord)}


@dataclass
class SiteNames:
    title: str
    #: hex -> tile copy id laid there
    laid: dict[str, str] = field(default_factory=dict)
    #: trains: holder ("c:PRR", "pool") -> ids, and the next id per type
    trains: dict[str, list[str]] = field(default_factory=dict)
    next_train: dict[str, int] = field(default_factory=dict)
    #: copies the site leaves out (removed_copies)
    removed: frozenset[str] = frozenset()

    # -- tiles -----------------------------------------------------------------------------
    def lay(self, coord: str, name: str, copies: int | None = None) -> str:
        """The copy of tile ``name`` laid on ``coord``: the lowest-numbered copy (of
        ``copies`` in the manifest, less those the site leaves out) not on the map; a
        tile replaced by an upgrade goes back to the supply."""
        self.laid.pop(coord, None)
        on_map = set(self.laid.values())
        copy = 0
        while f"{name}-{copy}" in on_map or f"{name}-{copy}" in self.removed:
            copy += 1
        if copies is not None and copy >= copies:
            raise ValueError(f"no copy of tile {name} is left")
        self.laid[coord] = f"{name}-{copy}"
        return self.laid[coord]

    def city(self, coord: str, stop: int) -> str:
        tile = self.laid.get(coord) or PRINTED.get(self.title, {}).get(coord, f"{coord}-0")
        return f"{tile}-{stop}"

    # -- trains ----------------------------------------------------------------------------
    def move_train(self, name: str, source: str, dest: str) -> str:
        """The id of the ``name`` train moving from ``source`` to ``dest``."""
        if source == "bank":
            n = self.next_train.get(name, 0)
            self.next_train[name] = n + 1
            train = f"{name}-{n}"
        else:
            held = self.trains.get(source, [])
            train = next(t for t in held if t.rsplit("-", 1)[0] == name)
            held.remove(train)
        if dest != "scrap":
            self.trains.setdefault(dest, []).append(train)
        return train

    def train_of(self, holder: str, name: str, used: set[str] | None = None) -> str:
        """The id of a ``name`` train ``holder`` has, other than those in ``used`` (which
        then gets it)."""
        used = used if used is not None else set()
        train = next(t for t in self.trains.get(holder, [])
                     if t.rsplit("-", 1)[0] == name and t not in used)
        used.add(train)
        return train


def site_train_order(title: str, facts: list[dict[str, Any]]) -> list[int]:
    """The indexes of the train facts among ``facts`` in the order the site moves those
    trains: the trains of companies closing in the same command go to the pool in the
    site's order of corporations (``SITE_CORPORATIONS``), each company's in its order."""
    trains = [i for i, f in enumerate(facts) if f["f"] == "train"]
    closing = {f["corp"] for f in facts if f["f"] == "corp_closed"}
    rank = {sym: n for n, sym in enumerate(SITE_CORPORATIONS.get(title, ()))}

    def closes(i: int) -> bool:
        source = facts[i]["source"]
        return facts[i]["dest"] == "pool" and source.startswith("c:") and source[2:] in closing

    moved = [i for i in trains if closes(i)]
    ordered = iter(sorted(moved, key=lambda i: (rank.get(facts[i]["source"][2:], len(rank)), i)))
    return [next(ordered) if closes(i) else i for i in trains]
