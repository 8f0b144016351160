"""Run every benchmark module in bench/ (each ``*.py`` with a ``main()``), the mail
benchmark first, and print their figures. ``python -m bench mail`` runs the ones
whose name contains ``mail``; ``python -m bench routes-hard`` the hard route positions
(``-`` reads as ``_``)."""

from __future__ import annotations

import importlib
import sys
import time
from pathlib import Path

FIRST = ("bench_mail",)
#: long runs with options of their own: run alone (``python -m bench.soak --help``)
ALONE = ("soak", "fuzz")


def modules() -> list[str]:
    found = sorted(p.stem for p in Path(__file__).parent.glob("*.py")
                   if not p.stem.startswith("_") and p.stem not in ALONE)
    return [m for m in FIRST if m in found] + [m for m in found if m not in FIRST]


def main(argv: list[str]) -> int:
    names = [a.replace("-", "_") for a in argv]
    wanted = [m for m in modules() if not names or any(a in m for a in names)]
    failed = 0
    for name in wanted:
        print(f"== {name}", flush=True)
        started = time.perf_counter()
        try:
            module = importlib.import_module(f"bench.{name}")
            if not callable(getattr(module, "main", None)):
                print(f"{name} has no main(); skipped")
                continue
            module.main()
        except Exception as exc:  # noqa: BLE001 - report and go on with the others
            failed += 1
            print(f"{name} failed: {type(exc).__name__}: {exc}", flush=True)
        print(f"== {name}: {time.perf_counter() - started:.1f} s\n", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
