"""What 1870 players see: the market's sections, closed and reissued companies, frozen
reissue money, redeemed shares, destinations, the cattle and port tokens and the
destination markers on the map, and the prompts of 1870's special decisions (price
protection, a redemption asked of a player, a connection run).

The mid-game position is built from facts (pbem.engine.facts.apply), as the engine
records a game; its renderings are golden files (tests/test_render_golden.py).
"""

from __future__ import annotations

from typing import Any

from pbem.engine import redemption
from pbem.engine.closing import CLOSED
from pbem.engine.facts import apply
from pbem.engine.game import legal_moves, new_game
from pbem.engine.operating import new_turn
from pbem.engine.state import BANK, IPO, POOL, GameState, corp_holder, player_holder
from pbem.engine.stock import new_stock_round
from pbem.engine.track import placements
from pbem.render import mail_parts, market_text, prompt_text, svg_map, tables_text, text_board
from pbem.render.market_text import cell_mark
from pbem.render.stateinfo import state_board_view

NAMES = ["Ann", "Ben", "Dewey", "Shirley"]
ALL_COLOURS = ("yellow", "green", "brown", "gray")


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
    state = new_game("1870", NAMES, 1, {"seating": "fixed"})
    facts: list[dict[str, Any]] = []

    def put(*more: dict[str, Any]) -> None:
        for fact in more:
            apply(state, fact)
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
        row, col = state.rules.market.par_cell(par).row, state.rules.market.par_cell(par).col
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


def test_the_position_is_what_it_says() -> None:
    state = midgame_1870()
    market = state.rules.market
    assert state.corps["TP"].closed and set(state.corps["TP"].certs) == {CLOSED}
    assert market.cell(*state.corps["SLSF"].cell).ledge
    assert market.cell(*state.corps["IC"].cell).area == "lower"
    assert market.cell(*state.corps["GMO"].cell).zone == "green"
    assert state.corps["MP"].par == 140 and state.corps["MP"].frozen == 140
    assert state.percent("ATSF", corp_holder("ATSF")) == 20
    assert state.percent("MP", p("Dewey")) == 70
    assert sum(c.cash for c in state.corps.values()) + sum(x.cash for x in state.players) \
        + state.bank == state.rules.bank_cash


# -- market -----------------------------------------------------------------------------------


def test_market_marks_are_never_token_letters() -> None:
    state = midgame_1870()
    marks = {cell_mark(c) for c in state.rules.market.cells.values()}
    assert marks == {"*", "y", "g", "b", "x", "_", ".", " "}
    assert not any(m.isupper() for m in marks)


def test_market_legend_names_every_section_and_the_tokens() -> None:
    text = market_text(midgame_1870())
    flat = " ".join(text.split())
    for words in ("g green", "x closing section", "_ on the ledge", ". lower area (below the "
                  "ledge)", "L=SLSF", "M=MP", "I=IC", "K=MKT"):
        assert words in flat, words
    assert "TP has closed" in flat
    assert "=TP" not in flat  # not on the market


def test_market_par_chart_shows_the_reissued_par() -> None:
    flat = " ".join(market_text(midgame_1870()).split())
    assert "$140 MP (reissued)" in flat
    assert "$100 ATSF, SLSF" in flat and "TP" not in flat.split("Par chart:")[1]
    assert "any of $68 to $200" in flat


def test_market_tokens_on_the_ledge_and_below_it() -> None:
    lines = market_text(midgame_1870()).splitlines()
    # the second block of columns (12 to 21): SLSF on the $120 ledge box, IC below it
    second = lines[lines.index("(columns 12 to 21)"):]
    assert any(line.startswith("_L") for line in second)
    lower = next(i for i, line in enumerate(lines) if line.startswith("   0  10  20  30  40"))
    assert "I" not in lines[lower + 1]
    assert any(".I" in line for line in lines)


# -- tables ------------------------------------------------------------------------------------


def corp_line(text: str, corp: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(corp + " "))


def test_tables_closed_company() -> None:
    text = tables_text(midgame_1870())
    tp = corp_line(text, "TP").split()
    assert tp[:5] == ["TP", "-", "-", "-", "closed"]
    assert "TP" not in next(line for line in text.splitlines() if line.startswith("Player"))
    assert "Certificate limit 14 with 9 companies left (TP closed)." in text


def test_tables_frozen_money_redeemed_shares_and_over_limit() -> None:
    state = midgame_1870()
    text = tables_text(state)
    flat = " ".join(text.split())
    assert "MP $900 ($140 from reissue usable next OR)" in flat
    mp = corp_line(text, "MP").split()
    assert mp[2] == "$900+" and mp[3] == "$140r"
    atsf = corp_line(text, "ATSF").split()
    assert atsf[7] == "20%"  # Own
    assert "70P!" in corp_line(text, "Dewey")
    assert "! held over the share limit through price protection" in flat


def test_tables_hide_frozen_money_with_the_treasury() -> None:
    state = midgame_1870()
    state.options["visibility"] = "corporation-cash-hidden"
    assert "from reissue" not in tables_text(state, "Ann")
    assert "MP $900 ($140 from reissue" in " ".join(tables_text(state, "Dewey").split())


def test_tables_destinations() -> None:
    flat = " ".join(tables_text(midgame_1870()).split())
    assert "MP to Dallas (J5): reached, marker on J5" in flat
    assert "SSW to Fort Worth (J3): reached, marker kept as one more $100 station" in flat
    assert "ATSF to Southwest (N1): not yet connected" in flat


# -- the map -----------------------------------------------------------------------------------


