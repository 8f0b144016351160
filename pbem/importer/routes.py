"""A recorded ``run_routes`` route as pbem's written route: its stops in travel order,
"G19.2" where the hex has more than one stop.

Newer exports name the stops (``nodes``: ``G19-1``); older ones only give the track
(``connections``: one list of hexes per stretch between two stops, each stretch in
either direction), so the stops are the ends of the stretches and the city of a hex
with two is the one joined to the side the stretch leaves by.
"""

from __future__ import annotations

from typing import Any

from ..engine.board.map import tile_at
from ..engine.state import GameState


class RouteError(Exception):
    """A recorded route that cannot be read."""


def oriented_segments(route: dict[str, Any]) -> list[list[str]]:
    """The stretches of ``connections`` in travel order, each from one stop to the next."""
    segments = [list(s) for s in route.get("connections") or []]
    if len(segments) < 2:
        return segments
    first, second = segments[0], segments[1]
    oriented = [first if first[-1] in (second[0], second[-1]) else first[::-1]]
    for segment in segments[1:]:
        at = oriented[-1][-1]
        if segment[0] == at:
            oriented.append(segment)
        elif segment[-1] == at:
            oriented.append(segment[::-1])
        else:
            raise RouteError(f"the stretches {segments} do not join up")
    return oriented


def stop_sequence(route: dict[str, Any],
                  segments: list[list[str]] | None = None) -> list[str]:
    """The stop hexes in travel order, from ``connections`` (``segments``: their
    ``oriented_segments``, when the caller has them)."""
    if segments is None:
        segments = oriented_segments(route)
    if not segments:
        return list(route.get("hexes") or [])
    return [segments[0][0]] + [s[-1] for s in segments]


def _edge_towards(state: GameState, coord: str, other: str) -> int | None:
    for edge in range(6):
        if state.map.neighbour(coord, edge) == other:
            return edge
    return None


def _stop_from_track(state: GameState, coord: str, neighbours: list[str]) -> int | None:
    """The stop of ``coord`` joined to the side facing one of ``neighbours``."""
    tile, rotation = tile_at(state.map, state.board, coord)
    for other in neighbours:
        edge = _edge_towards(state, coord, other)
        if edge is None:
            continue
        for index in range(len(tile.stops)):
            if edge in tile.stop_exits(index, rotation):
                return index
    return None


def _track_neighbours(segments: list[list[str]], k: int) -> list[str]:
    """The hexes next to stop ``k`` along the route's track."""
    found = []
    if k > 0 and len(segments[k - 1]) > 1:
        found.append(segments[k - 1][-2])
    if k < len(segments) and len(segments[k]) > 1:
        found.append(segments[k][1])
    return found


def _from_nodes(route: dict[str, Any], coord: str) -> list[int]:
    return [int(n.rsplit("-", 1)[1]) for n in route.get("nodes") or []
            if n.rsplit("-", 1)[0] == coord]


def written_stops(state: GameState, route: dict[str, Any]) -> list[str]:
    """The route's stops as pbem reads them: "H12", or "G19.2" on a hex with two stops.

    The order comes from the track (``nodes`` is not always in travel order); the stop
    of a hex with two from the side the track leaves by, else from ``nodes``."""
    segments = oriented_segments(route)
    written = []
    for k, coord in enumerate(stop_sequence(route, segments)):
        tile, _ = tile_at(state.map, state.board, coord)
        if len(tile.stops) < 2:
            written.append(coord)
            continue
        index = _stop_from_track(state, coord, _track_neighbours(segments, k))
        if index is None:
            named = _from_nodes(route, coord)
            if len(set(named)) != 1:
                raise RouteError(f"cannot tell which stop of {coord} the route uses")
            index = named[0]
        written.append(f"{coord}.{index + 1}")
    return written
