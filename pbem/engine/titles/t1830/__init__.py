"""1830 (Lookout "1830 Classic" rules, the variants of the German edition as options).

The data is rules/1830/; the code is this rulebook: the rounds as the 1830 rules
order them, how they are cited, and the two rules the common code leaves to the
title: a forced purchase called off by a new president (6.6.3), and the price
protection keys pbem has always recorded at the end of a stock turn.
"""

from __future__ import annotations

from typing import Any

from ... import auction, operating, stock
from ...context import Ctx
from ...ortrains import restore_before_sales
from ...registry import register
from ...steps import Round
from ..base import Rulebook

#: rule key (as the core cites it) -> the 1830 rule (the Lookout rules' numbering;
#: C-: the rules clarifications, V-: the variants)
CITATIONS = {
    "auction": "1830 1.2",
    "auction_bid": "1830 1.2.1",
    "auction_bidders": "1830 1.2.2",
    "auction_all_pass": "1830 1.2.3",
    "private_sale": "1830 3.1",
    "private_trade": "1830 3.1",
    "privates_close": "1830 3.2",
    "private_purchase": "1830 3.1",
    "private_abilities": "1830 appendix",
    "par": "1830 4.2",
    "certificates": "1830 4.3",
    "multi_buy": "1830 4.4",
    "stock": "1830 5",
    "stock_turn": "1830 5.0",
    "sell": "1830 5.1",
    "buy": "1830 5.2",
    "turn": "1830 6.1",
    "track": "1830 6.2",
    "private_hexes": "1830 6.2.1",
    "terrain": "1830 6.2.1",
    "station": "1830 6.3",
    "home_station": "1830 6.3.1",
    "station_route": "1830 6.3.2",
    "blocking": "1830 6.3.3",
    "run": "1830 6.4",
    "route": "1830 6.4.2",
    "route_stops": "1830 6.4.1",
    "best_run": "1830 6.5",
    "dividend": "1830 6.5",
    "trains": "1830 6.6",
    "discard": "1830 6.6.1",
    "forced_train": "1830 6.6.2",
    "forced_sales": "1830 6.6.3",
    "bankruptcy": "1830 6.7",
    "end": "1830 7",
}

ROUNDS = {
    "auction": auction.AuctionRound("auction", auction.STEPS),
    "stock": stock.STOCK_ROUND,
    "operating": operating.OperatingRound("operating", (
        operating.AnswerProposal(),
        operating.DiscardTrain(),
        operating.ChooseStationCities(),
        operating.HomeStation(),
        operating.LayTrack(),
        operating.PlaceStation(),
        operating.RunTrains(),
        operating.Dividend(),
        operating.BuyTrains(),
        operating.ForcedSales(),
        operating.Bankruptcy(),
        operating.BuyPrivate(),
        operating.EndTurn(),
    )),
}


class Rulebook1830(Rulebook):
    title = "1830"
    rounds: dict[str, Round] = ROUNDS
    citations = CITATIONS

    def train_sale_declined(self, ctx: Ctx, proposal: dict[str, Any]) -> None:
        """6.6.3: a president made by the forced sales may cancel the purchase of his
        new company's train; the position goes back to the start of the purchase."""
        restore_before_sales(ctx, proposal)

    def offers_after_stock_turn(self, ctx: Ctx) -> bool:
        """1830 has no price protection.  Since 1870 came, pbem has recorded its empty
        offer queue at the end of every stock turn of every game; the record goes on
        so that the facts of a turn are the same whenever it was played."""
        ctx.round_set(protection_queue=[], protection=None)
        return False


RULEBOOK = Rulebook1830()
register(RULEBOOK)
