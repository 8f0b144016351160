"""Positions for the rendering tests, and the test that a player can plan a route from the
text map alone: for boards built from 18xx.games logs (when ../shared is present) and from
code, every hex, exit, city, revenue and station a route uses is legible in the drawing.

The helpers here (fixed positions, fixture boards, route walking) are imported by the
other test_render*.py modules.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from positions import midgame_1830, random_board

from pbem.engine.board import hexes
from pbem.engine.board.map import BoardState, Map, load_map, place_token, tile_at
from pbem.engine.board.track import lay_tile
from pbem.render.board_text import EXIT_MARKS, draw, listing
from pbem.render.corps import letters
from pbem.render.hexview import board_view

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(os.environ.get("PBEM_FIXTURES",
                               ROOT.parent / "shared" / "fixtures" / "18xx.games"))
ALL_COLOURS = ("yellow", "green", "brown", "gray")


# -- boards from 18xx.games logs --------------------------------------------------------------
def effective_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions in effect after undo/redo (fixtures README, "Undo and redo")."""
    effective: list[int] = []
    undone: list[list[int]] = []
    for i, action in enumerate(actions):
        kind = action["type"]
        if kind == "message":
            continue
        if kind == "undo":
            if "action_id" in action:
                pos = next((j for j, k in enumerate(effective)
                            if actions[k]["id"] == action["action_id"]), -1)
                undone.append(effective[pos + 1:])
                effective = effective[:pos + 1]
            elif effective:
                undone.append([effective.pop()])
        elif kind == "redo":
            if undone:
                effective += undone.pop()
        else:
            effective.append(i)
            undone = []
    return [actions[i] for i in effective]


def fixture_files(title: str) -> list[Path]:
    folder = FIXTURES / title
    return sorted(folder.glob("*.json")) if folder.exists() else []


def fixture_board(path: Path, limit: int | None) -> BoardState:
    """The board after the first ``limit`` tile lays and station placements of a log."""
    data = json.loads(path.read_text(encoding="utf-8"))
    board_map = load_map(data["title"])
    board = BoardState.new(board_map)
    homes = {c: h for h in board_map.hexes.values() for c in h.homes}
    where: dict[str, str] = {}  # tile copy id -> hex
    done = 0
    for action in effective_actions(data["actions"]):
        if limit is not None and done >= limit:
            break
        corp = str(action.get("tokener") or action.get("entity"))
        if action["type"] in ("lay_tile", "place_token") and corp in homes:
            home = homes[corp]
            if not any(c == home.coord for c, _ in board.stations(corp)):
                place_token(board_map, board, home.coord, home.homes[corp] or 0, corp)
        if action["type"] == "lay_tile":
            tile = re.match(r"\d+", action["tile"]).group(0)  # type: ignore[union-attr]
            lay_tile(board_map, board, action["hex"], tile, action["rotation"])
            where[action["tile"]] = action["hex"]
            done += 1
        elif action["type"] == "place_token":
            coord, stop = token_place(board_map, where, action["city"])
            for c, i in list(board.stations(corp)):
                if c == coord:
                    board.tokens[c][i].remove(corp)  # the Erie moves its home token
            place_token(board_map, board, coord, stop, corp)
            done += 1
    return board


PRINTED = {"city-0": "E19", "city-1": "H4", "city-2": "B10", "city-3": "H10", "city-4": "H16"}


def token_place(board_map: Map, where: dict[str, str], city: str) -> tuple[str, int]:
    tile_copy, stop = city.rsplit("-", 1)
    if tile_copy in where:
        return where[tile_copy], int(stop)
    if tile_copy in PRINTED:
        return PRINTED[tile_copy], int(stop)
    return tile_copy.split("-")[0], int(stop)


# -- routes, walked on the track --------------------------------------------------------------
Route = list[tuple[str, int | None, int | None]]  # (hex, edge in, edge out) per hex


def routes_from(board_map: Map, board: BoardState, coord: str, stop: int,
                longest: int = 6) -> Iterator[tuple[Route, tuple[str, int]]]:
    """Every simple route from a stop along the track to another stop, as the hexes it
    crosses (with the sides it enters and leaves by) and the stop it ends at."""
    tile, rotation = tile_at(board_map, board, coord)
    for edge in sorted(tile.stop_exits(stop, rotation)):
        yield from _walk(board_map, board, [(coord, None, edge)], coord, edge, longest)


def _walk(board_map: Map, board: BoardState, route: Route, coord: str, edge: int,
          longest: int) -> Iterator[tuple[Route, tuple[str, int]]]:
    other = board_map.neighbour(coord, edge)
    if other is None or len(route) > longest or any(h == other for h, _, _ in route):
        return
    enter = hexes.opposite(edge)
    tile, rotation = tile_at(board_map, board, other)
    for a, b in tile.rotated_paths(rotation):
        for near, far in ((a, b), (b, a)):
            if near.kind != "edge" or near.n != enter:
                continue
            if far.kind == "stop":
                yield route + [(other, enter, None)], (other, far.n)
            else:
                yield from _walk(board_map, board, route + [(other, enter, far.n)], other,
                                 far.n, longest)


