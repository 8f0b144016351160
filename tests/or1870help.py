"""Set-ups for 1870 operating-round tests: companies started by hand, track laid along a
path of hexes, the operating round at a company's turn."""

from __future__ import annotations

import heapq
from typing import Any

from enginehelp import Table

from pbem.engine.board.hexes import neighbour
from pbem.engine.board.map import place_token, tile_at
from pbem.engine.board.track import lay_tile
from pbem.engine.game import new_game
from pbem.engine.operating import new_turn
from pbem.engine.state import IPO, POOL, corp_holder, player_holder


class Table1870(Table):
    """An 1870 game (seats as given) in phase ``phase``, no round yet."""

    def __init__(self, names: list[str], phase: str = "3", **options: str) -> None:
        self.state = new_game("1870", names, 1, {"seating": "fixed", **options})
        self.state.phase = phase
        self.log = []
        self.facts = []
        for p in self.state.players:  # plenty of money for the set-ups
            self.state.bank -= 2000 - p.cash
            p.cash = 2000


def start(table: Table, corp: str, price: int, holders: dict[str, int], cash: int = 0,
          pool: int = 0, treasury: int = 0, row: int | None = None) -> None:
    """``corp`` floated at share value ``price`` (the top-most cell with that price, or
    the one in ``row``); ``holders``: player -> shares (10% units, the first player
    named holds the president's certificate); ``pool``/``treasury`` shares in the open
    market / the company; the rest in the initial offering."""
    state = table.state
    market = state.rules.market
    cells = sorted((c for c in market.cells.values() if c.price == price
                    and (row is None or c.row == row)), key=lambda c: c.row)
    cell = cells[0]
    c = state.corps[corp]
    certs = [IPO] * len(c.certs)
    index = 1
    for n, (name, units) in enumerate(holders.items()):
        if n == 0:
            certs[0] = player_holder(name)
            units -= 2
        for _ in range(units):
            certs[index] = player_holder(name)
            index += 1
    for holder, count in ((POOL, pool), (corp_holder(corp), treasury)):
        for _ in range(count):
            certs[index] = holder
            index += 1
    state.arrivals += 1
    c.certs, c.par, c.cell, c.arrival = certs, price, (cell.row, cell.col), state.arrivals
    c.floated = c.funded = True
    state.bank -= cash
    c.cash = cash


def home(table: Table, corp: str) -> None:
    state = table.state
    cdef = state.rules.corp(corp)
    place_token(state.map, state.board, cdef.home, cdef.home_city or 0, corp)


def give_trains(table: Table, corp: str, *names: str) -> None:
    state = table.state
    for name in names:
        count = state.rules.train(name).count
        if count is not None and state.trains_sold.get(name, 0) >= count:
            state.trains_scrapped[name] -= 1  # a sold-out type: one of those gone
        else:
            state.trains_sold[name] = state.trains_sold.get(name, 0) + 1
        state.corps[corp].trains.append(name)


def sell_out(table: Table, *names: str) -> None:
    """Every train of these types sold and gone."""
    state = table.state
    for name in names:
        count = state.rules.train(name).count or 0
        state.trains_scrapped[name] = state.trains_scrapped.get(name, 0) + count - \
            state.trains_sold.get(name, 0)
        state.trains_sold[name] = count


def operating(table: Table, corp: str, operated: tuple[str, ...] = (), **turn: Any) -> None:
    """Operating round 1.1 of 1 at ``corp``'s turn (``turn`` overrides the turn keys)."""
    table.state.round = {"kind": "operating", "sr": 1, "index": 1, "of": 1,
                         "operated": list(operated), "current": corp,
                         "turn": {**new_turn(), **turn}, "discards": [], "proposal": None}


def ran(table: Table, corp: str, revenue: int) -> None:
    """``corp`` has run for ``revenue`` and must decide its dividend."""
    operating(table, corp, step="dividend", run={"revenue": revenue, "routes": []})


# -- track ------------------------------------------------------------------------------------


def edge_to(a: str, b: str) -> int:
    return next(e for e in range(6) if neighbour(a, e) == b)


def lay_track(table: Table, *paths: list[str], colour: str = "yellow",
              values: dict[str, int] | None = None) -> None:
    """Track along each path (neighbouring hexes): in each hex a tile of ``colour``
    joining the sides towards its neighbours on the paths (through its city or town,
    if it has one); off-board hexes get no tile.  ``values``: hex -> the city value
    its tile must have (any colour)."""
    state = table.state
    board_map = state.map
    needs: dict[str, set[int]] = {}
    for path in paths:
        for i, coord in enumerate(path):
            need = needs.setdefault(coord, set())
            if i > 0:
                need.add(edge_to(coord, path[i - 1]))
            if i + 1 < len(path):
                need.add(edge_to(coord, path[i + 1]))
    for coord, need in needs.items():
        if board_map.hexes[coord].kind == "red":
            continue
        kinds = sorted(s.kind for s in board_map.hexes[coord].tile.stops)
        best = None
        for tile in board_map.tiles.values():
            if sorted(s.kind for s in tile.stops) != kinds or not tile.paths:
                continue
            if values and coord in values:
                if tile.stops[0].value() != values[coord]:
                    continue
            elif tile.colour != colour:
                continue
            for rot in range(6):
                exits = tile.exits(rot)
                if need <= exits and (best is None or len(exits) < best[0]):
                    best = (len(exits), tile.id, rot)
        assert best is not None, f"no tile joins {sorted(need)} on {coord}"
        state.board.tiles.pop(coord, None)
        lay_tile(board_map, state.board, coord, best[1], best[2])


def shortest_path(table: Table, start: str, goal: str) -> list[str]:
    """Hexes from ``start`` to ``goal`` over buildable hexes, with few stops on the way."""
    board_map = table.state.map
    frontier = [(0, start, [start])]
    seen = set()
    while frontier:
        cost, coord, path = heapq.heappop(frontier)
        if coord == goal:
            return path
        if coord in seen:
            continue
        seen.add(coord)
        for edge in range(6):
            nxt = neighbour(coord, edge)
            if nxt is None or nxt not in board_map.hexes or nxt in seen:
                continue
            hex_ = board_map.hexes[nxt]
            if nxt != goal and (hex_.kind == "red" or not hex_.buildable):
                continue
            stops = len(tile_at(board_map, table.state.board, nxt)[0].stops)
            heapq.heappush(frontier, (cost + 1 + 5 * stops, nxt, path + [nxt]))
    raise AssertionError(f"no path from {start} to {goal}")
