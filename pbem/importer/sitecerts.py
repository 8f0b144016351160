"""The site's certificates: which share id (``PRR_3``) each holder has, in the order the
site keeps them.

pbem numbers a corporation's certificates too, but when the presidency changes hands
the site swaps other certificates than pbem does: the new president gives the first
two shares he acquired (the site keeps each holder's shares in the order they came)
to the old president, or to the pool when the old one has sold below 20%, and a sale
naming the president's certificate for less than its 20% takes a share back from the
pool (tobymao/18xx ``SharePool#transfer_shares``).  Certificates named in a later sale
or purchase must be the site's, so the exporter follows them here, by the site's
rules for the moves and by pbem's decision for who becomes president.
"""

from __future__ import annotations

from dataclasses import dataclass, field

IPO, POOL = "ipo", "pool"


@dataclass
class SiteCerts:
    #: corporation -> holder ("ipo", "pool", "p:<name>", "c:<SYM>") -> share ids in order
    holders: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    president_percent: int = 20
    share_percent: int = 10
    #: 1870: shares a corporation redeemed, not for sale until it reissues them
    unbuyable: set[str] = field(default_factory=set)

    @classmethod
    def new(cls, corps: dict[str, int], president_percent: int = 20,
            share_percent: int = 10) -> SiteCerts:
        """Every certificate in the initial offering; ``corps``: symbol -> number of
        certificates."""
        return cls({sym: {IPO: [f"{sym}_{i}" for i in range(n)]} for sym, n in corps.items()},
                   president_percent, share_percent)

    # -- looking up ------------------------------------------------------------------------
    def held(self, corp: str, holder: str) -> list[str]:
        return list(self.holders[corp].get(holder, []))

    def holder_of(self, share: str) -> str:
        corp = share.rpartition("_")[0]
        for holder, shares in self.holders[corp].items():
            if share in shares:
                return holder
        raise KeyError(share)

    def percent_of(self, corp: str, holder: str) -> int:
        return sum(self.size(s) for s in self.holders[corp].get(holder, []))

    def size(self, share: str) -> int:
        return self.president_percent if share.endswith("_0") else self.share_percent

    def ordinary(self, corp: str, holder: str) -> list[str]:
        return [s for s in self.held(corp, holder) if not s.endswith("_0")]

    # -- moves -----------------------------------------------------------------------------
    def move(self, share: str, to: str) -> None:
        corp = share.rpartition("_")[0]
        self.holders[corp][self.holder_of(share)].remove(share)
        self.holders[corp].setdefault(to, []).append(share)

    def transfer(self, corp: str, shares: list[str], to: str, percent: int,
                 president_before: str | None, president_after: str | None) -> None:
        """The site's transfer of a bundle (``shares``, worth ``percent``) from its holder
        to ``to``, with the swap of certificates when the presidency changes (who becomes
        president is pbem's decision; holders as "p:<name>")."""
        owner = self.holder_of(shares[0])
        for share in shares:
            self.move(share, to)
        if president_after is None or president_after == president_before:
            return
        president_share = f"{corp}_0"
        in_bundle = president_share in shares
        partial = sum(self.size(s) for s in shares) != percent
        if to == president_after and president_before == owner and in_bundle and not partial:
            return
        if owner == president_after or president_before is None:
            return
        if owner.startswith("p:") and to.startswith("p:") and in_bundle:
            transfer_to = swap_to = to
        else:
            transfer_to = POOL
            swap_to = president_before if self.percent_of(corp, president_before) >= \
                self.president_percent else transfer_to
        count = self.president_percent // self.share_percent
        for share in self.held(corp, president_after)[:count]:
            self.move(share, swap_to)
        self.move(president_share, president_after)
        if partial:
            back = (sum(self.size(s) for s in shares) - percent) // self.share_percent
            for _ in range(back):
                self.move(self.held(corp, transfer_to)[0], owner)

    # -- what the exporter names -------------------------------------------------------------
    def to_sell(self, corp: str, seller: str, count: int) -> list[str]:
        """The shares a sale of ``count`` shares names, as the site bundles them: the
        ordinary shares first, the president's certificate last (for the rest)."""
        ordinary = self.ordinary(corp, seller)
        if count <= len(ordinary):
            return ordinary[:count]
        return ordinary + [f"{corp}_0"]

    def to_buy(self, corp: str, source: str) -> str:
        """The share a purchase from ``source`` ("ipo" or "pool") names."""
        shares = [s for s in self.held(corp, source)
                  if not s.endswith("_0") and s not in self.unbuyable]
        if not shares:
            raise KeyError(f"no {corp} share in the {source}")
        return shares[0]

    def counts(self, corp: str) -> dict[str, int]:
        """Percent per holder (to check against pbem's state)."""
        return {h: self.percent_of(corp, h) for h, shares in self.holders[corp].items() if shares}
