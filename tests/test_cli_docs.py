"""docs/cli.md is generated from the commands' --help and must be up to date."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_cli_reference_is_up_to_date() -> None:
    spec = importlib.util.spec_from_file_location("make_cli_docs", ROOT / "tools" /
                                                  "make_cli_docs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert written == module.render(), "run: python tools/make_cli_docs.py"
