"""The site's identifiers: certificates (``PRR_3``), trains (``4-1``), tile copies
(``57-0``), cities (``57-0-1``, ``D14-0-0``, ``city-2-0``) and market cells
(``82,2,6``)."""

from __future__ import annotations

import re

_HEX = re.compile(r"^[A-Z]{1,2}\d{1,3}$")


def cert(share_id: str) -> tuple[str, int]:
    """"PRR_3" -> ("PRR", 3); index 0 is the president's certificate."""
    corp, _, index = share_id.rpartition("_")
    return corp, int(index)


def train(train_id: str) -> tuple[str, int]:
    """"4-1" -> ("4", 1)."""
    name, _, index = train_id.rpartition("-")
    return name, int(index)


def tile(tile_id: str) -> tuple[str, int]:
    """"57-0" -> ("57", 0)."""
    name, _, copy = tile_id.rpartition("-")
    return name, int(copy)


def par_price(cell: str) -> int:
    """"82,2,6" -> 82."""
    return int(cell.split(",")[0])


def city(city_id: str) -> tuple[str, int]:
    """"57-0-1" -> ("57-0", 1): the tile (or printed hex) id and the stop index."""
    owner, _, index = city_id.rpartition("-")
    return owner, int(index)


def printed_hex(owner: str, printed: dict[str, str]) -> str | None:
    """The hex of a printed (preprinted map) tile id: "D14-0" -> "D14", "city-2" by the
    title's table; None for a laid tile copy such as "57-0"."""
    head = owner.split("-")[0]
    if _HEX.match(head):
        return head
    return printed.get(owner)


def is_hex(text: str) -> bool:
    return bool(_HEX.match(text))
