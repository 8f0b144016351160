"""The 1870 inputs of the route search (Operating Round: running trains, Connection
Run, The Southern Cattle Company, The Gulf Shipping Company): value bonuses, the
destination doubling at the end of a run and the connection run, against a brute
force on small random boards and on fully tiled 1870 maps."""

from __future__ import annotations

import random

import pytest
from routehelp import CORP, brute_best, brute_routes, full_board, random_board

from pbem.engine.board.map import tile_at
from pbem.engine.board.search import RevenueRules, best_connection_run, best_run
from pbem.engine.board.written import check_run


def revalued(board_map, routes, column, bonuses=None, destination=None):
    """The brute-force routes with the 1870 revenue: bonuses per stop, the destination
    counted twice when it ends the route."""
    bonuses = bonuses or {}
    result = {}
    for key, (_, visited) in routes.items():
        keys = [(n[1], n[2]) for n in visited]
        revenue = 0
        for k in keys:
            revenue += board_map.hexes[k[0]].tile.stops[k[1]].value(column) + bonuses.get(k, 0)
        for end in {keys[0], keys[-1]}:
            if end == destination:
                revenue += board_map.hexes[end[0]].tile.stops[end[1]].value(column)
                revenue += bonuses.get(end, 0)
        result[key] = (revenue, visited)
    return result


def brute_connection(routes, home, destination, distances):
    """The best total with one train (any of `distances`) on a route with the ends
    home and destination, the others on any routes sharing no track with it."""
    best = None
    for index, distance in enumerate(distances):
        others = distances[:index] + distances[index + 1:]
        for key, (revenue, stops) in routes.items():
            ends = {(stops[0][1], stops[0][2]), (stops[-1][1], stops[-1][2])}
            if ends != {home, destination} or distance is not None and len(stops) > distance:
                continue
            rest = {k: v for k, v in routes.items() if not k & key}
            more = brute_best(rest, others) if others else 0
            if more is None:
                return None
            if best is None or revenue + more > best:
                best = revenue + more
    return best


def stations_and_stops(board_map, board):
    stations = sorted(board.stations(CORP))
    stops = sorted((c, i) for c, h in board_map.hexes.items() for i in range(len(h.tile.stops)))
    return stations, stops


@pytest.mark.parametrize("seed", range(70))
def test_connection_run_against_brute_force(seed):
    """Connection Run: one train from the home city to the destination, not beyond
    either; the other trains run as usual (and share no track with it)."""
    board_map, board = random_board(seed)
    rng = random.Random(2000 + seed)
    stations, stops = stations_and_stops(board_map, board)
    if not stations:
        return
    home = rng.choice(stations)
    destination = rng.choice([s for s in stops if s != home])
    placed = rng.random() < 0.5
    rules = RevenueRules(destination=destination if placed else None)
    routes = revalued(board_map, brute_routes(board_map, board, None, "yellow"), "yellow",
                      destination=destination if placed else None)
    for distances in ([2], [3], [None], [3, 2], [None, 2], [2, 2]):
        expected = brute_connection(routes, home, destination, distances)
        trains = [(str(d), d) for d in distances]
        got = best_connection_run(board_map, board, CORP, trains, "yellow", home, destination,
                                  rules)
        if expected is None and got is None:
            continue
        assert got is not None and expected is not None, (distances, expected, got)
        assert got.total == expected, distances
        route = got.connection
        assert {route.stops[0], route.stops[-1]} == {home, destination}
        explicit = [{"train": r.train, "stops": [f"{c}.{i + 1}" for c, i in r.stops]}
                    for r in got.run.routes]
        assert check_run(board_map, board, CORP, trains, explicit, "yellow",
                         rules).total == got.total


@pytest.mark.parametrize("seed", range(60))
def test_bonuses_and_destination_against_brute_force(seed):
    """Cattle/port bonuses add to a stop's value for the corporation; the destination
    (marker placed) counts twice where it ends a route, never in the middle."""
    board_map, board = random_board(seed)
    rng = random.Random(3000 + seed)
    _, stops = stations_and_stops(board_map, board)
    bonuses = {s: rng.choice([10, 20]) for s in stops if rng.random() < 0.25}
    destination = rng.choice(stops)
    rules = RevenueRules(bonuses=bonuses, destination=destination)
    routes = revalued(board_map, brute_routes(board_map, board, None, "brown"), "brown",
                      bonuses, destination)
    for distances in ([2], [3, 2], [None, 3], [None, None]):
        expected = brute_best(routes, distances)
        if expected is None:
            continue
        run = best_run(board_map, board, CORP, [(str(d), d) for d in distances], "brown",
                       rules)
        assert run.total == expected, distances


