"""best_run and the route search against a brute-force enumeration on small random
boards (1830 6.4.2 route rules, 6.5 best revenue)."""

from __future__ import annotations

import itertools
import random
from math import prod

import pytest

from pbem.engine.board import BoardState, Map, MapHex
from pbem.engine.hexes import neighbour
from pbem.engine.routegraph import RouteGraph
from pbem.engine.routes import RevenueRules, _Search, best_run, check_run, legal_routes
from pbem.engine.tiles import End, Stop, Tile
from pbem.engine.track import TrackGraph

CORP = "X"


def random_board(seed: int, dense: bool = False) -> tuple[Map, BoardState]:
    """A few rows of gray/red hexes joined by random track: stops (cities with 1-2
    slots, towns, off-boards in areas), junctions, crossovers, stations of CORP and of
    others."""
    rng = random.Random(seed)
    rows, cols = (rng.randint(2, 3), rng.randint(3, 5)) if not dense else (2, rng.randint(3, 4))
    coords = [f"{chr(65 + r)}{2 * c + 1 + r % 2}" for r in range(rows) for c in range(cols)]
    links: dict[str, set[int]] = {c: set() for c in coords}
    for coord in coords:
        for edge in range(6):
            other = neighbour(coord, edge)
            if other in links and coord < other and rng.random() < 0.75:
                links[coord].add(edge)
                links[other].add((edge + 3) % 6)
    hexes: dict[str, MapHex] = {}
    board = BoardState()
    for coord in coords:
        roll = rng.random()
        stops: list[Stop] = []
        area = None
        if roll < 0.15:
            stops = [Stop("offboard", {"yellow": rng.choice([20, 30, 40]), "brown": 50})]
            area = rng.choice(["North", "South", None])
        elif roll < 0.65:
            for _ in range(1 if rng.random() < 0.75 else 2):
                kind = "city" if rng.random() < 0.7 else "town"
                stops.append(Stop(kind, rng.choice([10, 20, 30, 40]),
                                  rng.choice([1, 1, 2]) if kind == "city" else 0))
        edges = sorted(links[coord])
        paths: set[frozenset[End]] = set()
        for edge in edges:
            for _ in range(1 if rng.random() < (0.6 if not dense else 0.2) else 2 + dense):
                if stops and rng.random() < 0.6:
                    target = End("stop", rng.randrange(len(stops)))
                else:
                    choices = [e for e in edges if e != edge]
                    if not choices:
                        continue
                    target = End("edge", rng.choice(choices))
                paths.add(frozenset((End("edge", edge), target)))
        kind = "red" if stops and stops[0].kind == "offboard" else "gray"
        tile = Tile(f"@{coord}", kind, None, tuple(stops),
                    tuple(tuple(sorted(p)) for p in sorted(paths, key=sorted)))
        hexes[coord] = MapHex(coord, kind, tile, area=area)
        for i, stop in enumerate(stops):
            tokens: list[str] = []
            if stop.kind == "city":
                if rng.random() < 0.35:
                    tokens.append(CORP)
                while len(tokens) < stop.slots and rng.random() < 0.35:
                    tokens.append(rng.choice(["Y", "Z"]))
            board.tokens.setdefault(coord, [[] for _ in stops])[i] = tokens
    if not any(CORP in corps for stops in board.tokens.values() for corps in stops):
        cities = [(c, i) for c, h in hexes.items() for i, stop in enumerate(h.tile.stops)
                  if stop.kind == "city"]
        if cities:
            coord, i = rng.choice(cities)
            board.tokens[coord][i] = [CORP]
    return Map("random", hexes, {}, {}, {}, ("yellow", "brown")), board


