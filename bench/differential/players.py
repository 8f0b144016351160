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
from pbem.engine.state import GameState
from pbem.importer.siteflow import NOT_HIS_TURN, site_passes_for


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
        return []


def new_player(probing: float) -> SitePlayer:
    return SitePlayer(probing)
