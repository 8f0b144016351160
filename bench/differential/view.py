"""One picture of a game for both engines: pbem's GameState and the oracle's state (the
18xx.games engine's, see ../shared/oracle/README.md) mapped to the same plain dict, so
that the two can be compared field by field (``differences``).

Players are keyed by their site id (seat + 1), corporations and private companies by
symbol; tiles are compared by their track (a symmetric tile lies alike at two
rotations), share prices by market cell.  ``settle`` models the differences of timing
that the fixtures README lists (the site pays a corporation's capital when it floats,
gives the B&O president's certificate with the par, calls the first phase "2" during
the private auction), so that the two pictures agree whenever both engines have done
the same.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.engine import orrun
from pbem.engine.context import Ctx
from pbem.engine.ending import worth
from pbem.engine.game import to_act
from pbem.engine.state import IPO, POOL, GameState
from pbem.engine.trains import left_in_bank, train_count

View = dict[str, Any]

#: the site's names of phases pbem names otherwise: 1870's variant 1830 diesels (Variants,
#: p.25) has pbem's phase 6 from the first diesel, the site's phase "D" (the same limits,
#: tiles and operating rounds: G1870 DIESEL_VARIANT_PHASES)
SITE_PHASES: dict[tuple[str, str | None], dict[str, str]] = {("1870", "1830-diesels"): {"D": "6"}}

#: tile names the site gives a label (1870's gray tiles)
SITE_TILE_NAMES = {"171K": "171", "172L": "172"}


def pbem_view(state: GameState, ids: dict[str, int]) -> View:
    """pbem's state in the common picture; ``ids``: player name -> site id."""
    rules = state.rules
    players: dict[str, Any] = {}
    for p in state.players:
        holder = f"p:{p.name}"
        shares = {c: state.percent(c, holder) for c in state.corps if state.percent(c, holder)}
        players[str(ids[p.name])] = {
            "cash": p.cash, "shares": shares, "companies": sorted(state.privates_of(holder)),
            "value": worth(state, p.name)}
    corps: dict[str, Any] = {}
    for sym, c in state.corps.items():
        if c.closed:
            continue  # the site drops a closed corporation (1870)
        president = state.president(sym)
        tokens = sorted(f"{coord}.{stop}" for coord, stop in state.board.stations(sym))
        marker = state.board.markers.get(f"destination:{sym}")
        if marker and c.destination_marker == "placed" and marker.get("stop") is None:
            # 1870: the site's extra token (a marker in a city space, station marker
            # wars, is one of the stations already)
            tokens = sorted(tokens + [f"{marker['hex']}.0"])
        own = state.percent(sym, f"c:{sym}")  # 1870: redeemed; the site counts them as
        corps[sym] = {
            "president": ids[president] if president else None,
            "cash": c.cash,
            "cell": list(c.cell) if c.cell is not None else None,
            "par": c.par,
            "ipo": state.percent(sym, IPO) + own,  # the corporation's (its IPO is itself)
            "pool": state.percent(sym, POOL),
            "trains": sorted(c.trains),
            "tokens": tokens,
            "floated": c.floated,
            "closed": c.closed,
        }
    companies = {}
    for sym, private in state.privates.items():
        owner: str | None = private.owner
        assert owner is not None
        if owner.startswith("p:"):
            owner = f"player:{ids[owner[2:]]}"
        elif owner.startswith("c:"):
            owner = f"corporation:{owner[2:]}"
        if private.closed or owner == "bank":
            owner = None
        companies[sym] = {"owner": owner, "closed": private.closed}
    tiles = {coord: layout(state, name, rotation)
             for coord, (name, rotation) in state.board.tiles.items()}
    first_phase = rules.phases[0].name
    return {
        "players": players,
        "corporations": corps,
        "companies": companies,
        "bank": state.bank,
        "phase": state.phase or first_phase,
        "pool_trains": sorted(state.pool_trains),
        "bank_trains": bank_trains(state),
        "tiles": tiles,
        "round": state.round.get("kind"),
        "acting": acting(state, ids),
        "priority": str(ids[state.priority]) if state.round.get("kind") == "stock" else None,
        "finished": state.finished,
    }


