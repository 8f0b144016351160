"""1870 (Mayfair rules, ©1992, 1995; the rulebook's sections and pages are cited).

The data is rules/1870/; the code is this package: the rounds as step lists with
1870's own steps (steps.py), and the rules the data cannot say: track (track.py),
stations, the destination marker, the cattle and port tokens (tokens.py), connection
runs (connection.py), price protection (protection.py), redemption and reissue
(redemption.py), closing companies (closing.py), the half dividend (dividend.py), the
$400 finish (finish.py).  docs/1870.md maps every rule to its code and tests.
"""

from __future__ import annotations

from typing import Any

from ... import auction, operating, stock
from ...board.search import RevenueRules
from ...context import Ctx
from ...facts import PrivateClosed
from ...ortrains import bankruptcy_certain
from ...registry import register
from ...shares import sell_to_pool
from ...state import GameState, corp_holder, player_holder
from ...steps import Round
from ..base import Rulebook
from . import closing, connection, protection, redemption, tokens, track
from .dividend import half_kept
from .finish import ends_before_operating, note_400
from .steps import (
    AnswerRedemption,
    BuyPrivate1870,
    CompanyShares,
    ConnectionRun,
    Dividend1870,
    LayTrack1870,
    NoProtectionOffer,
    OperatingPriceProtection,
    PlaceStation1870,
    PlaceTokens,
    StockPriceProtection,
)

#: rule key (as the core cites it) -> the 1870 rulebook's section and page
CITATIONS = {
    "auction": "1870 Purchasing Private Companies, p.10",
    "auction_bid": "1870 Purchasing Private Companies, p.10",
    "auction_bidders": "1870 Purchasing Private Companies, p.10",
    "auction_all_pass": "1870 Purchasing Private Companies, p.10",
    "private_sale": "1870 Private Companies, p.9",
    "private_trade": "1870 Buying Shares, p.12",
    "privates_close": "1870 Game Phases, p.4-5",
    "private_purchase": "1870 Purchasing Private Companies, p.19",
    "private_abilities": "1870 Private Companies, p.9-10",
    "par": "1870 Starting a Company, p.16",
    "certificates": "1870 Share and Certificate Limits, p.6",
    "multi_buy": "1870 Buying Shares, p.14",
    "stock": "1870 Stock Round, p.13",
    "stock_turn": "1870 Stock Round Summary, p.12",
    "sell": "1870 Selling Shares, p.13",
    "buy": "1870 Buying Shares, p.14",
    # (1870 has no certificate larger than a share but the president's)
    "extra_certificate": "1870 Buying Shares, p.14",
    "turn": "1870 Operating Round Summary, p.13",
    "track": "1870 Lay or Upgrade Track, p.19",
    "private_hexes": "1870 Private Companies, p.9",
    "terrain": "1870 Lay or Upgrade Track, p.19",
    "station": "1870 Place Station Markers, p.20",
    "home_station": "1870 Place Station Markers, p.20",
    "station_route": "1870 Place Station Markers, p.20",
    "blocking": "1870 Operate Trains, p.21",
    "run": "1870 Operate Trains, p.21",
    "route": "1870 Operate Trains, p.21",
    "route_stops": "1870 Operate Trains, p.21",
    "best_run": "1870 Operate Trains, p.21",
    "dividend": "1870 Declare Dividends, p.21",
    "trains": "1870 Purchase Trains, p.22",
    "discard": "1870 Purchase Trains, p.22",
    "forced_train": "1870 Purchase Trains, p.22",
    "forced_sales": "1870 Forced Stock Sales, p.24",
    "bankruptcy": "1870 Bankruptcy, p.25",
    "end": "1870 Ending the Game, p.24",
}

ROUNDS = {
    "auction": auction.AuctionRound("auction", auction.STEPS),
    "stock": stock.StockRound("stock", (
        StockPriceProtection(),
        AnswerRedemption(),
        stock.AnswerPrivateSale(),
        stock.BuyShares(),
        CompanyShares(),
        stock.SellShares(),
        stock.SellPrivate(),
        NoProtectionOffer(),
        stock.PassOrDone(),
    )),
    "operating": operating.OperatingRound("operating", (
        ConnectionRun(),
        OperatingPriceProtection(),
        operating.AnswerProposal(),
        operating.DiscardTrain(),
        operating.HomeStation(),
        PlaceTokens(),
        BuyPrivate1870(),
        LayTrack1870(),
        PlaceStation1870(),
        operating.RunTrains(),
        Dividend1870(),
        operating.BuyTrains(),
        operating.ForcedSales(),
        operating.Bankruptcy(),
        operating.EndTurn(),
    )),
}


