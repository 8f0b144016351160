"""The 1870 title data (rules/1870/game.json) and its loader (pbem/engine/title.py).

Every figure is checked against the Mayfair 1870 rulebook. The rulebook has no numbered
rules, so test names cite the section's page from the book's own table of contents
(``p3_trains`` = "Trains", page 3; the public-companies table is on the back pages).
The figures are written out here; where ../shared is present they are also read from
the rulebook text itself, and compared with the reference data
(../shared/reference/1870.json) wherever the reference agrees with the rulebook. Where
the two disagree pbem follows the rulebook and an option selects the reference's reading
(docs/1870.md); those tests check both readings.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from pbem.engine.board.map import load_map
from pbem.engine.errors import SetupError
from pbem.engine.game import new_game
from pbem.engine.title import Title, load_title, load_title_for, parse_market, titles

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PBEM_SHARED", ROOT.parent / "shared"))
REFERENCE = Path(os.environ.get("PBEM_REFERENCE", SHARED / "reference")) / "1870.json"

ALL_TILES = ("yellow", "green", "brown", "gray")
CORPS = ("ATSF", "FW", "GMO", "IC", "MP", "MKT", "SP", "SSW", "SLSF", "TP")
RIVER = ("A16", "B17", "C18", "D17", "E18", "F19", "G18", "H17", "I16", "J15", "K14", "L13",
         "M14", "N15", "O16", "O18")


def _rulebook_path() -> Path | None:
    for path in sorted((SHARED / "seeds").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        if "1870 RULES (THIS BOOK)" in text:
            return path
    return None


RULEBOOK = _rulebook_path() if (SHARED / "seeds").is_dir() else None
needs_rulebook = pytest.mark.skipif(
    RULEBOOK is None, reason=f"the 1870 rulebook text is not in {SHARED / 'seeds'} "
                             "(set PBEM_SHARED)")
needs_reference = pytest.mark.skipif(
    not REFERENCE.exists(), reason=f"reference data not found at {REFERENCE} "
                                   "(set PBEM_REFERENCE or PBEM_SHARED)")


@pytest.fixture(scope="module")
def t() -> Title:
    return load_title("1870")


@pytest.fixture(scope="module")
def board():  # type: ignore[no-untyped-def]
    return load_map("1870")


@pytest.fixture(scope="module")
def ref() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(REFERENCE.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def book() -> str:
    assert RULEBOOK is not None
    return RULEBOOK.read_text(encoding="utf-8")


def variant(**options: str) -> Title:
    return load_title_for("1870", options)


# --- loading -------------------------------------------------------------------------


def test_1870_loads_and_the_engine_runs_it(t: Title) -> None:
    assert "1870" in titles()
    assert t.title == "1870" and "Mayfair" in t.name
    assert t.engine_support is True
    assert load_title("1830").engine_support is True
    state = new_game("1870", ["Alice", "Bob", "Carol"], 1, {})
    assert [p.cash for p in state.players] == [700, 700, 700] and state.bank == 12000 - 2100


def test_1870_seven_players_only_with_the_players_option() -> None:
    names = ["A1", "B2", "C3", "D4", "E5", "F6", "G7"]
    with pytest.raises(SetupError, match="2 to 6 players"):
        new_game("1870", names, 1, {})
    state = new_game("1870", names, 1, {"players": "2-7"})
    assert [p.cash for p in state.players] == [300] * 7


def test_1830_loads_as_before() -> None:
    t30 = load_title("1830")
    assert t30.certificate_limit == {2: 28, 3: 20, 4: 16, 5: 13, 6: 11}
    assert t30.certificate_limits == {n: {8: v} for n, v in t30.certificate_limit.items()}
    assert t30.certificate_limit_for(4) == t30.certificate_limit_for(4, 7) == 16
    assert t30.starting_cash == {2: 1200, 3: 800, 4: 600, 5: 480, 6: 400}
    assert all(not c.ledge and c.area == "upper" for c in t30.market.cells.values())
    assert {c.zone for c in t30.market.cells.values()} == {"plain", "yellow", "orange", "brown"}
    assert all(c.destination is None and c.float_percent is None and c.extra == {}
               for c in t30.corporations.values())
    assert all(p.events == () for p in t30.phases)
    assert set(t30.extra) == {"base_game"}  # the base game's private groups (German rules 1.3)
    assert t30.for_options({"six_trains": "3"}) is t30
    assert t30.private("CS").extra["tile_lay"]["tiles"] == ["3", "4", "58"]


def test_market_flags_are_checked() -> None:
    cells = parse_market(["275l 250d 0c"]).cells
    assert (cells[0, 0].ledge, cells[0, 1].area, cells[0, 2].zone) == (True, "lower", "closed")
    with pytest.raises(SetupError, match="not a price"):
        parse_market(["100q"])


def test_options_are_well_formed(t: Title) -> None:
    for key, opt in t.options.items():
        assert opt.default in opt.choices and len(opt.choices) >= 2, key
        assert opt.help, key
    required = {"finish_on_400", "trains", "station_wars", "market", "players", "half_dividend",
                "reissue_par", "ledge", "upgrades", "gray_tiles", "token_cities",
                "bankrupt_prices", "reissue_max", "protect_after_selling",
                "certificate_limit_drops", "tiles"}
    assert required <= set(t.options)
    with pytest.raises(SetupError, match="no option 'nonsense'"):
        load_title_for("1870", {"nonsense": "yes"})
    with pytest.raises(SetupError, match="may be"):
        load_title_for("1870", {"trains": "diesel"})


def test_every_choice_loads(t: Title) -> None:
    for key, opt in t.options.items():
        for choice in opt.choices:
            assert load_title_for("1870", {key: choice}).title == "1870"
    every = {k: o.choices[-1] for k, o in t.options.items()}
    assert load_title_for("1870", every).max_players == 7
    assert load_title_for("1870", {k: o.default for k, o in t.options.items()}) is t


# --- Game set-up ----------------------------------------------------------------------


def test_p3_the_bank_holds_12000(t: Title) -> None:
    assert t.bank_cash == 12000
    # the denominations of "The Bank" table add up to the same
    assert 40 * 1 + 20 * 5 + 26 * 10 + 30 * 20 + 20 * 50 + 30 * 100 + 14 * 500 == 12000


TRAINS = [("2", 2, 80, 7), ("3", 3, 180, 6), ("4", 4, 300, 5), ("5", 5, 450, 4),
          ("6", 6, 630, 3), ("8", 8, 800, 3), ("10", 10, 950, 2), ("12", 12, 1100, None)]


def test_p3_trains_types_costs_and_numbers(t: Title) -> None:
    assert [(x.name, x.distance, x.price, x.count) for x in t.trains] == TRAINS
    # "Type 12 trains, however, have no limit" (36 cards: 6 of them 12s)
    assert sum(x.count or 6 for x in t.trains) == 36


def test_p4_starting_capital_is_2100_divided_by_the_players(t: Title) -> None:
    assert t.starting_cash == {2: 1050, 3: 700, 4: 525, 5: 420, 6: 350}
    assert all(cash == 2100 // n and 2100 % n == 0 for n, cash in t.starting_cash.items())
    assert (t.min_players, t.max_players) == (2, 6)


PHASES = [
    # name, first train, tiles, train limit, ORs, companies buy privates, off-board column
    ("1", None, ALL_TILES[:1], 4, 1, False, 0),
    ("2", "3", ALL_TILES[:2], 4, 2, True, 0),
    ("3", "4", ALL_TILES[:2], 3, 2, True, 0),
    ("4", "5", ALL_TILES[:3], 2, 3, False, 1),
    ("5", "6", ALL_TILES, 2, 3, False, 1),
    ("6", "8", ALL_TILES, 2, 3, False, 2),
    ("7", "10", ALL_TILES, 2, 3, False, 2),
    ("8", "12", ALL_TILES, 2, 3, False, 2),
]


def test_p4_game_phases(t: Title) -> None:
    got = [(p.name, p.on_train, p.tiles, p.train_limit, p.operating_rounds,
            p.corporations_buy_privates, p.offboard) for p in t.phases]
    assert got == PHASES
    assert [p.rulebook for p in t.phases] == list(range(1, 9))


def test_p4_phases_scrap_trains_close_privates_and_remove_tokens(t: Title) -> None:
    scrapped = {p.name: [x.name for x in t.trains if x.rusts_on == p.on_train]
                for p in t.phases if p.on_train}
    assert scrapped == {"2": [], "3": ["2"], "4": [], "5": ["3"], "6": ["4"], "7": [],
                        "8": ["5"]}
    assert {p.name: p.events for p in t.phases if p.events} == {
        "2": ("privates_buyable",), "4": ("close_privates",),
        "5": ("remove_port_and_cattle_tokens",)}
    # the 1830 engine closes privates on the trigger train: the same phase
    closing = [x.name for x in t.trains if x.extra.get("closes_privates")]
    assert closing == [p.on_train for p in t.phases if "close_privates" in p.events]
    # permanent trains (glossary): 6, 8, 10, 12
    assert [x.name for x in t.trains if x.rusts_on is None] == ["6", "8", "10", "12"]


# --- Stock market ---------------------------------------------------------------------


def test_p6_certificate_limits_by_players_and_companies(t: Title) -> None:
    assert t.certificate_limits == {2: {10: 28, 9: 24}, 3: {10: 20, 9: 17}, 4: {10: 16, 9: 14},
                                    5: {10: 13, 9: 11}, 6: {10: 11, 9: 9}}
    assert t.certificate_limit == {2: 28, 3: 20, 4: 16, 5: 13, 6: 11}


def test_p6_certificate_limit_is_reduced_once(t: Title) -> None:
    assert [t.certificate_limit_for(3, n) for n in (10, 9, 8, 5, 1)] == [20, 17, 17, 17, 17]
    assert t.certificate_limit_for(3) == 20
    twice = variant(certificate_limit_drops="twice")
    assert [twice.certificate_limit_for(3, n) for n in (10, 9, 8, 5)] == [20, 17, 15, 15]


def test_p6_share_limits_and_certificates(t: Title) -> None:
    assert t.player_share_limit == 60
    assert t.pool_certificate_limit == 5  # "five certificates (50%)"
    assert (t.president_percent, t.ordinary_shares, t.ordinary_percent) == (20, 8, 10)
    assert 1 + t.ordinary_shares == 9  # glossary: "a company with nine share certificates"


def test_p7_sections_of_the_stock_market(t: Title) -> None:
    assert t.zone_rules == {"yellow": ("uncounted",), "green": ("uncounted", "over_60"),
                            "brown": ("uncounted", "over_60", "multi_buy"),
                            "closed": ("closes",)}
    cells = t.market.cells.values()
    # closing section: the lower left corner
    closed = [c for c in cells if c.zone == "closed"]
    assert {(c.row, c.col) for c in closed} == {(8, 0), (9, 0), (9, 1), (10, 0), (10, 1),
                                                 (10, 2)}
    assert all(c.price == 0 for c in closed)
    # the red outlined area: the six starting values, one column
    pars = sorted((c.price, c.row, c.col) for c in cells if c.par)
    assert [p for p, _, _ in pars] == [68, 72, 76, 82, 90, 100]
    assert {col for _, _, col in pars} == {6}


def test_p8_the_ledge_divides_the_right_hand_part(t: Title) -> None:
    m = t.market
    for c in m.cells.values():
        below = m.cell(c.row + 1, c.col)
        if c.ledge:
            assert c.area == "upper" and below is not None and below.area == "lower"
        if c.area == "lower":
            above = m.cell(c.row - 1, c.col)
            assert above is not None and (above.ledge or above.area == "lower")
            right = m.cell(c.row, c.col + 1)
            assert right is None or right.area == "lower"  # the right-hand part
    assert sum(c.ledge for c in m.cells.values()) == 14


def test_p8_ledge_example_from_90(t: Title) -> None:
    """$90 two rows above the ledge: 2 shares stop on the ledge, 3 reach $72 at the bottom."""
    m = t.market
    column = [m.cell(r, 9) for r in range(4, 9)]
    assert [(c.price, c.ledge, c.area) for c in column if c] == [
        (90, False, "upper"), (82, True, "upper"), (76, False, "lower"), (72, False, "lower")]
    assert m.cell(8, 9) is None  # $72 is the bottom


def test_p8_market_extracts(t: Title) -> None:
    """The two figures beside the ledge example (text extraction garbled one cell of the
    first: '76 90 90' for 76 82 90, which the second figure confirms)."""
    m = t.market

    def block(rows: range, cols: range) -> list[list[int]]:
        return [[c.price for col in cols if (c := m.cell(r, col))] for r in rows]

    assert block(range(4, 8), range(8, 11)) == [[82, 90, 100], [76, 82, 90], [72, 76, 82],
                                                [68, 72]]
    assert block(range(4, 8), range(9, 11)) == [[90, 100], [82, 90], [76, 82], [72]]


def test_p8_sold_out_at_the_top_moves_down_right_at_the_same_value(t: Title) -> None:
    m = t.market
    assert m.max_price == 400 and m.cells[0, m.n_cols - 1].price == 400
    for col in range(m.n_cols - 1):
        top, diagonal = m.cell(0, col), m.cell(1, col + 1)
        assert top is not None and diagonal is not None and top.price == diagonal.price
    top_row = [m.cells[0, c].price for c in range(m.n_cols)]
    assert top_row == sorted(top_row)


def test_p15_compliance_example_64_just_above_yellow(t: Title) -> None:
    m = t.market
    assert any(c.price == 64 and c.zone == "plain" and (b := m.cell(c.row + 1, c.col))
               and b.zone == "yellow" for c in m.cells.values())


def test_p16_starting_a_company(t: Title) -> None:
    assert t.market.par_prices == [68, 72, 76, 82, 90, 100]
    for sym in CORPS:
        prices = t.corp(sym).token_prices
        assert prices == (0, 40, 100)[:len(prices)]  # free, $40, $100 circles
    assert t.extra["destination_token"] == {"price_as_station": 100,
                                            "doubles_city_at_route_end": True}


def test_p16_six_shares_to_operate_slsf_two(t: Title) -> None:
    assert {s: t.corp_float_percent(s) for s in CORPS} == {
        s: 20 if s == "SLSF" else 60 for s in CORPS}


PUBLIC_COMPANIES = [
    # the "Public Companies" table at the back of the book
    ("Atchison, Topeka & Santa Fe", "ATSF", 3, "Topeka", "Southwest"),
    ("Fort Worth & Denver City Railway", "FW", 2, "Fort Worth", "Denver"),
    ("Gulf, Mobile & Ohio Railroad", "GMO", 2, "Mobile", "St. Louis"),
    ("Illinois Central Railroad", "IC", 2, "Jackson", "Chicago"),
    ("Missouri Pacific Railroad", "MP", 3, "St. Louis", "Dallas"),
    ("Missouri-Kansas-Texas Railroad", "MKT", 3, "Kansas City", "Southwest"),
    ("Southern Pacific Railroad", "SP", 3, "Southwest", "New Orleans"),
    ("St. Louis Southwestern Railway", "SSW", 2, "Memphis", "Fort Worth"),
    ("St. Louis-San Francisco Railway", "SLSF", 3, "Springfield", "Southeast"),
    ("Texas & Pacific Railway", "TP", 2, "Dallas", "New Orleans"),
]


def test_public_companies_table(t: Title, board) -> None:  # type: ignore[no-untyped-def]
    got = [(c.name, c.sym, len(c.token_prices), c.extra["home_name"], c.destination_name)
           for c in t.corporations.values()]
    assert got == PUBLIC_COMPANIES
    for c in t.corporations.values():
        home, dest = board.hexes[c.home], board.hexes[c.destination]
        assert home.homes == {c.sym: 0} and c.home_city == 0
        assert home.name.startswith(c.extra["home_name"])  # "Springfield, MO"
        assert dest.name == c.destination_name and dest.tile.stops


# --- Private companies and the initial stock round --------------------------------------


PRIVATES = [("GRSC", "Great River Shipping Company", 20, 5),
            ("MRBC", "Mississippi River Bridge Company", 40, 10),
            ("SCC", "The Southern Cattle Company", 50, 10),
            ("GSC", "The Gulf Shipping Company", 80, 15),
            ("SLSF", "St. Louis San Francisco Railway", 140, 0),
            ("MKT", "Missouri-Kansas-Texas Railroad", 160, 20)]


def test_p9_private_companies_in_order_of_sale(t: Title) -> None:
    assert [(p.sym, p.name, p.value, p.revenue) for p in t.privates.values()] == PRIVATES
    assert [p.sym for p in t.privates_by_value()] == [p[0] for p in PRIVATES]


def test_p9_private_company_abilities(t: Title) -> None:
    x = {s: p.extra for s, p in t.privates.items()}
    assert x["GRSC"] == {"price_drop_when_unsold": 5}
    assert x["MRBC"]["closes_river"] is True
    assert x["MRBC"]["terrain_discount"] == {"amount": 40, "uses": 1, "hexes": "river"}
    assert x["MRBC"]["early_sale"] == {"phase": "1", "corporations": ["MP", "SSW"],
                                       "price_range": [20, 40]}
    assert x["MRBC"]["home_tile_lay"]["corporations"] == ["MP", "SSW"]
    assert x["MRBC"]["home_tile_lay"]["no_upgrade_same_round"] is True
    assert x["SCC"]["token"] == {"kind": "cattle", "hexes": "cattle", "bonus": 10,
                                 "bonus_others": 0, "closes_private": False}
    assert x["GSC"]["token"]["open"] == {"bonus": 20, "bonus_others": 10}
    assert x["GSC"]["token"]["closed"] == {"bonus": 20, "bonus_others": 0,
                                           "closes_private": True}
    assert x["SLSF"] == {"free_president": "SLSF", "no_sale_to_corporation": True,
                         "is_president_certificate": True}
    assert x["MKT"] == {"free_share": "MKT"}


def test_p10_bids_exceed_the_cost_then_the_bid_by_5(t: Title) -> None:
    assert t.extra["auction"] == {"first_bid_over_value": 5, "min_raise": 5,
                                  "start": "left-of-highest", "all_pass": "revenue-then-drop"}


def test_p9_cattle_and_port_cities(t: Title, board) -> None:  # type: ignore[no-untyped-def]
    river_col: dict[str, list[int]] = {}
    for coord in RIVER:
        river_col.setdefault(coord[0], []).append(int(coord[1:]))
    west = sorted(c for c, h in board.hexes.items() if h.tile.stops and c not in RIVER
                  and int(c[1:]) < min(river_col[c[0]]))
    cattle = t.extra["token_hexes"]["cattle"]
    assert sorted(cattle) == west and len(cattle) == 28  # any city west of the river
    assert {c for c in cattle if board.hexes[c].kind == "red"} == {"A2", "N1"}
    site = variant(token_cities="site").extra["token_hexes"]
    assert site["cattle"] == [c for c in cattle if board.hexes[c].tile.stops[0].kind == "city"]
    assert all("cattle" in board.hexes[c].marks for c in site["cattle"])
    port = t.extra["token_hexes"]["port"]
    assert set(site["port"]) == {c for c, h in board.hexes.items() if "port" in h.marks}
    assert set(port) - set(site["port"]) == {"K14", "N21"}
    assert board.hexes["K14"].river and board.hexes["K14"].tile.stops  # river, south of H17
    assert board.hexes["N21"].terrain == "lake" and board.hexes["N21"].tile.stops  # the Gulf
    assert "M22" not in port  # "the Southeast red off-board location is not"


# --- Share redemption and reissue ------------------------------------------------------


def test_p17_share_redemption(t: Title) -> None:
    assert t.extra["redemption"] == {"max_in_treasury": 4, "min_with_players_and_pool": 6,
                                     "per_stock_round": 1}


REISSUE = {100: 76, 110: 82, 120: 90, 140: 110, 160: 120, 180: 140, 200: 140, 225: 160,
           250: 180, 275: 200, 300: 220, 325: 250, 350: 250, 375: 275, 400: 300}


def test_p18_share_reissue_table(t: Title) -> None:
    reissue = t.extra["reissue"]
    assert {int(k): v for k, v in reissue["table"].items()} == REISSUE
    assert reissue["par_prices"] == [68, 72, 76, 82, 90, 100, 110, 120, 140, 160, 180, 200]
    assert reissue["max_par"] is None
    assert variant(reissue_max="200").extra["reissue"]["max_par"] == 200
    top_row = {t.market.cells[0, c].price for c in range(t.market.n_cols)}
    # every share value of the table is a market price; new pars up to $200 are par
    # values, higher ones go to the top row (220 is not a price: its closest is 225)
    assert set(REISSUE) <= {c.price for c in t.market.cells.values()}
    assert all(v in reissue["par_prices"] or v in top_row for v in REISSUE.values() if v != 220)
    assert t.options["reissue_par"].default == "table"


# --- Operating round ------------------------------------------------------------------


def test_p21_half_dividend_and_routes_follow_the_rulebook(t: Title) -> None:
    assert t.options["half_dividend"].default == "round-up"
    assert t.options["best_run"].default == "required"
    assert t.options["tile_lay"].default == "restrictive"
    assert t.options["stock_turn"].default == "sell-buy-or-buy-sell"


SELL_EXAMPLE = [(90, 2, 76), (160, 1, 140), (120, 3, 90), (110, 2, 90)]  # IC, SP, TP, MP


def test_p24_forced_sale_example_prices(t: Title) -> None:
    """Ima's sales: each drop is one row per share in some column of the upper area."""
    m = t.market
    for before, shares, after in SELL_EXAMPLE:
        def path_ok(r: int, c: int, before: int = before, shares: int = shares,
                    after: int = after) -> bool:
            path = [m.cell(r + i, c) for i in range(shares + 1)]
            return (all(x is not None and x.area == "upper" and not x.ledge for x in path)
                    and [path[0].price, path[-1].price] == [before, after])  # type: ignore
        assert any(path_ok(r, c) for r, c in m.cells), (before, shares, after)


