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
from pbem.engine.game import decide, legal_moves
from pbem.engine.state import GameState
from pbem.importer.export import FREE_SHARES
from pbem.importer.siteflow import NO_BUY, NOT_HIS_TURN, site_offers_private, site_passes_for

from .defects import players_list_fails, protection_after_presidency_lost


class SitePlayer(Bot):
    def __init__(self, probing: float = 0.0) -> None:
        self.probing = probing  # the share of positions where moves are probed

    def allowed(self, state: GameState, name: str, move: Move) -> bool:
        kind = move["action"]["type"]
        rnd = state.round
        if rnd["kind"] == "stock" and kind in NOT_HIS_TURN - {"pass", "exchange"} \
                and not rnd.get("proposal") and site_passes_for(state, name):
            return False  # the site passes for him: it offers no company action then
        if kind == "redeem" and move["action"].get("from") and \
                players_list_fails(state, move["action"]["corp"]):
            return False  # a defect of the site's engine would refuse it (defects.py)
        if protection_after_presidency_lost(state, move["action"]):
            return False  # the site's engine gets its result wrong (defects.py)
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


class ScriptedPlayer(SitePlayer):
    """Plays a reproduction's commands again, in order (no probes).  Where the fix of
    the divergence changed who ends a turn, it follows: a pass the engine now asks of
    a player before the next command's player may act is made, and a scripted pass of
    a player who may no longer act is left out."""

    def __init__(self, commands: list[list[Any]]) -> None:
        super().__init__(0.0)
        self.commands = [(str(name), dict(action)) for name, action in commands]

    def choose(self, state: GameState, rng: Any,
               only: str | None = None) -> tuple[str, dict[str, Any]]:
        moves = legal_moves(state)
        while self.commands:
            name, action = self.commands[0]
            if name in moves or action["type"] != "pass":
                break
            self.commands.pop(0)  # the engine now ends that turn by itself
        if self.commands and self.commands[0][0] not in moves and len(moves) == 1:
            waiting, theirs = next(iter(moves.items()))
            if any(m["action"] == {"type": "pass"} for m in theirs):
                return waiting, {"type": "pass"}  # the engine now waits for his pass
        return self.commands.pop(0)


def new_player(probing: float) -> SitePlayer:
    return SitePlayer(probing)