class Rulebook1870(Rulebook):
    title = "1870"
    rounds: dict[str, Round] = ROUNDS
    citations = CITATIONS

    # -- the private auction ---------------------------------------------------------------

    def par_free_president(self, ctx: Ctx, action: dict[str, Any]) -> None:
        """The SLSF private "is the president's certificate of the St. Louis San
        Francisco Railway" (p.10): once its par value is set the player holds that
        certificate, and the private company is no more (no second $140 in his worth,
        no second certificate towards his limit)."""
        state = ctx.state
        corp = state.round["pending_par"]["corp"]
        super().par_free_president(ctx, action)
        for sym, private in state.privates.items():
            extra = state.rules.private(sym).extra
            if extra.get("free_president") == corp and extra.get("is_president_certificate") \
                    and not private.closed:
                ctx.emit(PrivateClosed(sym))
                ctx.log(f"The {sym} private company is now the {corp} president's certificate.")

    # -- stock rounds: price protection, reissued shares -----------------------------------

    def sell_shares(self, ctx: Ctx, seller: str, corp: str, count: int) -> None:
        """The value drops at the sale; the president may protect it when the seller's
        turn ends (p.13)."""
        state = ctx.state
        before = protection.snapshot(state, corp) if protection.protection_applies(state) \
            else None
        sell_to_pool(ctx, seller, corp, count, protected=before is not None)
        protection.forget_over_limit(ctx, seller, corp)
        if before is not None:
            protection.queue_sale(ctx, seller, corp, count, before)

    def sale_problem(self, state: GameState, name: str, corp: str, count: int) -> str | None:
        return protection.over_limit_sale_problem(state, name, corp, count)

    def offers_after_stock_turn(self, ctx: Ctx) -> bool:
        return protection.next_offer(ctx)

    def ipo_share_bought(self, ctx: Ctx, buyer: str, corp: str, cost: int) -> None:
        """A reissued share bought from the initial offering pays the company, whose
        money from it is frozen until the next operating round (p.18)."""
        if not ctx.state.corps[corp].reissued:
            super().ipo_share_bought(ctx, buyer, corp, cost)
            return
        ctx.pay(player_holder(buyer), corp_holder(corp), cost)
        redemption.ipo_sale_pays_company(ctx, corp, cost)

    # -- operating rounds ----------------------------------------------------------------

    def before_operating_round(self, ctx: Ctx) -> None:
        redemption.unfreeze(ctx)

    def operating_round_begins(self, ctx: Ctx) -> None:
        """A token that reached $400 in the stock round ends the game (the $400 finish);
        else the privates pay and connection runs come before the first company."""
        if ends_before_operating(ctx):
            return
        super().operating_round_begins(ctx)

    def between_turns(self, ctx: Ctx, corp: str | None) -> None:
        """Connection runs (and the $400 finish), then the next company (p.23); with
        protection_timing=turn-end the protection offers of the turn's forced sales
        first."""
        if corp is None:
            connection.at_round_start(ctx)
        elif not protection.offer_at_turn_end(ctx, corp):
            connection.after_turn(ctx, corp)

    def private_purchase_phases(self) -> str:
        return "Public companies may buy private companies only in phases 2 and 3 (from " \
               "the first 3-train to the first 5-train)."

    def early_private_sale(self, state: GameState, corp: str, sym: str
                           ) -> tuple[int, int] | None:
        return track.early_private_sale(state, corp, sym)

    def private_bought_by_corporation(self, ctx: Ctx, corp: str, sym: str) -> None:
        track.after_private_bought(ctx, corp, sym)

    def revenue_rules(self, state: GameState, corp: str) -> RevenueRules | None:
        return tokens.revenue_bonuses(state, corp)  # type: ignore[no-any-return]

    def dividend_payee(self, state: GameState, corp: str, holder: str) -> str | None:
        """Shares in the initial offering and the company's own pay the company,
        open-market shares the bank (p.21)."""
        if holder in ("ipo", corp_holder(corp)):
            return corp_holder(corp)
        return None if holder == "pool" else holder

    def half_dividend_kept(self, state: GameState, revenue: int) -> int | None:
        """The company keeps half, rounded up to $10 (p.21; option half_dividend)."""
        return half_kept(state, revenue)

    def after_dividend(self, ctx: Ctx, corp: str) -> None:
        note_400(ctx, corp)

    def corporate_train_with_president_money(self, state: GameState) -> bool:
        """A forced purchase is one train from the bank or the open market (p.22)."""
        return False

    def forced_sale(self, ctx: Ctx, seller: str, corp: str, count: int, buyer: str) -> None:
        """Each company's shares in one block; the sale may be price protected (the
        offers follow the president's sales); with option bankrupt_prices=unchanged the
        sales of a president who cannot escape bankruptcy leave the share values where
        they are (Forced Stock Sales, p.24; docs/1870.md D8)."""
        state = ctx.state
        if bankrupt_prices_unchanged(state) and bankruptcy_certain(state, seller, buyer):
            sell_to_pool(ctx, seller, corp, count, price_moves=False)
        else:
            before = protection.snapshot(state, corp) if protection.protection_applies(state) \
                else None
            sell_to_pool(ctx, seller, corp, count, protected=before is not None)
            if before is not None:
                protection.queue_sale(ctx, seller, corp, count, before)
        turn = state.round.get("turn")
        if turn is not None:
            ctx.round_set(turn={**turn, "forced_sold": turn.get("forced_sold", []) + [corp]})

    def forced_sale_problem(self, state: GameState, name: str, corp: str, other: str,
                            count: int) -> str | None:
        if other in state.round.get("turn", {}).get("forced_sold", []):
            return (f"{name} has already sold {other} shares for this train: all the shares "
                    "of one company are sold in a single block.")
        return None

    def after_forced_sales(self, ctx: Ctx) -> None:
        if not protection.offered_at_turn_end(ctx.state):
            protection.next_offer(ctx)

    def close_company(self, ctx: Ctx, corp: str) -> None:
        closing.close_company(ctx, corp)

    def phase_event(self, ctx: Ctx, event: str) -> None:
        if event == "remove_port_and_cattle_tokens":  # phase 5 (Game Phases, p.5)
            tokens.remove_port_and_cattle_tokens(ctx)
            return
        super().phase_event(ctx, event)

    def bankrupt_score(self, state: GameState, name: str, worth: int, shares: int) -> int:
        """The bankrupt player is scored like everybody else and may win (p.25)."""
        return worth


def bankrupt_prices_unchanged(state: GameState) -> bool:
    """Option bankrupt_prices=unchanged (18xx.games, docs/1870.md D8)."""
    return state.options.get("bankrupt_prices", "move") == "unchanged"


RULEBOOK = Rulebook1870()
register(RULEBOOK)