# --- Variants -------------------------------------------------------------------------


def test_p25_variant_1830_diesels(t: Title) -> None:
    d = variant(trains="1830-diesels")
    assert [(x.name, x.distance, x.price, x.count, x.rusts_on) for x in d.trains] == [
        ("2", 2, 80, 7, "4"), ("3", 3, 180, 6, "6"), ("4", 4, 300, 5, "D"),
        ("5", 5, 450, 4, None), ("6", 6, 630, 3, None), ("D", None, 1100, None, None)]
    diesel = d.train("D")
    assert diesel.extra == {"available_after": "6",
                            "trade_in": {"trains": ["4", "5", "6"], "price": 800}}
    assert [p.name for p in d.phases] == ["1", "2", "3", "4", "5", "6"]
    assert [(p.on_train, p.offboard, p.tiles) for p in d.phases][4:] == [
        ("6", 1, ALL_TILES), ("D", 2, ALL_TILES)]
    assert d.phases[:5] == t.phases[:5]


def test_p25_variant_station_marker_wars(t: Title, board) -> None:  # type: ignore[no-untyped-def]
    wars = t.extra["station_wars_destinations"]
    assert sorted(board.hexes[c].name for c in wars) == [
        "Dallas", "Fort Worth", "New Orleans", "St. Louis"]
    assert {c.sym for c in t.corporations.values() if c.destination in wars} == {
        "GMO", "MP", "SP", "SSW", "TP"}
    assert t.options["station_wars"].default == "no"
    assert t.options["finish_on_400"].default == "no"


