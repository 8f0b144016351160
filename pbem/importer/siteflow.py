"""What the site does by itself, which pbem asks for: the importer sends pbem those
commands (``pass``, ``done``), the exporter leaves them out.  Both must agree with the
site on when it happens."""

from __future__ import annotations

from ..engine.game import legal_moves
from ..engine.state import GameState

#: the site's phases in which players may buy private companies from each other in a
#: stock round, and the first stock round it allows it in
SITE_PRIVATE_TRADE = {"1830": (frozenset({"2", "3", "4"}), 2),
                      "1870": (frozenset({"2", "3"}), 1)}
#: private companies the site never lets anyone buy (the ``no_buy`` ability)
NO_BUY = {"1830": frozenset({"BO"}), "1870": frozenset({"SLSF"})}


def site_offers_private(state: GameState, player: str) -> bool:
    """Whether the site offers ``player`` to buy another player's private company now: in
    his stock-round turn before any purchase, with money, in the phases the site allows
    it (tobymao/18xx ``BuySellParShares#purchasable_companies``)."""
    phases, first_round = SITE_PRIVATE_TRADE.get(state.title, (frozenset(), 0))
    rnd = state.round
    if rnd.get("kind") != "stock" or state.phase not in phases or \
            rnd.get("number", 0) < first_round or rnd["turn"].get("bought") or \
            state.player(player).cash <= 0:
        return False
    barred = NO_BUY.get(state.title, frozenset())
    return any(p.owner.startswith("p:") and p.owner != f"p:{player}" and not p.closed
               and sym not in barred for sym, p in state.privates.items())


def site_passes_for(state: GameState, player: str) -> bool:
    """The site passes by itself for a stock-round player it offers nothing but a pass
    (an exchange of MH is no turn of his)."""
    moves = legal_moves(state).get(player, [])
    return all(m["action"]["type"] in ("pass", "exchange") for m in moves) \
        and not site_offers_private(state, player)
