"""1870 track (Lay or Upgrade Track, p.19; the Mississippi River Bridge Company, p.9).

* Two yellow tiles or one upgrade (green, brown or gray) per operating turn.
* The "closed" rule (option tile_lay=restrictive, the default) is ortrack.connects.
* The tile readings of rules/1870/game.json "board" (options upgrades, gray_tiles) are
  applied to the map (pbem/engine/maps.py): the gray tiles' station spaces, the
  rulebook's upgrade table; on a P hex the rulebook also allows 63 besides 170.
* Terrain is paid for the first tile of a hex only; the MRBC gives its owning company
  $40 off once, on a river hex.
* While the MRBC is owned by a player no track may cross the Mississippi (the river
  lines of map.json: Memphis and St. Louis take only the rulebook's orientations).
* MRBC bought by MP or SSW in its first operating round: a free extra lay on its home
  hex, which is not upgraded the same round.  In phase 1 only MP and SSW may buy the
  MRBC, for $20 to $40 (early_private_sale).

The turn keeps ``lays`` (the colours laid this turn, not counting the home lay),
``home_lay`` (None, "available" or "used") and ``laid`` (True: no further lay).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...board import hexes
from ...board.map import tile_at
from ...board.track import (
    Arrivals,
    Reach,
    remembered_fits,
    rotation_problem,
    tile_problem,
    token_map,
)
from ...context import Ctx, money, require
from ...errors import RulesError
from ...facts import Marker, PrivateUsed, TileLaid
from ...maps import board_key, maps_for, rules_map
from ...ortrack import (
    choose_rotation,
    connects,
    corp_reach,
    distinct_placements,
    exits_text,
    lay_fields,
    listing_arrivals,
    near_hexes,
    next_tiles,
    phase_colours,
    touches_reach,
)
from ...state import BANK, GameState, corp_holder

TRACK = "Lay or Upgrade Track, p.19"
MRBC_RULE = "Mississippi River Bridge Company, Private Companies, p.9"
MANIFEST = "Tile Manifest, p.30"


# -- the river and the MRBC ------------------------------------------------------------------


def river_closed(state: GameState) -> bool:
    """No track may cross the Mississippi until the MRBC is closed or owned by a public
    company (p.9)."""
    for sym, private in state.privates.items():
        if state.rules.private(sym).extra.get("closes_river") and not private.closed \
                and not private.owner.startswith("c:"):
            return True
    return False


def owned_with(state: GameState, corp: str, key: str) -> str | None:
    """The open private company with data ``key`` that ``corp`` owns."""
    for sym, private in state.privates.items():
        if private.owner == corp_holder(corp) and not private.closed \
                and key in state.rules.private(sym).extra:
            return sym
    return None


def terrain_cost(state: GameState, corp: str, coord: str,
                 using: str | None = None) -> tuple[int, str | None]:
    """(cost, private used for a discount): the printed cost for the first tile of a
    hex, less the MRBC's $40 once on a river hex when the lay uses it (``using``: "The
    public company that purchases the MRBC may build in one of the hexes along the
    Mississippi River for a $40 discount", p.9: its president chooses the hex)."""
    if coord in state.board.tiles:
        return 0, None
    hex_ = state.map.hex(coord)
    cost = hex_.cost
    sym = owned_with(state, corp, "terrain_discount")
    if sym is not None and sym == using and cost and not state.privates[sym].used:
        data = state.rules.private(sym).extra["terrain_discount"]
        if data.get("hexes") != "river" or hex_.river is not None:
            return max(0, cost - int(data["amount"])), sym
    return cost, None


def early_private_sale(state: GameState, corp: str, sym: str) -> tuple[int, int] | None:
    """The price range when ``corp`` may buy ``sym`` although public companies may not
    buy private companies yet (1870 phase 1: the MRBC, by MP or SSW, $20-40)."""
    early = state.rules.private(sym).extra.get("early_sale") if sym in state.rules.privates \
        else None
    if not early or state.phase != str(early["phase"]) or corp not in early["corporations"]:
        return None
    low, high = early["price_range"]
    return int(low), int(high)


