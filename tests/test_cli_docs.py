"""docs/cli.md is generated from the commands' --help and must be up to date."""

from __future__ import annotations

from doctools import ROOT, load_tool


def test_cli_reference_is_up_to_date() -> None:
    module = load_tool("make_cli_docs")
    written = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert written == module.render(), "run: python tools/make_cli_docs.py"
