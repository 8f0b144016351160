"""Where the game definitions live: the top-level rules/ directory (or $PBEM_RULES), one
folder per title (game.json, map.json) and tiles.json for all; a title defined
elsewhere (the test title in tests/) registers its own folder."""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

_TITLE_DIRS: dict[str, Path] = {}


def package_data(name: str, source: str | None = None) -> Path:
    """A data file or folder of pbem: the copy installed with the package (pbem/_data/NAME,
    copied there when the wheel is built, see setup.py), else the one in the source tree
    (SOURCE, by default NAME, relative to the repository)."""
    package = Path(__file__).resolve().parents[1]
    installed = package / "_data" / name
    return installed if installed.exists() else package.parent / (source or name)


def rules_dir() -> Path:
    """The rules/ directory: $PBEM_RULES, else the one installed with pbem or beside it."""
    override = os.environ.get("PBEM_RULES")
    if override:
        return Path(override)
    return package_data("rules")


def register_data(title: str, folder: Path) -> None:
    """Read the data of ``title`` (game.json, map.json) from ``folder``."""
    _TITLE_DIRS[title] = Path(folder)


def title_dir(title: str) -> Path:
    """The folder of a title's data."""
    return _TITLE_DIRS.get(title) or rules_dir() / title


def title_names() -> list[str]:
    """Every title with data: the folders of rules/ and those registered."""
    found = {p.parent.name for p in rules_dir().glob("*/game.json")}
    return sorted(found | set(_TITLE_DIRS))


@cache
def read_file(path: Path) -> Any:
    """One JSON file of title data (cached: rules data never changes at run time)."""
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def load_json(relative: str) -> Any:
    """A JSON file of rules/ by its path there ("1830/game.json", "tiles.json"); a
    registered title's files come from its folder."""
    title, _, rest = relative.partition("/")
    if rest and title in _TITLE_DIRS:
        return read_file(_TITLE_DIRS[title] / rest)
    return read_file(rules_dir() / relative)
