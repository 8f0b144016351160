"""Refusals explained by a defect of the site's engine, other than its stale route graph
(stale.py).

The redemption of a share from a player (1870 Share Redemption, p.17): the site lists
the shares a company may redeem (``G1870 BuySellParShares#redeemable_shares``) as one
share of each player holding some, leaving out the president when he holds as much as
the largest other holder; for the president it takes his first share that is not the
president's certificate.  A president who holds only his president's certificate while
every other player holds less has no such share, and the list's ``ShareBundle.new(nil)``
raises "A share bundle must contain at least one share": the site then refuses every
redemption of that company from a player, while the rules allow it from any player
holding a share (1870 seeds 5044, 6010: SLSF, Dan holding only his 20% certificate,
the other players 10% each, redeeming Ben's share).
"""

from __future__ import annotations

from typing import Any

from pbem.engine.state import POOL, GameState, player_holder

BUNDLE_ERROR = "A share bundle must contain at least one share"


def redemption_list_fails(before: GameState, site_action: dict[str, Any], error: str) -> bool:
    """Whether the site's refusal of a redemption is that defect, judged on pbem's state
    before the command."""
    if BUNDLE_ERROR not in error or site_action.get("type") != "buy_shares" or \
            site_action.get("entity_type") != "corporation":
        return False
    corp = str(site_action["entity"])
    c = before.corps.get(corp)
    president = before.president(corp) if c is not None else None
    if c is None or president is None or POOL in c.certs[1:]:
        return False  # the site lists the open market's share first: no player's list
    holder = player_holder(president)
    own = before.percent(corp, holder)
    others = [before.percent(corp, player_holder(n)) for n in before.names if n != president]
    only_certificate = [i for i, h in enumerate(c.certs) if h == holder] == [0]
    return only_certificate and own != max([p for p in others if p] or [0])