def waiting_for(state: GameState) -> list[str]:
    """The players pbem waits for, read from the round (``to_act`` lists their moves,
    which in an operating round means route searches)."""
    rnd = state.round
    kind = rnd.get("kind")
    if state.finished:
        return []
    if kind != "operating":
        return to_act(state)
    for key, who in (("connection", "corp"), ("protection", "president"),
                     ("proposal", "answer_by")):
        if rnd.get(key):
            value = rnd[key][who]
            return [state.president(value) or value] if key == "connection" else [value]
    corp = rnd["discards"][0] if rnd.get("discards") else rnd.get("current")
    president = state.president(corp) if corp else None
    return [president] if president else []


def acting(state: GameState, ids: dict[str, int]) -> list[str] | None:
    """The players pbem waits for; None (not compared) in an operating round once the
    corporation has begun its turn (the site skips the steps where it can do nothing,
    pbem waits for its president's ``done``), or while trains are discarded (the site
    asks the corporations in charter order, pbem in market order; either order is
    accepted by both)."""
    rnd = state.round
    if rnd.get("proposal"):
        return None  # the other side's consent: not asked for on the site
    if rnd.get("kind") == "operating":
        turn = rnd.get("turn") or {}
        if rnd.get("discards") or turn.get("laid") or \
                turn.get("token") or turn.get("run") is not None or turn.get("bought"):
            return None
    return sorted(str(ids[n]) for n in waiting_for(state) if n in ids)


def bank_trains(state: GameState) -> dict[str, int]:
    """Trains of each type the bank still sells (unlimited ones left out)."""
    left = {}
    for name in limited_trains(state):
        left[name] = left_in_bank(state, state.rules.train(name)) or 0
    return {k: v for k, v in left.items() if v > 0}


def limited_trains(state: GameState) -> list[str]:
    """The train types of which the bank has a fixed number."""
    return [t.name for t in state.rules.trains if train_count(state, t) is not None]


def layout(state: GameState, name: str, rotation: int) -> list[str]:
    tile = state.map.tiles.get(SITE_TILE_NAMES.get(name, name))
    if tile is None:
        return [f"unknown tile {name}"]
    paths = tile.layout(rotation)
    return sorted("-".join(sorted(str(end) for end in path)) for path in paths) + \
        [f"#{tile.id}"]


def oracle_view(state: GameState, site: dict[str, Any]) -> View:
    """The oracle's state in the common picture (``state``: pbem's, for the tiles' track
    and the title's share sizes)."""
    players = {}
    for p in site["players"]:
        players[str(p["id"])] = {
            "cash": p["cash"], "shares": dict(p["shares"]), "companies": sorted(p["companies"]),
            "value": p["value"]}
    corps = {}
    for c in site["corporations"]:
        cell = c.get("share_price_cell")
        corps[c["id"]] = {
            "president": c.get("president"),
            "cash": c["cash"],
            "cell": [int(x) for x in cell.split(",")[1:]] if cell else None,
            "par": c.get("par_price"),
            "ipo": c["ipo_percent"] + (c.get("treasury_percent") or 0),
            "pool": c["pool_percent"],
            "trains": sorted(c["trains"]),
            "tokens": sorted(f"{t['hex']}.{t['city']}" for t in c["tokens"]),
            "floated": c["floated"],
            "closed": c["closed"],
        }
    companies = {}
    for c in site["companies"]:
        owner = c.get("owner")
        where = None
        if owner and not c["closed"]:
            where = f"{owner['type']}:{owner['id']}"
        companies[c["id"]] = {"owner": where, "closed": c["closed"]}
    tiles = {coord: layout(state, t["tile"], t["rotation"]) for coord, t in site["tiles"].items()}
    upcoming = Counter(t.rsplit("-", 1)[0] for t in site["depot"]["upcoming"])
    limited = set(limited_trains(state))
    return {
        "players": players,
        "corporations": corps,
        "companies": companies,
        "bank": site["bank_cash"],
        "phase": SITE_PHASES.get((state.title, state.options.get("trains")), {}).get(
            site["phase"], site["phase"]),
        "pool_trains": sorted(t.rsplit("-", 1)[0] for t in site["depot"]["discarded"]),
        "bank_trains": {k: v for k, v in upcoming.items() if k in limited},
        "tiles": tiles,
        "round": site["round"]["kind"],
        "acting": sorted(str(p) for p in site.get("active_players", [])),
        "priority": str(site["players"][0]["id"]),  # the site seats the holder first
        "finished": site.get("finished", False),
    }


