"""The site's side of the bookkeeping that pbem's state does not keep by the site's
names: which certificates have left the initial offering, where each train is, and
which tile copy lies on which hex.  Both the importer and the exporter keep one."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import ids

BANK, POOL, GONE = "bank", "pool", "gone"


@dataclass
class Shadow:
    #: certificate ids that have left the initial offering (1870's reissue returns them)
    left_ipo: set[str] = field(default_factory=set)
    #: certificate id -> its holder as the site has it: "p:<name>", "pool", "c:<CORP>"
    #: (absent: the initial offering)
    holders: dict[str, str] = field(default_factory=dict)
    #: train id -> "bank" (not sold yet: absent), corporation symbol, "pool" or "gone"
    trains: dict[str, str] = field(default_factory=dict)
    #: tile copy id -> hex, and hex -> tile copy id, for laid tiles
    tile_hex: dict[str, str] = field(default_factory=dict)
    hex_tile: dict[str, str] = field(default_factory=dict)

    # -- certificates ------------------------------------------------------------------
    def in_ipo(self, share: str) -> bool:
        return share not in self.left_ipo

    def leave_ipo(self, *shares: str) -> None:
        self.left_ipo.update(shares)

    def hold(self, holder: str, *shares: str) -> None:
        """``shares`` now belong to ``holder`` ("ipo": back in the initial offering)."""
        for share in shares:
            if holder == "ipo":
                self.holders.pop(share, None)
                self.left_ipo.discard(share)
            else:
                self.holders[share] = holder
                self.left_ipo.add(share)

    def holder(self, share: str) -> str:
        return self.holders.get(share, "ipo")

    def held_by(self, holder: str) -> list[str]:
        return sorted(s for s, h in self.holders.items() if h == holder)

    # -- trains ------------------------------------------------------------------------
    def train_at(self, train: str) -> str:
        return self.trains.get(train, BANK)

    def move_train(self, train: str, to: str) -> None:
        self.trains[train] = to

    # -- tiles -------------------------------------------------------------------------
    def lay(self, hex_: str, tile: str) -> None:
        old = self.hex_tile.pop(hex_, None)
        if old is not None:
            self.tile_hex.pop(old, None)
        previous = self.tile_hex.pop(tile, None)
        if previous is not None:
            self.hex_tile.pop(previous, None)
        self.tile_hex[tile] = hex_
        self.hex_tile[hex_] = tile

    def city_hex(self, city_id: str, printed: dict[str, str]) -> tuple[str, int]:
        """The hex and stop index of a site city id."""
        owner, index = ids.city(city_id)
        hex_ = self.tile_hex.get(owner) or ids.printed_hex(owner, printed)
        if hex_ is None:
            raise KeyError(f"no hex holds the tile of city {city_id}")
        return hex_, index
