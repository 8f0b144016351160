"""Track and stations in an operating turn (laying tiles, placing stations, the private
companies' tile lays): the common rules; a title with other rules has its own steps."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, TypeVar

from .board import hexes
from .board.firstroutes import FirstRoutes, proves_closed_lay
from .board.map import tile_at
from .board.tiles import Tile, next_colour
from .board.track import (
    Arrivals,
    Reach,
    RouteMoves,
    closed_lay_ok,
    joins_cities,
    lay_problem,
    placements,
    reachable,
    token_map,
)
from .context import Ctx, money, require
from .errors import AmbiguousError, RulesError
from .facts import PrivateUsed, Station, StationMoved, TileLaid
from .memo import ByIdentity
from .orrun import local_track, position_key, revenue_column, track_graph
from .registry import book, cite
from .state import BANK, GameState, corp_holder

T = TypeVar("T")
#: the values of option tile_lay under which new track must extend a route (the closed rule)
CLOSED_RULES = ("restrictive", "strict")
_MOVES_CACHE: dict[tuple[Any, ...], RouteMoves] = {}
_REACH_CACHE: dict[tuple[Any, ...], Reach] = {}
_ARRIVALS_CACHE: dict[tuple[Any, ...], Arrivals] = {}
_FIRST_CACHE: dict[tuple[Any, ...], FirstRoutes] = {}


def _per_board(cache: dict[tuple[Any, ...], T], state: GameState, corp: str,
               make: Callable[[], T], size: int = 128, position: Any = None) -> T:
    """make(), remembered while the position is the same (orrun.position_key, or
    ``position`` when the caller has it), at most ``size`` of them."""
    key = (position or position_key(state.map, state.board), corp)
    found = cache.get(key)
    if found is None:
        if len(cache) >= size:
            cache.clear()
        found = cache[key] = make()
    return found


def corp_moves(state: GameState, corp: str) -> RouteMoves:
    """The moves of the corporation's routes on the board (track.RouteMoves), remembered
    for the same board."""
    return _per_board(_MOVES_CACHE, state, corp,
                      lambda: RouteMoves(track_graph(state.map, state.board), corp), 32)


def corp_reach(state: GameState, corp: str) -> Reach:
    """track.reachable, remembered for the same board (prompts ask for it often)."""
    return _per_board(_REACH_CACHE, state, corp,
                      lambda: reachable(state.map, state.board, corp, corp_moves(state, corp)))


def corp_arrivals(state: GameState, corp: str) -> Arrivals:
    """track.Arrivals of the corporation, remembered for the same board (the closed rule
    asks it for every candidate lay)."""
    return _per_board(_ARRIVALS_CACHE, state, corp, lambda: Arrivals(corp_moves(state, corp)),
                      32)


def corp_first_routes(state: GameState, corp: str, position: Any = None) -> FirstRoutes:
    """The corporation's routes found breadth first (board.firstroutes), remembered for
    the same board, found as far as the questions asked so far needed."""
    return _per_board(_FIRST_CACHE, state, corp,
                      lambda: FirstRoutes(local_track(state.map, state.board), corp), 32,
                      position)


def reaches_stop(state: GameState, corp: str, stop: tuple[str, int]) -> bool:
    """Whether the corporation can trace a legal route to ``stop`` ((hex, stop index):
    ``stop in corp_reach(state, corp).stops``), first from its routes found breadth first
    (part of the reach: a station placed where they go needs no reach search), followed
    only as far as it takes."""
    first = corp_first_routes(state, corp)
    return first.until(lambda: stop in first.stops) or stop in corp_reach(state, corp).stops


def forget_boards() -> None:
    """Empty the caches above (a benchmark timing a whole replay starts from nothing, as
    a new process does)."""
    for cache in (_MOVES_CACHE, _REACH_CACHE, _ARRIVALS_CACHE, _FIRST_CACHE):
        cache.clear()


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


# -- naming a placement ------------------------------------------------------------------------
#
# "lay 57 H12 SW-NE" names a placement by the sides its track touches.  A few tiles touch
# the same sides in several ways: tile 25 (two curves leaving one side) touches SW, NW and
# E with the junction at SW, at NW or at E.  Such a placement is named by its track, each
# pair of sides a train may run between: "lay 25 H14 SW-NW/SW-E".


def joins(tile: Tile, rotation: int) -> frozenset[frozenset[int]]:
    """The pairs of hex sides a train may run between across the tile: a track from side
    to side, or two sides of one city or town.  Two tracks leaving the same side do not
    join their other ends: a route may not reverse at a junction (6.4.2)."""
    pairs: set[frozenset[int]] = set()
    at_stop: dict[int, set[int]] = {}
    for a, b in tile.rotated_paths(rotation):
        if a.kind == "edge" and b.kind == "edge":
            pairs.add(frozenset((a.n, b.n)))
            continue
        for this, other in ((a, b), (b, a)):
            if this.kind == "stop" and other.kind == "edge":
                at_stop.setdefault(this.n, set()).add(other.n)
    for edges in at_stop.values():
        pairs.update(frozenset(p) for p in itertools.combinations(sorted(edges), 2))
    return frozenset(pairs)


def joins_text(tile: Tile, rotation: int) -> str:
    """The track of a placement in the notation: "SW-NW/SW-E"."""
    pairs = sorted(tuple(sorted(p)) for p in joins(tile, rotation))
    return "/".join(f"{hexes.edge_name(a)}-{hexes.edge_name(b)}" for a, b in pairs)


def placement_key(state: GameState, coord: str, tile_id: str, rotation: int) -> Any:
    """What a placement puts on the board, whatever the rotation number: its track, its
    stops (kind, value, sides, the stations moved onto them).  Tile 57 at rotations 0
    and 3 lay the same track; so do tile 1's two towns at 0 and 3, their numbers swapped.
    On a hex without stations it is the tile's alone, remembered per map, tile and
    rotation (a lay asks it for every rotation)."""
    if any(state.board.tokens.get(coord, ())):
        return _placement_key(state, coord, tile_id, rotation)
    return _TILE_PLACEMENTS.get((state.map,), (tile_id, rotation),
                                lambda: _placement_key(state, coord, tile_id, rotation))


_TILE_PLACEMENTS: ByIdentity[Any] = ByIdentity(4096)


def _placement_key(state: GameState, coord: str, tile_id: str, rotation: int) -> Any:
    tile = state.map.tiles[tile_id]
    track = frozenset(frozenset((a.n, b.n)) for a, b in tile.rotated_paths(rotation)
                      if a.kind == "edge" and b.kind == "edge")
    if any(a.kind == "stop" and b.kind == "stop" for a, b in tile.rotated_paths(rotation)):
        return track, tile.layout(rotation)  # stop to stop: keep the stop numbers
    stations: dict[int, list[str]] = {}
    if any(state.board.tokens.get(coord, [])):
        moved = token_map(state.map, state.board, coord, tile_id, rotation) or {}
        for old, corps in enumerate(state.board.tokens[coord]):
            stations.setdefault(moved.get(old, old), []).extend(corps)
    stops = sorted((s.kind, repr(s.revenue), s.slots, tuple(sorted(tile.stop_exits(i, rotation))),
                    tuple(sorted(stations.get(i, [])))) for i, s in enumerate(tile.stops))
    return track, tuple(stops)


def distinct_placements(state: GameState, coord: str, tile_id: str,
                        rotations: list[int]) -> list[int]:
    """The rotations that put different things on the board (the first of each)."""
    seen: set[Any] = set()
    result = []
    for rotation in rotations:
        key = placement_key(state, coord, tile_id, rotation)
        if key not in seen:
            seen.add(key)
            result.append(rotation)
    return result


def placement_words(tile: Tile, rotation: int, others: list[int]) -> str:
    """The sides that name this placement among ``others``: its exits ("SW-NE"), or its
    track ("SW-NW/SW-E") when another of them touches the same sides differently."""
    exits = tile.exits(rotation)
    if any(tile.exits(o) == exits and joins(tile, o) != joins(tile, rotation) for o in others):
        return joins_text(tile, rotation)
    return "-".join(hexes.edge_name(e) for e in sorted(exits))


def lay_fields(tile: Tile, rotation: int, others: list[int]) -> dict[str, Any]:
    """The "exits" (and "paths", when they are needed) of a lay action naming this
    placement among ``others``: what the notation reads from placement_words."""
    words = placement_words(tile, rotation, others)
    if "/" not in words:
        return {"exits": words.split("-")}
    paths = [pair.split("-") for pair in words.split("/")]
    return {"exits": list(dict.fromkeys(side for pair in paths for side in pair)),
            "paths": paths}


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
                f"{' or '.join(lay['hexes'])} only.", cite(state, "private_abilities"))
        require(not private.used, f"{with_}'s tile lay has been used already.",
                cite(state, "private_abilities"))
        require(coord not in state.board.tiles, f"A tile already lies on {coord}.",
                cite(state, "private_abilities"))
        return "extra" if lay.get("extra") else "special"
    home = state.rules.corp(corp).home
    exception = state.rules.corp(corp).home_lay
    if coord == home and exception and tile_id in exception:
        return "home"
    return "normal"


def terrain_cost(state: GameState, corp: str, coord: str) -> int:
    """What the first tile on ``coord`` costs ``corp`` for the terrain (the title's rule:
    Rulebook.terrain_cost); nothing once a tile lies there."""
    if coord in state.board.tiles:
        return 0
    return book(state).terrain_cost(state, corp, coord, state.map.hex(coord).cost)


def lay(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    state = ctx.state
    coord, tile_id = action["hex"].upper(), str(action["tile"])
    kind = special_lay(state, corp, coord, tile_id, action.get("with"))
    turn = state.round["turn"]
    if kind == "extra":
        require(not turn["extra_lay"], f"{corp} has already used {action['with']} this turn.")
    else:
        require(not turn["laid"], f"{corp} has already laid a tile this turn; a corporation "
                "lays one tile or upgrades one tile per turn.", cite(state, "track"))
    blocker = blocked_by_private(state, coord)
    if blocker and not (kind in ("extra", "special") and blocker == action.get("with")):
        raise RulesError(f"No tile may be laid on {coord} while a player owns {blocker}.",
                         cite(state, "private_hexes"))
    needs_route = kind == "normal"
    rotation = choose_rotation(state, corp if needs_route else None, coord, tile_id,
                               action.get("exits"), action.get("paths"), action.get("with"))
    cost = terrain_cost(state, corp, coord)
    if kind == "special":
        cost = max(cost, state.rules.private(action["with"]).extra["tile_lay"].get("cost", 0))
    require(state.corps[corp].cash >= cost, f"Laying on {coord} costs {money(cost)} for the "
            f"terrain; {corp} has {money(state.corps[corp].cash)}.", cite(state, "terrain"))
    old_bare = not tile_at(state.map, state.board, coord)[0].paths
    joined = joins_cities(token_map(state.map, state.board, coord, tile_id, rotation) or {})
    ctx.emit(TileLaid.on(state, coord, tile_id, rotation))
    ctx.pay(corp_holder(corp), BANK, cost)
    paid = f" and pays {money(cost)} for the terrain" if cost else ""
    words = placement_words(state.map.tiles[tile_id], rotation, ROTATIONS)
    ctx.log(f"{corp} lays tile {tile_id} on {coord} ({words}){paid}.")
    book(state).tile_laid(ctx, corp, coord, cost)
    ask_station_cities(ctx, corp, coord, old_bare)
    if joined:
        ask_joined_station(ctx, coord)
    if kind in ("extra", "special"):
        ctx.emit(PrivateUsed(action["with"]))
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
    station_into_city(ctx, corp, coord, owner, action)
    rest = pending["corps"][1:]
    turn = {**state.round["turn"], "retoken": {"hex": coord, "corps": rest} if rest else None}
    ctx.round_set(turn=turn)


def station_into_city(ctx: Ctx, chooser: str, coord: str, owner: str,
                      action: dict[str, Any]) -> None:
    """``owner``'s station on ``coord`` goes into the city ``action`` (token HEX N) names,
    chosen by ``chooser`` (a company or a player)."""
    state = ctx.state
    require(action.get("type") == "token" and action.get("hex", "").upper() == coord,
            f"{chooser} must first choose the city of {owner}'s station on {coord}: token "
            f"{coord} 1 or token {coord} 2.", cite(state, "station"))
    stop = city_for(state, coord, action.get("city"))
    tile, _ = tile_at(state.map, state.board, coord)
    others = [c for c in state.board.tokens_at(coord, stop) if c != owner]
    require(stop < len(tile.stops) and tile.stops[stop].kind == "city"
            and len(others) < tile.stops[stop].slots, f"There is no room in city {stop + 1} "
            f"of {coord}.", cite(state, "station"))
    ctx.emit(StationMoved.on(state, coord, stop, owner))
    ctx.log(f"{owner}'s station on {coord} goes into city {stop + 1}.")


def ask_joined_station(ctx: Ctx, coord: str) -> None:
    """A lay that joined the track of several cities into one city (a tile of
    Map.joining: a flexible-exits variant): the president of the company with a
    station on the hex chooses the city it goes into (token HEX N; ChooseJoinedCity)."""
    state = ctx.state
    owners = [c for stop in state.board.tokens.get(coord, []) for c in stop]
    if not owners:
        return
    owner = owners[0]
    ctx.round_set(joined_station={"hex": coord, "corp": owner})
    ctx.log(f"The track of the cities of {coord} is joined: {state.president(owner)} chooses "
            f"the city of {owner}'s station (token {coord} 1 or token {coord} 2).")


def choose_joined_city(ctx: Ctx, action: dict[str, Any]) -> None:
    """The answer to ask_joined_station."""
    state = ctx.state
    pending = state.round["joined_station"]
    owner = pending["corp"]
    president = state.president(owner)
    require(ctx.actor == president, f"{president} must first choose the city of {owner}'s "
            f"station on {pending['hex']}.", cite(state, "station"))
    station_into_city(ctx, str(president), pending["hex"], owner, action)
    ctx.round_set(joined_station=None)


ROTATIONS = list(range(6))


def choose_rotation(state: GameState, corp: str | None, coord: str, tile_id: str,
                    exits: list[str] | None, paths: list[list[str]] | None = None,
                    using: str | None = None,
                    fits_map: Callable[[GameState, str, str], list[int]] | None = None) -> int:
    """The rotation whose exits are ``exits`` (and whose track joins each pair of sides in
    ``paths``); with neither, the only placement that fits.  Several placements that fit
    the words given are refused with the commands that name each one (AmbiguousError).
    ``fits_map``: the rotations at which the tile fits the map (default: fitting)."""
    colours = phase_colours(state)
    tile = state.map.tiles.get(tile_id)
    if tile is None:
        raise RulesError(f"There is no tile {tile_id} in {state.title}.", cite(state, "track"))
    if coord not in state.map.hexes:
        raise RulesError(f"There is no hex {coord} on the {state.title} map.", cite(state, "track"))
    fitting_map = (fits_map or fitting)(state, coord, tile_id)

    def lays(rotations: list[int]) -> list[int]:
        """The distinct placements among ``rotations`` that connect (first of each)."""
        if corp is None or not rotations:
            return distinct_placements(state, coord, tile_id, rotations)
        position = position_key(state.map, state.board)  # the same for every rotation
        legal = [r for r in rotations
                 if connects(state, corp, coord, tile_id, r, position=position)]
        return distinct_placements(state, coord, tile_id, legal)

    if paths and exits is None:
        exits = [side for pair in paths for side in pair]
    if exits is None:
        fits = lays(fitting_map)
        if len(fits) == 1:
            return fits[0]
        if not fits:
            problem = lay_problem(state.map, state.board, coord, tile_id, 0, colours, corp=corp)
            if problem is None or "would not" in problem or "With tile" in problem:
                problem = f"Tile {tile_id} fits {coord} in no direction."
            raise RulesError(problem, cite(state, "track"))
        raise AmbiguousError(f"Tile {tile_id} fits {coord} in several ways; say which: "
                             f"{lay_commands(tile, coord, fits, fits, using, ', ')}.",
                             cite(state, "track"))
    wanted = frozenset(hexes.parse_edge(e) for e in exits)
    matching = [r for r in ROTATIONS if tile.exits(r) == wanted]
    if not matching:
        raise RulesError(f"Tile {tile_id} cannot be turned to connect exactly "
                         f"{'-'.join(exits)}.", cite(state, "track"))
    if paths:
        pairs = [frozenset(hexes.parse_edge(e) for e in pair) for pair in paths]
        matching = [r for r in matching if all(p in joins(tile, r) for p in pairs)]
        if not matching:
            named = " and ".join("-".join(pair) for pair in paths)
            raise RulesError(f"Tile {tile_id} cannot be turned so that its track joins {named}.",
                             cite(state, "track"))
    # the placements that lay what a matching rotation lays; only they need the
    # connection rule (the first of each among the connecting rotations, as above)
    wanted_keys = [placement_key(state, coord, tile_id, m) for m in matching]
    chosen = lays([r for r in fitting_map
                   if placement_key(state, coord, tile_id, r) in wanted_keys])
    if len(chosen) == 1:
        return chosen[0]
    if chosen:
        raise AmbiguousError(f"Tile {tile_id} can lie on {coord} touching {'-'.join(exits)} in "
                             f"{len(chosen)} ways, with different track; say which by naming each "
                             f"pair of sides its track joins: "
                             f"{lay_commands(tile, coord, chosen, chosen, using, ' or ')}.",
                             cite(state, "track"))
    problem = lay_problem(state.map, state.board, coord, tile_id, matching[0], colours,
                          corp=corp)
    raise RulesError(problem or f"Tile {tile_id} does not fit {coord} that way.",
                     cite(state, "track"))


def lay_commands(tile: Tile, coord: str, rotations: list[int], among: list[int],
                 using: str | None, joiner: str) -> str:
    """"lay 25 H14 SW-NW/SW-E or lay 25 H14 SW-NW/NW-E": commands naming each placement."""
    suffix = f" with {using}" if using else ""
    return joiner.join(f"lay {tile.id} {coord} {placement_words(tile, r, among)}{suffix}"
                       for r in rotations)


#: a Reach of nothing (touches_reach with it asks only about the company's stations)
NOTHING = Reach(frozenset(), frozenset(), frozenset())


def exit_edges(state: GameState, coord: str, tile_id: str, rotation: int
               ) -> set[tuple[str, int]]:
    """The hex edges the tile's exits touch, named from both hexes ((hex, edge), as
    Reach.edges names them)."""
    found = set()
    for edge in state.map.tiles[tile_id].exits(rotation):
        found.add((coord, edge))
        other = state.map.neighbour(coord, edge)
        if other is not None:
            found.add((other, hexes.opposite(edge)))
    return found


def touches_reach(state: GameState, reach: Reach, corp: str, coord: str, tile_id: str,
                  rotation: int) -> bool:
    """Whether the corporation reaches the track of ``tile_id`` laid on ``coord``: the
    same answer as track.new_tile_connected, from one reachability search for all
    candidates.  Old track is kept by an upgrade, and a route reaching a side of the
    hex (or a station on it) may go on along any new track there."""
    if any(c == coord for c, _ in reach.paths):
        return True
    if not reach.edges.isdisjoint(exit_edges(state, coord, tile_id, rotation)):
        return True
    tile = state.map.tiles[tile_id]
    stations = [stop for c, stop in state.board.stations(corp) if c == coord]
    if stations:
        moved = token_map(state.map, state.board, coord, tile_id, rotation) or {}
        new_stops = {moved.get(stop, stop) for stop in stations}
        for path in tile.rotated_paths(rotation):
            if any(end.kind == "stop" and end.n in new_stops for end in path):
                return True
    return False


def near_hexes(state: GameState, corp: str) -> list[str]:
    """The hexes a corporation's track reaches or borders, and its station hexes: where
    a tile lay can connect (for listing the lays)."""
    reach = corp_reach(state, corp)
    near = set(reach.hexes)
    for coord, edge in reach.edges:
        other = state.map.neighbour(coord, edge)
        if other:
            near.add(other)
    for c, _ in state.board.stations(corp):
        near.add(c)
    return sorted(near)


def connects(state: GameState, corp: str, coord: str, tile_id: str, rotation: int,
             reach: Reach | None = None, arrivals: Arrivals | None = None, *,
             position: Any = None) -> bool:
    """The tile-lay connection rule of the game: "open" (the corporation reaches some
    track of the new tile), "restrictive" (semi-restricted: new track extends a route or
    a reached city rises in value) or "strict" (restricted: new track extends a
    route).  ``reach``: corp_reach(state, corp), ``arrivals``: corp_arrivals(state, corp),
    when the caller has them (a listing asks for every candidate); ``position``:
    orrun.position_key of the state's board, when the caller has it."""
    rule = state.options.get("tile_lay", "open")
    if reach is None:
        # first what the routes found breadth first prove (part of the reach: the tests
        # can only say yes more often with more): those found whole when a listing has
        # made them for this position (Arrivals), else those found so far, followed only
        # as far as it takes (FirstRoutes: the same routes)
        position = position or position_key(state.map, state.board)
        known = _ARRIVALS_CACHE.get((position, corp))
        if known is None and _first_routes_prove(state, corp, coord, tile_id, rotation, rule,
                                                 position):
            return True
        if known is not None or rule in CLOSED_RULES:
            found = (known or corp_arrivals(state, corp)).found_reach
            if touches_reach(state, found, corp, coord, tile_id, rotation) and (
                    rule not in CLOSED_RULES or
                    _closed_ok(state, corp, coord, tile_id, rotation, found, rule)):
                return True
    reach = reach or corp_reach(state, corp)
    if not touches_reach(state, reach, corp, coord, tile_id, rotation):
        return False
    if rule in CLOSED_RULES:
        return _closed_ok(state, corp, coord, tile_id, rotation, reach, rule, arrivals)
    return True