def after_private_bought(ctx: Ctx, corp: str, sym: str) -> None:
    """MP or SSW buying the MRBC in its first operating round may lay a tile on its home
    hex for free, besides its normal lays (p.9, p.19)."""
    state = ctx.state
    lay = state.rules.private(sym).extra.get("home_tile_lay")
    if not lay or corp not in lay["corporations"] or state.corps[corp].operated:
        return
    if state.round.get("kind") != "operating" or state.round.get("current") != corp:
        return
    ctx.round_set(turn={**state.round["turn"], "home_lay": "available", "laid": False})
    home = state.rules.corp(corp).home
    ctx.log(f"{corp} bought {sym} in its first operating round: it may lay a tile on its "
            f"home hex {home} for free besides its normal lays.")


# -- which lays are left ----------------------------------------------------------------------


def lays_left(state: GameState, corp: str) -> dict[str, bool]:
    """What the corporation may still lay this turn: "yellow" (a normal yellow lay),
    "upgrade" (the turn's one upgrade) and "home" (the MRBC's free home lay)."""
    turn = state.round["turn"]
    done = turn.get("lays") or []
    return {"yellow": "upgrade" not in done and done.count("yellow") < 2,
            "upgrade": not done,
            "home": turn.get("home_lay") == "available"}


def _kind_of(state: GameState, coord: str) -> str:
    return "upgrade" if coord in state.board.tiles else "yellow"


# -- checking a lay ----------------------------------------------------------------------------


def problem(state: GameState, coord: str, tile_id: str) -> str | None:
    """Why ``tile_id`` may not go on ``coord`` in any rotation (None: it may)."""
    main, unlabelled = maps_for(state.title, *board_key(state.rules))
    colours = phase_colours(state)
    found = tile_problem(main, state.board, coord, tile_id, colours)
    if found is not None and unlabelled is not None and coord in main.hexes \
            and tile_id in main.tiles and main.tiles[tile_id].label is None \
            and main.hexes[coord].label_for(main.tiles[tile_id].colour) == "P":
        found = tile_problem(unlabelled, state.board, coord, tile_id, colours)
    return found


def placements(state: GameState, coord: str, tile_id: str) -> list[int]:
    """Every rotation at which ``tile_id`` fits ``coord`` by the map and the river
    (not yet the connection)."""
    closed = river_closed(state)
    board_map = rules_map(state.title, state.rules)  # and its unlabelled variant (problem)

    def fitting() -> list[int]:
        if problem(state, coord, tile_id) is not None:
            return []
        return [r for r in range(6) if rotation_problem(
            board_map, state.board, coord, tile_id, r, river_closed=closed) is None]

    return remembered_fits(board_map, state.board, coord, tile_id, phase_colours(state),
                           closed, fitting)


def river_refusal(state: GameState, coord: str, tile_id: str,
                  exits: list[str] | None) -> str | None:
    """The sentence refusing a lay that only the closed river forbids (None: not so)."""
    if not river_closed(state) or state.map.hex(coord).river is None \
            or problem(state, coord, tile_id) is not None:
        return None
    tile = state.map.tiles[tile_id]
    wanted = frozenset(hexes.parse_edge(e) for e in exits) if exits else None
    rotations = [r for r in range(6) if wanted is None or tile.exits(r) == wanted]
    board_map = rules_map(state.title, state.rules)
    if not rotations or any(rotation_problem(board_map, state.board, coord, tile_id, r,
                                             river_closed=True) is None for r in rotations):
        return None
    if not any(rotation_problem(board_map, state.board, coord, tile_id, r) is None
               for r in rotations):
        return None
    how = f"connecting {'-'.join(exits)}" if exits else "in any direction"
    return (f"Tile {tile_id} on {coord} {how} would cross the Mississippi: no track may cross "
            "the river while a player owns the Mississippi River Bridge Company.")


# -- laying ------------------------------------------------------------------------------------


