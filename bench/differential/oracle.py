"""Finding and starting the reference engine (../shared/oracle, or $PBEM_SHARED/oracle):
the 18xx.games rules engine behind a JSON-lines server, with its Python client.  It is
run from where it lies, never copied into the project."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def oracle_dir() -> Path | None:
    """The oracle's folder, or None when this machine has none."""
    candidates = []
    if os.environ.get("PBEM_SHARED"):
        candidates.append(Path(os.environ["PBEM_SHARED"]) / "oracle")
    candidates.append(ROOT.parent / "shared" / "oracle")
    for folder in candidates:
        if (folder / "oracle.rb").is_file() and (folder / "client.py").is_file():
            return folder
    return None


def fixtures_dir() -> Path | None:
    """The folder of 18xx.games logs next to the oracle, if any."""
    folder = oracle_dir()
    if folder is None:
        return None
    logs = folder.parent / "fixtures" / "18xx.games"
    return logs if logs.is_dir() else None


def missing() -> str | None:
    """Why the oracle cannot run here (a sentence), or None."""
    if shutil.which(os.environ.get("ORACLE_RUBY", "ruby")) is None:
        return "ruby is not installed (Debian: apt-get install ruby)"
    if oracle_dir() is None:
        return "the reference engine ../shared/oracle is absent (or set PBEM_SHARED)"
    return None


def start() -> Any:
    """A running oracle (its client's Oracle object; close() it, or use ``with``)."""
    folder = oracle_dir()
    if folder is None:
        raise RuntimeError(missing() or "no oracle")
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    from client import Oracle  # type: ignore[import-not-found]

    return Oracle()
