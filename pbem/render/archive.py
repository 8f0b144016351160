"""The archive page: one self-contained HTML file with a game's whole history.

Every event (command, revert) with who, when, what it changed (the engine's log lines
and the facts); a map that can be stepped to any event; the market and holdings at
that point; the final scores.  States are rebuilt by applying the stored facts event
by event (reverts rebuild from the kept events).  The page embeds, as JSON, each hex's
SVG only when it changes and each distinct holdings panel once; a small inline script
puts a step together.  No network access: no external scripts, styles or fonts.
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from pbem.engine.game import apply_facts
from pbem.engine.state import GameState
from pbem.safe_text import visible

from . import html
from .archive_assets import PAGE_SCRIPT, PAGE_STYLE
from .market_text import market_text
from .prompt import waiting_line
from .recent import is_public
from .report import build_report, report_text
from .stateinfo import state_board_view, worth
from .svg import Layout, hex_fragment, rulers
from .tables import headline, money, tables_text


@dataclass
class Step:
    """One point of the history: the start (seq 0) or the state after an event."""

    seq: int
    kind: str
    actor: str
    when: str
    text: str
    log: list[str]
    facts: list[dict[str, Any]]
    panel: int = 0
    hexes: list[tuple[str, int]] = field(default_factory=list)
    undone: bool = False


class Builder:
    """Collects the steps, deduplicating hex drawings and panels."""

    def __init__(self, start: GameState) -> None:
        views = state_board_view(start)
        self.layout = Layout.of(list(views))
        self.fragments: list[str] = []
        self.fragment_ids: dict[str, int] = {}
        self.panels: list[str] = []
        self.panel_ids: dict[str, int] = {}
        self.current: dict[str, int] = {}
        self.steps: list[Step] = []

    def intern(self, table: list[str], index: dict[str, int], item: str) -> int:
        if item not in index:
            index[item] = len(table)
            table.append(item)
        return index[item]

    def add(self, step: Step, state: GameState) -> None:
        for coord, view in state_board_view(state).items():
            frag = self.intern(self.fragments, self.fragment_ids, hex_fragment(view, self.layout))
            if self.current.get(coord) != frag:
                self.current[coord] = frag
                step.hexes.append((coord, frag))
        step.panel = self.intern(self.panels, self.panel_ids, panel_html(state))
        self.steps.append(step)


def panel_html(state: GameState) -> str:
    symbols = list(state.rules.corporations)
    text = waiting_line(state) + "\n\n" + tables_text(state) + "\n\n" + market_text(state)
    return html.colour_symbols(text, symbols)


def replay(start: GameState, events: Sequence[Mapping[str, Any]],
           private: bool = False) -> tuple[Builder, GameState]:
    """Every event in order; a revert to N goes back to the state after the last kept
    event with seq <= N (as the store's rebuild does). Events not every player saw
    (private talk, standing orders, settings) are steps only when ``private``."""
    builder = Builder(start)
    builder.add(Step(0, "start", "", "", "The game begins.", [], []), start)
    state = start.clone()
    kept: list[tuple[int, GameState]] = []
    for event in events:
        if event["kind"] == "revert":
            target = event["revert_to"]
            kept = [(seq, s) for seq, s in kept if seq <= target]
            state = kept[-1][1].clone() if kept else start.clone()
        else:
            apply_facts(state, event["facts"])
            kept.append((event["seq"], state.clone()))
        if not (private or is_public(event)):
            continue
        builder.add(Step(event["seq"], event["kind"], visible(event.get("actor") or "-"),
                         visible(event.get("received") or ""), visible(event.get("text") or ""),
                         [visible(line) for line in event.get("log") or []],
                         list(event.get("facts") or [])), state)
    effective = {seq for seq, _ in kept}
    for step in builder.steps:
        step.undone = step.kind == "command" and step.seq not in effective
    return builder, state


# -- the page -----------------------------------------------------------------------------------


def scores_html(state: GameState) -> str:
    result = state.result or {}
    scores: Mapping[str, int] = result.get("scores") or {
        p.name: worth(state, p.name) for p in state.players}
    rows = "".join(f"<tr><td>{escape(name)}</td><td class=num>{money(value)}</td></tr>"
                   for name, value in sorted(scores.items(), key=lambda kv: -kv[1]))
    if state.finished:
        winners = ", ".join(result.get("winners") or [])
        why = result.get("reason") or "the end"
        head = f"Final scores (game over: {escape(str(why))}; winner {escape(winners)})"
    else:
        head = "The game is not finished; what each player is worth now"
    return f'<h2>{head}</h2><table class="scores">{rows}</table>'


def history_html(steps: list[Step]) -> str:
    rows = []
    for i, step in enumerate(steps):
        log = "<br>".join(escape(line) for line in step.log)
        facts = "\n".join(json.dumps(f, sort_keys=True) for f in step.facts)
        details = (f"<details><summary>{len(step.facts)} facts</summary><pre>"
                   f"{escape(facts)}</pre></details>") if step.facts else ""
        cls = "undone" if step.undone else step.kind
        note = " <em>(undone later)</em>" if step.undone else ""
        rows.append(f'<tr class="{cls}" data-step="{i}" id="row-{i}"><td class=num>{step.seq}'
                    f"</td><td>{escape(step.when)}</td><td>{escape(step.actor)}</td>"
                    f"<td><code>{escape(step.text)}</code>{note}</td><td>{log}{details}</td>"
                    "</tr>")
    return ('<table class="history"><thead><tr><th>#</th><th>When</th><th>Who</th>'
            "<th>Command</th><th>What it changed</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def data_blob(builder: Builder) -> str:
    """The steps, hex drawings and panels as gzip-compressed JSON in base64 (a whole game's
    panels are megabytes of very repetitive text; the page unpacks them itself)."""
    data = {
        "fragments": builder.fragments,
        "panels": builder.panels,
        "steps": [{"seq": s.seq, "text": s.text, "actor": s.actor, "when": s.when,
                   "panel": s.panel, "hexes": s.hexes} for s in builder.steps],
    }
    raw = json.dumps(data, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, mtime=0)).decode("ascii")


def archive_page(start: GameState, events: Sequence[Mapping[str, Any]],
                 game: Mapping[str, Any], players: Sequence[Mapping[str, Any]],
                 private: bool = False) -> str:
    """The whole page.  ``start``: the state before the first event; ``events``: every
    stored event in seq order (reverts included); ``game``/``players``: the store's
    records (no secrets needed); ``private``: the referee's copy, with private talk,
    standing orders and settings (left out of the page players may share)."""
    builder, final = replay(start, events, private)
    layout = builder.layout
    title = f"{start.title} game #{game.get('id', '?')}"
    names = ", ".join(escape(str(p.get("name"))) for p in players)
    options = ", ".join(f"{escape(k)}={escape(str(v))}" for k, v in
                        sorted((game.get("options") or {}).items()))
    svg = (f'<svg id="map" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 '
           f'{layout.width:.0f} {layout.height:.0f}" width="{layout.width:.0f}" '
           f'height="{layout.height:.0f}"><rect width="100%" height="100%" fill="#fbf8f0"/>'
           f'{rulers(layout)}<g id="hexes"></g></svg>')
    # what players wrote (talk, names) shows its control characters as pictures
    return visible(f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{PAGE_STYLE}</style></head>
<body>
<h1>{escape(title)}</h1>
<p class="meta">Players (seat order): {names}. Options: {options or "none"}.
{len(events)} events; now: {escape(headline(final))}.</p>
{scores_html(final)}
<h2>Round by round</h2>
<pre class="report">{escape(report_text(build_report(start, events)))}</pre>
<h2>Step through the game</h2>
<div id="controls">
<button id="first" title="the start">|&#x25C0;</button>
<button id="prev" title="previous event (left arrow)">&#x25C0;</button>
<input id="slider" type="range" min="0" max="{len(builder.steps) - 1}" value="0">
<button id="next" title="next event (right arrow)">&#x25B6;</button>
<button id="last" title="the last event">&#x25B6;|</button>
<span id="where"></span>
</div>
<p id="command"></p>
<div id="view"><div id="board">{svg}</div><pre id="panel"></pre></div>
<h2>History</h2>
<p class="meta">Click a row to show the game after that event.</p>
{history_html(builder.steps)}
<script id="data" type="application/octet-stream">{data_blob(builder)}</script>
<script>{PAGE_SCRIPT}</script>
</body></html>
""")
