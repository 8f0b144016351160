"""The round report of a game (``pbem report GAME``, and a section of the archive page):
per round, what the auction sold, each stock round's trades, each operating round's
revenue and dividend per company, the trains bought and rusted, the phase changes, and
at the end the final scores.

It is read from the record by replaying the game's effective events with the engine's
``apply_facts`` and comparing the state before and after each fact (runs and dividends)
and each event (trades, trains, phases), so it says what the rules did, whatever a
player typed.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.game import apply_facts
from ..engine.state import BANK, GameState, player_holder
from .recent import kept_events
from .tables import money

WIDTH = 78


@dataclass(frozen=True)
class Run:
    corp: str
    revenue: int
    dividend: str  # payout, withhold, half; "connection payout" / "connection withhold"


@dataclass(frozen=True)
class TrainBuy:
    corp: str
    train: str
    price: int
    source: str  # the bank, the pool, a corporation


@dataclass
class RoundReport:
    key: str  # auction:1, stock:2, operating:2.1
    title: str  # "Private auction", "Stock round 2", "Operating round 2.1"
    lines: list[str] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)
    trains: list[TrainBuy] = field(default_factory=list)


@dataclass
class Report:
    rounds: list[RoundReport] = field(default_factory=list)
    scores: dict[str, int] = field(default_factory=dict)
    winners: list[str] = field(default_factory=list)
    reason: str = ""
    finished: bool = False

    @property
    def runs(self) -> list[Run]:
        return [run for rnd in self.rounds for run in rnd.runs]

    @property
    def trains(self) -> list[TrainBuy]:
        return [buy for rnd in self.rounds for buy in rnd.trains]


# -- reading the record ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Snapshot:
    cash: dict[str, int]  # holders: players and corporations
    bank: int
    percent: dict[tuple[str, str], int]  # (corp, player) -> percent
    par: dict[str, int | None]
    trains: dict[str, Counter[str]]
    pool: Counter[str]
    scrapped: dict[str, int]
    owners: dict[str, tuple[str, bool]]  # private -> (owner, closed)
    phase: str | None


def _snapshot(state: GameState) -> _Snapshot:
    names = [p.name for p in state.players]
    cash = {player_holder(p.name): p.cash for p in state.players}
    cash.update({f"c:{sym}": c.cash for sym, c in state.corps.items()})
    return _Snapshot(
        cash=cash, bank=state.bank,
        percent={(sym, name): state.percent(sym, player_holder(name))
                 for sym in state.corps for name in names},
        par={sym: c.par for sym, c in state.corps.items()},
        trains={sym: Counter(c.trains) for sym, c in state.corps.items()},
        pool=Counter(state.pool_trains), scrapped=dict(state.trains_scrapped),
        owners={sym: (p.owner, p.closed) for sym, p in state.privates.items()},
        phase=state.phase)


def round_key(state: GameState) -> tuple[str, str]:
    """(key, title) of the round the state is in."""
    rnd = state.round
    kind = rnd.get("kind")
    if kind == "operating":
        number = f"{rnd.get('sr')}.{rnd.get('index')}"
        return f"operating:{number}", f"Operating round {number}"
    if kind == "stock":
        return f"stock:{rnd.get('number')}", f"Stock round {rnd.get('number')}"
    return f"{kind}:{rnd.get('number', 1)}", "Private auction"


def build_report(start: GameState, events: Sequence[Mapping[str, Any]]) -> Report:
    """The report of a game from its first state and its events (all of them: what a
    revert took back is left out; events without facts are passed over)."""
    events = kept_events(events)
    state = start.clone()
    report = Report()
    watch = _Watch(report)
    watch.enter(state)
    for event in events:
        facts = event.get("facts") or []
        if not facts:
            continue
        before = _snapshot(state)
        section = watch.section
        for fact in facts:
            apply_facts(state, [fact])
            watch.after_fact(state)
        _event_lines(section, state, before, _snapshot(state))
        watch.enter(state)
    if state.finished and state.result:
        report.finished = True
        report.scores = dict(state.result.get("scores") or {})
        report.winners = list(state.result.get("winners") or [])
        report.reason = str(state.result.get("reason") or "")
    return report


class _Watch:
    """Follows the rounds and the dividends fact by fact."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.section: RoundReport | None = None
        self.seen: set[tuple[str, str]] = set()  # (round key, corp) with its run reported
        #: an 1870 connection run awaiting its dividend: (corp, revenue, its cash then)
        self.connection: tuple[str, int, int] | None = None

    def enter(self, state: GameState) -> None:
        if state.finished or not state.round:
            return
        key, title = round_key(state)
        if self.section is None or self.section.key != key:
            self.section = RoundReport(key, title)
            self.report.rounds.append(self.section)

    def after_fact(self, state: GameState) -> None:
        self.enter(state)
        rnd = state.round
        if rnd.get("kind") != "operating" or self.section is None:
            return
        turn = rnd.get("turn") or {}
        corp = rnd.get("current")
        if corp and turn.get("dividend") and turn.get("run") is not None:
            self._run(corp, int(turn["run"]["revenue"]), str(turn["dividend"]))
        conn = rnd.get("connection") or {}
        if self.connection is not None and (conn.get("corp") != self.connection[0]
                                            or conn.get("step") != "dividend"):
            corp, revenue, cash = self.connection
            kept = state.corps[corp].cash - cash >= revenue > 0
            self._run(corp, revenue, "connection " + ("withhold" if kept else "payout"),
                      key=f"connection:{corp}")
            self.connection = None
        if conn.get("step") == "dividend" and conn.get("run") and self.connection is None \
                and (self.section.key, f"connection:{conn['corp']}") not in self.seen:
            self.connection = (conn["corp"], int(conn["run"]["revenue"]),
                               state.corps[conn["corp"]].cash)

    def _run(self, corp: str, revenue: int, dividend: str, key: str = "") -> None:
        assert self.section is not None
        mark = (self.section.key, key or corp)
        if mark in self.seen:
            return
        self.seen.add(mark)
        self.section.runs.append(Run(corp, revenue, dividend))
        self.section.lines.append(run_line(Run(corp, revenue, dividend)))


