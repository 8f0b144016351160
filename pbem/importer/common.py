"""The translation every title with 1830's turn structure shares: stock rounds with
sell/buy turns, operating rounds with the site's step-by-step passes, and the
bookkeeping of the site's names (certificates, trains, tiles) in the shadow.

Titles subclass ``CommonTranslator``: t1830.Translator1830, t1870.Translator1870.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.auction import unsold
from ..engine.board.map import tile_at
from ..engine.game import REFEREE
from ..engine.market import floated_in_order
from ..engine.ortrack import lay_fields
from ..engine.ortrains import in_emergency
from ..engine.state import IPO, GameState
from ..engine.state import POOL as POOL_HOLDER
from . import ids
from .routes import RouteError, written_stops
from .shadow import GONE, POOL
from .siteflow import site_passes_for
from .sitelog import SiteAction
from .translate import Command, Translator, Unsupported

#: site action types a player makes in a stock round (they end a corporation's turn)
STOCK_TYPES = frozenset({"par", "buy_shares", "sell_shares", "pass", "bid", "buy_company"})


@dataclass
class CommonTranslator(Translator):
    #: printed tile ids that do not start with their hex ("city-2" is 1830's B10)
    printed: dict[str, str] = field(default_factory=dict)
    #: private company -> the certificate its buyer receives (no action in the log)
    free_certs: dict[str, str] = field(default_factory=dict)
    #: (tile, rotation) -> the lay fields naming it (``_lay_fields``)
    placements: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict,
                                                               repr=False)

    # -- implicit commands -------------------------------------------------------------------
    def before(self, state: GameState, site: SiteAction) -> list[Command]:
        if site.get("type") == "end_game":
            return []  # the game ends where it stands
        kind = state.round.get("kind")
        if kind == "operating":
            return self._end_corporation_turn(state, site)
        if kind == "stock":
            return self._end_player_turn(state, site)
        return []

    def _end_corporation_turn(self, state: GameState, site: SiteAction) -> list[Command]:
        """The site moves on to the next corporation (or round) without a ``done`` when
        nothing is left to do; in pbem the president says ``done``."""
        rnd = state.round
        current = rnd.get("current")
        if not current or rnd.get("proposal") or rnd.get("discards"):
            return []
        if site.get("type") == "discard_train":
            return []
        acting = self.acting_corporation(state, site)
        if acting == current:
            if site.get("entity_type") == "corporation" and self.turn_is_over(state, site):
                return [Command(self.president(state, current), {"type": "pass"},
                                "the corporation's turn ended; it operates again")]
            return []
        operated = rnd.get("operated", [])
        if acting is not None and acting in operated:
            waiting = [c for c in floated_in_order(state) if c not in operated and c != current]
            if waiting:
                raise Unsupported(f"the site lets {acting} operate again while "
                                  f"{', '.join(waiting)} have not operated in this round "
                                  "(the operating order differs)")
        if site.get("entity_type") == "player":
            player = self.player(site["entity"])
            if site.get("type") not in STOCK_TYPES:
                return []
            if site.get("type") == "sell_shares" and player == state.president(current) \
                    and in_emergency(state, current):
                return []
        if site.get("entity_type") == "company" and acting is None:
            return []  # MH exchanged by a player: any time
        return [Command(self.president(state, current), {"type": "pass"},
                        "the site ends the turn of a corporation that has nothing left to do")]

    @staticmethod
    def turn_is_over(state: GameState, site: SiteAction) -> bool:
        """The corporation's action belongs to its next turn (the same corporation
        operating first in the next round, with no stock-round action between)."""
        turn, kind = state.round["turn"], site.get("type")
        past = ("run", "dividend", "trains")
        return ((kind == "lay_tile" and (turn["laid"] or turn["step"] in ("token", *past)))
                or (kind == "place_token" and (turn["token"] or turn["step"] in past)
                    and not turn.get("retoken") and turn["step"] != "home")
                or (kind == "run_routes" and turn["run"] is not None)
                or (kind == "dividend" and turn["dividend"] is not None
                    and not CommonTranslator.withheld_nothing(state, site)))

    @staticmethod
    def withheld_nothing(state: GameState, site: SiteAction) -> bool:
        """The site's withhold after a run of nothing, which pbem made with the run."""
        turn = state.round.get("turn") or {}
        return (not state.round.get("connection") and site.get("kind") == "withhold"
                and turn.get("dividend") == "withhold"
                and (turn.get("run") or {}).get("revenue") == 0)

    def _end_player_turn(self, state: GameState, site: SiteAction) -> list[Command]:
        """The site ends a stock-round turn by itself after a purchase when the player
        has nothing left to do; pbem may still wait for his ``pass``."""
        rnd = state.round
        if rnd.get("proposal"):
            return []
        current = rnd["current"]
        if site.get("entity_type") == "company" and site.get("type") == "buy_shares":
            return []  # MH exchanged: any time
        # site_passes_for lists the player's legal moves: asked only where it decides
        if site.get("entity_type") == "player" and self.player(site["entity"]) == current:
            if rnd["turn"]["acted"] and site_passes_for(state, current):
                return [Command(current, {"type": "pass"},
                                "the site ends a turn when nothing is left to do")]
            return []
        if rnd["turn"]["acted"]:
            return [Command(current, {"type": "pass"},
                            "the site ends a turn after a purchase when nothing is left to do")]
        if site_passes_for(state, current):
            return [Command(current, {"type": "pass"},
                            "the site passes for a player who can do nothing else")]
        return []

    def finish(self, state: GameState) -> list[Command]:
        """The log's last action ended the game on the site: the last corporation's turn
        ends by itself (or with the pass pbem turned into nothing)."""
        rnd = state.round
        if state.finished or rnd.get("kind") != "operating" or not rnd.get("current"):
            return []
        return [Command(self.president(state, rnd["current"]), {"type": "pass"},
                        "the last corporation's turn ends with the game")]

    def acting_corporation(self, state: GameState, site: SiteAction) -> str | None:
        kind = site.get("entity_type")
        if kind == "corporation":
            return str(site["entity"])
        if kind == "company":
            owner = self.private_owner(state, str(site["entity"]))
            return owner[2:] if owner.startswith("c:") else None
        return None

    # -- the private auction ---------------------------------------------------------------
    def on_bid(self, state: GameState, site: SiteAction) -> list[Command]:
        player = self.player(site["entity"])
        company, price = site["company"], int(site["price"])
        if state.round.get("auction"):
            return [Command(player, {"type": "bid", "private": None, "amount": price})]
        left = unsold(state)
        if left and company == left[0] and price == state.privates[company].price:
            return [Command(player, {"type": "buy_private", "private": company})]
        return [Command(player, {"type": "bid", "private": company, "amount": price})]

    def on_par(self, state: GameState, site: SiteAction) -> list[Command]:
        corp = site["corporation"]
        self.shadow.leave_ipo(f"{corp}_0")
        return [Command(self.player(site["entity"]), {"type": "par", "corp": corp,
                                                      "price": ids.par_price(site["share_price"])})]

    # -- stock rounds ------------------------------------------------------------------------
    def on_buy_shares(self, state: GameState, site: SiteAction) -> list[Command]:
        shares = list(site["shares"])
        if site.get("entity_type") == "company":
            owner = self.private_owner(state, str(site["entity"]))
            if not owner.startswith("p:"):
                raise Unsupported(f"{site['entity']} is owned by {owner[2:]}, not a player")
            self.shadow.leave_ipo(*shares)
            return [Command(owner[2:], {"type": "exchange", "private": site["entity"]})]
        corp = ids.cert(shares[0])[0]
        sources = {self.source(state, corp, s) for s in shares}
        if len(sources) > 1:
            raise Unsupported("a purchase from the initial offering and the pool at once")
        shares += self._more_brown_shares(state, site, corp, sources)
        self.shadow.leave_ipo(*shares)
        return [Command(self.player(site["entity"]),
                        {"type": "buy_share", "corp": corp, "source": sources.pop(),
                         "count": len(shares)})]

    def source(self, state: GameState, corp: str, share: str) -> str:
        """Where a certificate the site names is: "ipo" or "pool"."""
        in_ipo = IPO in state.corps[corp].certs[1:]
        in_pool = POOL_HOLDER in state.corps[corp].certs
        if in_ipo != in_pool:
            return "ipo" if in_ipo else "pool"
        return "ipo" if self.shadow.in_ipo(share) else "pool"

    def _more_brown_shares(self, state: GameState, site: SiteAction, corp: str,
                           sources: set[str]) -> list[str]:
        """The site buys brown-zone shares one by one; pbem in one purchase (4.4): take in
        the same player's next purchases of the same corporation from the same place."""
        if not state.rules.zone_allows(state.zone(corp), "multi_buy"):
            return []
        more: list[str] = []
        for nxt in self.upcoming:
            if nxt.get("type") != "buy_shares" or nxt.get("entity") != site.get("entity") \
                    or nxt.get("entity_type") != "player":
                break
            if ids.cert(nxt["shares"][0])[0] != corp or \
                    {self.source(state, corp, s) for s in nxt["shares"]} != sources:
                break
            more += list(nxt["shares"])
            self.absorbed += 1
        return more

    def on_sell_shares(self, state: GameState, site: SiteAction) -> list[Command]:
        if site.get("entity_type") != "player":
            raise Unsupported("a corporation selling its own shares")
        corp = ids.cert(site["shares"][0])[0]
        count = int(site["percent"]) // state.rules.ordinary_percent
        return [Command(self.player(site["entity"]),
                        {"type": "sell", "sales": [{"corp": corp, "count": count}]})]

    def on_pass(self, state: GameState, site: SiteAction) -> list[Command]:
        if site.get("entity_type") == "corporation":
            # The site passes step by step (track, station, trains...); pbem's turn goes
            # on by itself, and ``done`` is said when the next entity acts (before()).
            return []
        player = self.player(site["entity"])
        rnd = state.round
        if rnd.get("kind") == "stock" and rnd["current"] != player \
                and rnd.get("last_actor") == player and not rnd["turn"]["acted"] \
                and rnd["current"] == state.left_of(player):
            return []  # pbem ended the turn after the purchase already
        return [Command(player, {"type": "pass"})]

    # -- operating rounds --------------------------------------------------------------------
    def _corp_actor(self, state: GameState, site: SiteAction) -> tuple[str, str | None]:
        """The president acting and the private company used (None: the corporation)."""
        corp = self.acting_corporation(state, site)
        if corp is None:
            raise Unsupported(f"{site['entity']} is not owned by a corporation")
        using = str(site["entity"]) if site.get("entity_type") == "company" else None
        return self.president(state, corp), using

    def on_lay_tile(self, state: GameState, site: SiteAction) -> list[Command]:
        actor, using = self._corp_actor(state, site)
        name = self.tile_name(site["tile"])
        fields = self._lay_fields(state, name, int(site["rotation"]))
        return [Command(actor, {"type": "lay", "tile": name, "hex": site["hex"],
                                **fields, "with": using})]

    def _lay_fields(self, state: GameState, name: str, rotation: int) -> dict[str, Any]:
        """The sides a lay of tile ``name`` at ``rotation`` names, or the track where the
        sides alone do not say it (tile 25): ortrack.lay_fields, worked out once for each
        (the translator's title has one map), in new lists for each command."""
        found = self.placements.get((name, rotation))
        if found is None:
            tile = state.map.tiles.get(name)
            if tile is None:
                raise Unsupported(f"there is no tile {name} in {state.title}")
            found = self.placements[name, rotation] = lay_fields(tile, rotation,
                                                                  list(range(6)))
        fields = {"exits": list(found["exits"])}
        if "paths" in found:
            fields["paths"] = [list(pair) for pair in found["paths"]]
        return fields

    def on_place_token(self, state: GameState, site: SiteAction) -> list[Command]:
        actor, using = self._corp_actor(state, site)
        coord, stop = self.shadow.city_hex(site["city"], self.printed)
        tile, _ = tile_at(state.map, state.board, coord)
        city = stop + 1 if len(tile.cities()) > 1 else None
        owner = str(site.get("tokener") or site["entity"])
        retoken = state.round.get("turn", {}).get("retoken")
        if not retoken and (coord, stop) in state.board.stations(owner):
            return []  # a station the site re-places where pbem already has it
        return [Command(actor, {"type": "token", "hex": coord, "city": city, "with": using})]

    def on_run_routes(self, state: GameState, site: SiteAction) -> list[Command]:
        corp = str(site["entity"])
        routes = []
        for route in site.get("routes") or []:
            try:
                stops = written_stops(state, route)
            except RouteError as exc:
                raise Unsupported(str(exc)) from None
            routes.append({"train": ids.train(route["train"])[0], "stops": stops})
        # no route at all: "run nothing" (legal when nothing can be earned, or with the
        # site's best_run=free); pbem then withholds the $0 by itself
        return [Command(self.president(state, corp), {"type": "run", "routes": routes})]

    def on_dividend(self, state: GameState, site: SiteAction) -> list[Command]:
        if self.withheld_nothing(state, site):
            return []  # a run of nothing: pbem withheld the $0 with the run already
        return [Command(self.president(state, str(site["entity"])), {"type": site["kind"]})]

    def on_buy_train(self, state: GameState, site: SiteAction) -> list[Command]:
        corp = str(site["entity"])
        train = site["train"]
        name = ids.train(train)[0]
        where = self.shadow.train_at(train)
        trade = ids.train(site["exchange"])[0] if site.get("exchange") else None
        price = int(site["price"])
        if where in ("bank", POOL):
            listed = state.rules.train(name).price
            if trade:
                listed = state.rules.train(name).extra.get("trade_in", {}).get("price", listed)
            if price != listed:
                raise Unsupported(f"the site paid ${price} for a {name}-train that costs "
                                  f"${listed} in pbem")
            action: dict[str, Any] = {"type": "buy_train", "train": name, "source": where,
                                      "price": None, "trade": trade}
        elif where == GONE:
            raise Unsupported(f"train {train} is no longer in play")
        else:
            action = {"type": "buy_train", "train": name, "source": where, "price": price,
                      "trade": None}
        return [Command(self.president(state, corp), action)]

    def on_discard_train(self, state: GameState, site: SiteAction) -> list[Command]:
        corp = str(site["entity"])
        return [Command(self.president(state, corp),
                        {"type": "discard", "train": ids.train(site["train"])[0]})]

    def on_buy_company(self, state: GameState, site: SiteAction) -> list[Command]:
        if site.get("entity_type") == "player":  # from another player, in a stock round
            seller = self.private_owner(state, site["company"])
            if not seller.startswith("p:"):
                raise Unsupported(f"{site['company']} is not owned by a player")
            return [Command(self.player(site["entity"]),
                            {"type": "buy_private", "private": site["company"],
                             "from": seller[2:], "price": int(site["price"])})]
        corp = str(site["entity"])
        owner = self.private_owner(state, site["company"])
        if not owner.startswith("p:"):
            raise Unsupported(f"{site['company']} is not owned by a player")
        return [Command(self.president(state, corp),
                        {"type": "buy_private", "private": site["company"], "from": owner[2:],
                         "price": int(site["price"])})]

    def on_bankrupt(self, state: GameState, site: SiteAction) -> list[Command]:
        corp = str(site["entity"])
        return [Command(self.president(state, corp), {"type": "bankrupt"})]

    def on_end_game(self, state: GameState, site: SiteAction) -> list[Command]:
        """The game ended by hand (on the site any player may): the referee's end game."""
        return [Command(REFEREE, {"type": "end_game"})]

    # -- the shadow -------------------------------------------------------------------------
    def after(self, state: GameState, site: SiteAction) -> None:
        kind = site.get("type")
        shadow = self.shadow
        for sym, cert in self.free_certs.items():
            owner = state.privates[sym].owner
            if owner != "bank" and shadow.in_ipo(cert):
                shadow.hold(owner if owner.startswith("p:") else "pool", cert)
        self._certificates(state, site)
        if kind == "lay_tile":
            shadow.lay(site["hex"], site["tile"])
        elif kind == "buy_train":
            if site.get("exchange"):
                shadow.move_train(site["exchange"], POOL)
            shadow.move_train(site["train"], str(site["entity"]))
            self._rust(state)
        elif kind == "discard_train":
            shadow.move_train(site["train"], POOL)

    def _certificates(self, state: GameState, site: SiteAction) -> None:
        """Who holds each certificate the site names (a redemption names the one it takes)."""
        kind, shadow = site.get("type"), self.shadow
        entity, entity_type = site.get("entity"), site.get("entity_type")
        if kind == "par":
            shadow.hold("p:" + self.player(entity), f"{site['corporation']}_0")
        elif kind == "buy_shares":
            if entity_type == "player":
                shadow.hold("p:" + self.player(entity), *site["shares"])
            elif entity_type == "corporation":
                shadow.hold(f"c:{entity}", *site["shares"])
            elif entity_type == "company":
                owner = state.privates[str(entity)].owner
                shadow.hold(owner if owner.startswith("p:") else "pool", *site["shares"])
        elif kind == "sell_shares":
            if entity_type == "corporation":  # a reissue: back to the initial offering
                shadow.hold("ipo", *shadow.held_by(f"c:{entity}"))
            else:
                shadow.hold("pool", *site["shares"])
        if kind in ("buy_shares", "sell_shares", "bankrupt"):
            self._presidents(state)

    def _presidents(self, state: GameState) -> None:
        """A change of president swaps certificates: the president's certificate goes to
        the new president, two of his ordinary ones to the old (which two, the log does
        not say)."""
        shadow = self.shadow
        for corp, company in state.corps.items():
            president = company.certs[0]  # the holder of the president's certificate
            old = shadow.holders.get(f"{corp}_0")
            if not president.startswith("p:") or old is None or old == president:
                continue
            mine = [s for s in shadow.held_by(president) if s.startswith(corp + "_")
                    and s != f"{corp}_0"]
            shadow.hold(old, *mine[:state.rules.president_percent
                                   // state.rules.ordinary_percent])
            shadow.hold(president, f"{corp}_0")

    def _rust(self, state: GameState) -> None:
        """Trains pbem has scrapped are gone on the site too."""
        for name, count in state.trains_scrapped.items():
            if count:
                gone = [t for t, where in self.shadow.trains.items()
                        if ids.train(t)[0] == name and where != GONE]
                in_play = sum(c.trains.count(name) for c in state.corps.values())
                in_play += state.pool_trains.count(name)
                if in_play == 0:
                    for train in gone:
                        self.shadow.move_train(train, GONE)
