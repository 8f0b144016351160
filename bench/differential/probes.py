"""Moves tried in both engines without being played: the second direction.

Bots that pick among pbem's legal moves never find a move pbem wrongly refuses.  At a
sample of positions the runner builds moves near the legal ones, each as a pbem command
and as the site's action (other shares and sources, other par prices, sales of other
sizes, other tiles and rotations, other cities for a station, trains from other
corporations at other prices, private companies at prices around the limits, the other
dividends, bankruptcy); those pbem refuses are sent to the oracle: where the site accepts
one, that is a divergence ("refused-by-pbem").  A move the site refuses costs the oracle
a rebuild of the game (it replays the actions it accepted), so each position tries a
few, drawn at random.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from pbem.engine.board.track import lay_problem
from pbem.engine.errors import RulesError
from pbem.engine.game import decide
from pbem.engine.operating import train_moves
from pbem.engine.ortrack import lay_fields, near_hexes, phase_colours
from pbem.engine.ortrains import in_emergency
from pbem.engine.state import GameState
from pbem.engine.trains import has_room

Pair = tuple[str, dict[str, Any], dict[str, Any]]  # (player, pbem action, site action)

#: moves pbem judges at one position, and site actions tried there, at most
EVALUATED = 12
PER_POSITION = 3


#: Moves the two engines judge differently for a reason docs/18xx-games.md gives ("What
#: the site allows and pbem does not"): the probes do not count them.  All but the first are
#: leniencies of the site's engine (it accepts a move its own game does not offer, or
#: checks its own rule at the wrong moment): pbem keeps the rule.
KNOWN_DIFFERENCES = {
    "brown-zone": "brown-zone shares: pbem buys them in one command with a count "
                  "(`buy 2 C&O pool`), the site one purchase at a time",
    "1870-phase-1-private": "an 1870 company buys a private company other than the MRBC "
                            "in phase 1: the site's interface offers only the MRBC, to MP "
                            "and SSW (`G1870#purchasable_companies`), its engine does "
                            "not check that list",
    "no-buy": "a corporation buys the BO (1830; 1870: the SLSF) from a player: the "
              "rulebooks say it \"may not be sold to any corporation\" (1830 appendix), "
              "and the site's game does not offer it (`Game::Base#purchasable_companies` "
              "leaves out a company with the `no_buy` ability), but `Step::BuyCompany"
              "#process_buy_company` checks only the owner and the price "
              "(differential run 5, 1830 seed 6015)",
    "bankrupt": "a bankruptcy where the corporation need not buy a train, or before its "
                "train step: the site offers `bankrupt` at every step of the turn "
                "(`Step::Bankrupt`) and checks only `can_go_bankrupt?`, the president's "
                "and the treasury's cash plus the shares the active step lets him sell "
                "(`liquidity(emergency: true)` asks `@round.active_step.can_sell?`) below "
                "the cheapest train of the bank; before the train step no step sells, so "
                "no share counts, whereas rule 1830 6.7 (1870 p.25) makes him bankrupt "
                "only if even selling every share he may cannot pay for the train "
                "(run 5, 1830 seed 6025)",
    "train-limit": "a corporation at its train limit buys a train without a trade-in while "
                   "it could trade a 4-, 5- or 6-train in for a diesel: rule 1830 6.6 (1870 "
                   "p.22) says it \"may not purchase a train\" and \"may not discard or "
                   "scrap a train to make space for a new train\"; the site offers "
                   "`buy_train` because `Step::Train#can_buy_train?` counts the trade-in "
                   "(`discountable_trains_for`), and `Step::BuyTrain#process_buy_train` "
                   "never checks `room?` for a purchase without one, then has the "
                   "corporation discard a train (run 6, 1830 seed 7190)",
    "phase-colour": "a tile of a colour the phase does not allow yet (a green tile in "
                    "phase 1 of 1870): rule 1830 6.2 (1870 Lay or Upgrade Track, p.19) "
                    "allows only the colours of the current phase; the site's interface "
                    "offers only those (`Step::Tracker#upgradeable_tiles` asks "
                    "`Game::Base#tile_valid_for_phase?`), but `Step::Tracker#lay_tile` "
                    "checks only `upgrades_to?` (the colour after the old tile's, the "
                    "track kept, the label, the cities) and the rotation, never the phase "
                    "(run 8, 1870 seed 30130: SLSF's 15 on its yellow home E12 in phase 1)",
}


def known_difference(state: GameState, pair: Pair, site: dict[str, Any]) -> str | None:
    """The key of KNOWN_DIFFERENCES that explains why the site would judge this move
    otherwise than pbem, or None.  ``site`` is the oracle's state at the position."""
    _, ours, site_action = pair
    rnd = state.round
    if ours["type"] == "bankrupt":
        corp = rnd.get("current")
        judged_alike = corp is not None and in_emergency(state, corp) \
            and site.get("step") == "BuyTrain"  # where the site counts the shares too
        return None if judged_alike else "bankrupt"
    if ours["type"] == "buy_train" and ours.get("trade") is None and rnd["kind"] == "operating" \
            and beyond_the_limit_but_for_a_trade_in(state, rnd.get("current")):
        return "train-limit"
    if ours["type"] == "buy_share" and rnd["kind"] == "stock" and rnd["turn"]["bought"] \
            and not rnd["turn"].get("private_bought") \
            and state.rules.zone_allows(state.zone(ours["corp"]), "multi_buy"):
        return "brown-zone"
    if ours["type"] == "lay" and laid_only_too_early(state, ours, site_action):
        return "phase-colour"
    if ours["type"] == "buy_private":
        if state.rules.private(ours["private"]).extra.get("no_sale_to_corporation"):
            return "no-buy"
        if rnd["kind"] == "operating" and state.title == "1870" \
                and state.phase == state.rules.phases[0].name and ours["private"] != "MRBC":
            return "1870-phase-1-private"
    return None