def _first_routes_prove(state: GameState, corp: str, coord: str, tile_id: str,
                        rotation: int, rule: str, position: Any) -> bool:
    """Whether the routes found breadth first so far (corp_first_routes) prove the lay
    (the open rule: one reaches the new tile; a closed one: firstroutes.proves_closed_lay)."""
    first = corp_first_routes(state, corp, position)
    at_stations = touches_reach(state, NOTHING, corp, coord, tile_id, rotation)
    edges = exit_edges(state, coord, tile_id, rotation)
    if rule not in CLOSED_RULES:
        return at_stations or first.touches(coord, edges)
    return proves_closed_lay(first, coord, tile_id, rotation, at_stations, edges,
                             revenue_column(state), rule != "strict")


def _closed_ok(state: GameState, corp: str, coord: str, tile_id: str, rotation: int,
               reach: Reach, rule: str, arrivals: Arrivals | None = None) -> bool:
    return closed_lay_ok(state.map, state.board, coord, tile_id, rotation, corp,
                         revenue_column(state), reach.stops, rise_counts=rule != "strict",
                         arrivals=arrivals or corp_arrivals(state, corp))


def listing_arrivals(state: GameState, corp: str) -> Arrivals | None:
    """corp_arrivals(state, corp) when the game's connection rule is a closed one (a
    listing of lays passes it to connects for every candidate), else None."""
    if state.options.get("tile_lay", "open") in CLOSED_RULES:
        return corp_arrivals(state, corp)
    return None


