"""The steps of 1870's rounds that differ from the common ones (pbem/engine/steps.py):

* between turns of the operating round, a company's connection run (Connection Run,
  p.22-23), and price protection offers after forced sales (Share Price Protection,
  p.13-14; Forced Stock Sales, p.24);
* in the stock round, price protection offers after a turn, a redemption waiting for
  the player asked to sell, and the president's redemption or reissue on the company's
  behalf (Share Redemption, p.17; Share Reissue, p.18);
* in the operating turn: the cattle and port tokens (Private Companies, p.9), the
  private companies a company may buy listed (p.19), two yellow tiles or one upgrade
  (Lay or Upgrade Track, p.19), the 1870 stations (Place Station Markers, p.20), the
  half dividend (Declare Dividends, p.21).

How an 1870 step differs from an 1830 one: it is a subclass overriding only what the
rulebook says differently (LayTrack1870.lay calls the 1870 track rules; Dividend1870
adds "half" to the kinds), or a step 1830's lists do not have at all.
"""

from __future__ import annotations

from typing import Any

from ... import operating
from ...context import Ctx, money, require
from ...errors import RulesError
from ...state import GameState, player_holder
from ...steps import Moves, Step
from ...stock import company_action_done, resume_after_protection
from . import connection, protection, redemption, tokens, track


class ConnectionRun(Step):
    """A company that can run home to destination makes its connection run between
    turns: destination marker, run, payout or withhold (p.22-23)."""

    actions = frozenset({"destination", "run", "payout", "withhold", "half"})
    turn = False

    def blocks(self, state: GameState) -> bool:
        return bool(state.round.get("connection"))

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        connection.decide(ctx, action)

    def moves(self, state: GameState) -> Moves:
        return connection.legal(state)


class OperatingPriceProtection(Step):
    """A forced sale's price protection offer waits for its president (p.13, p.24)."""

    actions = frozenset({"protect", "decline"})
    turn = False

    def blocks(self, state: GameState) -> bool:
        return bool(state.round.get("protection"))

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        protection.answer(ctx, action)
        if protection.next_offer(ctx):
            return
        ctx.round_set(protection_last=None)
        corp = ctx.state.round.get("protection_turn")
        if corp is not None:  # offered at the end of its turn: its connection runs next
            ctx.round_set(protection_turn=None)
            connection.after_turn(ctx, corp)

    def moves(self, state: GameState) -> Moves:
        return protection.moves(state)


class StockPriceProtection(OperatingPriceProtection):
    """After a seller's turn, the presidents of the companies sold may protect them;
    then play resumes left of the last who protected, or of the seller (p.13)."""

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        protection.answer(ctx, action)
        if not protection.next_offer(ctx):
            resume_after_protection(ctx)


class AnswerRedemption(Step):
    """A president asked a player to sell a share to the company (p.17)."""

    actions = frozenset({"accept", "decline"})
    turn = False

    def blocks(self, state: GameState) -> bool:
        prop = state.round.get("proposal") or {}
        return prop.get("kind") == "redeem"

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        prop = ctx.state.round["proposal"]
        require(ctx.actor == prop["answer_by"] and action["type"] in ("accept", "decline"),
                f"{prop['answer_by']} must first accept or decline the sale of a "
                f"{prop['corp']} share to {prop['corp']} for {money(prop['price'])}.")
        ctx.round_set(proposal=None)
        if action["type"] == "decline":
            ctx.log(f"{ctx.actor} declines.")
            return
        redemption.complete_redemption(ctx, prop["corp"], player_holder(prop["seller"]))
        company_action_done(ctx, prop["proposer"])

    def moves(self, state: GameState) -> Moves:
        prop = state.round["proposal"]
        return {prop["answer_by"]: [{"action": {"type": "accept"}},
                                    {"action": {"type": "decline"}}]}


class CompanyShares(Step):
    """The president redeems or reissues shares on the company's behalf: his whole
    stock turn (p.17-18)."""

    actions = frozenset({"redeem", "reissue"})

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        if action["type"] == "redeem":
            if redemption.redeem(ctx, action["corp"], action.get("from")):
                company_action_done(ctx)
            return
        redemption.reissue(ctx, action["corp"])
        company_action_done(ctx)

    def moves(self, state: GameState) -> Moves:
        name = state.round["current"]
        return {name: redemption.moves(state, name)}


class NoProtectionOffer(Step):
    """``protect`` or ``decline`` with no offer waiting."""

    actions = frozenset({"protect", "decline"})

    def decide(self, ctx: Ctx, action: dict[str, Any]) -> None:
        raise RulesError("No president is being offered price protection now.",
                         protection.RULE)


# -- the operating turn ---------------------------------------------------------------------


class PlaceTokens(operating.TurnStep):
    """The cattle token (SCC) and a port token (GSC), any time in the owning company's
    operating turn (Private Companies, p.9)."""

    actions = frozenset({"cattle", "port"})

    def act(self, ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
        place = tokens.place_cattle if action["type"] == "cattle" else tokens.place_port
        place(ctx, corp, action)

    def offers(self, state: GameState, corp: str) -> list[dict[str, Any]]:
        return tokens.marker_moves(state, corp)


class BuyPrivate1870(operating.BuyPrivate):
    """The purchase of a private company (p.19), listed for the privates whose abilities
    pbem carries out (MRBC, SCC, GSC)."""

    def offers(self, state: GameState, corp: str) -> list[dict[str, Any]]:
        return track.private_moves(state, corp)


class LayTrack1870(operating.LayTrack):
    """Two yellow tiles or one upgrade; the MRBC's home lay and the closed river (p.9,
    p.19)."""

    def lay(self, ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
        track.lay(ctx, corp, action)

    def lays(self, state: GameState, corp: str) -> list[dict[str, Any]]:
        return track.lay_options(state, corp)


class PlaceStation1870(operating.PlaceStation):
    """Stations by the 1870 rules, the destination marker kept as a station (p.20)."""

    def place(self, ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
        tokens.place_station(ctx, corp, action)

    def places(self, state: GameState, corp: str) -> list[dict[str, Any]]:
        return tokens.token_options(state, corp)


class Dividend1870(operating.Dividend):
    """Pay out, withhold, or pay half (p.21)."""

    kinds = ("payout", "withhold", "half")
