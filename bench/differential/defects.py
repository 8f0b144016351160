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

from pbem.engine.shares import certificate_limit
from pbem.engine.state import POOL, GameState, player_holder
from pbem.engine.titles.t1870.protection import certificate_problem, certificates_if_protected

BUNDLE_ERROR = "A share bundle must contain at least one share"


def redemption_list_fails(before: GameState, site_action: dict[str, Any], error: str) -> bool:
    """Whether the site's refusal of a redemption is that defect, judged on pbem's state
    before the command."""
    if BUNDLE_ERROR not in error or site_action.get("type") != "buy_shares" or \
            site_action.get("entity_type") != "corporation":
        return False
    return players_list_fails(before, str(site_action["entity"]))


def players_list_fails(state: GameState, corp: str) -> bool:
    """Whether the site's list of the shares ``corp`` may redeem fails now (above): no
    open-market share, and a president holding only his certificate while the largest
    other holder has less.  The runner's players leave such redemptions out."""
    c = state.corps.get(corp)
    president = state.president(corp) if c is not None else None
    if c is None or president is None or POOL in c.certs[1:]:
        return False  # the site lists the open market's share first: no player's list
    holder = player_holder(president)
    own = state.percent(corp, holder)
    others = [state.percent(corp, player_holder(n)) for n in state.names if n != president]
    only_certificate = [i for i, h in enumerate(c.certs) if h == holder] == [0]
    return only_certificate and own != max([p for p in others if p] or [0])


# -- a company in the closing section closes late ------------------------------------------
#
# 1870: a company whose token enters the closing section closes (Share Values, p.7), on
# the site at the end of the action that moved it (``Game::Base#action_processed`` calls
# ``close_corporations_in_close_cell!``).  When one action declines several price
# protections (``PriceProtection#skip!`` passes for every president who cannot protect),
# a company an earlier pass took into the closing section is still open while the later
# presidents are judged: its certificates count toward their limit, and the limit is
# still that of the companies before it closed.  The site then skips a president who has
# room by the rules (1870 seed 4015: IC, sold by its own president, entered the closing
# section; Cat, with two IC shares, was judged over the limit for SP's protection).


def closing_late(before: GameState, after: GameState, closed: list[str],
                 site_log: list[str]) -> bool:
    """Whether pbem's protection offer in ``after`` is one the site skipped ("cannot
    price protect") only because ``closed`` (companies this command closed) were still
    open there."""
    sale = after.round.get("protection")
    if not sale or not closed:
        return False
    president, corp = sale["president"], sale["corp"]
    skipped = f"{president} can't price protect"
    if not any(line.startswith(skipped) and line.endswith(f" of {corp}") for line in site_log):
        return False
    holder = player_holder(president)
    still_open = sum(before.corps[c].certs.count(holder) for c in closed)
    if certificate_problem(after, president, sale) is not None:
        return False  # pbem would not offer it either
    count = certificates_if_protected(after, president, sale) + still_open
    return count > certificate_limit(before)


# -- a protection bought back by the president who lost the presidency by the sale --------
#
# 1870 with protect_own_forced_sale=yes (the site's reading): a president's forced sale
# in an operating round that passes his presidency to another player is offered for
# protection to him, the president at the sale (the site's ``sell_queue`` keeps
# ``bundle.corporation.owner`` as it was).  If he protects, the site transfers the sale's
# bundle as it was made, its part of the president's certificate included, which the new
# president now holds: the new president loses his certificate without being paid, the
# shares he gave the seller for it stay in the open market (1870 seed 7148 of run 6: Ann
# sold 30% of GMO and Cat became president; protecting, Ann became president again with
# 30%, Cat left with nothing, 50% in the open market).  pbem gives the seller the shares
# sold back and hands the presidency over by the rules (5.4).


def protection_after_presidency_lost(before: GameState, action: dict[str, Any]) -> bool:
    """Whether ``action`` (played on ``before``) protects a sale whose seller's
    presidency it passed to another player."""
    sale = before.round.get("protection")
    if not sale or action.get("type") != "protect":
        return False
    return bool(before.president(sale["corp"]) != sale["president"])