def test_a_hex_names_every_stop_of_it_and_bonuses_add_to_replaced_values():
    board_map, board = random_board(5)
    stops = [(c, i) for c, h in board_map.hexes.items() for i in range(len(h.tile.stops))]
    coord, index = stops[0]
    rules = RevenueRules(values={(coord, index): 70}, bonuses={coord: 10})
    values = rules.stop_values(board_map, board, "yellow")
    assert values[(coord, index)] == 80
    rules = RevenueRules(end_bonus={coord: 5}, destination=(coord, index))
    ends = rules.end_values(board_map, board, "yellow")
    printed = board_map.hexes[coord].tile.stops[index].value("yellow")
    assert ends[(coord, index)] == 5 + printed


@pytest.fixture(scope="module")
def board_1870():
    return full_board("1870", 3, 26)


def test_1870_board_cattle_and_port_tokens(board_1870):
    """The Southern Cattle Company token: +10 for its owner on every run through the
    city; the open port +20 for the owner (+10 for the others)."""
    board_map, board = board_1870
    column = board_map.revenue_columns[-1]
    trains = [("8", 8), ("10", 10)]
    plain = best_run(board_map, board, "X", trains, column)
    city = plain.routes[0].stops[1]
    through = sum(1 for r in plain.routes if city in r.stops)
    for amount in (10, 20):
        rules = RevenueRules(bonuses={city: amount})
        run = best_run(board_map, board, "X", trains, column, rules)
        assert plain.total + amount * through <= run.total <= plain.total + amount * len(trains)
        explicit = [{"train": r.train, "stops": [f"{c}.{i + 1}" for c, i in r.stops]}
                    for r in run.routes]
        assert check_run(board_map, board, "X", trains, explicit, column, rules).total == \
            run.total


def test_1870_board_12_trains_and_destination(board_1870):
    """12-trains count 12 stops (or any number in the diesel variant); a destination
    at the end of a run counts twice."""
    board_map, board = board_1870
    column = board_map.revenue_columns[-1]
    limited = best_run(board_map, board, "X", [("12", 12)], column)
    unlimited = best_run(board_map, board, "X", [("12", None)], column)
    assert len(limited.routes[0].stops) <= 12
    assert unlimited.total >= limited.total
    end = limited.routes[0].stops[-1]
    doubled = best_run(board_map, board, "X", [("12", 12)], column,
                       RevenueRules(destination=end))
    value = tile_at(board_map, board, end[0])[0].stops[end[1]].value(column)
    assert doubled.total >= limited.total + value  # the same route now earns it twice
    route = doubled.routes[0]
    assert end in (route.stops[0], route.stops[-1]) or doubled.total == limited.total


def test_1870_board_connection_run(board_1870):
    board_map, board = board_1870
    column = board_map.revenue_columns[-1]
    trains = [("6", 6), ("8", 8)]
    best = best_run(board_map, board, "X", trains, column)
    home = next(s for s in best.routes[-1].stops if s in set(board.stations("X")))
    found = 0
    for destination in sorted(set(best.routes[-1].stops) - {home})[:4]:
        got = best_connection_run(board_map, board, "X", trains, column, home, destination,
                                  RevenueRules(destination=destination))
        if got is None:
            continue
        found += 1
        route = got.connection
        assert {route.stops[0], route.stops[-1]} == {home, destination}
        assert len(route.stops) <= 8
        explicit = [{"train": r.train, "stops": [f"{c}.{i + 1}" for c, i in r.stops]}
                    for r in got.run.routes]
        assert check_run(board_map, board, "X", trains, explicit, column,
                         RevenueRules(destination=destination)).total == got.total
        plain = best_connection_run(board_map, board, "X", trains, column, home, destination)
        assert plain is not None and plain.total <= best.total
    assert found


def test_no_connection_returns_none():
    board_map, board = random_board(1)
    stations, stops = stations_and_stops(board_map, board)
    assert best_connection_run(board_map, board, CORP, [("2", 2)], "yellow", stations[0],
                               stations[0]) is None
