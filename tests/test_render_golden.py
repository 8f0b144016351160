"""Golden files: the text renderings of fixed positions of both titles, checked in under
tests/golden/ so that a change shows as a readable diff.

Regenerate after an intended change:  PBEM_REGEN_GOLDEN=1 .venv/bin/python -m pytest \
    tests/test_render_golden.py   (then read the diff before committing)
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from positions import connection, late_1830, midgame_1830, midgame_1870, random_board, stock_round

from pbem.engine.board.map import load_map
from pbem.engine.game import new_game
from pbem.engine.rulesdata import rules_dir
from pbem.engine.title import load_title
from pbem.render.board_text import map_parts, text_board
from pbem.render.market_text import market_text
from pbem.render.prompt import prompt_text
from pbem.render.tables import tables_text

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("PBEM_REGEN_GOLDEN") == "1"


def start_1830():  # type: ignore[no-untyped-def]
    return new_game("1830", ["Alice", "Bob", "Carol"], 1, {"seating": "fixed"})


def board_1870() -> str:
    board_map = load_map("1870")
    homes = {c: (h.coord, i) for h in board_map.hexes.values() for c, i in h.homes.items()}
    drawing, rest = map_parts(board_map, random_board("1870", 7, lays=50, tokens=10), "brown",
                              homes=homes, note="the 1st from phase 1, the 2nd from phase 5, "
                              "the 3rd from phase 7")
    return drawing + "\n\n" + rest


def market_1870() -> str:
    if not (rules_dir() / "1870" / "game.json").exists():
        pytest.skip("rules/1870/game.json is not written yet: no 1870 game state to render")
    if not load_title("1870").engine_support:
        pytest.skip("the engine does not run 1870 games yet: no 1870 game state to render")
    state = new_game("1870", ["Alice", "Bob", "Carol"], 1, {"seating": "fixed"})
    return market_text(state)


def protection_1870() -> str:
    """Ann sold a MP share (the token fell a row); Dewey may protect it."""
    from pbem.engine.game import apply_facts
    from pbem.engine.state import POOL

    state = midgame_1870()
    stock_round(state, current="Ann", protection={
        "corp": "MP", "seller": "Ann", "count": 1, "amount": 200, "row": 1, "col": 13,
        "arrival": state.corps["MP"].arrival, "price": 200, "president": "Dewey"},
        protection_queue=[])
    apply_facts(state, [{"f": "cert", "corp": "MP", "index": 6, "to": POOL}])
    apply_facts(state, [{"f": "market", "corp": "MP", "row": 2, "col": 13}])
    return prompt_text(state, "Dewey", ["Ann sells 1 MP share for $200."])


def connection_1870() -> str:
    state = midgame_1870()
    connection(state, "marker")
    return prompt_text(state, "Ben")


CASES: dict[str, Callable[[], str]] = {
    "1830-start-tables": lambda: tables_text(start_1830()),
    "1830-start-market": lambda: market_text(start_1830()),
    "1830-start-board": lambda: text_board(start_1830()),
    "1830-start-prompt-alice": lambda: prompt_text(start_1830(), "Alice",
                                                   ["The game begins."]),
    "1830-midgame-tables": lambda: tables_text(midgame_1830()),
    "1830-midgame-market": lambda: market_text(midgame_1830()),
    "1830-midgame-board": lambda: text_board(midgame_1830()),
    "1830-late-tables-alice": lambda: tables_text(late_1830(), "Alice"),
    "1830-late-market": lambda: market_text(late_1830()),
    "1830-late-board": lambda: text_board(late_1830()),
    "1870-board": board_1870,
    "1870-start-market": market_1870,
    "1870-midgame-market": lambda: market_text(midgame_1870()),
    "1870-midgame-tables": lambda: tables_text(midgame_1870()),
    "1870-midgame-board": lambda: text_board(midgame_1870()),
    "1870-midgame-prompt-protection-dewey": protection_1870,
    "1870-midgame-prompt-connection-ben": connection_1870,
}


#: Cases that become possible once other work lands (their file is written then).
NEW_CASES = {"1870-start-market"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str) -> None:
    text = CASES[name]() + "\n"
    path = GOLDEN / f"{name}.txt"
    if REGENERATE:
        path.write_text(text, encoding="utf-8")
    if not path.exists():
        message = f"{path} is missing: run with PBEM_REGEN_GOLDEN=1 to write it"
        if name in NEW_CASES:
            pytest.skip(message)
        pytest.fail(message)
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{name} differs from {path} (PBEM_REGEN_GOLDEN=1 rewrites it)"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_lines_fit(name: str) -> None:
    """The map drawing may use 100 columns, everything else 78."""
    path = GOLDEN / f"{name}.txt"
    if not path.exists():
        pytest.skip(f"{path.name} not written")
    lines = path.read_text(encoding="utf-8").splitlines()
    limit = 100 if name.endswith("board") else 78
    assert max(len(line) for line in lines) <= limit
    if name.endswith("board"):
        legend = next(i for i, line in enumerate(lines) if line.startswith("Legend:"))
        after = lines[legend:]  # the legend and the listing
        assert max(len(line) for line in after) <= 78
