"""The reference engine for the benches: ../shared/oracle (the 18xx.games rules engine,
Ruby, behind a JSON-lines server; $PBEM_SHARED/oracle when set), run from where it lies,
and the CPU time of its process.

pbem is timed with ``time.process_time()``; the reference with the CPU clock of its
Ruby process (``clock_getcpuclockid``, nanoseconds; /proc's ticks where that is
missing), read just before and after a request, so both sides count CPU time and the
other work of a shared machine distorts neither much."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PBEM_SHARED", ROOT.parent / "shared"))
ORACLE = SHARED / "oracle"
FIXTURES = SHARED / "fixtures" / "18xx.games"


def missing() -> str | None:
    """Why the reference cannot run here (a sentence), or None."""
    if shutil.which(os.environ.get("ORACLE_RUBY", "ruby")) is None:
        return "ruby is not installed (Debian: apt-get install ruby)"
    if not (ORACLE / "oracle.rb").is_file() or not (ORACLE / "client.py").is_file():
        return f"the reference engine {ORACLE} is absent (set PBEM_SHARED)"
    return None


def start() -> Any:
    """A running reference (its client's ``Oracle``; use it in ``with``)."""
    if str(ORACLE) not in sys.path:
        sys.path.insert(0, str(ORACLE))
    from client import Oracle  # type: ignore[import-not-found]

    return Oracle()


def engine_version() -> str:
    """The reference's engine commit (its VERSION file), to key cached figures."""
    try:
        return (ORACLE / "engine" / "VERSION").read_text().split()[0]
    except (OSError, IndexError):
        return "unknown"


class _Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


def _libc() -> Any:
    name = ctypes.util.find_library("c")
    return ctypes.CDLL(name, use_errno=True) if name else None


_LIBC = _libc()


def cpu_clock(pid: int) -> Callable[[], float]:
    """A function giving the CPU seconds process ``pid`` has used so far."""
    clock = ctypes.c_int()
    if _LIBC is not None and _LIBC.clock_getcpuclockid(pid, ctypes.byref(clock)) == 0:
        def read() -> float:
            spec = _Timespec()
            if _LIBC.clock_gettime(clock, ctypes.byref(spec)) != 0:
                raise OSError(ctypes.get_errno(), "clock_gettime")
            return spec.tv_sec + spec.tv_nsec / 1e9
        return read
    ticks = os.sysconf("SC_CLK_TCK")

    def from_proc() -> float:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / ticks
    return from_proc


def best_cpu(job: Callable[[], Any], repeat: int, clock: Callable[[], float] = time.process_time,
             before: Callable[[], Any] | None = None) -> tuple[float, Any]:
    """The least CPU seconds ``job`` took in ``repeat`` runs (by ``clock``), and what its
    last run returned.  ``before``: run (not timed) before each run, so that each starts
    as the first did (no cache a run before filled, no snapshot it wrote)."""
    best, result = float("inf"), None
    for _ in range(max(1, repeat)):
        if before is not None:
            before()
        started = clock()
        result = job()
        best = min(best, clock() - started)
    return best, result