def test_p25_variant_the_1850_1832_market(t: Title) -> None:
    m, old = t.market, variant(market="1850").market
    changed = {k: (m.cells[k].price, m.cells[k].zone, old.cells[k].zone)
               for k in m.cells if m.cells[k] != old.cells[k]}
    # $60 in columns six and seven (from the left) white; $40 in the leftmost column green
    assert changed == {(6, 5): (60, "yellow", "plain"), (7, 6): (60, "yellow", "plain"),
                       (4, 0): (40, "brown", "green")}


def test_7_players_as_on_18xx_games() -> None:
    seven = variant(players="2-7")
    assert (seven.min_players, seven.max_players) == (2, 7)
    assert seven.starting_cash[7] == 300 and seven.certificate_limits[7] == {10: 9, 9: 7}
    assert 7 not in load_title("1870").certificate_limits


# --- Tiles ----------------------------------------------------------------------------


MANIFEST = {
    "1": 1, "2": 1, "3": 3, "4": 6, "5": 2, "6": 2, "7": 9, "8": 22, "9": 23, "55": 1, "56": 1,
    "57": 5, "58": 4, "69": 1,
    "14": 4, "15": 4, "16": 2, "17": 2, "18": 2, "19": 2, "20": 2, "23": 4, "24": 4, "25": 3,
    "26": 2, "27": 2, "28": 2, "29": 2, "141": 2, "142": 2, "143": 1, "144": 1,
    "39": 1, "40": 2, "41": 3, "42": 3, "43": 2, "44": 1, "45": 2, "46": 2, "47": 2, "63": 5,
    "70": 2, "145": 2, "146": 2, "147": 2, "170": 4,
    "171": 1, "172": 1,
}
REPLACEMENTS = {  # "Tile Replacements" (59 -> 64-68 left out: no such tiles in 1870)
    "3": ["141", "142", "143"], "4": ["141", "142"], "5": ["14", "15"], "6": ["14", "15"],
    "7": ["18", "26", "27", "28", "29"], "8": ["16", "17", "19", "23", "24", "25", "28", "29"],
    "9": ["18", "19", "20", "23", "24", "26", "27"], "57": ["14", "15"],
    "58": ["141", "142", "143"], "14": ["63", "170"], "15": ["63", "170"], "16": ["43", "70"],
    "17": ["47"], "18": ["43"], "19": ["45", "46"], "20": ["44", "47"],
    "23": ["41", "43", "45", "47"], "24": ["42", "43", "46", "47"], "25": ["40", "45", "46"],
    "26": ["42", "44", "45"], "27": ["41", "44", "46"], "28": ["39", "46", "70"],
    "29": ["39", "45", "70"], "141": ["145", "146", "147"], "142": ["145", "146", "147"],
    "143": ["146", "147"], "144": ["147"], "170": ["171", "172"],
}