def run_line(run: Run) -> str:
    kind = run.dividend.removeprefix("connection ")
    if kind == "payout":
        how = f"paid out ({money(run.revenue // 10)} a share)"
    elif kind == "half":
        how = "half paid out"
    else:
        how = "withheld"
    what = "'s connection run earns" if run.dividend.startswith("connection") else " runs for"
    if run.revenue == 0:
        return f"{run.corp} runs nothing."
    return f"{run.corp}{what} {money(run.revenue)}, {how}."


def _event_lines(section: RoundReport | None, state: GameState, before: _Snapshot,
                 after: _Snapshot) -> None:
    if section is None:
        return
    bought = _privates(before, after)
    section.lines += bought
    buyers = {line.split(" buys ", 1)[0] for line in bought if " buys " in line}
    section.lines += _shares(before, after, buyers)
    buys = _train_buys(state, before, after)
    section.trains += buys
    section.lines += [f"{b.corp} buys a {b.train}-train from {b.source} for "
                      f"{money(b.price)}." for b in buys]
    section.lines += _rusted(before, after, buys)
    if after.phase != before.phase and after.phase is not None:
        section.lines.append(f"Phase {after.phase} begins.")


def _privates(before: _Snapshot, after: _Snapshot) -> list[str]:
    lines = []
    for sym, (owner, closed) in after.owners.items():
        old_owner, was_closed = before.owners[sym]
        if closed and not was_closed:
            lines.append(f"{sym} closes.")
            continue
        if owner == old_owner:
            continue
        buyer = owner.split(":", 1)[-1]
        paid = before.cash.get(owner, 0) - after.cash.get(owner, 0)
        seller = "" if old_owner == BANK else f" from {old_owner.split(':', 1)[-1]}"
        lines.append(f"{buyer} buys {sym}{seller} for {money(paid)}.")
    return lines


