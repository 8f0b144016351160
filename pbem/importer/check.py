"""Comparing an imported game with the log's recorded outcome, and describing the place
where an import stopped."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..engine.ending import worth
from ..engine.state import GameState
from .replay import Imported, Refusal
from .sitelog import SiteLog

#: pbem's end reasons -> the site's ``game_end_reason``
SITE_REASONS = {"bank": "bank", "bankruptcy": "bankrupt", "manual": "manually_ended",
                "stock_market": "stock_market"}


@dataclass
class Outcome:
    """pbem's final scores by site player key, its end reason, and how they compare."""

    scores: dict[str, int]
    reason: str | None
    expected: dict[str, int]
    expected_reason: str | None
    finished: bool
    problems: list[str] = field(default_factory=list)

    @property
    def matches(self) -> bool:
        return not self.problems


def outcome(log: SiteLog, imported: Imported) -> Outcome:
    state = imported.state
    result = state.result or {}
    by_name = result.get("scores") or {n: worth(state, n) for n in state.names}
    scores = {key: by_name[name] for key, name in imported.names.items()}
    reason = SITE_REASONS.get(result.get("reason", ""), result.get("reason"))
    found = Outcome(scores, reason, log.result_by_key(), log.end_reason, state.finished)
    if imported.refusal is not None:
        found.problems.append(f"stopped at action {imported.refusal.site.get('id')}: "
                              f"{imported.refusal.reason}")
    if not state.finished:
        found.problems.append("the game is not over after the log's last action")
    for key, expected in found.expected.items():
        if scores.get(key) != expected:
            found.problems.append(f"{name_of(log, key)} scores {scores.get(key)}, the site "
                                  f"{expected}")
    if log.end_reason is not None and reason != log.end_reason:
        found.problems.append(f"the game ends by {reason}, on the site by {log.end_reason}")
    return found


def name_of(log: SiteLog, key: str) -> str:
    return next((p.name for p in log.players if p.key == key), key)


def score_lines(log: SiteLog, imported: Imported) -> list[str]:
    found = outcome(log, imported)
    lines = []
    for player in log.players:
        name = imported.names[player.key]
        lines.append(f"{name:<16} {found.scores.get(player.key, 0):>7}"
                     + (f"   (site: {found.expected[player.key]})"
                        if player.key in found.expected else ""))
    ending = found.reason if found.finished else "not over"
    lines.append(f"end: {ending}" + (f"   (site: {found.expected_reason})"
                                     if found.expected_reason else ""))
    return lines


# -- a refusal, for people ------------------------------------------------------------------------


def describe_refusal(refusal: Refusal) -> list[str]:
    site = refusal.site
    where = site.get("id") or f"(an auto action of {site.get('parent')})"
    lines = [f"Refused at action {where}:",
             "  " + json.dumps({k: v for k, v in site.items() if k != "auto_actions"})[:400]]
    if refusal.text:
        lines.append(f"  pbem command: {refusal.text}")
    lines.append(f"  {refusal.reason}")
    lines.append("Before it:")
    for applied in refusal.recent[:-1]:
        texts = "; ".join(f"{c.actor}: {t}" + (" (implicit)" if c.why else "")
                          for c, t in applied.commands) or "(nothing)"
        lines.append(f"  {applied.site.get('id') or '(auto)'} {applied.site.get('type')} "
                     f"{applied.site.get('entity')} -> {texts}")
    lines += ["State:"] + ["  " + line for line in state_lines(refusal.state)]
    return lines


def state_lines(state: GameState) -> list[str]:
    rnd = state.round
    where = {"auction": "private auction", "stock": f"stock round {rnd.get('number')}",
             "operating": f"operating round {rnd.get('sr')}.{rnd.get('index')}"}.get(
        rnd.get("kind", ""), str(rnd.get("kind")))
    lines = [f"{where}; phase {state.phase}; bank ${state.bank}; priority {state.priority}"]
    if rnd.get("kind") == "operating":
        turn = rnd.get("turn", {})
        lines.append(f"operating: {rnd.get('current')} (step {turn.get('step')}); done: "
                     f"{', '.join(rnd.get('operated', [])) or 'none'}")
    elif rnd.get("current"):
        lines.append(f"to act: {rnd.get('current')}")
    for p in state.players:
        held = ", ".join(f"{c} {state.percent(c, 'p:' + p.name)}%" for c in state.corps
                         if state.percent(c, "p:" + p.name))
        privates = ", ".join(state.privates_of("p:" + p.name))
        lines.append(f"{p.name}: ${p.cash}; {held or 'no shares'}"
                     + (f"; {privates}" if privates else ""))
    for sym, c in state.corps.items():
        if c.par is not None:
            lines.append(f"{sym}: ${c.cash}, price ${state.price(sym)}, trains "
                         f"{', '.join(c.trains) or 'none'}, pool {c.certs.count('pool')}")
    return lines