def test_p30_tile_manifest(t: Title, board) -> None:  # type: ignore[no-untyped-def]
    assert board.manifest == MANIFEST and sum(MANIFEST.values()) == 161
    assert t.extra["board"]["tiles_removed"] == {}
    original = variant(tiles="original").extra["board"]["tiles_removed"]
    assert sum(original.values()) == 27 and all(MANIFEST[k] > n for k, n in original.items())


def test_option_original_tiles_leaves_27_copies_out_of_the_supply() -> None:
    """Option tiles=original (18xx.games original_tiles): the game starts with the smaller
    set, e.g. one tile 28 instead of two; pbem loaded the list but laid from the Mayfair
    manifest (found by differential testing: the site had no second 28)."""
    names = ["A", "B", "C"]
    mayfair = new_game("1870", names, 1, {}).board.tiles_left
    original = new_game("1870", names, 1, {"tiles": "original"}).board.tiles_left
    assert mayfair["28"] == 2 and original["28"] == 1
    assert sum(mayfair.values()) - sum(original.values()) == 27


def test_p30_gray_tiles_station_spaces(t: Title) -> None:
    assert t.extra["board"]["gray_tile_slots"] == {"171": 2, "172": 3}  # 2S, 3S
    assert variant(gray_tiles="site").extra["board"]["gray_tile_slots"] == {"171": 3, "172": 2}


