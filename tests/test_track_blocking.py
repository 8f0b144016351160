"""The stops a company's routes may not pass (1830 6.3.3: a city whose stations are all
other companies'; off-boards end a route, 1830 6.4.3 and 1870 p.21), gathered from the
few stops that can block (TrackGraph.blocking), are those `blocks` names among every
stop of the board, for every company at positions of random games; and a fact's JSON
(plain, to_json) is what JSON reads back."""

from __future__ import annotations

import json

import pytest
from selfplay import positions_at

from pbem.engine.board.routegraph import RouteGraph
from pbem.engine.board.track import TrackGraph
from pbem.engine.facts import plain
from pbem.engine.orrun import revenue_column
from pbem.engine.state import GameState


def check_blocking(state: GameState) -> int:
    graph = TrackGraph(state.map, state.board)
    stops = list(graph._shape.stops)  # every stop of the board's tiles
    blocked = 0
    for corp in sorted(state.corps):
        whole = frozenset(node for node in stops if graph.blocks(node, corp))
        assert graph.blocking(corp) == whole, corp
        blocked += len(whole)
        if any(True for _ in state.board.stations(corp)):
            routes = RouteGraph(state.map, state.board, corp, revenue_column(state),
                                track=graph)
            assert routes.blocks == [graph.blocks(("stop", c, i), corp)
                                     for c, i in routes.stops], corp
    return blocked


@pytest.mark.parametrize(("title", "seed", "at"), [
    ("1870", 3, (300, 700, 1000)),
    ("1830", 2, (250, 500)),
])
def test_blocking_is_every_stop_that_blocks(title: str, seed: int, at: tuple[int, ...]) -> None:
    blocked = sum(check_blocking(state) for state in positions_at(title, seed, at))
    assert blocked  # off-boards at least: the comparison saw stops that block


def test_plain_is_what_json_reads_back() -> None:
    value = {"a": (1, "x", None, True, 2.5), "b": [{"c": ("d", ["e", (3,)])}], "f": ()}
    assert plain(value) == json.loads(json.dumps(value))
    assert plain(("s", 1)) == ["s", 1] and plain("s") == "s" and plain(None) is None
