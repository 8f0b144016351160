"""Write docs/cli.md from the CLI's own --help texts (run: python tools/make_cli_docs.py).

tests/test_cli_docs.py checks that docs/cli.md is up to date, so the reference
cannot drift from the commands.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from click.testing import CliRunner

from pbem.cli import main

DOC = Path(__file__).resolve().parents[1] / "docs" / "cli.md"


def commands(group: click.Group, prefix: list[str]) -> list[list[str]]:
    found = []
    for name in sorted(group.commands):
        path = [*prefix, name]
        found.append(path)
        command = group.commands[name]
        if isinstance(command, click.Group):
            found += commands(command, path)
    return found


def render() -> str:
    runner = CliRunner()
    parts = [
        "# The pbem command line\n",
        "Generated from `pbem ... --help` by `tools/make_cli_docs.py`; do not edit by hand.\n",
        "```\n" + runner.invoke(main, ["--help"], prog_name="pbem").output + "```\n",
    ]
    for path in commands(main, []):
        text = runner.invoke(main, [*path, "--help"], prog_name="pbem").output
        parts.append(f"## pbem {' '.join(path)}\n\n```\n{text}```\n")
    return "\n".join(parts)


if __name__ == "__main__":
    DOC.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {DOC}\n")
