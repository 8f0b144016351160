"""Many games in both engines: workers (one oracle process each) play the games of a
seed range and report each game's outcome; the first divergence of a game is saved as
a reproduction (repro.py).  ``python -m bench.differential --help``."""

from __future__ import annotations

import json
import multiprocessing
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .duel import Duel, Outcome
from .oracle import start
from .players import new_player
from .setups import setup_for


@dataclass
class Job:
    title: str
    seed: int
    probing: float
    limit: int


@dataclass
class Result:
    """What a worker sends back for one game (plain data, picklable)."""

    label: str
    title: str
    seed: int
    commands: int = 0
    site_actions: int = 0
    compared: int = 0
    probes: int = 0
    finished: bool = False
    reason: str | None = None
    phase: str | None = None
    seconds: float = 0.0
    oracle_seconds: float = 0.0
    seen: dict[str, int] = field(default_factory=dict)
    divergence: str | None = None
    kind: str | None = None
    document: dict[str, Any] | None = None  # the site actions up to the divergence
    error: str | None = None


def result_of(out: Outcome, duel: Duel) -> Result:
    res = Result(out.setup.label(), out.setup.title, out.setup.seed, out.commands,
                 out.site_actions, out.compared, out.probes, out.finished, out.reason,
                 out.phase, out.seconds, out.oracle_seconds, dict(out.seen))
    if out.divergence is not None:
        res.divergence = out.divergence.summary()
        res.kind = out.divergence.kind
        res.document = duel.document()
        res.document["divergence"] = {"kind": out.divergence.kind,
                                      "command": out.divergence.command,
                                      "detail": out.divergence.detail[:40],
                                      "setup": out.setup.label(),
                                      "options": out.setup.options}
    return res


_ORACLE: Any = None


def _play(job: Job) -> Result:
    global _ORACLE
    if _ORACLE is None:
        _ORACLE = start()
    setup = setup_for(job.title, job.seed)
    started = time.perf_counter()
    try:
        duel = Duel(_ORACLE, setup, new_player(job.probing))
        out = duel.play(job.limit)
        return result_of(out, duel)
    except Exception as exc:  # noqa: BLE001 - a crash is a finding, reported with the game
        try:
            _ORACLE.close()
        except Exception:  # noqa: BLE001
            pass
        _ORACLE = None
        return Result(setup.label(), job.title, job.seed,
                      seconds=time.perf_counter() - started,
                      error=f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=8)}")


def play_games(jobs: list[Job], workers: int) -> Iterator[Result]:
    """Each job's result, as the games finish."""
    if workers <= 1:
        for job in jobs:
            yield _play(job)
        return
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(workers, maxtasksperchild=50) as pool:
        yield from pool.imap_unordered(_play, jobs)


def save(result: Result, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{result.title}-{result.seed}.json"
    path.write_text(json.dumps(result.document, indent=1) + "\n", encoding="utf-8")
    return path
