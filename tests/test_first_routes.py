"""The routes a company can trace found breadth first on the track graph as far as a
question needs (board.firstroutes.FirstRoutes) answer the open rule's connection test of
a tile lay (1830 6.2.1: the company must be able to trace a route to the new track) as
the same routes found whole do (RouteMoves.short_routes, Arrivals.found_reach), for every
candidate lay of random games, asked in any order of one object, and find the same routes
in the end."""

from __future__ import annotations

from collections import Counter

import pytest
from selfplay import positions_at

from pbem.engine.board.firstroutes import FirstRoutes
from pbem.engine.board.localtrack import LocalTrack
from pbem.engine.board.track import Arrivals, TrackGraph, placements
from pbem.engine.ortrack import exit_edges, near_hexes, phase_colours
from pbem.engine.state import GameState


def compare_every_lay(state: GameState, seen: Counter[str]) -> None:
    graph = TrackGraph(state.map, state.board)
    track = LocalTrack(state.map, state.board)
    for corp in sorted(state.corps):
        if not any(True for _ in state.board.stations(corp)):
            continue
        arrivals = Arrivals.of(state.map, state.board, corp)
        found = arrivals.found_reach
        hexes = {coord for coord, _ in found.paths}
        shared = FirstRoutes(track, corp)  # questions in turn, as a listing asks them
        for coord in reversed(near_hexes(state, corp)):
            for tile_id in sorted(t for t, n in state.board.tiles_left.items() if n > 0):
                for rotation in placements(state.map, state.board, coord, tile_id,
                                           phase_colours(state)):
                    edges = exit_edges(state, coord, tile_id, rotation)
                    whole = coord in hexes or not found.edges.isdisjoint(edges)
                    assert shared.touches(coord, edges) == whole, (corp, coord, tile_id)
                    assert FirstRoutes(track, corp).touches(coord, edges) == whole
                    seen[str(whole)] += 1
        assert not shared.touches("nowhere", ())  # followed to the end: every route
        # short_routes' states, those of the TrackGraph named by hex and path
        assert set(shared.routes) == {(graph.segments[v >> 1].coord,
                                       graph.segments[v >> 1].index, v & 1)
                                      for v in arrivals.routes}
        assert shared.hexes == hexes and shared.edges == found.edges


@pytest.mark.parametrize(("title", "seed", "at"), [
    ("1830", 2, (150, 400, 700)),
    ("1870", 3, (300, 700)),
])
def test_first_routes_answer_as_the_routes_found_whole(
        title: str, seed: int, at: tuple[int, ...]) -> None:
    seen: Counter[str] = Counter()
    for state in positions_at(title, seed, at):
        compare_every_lay(state, seen)
    assert seen["True"] and seen["False"], seen  # both answers were compared
