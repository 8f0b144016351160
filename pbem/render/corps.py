"""How corporations look: one letter each for the text map, and colours for HTML and SVG.

Letters are derived from the symbols in the title's order (the first letter of the
symbol not yet taken, then any free letter), so they never change during a game.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

#: Charter colours (background, text) as the 18xx community prints them.
COLOURS: dict[str, tuple[str, str]] = {
    # 1830
    "PRR": ("#237333", "#ffffff"),
    "NYC": ("#474548", "#ffffff"),
    "CPR": ("#d1232a", "#ffffff"),
    "B&O": ("#025aaa", "#ffffff"),
    "C&O": ("#8fc2e6", "#000000"),
    "ERIE": ("#f2e600", "#000000"),
    "NYNH": ("#e87722", "#000000"),
    "B&M": ("#95c054", "#000000"),
    # 1870
    "ATSF": ("#7f8c8d", "#ffffff"),
    "SSW": ("#1e6fb8", "#ffffff"),
    "SP": ("#f08a24", "#000000"),
    "SLSF": ("#c0392b", "#ffffff"),
    "MP": ("#6b3e26", "#ffffff"),
    "MKT": ("#2e8b57", "#ffffff"),
    "IC": ("#2c3e50", "#ffffff"),
    "GMO": ("#e5c100", "#000000"),
    "FW": ("#8e44ad", "#ffffff"),
    "TP": ("#d35f9c", "#000000"),
}
DEFAULT_COLOUR = ("#555555", "#ffffff")


def colour(sym: str) -> tuple[str, str]:
    """(background, text) colour of a corporation."""
    return COLOURS.get(sym, DEFAULT_COLOUR)


def letters(symbols: Iterable[str]) -> dict[str, str]:
    """One upper-case letter per corporation, e.g. PRR -> P, NYC -> N, NYNH -> Y."""
    return dict(_letters(tuple(symbols)))


@cache
def _letters(symbols: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    taken: set[str] = set()
    result = []
    for sym in symbols:
        candidates = [ch for ch in sym.upper() if ch.isalpha()]
        candidates += [chr(c) for c in range(ord("A"), ord("Z") + 1)]
        letter = next(ch for ch in candidates if ch not in taken)
        taken.add(letter)
        result.append((sym, letter))
    return tuple(result)
