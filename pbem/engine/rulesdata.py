"""Where the game definitions live: the top-level rules/ directory (or $PBEM_RULES)."""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any


def rules_dir() -> Path:
    """The rules/ directory: $PBEM_RULES, else the one beside the pbem package."""
    override = os.environ.get("PBEM_RULES")
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[2] / "rules"


@cache
def load_json(relative: str) -> Any:
    """Read one JSON file of rules/ (cached: rules data never changes at run time)."""
    with open(rules_dir() / relative, encoding="utf-8") as handle:
        return json.load(handle)
