"""A title's code: its Rulebook.

The data in rules/<title>/ says most of a title (bank, market, companies, trains,
phases, options).  The rulebook says the rest:

* ``rounds``: each round as an ordered list of steps (pbem/engine/steps.py), as the
  title plays it;
* ``citations``: how the title's rulebook names a rule, by the keys the core uses
  (``cite("track")``: "1830 6.2", "1870 Lay or Upgrade Track, p.19");
* hooks: what happens where the common rules leave it to the title.  Each default
  here is the plain rule (1830 Classic's, the first title pbem had); a title overrides
  only what differs.

A new title is a package in pbem/engine/titles/ (or anywhere, registered with
pbem.engine.registry.register) holding its Rulebook; docs/engine.md says how.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..auction import new_auction_round
from ..board.search import RevenueRules
from ..context import Ctx, require
from ..dividends import pay_half
from ..errors import NotImplementedRule, RulesError
from ..market import floated_in_order
from ..operating import next_corporation, start_turns
from ..rounds import after_operating_round, end_stock_round, start_first_stock_round
from ..shares import check_float, check_presidency, sell_to_pool
from ..state import BANK, IPO, POOL, GameState, corp_holder, player_holder
from ..steps import Moves, Round
from ..stock import place_par_token
from ..title import TrainDef


class Rulebook:
    """The code of one title.  Subclasses set ``title``, ``rounds`` and ``citations``
    and override the hooks where their rules differ."""

    title: str = ""
    #: the title's rounds by kind ("auction", "stock", "operating")
    rounds: Mapping[str, Round] = {}
    #: rule key -> the title's citation (see the keys the core modules cite)
    citations: Mapping[str, str] = {}

    def cite(self, key: str) -> str | None:
        return self.citations.get(key)

    def round(self, state: GameState) -> Round:
        """The round being played: by the round's own name for its steps (``round``: a
        round kind the title plays in more than one way, 1830's private-company groups)
        or by its kind."""
        return self.rounds[state.round.get("round") or state.round["kind"]]

    def first_round(self, state: GameState) -> dict[str, Any]:
        """The round a new game begins with: the private auction, the first seat first."""
        return new_auction_round(state.names[0])

    def after_decision(self, ctx: Ctx) -> None:
        """After every decision, before the bank is checked (1830 base game: money taken
        in repays a company's bank loan)."""

    # -- the private auction -------------------------------------------------------------

    def on_private_bought(self, ctx: Ctx, sym: str, buyer: str) -> None:
        """A player bought a private company from the bank (auction): a share it brings
        (data: free_share), a president's certificate whose par value he sets now
        (data: free_president)."""
        extra = ctx.state.rules.private(sym).extra
        if "free_share" in extra:
            corp = extra["free_share"]
            ctx.move_cert(corp, 1, player_holder(buyer))
            ctx.log(f"{buyer} receives a 10% share of {corp} with {sym}.")
        if "free_president" in extra:
            corp = extra["free_president"]
            ctx.move_cert(corp, 0, player_holder(buyer))
            ctx.log(f"{buyer} receives the {corp} president's certificate with {sym} and "
                    f"must set its par value now.")
            ctx.round_set(pending_par={"player": buyer, "corp": corp})

    def par_free_president(self, ctx: Ctx, action: dict[str, Any]) -> None:
        """A player who received a president's certificate free sets its par value."""
        corp = ctx.state.round["pending_par"]["corp"]
        require(action.get("corp") in (None, corp), f"Set the par value of {corp} first.")
        place_par_token(ctx, corp, action["price"])
        check_presidency(ctx, corp)
        check_float(ctx, corp)

    def auction_ends(self, ctx: Ctx) -> None:
        """Every private company is sold: the first stock round."""
        start_first_stock_round(ctx)

    # -- stock rounds ----------------------------------------------------------------------

    def sell_shares(self, ctx: Ctx, seller: str, corp: str, count: int) -> None:
        """A sale in a stock round: to the bank pool, the price drops."""
        sell_to_pool(ctx, seller, corp, count)

    def sale_proceeds(self, state: GameState, seller: str, corp: str, count: int) -> int:
        """What a sale of ``count`` shares of ``corp`` pays now: the share value for each
        (the price drops after the block, 5.1)."""
        return (state.price(corp) or 0) * count

    def sale_problem(self, state: GameState, name: str, corp: str, count: int) -> str | None:
        """Why the title forbids this sale besides the common limits (None: it does not)."""
        return None

    def private_sale_problem(self, state: GameState, sym: str, seller: str, buyer: str
                             ) -> str | None:
        """Why the title forbids this sale of a private company between players, besides
        the common rules (None: it does not)."""
        return None

    def private_changed_hands(self, ctx: Ctx, sym: str) -> None:
        """A private company was sold from one player to another in a stock round."""

    def stock_round_ends(self, ctx: Ctx) -> None:
        """Everybody passed: the end of the stock round, a set of operating rounds."""
        end_stock_round(ctx)

    def offers_after_stock_turn(self, ctx: Ctx) -> bool:
        """Offers for the turn's sales made when a stock turn ends (a title's price
        protection); True while one waits for an answer."""
        return False

    def ipo_share_bought(self, ctx: Ctx, buyer: str, corp: str, cost: int) -> None:
        """A share bought from the initial offering: the bank is paid."""
        ctx.pay(player_holder(buyer), BANK, cost)

    # -- operating rounds -------------------------------------------------------------------

    def operating_round_ends(self, ctx: Ctx) -> None:
        """The next operating round of the set, the end of the game, or a stock round."""
        after_operating_round(ctx)

    def before_operating_round(self, ctx: Ctx) -> None:
        """Before an operating round begins (1870: reissue money becomes usable)."""

    def operating_round_begins(self, ctx: Ctx) -> None:
        """The round has begun: the privates pay, then the first company operates."""
        start_turns(ctx)

    def between_turns(self, ctx: Ctx, corp: str | None) -> None:
        """After ``corp``'s turn (None: at the start of the round): the next company."""
        next_corporation(ctx)

    def private_purchase_problem(self, state: GameState, corp: str, sym: str) -> str | None:
        """Why ``corp`` may not buy a private company now although the phase allows it
        (1830 3.0 variant: the delayed buy-in)."""
        return None

    def terrain_cost(self, state: GameState, corp: str, coord: str, printed: int) -> int:
        """What the first tile on ``coord`` costs ``corp`` for the terrain (the printed
        cost; 1830 4.0 variant: half on G-15 for the owner of the SV)."""
        return printed

    def tile_laid(self, ctx: Ctx, corp: str, coord: str, cost: int) -> None:
        """``corp`` has laid a tile on ``coord`` for ``cost``."""

    def special_station_later(self, state: GameState, corp: str, sym: str) -> bool:
        """Whether ``corp`` may place the station of private company ``sym`` now, in a
        turn after the one it laid the private's tile (1830 4.0 variant: DH flexible)."""
        return False

    def private_purchase_phases(self) -> str:
        """The sentence refusing a private company purchase outside its phases."""
        return "Corporations may buy private companies only in phases 3 and 4 (after the " \
               "first 3-train)."

    def early_private_sale(self, state: GameState, corp: str, sym: str
                           ) -> tuple[int, int] | None:
        """A price range when ``corp`` may buy ``sym`` before the phases that allow it."""
        return None

    def private_bought_by_corporation(self, ctx: Ctx, corp: str, sym: str) -> None:
        """A corporation has bought a private company from a player."""

    def revenue_rules(self, state: GameState, corp: str) -> RevenueRules | None:
        """The corporation's revenue modifiers (None: the printed values)."""
        return None

    def dividend_payee(self, state: GameState, corp: str, holder: str) -> str | None:
        """Who receives the dividend on a share held by ``holder``: the corporation for
        bank pool shares, nobody for initial-offering shares (1830 6.5)."""
        if holder == IPO:
            return None
        return corp_holder(corp) if holder == POOL else holder

    def payout_moves(self, state: GameState, corp: str, revenue: int) -> int:
        """How many boxes right a company's share value moves when it pays out (one)."""
        return 1

    def pay_dividend(self, ctx: Ctx, corp: str, how: str, revenue: int) -> None:
        """A dividend other than payout and withhold: a half dividend where the title
        has one (half_dividend_kept)."""
        kept = self.half_dividend_kept(ctx.state, revenue) if how == "half" else None
        if kept is None:
            raise RulesError(f"There is no {how} dividend in {ctx.state.title}.",
                             self.cite("dividend"))
        require(revenue > 0, f"{corp} has no revenue, so it cannot pay a half dividend.",
                self.cite("dividend"))
        pay_half(ctx, corp, revenue, kept)

    def half_dividend_kept(self, state: GameState, revenue: int) -> int | None:
        """What the company keeps of a half dividend (None: the title has none)."""
        return None

    def after_dividend(self, ctx: Ctx, corp: str) -> None:
        """The dividend is decided (1870: the $400 finish)."""

    def corporate_train_with_president_money(self, state: GameState) -> bool:
        """Whether a president's money may pay for a train bought from another
        corporation in a forced purchase (1830 6.6.2: yes, up to its face value)."""
        return True

    def train_count(self, state: GameState, train: TrainDef) -> int | None:
        """Copies of ``train`` in the game (None: unlimited)."""
        return train.count

    def rusting_delayed(self, state: GameState) -> bool:
        """Whether obsolete trains of the corporations run once more before they leave
        (1830 3.0 variant: delayed rusting)."""
        return False

    def exceeds_train_limit(self, state: GameState) -> bool:
        """Whether a company may buy a train over its limit and then discard down to it
        (1830 V-7.7 flexible train limit)."""
        return False

    def operating_turn_order(self, state: GameState) -> list[str]:
        """The companies still to operate come in this order (6.0: the market's)."""
        return floated_in_order(state)

    def bid_problem(self, state: GameState, previous: int, amount: int) -> str | None:
        """Why a bid of ``amount`` over ``previous`` (the face value or the last bid) is
        refused besides the minimum raise (1830 V-1.8: raise steps)."""
        return None

    def bid_step(self, state: GameState) -> int | None:
        """The step between the bids a player may make (1: any amount over the minimum;
        None: the minimum only)."""
        return 1

    def pass_leaves_auction(self, state: GameState) -> bool:
        """Whether a bidder who passes in the auction between bidders is out of it
        (1830 V-1.8 pass and out; 18xx.games) or may bid again (1.2.2)."""
        return state.options.get("auction_order", "clockwise") == "lowest-bid"

    #: action types a player may send at any time, outside the round's turns
    #: (decided by side_action, offered by side_moves)
    side_actions: frozenset[str] = frozenset()

    def side_action(self, ctx: Ctx, action: dict[str, Any]) -> None:
        raise NotImplementedError

    def side_moves(self, state: GameState) -> Moves:
        """The moves of side_actions each player may make now (optional: the game does
        not wait for them)."""
        return {}

    def free_bidding(self, state: GameState) -> bool:
        """Whether the auction between bidders has no turns: every bidder still in may
        raise or pass at any time, in any order (1830 V-1.8 free-for-all bidding), or
        they bid in turn (C-2.2.2, 1.2.2)."""
        return False

    def bank_lends(self, state: GameState) -> bool:
        """Whether the bank lends a company what it and its president lack for a forced
        train (the 1830 base game, 7.6.2); else the president sells shares (6.6.3)."""
        return False

    def borrow_for_train(self, ctx: Ctx, corp: str, price: int) -> None:
        """The company borrows what it and its president lack for a ``price`` train."""
        raise NotImplementedRule(f"pbem knows no bank loans in {ctx.state.title}.")

    def train_sale_problem(self, state: GameState, seller: str, buyer: str) -> str | None:
        """Why ``buyer`` may not buy a train from ``seller`` besides the common rules."""
        return None

    def presidency_fixed(self, state: GameState, corp: str) -> bool:
        """Whether the presidency of ``corp`` may not change now (an insolvent company's
        administrator, 1830 base game 7.7)."""
        return False

    def forced_sale(self, ctx: Ctx, seller: str, corp: str, count: int, buyer: str) -> None:
        """One block of a forced sale for ``buyer``'s train: to the pool, the price drops."""
        sell_to_pool(ctx, seller, corp, count)

    def forced_sale_problem(self, state: GameState, name: str, corp: str, other: str,
                            count: int) -> str | None:
        """Why the title forbids this forced sale besides the common rules."""
        return None

    def after_forced_sales(self, ctx: Ctx) -> None:
        """The president's forced sales for a train are made."""

    def train_sale_declined(self, ctx: Ctx, proposal: dict[str, Any]) -> None:
        """The other corporation's president declined to sell a train."""

    def close_company(self, ctx: Ctx, corp: str) -> None:
        """A company's token entered a closing section of the market."""
        raise NotImplementedRule(f"{corp} would close, but pbem knows no closing of "
                                 f"companies in {ctx.state.title}.")

    def phase_event(self, ctx: Ctx, event: str) -> None:
        """An event of a phase the common rules do not know (data: phases[].events)."""
        raise NotImplementedRule(f"pbem cannot carry out the phase event '{event}' yet.")

    # -- the end -------------------------------------------------------------------------------

    def bankrupt_score(self, state: GameState, name: str, worth: int, shares: int) -> int:
        """A bankrupt player's score: the shares he could not sell (1830 6.7 note)."""
        return shares
