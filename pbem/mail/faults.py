"""Named points where a test can make the real service die (fault injection).

``PBEM_FAULT=after-commit`` makes the process kill itself with SIGKILL the first
time it passes that point; ``PBEM_FAULT=after-commit:3`` the third time. The
points: ``after-fetch`` (a message fetched, not yet stored), ``after-store``
(stored raw, not yet processed), ``after-commit`` (processed and committed, not
yet flagged on the server), ``during-send`` (accepted by SMTP, not yet marked
sent: in the sending process, which takes the service's process with it, since the
fault stands for the service's crash). Unset, this costs one dictionary look-up.
"""

from __future__ import annotations

import os
import signal
from collections import Counter

POINTS = ("after-fetch", "after-store", "after-commit", "during-send")
_passed: Counter[str] = Counter()
#: processes killed before this one at a fault (the sending process's service)
_with: list[int] = []


def dies_with(pid: int) -> None:
    """At a fault, kill process ``pid`` too, first."""
    _with.append(pid)


def fault(point: str) -> None:
    spec = os.environ.get("PBEM_FAULT")
    if not spec:
        return
    name, _, count = spec.partition(":")
    if name != point:
        return
    _passed[point] += 1
    if _passed[point] >= int(count or 1):
        for pid in _with:
            os.kill(pid, signal.SIGKILL)
        os.kill(os.getpid(), signal.SIGKILL)