def test_p30_tile_replacements(t: Title, board) -> None:  # type: ignore[no-untyped-def]
    """map.json carries 18xx.games' table; the rulebook's is it less upgrades_removed."""
    removed = {tuple(pair) for pair in t.extra["board"]["upgrades_removed"]}
    site = {(old, new) for old, news in board.upgrades.items() for new in news}
    assert site - removed == {(old, new) for old, news in REPLACEMENTS.items() for new in news}
    assert removed == {("28", "43"), ("29", "43"), ("58", "144")} and removed <= site
    assert t.extra["board"]["p_hexes_allow_63"] is True
    site_reading = variant(upgrades="site").extra["board"]
    assert site_reading["upgrades_removed"] == [] and site_reading["p_hexes_allow_63"] is False


# --- the rulebook text (skipped without ../shared) ---------------------------------------


@needs_rulebook
def test_rulebook_text_p3_trains_table(book: str) -> None:
    rows = re.findall(r"^(\d+)\t\\\$ ?([\d ]+?)\t(\d+)( \(unlimited\))?$", book, re.M)
    found = {(n, int(price.replace(" ", "")), int(count), bool(unl))
             for n, price, count, unl in rows}
    assert found == {(n, price, count or 6, count is None) for n, _, price, count in TRAINS}


