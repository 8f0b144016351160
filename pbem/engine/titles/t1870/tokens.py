"""1870 stations and the other pieces on the map.

* Stations (Place Station Markers, p.20): the home station is free, then the charter's
  $40 and $100 markers (and the destination marker kept at the connection run, as one
  more $100 marker); one per turn; a route to the city; no stacking; one per tile per
  company; the last space of an unstarted company's home stays free for it.
* The destination marker (Connection Run, p.23): place_destination_marker(), placed free
  at the edge of the destination hex (no city space) or kept as a $100 marker; with the
  station marker wars variant (p.25) it takes a city space in Dallas, Fort Worth, New
  Orleans and St. Louis when one is free.  It doubles the destination city for its
  company at the end of a route (Operate Trains, p.21).
* The cattle token (SCC) and the port tokens (GSC) (Private Companies, p.9): placed by
  the owning public company in its operating turn on an eligible city (token_hexes,
  option token_cities); +$10 for the owner (cattle), +$20 owner / +$10 others (open
  port), +$20 owner (closed port, which closes the GSC).  Never moved; removed at
  phase 5 (remove_port_and_cattle_tokens).

The pieces are BoardState.markers: "cattle" -> {hex, stop, corp}, "port" -> {hex, stop,
corp, open, round}, "destination:<corp>" -> {hex, stop} (stop None: at the hex edge).
revenue_bonuses() turns them into the company's routes.RevenueRules.
"""

from __future__ import annotations

from typing import Any

from ...board.map import stops_at, tile_at
from ...board.search import RevenueRules
from ...context import Ctx, money, require
from ...errors import RulesError
from ...facts import Marker, MarkerRemoved, PrivateClosed, PrivateUsed, Station
from ...maps import rules_map
from ...orrun import revenue_column
from ...ortrack import city_for, corp_reach, reaches_stop, reserved_for, unreached_city
from ...state import BANK, GameState, corp_holder

STATION = "Place Station Markers, p.20"
CONNECTION = "Connection Run, p.23"
PRIVATES = "Private Companies, p.9"
WARS = "Station Marker Wars, Variants, p.25"


def destination_key(corp: str) -> str:
    return f"destination:{corp}"


def slots_of(state: GameState, coord: str, stop: int) -> int:
    """Station spaces of a city now, by the options' reading of the tiles (gray_tiles)."""
    tile, _ = tile_at(rules_map(state.title, state.rules), state.board, coord)
    return tile.stops[stop].slots


# -- stations ----------------------------------------------------------------------------------


def station_prices(state: GameState, corp: str) -> list[int]:
    """The prices of the company's station markers in order: the charter's, then the
    destination marker when it was kept at the connection run ($100)."""
    prices = list(state.rules.corp(corp).token_prices)
    if state.corps[corp].destination_marker == "kept":
        data = state.rules.extra.get("destination_token", {})
        prices.append(int(data.get("price_as_station", 100)))
    return prices


def stations_placed(state: GameState, corp: str) -> int:
    """Station markers placed from the charter (a destination marker in a city space,
    station marker wars, is not one of them)."""
    placed = sum(1 for _ in state.board.stations(corp))
    marker = state.board.markers.get(destination_key(corp))
    if marker is not None and marker.get("stop") is not None:
        placed -= 1
    return placed


def next_station_price(state: GameState, corp: str) -> int | None:
    prices = station_prices(state, corp)
    placed = stations_placed(state, corp)
    return prices[placed] if placed < len(prices) else None


def station_problem(state: GameState, corp: str, coord: str, stop: int) -> str | None:
    """Why ``corp`` may not put a station on city ``stop`` of ``coord`` (None: it may),
    the route aside."""
    tile, _ = tile_at(state.map, state.board, coord)
    if stop >= len(tile.stops) or not tile.stops[stop].takes_stations:
        return f"There is no city {stop + 1} on {coord}."
    if any(c == coord for c, _ in state.board.stations(corp)):
        return f"{corp} already has a station on {coord}; a company may have one per tile."
    marker = state.board.markers.get(destination_key(corp))
    if marker is not None and marker["hex"] == coord:
        return (f"{corp}'s destination marker is on {coord}; a company may have one station "
                "marker per tile.")
    tokens = state.board.tokens_at(coord, stop)
    slots = slots_of(state, coord, stop)
    if len(tokens) >= slots:
        return (f"The city on {coord} has no empty space (station markers may not be "
                "stacked).")
    owner = reserved_for(state, coord, stop, corp)
    if owner is not None and slots - len(tokens) - 1 < 1:
        return (f"The last space on {coord} is kept for {owner}'s home station until {owner} "
                "has started operating.")
    return None


