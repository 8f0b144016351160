"""Python's cyclic garbage collector, set up for the kind of process pbem runs.

A short `pbem` command (``import-18xx``, ``audit``, ``show``, ``act``, ``poll --once``,
...) makes and drops millions of small objects while it decides or rebuilds a game,
and few of them form cycles: with the collector's default thresholds (a young
collection every 700 net allocations, the whole heap now and then) a cold import of a
727-action 1830 log ran about 130 collections, 8-10% of its CPU, mostly walking the
same long-lived objects (the modules, the title's rules and map) again.  Such a process
freezes what it has made at start-up (`gc.freeze`: never walked again) and collects its
young objects only every ``SHORT_THRESHOLDS[0]`` allocations.

`pbem serve` and `pbem poll` without ``--once`` run for days with many games: they keep
the default thresholds, so their memory stays bounded as before (docs/operators-guide.md).

bench/vs_reference.py sets up its process as a short command's, so that it measures
what `pbem audit` and `pbem import-18xx` do.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

#: young collections every 50,000 net allocations of container objects instead of 700;
#: the older generations after 20 of those each (the defaults are 10 and 10)
SHORT_THRESHOLDS = (50_000, 20, 20)

#: the commands that run until stopped: (command, an option that makes it short)
LONG_RUNNING = {"serve": None, "poll": "--once"}


def command_of(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """The subcommand of a `pbem` command line (its first word that is neither an option
    nor the value of ``--db``) and the words after it."""
    words = list(argv)
    for i, word in enumerate(words):
        if word.startswith("-") or (i > 0 and words[i - 1] == "--db"):
            continue
        return word, words[i + 1:]
    return None, []


def is_short(argv: Sequence[str]) -> bool:
    """Whether the `pbem` command line ``argv`` (without the program) exits when done."""
    command, rest = command_of(argv)
    if command not in LONG_RUNNING:
        return True
    short_option = LONG_RUNNING[command]
    return short_option is not None and short_option in rest


def set_up_short_run() -> None:
    """Freeze the objects made so far and collect young objects less often: for a
    process that exits when its command is done.  (No collection first: after pbem's
    modules are imported it takes about 11 ms and finds a handful of objects.)"""
    gc.freeze()
    gc.set_threshold(*SHORT_THRESHOLDS)


@contextmanager
def short_run() -> Iterator[None]:
    """The collector of a short command while the block runs, then as it was (for a
    bench that measures the commands in a process that goes on)."""
    thresholds = gc.get_threshold()
    set_up_short_run()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def set_up_for(argv: Sequence[str]) -> None:
    """The collector for the `pbem` command line ``argv``: a short command's set-up, or
    Python's defaults for a long-running one."""
    if is_short(argv):
        set_up_short_run()
