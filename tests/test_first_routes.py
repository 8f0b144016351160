"""The routes a company can trace found breadth first on the track graph as far as a
question needs (board.firstroutes.FirstRoutes) answer the open rule's connection test of
a tile lay (1830 6.2.1: the company must be able to trace a route to the new track) as
the same routes found whole do (RouteMoves.short_routes, Arrivals.found_reach), for every
candidate lay of random games, asked in any order of one object, and find the same routes
in the end.  Under the closed rule (1870 p.19, 1830 V-7.6) what they prove of a lay
(proves_closed_lay) the routes found whole prove too (closed_lay_ok with Arrivals)."""

from __future__ import annotations

from collections import Counter

import pytest
from selfplay import positions_at

from pbem.engine.board.firstroutes import FirstRoutes, proves_closed_lay
from pbem.engine.board.localtrack import LocalTrack
from pbem.engine.board.track import Arrivals, TrackGraph, closed_lay_ok, placements
from pbem.engine.orrun import revenue_column
from pbem.engine.ortrack import NOTHING, exit_edges, near_hexes, phase_colours, touches_reach
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


def compare_closed_lays(state: GameState, seen: Counter[str]) -> None:
    """Every lay of every company with a station, restricted (no rise) and
    semi-restricted: proved by the first routes only where the routes found whole prove
    it (the first answer of ortrack.connects), and most of those."""
    track = LocalTrack(state.map, state.board)
    column = revenue_column(state)
    for corp in sorted(state.corps):
        if not any(True for _ in state.board.stations(corp)):
            continue
        shared = {rise: FirstRoutes(track, corp) for rise in (False, True)}
        arrivals = {rise: Arrivals.of(state.map, state.board, corp) for rise in (False, True)}
        for coord in near_hexes(state, corp):
            for tile_id in sorted(t for t, n in state.board.tiles_left.items() if n > 0):
                for rotation in placements(state.map, state.board, coord, tile_id,
                                           phase_colours(state)):
                    at_stations = touches_reach(state, NOTHING, corp, coord, tile_id, rotation)
                    edges = exit_edges(state, coord, tile_id, rotation)
                    for rise in (False, True):
                        found = arrivals[rise].found_reach
                        whole = touches_reach(state, found, corp, coord, tile_id, rotation) \
                            and closed_lay_ok(state.map, state.board, coord, tile_id, rotation,
                                              corp, column, found.stops, rise,
                                              arrivals[rise])
                        proved = proves_closed_lay(shared[rise], coord, tile_id, rotation,
                                                   at_stations, edges, column, rise)
                        assert whole or not proved, (corp, coord, tile_id, rotation, rise)
                        seen["proved" if proved else "whole only" if whole else "neither"] += 1


@pytest.mark.parametrize(("title", "seed", "options", "at"), [
    ("1870", 2, {}, (300, 700, 1100)),
    ("1830", 1, {"tile_lay": "strict"}, (200, 450)),
])
def test_first_routes_prove_closed_lays_the_routes_found_whole_prove(
        title: str, seed: int, options: dict[str, str], at: tuple[int, ...]) -> None:
    seen: Counter[str] = Counter()
    for state in positions_at(title, seed, at, **options):
        compare_closed_lays(state, seen)
    assert seen["proved"] > seen["whole only"] and seen["neither"], seen