def fitting(state: GameState, coord: str, tile_id: str) -> list[int]:
    """The rotations at which the tile fits the map (a title with its own readings of
    the tiles passes its own to choose_rotation)."""
    return placements(state.map, state.board, coord, tile_id, phase_colours(state))


def next_tiles(state: GameState, coord: str) -> list[str]:
    """The tiles left in the supply of the colour that may follow the hex's current
    tile, by id: the only ones tile_problem may let on it (for listing lays)."""
    wanted = next_colour(tile_at(state.map, state.board, coord)[0].colour)
    tiles = state.map.tiles
    return [tile_id for tile_id, left in sorted(state.board.tiles_left.items())
            if left > 0 and tile_id in tiles and tiles[tile_id].colour == wanted]


def lay_options(state: GameState, corp: str) -> list[dict[str, Any]]:
    """Every tile lay the corporation may make now (for prompts and self-play)."""
    colours = phase_colours(state)
    moves = []
    reach = corp_reach(state, corp)
    arrivals = listing_arrivals(state, corp)
    for coord in near_hexes(state, corp):
        hex_ = state.map.hexes.get(coord)
        if hex_ is None or not hex_.buildable or blocked_by_private(state, coord):
            continue
        cost = terrain_cost(state, corp, coord)
        if cost > state.corps[corp].cash:
            continue
        for tile_id in next_tiles(state, coord):
            fits = [r for r in placements(state.map, state.board, coord, tile_id, colours)
                    if connects(state, corp, coord, tile_id, r, reach, arrivals)]
            distinct = distinct_placements(state, coord, tile_id, fits)
            for r in distinct:
                fields = lay_fields(state.map.tiles[tile_id], r, distinct)
                moves.append({"action": {"type": "lay", "tile": tile_id, "hex": coord,
                                         **fields, "with": None}, "price": cost})
    return moves