@needs_rulebook
def test_rulebook_text_p4_starting_capital(book: str, t: Title) -> None:
    rows = set(re.findall(r"^(\d)\t\\\$ ?(\d+)$", book, re.M))
    assert {(int(n), int(c)) for n, c in rows} == set(t.starting_cash.items())


@needs_rulebook
def test_rulebook_text_p6_certificate_limits(book: str, t: Title) -> None:
    rows = re.findall(r"^(10|9)\t(\d+)\t(\d+)\t(\d+)\t(\d+)\t(\d+)$", book, re.M)
    assert rows  # the table at the back: companies, then 2-6 players
    for companies, *limits in rows:
        assert [t.certificate_limits[n][int(companies)] for n in range(2, 7)] == [
            int(x) for x in limits]
    small = re.findall(r"^([2-6])\t(\d+)\t(\d+)$", book, re.M)  # the table on p.8
    assert {int(n): {10: int(a), 9: int(b)} for n, a, b in small} == t.certificate_limits


@needs_rulebook
def test_rulebook_text_p18_reissue_table(book: str) -> None:
    rows = re.findall(r"^\\\$ ?(\d+)\t\\\$ ?(\d+)$", book, re.M)
    assert {int(a): int(b) for a, b in rows} == REISSUE


@needs_rulebook
def test_rulebook_text_public_companies_table(book: str) -> None:
    table = book[book.rindex("## PUBLIC COMPANIES"):]
    rows = re.findall(r"^([^\t\n]+)\t([A-Z]+)\t\d{4}\t(\d)\t([^\t\n]+)\t([^\t\n]+)$", table, re.M)
    assert [(name, sym, int(n), home, dest) for name, sym, n, home, dest in rows] == \
        PUBLIC_COMPANIES


