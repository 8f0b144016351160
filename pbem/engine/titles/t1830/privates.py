"""1830's private company variants (the German rulebook, V-6.4).

* private_resale (V-6.4): "Privatgesellschaften können nicht in der gleichen
  Aktienrunde gekauft und wieder verkauft werden" (★): a private company bought from
  another player in a stock round may not be sold on in that round; without the rule
  players could pass money to each other by selling one back and forth.  ``free``: they
  may.  Games recorded before the option existed read it as ``free`` (what pbem did).
"""

from __future__ import annotations

from ...context import Ctx
from ...state import GameState


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
