"""The toy title: a title defined outside the engine, as data (tests/data/toy/) plus a
rulebook (this module), to show that a new title needs no change to the core.

Its rules: the private auction and the stock round of the common steps; an operating
turn without stations to place (the companies have only their home station) and
without private companies to buy, in its own order of steps; shares in the initial
offering pay their dividends to the company (a hook); its rulebook's own numbering for
the refusals (the citations).
"""

from __future__ import annotations

from pathlib import Path

from pbem.engine import auction, operating, stock
from pbem.engine.registry import register
from pbem.engine.rulesdata import register_data
from pbem.engine.state import GameState, corp_holder
from pbem.engine.steps import Round
from pbem.engine.titles.base import Rulebook

DATA = Path(__file__).resolve().parent / "data" / "toy"

CITATIONS = {
    "auction": "Toy 1", "auction_bid": "Toy 1", "auction_bidders": "Toy 1",
    "auction_all_pass": "Toy 1",
    "par": "Toy 2.1", "buy": "Toy 2.1", "sell": "Toy 2.2", "certificates": "Toy 2.3",
    "stock": "Toy 2", "stock_turn": "Toy 2",
    "turn": "Toy 3", "track": "Toy 3.1", "terrain": "Toy 3.1", "private_hexes": "Toy 3.1",
    "run": "Toy 3.2", "route": "Toy 3.2", "best_run": "Toy 3.2", "blocking": "Toy 3.2",
    "dividend": "Toy 3.3", "trains": "Toy 3.4", "discard": "Toy 3.4",
    "forced_train": "Toy 3.4", "forced_sales": "Toy 3.4", "bankruptcy": "Toy 3.5",
}

ROUNDS = {
    "auction": auction.AuctionRound("auction", auction.STEPS),
    "stock": stock.STOCK_ROUND,
    "operating": operating.OperatingRound("operating", (
        operating.AnswerProposal(),
        operating.DiscardTrain(),
        operating.HomeStation(),
        operating.LayTrack(),
        operating.RunTrains(),
        operating.Dividend(),
        operating.BuyTrains(),
        operating.ForcedSales(),
        operating.Bankruptcy(),
        operating.EndTurn(),
    )),
}


class ToyRulebook(Rulebook):
    title = "toy"
    rounds: dict[str, Round] = ROUNDS
    citations = CITATIONS

    def dividend_payee(self, state: GameState, corp: str, holder: str) -> str | None:
        """Toy 3.3: shares in the initial offering pay the company, bank pool shares
        nobody."""
        if holder == "ipo":
            return corp_holder(corp)
        return None if holder == "pool" else holder

    def bankrupt_score(self, state: GameState, name: str, worth: int, shares: int) -> int:
        """Toy 3.5: a bankrupt player scores like everybody else."""
        return worth


RULEBOOK = ToyRulebook()
register_data("toy", DATA)
register(RULEBOOK)
