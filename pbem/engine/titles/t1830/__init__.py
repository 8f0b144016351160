"""1830 (Lookout "1830 Classic" rules, the variants of the German edition as options).

The data is rules/1830/; the code is this rulebook: the rounds as the 1830 rules
order them, how they are cited, the rules the common code leaves to the title (a
forced purchase called off by a new president, 6.6.3; the price protection keys pbem
has always recorded at the end of a stock turn), and the variants of the German
rulebook (V-0 to V-8) as the game's options choose them: market.py (V-5.1, V-5.2, V-6.2,
V-8.0), privates.py (V-6.4), steps.py (the steps that differ: V-7.1).  docs/options.md
lists every option with its rule and the test showing what it changes.
"""

from __future__ import annotations

from typing import Any

from ... import auction, operating, stock
from ...context import Ctx
from ...dividends import half_kept
from ...ending import end_at_top_before_operating, end_game, ends_after_turn, note_top_reached
from ...ortrains import restore_before_sales
from ...registry import register
from ...state import GameState
from ...steps import Moves, Round
from ...title import TrainDef
from ..base import Rulebook
from . import bidding, groups, insolvency, market, orvariants, privates
from .steps import Dividend1830

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
    "extra_certificate": "1830 V-6.5",
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

#: the operating turn up to the purchase of trains, and after the forced sales
TURN_START = (
    operating.AnswerProposal(),
    operating.ChooseJoinedCity(),
    operating.DiscardTrain(),
    operating.ChooseStationCities(),
    operating.HomeStation(),
    operating.LayTrack(),
    operating.PlaceStation(),
    operating.RunTrains(),
    Dividend1830(),
    operating.BuyTrains(),
)
TURN_END = (operating.BuyPrivate(), operating.EndTurn())

ROUNDS = {
    "auction": auction.AuctionRound("auction", auction.STEPS),
    "groups": groups.GroupsRound("auction", groups.STEPS),
    "stock": stock.STOCK_ROUND,
    "operating": operating.OperatingRound("operating", (
        *TURN_START, operating.ForcedSales(), operating.Bankruptcy(), *TURN_END)),
    #: forced_train=loan (the base game, 7.6.2): no forced sales, no bankruptcy
    "operating-loans": operating.OperatingRound("operating", (*TURN_START, *TURN_END)),
}