def test_board_shows_cattle_port_and_destination_markers() -> None:
    text = text_board(midgame_1870())
    hexes = text[text.index("HEXES"):].replace("\n      ", " ")
    line = {row.split()[0]: row for row in hexes.splitlines()[1:] if row[:1].isalpha()}
    assert "cattle token of MKT" in line["B11"]
    assert "open port of GMO" in line["M20"]
    assert "destination marker of MP" in line["J5"]
    legend = text[text.index("Legend:"):text.index("HEXES")]
    for mark in ("{c}", "{p}", "{px}", "@"):
        assert mark in legend
    drawing = text[:text.index("Legend:")]
    assert "{c}" in drawing and "{p}" in drawing and "@M" in drawing


def test_board_closed_port() -> None:
    state = midgame_1870()
    apply(state, {"f": "marker", "name": "port", "marker": {
        "hex": "M20", "stop": 0, "corp": "GMO", "open": False, "round": [4, 1]}})
    text = text_board(state)
    assert "closed port of GMO" in text and "{px}" in text[:text.index("Legend:")]


def test_svg_draws_the_markers() -> None:
    state = midgame_1870()
    svg = svg_map(state)
    for mark in ('class="marker cattle"', 'class="marker port"', 'class="marker destination"'):
        assert mark in svg
    views = state_board_view(state)
    assert views["J5"].markers and views["A2"].markers == ()


# -- prompts -------------------------------------------------------------------------------------


def stock_round(state: GameState, **keys: Any) -> None:
    apply(state, {"f": "round_new", "round": {**new_stock_round(5, "Shirley"), **keys}})


def test_prompt_price_protection() -> None:
    state = midgame_1870()
    row, col = cell_of(state, 82)
    stock_round(state, protection={"corp": "MP", "seller": "Ann", "count": 1, "amount": 200,
                                   "row": 1, "col": 13, "arrival": 1, "price": 200,
                                   "president": "Dewey"},
                protection_queue=[])
    apply(state, {"f": "cert", "corp": "MP", "index": 7, "to": POOL})
    apply(state, {"f": "market", "corp": "MP", "row": 2, "col": 13})
    assert set(legal_moves(state)) == {"Dewey"}
    text = prompt_text(state, "Dewey")
    flat = " ".join(text.split())
    assert "Waiting for Dewey (price protection of MP, stock round 5)." in flat
    assert "Dewey: you may protect MP: buy the 1 share Ann sold for $200 - protect or " \
        "decline." in flat
    assert "protect MP" in text and "decline" in text
    assert "MP goes back to $200" in flat
    other = prompt_text(state, "Ann")
    assert "nothing to do now" in other


def test_prompt_redemption_asked_of_a_player() -> None:
    state = midgame_1870()
    stock_round(state, proposal={"kind": "redeem", "corp": "ATSF", "seller": "Shirley",
                                 "price": 110, "proposer": "Ben", "answer_by": "Shirley"})
    flat = " ".join(prompt_text(state, "Shirley").split())
    assert "Shirley: Ben asks you to sell one of your ATSF shares to ATSF (a redemption) " \
        "for $110 - accept or decline." in flat
    assert "accept sell one ATSF share to ATSF for $110" in flat
    assert "decline keep it" in flat


def connection(state: GameState, step: str, run: dict[str, Any] | None = None) -> None:
    apply(state, {"f": "round_set", "values": {"connection": {
        "corp": "ATSF", "step": step, "run": run, "queue": []}, "current": None}})


def test_prompt_connection_run_steps() -> None:
    state = midgame_1870()
    connection(state, "marker")
    text = prompt_text(state, "Ben")
    flat = " ".join(text.split())
    assert "(ATSF's connection run," in flat
    assert "Ben: ATSF can run from Topeka (B9) to its destination Southwest (N1)" in flat
    assert "destination place" in text and "destination keep" in text
    assert "one more $100 station marker" in flat
    connection(state, "dividend", {"revenue": 120, "routes": ["4: B9-N1 $120"]})
    flat = " ".join(prompt_text(state, "Ben").split())
    assert "payout" in flat and "withhold" in flat and "$120" in flat
    assert "no half dividend" in flat


def test_prompt_connection_run_the_run() -> None:
    state = midgame_1870()
    connection(state, "run")
    flat = " ".join(prompt_text(state, "Ben").split())
    assert "run" in flat and "home to its destination" in flat


def test_prompt_redeem_and_reissue_in_a_stock_turn() -> None:
    state = midgame_1870()
    stock_round(state, current="Ben")
    apply(state, {"f": "corp", "corp": "ATSF", "values": {"operated": True}})
    flat = " ".join(prompt_text(state, "Ben").split())
    assert "redeem ATSF ATSF buys back a share from the open market for $110 (your whole " \
        "turn)" in flat
    ipo = state.cert_indexes("ATSF", IPO)[0]
    apply(state, {"f": "cert", "corp": "ATSF", "index": ipo, "to": p("Ann")})
    flat = " ".join(prompt_text(state, "Ben").split())
    assert "reissue ATSF ATSF's redeemed shares go to the initial offering at a new par of " \
        "$100" in flat


def test_mail_parts_render_the_1870_position() -> None:
    state = midgame_1870()
    for viewer in (None, "Ann", "Dewey"):
        parts = mail_parts(state, viewer=viewer, recent_lines=["x"])
        assert "STOCK MARKET" in parts.text and parts.svg.startswith("<svg")
        assert max(len(line) for line in parts.text.splitlines()) <= 100
