"""The conformance table: every log of a folder imported into a scratch store, with its
result: ``matches``, ``differs at action N: why``, or ``not imported: why``.

    python -m pbem.importer.conformance ../shared/fixtures/18xx.games
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..store import open_store
from . import import_log, outcome
from .options import UnknownOptionalRule
from .sitelog import LogError
from .translate import Unsupported


@dataclass
class Row:
    path: Path
    title: str
    actions: int
    verdict: str
    matches: bool
    game_id: int | None = None

    def line(self, root: Path) -> str:
        name = self.path.relative_to(root) if self.path.is_relative_to(root) else self.path
        return f"{str(name):<64} {self.title:<5} {self.actions:>5}  {self.verdict}"


def check_file(path: Path, db: Path) -> Row:
    store = open_store(db, now="1970-01-01T00:00:00+00:00")
    try:
        log, imported = import_log(store, path)
    except (LogError, UnknownOptionalRule, Unsupported) as exc:
        return Row(path, "?", 0, f"not imported: {exc}", False)
    count = len(imported.applied)
    if imported.refusal is not None:
        refused = imported.refusal.site
        where = refused.get("id") or f"auto action of {refused.get('parent')}"
        return Row(path, log.title, count, f"differs at action {where}: "
                   f"{imported.refusal.reason}", False, imported.game_id)
    found = outcome(log, imported)
    older = "".join(f"; {k}={v} from the log's record" for k, v in imported.readings.items())
    if found.matches:
        return Row(path, log.title, count, f"matches ({found.reason}{older})", True,
                   imported.game_id)
    return Row(path, log.title, count, "differs at the end: " + "; ".join(found.problems),
               False, imported.game_id)


def table(root: Path) -> list[Row]:
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for i, path in enumerate(sorted(root.rglob("*.json"))):
            rows.append(check_file(path, Path(scratch) / f"{i}.db"))
    return rows


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path("../shared/fixtures/18xx.games")
    rows = table(root)
    for row in rows:
        print(row.line(root))
    return 0 if all(r.matches for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
