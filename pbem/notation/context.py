"""What the parser needs to know about the game being played."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

ROUND_KINDS = ("auction", "stock", "operating")

CORPORATIONS_1830 = {
    "PRR": "PRR",
    "NYC": "NYC",
    "CPR": "CPR",
    "B&O": "B&O",
    "BO": "B&O",
    "C&O": "C&O",
    "CO": "C&O",
    "ERIE": "ERIE",
    "NYNH": "NYNH",
    "NNH": "NYNH",
    "NH": "NYNH",
    "B&M": "B&M",
    "BM": "B&M",
}

PRIVATES_1830 = {
    "SV": "SV",
    "CS": "CS",
    "CL": "CS",
    "C&SL": "CS",
    "DH": "DH",
    "D&H": "DH",
    "MH": "MH",
    "M&H": "MH",
    "CA": "CA",
    "C&A": "CA",
    "BO": "BO",
    "B&O": "BO",
}

TRAINS_1830 = ["2", "3", "4", "5", "6", "D"]

CORPORATIONS_1870 = {
    "ATSF": "ATSF",
    "SSW": "SSW",
    "SP": "SP",
    "SLSF": "SLSF",
    "FRISCO": "SLSF",
    "MP": "MP",
    "MKT": "MKT",
    "KATY": "MKT",
    "IC": "IC",
    "GMO": "GMO",
    "GM&O": "GMO",
    "FW": "FW",
    "TP": "TP",
    "T&P": "TP",
}

PRIVATES_1870 = {
    "GRSC": "GRSC",
    "MRBC": "MRBC",
    "SCC": "SCC",
    "GSC": "GSC",
    "SLSF": "SLSF",
    "MKT": "MKT",
}

TRAINS_1870 = ["2", "3", "4", "5", "6", "8", "10", "12"]


@dataclass
class ParseContext:
    """The symbols of the title and the moment of the game that decide a reading.

    ``corporations`` and ``privates`` map every accepted spelling (any case) to
    the canonical symbol; ``players`` are the registered names; ``round_kind``
    is 'auction', 'stock' or 'operating'; ``in_auction`` is true while a
    private company is auctioned between bidders.  ``legal`` optionally lists
    the canonical texts of the commands legal now (for suggestions).
    """

    corporations: dict[str, str]
    privates: dict[str, str]
    players: list[str]
    round_kind: str = "stock"
    in_auction: bool = False
    train_names: list[str] = field(default_factory=list)
    title: str = "1830"
    legal: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.round_kind not in ROUND_KINDS:
            raise ValueError(f"round_kind must be one of {ROUND_KINDS}, not {self.round_kind!r}")

    def corporation(self, word: str) -> str | None:
        """The canonical corporation a word names, or None."""
        return _find(self.corporations, word)

    def private(self, word: str) -> str | None:
        """The canonical private company a word names, or None."""
        return _find(self.privates, word)

    def player(self, name: str) -> str | None:
        """The registered spelling of a player's name, matched in any case."""
        wanted = name.casefold()
        return next((p for p in self.players if p.casefold() == wanted), None)

    def train(self, word: str) -> str | None:
        """The train name a word names ('d' is 'D'), or None."""
        wanted = word.upper()
        return next((t for t in self.train_names if t.upper() == wanted), None)

    @property
    def corporation_symbols(self) -> list[str]:
        return _unique(self.corporations.values())

    @property
    def private_symbols(self) -> list[str]:
        return _unique(self.privates.values())


def _find(table: dict[str, str], word: str) -> str | None:
    wanted = word.upper()
    for alias, symbol in table.items():
        if alias.upper() == wanted or symbol.upper() == wanted:
            return symbol
    return None


def _unique(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(values))


def context_for_1830(round_kind: str, players: list[str], in_auction: bool = False) -> ParseContext:
    """The 1830 symbols (until the title loader supplies them)."""
    return ParseContext(
        corporations=dict(CORPORATIONS_1830),
        privates=dict(PRIVATES_1830),
        players=list(players),
        round_kind=round_kind,
        in_auction=in_auction,
        train_names=list(TRAINS_1830),
        title="1830",
    )


def context_for_1870(round_kind: str, players: list[str], in_auction: bool = False) -> ParseContext:
    """The 1870 symbols (until the title loader supplies them)."""
    return ParseContext(
        corporations=dict(CORPORATIONS_1870),
        privates=dict(PRIVATES_1870),
        players=list(players),
        round_kind=round_kind,
        in_auction=in_auction,
        train_names=list(TRAINS_1870),
        title="1870",
    )
