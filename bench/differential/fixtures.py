"""The 18xx.games logs of ../shared/fixtures compared action by action: pbem imports a
log (pbem.importer, the site's readings), the oracle takes the same actions in effect,
and before each site action, once pbem has done what the site did by itself, the two
states are compared (view.py).  ``python -m bench.differential --fixtures``."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.engine.state import GameState
from pbem.importer.replay import replay_log
from pbem.importer.sitelog import INERT_TYPES, SiteAction, SiteLog, read_log
from pbem.store import open_store

from .oracle import fixtures_dir, start
from .view import (
    ahead,
    differences,
    oracle_view,
    pbem_view,
    settle,
)


@dataclass
class LogComparison:
    name: str
    actions: int = 0  # site actions in effect sent to both engines
    compared: int = 0
    differing: list[tuple[Any, list[str]]] = field(default_factory=list)  # (action id, diffs)
    refusal: str | None = None  # pbem stopped (the importer's reason)
    site_error: str | None = None  # the oracle refused an action of the log
    seconds: float = 0.0

    @property
    def agrees(self) -> bool:
        return not self.differing and self.refusal is None and self.site_error is None


class Comparer:
    """The ``settled`` hook of the import: feeds the oracle the log's actions up to the
    one pbem is about to take, and compares the two states."""

    def __init__(self, oracle: Any, log: SiteLog, result: LogComparison) -> None:
        self.oracle, self.log, self.result = oracle, log, result
        self.names: dict[str, str] = {}  # site player key -> pbem name (set by the caller)
        self.pending: list[SiteAction] = []  # the log's actions in effect (set by the caller)
        self.sent: set[int] = set()
        self.site_state: dict[str, Any] = {}
        self.start()

    def start(self) -> None:
        players = [{"id": p.key if not p.key.isdigit() else int(p.key), "name": p.name}
                   for p in self.log.players]
        answer = self.oracle.new(self.log.title, players,
                                 optional_rules=self.log.optional_rules)
        self.site_state = answer["state"]
        self.sent = set()

    def __call__(self, site: SiteAction, state: GameState) -> None:
        if site.get("auto") or site.get("type") in INERT_TYPES:
            return
        if site is self.log.actions[0] or (self.sent and id(site) in self.sent):
            self.start()  # the import starts again (a reading taken from the log)
        if self.result.site_error:
            return
        self.feed_until(site)
        self.compare(site, state)

    def feed_until(self, site: SiteAction) -> None:
        """Send the oracle every action in effect before ``site`` not sent yet."""
        for action in self.pending:
            if action is site:
                break
            if id(action) in self.sent:
                continue
            self.sent.add(id(action))
            answer = self.oracle.act(action)
            self.result.actions += 1
            if not answer.get("ok"):
                self.result.site_error = f"action {action.get('id')}: {answer.get('error')}"
                return
            self.site_state = answer["state"]

    def compare(self, site: SiteAction, state: GameState) -> None:
        if state.round.get("pending_par") or self.site_state.get("finished"):
            return
        here = self.site_state["round"]
        if here["kind"] != state.round.get("kind") or (here["kind"] == "operating" and (
                here.get("number") != state.round.get("index"))):
            return  # the importer ends a turn the site ended when the next one acts
        ids = {name: self.key(k) for k, name in self.names.items()}
        ahead_state = ahead(state, self.site_state)
        ours = settle(pbem_view(ahead_state, ids), ahead_state, ids)
        theirs = oracle_view(state, self.site_state)
        found = differences(ours, theirs)
        self.result.compared += 1
        if found:
            self.result.differing.append((site.get("id"), found))

    @staticmethod
    def key(site_key: str) -> Any:
        return int(site_key) if site_key.isdigit() else site_key


def compare_log(oracle: Any, path: Path) -> LogComparison:
    from pbem.importer.replay import player_names
    from pbem.importer.sitelog import effective_actions

    started = time.perf_counter()
    log = read_log(path)
    result = LogComparison(f"{path.parent.name}/{path.name}")
    comparer = Comparer(oracle, log, result)
    comparer.names = player_names(log)
    comparer.pending = effective_actions(log.actions)
    store = open_store(":memory:", now="1970-01-01T00:00:00+00:00")
    try:
        imported = replay_log(store, log, settled=comparer)
    finally:
        store.close()
    if imported.refusal is not None:
        result.refusal = f"action {imported.refusal.site.get('id')}: {imported.refusal.reason}"
    result.seconds = time.perf_counter() - started
    return result


def compare_fixtures(folder: Path | None = None) -> list[LogComparison]:
    folder = folder or fixtures_dir()
    if folder is None:
        return []
    with start() as oracle:
        return [compare_log(oracle, p) for p in sorted(folder.glob("*/*.json"))]


def main(quiet: bool = False) -> int:
    results = compare_fixtures()
    for r in results:
        verdict = "agrees" if r.agrees else "DIFFERS"
        print(f"{verdict:<8} {r.name}: {r.actions} actions, {r.compared} states compared, "
              f"{r.seconds:.1f} s")
        if r.refusal:
            print(f"    pbem stopped at {r.refusal}")
        if r.site_error:
            print(f"    the site refused {r.site_error}")
        for action_id, found in r.differing[:3]:
            print(f"    before action {action_id}: " + "\n      ".join(found[:8]))
        if len(r.differing) > 3:
            print(f"    ... {len(r.differing)} states differ in all")
    print(f"{sum(r.agrees for r in results)}/{len(results)} logs agree with the site after "
          "every action")
    return 0 if all(r.agrees for r in results) else 1