# -- stations ----------------------------------------------------------------------------------


def reserved_for(state: GameState, coord: str, stop: int, corp: str) -> str | None:
    """Another corporation that has not yet operated whose home this slot is (6.3.2); not
    one that has closed, which never starts (a title's closing rule)."""
    for other, cdef in state.rules.corporations.items():
        if other == corp or cdef.home != coord or state.corps[other].operated or \
                state.corps[other].closed:
            continue
        if any(coord == c for c, _ in state.board.stations(other)):
            continue
        if cdef.home_city is None or home_stop(state, other) == stop:
            return other
    return None


def home_stop(state: GameState, corp: str) -> int | None:
    """The city of the hex's tile now that is ``corp``'s printed home city: the one
    joined to the printed city's track, which an upgrade keeps (a printed hex of two
    cities: the home city on side 3 is the second city of a tile whose second city
    joins sides 2 and 3)."""
    cdef = state.rules.corp(corp)
    if cdef.home_city is None:
        return None
    exits = state.map.hex(cdef.home).tile.stop_exits(cdef.home_city)
    tile, rotation = tile_at(state.map, state.board, cdef.home)
    if exits and cdef.home in state.board.tiles:
        for i, stop in enumerate(tile.stops):
            if stop.kind == "city" and exits <= tile.stop_exits(i, rotation):
                return i
    return cdef.home_city


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


