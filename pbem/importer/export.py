"""A pbem game as an 18xx.games log (``pbem export GAME --format 18xx``).

The game's effective events are walked with the state before each command; each
command becomes the site action(s) that do the same, named as the site names things
(certificates, tile copies, trains, cities; see sitenames).  Steps the site asks to be
passed explicitly (a corporation that lays no tile, places no station it could, or
buys no train it could) get a ``pass``; consent (``accept``) is not a site action.
docs/18xx-games.md says what cannot be carried over.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from .. import service
from ..engine import orrun
from ..engine.board.map import tile_at
from ..engine.board.written import check_run
from ..engine.facts import Fact, Record
from ..engine.game import apply_facts
from ..engine.operating import train_moves
from ..engine.state import GameState
from ..engine.title import load_title
from ..render.recent import is_public
from ..store import Store, open_store
from .options import options_the_site_lacks, site_rules
from .sitecerts import SiteCerts
from .siteflow import (
    site_company_step_open,
    site_offers_more,
    site_passes_for,
    site_track_open,
    station_offered,
)
from .sitenames import SiteNames, removed_copies, site_train_order

SiteAction = dict[str, Any]
#: pbem's tile names the site names otherwise (1870's gray tiles carry their label)
SITE_TILES = {"1870": {"171": "171K", "172": "172L"}}
#: ordinary shares a private company brings its buyer (the site's ``shares`` ability)
FREE_SHARES = {"1830": {"CA": "PRR_1"}, "1870": {"MKT": "MKT_1"}}
END_REASONS = {"bank": "bank", "bankruptcy": "bankrupt", "manual": "manually_ended",
               "stock_market": "stock_market"}


class ExportError(Exception):
    """A pbem game the site's format cannot express."""


def unix(text: str) -> int:
    try:
        return int(datetime.fromisoformat(text).timestamp())
    except (TypeError, ValueError):
        return 0


