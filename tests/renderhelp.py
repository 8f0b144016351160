"""Checks of rendered text shared by the rendering tests."""

from __future__ import annotations

import re


def check_lines(text: str) -> None:
    """Lines of at most 78 characters, except the map drawing (at most 100)."""
    in_map = False
    for line in text.splitlines():
        if line.startswith("MAP ("):
            in_map = True
        elif line.startswith("Legend:"):
            in_map = False
        assert len(line) <= (100 if in_map else 78), line


def row(text: str, first: str) -> list[str]:
    found = re.search(rf"^\*?{re.escape(first)}\s.*$", text, re.M)
    assert found, f"no row for {first}"
    return found.group(0).split()
