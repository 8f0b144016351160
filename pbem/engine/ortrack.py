"""Track and stations in an operating turn (1830 6.2, 6.3, and the private companies)."""

from __future__ import annotations

from typing import Any

from . import hexes
from .board import tile_at
from .context import Ctx, money, require
from .errors import RulesError
from .state import BANK, GameState, board_key, corp_holder
from .tiles import unique_rotations
from .track import Reach, closed_lay_ok, lay_problem, placements, reachable, token_map

TRACK_RULE = "1830 6.2"
STATION_RULE = "1830 6.3"


_REACH_CACHE: dict[tuple[Any, ...], Reach] = {}


def corp_reach(state: GameState, corp: str) -> Reach:
    """track.reachable, remembered for the same board (prompts ask for it often)."""
    key = (state.title, corp, board_key(state.board))
    found = _REACH_CACHE.get(key)
    if found is None:
        if len(_REACH_CACHE) > 256:
            _REACH_CACHE.clear()
        found = _REACH_CACHE[key] = reachable(state.map, state.board, corp)
    return found


def phase_colours(state: GameState) -> tuple[str, ...]:
    assert state.phase is not None
    return state.rules.phase(state.phase).tiles


def owned_private(state: GameState, corp: str, ability: str) -> str | None:
    """The private company with ``ability`` (a key of its extra data) owned by ``corp``."""
    for sym, private in state.privates.items():
        if private.owner == corp_holder(corp) and not private.closed:
            if ability in state.rules.private(sym).extra:
                return sym
    return None


def blocked_by_private(state: GameState, coord: str) -> str | None:
    """A player-owned private company whose hex this is: no tile may go there (6.2.1)."""
    for sym, private in state.privates.items():
        if private.closed or not private.owner.startswith("p:"):
            continue
        if coord in state.rules.private(sym).hexes:
            return sym
    return None


def exits_text(state: GameState, tile_id: str, rotation: int) -> str:
    tile = state.map.tiles[tile_id]
    return "-".join(hexes.edge_name(e) for e in sorted(tile.exits(rotation)))


# -- laying a tile ---------------------------------------------------------------------------


def special_lay(state: GameState, corp: str, coord: str, tile_id: str, with_: str | None) -> str:
    """Which lay this is: "normal", "cs" (extra, no connection), "dh" (no connection,
    counts as the normal lay) or "home" (NYC's 57 on E19, Erie's 59 on E11)."""
    if with_ is not None:
        private = state.privates.get(with_)
        if private is None or private.owner != corp_holder(corp) or private.closed:
            raise RulesError(f"{corp} does not own {with_}.")
        lay: dict[str, Any] | None = state.rules.private(with_).extra.get("tile_lay")
        if lay is None:
            raise RulesError(f"{with_} gives no tile lay.")
        require(coord in lay["hexes"] and tile_id in lay["tiles"],
                f"With {with_} {corp} may lay tile {' or '.join(lay['tiles'])} on "
                f"{' or '.join(lay['hexes'])} only.", "1830 appendix")
        require(not private.used, f"{with_}'s tile lay has been used already.", "1830 appendix")
        require(coord not in state.board.tiles, f"A tile already lies on {coord}.",
                "1830 appendix")
        return "extra" if lay.get("extra") else "special"
    home = state.rules.corp(corp).home
    exception = state.rules.corp(corp).home_lay
    if coord == home and exception and tile_id in exception:
        return "home"
    return "normal"