def sample_routes(board_map: Map, board: BoardState, count: int = 12) -> list[tuple[Route, Any]]:
    found = []
    for coord, stops in sorted(board.tokens.items()):
        for index, corps in enumerate(stops):
            if corps:
                found += list(routes_from(board_map, board, coord, index))
    rng = random.Random(1)
    rng.shuffle(found)
    return found[:count]


# -- reading the drawing as a player would ----------------------------------------------------
def hex_origins(drawing: list[str]) -> dict[str, tuple[int, int]]:
    """Coordinate -> (x, y) of the hex's top-left corner, found from the printed labels."""
    origins = {}
    for y, line in enumerate(drawing):
        for match in re.finditer(r"(?<![A-Z0-9])([A-O]\d{1,2})(?![0-9])", line):
            origins[match.group(1)] = (match.start() - 3, y - 1)
    return origins


def hex_text(drawing: list[str], origin: tuple[int, int]) -> list[str]:
    x0, y0 = origin
    rows = []
    for dy in range(7):
        line = drawing[y0 + dy] if 0 <= y0 + dy < len(drawing) else ""
        rows.append("".join(line[x0 + dx] if 0 <= x0 + dx < len(line) else " "
                            for dx in range(9)))
    return rows


def mark_at(drawing: list[str], origin: tuple[int, int], edge: int) -> str:
    dx, dy, _ = EXIT_MARKS[edge]
    x, y = origin[0] + dx, origin[1] + dy
    line = drawing[y] if 0 <= y < len(drawing) else ""
    return line[x] if 0 <= x < len(line) else " "


def check_route_legible(board_map: Map, board: BoardState, route: Route,
                        end: tuple[str, int]) -> None:
    views = board_view(board_map, board, board_map.revenue_columns[-1])
    codes = letters(sorted({c for h in board_map.hexes.values() for c in h.homes}))
    drawing = draw(views, codes)
    listed = "\n".join(listing(views))
    origins = hex_origins(drawing)
    for coord, enter, leave in route:
        assert coord in origins, f"{coord} is not labelled in the drawing"
        for edge in (e for e in (enter, leave) if e is not None):
            expected = EXIT_MARKS[edge][2]
            assert mark_at(drawing, origins[coord], edge) == expected, (
                coord, hexes.edge_name(edge), "\n".join(hex_text(drawing, origins[coord])))
        view = views[coord]
        if view.tile:  # inside the hex (issue 13: not on the border line below it)
            inside = hex_text(drawing, origins[coord])[2:6]
            assert any(re.search(rf"(?<!\d){view.tile}[ygbG]?(?!\d)", line) for line in inside), \
                (coord, "\n".join(inside))
        assert re.search(rf"^{coord} ", listed, re.M), f"{coord} missing from the listing"
    for coord, index in [(route[0][0], None), end]:
        body = "\n".join(hex_text(drawing, origins[coord])[2:5])
        for stop in views[coord].stops:
            if index is not None and stop.index != index:
                continue
            if stop.revenue:
                assert str(stop.revenue) in body, (coord, body)
            for corp in stop.tokens:
                assert codes[corp] in body, (coord, corp, body)


# -- the tests --------------------------------------------------------------------------------
def crowded_boards() -> list[tuple[str, Map, BoardState]]:
    boards = [("1830 random", load_map("1830"), random_board("1830", seed)) for seed in (1, 2)]
    boards.append(("1870 random", load_map("1870"), random_board("1870", 3)))
    state = midgame_1830()
    boards.append(("1830 mid-game", state.map, state.board))
    return boards


@pytest.mark.parametrize("case", range(4))
def test_routes_on_built_boards_are_legible(case: int) -> None:
    name, board_map, board = crowded_boards()[case]
    routes = sample_routes(board_map, board)
    assert routes, f"{name}: no route found to check"
    for route, end in routes:
        check_route_legible(board_map, board, route, end)


@pytest.mark.parametrize("title", ["1830", "1870"])
@pytest.mark.parametrize("limit", [20, 60, None])
def test_routes_on_boards_from_18xx_games_logs_are_legible(title: str, limit: int | None
                                                           ) -> None:
    files = fixture_files(title)
    if not files:
        pytest.skip(f"no 18xx.games logs in {FIXTURES / title} (set PBEM_FIXTURES)")
    checked = 0
    for path in files[:2]:
        try:
            board = fixture_board(path, limit)
        except (ValueError, KeyError) as exc:  # a log our board data cannot replay
            pytest.skip(f"{path.name}: cannot replay its board ({exc})")
        board_map = load_map(title)
        for route, end in sample_routes(board_map, board, 8):
            check_route_legible(board_map, board, route, end)
            checked += 1
    assert checked or limit == 20