def brute_routes(board_map: Map, board: BoardState, limit: int | None, column: str):
    """Every legal route as (track key, revenue, stops), straight from the rules:
    trails over TrackGraph.onward from every stop, no node twice."""
    graph = TrackGraph(board_map, board)
    stations = {("stop", c, i) for c, i in board.stations(CORP)}
    found: dict[frozenset, tuple[int, tuple]] = {}

    def value(node):
        tile = board_map.hexes[node[1]].tile
        return tile.stops[node[2]].value(column)

    def area(node):
        return board_map.hexes[node[1]].area or node

    def walk(node, seg, nodes, segs, stops):
        if node[0] == "stop" and len(stops) >= 2 and stations & set(stops):
            if len([a for a in map(area, stops)]) == len(set(map(area, stops))):
                if limit is None or len(stops) <= limit:
                    key = frozenset(segs) | frozenset(n for n in nodes if n[0] == "side")
                    found[key] = (sum(value(s) for s in stops), tuple(stops))
        if limit is not None and len(stops) > limit:
            return
        for nxt in graph.onward(seg, node, CORP) if seg is not None else graph.at.get(node, []):
            other = graph.segments[nxt].other(node)
            if other in nodes:
                continue
            more = [other] if other[0] == "stop" else []
            walk(other, nxt, nodes | {other}, segs + [nxt], stops + more)

    for node in list(graph.at):
        if node[0] == "stop":
            walk(node, None, {node}, [], [node])
    return found


def brute_best(routes: dict, distances: list[int | None]) -> int | None:
    """The best total over every assignment of routes (or none) to the trains; None
    when there are too many assignments to try."""
    by_train = []
    for d in distances:
        by_train.append([(key, rev) for key, (rev, stops) in routes.items()
                         if d is None or len(stops) <= d] + [(frozenset(), 0)])
    if prod(len(options) for options in by_train) > 300_000:
        return None
    best = 0
    for combo in itertools.product(*by_train):
        keys = [k for k, _ in combo]
        if sum(len(k) for k in keys) == len(frozenset().union(*keys)):
            best = max(best, sum(r for _, r in combo))
    return best


def check_run_is_legal(board_map, board, run, legal):
    """Each route of the run is one of the `legal` routes, the trains share no track."""
    graph = TrackGraph(board_map, board)
    seen: set = set()
    for route in run.routes:
        segs = []
        for coord, index in route.segments:
            segs.append(next(i for i, s in enumerate(graph.segments)
                             if s.coord == coord and s.index == index))
        sides = {n for i in segs for n in graph.segments[i].ends if n[0] == "side"}
        key = frozenset(segs) | frozenset(sides)
        assert key in legal and legal[key][0] == route.revenue
        stops = legal[key][1]
        assert {(n[1], n[2]) for n in stops} == set(route.stops)
        assert not key & seen
        seen |= key
        assert route.train == "None" or len(route.stops) <= int(route.train)


@pytest.mark.parametrize("seed", range(120))
def test_6_4_2_search_finds_exactly_the_legal_routes(seed):
    board_map, board = random_board(seed)
    for limit in (2, 3, 5, None):
        expected = brute_routes(board_map, board, limit, "brown")
        got = legal_routes(board_map, board, CORP, limit, "brown")
        assert len(got) == len(expected)
        assert sorted(r.revenue for r in got) == sorted(rev for rev, _ in expected.values())


@pytest.mark.parametrize("seed", range(120))
def test_6_5_best_run_is_the_brute_force_best(seed):
    board_map, board = random_board(seed)
    everything = brute_routes(board_map, board, None, "yellow")
    for distances in ([2], [3, 2], [2, 2], [4, 3, 2], [None, 3], [None, None], [2, 2, 2]):
        expected = brute_best(everything, distances)
        if expected is None:
            continue
        run = best_run(board_map, board, CORP, [(str(d), d) for d in distances], "yellow")
        assert run.total == expected, distances
        check_run_is_legal(board_map, board, run, everything)