def city_for(state: GameState, coord: str, city: int | None,
             allowed: Callable[[int], bool] | None = None) -> int:
    """The city (its index on the tile) a command names, or the only one it can mean: the
    hex's only city, its only city with room, or the only one ``allowed`` (where the
    corporation may place a station: `token D10` after a 59 whose other city its track
    does not reach).  Else the player is asked which."""
    tile, _ = tile_at(state.map, state.board, coord)
    cities = [i for i, s in enumerate(tile.stops) if s.takes_stations]
    if city is not None:
        return city - 1
    require(bool(cities), f"There is no city on {coord}.", cite(state, "station"))
    if len(cities) == 1:
        return cities[0]
    free = [i for i in cities if len(state.board.tokens_at(coord, i)) < tile.stops[i].slots]
    if len(free) == 1:
        return free[0]
    legal = [i for i in free if allowed(i)] if allowed is not None else []
    if len(legal) == 1:
        return legal[0]
    raise RulesError(f"{coord} has {len(cities)} cities: say which, e.g. token {coord} 1 or "
                     f"token {coord} 2.", cite(state, "station"))


def next_token_price(state: GameState, corp: str) -> int | None:
    prices = state.rules.corp(corp).token_prices
    placed = sum(1 for _ in state.board.stations(corp))
    return prices[placed] if placed < len(prices) else None