class Rulebook1830(Rulebook):
    title = "1830"
    rounds: dict[str, Round] = ROUNDS
    citations = CITATIONS

    def round(self, state: GameState) -> Round:
        """The round's steps; with bank loans (forced_train=loan) the operating round
        has no forced sales and no bankruptcy."""
        kind = state.round.get("round") or state.round["kind"]
        if kind == "operating" and insolvency.loans(state):
            return self.rounds["operating-loans"]
        return self.rounds[kind]

    def first_round(self, state: GameState) -> dict[str, Any]:
        """V-1.8: the auction (C-2.2), or the base game's groups (1.3)."""
        if groups.in_groups(state):
            return groups.new_groups_round(state.names[0])
        return super().first_round(state)

    # -- the auction (V-1.8) ----------------------------------------------------------

    def bid_problem(self, state: GameState, previous: int, amount: int) -> str | None:
        return bidding.problem(state, previous, amount)

    def bid_step(self, state: GameState) -> int | None:
        return bidding.step(state)

    def pass_leaves_auction(self, state: GameState) -> bool:
        return bidding.pass_leaves(state) or super().pass_leaves_auction(state)

    def free_bidding(self, state: GameState) -> bool:
        return bidding.free(state)

    # -- the base game's loans: the administrator's order of repayment (7.7) ----------

    side_actions = frozenset({"repay"})

    def side_action(self, ctx: Ctx, action: dict[str, Any]) -> None:
        insolvency.repay_first(ctx, action)

    def side_moves(self, state: GameState) -> Moves:
        return insolvency.repay_moves(state)

    # -- trains and the operating order (2.0, 3.0, V-1.7, V-7.7) ------------------------

    def train_count(self, state: GameState, train: TrainDef) -> int | None:
        return orvariants.train_count(state, train)

    def exceeds_train_limit(self, state: GameState) -> bool:
        return orvariants.flexible_limit(state)

    def rusting_delayed(self, state: GameState) -> bool:
        return state.options.get("rusting", "immediate") == "delayed"

    def operating_turn_order(self, state: GameState) -> list[str]:
        return orvariants.turn_order(state)

    def private_purchase_problem(self, state: GameState, corp: str, sym: str) -> str | None:
        return orvariants.buy_in_problem(state)

    # -- the base game's forced trains and insolvency (forced_train=loan) --------------

    def bank_lends(self, state: GameState) -> bool:
        return insolvency.loans(state)

    def borrow_for_train(self, ctx: Ctx, corp: str, price: int) -> None:
        insolvency.borrow(ctx, corp, price)

    def corporate_train_with_president_money(self, state: GameState) -> bool:
        """6.6.2 yes; with bank loans (7.6.2) the president's money buys the cheapest
        train of the bank or the pool only."""
        return not insolvency.loans(state)

    def train_sale_problem(self, state: GameState, seller: str, buyer: str) -> str | None:
        return insolvency.only_train_problem(state, seller) or \
            orvariants.only_train_problem(state, seller)

    def presidency_fixed(self, state: GameState, corp: str) -> bool:
        return insolvency.insolvent(state, corp)

    def sale_problem(self, state: GameState, name: str, corp: str, count: int) -> str | None:
        return insolvency.sale_problem(state, name, corp)

    def train_sale_declined(self, ctx: Ctx, proposal: dict[str, Any]) -> None:
        """6.6.3: a president made by the forced sales may cancel the purchase of his
        new company's train; the position goes back to the start of the purchase."""
        restore_before_sales(ctx, proposal)

    # -- stock rounds ------------------------------------------------------------------

    def sell_shares(self, ctx: Ctx, seller: str, corp: str, count: int) -> None:
        market.sell(ctx, seller, corp, count)

    def sale_proceeds(self, state: GameState, seller: str, corp: str, count: int) -> int:
        return market.proceeds(state, seller, corp, count)

    def private_sale_problem(self, state: GameState, sym: str, seller: str, buyer: str
                             ) -> str | None:
        return privates.resale_problem(state, sym)

    def private_changed_hands(self, ctx: Ctx, sym: str) -> None:
        privates.note_purchase(ctx, sym)

    def special_station_later(self, state: GameState, corp: str, sym: str) -> bool:
        return privates.station_later(state, corp, sym)

    def terrain_cost(self, state: GameState, corp: str, coord: str, printed: int) -> int:
        return printed // 2 if privates.sv_half_cost(state, corp, coord) else printed

    def tile_laid(self, ctx: Ctx, corp: str, coord: str, cost: int) -> None:
        privates.sv_used(ctx, corp, coord)

    # -- operating rounds --------------------------------------------------------------

    def operating_round_begins(self, ctx: Ctx) -> None:
        """V-8.0: a share value at the top after the stock round ends the game; 2.0: the
        fixed order is taken now."""
        if market.ends_at_top(ctx.state) and \
                end_at_top_before_operating(ctx, market.TOP_REASON):
            return
        orvariants.fix_order(ctx)
        super().operating_round_begins(ctx)

    def between_turns(self, ctx: Ctx, corp: str | None) -> None:
        """V-8.0: the corporation whose share value reached the top has finished its
        turn: the game is over."""
        if corp is not None and ends_after_turn(ctx.state):
            end_game(ctx, ctx.state.ending["reason"] if ctx.state.ending else market.TOP_REASON)
            return
        super().between_turns(ctx, corp)

    def payout_moves(self, state: GameState, corp: str, revenue: int) -> int:
        return market.payout_moves(state, corp, revenue)

    def half_dividend_kept(self, state: GameState, revenue: int) -> int | None:
        """V-7.1: half the revenue to the treasury (rounded up to $10), half paid out."""
        return half_kept(revenue) if state.options.get("split_revenue") == "yes" else None

    def after_dividend(self, ctx: Ctx, corp: str) -> None:
        if market.ends_at_top(ctx.state):
            note_top_reached(ctx, corp, market.TOP_REASON)

    def forced_sale(self, ctx: Ctx, seller: str, corp: str, count: int, buyer: str) -> None:
        market.sell(ctx, seller, corp, count)

    def after_decision(self, ctx: Ctx) -> None:
        market.note_reform(ctx)
        orvariants.note_buyable(ctx)
        privates.note_special_lay(ctx)
        insolvency.repay(ctx)

    def offers_after_stock_turn(self, ctx: Ctx) -> bool:
        """1830 has no price protection.  Since 1870 came, pbem has recorded its empty
        offer queue at the end of every stock turn of every game; the record goes on
        so that the facts of a turn are the same whenever it was played."""
        ctx.round_set(protection_queue=[], protection=None)
        return False


RULEBOOK = Rulebook1830()
register(RULEBOOK)