def lay(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    """Lay or upgrade a tile (p.19)."""
    state = ctx.state
    coord, tile_id = action["hex"].upper(), str(action["tile"])
    require(coord in state.map.hexes, f"There is no hex {coord} on the 1870 map.", TRACK)
    tile = state.map.tiles.get(tile_id)
    require(tile is not None, f"There is no tile {tile_id} in 1870.", TRACK)
    turn = state.round["turn"]
    left = lays_left(state, corp)
    kind = _kind_of(state, coord)
    home = state.rules.corp(corp).home
    with_ = action.get("with")
    use_home = with_ is not None and left["home"] and coord == home
    if with_ is not None:
        extra = state.rules.private(with_).extra if with_ in state.rules.privates else {}
        require("home_tile_lay" in extra, f"{with_} gives no tile lay.", TRACK)
        require(use_home or terrain_cost(state, corp, coord, with_)[1] == with_,
                f"{with_} gives {corp} a free lay on its home hex {home} (bought by MP or SSW "
                "in its first operating round) or $40 off the first tile of one river hex; "
                f"neither is left for {coord}.", MRBC_RULE)
    if not use_home and not left[kind]:
        raise RulesError(_lay_refusal(corp, turn.get("lays") or []), TRACK)
    homes_laid = turn.get("home_laid") or False
    require(not (coord == home and homes_laid), f"{corp} has laid a tile on its home hex "
            f"{home} this round; it may not upgrade it in the same operating round.",
            MRBC_RULE)
    found = problem(state, coord, tile_id)
    require(found is None, found or "", MANIFEST if "upgraded only" in (found or "") else TRACK)
    river = river_refusal(state, coord, tile_id, action.get("exits"))
    require(river is None, river or "", MRBC_RULE)
    try:
        rotation = choose_rotation(state, corp, coord, tile_id, action.get("exits"),
                                   action.get("paths"), with_, fits_map=placements)
    except RulesError:
        better = unconnected(state, corp, coord, tile_id, action.get("exits"))
        if better is None:
            raise
        raise RulesError(better, TRACK) from None
    cost, discount = terrain_cost(state, corp, coord, with_)
    if use_home:
        cost, discount = 0, None
        if state.options.get("mrbc_uses") == "one" and with_ is not None:
            ctx.emit(PrivateUsed(with_))  # 18xx.games: one use of its ability
    require(state.corps[corp].cash >= cost, f"Laying on {coord} costs {money(cost)} for the "
            f"terrain; {corp} has {money(state.corps[corp].cash)}.", TRACK)
    moved = token_map(state.map, state.board, coord, tile_id, rotation) or {}
    ctx.emit(TileLaid.on(state, coord, tile_id, rotation))
    ctx.pay(corp_holder(corp), BANK, cost)
    follow_markers(ctx, coord, moved)
    paid = f" and pays {money(cost)} for the terrain" if cost else ""
    if discount is not None:
        paid += f" ({discount}'s $40 off)"
        ctx.emit(PrivateUsed(discount))
    free = " (free, with the Mississippi River Bridge Company)" if use_home else ""
    ctx.log(f"{corp} lays tile {tile_id} on {coord} ({exits_text(state, tile_id, rotation)})"
            f"{paid}{free}.")
    new_turn = dict(state.round["turn"])
    if use_home:
        new_turn["home_lay"] = "used"
    else:
        new_turn["lays"] = list(new_turn.get("lays") or []) + [kind]
    if coord == home:
        new_turn["home_laid"] = True
    new_turn["laid"] = False
    ctx.round_set(turn=new_turn)
    after = lays_left(state, corp)
    if not (after["yellow"] or after["upgrade"] or after["home"]):
        ctx.round_set(turn={**state.round["turn"], "laid": True})


def unconnected(state: GameState, corp: str, coord: str, tile_id: str,
                exits: list[str] | None) -> str | None:
    """The sentence refusing a lay that fits the map but not the connection rule (None:
    that is not why it was refused)."""
    tile = state.map.tiles[tile_id]
    wanted = frozenset(hexes.parse_edge(e) for e in exits) if exits else None
    fitting = [r for r in placements(state, coord, tile_id)
               if wanted is None or tile.exits(r) == wanted]
    if not fitting or any(connects(state, corp, coord, tile_id, r) for r in fitting):
        return None
    if state.options.get("tile_lay", "restrictive") == "restrictive":
        return (f"{corp} may lay tile {tile_id} on {coord} only if it can trace a route from "
                "one of its stations along new track of the tile, or if the tile raises the "
                f"value of a city {corp} can run to (the new track on {coord} is out of its "
                "reach).")
    return f"{corp} cannot trace a route from its stations to the track of tile {tile_id} on " \
        f"{coord}."


def _lay_refusal(corp: str, done: list[str]) -> str:
    if "upgrade" in done:
        did = "upgraded a tile"
    elif len(done) >= 2:
        did = "laid two yellow tiles"
    else:
        did = "laid a yellow tile"
    return (f"{corp} has already {did} this turn; a company lays two yellow tiles or upgrades "
            "one tile per turn.")


def follow_markers(ctx: Ctx, coord: str, moved: Mapping[int, int]) -> None:
    """Cattle and port tokens keep their city when the tile changes (p.19: "all station
    markers and other tokens on the tile must be placed on the new tile in the same
    locations")."""
    for name, marker in sorted(ctx.state.board.markers_at(coord).items()):
        stop = marker.get("stop")
        if stop is not None and moved.get(stop, stop) != stop:
            ctx.emit(Marker(name, {**marker, "stop": moved[stop]}))


def lay_options(state: GameState, corp: str) -> list[dict[str, Any]]:
    """Every tile lay the corporation may make now (for prompts and self-play)."""
    left = lays_left(state, corp)
    if not (left["yellow"] or left["upgrade"] or left["home"]):
        return []
    turn = state.round["turn"]
    home = state.rules.corp(corp).home
    moves = []
    reach = corp_reach(state, corp)
    arrivals = listing_arrivals(state, corp)
    for coord in near_hexes(state, corp):
        hex_ = state.map.hexes.get(coord)
        if hex_ is None or not hex_.buildable:
            continue
        if coord == home and turn.get("home_laid"):
            continue
        kind = _kind_of(state, coord)
        as_home = left["home"] and coord == home
        if not (left[kind] or as_home):
            continue
        discount = owned_with(state, corp, "terrain_discount")
        cost, used = terrain_cost(state, corp, coord, discount)
        using = discount if as_home or used else None
        if as_home:
            cost = 0
        if cost > state.corps[corp].cash:
            continue
        for tile_id in next_tiles(state, coord):
            fits = [r for r in placements(state, coord, tile_id)
                    if reaches(state, corp, coord, tile_id, r, reach, arrivals)]
            distinct = distinct_placements(state, coord, tile_id, fits)
            for r in distinct:
                fields = lay_fields(state.map.tiles[tile_id], r, distinct)
                moves.append({"action": {"type": "lay", "tile": tile_id, "hex": coord,
                                         **fields, "with": using}, "price": cost})
    return moves


def reaches(state: GameState, corp: str, coord: str, tile_id: str, rotation: int,
            reach: Reach, arrivals: Arrivals | None = None) -> bool:
    """ortrack.connects, faster for the first track on a hex: all its track is new, so
    reaching it is extending a route (the closed rule asks no more).  ``reach``:
    corp_reach(state, corp); ``arrivals``: listing_arrivals(state, corp)."""
    if tile_at(state.map, state.board, coord)[0].paths:
        return connects(state, corp, coord, tile_id, rotation, reach, arrivals)
    return touches_reach(state, reach, corp, coord, tile_id, rotation)


def current_tile(state: GameState, coord: str) -> str | None:
    """The id of the tile on ``coord`` (None: the printed hex)."""
    tile, _ = tile_at(state.map, state.board, coord)
    return None if tile.id.startswith("@") else tile.id


def private_moves(state: GameState, corp: str) -> list[dict[str, Any]]:
    """Buying the private companies whose abilities this module and tokens.py carry out
    (MRBC, SCC, GSC), at face value or what the company can pay (for self-play)."""
    assert state.phase is not None
    moves: list[dict[str, Any]] = []
    may_buy = state.rules.phase(state.phase).corporations_buy_privates
    cash = state.corps[corp].cash
    for sym, private in sorted(state.privates.items()):
        pdef = state.rules.private(sym)
        if private.closed or not private.owner.startswith("p:") or not (
                "terrain_discount" in pdef.extra or "token" in pdef.extra):
            continue
        early = early_private_sale(state, corp, sym)
        if early is None and not may_buy:
            continue
        low, high = early or (pdef.value // 2, pdef.value * 2)
        price = max(low, min(high, pdef.value, cash))
        if price <= cash:
            moves.append({"action": {"type": "buy_private", "private": sym,
                                     "from": private.owner[2:], "price": price},
                          "price": price})
    return moves
