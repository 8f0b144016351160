"""Boards for the route tests and a brute-force route search to check the real one
against: small random boards of gray and red hexes (stations of X and of others), the
real maps fully tiled at random, every legal route enumerated from the rules."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from math import prod

from bench.routes_hard import tiled_board
from pbem.engine.board.hexes import neighbour
from pbem.engine.board.map import BoardState, Map, MapHex, load_map
from pbem.engine.board.tiles import End, Stop, Tile
from pbem.engine.board.track import TrackGraph


def full_board(title: str, seed: int, blocking: int) -> tuple[Map, BoardState]:
    """Every buildable hex tiled at random in passes (yellow, green, brown, gray), three
    stations of X in random cities, `blocking` stations of others in free slots."""
    board_map = load_map(title)
    return board_map, tiled_board(board_map, random.Random(seed), 3, blocking)


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
                    tuple((min(p), max(p)) for p in sorted(paths, key=sorted)))
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


def brute_fits(board_map: Map, reach: int | tuple[int, int] | None, stops: tuple) -> bool:
    """Whether a train runs a route of these stop nodes: at most `reach` stops, or for a
    plus train (cities, towns) (1830 V-7.9) at most so many cities and off-boards and
    so many towns."""
    if not isinstance(reach, tuple):
        return reach is None or len(stops) <= reach
    kinds = [board_map.hexes[n[1]].tile.stops[n[2]].kind for n in stops]
    return kinds.count("town") <= reach[1] and len(kinds) - kinds.count("town") <= reach[0]


def brute_best(routes: dict, distances: Sequence, board_map: Map | None = None
               ) -> int | None:
    """The best total over every assignment of routes (or none) to the trains; None
    when there are too many assignments to try.  Plus trains ((cities, towns)) need
    the map."""
    by_train = []
    for d in distances:
        if isinstance(d, tuple):
            assert board_map is not None
        by_train.append([(key, rev) for key, (rev, stops) in routes.items()
                         if d is None or (isinstance(d, int) and len(stops) <= d)
                         or (board_map is not None and brute_fits(board_map, d, stops))]
                        + [(frozenset(), 0)])
    if prod(len(options) for options in by_train) > 300_000:
        return None
    best = 0
    for combo in itertools.product(*by_train):
        keys = [k for k, _ in combo]
        if sum(len(k) for k in keys) == len(frozenset().union(*keys)):
            best = max(best, sum(r for _, r in combo))
    return best
