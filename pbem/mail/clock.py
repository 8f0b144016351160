"""The service's clock: ISO 8601 UTC strings, one format everywhere (docs/store.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def later(moment: str, seconds: float) -> str:
    return (datetime.fromisoformat(moment) + timedelta(seconds=seconds)).isoformat(
        timespec="milliseconds")


def seconds_until(moment: str, current: str) -> float:
    return (datetime.fromisoformat(moment) - datetime.fromisoformat(current)).total_seconds()
