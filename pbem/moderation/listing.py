"""The games and where each stands: ``pbem games`` and ``list`` by mail."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .. import service
from ..engine.game import to_act
from ..render.tables import round_name
from ..store import Store
from .clock import schedule_of
from .timecalc import parse_moment, show_moment

WIDTH = 78


@dataclass(frozen=True)
class GameLine:
    id: int
    title: str
    status: str  # active, paused, finished
    players: list[str]
    round: str
    waiting: list[str]
    since: datetime | None  # when the game began to wait for them
    deadline: datetime | None  # the earliest running deadline
    late: list[str]
    referee: str | None


def game_line(store: Store, game: dict[str, Any]) -> GameLine:
    """Where one game stands (it is rebuilt from its record)."""
    game_id = int(game["id"])
    state = service.load(store, game_id)
    schedule = schedule_of(store, game_id)
    waiting = to_act(state)
    starts = [d.start for d in schedule.decisions.values() if d.player in waiting]
    dues = [d.due for d in schedule.decisions.values()
            if d.player in waiting and d.due is not None and not schedule.is_expired(d)]
    since = min(starts) if starts else _last_move(store, game_id)
    players = [p["name"] + (f" ({p['person']})" if p["person"] else "")
               for p in store.players(game_id)]
    return GameLine(game_id, game["title"], game["status"], players,
                    "over" if state.finished else round_name(state), waiting, since,
                    min(dues) if dues else None, [d.player for d in schedule.late()],
                    game.get("referee"))


def _last_move(store: Store, game_id: int) -> datetime | None:
    commands = [e for e in store.effective_events(game_id) if e["kind"] == "command"]
    return parse_moment(commands[-1]["received"]) if commands else None


def all_games(store: Store, statuses: tuple[str, ...] = ()) -> list[GameLine]:
    rows = store.games_list(statuses)
    for row in rows:
        if isinstance(row["options"], str):
            row["options"] = json.loads(row["options"])
    return [game_line(store, row) for row in rows]


def table(lines: Iterable[GameLine]) -> str:
    """``pbem games``: one block per game (it fits 100 columns)."""
    out = []
    for line in lines:
        state = "paused" if line.status == "paused" else \
            "over" if line.status == "finished" else ""
        waiting = ", ".join(line.waiting) or "nobody"
        since = f" since {show_moment(line.since)}" if line.since else ""
        head = f"#{line.id:<4} {line.title}  {line.round}" + (f"  [{state}]" if state else "")
        out.append(head)
        out.append(f"      players: {', '.join(line.players)}")
        if line.status != "finished":
            out.append(f"      to act: {waiting}{since}")
            if line.deadline is not None:
                out.append(f"      deadline: {show_moment(line.deadline)}")
            if line.late:
                out.append(f"      late: {', '.join(line.late)}")
    return "\n".join(out) + ("\n" if out else "")


def games_of_address(store: Store, email: str) -> list[tuple[GameLine, str]]:
    """The games an address plays (as which seat) or referees, with their state."""
    found: dict[int, list[str]] = {}
    for row in store.players_by_email(email):
        found.setdefault(int(row["game_id"]), []).append(f"you play {row['name']}")
    for row in store.refereed_by(email):
        found.setdefault(int(row["id"]), []).append("you referee it")
    out = []
    for game_id in sorted(found):
        out.append((game_line(store, store.game(game_id)), "; ".join(found[game_id])))
    return out


def mail_listing(store: Store, email: str, tz: str | None = None) -> str:
    """The answer to ``list``: the sender's games, newest first."""
    games = games_of_address(store, email)
    if not games:
        return f"{email} plays in no game here."
    lines = [f"Your games ({email}):"]
    for line, role in reversed(games):
        state = " (paused)" if line.status == "paused" else ""
        if line.status == "finished":
            lines.append(f"  #{line.id} {line.title}: over; {role}.")
            continue
        lines.append(f"  #{line.id} {line.title}, {line.round}{state}; {role}.")
        waiting = ", ".join(line.waiting) or "nobody"
        lines.append(f"      to act: {waiting}" + (
            f" since {show_moment(line.since, tz)}" if line.since else ""))
        if line.deadline is not None:
            lines.append(f"      deadline: {show_moment(line.deadline, tz)}")
        if line.late:
            lines.append(f"      late: {', '.join(line.late)}")
    lines += textwrap.wrap('Write to a game by answering one of its mails; its subject '
                           'carries the tag, like [1830 #12].', WIDTH)
    return "\n".join(line for text in lines for line in
                     textwrap.wrap(text, WIDTH, subsequent_indent="        ",
                                   break_on_hyphens=False) or [""])
