"""The players of the differential runner.

``SitePlayer`` plays like pbem.bots.Bot, leaving out the moves pbem allows and the site
cannot express (each is a difference documented in docs/18xx-games.md), and adding moves
real players make on the site that the engine's listing leaves out: trains bought from
other corporations for any price, private companies bought from players, explicit
routes.  Its ``probe`` tries moves near the legal ones in both engines without playing
them (probes.py): where the verdicts differ, that is a divergence too.
"""

from __future__ import annotations

from typing import Any

from pbem.bots import Bot, Choice, Move
from pbem.engine.errors import RulesError
from pbem.engine.game import decide
from pbem.engine.state import GameState
from pbem.importer.export import FREE_SHARES
from pbem.importer.siteflow import NO_BUY, NOT_HIS_TURN, site_offers_private, site_passes_for


class SitePlayer(Bot):
    def __init__(self, probing: float = 0.0) -> None:
        self.probing = probing  # the share of positions where moves are probed

    def allowed(self, state: GameState, name: str, move: Move) -> bool:
        kind = move["action"]["type"]
        rnd = state.round
        if rnd["kind"] == "stock" and kind in NOT_HIS_TURN - {"pass", "exchange"} \
                and not rnd.get("proposal") and site_passes_for(state, name):
            return False  # the site passes for him: it offers no company action then
        return True

    def probe(self, duel: Any) -> Any:
        """A divergence found by trying moves without playing them, or None."""
        if not self.probing or duel.rng.random() >= self.probing:
            return None
        from .probes import probe_position

        return probe_position(duel)

    def extra_moves(self, state: GameState) -> list[Choice]:
        """Moves real players make on the site that the listing leaves out: another
        player's private company bought in a stock turn (any price the buyer has; not
        one that brought its first buyer a share, CA and MKT: the site's engine fails to
        give that share a second time, "Cannot buy share from player")."""
        rnd = state.round
        moves: list[Choice] = []
        if rnd["kind"] == "stock" and not rnd.get("proposal") and not rnd.get("protection"):
            buyer = rnd["current"]
            if site_offers_private(state, buyer):
                cash = state.player(buyer).cash
                for sym, private in sorted(state.privates.items()):
                    owner = private.owner
                    if owner.startswith("p:") and owner != f"p:{buyer}" and not private.closed \
                            and sym not in NO_BUY.get(state.title, frozenset()) \
                            and sym not in FREE_SHARES.get(state.title, {}):
                        value = state.rules.private(sym).value
                        moves.append((buyer, {"action": {
                            "type": "buy_private", "private": sym, "from": owner[2:],
                            "price": 1}, "min": 1, "max": min(cash, 2 * value)}))
        return [(n, m) for n, m in moves if legal(state, n, m["action"])]


def legal(state: GameState, name: str, action: dict[str, Any]) -> bool:
    try:
        decide(state, name, action)
    except RulesError:
        return False
    return True


def new_player(probing: float) -> SitePlayer:
    return SitePlayer(probing)