def _shares(before: _Snapshot, after: _Snapshot, buyers: set[str]) -> list[str]:
    """Each player's share changes; ``buyers`` bought a private company in the same event,
    so a share they got with it came free (1830 CA, BO)."""
    lines = []
    movers: dict[str, list[str]] = {}
    for (corp, name), pct in after.percent.items():
        change = pct - before.percent[(corp, name)]
        if change == 0:
            continue
        if before.par[corp] is None and after.par[corp] is not None and change > 0:
            movers.setdefault(name, []).append(f"starts {corp} at {money(after.par[corp])}")
        else:
            verb = ("receives" if name in buyers else "buys") if change > 0 else "sells"
            movers.setdefault(name, []).append(f"{verb} {abs(change)}% of {corp}")
    for name, what in movers.items():
        holder = player_holder(name)
        delta = 0 if name in buyers else after.cash[holder] - before.cash[holder]
        cash = f" ({'+' if delta > 0 else '-'}{money(abs(delta))})" if delta else ""
        lines.append(f"{name} {', '.join(what)}{cash}.")
    return lines


def _train_buys(state: GameState, before: _Snapshot, after: _Snapshot) -> list[TrainBuy]:
    buys: list[TrainBuy] = []
    lost = {sym: before.trains[sym] - after.trains[sym] for sym in before.trains}
    for corp, trains in after.trains.items():
        for train, count in (trains - before.trains[corp]).items():
            for _ in range(count):
                seller = next((s for s, gone in lost.items() if gone[train] and s != corp), None)
                if seller is not None:
                    lost[seller][train] -= 1
                    price = after.cash[f"c:{seller}"] - before.cash[f"c:{seller}"]
                    buys.append(TrainBuy(corp, train, price, seller))
                elif before.pool[train] > after.pool[train]:
                    buys.append(TrainBuy(corp, train, after.bank - before.bank, "the pool"))
                else:
                    buys.append(TrainBuy(corp, train, after.bank - before.bank, "the bank"))
    if len(buys) > 1:  # several at once (rare): the bank's takings shared by list price
        buys = [b if b.source not in ("the bank", "the pool") else
                TrainBuy(b.corp, b.train, state.rules.train(b.train).price, b.source)
                for b in buys]
    return buys


def _rusted(before: _Snapshot, after: _Snapshot, buys: list[TrainBuy]) -> list[str]:
    lines = []
    for train, count in after.scrapped.items():
        gone = count - before.scrapped.get(train, 0)
        if gone <= 0:
            continue
        owners = sorted(sym for sym in before.trains
                        if (before.trains[sym] - after.trains[sym])[train]
                        and not any(b.corp == sym for b in buys if b.train == train))
        where = f" ({', '.join(owners)})" if owners else ""
        lines.append(f"The {train}-trains rust: {gone} removed{where}.")
    return lines


# -- text -----------------------------------------------------------------------------------------


def report_text(report: Report, limit: int | None = None) -> str:
    """The report as text (78 columns); ``limit``: at most that many rounds, the last."""
    rounds = report.rounds if limit is None else report.rounds[-limit:]
    out: list[str] = []
    if limit is not None and len(report.rounds) > limit:
        out.append(f"({len(report.rounds) - limit} earlier rounds left out.)")
        out.append("")
    for rnd in rounds:
        out.append(f"{rnd.title}:")
        for line in rnd.lines or ["(nothing changed hands)"]:
            out += textwrap.wrap(line, WIDTH, initial_indent="  ", subsequent_indent="    ",
                                 break_on_hyphens=False)
        out.append("")
    if report.finished:
        out.append(f"Final scores ({report.reason}):")
        for name, score in sorted(report.scores.items(), key=lambda kv: -kv[1]):
            mark = "  winner" if name in report.winners else ""
            out.append(f"  {name:<16} {money(score):>8}{mark}")
    return "\n".join(out).rstrip() + "\n"