def place_station(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    """Place one station marker (p.20)."""
    state = ctx.state
    turn = state.round["turn"]
    coord = action["hex"].upper()
    require(coord in state.map.hexes, f"There is no hex {coord} on the 1870 map.", STATION)
    require(action.get("with") is None, f"{action.get('with')} gives no station marker.",
            STATION)
    require(not turn["token"], f"{corp} has already placed a station marker this turn; a "
            "company places one per operating round.", STATION)
    stop = city_for(state, coord, action.get("city"))
    price = next_station_price(state, corp)
    require(price is not None, f"{corp} has no station markers left.", STATION)
    assert price is not None
    problem = station_problem(state, corp, coord, stop)
    require(problem is None, problem or "", STATION)
    if not reaches_stop(state, corp, (coord, stop)):
        message, _ = unreached_city(state, corp, coord, stop)
        raise RulesError(message, STATION)
    require(state.corps[corp].cash >= price, f"A station marker costs {corp} {money(price)}; "
            f"it has {money(state.corps[corp].cash)}.", STATION)
    ctx.emit(Station.on(state, coord, stop, corp))
    ctx.pay(corp_holder(corp), BANK, price)
    ctx.log(f"{corp} places a station on {coord} for {money(price)}.")
    ctx.round_set(turn={**state.round["turn"], "token": True})


def token_options(state: GameState, corp: str) -> list[dict[str, Any]]:
    price = next_station_price(state, corp)
    if price is None or price > state.corps[corp].cash:
        return []
    moves = []
    for coord, stop in sorted(corp_reach(state, corp).stops):
        tile, _ = tile_at(state.map, state.board, coord)
        if not tile.stops[stop].takes_stations or station_problem(state, corp, coord, stop):
            continue
        cities = tile.cities()
        moves.append({"action": {"type": "token", "hex": coord,
                                 "city": stop + 1 if len(cities) > 1 else None, "with": None},
                      "price": price})
    return moves


# -- the destination marker ---------------------------------------------------------------------


def place_destination_marker(ctx: Ctx, corp: str, at_destination: bool) -> None:
    """The connection run's destination marker (p.23): placed free at the destination
    (at the edge of the hex, in no city space), or kept on the charter as one more $100
    station marker.  A company that already has a station at its destination keeps it.
    Station marker wars (option station_wars=yes, p.25): in Dallas, Fort Worth, New
    Orleans and St. Louis it takes a free city space, the edge only while none is free."""
    state = ctx.state
    c = state.corps[corp]
    dest = state.rules.corp(corp).destination
    require(dest is not None, f"{corp} has no destination.", CONNECTION)
    assert dest is not None
    key = destination_key(corp)
    require(key not in state.board.markers and c.destination_marker != "kept",
            f"{corp} has already used its destination marker.", CONNECTION)
    if at_destination and any(h == dest for h, _ in state.board.stations(corp)):
        ctx.log(f"{corp} already has a station on {dest}: its destination marker becomes an "
                "additional $100 station marker.")
        at_destination = False
    if not at_destination:
        ctx.corp_set(corp, destination_marker="kept")
        ctx.log(f"{corp} keeps its destination marker as an additional $100 station marker.")
        return
    stop = _war_space(state, corp, dest)
    if stop is not None:
        ctx.emit(Station.on(state, dest, stop, corp))
        where = "in a city space (station marker wars)"
    else:
        where = "at the edge of the hex"
    ctx.emit(Marker(key, {"hex": dest, "stop": stop}))
    ctx.corp_set(corp, destination_marker="placed")
    ctx.log(f"{corp} places its destination marker on {dest} {where}; it doubles the value of "
            f"{dest} for {corp} at the end of a route.")


def station_wars(state: GameState, dest: str) -> bool:
    return state.options.get("station_wars", "no") == "yes" and \
        dest in state.rules.extra.get("station_wars_destinations", [])


def _war_space(state: GameState, corp: str, dest: str) -> int | None:
    """The city space a destination marker takes in station marker wars (None: the edge)."""
    if not station_wars(state, dest):
        return None
    tile, _ = tile_at(state.map, state.board, dest)
    for stop in tile.cities():
        tokens = state.board.tokens_at(dest, stop)
        slots = slots_of(state, dest, stop)
        owner = reserved_for(state, dest, stop, corp)
        if len(tokens) < slots and not (owner is not None and slots - len(tokens) < 2):
            return stop
    return None


def settle_destination_markers(ctx: Ctx) -> None:
    """Station marker wars: a destination marker waiting at the edge of its hex moves
    into a city space that has become free (p.25; call after stations leave the map)."""
    state = ctx.state
    for key, marker in sorted(state.board.markers.items()):
        if not key.startswith("destination:") or marker.get("stop") is not None:
            continue
        corp = key.split(":", 1)[1]
        if state.corps[corp].closed:
            continue
        stop = _war_space(state, corp, marker["hex"])
        if stop is not None and not any(h == marker["hex"] for h, _ in
                                        state.board.stations(corp)):
            ctx.emit(Station.on(state, marker["hex"], stop, corp))
            ctx.emit(Marker(key, {**marker, "stop": stop}))
            ctx.log(f"{corp}'s destination marker moves into the free city space on "
                    f"{marker['hex']}.")


# -- cattle and port ----------------------------------------------------------------------------


def token_private(state: GameState, kind: str) -> str | None:
    """The private company whose token is ``kind`` ("cattle", "port")."""
    for sym, pdef in state.rules.privates.items():
        if pdef.extra.get("token", {}).get("kind") == kind:
            return sym
    return None


def eligible_hexes(state: GameState, kind: str) -> list[str]:
    hexes: list[str] = state.rules.extra.get("token_hexes", {}).get(kind, [])
    return hexes


def _owner_check(state: GameState, corp: str, kind: str) -> str:
    sym = token_private(state, kind)
    require(sym is not None, f"There is no {kind} token in {state.title}.", PRIVATES)
    assert sym is not None
    private = state.privates[sym]
    name = state.rules.private(sym).name
    require(private.owner == corp_holder(corp), f"{corp} does not own {name} ({sym}); only "
            "the public company owning it places its token, in its operating turn.", PRIVATES)
    require(not private.closed, f"{name} ({sym}) has closed; its token can no longer be "
            "placed or changed.", PRIVATES)
    return sym


def _stop_for(state: GameState, coord: str, city: int | None, kind: str) -> int:
    tile, _ = tile_at(state.map, state.board, coord)
    stops = [i for i, s in enumerate(tile.stops) if s.kind in ("city", "town", "offboard")]
    if city is not None:
        require(city - 1 in stops, f"There is no city {city} on {coord}.", PRIVATES)
        return city - 1
    if len(stops) == 1:
        return stops[0]
    raise RulesError(f"{coord} has {len(stops)} cities: say which, e.g. {kind} {coord} 1.",
                     PRIVATES)


def _where(state: GameState, kind: str, coord: str) -> None:
    eligible = eligible_hexes(state, kind)
    if kind == "cattle":
        why = "any city west of the Mississippi, not in a river hex"
    else:
        why = ("a city on the Gulf coast or on the Mississippi from Memphis south (in a hex "
               "holding part of either)")
    require(coord in eligible, f"The {kind} token may not go on {coord}: it goes on {why} "
            f"({', '.join(eligible)}).", PRIVATES)


def place_cattle(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    """The cattle token: +$10 for the owning company, once placed never moved; placing it
    does not close the SCC (p.9)."""
    state = ctx.state
    sym = _owner_check(state, corp, "cattle")
    placed = state.board.markers.get("cattle")
    require(placed is None, f"The cattle token is already on {placed and placed['hex']}; once "
            "placed it is never moved.", PRIVATES)
    coord = str(action.get("hex") or "").upper()
    _where(state, "cattle", coord)
    stop = _stop_for(state, coord, action.get("city"), "cattle")
    ctx.emit(Marker("cattle", {"hex": coord, "stop": stop, "corp": corp}))
    ctx.emit(PrivateUsed(sym))
    bonus = state.rules.private(sym).extra["token"].get("bonus", 10)
    ctx.log(f"{corp} places the cattle token ({sym}) on {coord}: +{money(bonus)} for {corp} "
            "on every route through it.")


def place_port(ctx: Ctx, corp: str, action: dict[str, Any]) -> None:
    """The open or the closed port token (p.9): the closed one closes the GSC; an open
    port may be replaced by the closed one in a later operating round."""
    state = ctx.state
    sym = _owner_check(state, corp, "port")
    closed = bool(action.get("closed"))
    coord = str(action.get("hex") or "").upper() or None
    here = [state.round.get("sr"), state.round.get("index")]
    placed = state.board.markers.get("port")
    if placed is not None:
        require(closed and placed["open"], f"The port token is already on {placed['hex']}; "
                "once placed it is never moved (an open port may only be replaced by the "
                f"closed port: port closed {placed['hex']}).", PRIVATES)
        require(coord in (None, placed["hex"]), f"The open port is on {placed['hex']}; the "
                "closed port replaces it there, as a token is never moved.", PRIVATES)
        require(placed.get("round") != here, "The open port may be replaced by the closed "
                "port in a later operating round, not in the one it was placed.", PRIVATES)
        ctx.emit(Marker("port", {**placed, "open": False, "round": here}))
        ctx.log(f"{corp} replaces the open port on {placed['hex']} with the closed port.")
    else:
        require(coord is not None, "Say where the port goes: port open M20 or port closed "
                "M20.", PRIVATES)
        assert coord is not None
        _where(state, "port", coord)
        stop = _stop_for(state, coord, action.get("city"), "port")
        ctx.emit(Marker("port", {"hex": coord, "stop": stop, "corp": corp, "open": not closed,
                                 "round": here}))
        ctx.log(f"{corp} places the {'closed' if closed else 'open'} port ({sym}) on {coord}.")
    if closed:
        ctx.emit(PrivateClosed(sym))
        ctx.log(f"{sym} closes (the closed port).")


def remove_port_and_cattle_tokens(ctx: Ctx) -> None:
    """Phase 5 (Game Phases, p.5): the port and cattle tokens leave the map."""
    for name in ("cattle", "port"):
        marker = ctx.state.board.markers.get(name)
        if marker is not None:
            ctx.emit(MarkerRemoved(name))
            ctx.log(f"The {name} token leaves {marker['hex']}.")


def marker_moves(state: GameState, corp: str) -> list[dict[str, Any]]:
    """The cattle and port moves the company may make now (for self-play and prompts)."""
    moves: list[dict[str, Any]] = []
    for kind in ("cattle", "port"):
        sym = token_private(state, kind)
        if sym is None:
            continue
        private = state.privates[sym]
        if private.owner != corp_holder(corp) or private.closed:
            continue
        placed = state.board.markers.get(kind)
        if placed is None:
            for coord in eligible_hexes(state, kind):
                tile, _ = tile_at(state.map, state.board, coord)
                count = len(tile.stops)
                for i in range(count):
                    city = i + 1 if count > 1 else None
                    extra: dict[str, Any] = {"city": city} if city else {}
                    if kind == "cattle":
                        moves.append({"action": {"type": "cattle", "hex": coord, **extra}})
                    else:
                        moves.append({"action": {"type": "port", "hex": coord, **extra}})
                        moves.append({"action": {"type": "port", "hex": coord, "closed": True,
                                                 **extra}})
        elif kind == "port" and placed["open"] and placed.get("round") != [
                state.round.get("sr"), state.round.get("index")]:
            moves.append({"action": {"type": "port", "hex": placed["hex"], "closed": True}})
    return moves


# -- revenue ----------------------------------------------------------------------------------


def revenue_bonuses(state: GameState, corp: str) -> Any:
    """The company's routes.RevenueRules: each city's value with the cattle and port
    tokens (Private Companies, p.9; the example of Operate Trains, p.21), and the
    destination city's value again at the end of a route when the company placed its
    destination marker there (p.21, p.23)."""
    if state.phase is None:
        return RevenueRules()
    column = revenue_column(state)
    bonus: dict[tuple[str, int], int] = {}
    for kind in ("cattle", "port"):
        marker = state.board.markers.get(kind)
        sym = token_private(state, kind)
        if marker is None or sym is None or marker.get("stop") is None:
            continue
        data = state.rules.private(sym).extra["token"]
        if kind == "port":
            data = data["open" if marker["open"] else "closed"]
        amount = data.get("bonus", 0) if marker["corp"] == corp else data.get("bonus_others", 0)
        if amount:
            key = (marker["hex"], int(marker["stop"]))
            bonus[key] = bonus.get(key, 0) + int(amount)
    values: dict[tuple[str, int], int] = {}
    for (coord, stop), amount in bonus.items():
        values[(coord, stop)] = _value(state, coord, stop, column) + amount
    end_bonus: dict[tuple[str, int] | str, int] = {}
    marker = state.board.markers.get(destination_key(corp))
    if marker is not None:
        dest = marker["hex"]
        for view in stops_at(state.map, state.board, dest, column):
            key = (dest, view.index)
            end_bonus[key] = values.get(key, view.revenue)
    return RevenueRules(values, end_bonus)


def _value(state: GameState, coord: str, stop: int, column: int) -> int:
    views = stops_at(state.map, state.board, coord, column)
    return views[stop].revenue if stop < len(views) else 0