@needs_rulebook
def test_rulebook_text_p9_private_costs_and_revenues(book: str) -> None:
    found = {}
    for _, name, _, _ in PRIVATES:
        hits = re.findall(re.escape(name) + r"\s*\n\s*Costs \\\$(\d+)(?:\s+Revenue \\\$(\d+))?",
                          book)
        assert hits, name
        found[name] = {(int(v), int(r or 0)) for v, r in hits}
    assert found == {name: {(value, revenue)} for _, name, value, revenue in PRIVATES}


@needs_rulebook
def test_rulebook_text_p25_variants_are_there(book: str) -> None:
    for heading in ("$400 FINISH", "1830™ DIESELS", "STATION MARKER WARS"):
        assert heading.replace("$", "\\$") in book
    assert "same as the other two games" in book  # the 1850/1832 market


# --- the reference data, where it agrees (skipped without ../shared) ----------------------


@needs_reference
def test_reference_money_and_limits(t: Title, ref: dict[str, Any]) -> None:
    assert ref["bank_cash"] == t.bank_cash
    assert ref["players"]["rulebook_max"] == t.max_players
    seven = variant(players="2-7")
    assert ref["players"]["max"] == seven.max_players
    assert {int(k): v for k, v in ref["starting_cash"].items()} == seven.starting_cash
    assert {int(n): {int(k): v for k, v in cols.items()}
            for n, cols in ref["certificate_limit"].items()} == seven.certificate_limits
    (original,) = [v for v in ref["variants"] if v["id"] == "original_rules"]
    both = variant(players="2-7", certificate_limit_drops="twice")
    assert {int(n): {int(k): v for k, v in cols.items()}
            for n, cols in original["certificate_limit"].items()} == both.certificate_limits
    assert ref["rules"]["player_share_limit_percent"] == t.player_share_limit
    assert ref["rules"]["open_market_limit_percent"] == 10 * t.pool_certificate_limit


@needs_reference
def test_reference_market_cell_by_cell(t: Title, ref: dict[str, Any]) -> None:
    sm = ref["stock_market"]
    theirs = {(c["row"], c["col"]): (c["price"], c["zone"], bool(c.get("par")),
                                     bool(c.get("on_ledge")), c["area"])
              for row in sm["rows"] for c in row if c is not None}
    ours = {k: (c.price, c.zone, c.par, c.ledge, c.area) for k, c in t.market.cells.items()}
    assert ours == theirs
    assert sorted(sm["par_values"]) == t.market.par_prices
    assert sm["max_price"] == t.market.max_price
    (market,) = [v for v in ref["variants"] if v["id"] == "original_market"]
    old = variant(market="1850").market
    assert {(ch["row"], ch["col"]): ch["to"] for ch in market["changes"]} == {
        k: f"{old.cells[k].price} {old.cells[k].zone}" for k in old.cells
        if old.cells[k] != t.market.cells[k]}