def laid_only_too_early(state: GameState, ours: dict[str, Any],
                        site_action: dict[str, Any]) -> bool:
    """The lay's tile is of a colour the phase does not allow yet, and nothing else
    forbids it at the site's rotation (KNOWN_DIFFERENCES["phase-colour"])."""
    tile = state.map.tiles.get(ours["tile"])
    colours = phase_colours(state)
    if tile is None or tile.colour in colours or "rotation" not in site_action:
        return False
    every = ("yellow", "green", "brown", "gray")
    return lay_problem(state.map, state.board, ours["hex"], ours["tile"],
                       site_action["rotation"], every, corp=state.round.get("current")) is None


def beyond_the_limit_but_for_a_trade_in(state: GameState, corp: str | None) -> bool:
    """The corporation has no room for a train (6.6) but may trade one in for a diesel,
    which the site counts as room for any train (KNOWN_DIFFERENCES["train-limit"])."""
    if corp is None or has_room(state, corp):
        return False
    return any(move["action"]["trade"] is not None for move in train_moves(state, corp))


def probe_position(duel: Any) -> Any:
    """Try a few near-legal moves pbem refuses at this position on the site; a
    divergence when the site accepts one, else None."""
    from .duel import Divergence

    state, rng = duel.state, duel.rng
    pairs = [p for p in candidates(duel)
             if known_difference(state, p, duel.site_state) is None]
    rng.shuffle(pairs)
    refused = []
    for name, ours, theirs in pairs[:EVALUATED]:
        try:
            decide(state, name, ours)
        except RulesError as exc:
            refused.append((name, ours, theirs, str(exc)))
        except Exception:  # noqa: BLE001 - a move pbem cannot even read: not a verdict
            continue
    for name, ours, theirs, why in refused[:PER_POSITION]:
        duel.outcome.probes += 1
        answer = duel.oracle.act(dict(theirs, id=len(duel.outcome.log) + 1), auto="live")
        if answer.get("ok"):
            duel.outcome.log.append(theirs)
            duel.outcome.commands_played.append([name, ours])
            duel.written = [theirs]
            return Divergence("refused-by-pbem", duel.outcome.commands, f"{name}: {ours}",
                              [f"pbem refuses: {why}", f"the site accepts {theirs}"],
                              [theirs])
    return None


def candidates(duel: Any) -> Iterator[Pair]:
    """Near-legal moves of the player or corporation the site waits for now."""
    state, site = duel.state, duel.site_state
    acting = site.get("acting") or {}
    rnd = state.round
    if rnd.get("proposal") or rnd.get("protection") or rnd.get("connection") or \
            rnd.get("pending_par") or state.finished:
        return
    if rnd["kind"] == "stock" and acting.get("type") == "player":
        name = next((n for n, i in duel.ids.items() if i == acting["id"]), None)
        if name is not None and name == rnd["current"]:
            yield from stock_moves(duel, name)
    elif rnd["kind"] == "operating" and acting == {"type": "corporation",
                                                   "id": rnd.get("current")}:
        corp = rnd["current"]
        president = state.president(corp)
        if president is not None and not rnd.get("discards"):
            yield from operating_moves(duel, president, corp)


# -- stock rounds -------------------------------------------------------------------------------