def place_station(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    state = ctx.state
    turn = state.round["turn"]
    coord = action["hex"].upper()
    require(coord in state.map.hexes, f"There is no hex {coord}.")
    require(not turn["token"], f"{corp} has already placed a station this turn.",
            cite(state, "station"))
    price = next_token_price(state, corp)
    require(price is not None, f"{corp} has no station tokens left.", cite(state, "station"))
    assert price is not None
    free_dh = action.get("with") is not None
    if free_dh:
        sym = action["with"]
        extra = state.rules.private(sym).extra if sym in state.rules.privates else {}
        require("tile_lay" in extra and extra["tile_lay"].get("token"),
                f"{sym} gives no station.")
        now = turn.get("special_lay") == sym or \
            book(state).special_station_later(state, corp, sym)
        require(now and coord in extra["tile_lay"]["hexes"],
                f"With {sym} the station is free only on {extra['tile_lay']['hexes'][0]} in the "
                f"turn {corp} lays the tile there with {sym}.", cite(state, "private_abilities"))
        price = 0
    stop = city_for(state, coord, action.get("city"), lambda i: token_problem(
        state, corp, coord, i) is None and (free_dh or reaches_stop(state, corp, (coord, i))))
    problem = token_problem(state, corp, coord, stop)
    require(problem is None, problem or "", cite(state, "station"))
    if not free_dh and not reaches_stop(state, corp, (coord, stop)):
        raise RulesError(*unreached_city(state, corp, coord, stop))
    require(state.corps[corp].cash >= price, f"A station costs {corp} {money(price)}; it has "
            f"{money(state.corps[corp].cash)}.", cite(state, "station"))
    ctx.emit(Station.on(state, coord, stop, corp))
    ctx.pay(corp_holder(corp), BANK, price)
    ctx.log(f"{corp} places a station on {coord} for {money(price)}.")
    ctx.round_set(turn={**state.round["turn"], "token": True})


def unreached_city(state: GameState, corp: str, coord: str, stop: int
                   ) -> tuple[str, str | None]:
    """Why the corporation cannot trace a route to a city (6.3.2), and the rule: full
    cities of other railroads on the way (6.3.3), track reached only by reversing at a
    junction (6.4.2), or no track from its stations at all."""
    where = f"{corp} cannot trace a route from one of its stations to the city on {coord}"
    board = state.board
    reach = corp_reach(state, corp)
    full = sorted((c, i) for c, i in reach.stops
                  if board.tokens_at(c, i) and corp not in board.tokens_at(c, i)
                  and len(board.tokens_at(c, i)) >= tile_at(state.map, board, c)[0].stops[i].slots)
    for c, i in full:
        opened = board.copy()
        opened.tokens[c][i] = []
        if (coord, stop) in reachable(state.map, opened, corp).stops:
            owners = " and ".join(f"{o}'s station" for o in board.tokens_at(c, i))
            return (f"{where}: {owners} on {c} fills that city, and a route may not pass "
                    "through a city whose every circle holds another railroad's station.",
                    cite(state, "blocking"))
    opened = board.copy()
    opened.tokens = {c: [[o for o in s if o == corp] for s in stops]
                     for c, stops in board.tokens.items()}
    if (coord, stop) in reachable(state.map, opened, corp).stops:
        return (f"{where}: the stations of other railroads fill the cities on every way there.",
                cite(state, "blocking"))
    if track_joined(state, corp, coord, stop):
        return (f"{where}: its track leads there only by reversing at a junction, and a route "
                "may not reverse at a junction.", cite(state, "route"))
    return f"{where}: no track connects them.", cite(state, "station_route")


def track_joined(state: GameState, corp: str, coord: str, stop: int) -> bool:
    """Whether track joins one of the corporation's stations to the city at all, ignoring
    stations and the ban on reversing at a junction (never through an off-board area)."""
    parent: dict[Any, Any] = {}

    def find(node: Any) -> Any:
        while parent.setdefault(node, node) != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def node(c: str, end: Any, path: int) -> Any:
        if end.kind == "stop":
            tile = tile_at(state.map, state.board, c)[0]
            offboard = tile.stops[end.n].kind == "offboard"
            return (c, "stop", end.n, path) if offboard else (c, "stop", end.n)
        other = state.map.neighbour(c, end.n)
        side = (c, end.n)
        return min(side, (other, hexes.opposite(end.n))) if other else side

    for c in state.map.hexes:
        tile, rotation = tile_at(state.map, state.board, c)
        for n, (a, b) in enumerate(tile.rotated_paths(rotation)):
            parent[find(node(c, a, n))] = find(node(c, b, n))
    target = find((coord, "stop", stop))
    return any(find((c, "stop", i)) == target for c, i in state.board.stations(corp))


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
    stop = home_stop(state, corp)
    if stop is None:
        if cdef.home in state.board.tiles:
            return False
        stop = 0
    ctx.emit(Station.on(state, cdef.home, stop, corp))
    ctx.log(f"{corp} places its home station on {cdef.home}.")
    return True
