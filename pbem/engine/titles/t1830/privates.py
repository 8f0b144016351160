"""1830's private company variants (the German rulebook, V-6.4, 4.0).

* private_resale (V-6.4): "Privatgesellschaften können nicht in der gleichen
  Aktienrunde gekauft und wieder verkauft werden" (★): a private company bought from
  another player in a stock round may not be sold on in that round; without the rule
  players could pass money to each other by selling one back and forth.  ``free``: they
  may.  Games recorded before the option existed read it as ``free`` (what pbem did).
* dh_station (4.0): a company that lays the DH's tile on F-16 and places no station there
  in that operating turn must later follow the normal rules to place one (★ "DH-Bahnhof
  fest"); or the company owning the DH may place it there in a later turn without a
  route ("DH-Bahnhof flexibel"), at the DH's price (the station of the DH's turn).
* schuylkill_valley (4.0): the company owning the SV pays half the terrain cost for the
  first tile on G-15, the SV's hex; the SV then leaves the game (it closes).
"""

from __future__ import annotations

from ...context import Ctx
from ...facts import Note, PrivateClosed
from ...state import GameState, corp_holder

#: notes key prefix: the company that laid the tile of a private company with a station
LAID = "special_lay:"


def resale_restricted(state: GameState) -> bool:
    return state.options.get("private_resale", "restricted") == "restricted"


def resale_problem(state: GameState, sym: str) -> str | None:
    """Why ``sym`` may not be sold again now (V-6.4), or None."""
    if resale_restricted(state) and sym in state.round.get("privates_bought", []):
        return (f"{sym} was bought in this stock round: a private company may not be bought "
                "and sold again in the same stock round.")
    return None


def note_purchase(ctx: Ctx, sym: str) -> None:
    """Remember a private company bought between players in this stock round."""
    if resale_restricted(ctx.state):
        bought = ctx.state.round.get("privates_bought", [])
        ctx.round_set(privates_bought=sorted({*bought, sym}))


def dh_flexible(state: GameState) -> bool:
    return state.options.get("dh_station", "fixed") == "flexible"


def note_special_lay(ctx: Ctx) -> None:
    """After each command: with the flexible DH station, remember the company that laid
    the DH's tile."""
    state = ctx.state
    if not dh_flexible(state) or state.round.get("kind") != "operating":
        return
    sym = (state.round.get("turn") or {}).get("special_lay")
    if sym and LAID + sym not in state.notes and \
            state.rules.private(sym).extra.get("tile_lay", {}).get("token"):
        ctx.emit(Note(LAID + sym, state.round["current"]))


def station_later(state: GameState, corp: str, sym: str) -> bool:
    private = state.privates.get(sym)
    return (dh_flexible(state) and state.notes.get(LAID + sym) == corp and private is not None
            and private.owner == corp_holder(corp) and not private.closed)


def sv_half_cost(state: GameState, corp: str, coord: str) -> bool:
    """4.0 Schuylkill Valley: ``corp`` owns the SV and lays on its hex."""
    sv = state.privates.get("SV")
    return (state.options.get("schuylkill_valley", "no") == "half-cost" and sv is not None
            and sv.owner == corp_holder(corp) and not sv.closed
            and coord in state.rules.private("SV").hexes)


def sv_used(ctx: Ctx, corp: str, coord: str) -> None:
    if sv_half_cost(ctx.state, corp, coord):
        ctx.emit(PrivateClosed("SV"))
        ctx.log(f"{corp} has laid the first tile on {coord} at half the cost: the SV leaves "
                "the game (Schuylkill Valley variant).")
