"""1870: site actions -> pbem commands.

The stock and operating rounds are translated as 1830's (common.CommonTranslator);
1870 adds price protection (the president's ``buy_shares`` of the sold certificates is
``protect``, his ``pass`` ``decline``), redemption (a corporation's ``buy_shares``) and
reissue (its ``sell_shares``), the cattle and port tokens (``assign``), the
destination marker (``choose``: Map or Charter) and connection runs (announced by the
``destination_connection`` auto action), half dividends, and the 1870 privates whose
symbols are also corporations' (``SLSF``, ``MKT``: the field says which).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.orrun import fewest_stops
from ..engine.state import POOL as POOL_HOLDER
from ..engine.state import GameState
from ..engine.titles.t1870 import connection
from ..engine.titles.t1870.connection import eligible
from . import ids
from .common import CommonTranslator
from .sitelog import SiteAction
from .translate import Command, ReadingDiffers, Unsupported

#: certificates a private company brings with it when bought (no action in the log)
FREE_CERTS_1870 = {"MKT": "MKT_1", "SLSF": "SLSF_0"}

#: the connection check the log's record needs when it was played before mid-2021
TRACK_READING = {"connection_check": "track"}

def asks_connections(state: GameState, facts: list[dict[str, Any]]) -> bool:
    """Whether the command whose stored facts these are, on ``state`` (the game before
    it), may have asked which companies can make a connection run
    (``connection.eligible``, the only reader of ``connection_check``). pbem asks in an
    operating round after a company's turn, then begins the next one (the round's
    ``current`` changes: the next company, or none when the round ends) or a connection
    run (``connection`` changes); at an operating round's start (a new round, then the
    first company or a run); after a connection run (``connection`` changes). Every ask
    is followed by one of these facts, or the game's end (tests/test_import_1870.py
    checks it on every 1870 log)."""
    operating = state.round.get("kind") == "operating"
    for fact in facts:
        kind = fact.get("f")
        if kind in ("round_new", "game_over"):
            return True
        if kind == "round_set" and ("connection" in fact["values"] or (
                operating and "current" in fact["values"])):
            return True
    return False


#: kinds of fact after which connection_check_matters answers as before: they change
#: only the round (round_new, round_set), some holder's cash (cash) or the priority
#: (priority), none of which it reads
CONNECTION_CHECK_UNREAD = frozenset({"round_new", "round_set", "cash", "priority"})
#: fields of a company it does not read either (a ``corp`` fact setting only these)
UNREAD_CORP_FIELDS = frozenset({"operated", "funded"})


def connection_check_unread(fact: dict[str, Any]) -> bool:
    """Whether connection_check_matters answers as before after this (stored) fact."""
    kind = fact.get("f")
    return kind in CONNECTION_CHECK_UNREAD or (
        kind == "corp" and UNREAD_CORP_FIELDS.issuperset(fact.get("values") or {"?"}))


def connection_check_matters(state: GameState) -> bool:
    """Whether ``connection.eligible`` may answer otherwise under the two values of
    ``connection_check`` in this state: for no company, unless one may connect
    (``connection.may_connect``: else both answer no), its longest train has a length
    (else both ask of a train of any length) and a walk along the track joins its home
    to its destination (``fewest_stops`` with no bound): both answer yes only with one,
    the train's reading asking that walk first (bounded by the train: a walk within the
    bound is a walk), the track's reading a route from home to the destination (a
    route is a walk). Stepped through a command's facts, a state for which this is
    false at every step is one whose asks answer the same (Replay.reread)."""
    for corp in state.corps:
        if not connection.may_connect(state, corp) or \
                connection.longest_train(state, corp)[1] is None:
            continue
        home = connection.home_stop(state, corp)
        assert home is not None  # may_connect
        if fewest_stops(state.map, state.board, home, connection.destination_stops(state, corp),
                        corp, None) is not None:
            return True
    return False

#: the site's destination choice -> pbem's ``destination`` marker word
MARKER_CHOICES = {"Map": "place", "Charter": "keep"}


@dataclass
class Translator1870(CommonTranslator):
    free_certs: dict[str, str] = field(default_factory=lambda: dict(FREE_CERTS_1870))
    may_reread: frozenset[str] = frozenset({"destination_connection"})

    # -- implicit commands -------------------------------------------------------------------
    def before(self, state: GameState, site: SiteAction) -> list[Command]:
        if state.round.get("protection") or state.round.get("connection"):
            return []  # a president answers an offer / a connection run is under way
        return super().before(state, site)

    def tile_name(self, tile_id: str) -> str:
        """The site names the gray tiles by number and label ("171K-0"), pbem by number."""
        return super().tile_name(tile_id).rstrip("KL")

    # -- price protection, redemption, reissue -------------------------------------------------
    def on_buy_shares(self, state: GameState, site: SiteAction) -> list[Command]:
        offer = state.round.get("protection")
        if site.get("entity_type") == "corporation":
            return self._redeem(state, site)
        if offer and site.get("entity_type") == "player" \
                and self.player(site["entity"]) == offer["president"]:
            corp = ids.cert(site["shares"][0])[0]
            if corp != offer["corp"]:
                raise Unsupported(f"the site protects {corp}, pbem offers {offer['corp']}")
            self._more_protected(site, offer)
            return [Command(offer["president"], {"type": "protect", "corp": corp})]
        return super().on_buy_shares(state, site)

    def _more_protected(self, site: SiteAction, offer: dict[str, Any]) -> None:
        """Should the site buy the protected shares one by one, the one ``protect`` takes
        in the president's next purchases of them."""
        count = len(site["shares"])
        for nxt in self.upcoming:
            if count >= int(offer["count"]) or nxt.get("type") != "buy_shares" \
                    or nxt.get("entity") != site.get("entity") \
                    or ids.cert(nxt["shares"][0])[0] != offer["corp"]:
                break
            count += len(nxt["shares"])
            self.absorbed += 1

    def _redeem(self, state: GameState, site: SiteAction) -> list[Command]:
        corp = str(site["entity"])
        shares = list(site["shares"])
        if any(ids.cert(s)[0] != corp for s in shares) or len(shares) != 1:
            raise Unsupported(f"{corp} buys {', '.join(shares)}: a redemption is one share of "
                              "its own")
        president = self.president(state, corp)
        holder = self.shadow.holder(shares[0])
        if holder == "pool" or POOL_HOLDER in state.corps[corp].certs:
            return [Command(president, {"type": "redeem", "corp": corp})]
        if not holder.startswith("p:"):
            raise Unsupported(f"{corp} redeems {shares[0]}, which is in {holder}")
        return [Command(president, {"type": "redeem", "corp": corp, "from": holder[2:]})]

    def on_sell_shares(self, state: GameState, site: SiteAction) -> list[Command]:
        if site.get("entity_type") == "corporation":
            corp = str(site["entity"])
            return [Command(self.president(state, corp), {"type": "reissue", "corp": corp})]
        return super().on_sell_shares(state, site)

    def on_pass(self, state: GameState, site: SiteAction) -> list[Command]:
        offer = state.round.get("protection")
        if offer and site.get("entity_type") == "player" \
                and self.player(site["entity"]) == offer["president"]:
            return [Command(offer["president"], {"type": "decline"})]
        if state.round.get("connection") and site.get("entity_type") == "corporation":
            return []
        return super().on_pass(state, site)

    # -- privates' tokens -----------------------------------------------------------------------
    def on_assign(self, state: GameState, site: SiteAction) -> list[Command]:
        sym = str(site["entity"])
        actor, _ = self._corp_actor(state, site)
        coord = str(site["target"])
        if sym == "SCC":
            return [Command(actor, {"type": "cattle", "hex": coord})]
        if sym == "GSC":
            placed = state.board.markers.get("port")
            closed = placed is not None and placed.get("hex") == coord
            nxt = self.upcoming[0] if self.upcoming else {}
            if placed is None and nxt.get("type") == "assign" and nxt.get("entity") == "GSC" \
                    and nxt.get("target") == coord:
                closed = True  # the site's open port closed at once: the closed port
                self.absorbed += 1
            port: dict[str, Any] = {"type": "port", "hex": coord}
            if closed:
                port["closed"] = True
            return [Command(actor, port)]
        raise Unsupported(f"pbem knows no assign by {sym}")

    # -- connection runs ------------------------------------------------------------------------
    def on_destination_connection(self, state: GameState, site: SiteAction) -> list[Command]:
        """The site checks for connection runs when a turn ends (and the next begins): a
        corporation listed makes its run now; pbem needs the operating one's ``done``."""
        wanted = list(site.get("corporations") or [])
        rnd = state.round
        if not wanted or rnd.get("connection") or rnd.get("kind") != "operating":
            return []
        current = rnd.get("current")
        if current is not None and current == str(site["entity"]):
            return [Command(self.president(state, current), {"type": "pass"},
                            "the site ends the turn before the connection run")]
        return []

    def verify(self, state: GameState, site: SiteAction) -> None:
        if site.get("type") != "destination_connection":
            return
        wanted = list(site.get("corporations") or [])
        conn = state.round.get("connection")
        if wanted and (conn is None or conn["corp"] != wanted[0]):
            found = f"{conn['corp']}'s" if conn else "no"
            problem = (f"the site makes {', '.join(wanted)}'s connection run now, pbem "
                       f"{found} connection run")
            if conn is None and self._connected_by_track(state, wanted[0]):
                raise ReadingDiffers(problem + " (its trains cannot run from home to the "
                                     "destination; track joins them)", TRACK_READING)
            raise Unsupported(problem)

    @staticmethod
    def _connected_by_track(state: GameState, corp: str) -> bool:
        """Whether the reading of 18xx.games in early 2021 made ``corp`` eligible:
        track joins its home and destination, whatever its trains."""
        if state.options.get("connection_check", "train") == "track":
            return False
        trial = state.clone()
        trial.options = {**state.options, **TRACK_READING}
        return eligible(trial, corp)

    def on_choose(self, state: GameState, site: SiteAction) -> list[Command]:
        choice = str(site.get("choice"))
        if choice not in MARKER_CHOICES:
            raise Unsupported(f"pbem knows no choice {choice!r}")
        conn = state.round.get("connection")
        if conn is None:
            raise Unsupported("the site chooses a destination marker, pbem has no connection "
                              "run under way")
        if conn["step"] != "marker":
            return []  # pbem kept the marker by itself (a station at the destination)
        return [Command(self.president(state, conn["corp"]),
                        {"type": "destination", "marker": MARKER_CHOICES[choice]})]
