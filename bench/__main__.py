"""Run every benchmark module in bench/ (each ``*.py`` with a ``main()``), the mail
benchmark first, and print their figures. ``python -m bench mail`` runs the ones
whose name contains ``mail`` (a name that is a module's whole name runs that module
only: ``python -m bench routes`` is bench/routes.py, not routes_hard too);
``python -m bench routes-hard`` the hard route positions (``-`` reads as ``_``).
Arguments from the first one starting with ``-`` on go to each module run
(``python -m bench routes --repeat 5``); a module whose main() takes none runs
without them, with a note."""

from __future__ import annotations

import importlib
import inspect
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


def chosen(names: list[str]) -> list[str]:
    """The modules `names` ask for (all when none): a module's whole name picks that
    module, another name every module whose name contains it."""
    found = modules()
    return [m for m in found if not names or any(
        m == a or (a not in found and a in m) for a in names)]


def main(argv: list[str]) -> int:
    split = next((i for i, a in enumerate(argv) if a.startswith("-")), len(argv))
    names = [a.replace("-", "_") for a in argv[:split]]
    options = argv[split:]
    wanted = chosen(names)
    failed = 0
    for name in wanted:
        print(f"== {name}", flush=True)
        started = time.perf_counter()
        try:
            module = importlib.import_module(f"bench.{name}")
            if not callable(getattr(module, "main", None)):
                print(f"{name} has no main(); skipped")
                continue
            if not options:
                module.main()
            elif inspect.signature(module.main).parameters:
                module.main(options)
            else:
                print(f"{name} takes no options: run without {' '.join(options)}")
                module.main()
        except SystemExit as exc:  # a module's argument parser refused the options
            failed += 1
            print(f"{name} stopped (exit status {exc.code})", flush=True)
        except Exception as exc:  # noqa: BLE001 - report and go on with the others
            failed += 1
            print(f"{name} failed: {type(exc).__name__}: {exc}", flush=True)
        print(f"== {name}: {time.perf_counter() - started:.1f} s\n", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