def _their_trains(trains: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    def unl(v: Any) -> Any:
        return None if v == "unlimited" else v
    return [(x["name"], unl(x["distance"]), x["price"], unl(x["count"]),
             x.get("rusts_when_first_bought")) for x in trains]


def _their_phases(phases: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    column = {"yellow": 0, "brown": 1, "blue": 2}
    return [(x["trigger_train"], x["train_limit"], tuple(x["tiles"]), x["operating_rounds"],
             x["corporations_may_buy_privates"], column[x["offboard_revenue"]]) for x in phases]


def _our_phases(title: Title) -> list[tuple[Any, ...]]:
    return [(p.on_train, p.train_limit, p.tiles, p.operating_rounds,
             p.corporations_buy_privates, p.offboard) for p in title.phases]


@needs_reference
def test_reference_trains_and_phases(t: Title, ref: dict[str, Any]) -> None:
    ours = [(x.name, x.distance, x.price, x.count, x.rusts_on) for x in t.trains]
    assert ours == _their_trains(ref["trains"])
    assert _our_phases(t) == _their_phases(ref["phases"])
    d = variant(trains="1830-diesels")
    assert [(x.name, x.distance, x.price, x.count, x.rusts_on) for x in d.trains] == \
        _their_trains(ref["diesel_variant"]["trains"])
    assert _our_phases(d) == _their_phases(ref["diesel_variant"]["phases"])
    theirs_d = ref["diesel_variant"]["trains"][-1]["trade_in"]
    assert d.train("D").extra["trade_in"] == {"trains": theirs_d["trains"],
                                              "price": theirs_d["price_with_trade_in"]}


@needs_reference
def test_reference_corporations(t: Title, ref: dict[str, Any]) -> None:
    theirs = {c["symbol"]: (c["name"], c["home_hex"], c["home_city_index"],
                            tuple(c["token_prices"]), c["destination_hex"],
                            c["destination_name"], c["float_percent"],
                            c["destination_token"]["price_if_used_as_normal_station"])
              for c in ref["corporations"]}
    ours = {s: (c.name, c.home, c.home_city, c.token_prices, c.destination,
                c.destination_name, t.corp_float_percent(s),
                t.extra["destination_token"]["price_as_station"])
            for s, c in t.corporations.items()}
    assert ours == theirs
    wars = {c["symbol"] for c in ref["corporations"]
            if c.get("station_wars_destination_uses_city_slot")}
    assert wars == {s for s, c in t.corporations.items()
                    if c.destination in t.extra["station_wars_destinations"]}


@needs_reference
def test_reference_private_companies(t: Title, ref: dict[str, Any]) -> None:
    theirs = sorted(ref["private_companies"], key=lambda p: p["auction_order"])
    assert [(p["symbol"], p["face_value"], p["revenue"]) for p in theirs] == [
        (p.sym, p.value, p.revenue) for p in t.privates.values()]
    abilities = {p["symbol"]: {a["type"]: a for a in p["abilities"]} for p in theirs}
    mrbc = abilities["MRBC"]
    assert mrbc["blocks_river_crossing"]["hexes"] == list(RIVER)
    assert mrbc["restricted_purchase"]["price_range"] == \
        t.private("MRBC").extra["early_sale"]["price_range"]
    assert mrbc["terrain_discount_tile_lay"]["discount"] == 40
    gsc = abilities["GSC"]["place_token"]
    assert (gsc["open_port_bonus_owner"], gsc["open_port_bonus_others"],
            gsc["closed_port_bonus_owner"]) == (20, 10, 20)
    assert abilities["SCC"]["place_token"]["revenue_bonus_owner"] == 10
    assert not next(p for p in theirs if p["symbol"] == "SLSF")["may_be_bought_by_corporation"]
    lists = ref["special_hex_lists"]
    assert lists["mississippi_river_hexes"] == list(RIVER)
    site = variant(token_cities="site").extra["token_hexes"]
    assert (site["cattle"], site["port"]) == (lists["cattle_token_hexes"],
                                              lists["port_token_hexes"])


@needs_reference
def test_reference_reissue_and_tile_variants(t: Title, ref: dict[str, Any]) -> None:
    reissue = ref["stock_market"]["reissue_par"]
    assert {int(k): v for k, v in reissue["rulebook_table"].items()} == REISSUE
    formula = {int(k): v for k, v in reissue["formula_results"].items()}
    # where the site's formula and the rulebook differ (docs/1870.md): 200, 300, 350
    assert {k for k in REISSUE if REISSUE[k] != formula[k]} == {200, 300, 350}
    (tiles,) = [v for v in ref["variants"] if v["id"] == "original_tiles"]
    assert variant(tiles="original").extra["board"]["tiles_removed"] == tiles["tiles_removed"]
    assert ref["tile_manifest"] == MANIFEST
    their_pairs = {(old, u["to"]) for old, ups in ref["upgrades"].items() for u in ups}
    removed = {tuple(p) for p in t.extra["board"]["upgrades_removed"]}
    assert their_pairs - removed == {(o, n) for o, ns in REPLACEMENTS.items() for n in ns}
    gray = {i: ref_tile for i, ref_tile in json.loads(
        (REFERENCE.parent / "tiles.json").read_text(encoding="utf-8"))["tiles"].items()
        if i in ("171", "172")}
    assert {i: x["revenue_centres"][0].get("slots", 1) for i, x in gray.items()} == \
        variant(gray_tiles="site").extra["board"]["gray_tile_slots"]