@pytest.mark.parametrize("seed", range(60))
def test_6_5_threshold_search_misses_no_route(seed):
    """Branch and bound keeps every route at or above the threshold."""
    board_map, board = random_board(seed)
    rules = RevenueRules()
    search = _Search(RouteGraph(board_map, board, CORP, "brown"), rules)
    for limit in (3, 4, None):
        every = sorted((f[0] for f in search.routes(limit, -1 << 40)), reverse=True)
        for threshold in {every[len(every) // 3], every[len(every) // 2]} if every else ():
            got = sorted((f[0] for f in search.routes(limit, threshold)), reverse=True)
            assert got == [r for r in every if r >= threshold]
        best = search.routes(limit, 1, best=True)
        assert (best[0][0] if best else 0) == (every[0] if every and every[0] > 0 else 0)


@pytest.mark.parametrize("seed", range(80))
def test_6_4_2_written_routes_of_the_best_run_check_out(seed):
    """The player writes the best run's stops (numbered where a hex has two): accepted,
    same revenue; any legal route written alone is accepted with its revenue."""
    board_map, board = random_board(seed)
    trains = [("3", 3), ("2", 2), ("D", None)]
    run = best_run(board_map, board, CORP, trains, "yellow")
    explicit = [{"train": r.train, "stops": [f"{c}.{i + 1}" for c, i in r.stops]}
                for r in run.routes]
    checked = check_run(board_map, board, CORP, trains, explicit, "yellow")
    assert checked.total == run.total
    for route in legal_routes(board_map, board, CORP, None, "yellow")[:40]:
        stops = [f"{c}.{i + 1}" for c, i in route.stops]
        got = check_run(board_map, board, CORP, [("D", None)], [{"train": "D", "stops": stops}],
                        "yellow")
        assert got.total == route.revenue
        assert got.routes[0].stops == route.stops


@pytest.mark.parametrize("seed", range(60))
def test_6_5_best_run_on_boards_with_parallel_track(seed):
    """Junction-heavy boards: many routes share their stops and differ in track."""
    board_map, board = random_board(seed, dense=True)
    everything = brute_routes(board_map, board, None, "yellow")
    got = legal_routes(board_map, board, CORP, None, "yellow")
    assert sorted(r.revenue for r in got) == sorted(rev for rev, _ in everything.values())
    for distances in ([2, 2], [3, 2], [2, 2, 2], [None, 2], [None, None], [3, 3, 3]):
        expected = brute_best(everything, distances)
        if expected is None:
            continue
        run = best_run(board_map, board, CORP, [(str(d), d) for d in distances], "yellow")
        assert run.total == expected, distances
        check_run_is_legal(board_map, board, run, everything)


@pytest.mark.parametrize("seed", range(60))
def test_1870_modifiers_against_brute_force(seed):
    """Stop values replaced (port, cattle) and end bonuses (destination) for random stops."""
    board_map, board = random_board(seed)
    rng = random.Random(1000 + seed)
    stops = [(c, i) for c, h in board_map.hexes.items() for i in range(len(h.tile.stops))]
    values = {s: rng.choice([20, 50]) for s in stops if rng.random() < 0.3}
    bonus = {s: rng.choice([10, 40]) for s in stops if rng.random() < 0.3}
    rules = RevenueRules(values=values, end_bonus=bonus)
    routes = brute_routes(board_map, board, None, "yellow")
    everything = {}
    for key, (_, visited) in routes.items():
        keys = [(n[1], n[2]) for n in visited]
        revenue = sum(values.get(k, board_map.hexes[k[0]].tile.stops[k[1]].value("yellow"))
                      for k in keys)
        revenue += bonus.get(keys[0], 0) + bonus.get(keys[-1], 0)
        everything[key] = (revenue, visited)
    for distances in ([2], [3, 2], [None, 3], [None, None]):
        expected = brute_best(everything, distances)
        if expected is None:
            continue
        run = best_run(board_map, board, CORP, [(str(d), d) for d in distances], "yellow",
                       rules)
        assert run.total == expected, distances
