"""Fixed positions for the rendering and archive tests, built in code: 1830 in the middle
of the game and late in it on a crowded board, a crowded random board, and an 1870
position built from stored facts (records, read by pbem.engine.game.apply_facts as a
stored game is), with the 1870 stock-round and connection-run waits set on it."""

from __future__ import annotations

import random
from typing import Any

from pbem.engine import operating
from pbem.engine.board.map import BoardState, Map, load_map, place_token, tile_at
from pbem.engine.board.tiles import unique_rotations
from pbem.engine.board.track import lay_tile, placements
from pbem.engine.game import apply_facts, new_game
from pbem.engine.operating import new_turn
from pbem.engine.state import BANK, IPO, POOL, GameState, corp_holder, player_holder
from pbem.engine.stock import new_stock_round
from pbem.engine.titles.t1870 import redemption

ALL_COLOURS = ("yellow", "green", "brown", "gray")
NAMES_1870 = ["Ann", "Ben", "Dewey", "Shirley"]


# -- 1830  ------------------------------------------------------------
def give(state: GameState, corp: str, player: str, indexes: list[int]) -> None:
    for i in indexes:
        state.corps[corp].certs[i] = player_holder(player)


def float_corp(state: GameState, corp: str, par: int, cell: tuple[int, int], cash: int,
               trains: list[str]) -> None:
    c = state.corps[corp]
    state.arrivals += 1
    c.par, c.cell, c.arrival = par, cell, state.arrivals
    c.floated = c.funded = True
    c.cash, c.trains = cash, list(trains)


LAYS_1830 = [  # (hex, tile, rotation or None: the first that fits), each legal in its turn
    ("H14", "9", 1), ("H16", "57", 1), ("I17", "9", 1), ("F20", "1", 0),
    ("E19", "57", 0), ("F18", "9", 2), ("G17", "55", 1), ("H10", "57", 1),
    ("H8", "8", 2), ("E11", "59", 0), ("G19", "54", 0), ("E19", "14", None),
    ("H16", "15", None), ("H14", "19", None), ("F22", "57", 1),
]
TOKENS_1830 = [("H12", 0, "PRR"), ("E19", 0, "NYC"), ("I15", 0, "B&O"), ("G19", 0, "NYNH"),
               ("H16", 0, "PRR"), ("E19", 0, "B&O"), ("E11", 0, "ERIE")]


def lay_checked(board_map: Map, board: BoardState, coord: str, tile: str,
                rotation: int | None) -> None:
    fits = placements(board_map, board, coord, tile, ALL_COLOURS)
    rotation = fits[0] if rotation is None and fits else rotation
    assert rotation in fits, (coord, tile)
    lay_tile(board_map, board, coord, tile, rotation)


def midgame_1830() -> GameState:
    """Four players in operating round 3.1 (phase 3) with track, stations and trains."""
    state = new_game("1830", ["Alice", "Bob", "Carol", "Dave"], 1, {"seating": "fixed"})
    for sym, owner in (("SV", "Alice"), ("CS", "Bob"), ("DH", "Carol"), ("MH", "Dave"),
                       ("CA", "Alice"), ("BO", "Bob")):
        state.privates[sym].owner = player_holder(owner)
    state.privates["CS"].owner = corp_holder("NYC")
    give(state, "PRR", "Alice", [0, 1, 2, 3])
    give(state, "NYC", "Bob", [0, 1, 2, 3])
    give(state, "B&O", "Bob", [0, 1])
    give(state, "B&O", "Carol", [2, 3, 4])
    give(state, "NYNH", "Dave", [0, 1, 2, 3])
    state.corps["NYNH"].certs[4] = "pool"
    float_corp(state, "PRR", 76, (3, 7), 312, ["2", "3"])
    float_corp(state, "NYC", 82, (2, 7), 145, ["2", "2"])
    float_corp(state, "B&O", 100, (3, 7), 460, ["3"])
    float_corp(state, "NYNH", 71, (4, 5), 38, ["2"])
    state.corps["NYC"].operated = True
    for p, cash in zip(state.players, (182, 96, 311, 47), strict=True):
        p.cash = cash
    state.bank = state.rules.bank_cash - sum(p.cash for p in state.players) - sum(
        c.cash for c in state.corps.values())
    state.phase = "3"
    state.trains_sold = {"2": 6, "3": 2}
    state.pool_trains = ["2"]
    state.corps["NYC"].trains = ["2"]
    state.round = {"kind": "operating", "sr": 3, "index": 1, "of": 2, "operated": ["NYC"],
                   "current": "PRR", "turn": operating.new_turn(), "discards": [],
                   "proposal": None}
    build_board(state.map, state.board, LAYS_1830[:12], TOKENS_1830[:6])
    return state