#: the site's steps of a corporation's turn that come after its dividend step
AFTER_DIVIDEND = frozenset({"DiscardTrain", "BuyTrain", "BuyCompany", "Bankrupt"})


def ahead(state: GameState, site: dict[str, Any]) -> GameState:
    """pbem's state with what the site has done already in the operating corporation's
    turn: a corporation without trains, or without a route, withholds nothing at its
    (skipped) dividend step, which the site passes at once, pbem when the turn moves past
    it."""
    rnd = state.round
    corp = rnd.get("current") if rnd.get("kind") == "operating" else None
    acting = site.get("acting") or {}
    if corp is None or acting.get("id") != corp or site.get("step") not in AFTER_DIVIDEND:
        return state
    turn = rnd["turn"]
    if turn["run"] is not None or rnd.get("connection"):
        return state
    president = state.president(corp)
    if president is None:
        return state
    if state.corps[corp].trains:
        top = orrun.best(state, corp)
        if top is not None and top.total > 0:
            return state  # the site would wait for the run
    ctx = Ctx(state.clone(), president)
    orrun.run_trains(ctx, corp, None)
    return ctx.state


def settle(view: View, state: GameState, ids: dict[str, int]) -> View:
    """pbem's picture with what the site has done already and pbem will do later (the
    differences of timing): capital paid at the float; a president's certificate that
    came with a private company (1830 BO, 1870 SLSF) is the player's only once he has
    set the par; stations on a two-city hex just tiled are off the map until they are
    placed again (option station_retile=choose); 1870: a share price drops when price
    protection is declined (pbem shows the drop at the sale)."""
    for sym, c in state.corps.items():
        if c.floated and not c.funded and not c.closed:
            capital = 10 * (c.par or 0)
            view["corporations"][sym]["cash"] += capital
            view["bank"] -= capital
        holder = c.certs[0]
        if c.par is None and holder.startswith("p:"):
            pid = str(ids[holder[2:]])
            shares = view["players"][pid]["shares"]
            shares[sym] -= state.rules.president_percent
            if not shares[sym]:
                del shares[sym]
            view["corporations"][sym]["ipo"] += state.rules.president_percent
            view["corporations"][sym]["president"] = None
    for sale in pending_protection(state):  # 1870: the site moves the price when the
        corp = sale["corp"]  # president declines protection
        view["corporations"][corp]["cell"] = [sale["row"], sale["col"]]
        rise = int(sale["price"]) - (state.price(corp) or 0)
        for player in view["players"].values():
            player["value"] += player["shares"].get(corp, 0) // 10 * rise
    retoken = (state.round.get("turn") or {}).get("retoken") if state.round.get(
        "kind") == "operating" else None
    if retoken:  # the site lifts the stations off until the corporation places them
        for owner in retoken["corps"]:
            tokens = view["corporations"][owner]["tokens"]
            view["corporations"][owner]["tokens"] = [
                t for t in tokens if t.split(".")[0] != retoken["hex"]]
    return view


def pending_protection(state: GameState) -> list[dict[str, Any]]:
    """1870: the sales whose price protection is still to be offered or answered (the
    first of each company: a later one in the same turn joins it)."""
    rnd = state.round
    sales = ([rnd["protection"]] if rnd.get("protection") else []) + \
        list(rnd.get("protection_queue") or [])
    first: dict[str, dict[str, Any]] = {}
    for sale in sales:
        first.setdefault(sale["corp"], sale)
    return list(first.values())


def differences(ours: View, theirs: View, path: str = "") -> list[str]:
    """The fields that differ, as ``path: pbem value != site value`` (a field pbem's
    picture leaves open, None at the top level, is not compared)."""
    found: list[str] = []
    if not path and isinstance(ours, dict):
        ours = {k: v for k, v in ours.items() if v is not None}
        theirs = {k: v for k, v in theirs.items() if k in ours}
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for key in sorted(set(ours) | set(theirs), key=str):
            where = f"{path}.{key}" if path else str(key)
            if key not in ours or key not in theirs:
                found.append(f"{where}: pbem {ours.get(key)!r} != site {theirs.get(key)!r}")
            else:
                found += differences(ours[key], theirs[key], where)
        return found
    if ours != theirs:
        found.append(f"{path}: pbem {ours!r} != site {theirs!r}")
    return found