def lay(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    state = ctx.state
    coord, tile_id = action["hex"].upper(), str(action["tile"])
    kind = special_lay(state, corp, coord, tile_id, action.get("with"))
    turn = state.round["turn"]
    if kind == "extra":
        require(not turn["extra_lay"], f"{corp} has already used {action['with']} this turn.")
    else:
        require(not turn["laid"], f"{corp} has already laid a tile this turn; a corporation "
                "lays one tile or upgrades one tile per turn.", TRACK_RULE)
    blocker = blocked_by_private(state, coord)
    if blocker and not (kind in ("extra", "special") and blocker == action.get("with")):
        raise RulesError(f"No tile may be laid on {coord} while a player owns {blocker}.",
                         "1830 6.2.1")
    needs_route = kind == "normal"
    rotation = choose_rotation(state, corp if needs_route else None, coord, tile_id,
                               action.get("exits"))
    cost = state.map.hex(coord).cost if coord not in state.board.tiles else 0
    if kind == "special":
        cost = max(cost, state.rules.private(action["with"]).extra["tile_lay"].get("cost", 0))
    require(state.corps[corp].cash >= cost, f"Laying on {coord} costs {money(cost)} for the "
            f"terrain; {corp} has {money(state.corps[corp].cash)}.", "1830 6.2.1")
    old_bare = not tile_at(state.map, state.board, coord)[0].paths
    ctx.emit("tile", hex=coord, tile=tile_id, rotation=rotation)
    ctx.pay(corp_holder(corp), BANK, cost)
    paid = f" and pays {money(cost)} for the terrain" if cost else ""
    ctx.log(f"{corp} lays tile {tile_id} on {coord} ({exits_text(state, tile_id, rotation)})"
            f"{paid}.")
    ask_station_cities(ctx, corp, coord, old_bare)
    if kind in ("extra", "special"):
        ctx.emit("private_used", sym=action["with"])
    if kind == "extra":
        ctx.round_set(turn={**state.round["turn"], "extra_lay": True})
    else:
        ctx.round_set(turn={**state.round["turn"], "laid": True,
                            "special_lay": action.get("with") if kind == "special" else None})


def ask_station_cities(ctx: Ctx, corp: str, coord: str, old_bare: bool) -> None:
    """Option station_retile=choose (18xx.games): a tile laid on a hex with several
    cities and no track yet, where stations already stand (the Erie's home on E11),
    lets the laying corporation put each station into the city it chooses (token HEX N).
    Default (keep): each station keeps its city number."""
    state = ctx.state
    if not old_bare or state.options.get("station_retile", "keep") != "choose":
        return
    tile, _ = tile_at(state.map, state.board, coord)
    owners = [c for stop in state.board.tokens.get(coord, []) for c in stop]
    if len(tile.cities()) > 1 and owners:
        ctx.round_set(turn={**state.round["turn"], "retoken": {"hex": coord, "corps": owners}})
        ctx.log(f"{corp} chooses the city of the station{'s' if len(owners) > 1 else ''} of "
                f"{', '.join(owners)} on {coord}: token {coord} 1 or token {coord} 2.")


def move_station(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    """The answer to ask_station_cities: the next station goes into the named city."""
    state = ctx.state
    pending = dict(state.round["turn"]["retoken"])
    coord, owner = pending["hex"], pending["corps"][0]
    require(action.get("type") == "token" and action.get("hex", "").upper() == coord,
            f"{corp} must first choose the city of {owner}'s station on {coord}: token {coord} 1 "
            f"or token {coord} 2.", STATION_RULE)
    stop = city_for(state, coord, action.get("city"))
    tile, _ = tile_at(state.map, state.board, coord)
    others = [c for c in state.board.tokens_at(coord, stop) if c != owner]
    require(stop < len(tile.stops) and tile.stops[stop].kind == "city"
            and len(others) < tile.stops[stop].slots, f"There is no room in city {stop + 1} "
            f"of {coord}.", STATION_RULE)
    ctx.emit("token_move", hex=coord, corp=owner, stop=stop)
    ctx.log(f"{owner}'s station on {coord} goes into city {stop + 1}.")
    rest = pending["corps"][1:]
    turn = {**state.round["turn"], "retoken": {"hex": coord, "corps": rest} if rest else None}
    ctx.round_set(turn=turn)


def choose_rotation(state: GameState, corp: str | None, coord: str, tile_id: str,
                    exits: list[str] | None) -> int:
    """The rotation whose exits are ``exits``; with no exits, the only one that fits."""
    colours = phase_colours(state)
    tile = state.map.tiles.get(tile_id)
    if tile is None:
        raise RulesError(f"There is no tile {tile_id} in {state.title}.", TRACK_RULE)
    if coord not in state.map.hexes:
        raise RulesError(f"There is no hex {coord} on the {state.title} map.", TRACK_RULE)
    fits = unique_rotations(tile, [
        r for r in placements(state.map, state.board, coord, tile_id, colours)
        if corp is None or connects(state, corp, coord, tile_id, r)])
    if exits is not None:
        wanted = frozenset(hexes.parse_edge(e) for e in exits)
        matching = [r for r in range(6) if tile.exits(r) == wanted]
        if not matching:
            raise RulesError(f"Tile {tile_id} cannot be turned to connect exactly "
                             f"{'-'.join(exits)}.", TRACK_RULE)
        legal = [r for r in matching if r in fits or _same_layout(state, tile_id, r, fits)]
        if legal:
            return legal[0]
        problem = lay_problem(state.map, state.board, coord, tile_id, matching[0], colours,
                              corp=corp)
        raise RulesError(problem or f"Tile {tile_id} does not fit {coord} that way.", TRACK_RULE)
    if len(fits) == 1:
        return fits[0]
    if not fits:
        problem = lay_problem(state.map, state.board, coord, tile_id, 0, colours, corp=corp)
        if problem is None or "would not" in problem or "With tile" in problem:
            problem = f"Tile {tile_id} fits {coord} in no direction."
        raise RulesError(problem, TRACK_RULE)
    options = ", ".join(f"lay {tile_id} {coord} {exits_text(state, tile_id, r)}" for r in fits)
    raise RulesError(f"Tile {tile_id} fits {coord} in several ways; say which: {options}.",
                     TRACK_RULE)


def _same_layout(state: GameState, tile_id: str, rotation: int, fits: list[int]) -> bool:
    tile = state.map.tiles[tile_id]
    return any(tile.layout(rotation) == tile.layout(r) for r in fits)


def touches_reach(state: GameState, reach: Reach, corp: str, coord: str, tile_id: str,
                  rotation: int) -> bool:
    """Whether the corporation reaches the track of ``tile_id`` laid on ``coord``: the
    same answer as track.new_tile_connected, from one reachability search for all
    candidates.  Old track is kept by an upgrade, and a route reaching a side of the
    hex (or a station on it) may go on along any new track there."""
    if any(c == coord for c, _ in reach.paths):
        return True
    tile = state.map.tiles[tile_id]
    for edge in tile.exits(rotation):
        other = state.map.neighbour(coord, edge)
        if (coord, edge) in reach.edges or (
                other is not None and (other, hexes.opposite(edge)) in reach.edges):
            return True
    stations = [stop for c, stop in state.board.stations(corp) if c == coord]
    if stations:
        moved = token_map(state.map, state.board, coord, tile_id, rotation) or {}
        new_stops = {moved.get(stop, stop) for stop in stations}
        for path in tile.rotated_paths(rotation):
            if any(end.kind == "stop" and end.n in new_stops for end in path):
                return True
    return False


def connects(state: GameState, corp: str, coord: str, tile_id: str, rotation: int) -> bool:
    """The tile-lay connection rule of the game: "open" (C-1.4: the corporation reaches
    some track of the new tile) or "restrictive" (V-7.7: new track extends a route or a
    reached city rises in value)."""
    reach = corp_reach(state, corp)
    if not touches_reach(state, reach, corp, coord, tile_id, rotation):
        return False
    if state.options.get("tile_lay", "open") == "restrictive":
        from .orrun import revenue_column

        return closed_lay_ok(state.map, state.board, coord, tile_id, rotation, corp,
                             revenue_column(state))
    return True


def lay_options(state: GameState, corp: str) -> list[dict[str, Any]]:
    """Every tile lay the corporation may make now (for prompts and self-play)."""
    colours = phase_colours(state)
    reach = corp_reach(state, corp)
    near = set(reach.hexes)
    for coord, edge in reach.edges:
        other = state.map.neighbour(coord, edge)
        if other:
            near.add(other)
    for c, _ in state.board.stations(corp):
        near.add(c)
    moves = []
    for coord in sorted(near):
        hex_ = state.map.hexes.get(coord)
        if hex_ is None or not hex_.buildable or blocked_by_private(state, coord):
            continue
        cost = hex_.cost if coord not in state.board.tiles else 0
        if cost > state.corps[corp].cash:
            continue
        for tile_id, left in sorted(state.board.tiles_left.items()):
            if left <= 0:
                continue
            fits = [r for r in placements(state.map, state.board, coord, tile_id, colours)
                    if connects(state, corp, coord, tile_id, r)]
            for r in unique_rotations(state.map.tiles[tile_id], fits):
                moves.append({"action": {"type": "lay", "tile": tile_id, "hex": coord,
                                         "exits": exits_text(state, tile_id, r).split("-"),
                                         "with": None}, "price": cost})
    return moves


# -- stations ----------------------------------------------------------------------------------


def reserved_for(state: GameState, coord: str, stop: int, corp: str) -> str | None:
    """Another corporation that has not yet operated whose home this slot is (6.3.2)."""
    for other, cdef in state.rules.corporations.items():
        if other == corp or cdef.home != coord or state.corps[other].operated:
            continue
        if any(coord == c for c, _ in state.board.stations(other)):
            continue
        if cdef.home_city is None or cdef.home_city == stop:
            return other
    return None


def token_problem(state: GameState, corp: str, coord: str, stop: int) -> str | None:
    board = state.board
    tile, _ = tile_at(state.map, board, coord)
    if stop >= len(tile.stops) or tile.stops[stop].kind != "city":
        return f"There is no city {stop + 1} on {coord}."
    if any(c == coord for c, _ in board.stations(corp)):
        return f"{corp} already has a station on {coord}."
    tokens = board.tokens_at(coord, stop)
    slots = tile.stops[stop].slots
    if len(tokens) >= slots:
        return f"The city on {coord} has no empty space."
    owner = reserved_for(state, coord, stop, corp)
    if owner is not None:
        free_after = slots - len(tokens) - 1
        home_city = state.rules.corp(owner).home_city
        if home_city is None or free_after < 1:
            return (f"That space on {coord} is kept for {owner}'s home station until {owner} "
                    "has operated.")
    return None


def city_for(state: GameState, coord: str, city: int | None) -> int:
    tile, _ = tile_at(state.map, state.board, coord)
    cities = [i for i, s in enumerate(tile.stops) if s.kind == "city"]
    if city is not None:
        return city - 1
    require(bool(cities), f"There is no city on {coord}.", STATION_RULE)
    if len(cities) == 1:
        return cities[0]
    free = [i for i in cities if len(state.board.tokens_at(coord, i)) < tile.stops[i].slots]
    if len(free) == 1:
        return free[0]
    raise RulesError(f"{coord} has {len(cities)} cities: say which, e.g. token {coord} 1 or "
                     f"token {coord} 2.", STATION_RULE)


def next_token_price(state: GameState, corp: str) -> int | None:
    prices = state.rules.corp(corp).token_prices
    placed = sum(1 for _ in state.board.stations(corp))
    return prices[placed] if placed < len(prices) else None


def place_station(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    state = ctx.state
    turn = state.round["turn"]
    coord = action["hex"].upper()
    require(coord in state.map.hexes, f"There is no hex {coord}.")
    require(not turn["token"], f"{corp} has already placed a station this turn.", STATION_RULE)
    stop = city_for(state, coord, action.get("city"))
    price = next_token_price(state, corp)
    require(price is not None, f"{corp} has no station tokens left.", STATION_RULE)
    assert price is not None
    free_dh = action.get("with") is not None
    if free_dh:
        sym = action["with"]
        extra = state.rules.private(sym).extra if sym in state.rules.privates else {}
        require("tile_lay" in extra and extra["tile_lay"].get("token"),
                f"{sym} gives no station.")
        require(turn.get("special_lay") == sym and coord in extra["tile_lay"]["hexes"],
                f"With {sym} the station is free only on {extra['tile_lay']['hexes'][0]} in the "
                f"turn {corp} lays the tile there with {sym}.", "1830 appendix")
        price = 0
    problem = token_problem(state, corp, coord, stop)
    require(problem is None, problem or "", STATION_RULE)
    if not free_dh:
        reach = corp_reach(state, corp)
        require((coord, stop) in reach.stops, f"{corp} cannot trace a route from one of its "
                f"stations to the city on {coord}.", "1830 6.3.2")
    require(state.corps[corp].cash >= price, f"A station costs {corp} {money(price)}; it has "
            f"{money(state.corps[corp].cash)}.", STATION_RULE)
    ctx.emit("token", hex=coord, stop=stop, corp=corp)
    ctx.pay(corp_holder(corp), BANK, price)
    ctx.log(f"{corp} places a station on {coord} for {money(price)}.")
    ctx.round_set(turn={**state.round["turn"], "token": True})


def token_options(state: GameState, corp: str) -> list[dict[str, Any]]:
    price = next_token_price(state, corp)
    if price is None or price > state.corps[corp].cash:
        return []
    reach = corp_reach(state, corp)
    moves = []
    for coord, stop in sorted(reach.stops):
        tile, _ = tile_at(state.map, state.board, coord)
        if tile.stops[stop].kind != "city" or token_problem(state, corp, coord, stop):
            continue
        cities = [i for i, s in enumerate(tile.stops) if s.kind == "city"]
        moves.append({"action": {"type": "token", "hex": coord,
                                 "city": stop + 1 if len(cities) > 1 else None, "with": None},
                      "price": price})
    return moves


def place_home(ctx: Ctx, corp: str) -> bool:
    """The home station at the start of the first turn (6.3.1).  False when the
    corporation must choose its city (the Erie on a tiled E11)."""
    state = ctx.state
    cdef = state.rules.corp(corp)
    if any(c == cdef.home for c, _ in state.board.stations(corp)):
        return True
    stop = cdef.home_city
    if stop is None:
        if cdef.home in state.board.tiles:
            return False
        stop = 0
    ctx.emit("token", hex=cdef.home, stop=stop, corp=corp)
    ctx.log(f"{corp} places its home station on {cdef.home}.")
    return True