def build_board(board_map: Map, board: BoardState, lays: list[tuple[str, str, int | None]],
                tokens: list[tuple[str, int, str]]) -> None:
    for coord, stop, corp in tokens[:4]:
        place_token(board_map, board, coord, stop, corp)
    for coord, tile, rotation in lays:
        lay_checked(board_map, board, coord, tile, rotation)
    for coord, stop, corp in tokens[4:]:
        place_token(board_map, board, coord, stop, corp)


def random_board(title: str, seed: int, lays: int = 160, tokens: int = 24) -> BoardState:
    """A crowded board: random legal lays (no connection rule) and stations."""
    board_map = load_map(title)
    board = BoardState.new(board_map)
    rng = random.Random(seed)
    coords = [c for c, h in board_map.hexes.items() if h.buildable]
    corps = sorted({c for h in board_map.hexes.values() for c in h.homes})
    for _ in range(lays):
        coord = rng.choice(coords)
        options = [(t, r) for t, left in board.tiles_left.items() if left > 0
                   for r in unique_rotations(board_map.tiles[t], placements(
                       board_map, board, coord, t, ALL_COLOURS))]
        if options:
            lay_tile(board_map, board, coord, *rng.choice(options))
    cities = [(c, i) for c in board_map.hexes if not board_map.hexes[c].homes
              for i, s in enumerate(tile_at(board_map, board, c)[0].stops) if s.kind == "city"]
    rng.shuffle(cities)
    for coord, index in cities[:tokens]:
        tile, _ = tile_at(board_map, board, coord)
        if len(board.tokens_at(coord, index)) < tile.stops[index].slots:
            here = {c for s in board.tokens.get(coord, []) for c in s}
            free = [c for c in corps if c not in here]
            if free:
                place_token(board_map, board, coord, index, rng.choice(free))
    return board


def late_1830(seed: int = 5) -> GameState:
    """The mid-game position on a crowded board in phase 5 (brown tiles, the second
    off-board column), NYC's treasury hidden from the others."""
    state = midgame_1830()
    state.board = random_board("1830", seed)
    state.phase = "5"
    state.trains_sold = {"2": 6, "3": 5, "4": 4, "5": 1}
    state.corps["PRR"].trains = ["4", "5"]
    state.corps["NYC"].trains = ["4"]
    state.corps["B&O"].trains = ["4"]
    state.corps["NYNH"].trains = []
    state.pool_trains = []
    for sym in ("SV", "CS", "DH", "MH", "CA", "BO"):
        state.privates[sym].closed = True
    state.corps["B&O"].cell = (2, 9)
    state.corps["PRR"].cell = (2, 9)
    state.options["visibility"] = "corporation-cash-hidden"
    return state


# -- 1870 ----------------------------------------------------------------------------------------


def cell_of(state: GameState, price: int, kind: str = "upper") -> tuple[int, int]:
    """The topmost box of ``price`` that is ``kind``: upper (not the ledge), ledge, lower."""
    found = sorted((c for c in state.rules.market.cells.values() if c.price == price and (
        c.ledge if kind == "ledge" else (c.area == kind and not c.ledge))),
        key=lambda c: c.row)
    assert found, (price, kind)
    return found[0].row, found[0].col


def holders(state: GameState, corp: str, shares: list[tuple[str, int]]) -> list[dict[str, Any]]:
    """cert facts: ``shares`` (holder, 10% units) in order; the first holder gets the
    president's certificate (two units); the rest stay in the initial offering."""
    facts = []
    index = 0
    for holder, units in shares:
        if index == 0:
            facts.append({"f": "cert", "corp": corp, "index": 0, "to": holder})
            index, units = 1, units - 2
        for _ in range(units):
            facts.append({"f": "cert", "corp": corp, "index": index, "to": holder})
            index += 1
    return facts