class Exporter:
    """Writes pbem commands as site actions, one command at a time (``step``), from the
    state before the game's first command; ``from_store`` walks a stored game."""

    def __init__(self, game: dict[str, Any], players: list[dict[str, Any]],
                 state: GameState) -> None:
        self.game = game  # id, title, options, seed
        self.players = players  # name, seat
        self.ids = {p["name"]: p["seat"] + 1 for p in self.players}
        self.state = state
        self.names = SiteNames(self.game["title"],
                               removed=removed_copies(self.game["title"], state.options))
        rules = state.rules
        self.certs = SiteCerts.new({sym: len(c.certs) for sym, c in state.corps.items()},
                                   rules.president_percent, rules.ordinary_percent)
        #: the last purchase of shares: (player, corporation, "ipo"/"pool", count)
        self.last_buy: tuple[str, str, str, int] | None = None
        #: 1870: the certificates of each corporation's last sale (price protection)
        self.last_sale: dict[str, list[str]] = {}
        self.actions: list[SiteAction] = []
        self.events: list[dict[str, Any]] = []
        self.now = 0
        self.named: set[int] = set()  # positions of the command's train facts named so far
        #: the operating turns whose track step the site has ended ((sr, index, corp)):
        #: a tile-laying private company bought later does not open it again
        self.track_ended: set[tuple[Any, Any, str]] = set()

    @classmethod
    def from_store(cls, store: Store, game_id: int) -> Exporter:
        exporter = cls(store.game(game_id), store.players(game_id),
                       service.initial(store, game_id))
        exporter.events = store.effective_events(game_id)
        return exporter

    # -- writing actions ---------------------------------------------------------------------
    def add(self, type_: str, entity: Any, entity_type: str, **fields: Any) -> None:
        self.actions.append({"type": type_, "entity": entity, "entity_type": entity_type,
                             "id": len(self.actions) + 1, "created_at": self.now, **fields})

    def player(self, type_: str, name: str, **fields: Any) -> None:
        self.add(type_, self.ids[name], "player", **fields)

    def corp(self, type_: str, corp: str, **fields: Any) -> None:
        self.add(type_, corp, "corporation", **fields)

    # -- the walk ----------------------------------------------------------------------------
    def run(self) -> dict[str, Any]:
        for event in self.events:
            self.now = unix(event["received"])
            command = event.get("command") or {}
            if command.get("type") == "say":
                if is_public(event):  # the site's chat is public: private talk stays out
                    self.player("message", event["actor"], message=command.get("text", ""))
                apply_facts(self.state, event["facts"])
            elif event["kind"] == "command":
                self.step(event["actor"], command, event["facts"])
            else:
                apply_facts(self.state, event["facts"])
        return self.document()

    def step(self, actor: str, command: dict[str, Any],
             decided: Sequence[Fact | Record]) -> list[SiteAction]:
        """Write one command decided on the exporter's state (``decided``: its facts, or
        their records as stored), then apply it; returns the site actions written."""
        facts = [f.to_json() if isinstance(f, Fact) else dict(f) for f in decided]
        first = len(self.actions)
        self.command(actor, command, facts)
        apply_facts(self.state, facts)
        self.free_certificates(facts)
        self.note_track_ended()
        return self.actions[first:]

    def turn_key(self) -> tuple[Any, Any, str] | None:
        rnd = self.state.round
        if rnd.get("kind") != "operating" or not rnd.get("current"):
            return None
        return rnd.get("sr"), rnd.get("index"), str(rnd["current"])

    def note_track_ended(self) -> None:
        key = self.turn_key()
        if key is not None and not site_track_open(self.state, key[2]):
            self.track_ended.add(key)

    def track_open(self, corp: str) -> bool:
        """The site's track step of ``corp``'s turn still waits for a lay or a pass."""
        return self.turn_key() not in self.track_ended and site_track_open(self.state, corp)

    def free_certificates(self, facts: list[Record]) -> None:
        """A private company bought by a player brings its ordinary share with it (1830
        CA: PRR_1, 1870 MKT: MKT_1); a president's certificate comes with the par."""
        for fact in facts:
            if fact["f"] != "private" or not fact["owner"].startswith("p:"):
                continue
            share = FREE_SHARES.get(self.game["title"], {}).get(fact["sym"])
            if share and self.certs.holder_of(share) == "ipo":
                self.certs.move(share, fact["owner"])

    def transfer(self, corp: str, shares: list[str], to: str, percent: int,
                 facts: list[Record]) -> None:
        """Move ``shares`` in the site's certificates, swapping the president's
        certificate as the site does when ``facts`` change the president."""
        before = self.state.corps[corp].certs[0]
        after = self.state.clone()
        apply_facts(after, facts)
        now = after.corps[corp].certs[0]
        self.certs.transfer(corp, shares, to, percent,
                            before if before.startswith("p:") else None,
                            now if now.startswith("p:") else None)

    def command(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        kind = action["type"]
        handler = getattr(self, "on_" + kind, None)
        if handler is None:
            raise ExportError(f"a {kind!r} command cannot be written as an 18xx.games action")
        self.before_operating(kind, facts)
        self.named = set()
        connecting = (self.state.round.get("connection") or {}).get("corp")
        # (1870: a turn over whose forced sales wait for price protection still counts)
        operating = self.state.round.get("current") or self.state.round.get("protection_turn")
        handler(actor, action, facts)
        self.name_trains(facts, len(facts))
        self.connection_check(connecting, operating, facts)

    def connection_check(self, before: str | None, operating: str | None,
                         facts: list[Record]) -> None:
        """1870: the site announces the connection runs with a ``destination_connection``
        auto action of the action after which the first starts, naming every company
        that makes one then (differential 1870 seed 6036: IC and SSW)."""
        if self.game["title"] != "1870" or not self.actions \
                or not any(f["f"] in ("round_set", "round_new") for f in facts):
            return
        after = self.state.clone()
        apply_facts(after, facts)
        conn = after.round.get("connection") or {}
        corp = conn.get("corp")
        if corp is not None and before is None:
            # the site names every company that can connect at once (CheckConnection),
            # and nothing when the next of them begins its run
            entity = operating or corp
            corps = [corp] + list(conn.get("queue") or [])
        elif operating and after.round.get("kind") == "operating" \
                and after.round.get("current") not in (None, operating):
            entity, corps = after.round["current"], []  # a turn ended, the next begins
        else:
            return
        self.actions[-1].setdefault("auto_actions", []).append(
            {"type": "destination_connection", "entity": entity,
             "entity_type": "corporation", "created_at": self.now, "corporations": corps})

    def name_trains(self, facts: list[Record], upto: int) -> dict[int, str]:
        """The site ids of the trains the facts before ``upto`` move (each named once)."""
        found = {}
        for i in site_train_order(self.game["title"], facts[:upto]):
            if i not in self.named:
                fact = facts[i]
                self.named.add(i)
                found[i] = self.names.move_train(fact["name"], fact["source"], fact["dest"])
        return found

    # -- the private auction and stock rounds ----------------------------------------------
    def on_buy_private(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        if action.get("from"):  # a corporation buys a private company
            self.buy_company(action, facts)
            return
        sym = next(f["sym"] for f in facts if f["f"] == "private")
        self.player("bid", actor, company=sym, price=self.state.privates[sym].price)

    def on_bid(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        sym = action.get("private") or self.state.round["auction"]["private"]
        self.player("bid", actor, company=sym, price=action["amount"])

    def on_pass(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        rnd = self.state.round
        if rnd.get("kind") == "operating":
            corp = rnd["current"]
            if any(f["f"] == "corp_closed" and f["corp"] == corp for f in facts):
                return  # 1870: it closed at its dividend step; the site goes on by itself
            for _ in range(self.steps_left(corp)):
                self.corp("pass", corp)
            return
        if rnd.get("kind") == "stock" and self.only_pass(actor):
            return  # the site passes by itself for a player who can do nothing else
        self.player("pass", actor)

    def only_pass(self, actor: str) -> bool:
        """The site passes by itself for a player it offers nothing but a pass (not after
        a brown-zone purchase while one more share could be bought)."""
        return site_passes_for(self.state, actor) and not self.more_to_buy(actor)

    def more_to_buy(self, actor: str) -> bool:
        bought = self.last_buy
        rnd = self.state.round
        if bought is None or bought[0] != actor or rnd.get("kind") != "stock" or \
                rnd.get("current") != actor or not rnd["turn"].get("bought"):
            return False
        _, corp, source, count = bought
        return site_offers_more(self.state, actor, corp, source)

    def on_par(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        cell = next(f for f in facts if f["f"] == "par")
        corp = action["corp"]
        self.player("par", actor, corporation=corp,
                    share_price=f"{cell['price']},{cell['row']},{cell['col']}")
        if self.certs.holder_of(f"{corp}_0") == "ipo":
            self.certs.move(f"{corp}_0", f"p:{actor}")

    def on_buy_share(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        """One ``buy_shares`` per certificate (the site buys brown-zone shares one by one);
        a change of president comes with the last."""
        corp, holder = action["corp"], f"p:{actor}"
        bought = [f for f in facts if f["f"] == "cert" and f["to"] == holder and f["index"] > 0]
        for i, fact in enumerate(bought):
            share = self.certs.to_buy(corp, fact_source(self.state, fact))
            self.player("buy_shares", actor, shares=[share],
                        percent=self.state.rules.ordinary_percent)
            self.transfer(corp, [share], holder, self.state.rules.ordinary_percent,
                          facts if i == len(bought) - 1 else [])
        source = action.get("source") or "ipo"
        self.last_buy = (actor, corp, source, len(bought))
        after = self.state.clone()
        apply_facts(after, facts)
        rnd = after.round
        turn_over = not (rnd.get("kind") == "stock" and rnd.get("current") == actor
                         and not rnd.get("protection"))
        if turn_over and site_offers_more(after, actor, corp, source):
            self.player("pass", actor)  # pbem ended the turn; the site waits

    def on_sell(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        holder = f"p:{actor}"
        for sale in action["sales"]:
            corp, count = sale["corp"], sale["count"]
            shares = self.certs.to_sell(corp, holder, count)
            percent = count * self.state.rules.ordinary_percent
            self.player("sell_shares", actor, shares=shares, percent=percent)
            self.transfer(corp, shares, "pool", percent, facts)
            self.last_sale[corp] = [s for s in shares if self.certs.holder_of(s) == "pool"]

    # -- 1870: price protection, redemption, reissue ---------------------------------------
    def on_protect(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        """The site's protection is the president's purchase of the shares sold."""
        corp = next(f["corp"] for f in facts if f["f"] == "cert")
        count = sum(1 for f in facts if f["f"] == "cert" and f["to"] == f"p:{actor}")
        shares = [s for s in self.last_sale.get(corp, [])
                  if self.certs.holder_of(s) == "pool"][:count]
        shares += [s for s in self.certs.ordinary(corp, "pool") if s not in shares][
            :count - len(shares)]
        percent = len(shares) * self.state.rules.ordinary_percent
        self.player("buy_shares", actor, shares=shares, percent=percent)
        self.transfer(corp, shares, f"p:{actor}", percent, facts)

    def on_redeem(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        if any(f["f"] == "cert" for f in facts):  # else it waits for the seller's accept
            self.redeemed(action["corp"], facts)

    def redeemed(self, corp: str, facts: list[Record]) -> None:
        """The corporation buys one of its shares: the pool's first, else the seller's
        first ordinary one; on the site it joins the corporation's own (unbuyable until
        reissued)."""
        fact = next(f for f in facts if f["f"] == "cert" and f["to"] == f"c:{corp}")
        seller = self.state.corps[corp].certs[fact["index"]]
        share = self.certs.to_buy(corp, "pool" if seller == "pool" else seller)
        self.corp("buy_shares", corp, shares=[share], percent=self.state.rules.ordinary_percent)
        self.certs.move(share, "ipo")
        self.certs.unbuyable.add(share)

    def on_reissue(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        corp = action["corp"]
        shares = [s for s in self.certs.held(corp, "ipo") if s in self.certs.unbuyable]
        self.corp("sell_shares", corp, shares=shares,
                  percent=len(shares) * self.state.rules.ordinary_percent)
        self.certs.unbuyable.difference_update(shares)

    def on_exchange(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        cert = next(f for f in facts if f["f"] == "cert")
        corp = cert["corp"]
        share = self.certs.to_buy(corp, fact_source(self.state, cert))
        self.add("buy_shares", action["private"], "company", shares=[share],
                 percent=self.state.rules.ordinary_percent)
        self.transfer(corp, [share], f"p:{actor}", self.state.rules.ordinary_percent, facts)

    # -- operating rounds ------------------------------------------------------------------
    def before_operating(self, kind: str, facts: list[Record]) -> None:
        """The site's explicit passes of the track and station steps."""
        rnd = self.state.round
        if rnd.get("kind") != "operating" or not rnd.get("current") or rnd.get("proposal") \
                or rnd.get("connection") or rnd.get("protection"):
            return
        corp, turn = rnd["current"], rnd["turn"]
        later = {"run", "payout", "withhold", "half", "buy_train", "pass", "sell",
                 "bankrupt"}
        if kind == "token" and turn["step"] == "track" and self.track_open(corp) \
                and not turn.get("retoken"):
            self.corp("pass", corp)
        if kind in later and turn["step"] in ("track", "token"):
            if turn["step"] == "track" and self.track_open(corp):
                self.corp("pass", corp)
            if not turn["token"] and station_offered(self.state, corp):
                self.corp("pass", corp)

    def steps_left(self, corp: str) -> int:
        """The site's steps still open at the end of the turn, each ended by a pass: the
        train step while a train could be bought, the company step while a private
        company could be."""
        left = 1 if self.train_step_open(corp) else 0
        return left + (1 if site_company_step_open(self.state, corp) else 0)

    def train_step_open(self, corp: str) -> bool:
        """The site's train step offers a purchase (from the bank, the pool, or another
        corporation for any price from $1)."""
        state = self.state
        from ..engine.trains import train_limit

        room = len(state.corps[corp].trains) < train_limit(state)
        others = any(c.trains for s, c in state.corps.items() if s != corp)
        return bool(train_moves(state, corp)) or (room and others and state.corps[corp].cash > 0)

    def on_lay(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        tile = next(f for f in facts if f["f"] == "tile")
        coord = tile["hex"]
        bare = not tile_at(self.state.map, self.state.board, coord)[0].paths
        copy = self.names.lay(coord, SITE_TILES.get(self.game["title"], {}).get(
            tile["tile"]) or tile["tile"], self.state.map.manifest.get(tile["tile"]))
        entity, entity_type = self.acting(action)
        self.add("lay_tile", entity, entity_type, hex=coord, tile=copy,
                 rotation=tile["rotation"])
        if bare and self.state.options.get("station_retile", "keep") == "keep":
            self.keep_stations(coord, facts)

    def keep_stations(self, coord: str, facts: list[Record]) -> None:
        """On the site the corporation laying a tile on a bare two-city hex re-places the
        stations there (station_retile=choose); pbem's default kept their city numbers:
        write that choice."""
        after = self.state.clone()
        apply_facts(after, facts)
        tile, _ = tile_at(after.map, after.board, coord)
        if len(tile.cities()) < 2:
            return
        corp = self.state.round["current"]
        for stop, owners in enumerate(after.board.tokens.get(coord, [])):
            for owner in owners:
                self.corp("place_token", corp, city=self.names.city(coord, stop), slot=0,
                          tokener=owner)

    def acting(self, action: dict[str, Any]) -> tuple[str, str]:
        if action.get("with"):
            return action["with"], "company"
        return self.state.round["current"], "corporation"

    def on_token(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        fact = next(f for f in facts if f["f"] in ("token", "token_move"))
        corp = self.state.round["current"]
        entity, entity_type = self.acting(action)
        city = self.names.city(fact["hex"], fact["stop"])
        slot = len(self.state.board.tokens_at(fact["hex"], fact["stop"]))
        self.add("place_token", entity, entity_type, city=city, slot=slot,
                 tokener=fact["corp"] if fact["f"] == "token" else corp)

    def operating(self) -> str:
        """The company acting in the operating round: the one making its connection run
        (1870), or the one whose turn it is."""
        rnd = self.state.round
        return str((rnd.get("connection") or {}).get("corp") or rnd["current"])

    def on_run(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        self.emit_run(self.operating(), facts)

    def emit_run(self, corp: str, facts: list[Record]) -> None:
        """The run the facts record (pbem runs the best routes when a dividend is
        decided without a run first)."""
        run: dict[str, Any] = {}
        if self.state.round.get("connection"):  # the run is set, then the round moves on
            for fact in facts:
                conn = fact.get("values", {}).get("connection") if fact["f"] == "round_set" \
                    else None
                if conn and conn.get("corp") == corp and conn.get("run"):
                    run = conn["run"]
                    break
        else:
            after = self.state.clone()
            apply_facts(after, facts)
            run = (after.round.get("turn") or {}).get("run") or {} \
                if after.round.get("current") == corp else \
                next((f["values"]["turn"]["run"] for f in facts if f["f"] == "round_set"
                      and (f["values"].get("turn") or {}).get("run") is not None), {})
        if not run.get("routes"):
            if self.route_step_open(corp):  # ran nothing where it could run
                self.corp("run_routes", corp, routes=[], extra_revenue=0, subsidy=0)
            return  # the site skips the step when there is no route
        used: set[str] = set()  # each train runs once: two 2-trains are 2-0 and 2-1
        routes = [self.route(corp, r, used) for r in run["routes"]]
        self.corp("run_routes", corp, routes=routes, extra_revenue=0, subsidy=0)

    def route_step_open(self, corp: str) -> bool:
        """The site waits for ``corp``'s run: it has trains and a route for them."""
        if not self.state.corps[corp].trains:
            return False
        top = orrun.best(self.state, corp)
        return top is not None and top.total > 0

    def route(self, corp: str, summary: dict[str, Any], used: set[str]) -> dict[str, Any]:
        """One route in the site's form: the train's id, the track between the stops."""
        state = self.state
        stops = list(summary["stops"])
        specs = [(t, state.rules.train(t).reach) for t in state.corps[corp].trains]
        column = state.rules.phase(state.phase or "").offboard
        written = [{"train": summary["train"], "stops": stops}]
        found = check_run(state.map, state.board, corp, specs, written, column).routes[0]
        hexes = [coord for coord, _ in found.segments]
        path = [h for i, h in enumerate(hexes) if i == 0 or hexes[i - 1] != h]
        connections, at = [], 0
        for coord, _ in found.stops[1:]:
            end = path.index(coord, at + 1) if coord in path[at + 1:] else len(path) - 1
            connections.append(path[at:end + 1])
            at = end
        nodes = [f"{coord}-{index}" for coord, index in found.stops]
        stop_hexes = [coord for coord, _ in found.stops]
        train = self.names.train_of(f"c:{corp}", summary["train"], used)
        return {"train": train, "connections": connections, "hexes": stop_hexes,
                "revenue": summary["revenue"], "revenue_str": "-".join(stop_hexes),
                "nodes": nodes}

    def on_payout(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        self.dividend("payout", facts)

    def on_withhold(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        self.dividend("withhold", facts)

    def on_half(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        self.dividend("half", facts)

    def dividend(self, kind: str, facts: list[Record]) -> None:
        corp = self.operating()
        rnd = self.state.round
        ran = (rnd["connection"] if rnd.get("connection") else rnd["turn"])["run"]
        if ran is None:
            self.emit_run(corp, facts)
        self.corp("dividend", corp, kind=kind)

    # -- 1870: the destination marker, the cattle and port tokens ------------------------------
    def on_destination(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        choice = "Map" if (action.get("marker") or "place") == "place" else "Charter"
        self.corp("choose", self.operating(), choice=choice)

    def on_cattle(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        self.add("assign", "SCC", "company", target=action["hex"], target_type="hex")

    def on_port(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        """The site's first assign of the GSC places the open port, the second closes it:
        the closed port placed at once is both."""
        marker = next(f["marker"] for f in facts if f["f"] == "marker")
        times = 2 if not marker["open"] and "port" not in self.state.board.markers else 1
        for _ in range(times):
            self.add("assign", "GSC", "company", target=marker["hex"], target_type="hex")

    # -- the referee --------------------------------------------------------------------------
    def on_end_game(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        """The site's game ended by hand (by a player there)."""
        self.player("end_game", self.players[0]["name"])

    def on_as(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        inner = action["action"]
        handler = getattr(self, "on_" + inner["type"], None)
        if handler is None:
            raise ExportError(f"a {inner['type']!r} command cannot be written as an "
                              "18xx.games action")
        handler(action["player"], inner, facts)

    def on_buy_train(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        corp = self.state.round["current"]
        if any(f["f"] == "train" and f["dest"] == f"c:{corp}" for f in facts):
            self.trains_bought(corp, action.get("trade"), facts)
        # else it waits for the seller's accept, or the company closed before (1870: its
        # withhold of nothing took its token into the closing section)

    def trains_bought(self, corp: str, trade: str | None, facts: list[Record]) -> None:
        """The purchase among the facts (the first train arriving at ``corp``), with the
        train traded in before it."""
        holder = f"c:{corp}"
        bought = next(i for i, f in enumerate(facts)
                      if f["f"] == "train" and f["dest"] == holder)
        named = self.name_trains(facts, bought + 1)
        fact = facts[bought]
        fields: dict[str, Any] = {"train": named[bought], "price": self.price_paid(corp, facts)}
        if fact["source"] == "bank":
            fields["variant"] = fact["name"]
        for i, earlier in named.items():
            if trade and i < bought and facts[i]["source"] == holder \
                    and facts[i]["name"] == trade:
                fields["exchange"] = earlier
        self.corp("buy_train", corp, **fields)

    def price_paid(self, corp: str, facts: list[Record]) -> int:
        paid = [f["amount"] for f in facts if f["f"] == "cash" and f["from"] == f"c:{corp}"]
        return paid[-1] if paid else 0

    def on_discard(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        corp = self.state.round["discards"][0]
        for train in self.name_trains(facts, len(facts)).values():
            self.corp("discard_train", corp, train=train)

    def buy_company(self, action: dict[str, Any], facts: list[Record]) -> None:
        corp = self.state.round["current"]
        if not any(f["f"] == "private" for f in facts):
            return  # waits for the seller's accept
        self.corp("buy_company", corp, company=action["private"], price=action["price"])

    def on_accept(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        prop = self.state.round.get("proposal") or {}
        if self.state.round.get("kind") == "stock" and prop.get("private"):
            if prop["proposer"] != prop["buyer"]:
                raise ExportError("18xx.games lets a player buy another's private company only "
                                  "in the buyer's own turn (the buyer makes the offer)")
            self.player("buy_company", prop["buyer"], company=prop["private"],
                        price=prop["price"])
        elif prop.get("kind") == "private":
            self.corp("buy_company", prop["buyer"], company=prop["private"],
                      price=prop["price"])
        elif prop.get("kind") == "train":
            self.trains_bought(prop["buyer"], None, facts)
        elif prop.get("kind") == "redeem":
            self.redeemed(prop["corp"], facts)

    def on_decline(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        """A declined offer never happened on the site; a declined price protection is
        the president's pass (1870)."""
        if self.state.round.get("protection"):
            self.player("pass", actor)

    def on_bankrupt(self, actor: str, action: dict[str, Any], facts: list[Record]) -> None:
        self.corp("bankrupt", self.state.round["current"])

    # -- the document ----------------------------------------------------------------------
    def document(self) -> dict[str, Any]:
        state = self.state
        result = state.result or {}
        doc: dict[str, Any] = {
            "id": f"pbem-{self.game['id']}",
            "title": self.game["title"],
            "description": f"pbem game #{self.game['id']}",
            "players": [{"id": self.ids[p["name"]], "name": p["name"]} for p in self.players],
            "settings": {"optional_rules": site_rules(self.game["title"],
                                                      self.game["options"]),
                         "seed": self.game["seed"]},
            "status": "finished" if state.finished else "active",
            "actions": self.actions,
            "result": {str(self.ids[n]): v for n, v in result.get("scores", {}).items()},
            "exported_by": "pbem",
        }
        if state.finished:
            doc["game_end_reason"] = END_REASONS.get(result.get("reason", ""),
                                                     result.get("reason"))
        return doc


def fact_source(state: GameState, fact: Record) -> str:
    """Where the certificate a fact moves comes from: "ipo" or "pool"."""
    return "pool" if state.corps[fact["corp"]].certs[fact["index"]] == "pool" else "ipo"


def verify_export(store: Store, game_id: int, document: dict[str, Any]) -> str | None:
    """Replay the exported log as pbem imports site logs (the site's readings of the
    rules): None when it reaches the game's state, else what differs (a game played
    with pbem's own readings may hold moves the site does not allow)."""
    from .replay import replay_log
    from .sitelog import parse_log

    scratch = open_store(":memory:", now="1970-01-01T00:00:00+00:00")
    try:
        again = replay_log(scratch, parse_log(document))
    finally:
        scratch.close()
    if again.refusal is not None:
        return (f"action {again.refusal.site.get('id')} ({again.refusal.text or ''}): "
                f"{again.refusal.reason}")
    ours = service.load(store, game_id).to_dict()
    theirs = again.state.to_dict()
    differing = [k for k in ours if k not in ("options", "seed") and ours[k] != theirs[k]]
    return f"the replay ends with another {', '.join(differing)}" if differing else None


def export_game(store: Store, game_id: int) -> dict[str, Any]:
    """The game as an 18xx.games log (a JSON-ready dict)."""
    title = store.game(game_id)["title"]
    if title not in ("1830", "1870"):
        raise ExportError("pbem exports only 1830 and 1870 games to 18xx.games")
    lacking = options_the_site_lacks(title, service.initial(store, game_id).options)
    if lacking:
        rules = load_title(title).options
        named = ", ".join(f"{k}={v}" + (f" ({rules[k].rule})" if rules[k].rule else "")
                          for k, v in lacking.items())
        raise ExportError(f"This game is played with options 18xx.games does not have: "
                          f"{named}. The site would replay its moves by other rules, so "
                          "pbem does not export it.")
    return Exporter.from_store(store, game_id).run()

