"""Run the real `pbem` CLI in-process (click's runner) against a SQLite file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from pbem.cli import main


class Cli:
    def __init__(self, db: Path) -> None:
        self.db = str(db)
        self.runner = CliRunner()

    def run(self, *args: str) -> Result:
        return self.runner.invoke(main, ["--db", self.db, *args], catch_exceptions=False)

    def ok(self, *args: str) -> str:
        result = self.run(*args)
        assert result.exit_code == 0, result.output + result.stderr
        return result.stdout

    def refused(self, *args: str) -> str:
        result = self.run(*args)
        assert result.exit_code == 1, result.output
        return result.stderr

    def new(self, *names: str, **options: str) -> int:
        args = ["new", "1830", "--seating", "fixed", "--seed", "1"]
        for name in names:
            args += ["--player", f"{name}:{name.lower()}@example.org"]
        for key, value in options.items():
            args += ["--option", f"{key}={value}"]
        return int(self.ok(*args).strip())

    def act(self, game: int, who: str, commands: str) -> str:
        return self.ok("act", str(game), "--as", who, commands)

    def show(self, game: int) -> dict[str, Any]:
        return json.loads(self.ok("show", str(game), "--format", "json"))

    def events(self, game: int) -> int:
        return len(json.loads(self.ok("export", str(game)))["events"])
