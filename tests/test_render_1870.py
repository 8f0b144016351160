"""What 1870 players see: the market's sections, closed and reissued companies, frozen
reissue money, redeemed shares, destinations, the cattle and port tokens and the
destination markers on the map, and the prompts of 1870's special decisions (price
protection, a redemption asked of a player, a connection run).

The mid-game position is built from stored facts (read by pbem.engine.game.apply_facts
as a stored game is); its renderings are golden files (tests/test_render_golden.py).
"""

from __future__ import annotations

from positions import cell_of, connection, midgame_1870, p, stock_round

from pbem.engine.game import apply_facts, legal_moves
from pbem.engine.state import CLOSED, IPO, POOL, corp_holder
from pbem.render import mail_parts, market_text, prompt_text, svg_map, tables_text, text_board
from pbem.render.market_text import cell_mark
from pbem.render.stateinfo import state_board_view


def test_the_position_is_what_it_says() -> None:
    state = midgame_1870()
    market = state.rules.market
    assert state.corps["TP"].closed and set(state.corps["TP"].certs) == {CLOSED}
    cells = {c: market.cell(*(state.corps[c].cell or (-1, -1))) for c in ("SLSF", "IC", "GMO")}
    assert cells["SLSF"] is not None and cells["SLSF"].ledge
    assert cells["IC"] is not None and cells["IC"].area == "lower"
    assert cells["GMO"] is not None and cells["GMO"].zone == "green"
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
    apply_facts(state, [{"f": "marker", "name": "port", "marker": {
        "hex": "M20", "stop": 0, "corp": "GMO", "open": False, "round": [4, 1]}}])
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


def test_prompt_price_protection() -> None:
    state = midgame_1870()
    row, col = cell_of(state, 82)
    stock_round(state, protection={"corp": "MP", "seller": "Ann", "count": 1, "amount": 200,
                                   "row": 1, "col": 13, "arrival": 1, "price": 200,
                                   "president": "Dewey"},
                protection_queue=[])
    apply_facts(state, [{"f": "cert", "corp": "MP", "index": 7, "to": POOL}])
    apply_facts(state, [{"f": "market", "corp": "MP", "row": 2, "col": 13}])
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
    apply_facts(state, [{"f": "corp", "corp": "ATSF", "values": {"operated": True}}])
    flat = " ".join(prompt_text(state, "Ben").split())
    assert "redeem ATSF ATSF buys back a share from the open market for $110 (your whole " \
        "turn)" in flat
    ipo = state.cert_indexes("ATSF", IPO)[0]
    apply_facts(state, [{"f": "cert", "corp": "ATSF", "index": ipo, "to": p("Ann")}])
    flat = " ".join(prompt_text(state, "Ben").split())
    assert "reissue ATSF ATSF's redeemed shares go to the initial offering at a new par of " \
        "$100" in flat


def test_mail_parts_render_the_1870_position() -> None:
    state = midgame_1870()
    for viewer in (None, "Ann", "Dewey"):
        parts = mail_parts(state, viewer=viewer, recent_lines=["x"])
        assert "STOCK MARKET" in parts.text and parts.svg.startswith("<svg")
        assert max(len(line) for line in parts.text.splitlines()) <= 100