def stock_moves(duel: Any, name: str) -> Iterator[Pair]:
    state: GameState = duel.state
    pid, certs = duel.ids[name], duel.exporter.certs
    holder = f"p:{name}"
    for corp, c in state.corps.items():
        if c.closed:
            continue
        if c.par is None and c.certs[0] == "ipo":
            for price in state.rules.market.par_prices:
                cell = state.rules.market.par_cell(price)
                if cell is not None:
                    yield (name, {"type": "par", "corp": corp, "price": price},
                           player(pid, "par", corporation=corp,
                                  share_price=f"{price},{cell.row},{cell.col}"))
            continue
        for source in ("ipo", "pool"):
            try:
                share = certs.to_buy(corp, source)
            except KeyError:
                continue
            yield (name, {"type": "buy_share", "corp": corp, "source": source, "count": 1},
                   player(pid, "buy_shares", shares=[share],
                          percent=state.rules.ordinary_percent))
        held = len(certs.ordinary(corp, holder)) + (2 if c.certs[0] == holder else 0)
        for count in range(1, held + 1):
            shares = certs.to_sell(corp, holder, count)
            yield (name, {"type": "sell", "sales": [{"corp": corp, "count": count}]},
                   player(pid, "sell_shares", shares=shares,
                          percent=count * state.rules.ordinary_percent))


# -- operating rounds ---------------------------------------------------------------------------


def operating_moves(duel: Any, president: str, corp: str) -> Iterator[Pair]:
    state: GameState = duel.state
    rng: random.Random = duel.rng
    yield from lays(duel, president, corp, rng)
    yield from stations(duel, president, corp)
    yield from train_purchases(duel, president, corp, rng)
    yield from private_purchases(duel, president, corp)
    for kind in ("payout", "withhold", "half"):
        if state.round["turn"].get("run") and state.round["turn"].get("dividend") is None:
            yield (president, {"type": kind}, corporation(corp, "dividend", kind=kind))
    yield (president, {"type": "bankrupt"}, corporation(corp, "bankrupt"))


def lays(duel: Any, president: str, corp: str, rng: random.Random) -> Iterator[Pair]:
    """Tiles from the supply on hexes near the corporation, in random rotations."""
    state: GameState = duel.state
    names = duel.exporter.names
    supply = [t for t, n in state.board.tiles_left.items() if n > 0]
    hexes = near_hexes(state, corp)
    for _ in range(12):
        if not supply or not hexes:
            return
        coord, tile_id = rng.choice(hexes), rng.choice(supply)
        tile = state.map.tiles.get(tile_id)
        if tile is None:
            continue
        rotation = rng.randrange(6)
        fields = lay_fields(tile, rotation, list(range(6)))
        site_tile = {"171": "171K", "172": "172L"}.get(tile_id, tile_id) \
            if state.title == "1870" else tile_id
        copy = f"{site_tile}-{copy_index(names, site_tile)}"
        yield (president, {"type": "lay", "tile": tile_id, "hex": coord, **fields,
                           "with": None},
               corporation(corp, "lay_tile", hex=coord, tile=copy, rotation=rotation))


def copy_index(names: Any, tile: str) -> int:
    on_map = set(names.laid.values())
    i = 0
    while f"{tile}-{i}" in on_map or f"{tile}-{i}" in names.removed:
        i += 1
    return i


def stations(duel: Any, president: str, corp: str) -> Iterator[Pair]:
    state: GameState = duel.state
    for coord in near_hexes(state, corp)[:20]:
        stops = state.board.tokens.get(coord) or [[]]
        for stop in range(len(stops)):
            city = stop + 1 if len(stops) > 1 else None
            yield (president, {"type": "token", "hex": coord, "city": city, "with": None},
                   corporation(corp, "place_token", city=duel.exporter.names.city(coord, stop),
                               slot=len(stops[stop]), tokener=corp))


def train_purchases(duel: Any, president: str, corp: str, rng: random.Random) -> Iterator[Pair]:
    """Trains of other corporations at prices from $1 to all the buyer has."""
    state: GameState = duel.state
    cash = state.corps[corp].cash
    for other, c in state.corps.items():
        if other == corp or not c.trains or c.closed:
            continue
        train = rng.choice(c.trains)
        try:
            site_id = duel.exporter.names.train_of(f"c:{other}", train, set())
        except StopIteration:
            continue
        for price in sorted({1, max(1, cash // 2), max(1, cash), cash + 1}):
            yield (president, {"type": "buy_train", "train": train, "source": other,
                               "price": price, "trade": None},
                   corporation(corp, "buy_train", train=site_id, price=price))


def private_purchases(duel: Any, president: str, corp: str) -> Iterator[Pair]:
    """Players' private companies at prices just inside and outside half to twice."""
    state: GameState = duel.state
    for sym, private in state.privates.items():
        if private.closed or not private.owner.startswith("p:"):
            continue
        value = state.rules.private(sym).value
        for price in sorted({max(1, value // 2 - 1), value // 2 or 1, value, 2 * value,
                             2 * value + 1}):
            yield (president, {"type": "buy_private", "private": sym,
                               "from": private.owner[2:], "price": price},
                   corporation(corp, "buy_company", company=sym, price=price))


# -- site actions ---------------------------------------------------------------------------------


def player(pid: int, type_: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, "entity": pid, "entity_type": "player", **fields}


def corporation(corp: str, type_: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, "entity": corp, "entity_type": "corporation", **fields}