def tile_fact(state: GameState, coord: str, tile: str, edges: set[int] | None = None
              ) -> dict[str, Any]:
    """A legal lay of ``tile`` on ``coord`` (the first rotation covering ``edges``)."""
    fits = placements(state.map, state.board, coord, tile, ALL_COLOURS)
    tdef = state.map.tiles[tile]
    rotation = next(r for r in fits if edges is None or edges <= set(tdef.exits(r)))
    return {"f": "tile", "hex": coord, "tile": tile, "rotation": rotation}


def p(name: str) -> str:
    return player_holder(name)


def midgame_1870() -> GameState:
    """Four players in operating round 4.1 of phase 3, built from facts:

    * MP (Dewey 70%, held over the limit through price protection) at $200; it redeemed
      two shares and reissued them at a new par of $140, Ann bought one: $140 of its
      $900 is frozen until the next OR; it reached Dallas and placed its destination
      marker there.
    * SLSF on the ledge ($120), IC in the lower area ($90), GMO in the green section
      ($50) with the open port on Mobile, MKT (with the cattle token on Kansas City) on
      top of SSW at $90; SSW reached Fort Worth and kept its marker; ATSF holds 20% of
      its own shares (redeemed).
    * TP has closed: the certificate limit is 14 for 9 companies.
    """
    state = new_game("1870", NAMES_1870, 1, {"seating": "fixed"})
    facts: list[dict[str, Any]] = []

    def put(*more: dict[str, Any]) -> None:
        for fact in more:
            apply_facts(state, [fact])
            facts.append(fact)

    put({"f": "phase", "name": "3"})
    # private companies
    for sym, owner in (("GRSC", p("Ann")), ("MRBC", p("Ben")), ("SCC", corp_holder("MKT")),
                       ("GSC", corp_holder("GMO")), ("SLSF", p("Shirley")),
                       ("MKT", p("Dewey"))):
        put({"f": "private", "sym": sym, "owner": owner})
    put({"f": "private_closed", "sym": "SLSF"}, {"f": "private_used", "sym": "SCC"})
    # the companies: par (token on the par box), then the market moves
    for corp, par in (("TP", 68), ("MKT", 90), ("SSW", 90), ("MP", 100), ("ATSF", 100),
                      ("SLSF", 100), ("IC", 82), ("GMO", 72)):
        cell = state.rules.market.par_cell(par)
        assert cell is not None
        row, col = cell.row, cell.col
        put({"f": "par", "corp": corp, "price": par, "row": row, "col": col},
            {"f": "corp", "corp": corp, "values": {"floated": True, "funded": True}})
    put(*holders(state, "TP", [(p("Ben"), 4)]))
    put({"f": "corp_closed", "corp": "TP"})
    put(*holders(state, "MP", [(p("Dewey"), 7), (p("Ann"), 1), (IPO, 1), (POOL, 1)]))
    put(*holders(state, "ATSF", [(p("Ben"), 5), (p("Shirley"), 1), (POOL, 1),
                                 (corp_holder("ATSF"), 2)]))
    put(*holders(state, "SLSF", [(p("Shirley"), 4), (p("Ann"), 2)]))
    put(*holders(state, "IC", [(p("Ann"), 3), (p("Ben"), 2), (POOL, 3)]))
    put(*holders(state, "GMO", [(p("Shirley"), 3), (p("Dewey"), 2), (POOL, 2)]))
    put(*holders(state, "MKT", [(p("Ben"), 4), (p("Dewey"), 1), (p("Shirley"), 2)]))
    put(*holders(state, "SSW", [(p("Shirley"), 5), (p("Ann"), 1)]))
    for corp, price, kind in (("MKT", 90, "upper"), ("SSW", 90, "upper"),
                              ("ATSF", 110, "upper"), ("SLSF", 120, "ledge"),
                              ("IC", 90, "lower"), ("GMO", 50, "upper")):
        row, col = cell_of(state, price, kind)
        if (row, col) != state.corps[corp].cell:
            put({"f": "market", "corp": corp, "row": row, "col": col})
    row, col = 1, 13  # $200, two rows above the ledge
    put({"f": "market", "corp": "MP", "row": row, "col": col})
    # MP redeemed two shares and reissued them: the new par, one bought by Ann
    new_par = redemption.new_par(state, "MP")
    put({"f": "corp", "corp": "MP", "values": {"par": new_par, "reissued": True,
                                               "frozen": new_par}})
    put({"f": "over_limit", "player": "Dewey", "corps": ["MP"]})
    # money: players, treasuries (MP's includes the frozen $140)
    for name, cash in (("Ann", 212), ("Ben", 87), ("Dewey", 405), ("Shirley", 133)):
        put({"f": "cash", "from": p(name), "to": BANK, "amount": state.player(name).cash - cash})
    for corp, cash in (("MP", 900), ("ATSF", 350), ("SLSF", 210), ("IC", 60), ("GMO", 45),
                       ("MKT", 120), ("SSW", 95)):
        put({"f": "cash", "from": BANK, "to": corp_holder(corp), "amount": cash})
    # trains: the 2s rusted with the first 4; TP's 3 went to the open market at its closing
    sold = {"MP": ["4"], "ATSF": ["3", "4"], "SLSF": ["3"], "IC": ["3"], "GMO": ["4"],
            "MKT": ["3", "4"], "SSW": ["3", "4"], "TP": ["3"]}
    for corp, trains in sold.items():
        for train in trains:
            put({"f": "train", "name": train, "source": BANK, "dest": corp_holder(corp)})
    put({"f": "train", "name": "3", "source": corp_holder("TP"), "dest": "pool"})
    for _ in range(7):
        put({"f": "train", "name": "2", "source": BANK, "dest": corp_holder("MP")})
        put({"f": "train", "name": "2", "source": corp_holder("MP"), "dest": "scrap"})
    # the board: homes, track between Fort Worth and Dallas, stations, markers
    put(tile_fact(state, "J5", "57", {1, 4}), tile_fact(state, "J3", "57", {4}),
        tile_fact(state, "B11", "57"), tile_fact(state, "M20", "57"),
        tile_fact(state, "C18", "57"))
    for coord, corp in (("C18", "MP"), ("B9", "ATSF"), ("E12", "SLSF"), ("K16", "IC"),
                        ("M20", "GMO"), ("B11", "MKT"), ("H17", "SSW"), ("J5", "MP")):
        put({"f": "token", "hex": coord, "stop": 0, "corp": corp})
    put({"f": "marker", "name": "destination:MP", "marker": {"hex": "J5", "stop": None}},
        {"f": "corp", "corp": "MP", "values": {"destination_marker": "placed",
                                               "destination_reached": True}},
        {"f": "corp", "corp": "SSW", "values": {"destination_marker": "kept",
                                                "destination_reached": True}},
        {"f": "marker", "name": "cattle", "marker": {"hex": "B11", "stop": 0, "corp": "MKT"}},
        {"f": "marker", "name": "port", "marker": {"hex": "M20", "stop": 0, "corp": "GMO",
                                                   "open": True, "round": [3, 2]}})
    put({"f": "priority", "player": "Ben"})
    put({"f": "round_new", "round": {"kind": "operating", "sr": 4, "index": 1, "of": 2,
                                     "operated": ["MP"], "current": "ATSF",
                                     "turn": new_turn(), "discards": [], "proposal": None}},
        {"f": "corp", "corp": "MP", "values": {"operated": True}})
    state.__dict__["_facts"] = facts
    return state


# -- the position itself --------------------------------------------------------------------------



def stock_round(state: GameState, **keys: Any) -> None:
    apply_facts(state, [{"f": "round_new", "round": {**new_stock_round(5, "Shirley"), **keys}}])



def connection(state: GameState, step: str, run: dict[str, Any] | None = None) -> None:
    apply_facts(state, [{"f": "round_set", "values": {"connection": {
        "corp": "ATSF", "step": step, "run": run, "queue": []}, "current": None}}])
