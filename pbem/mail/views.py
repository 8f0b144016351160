"""What a mail shows of a game: the one place where mail asks the renderers.

``game_view(state, viewer)`` is the only function mail code calls to render a
game; swapping in the richer board, market and prompt renderings of
``pbem.render`` is a change here alone.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine.game import legal_moves, to_act
from ..engine.state import GameState
from ..notation import format_action
from ..render import view as render_view

log = logging.getLogger("pbem.mail.views")


@dataclass(frozen=True)
class GameView:
    """Rendered pieces of one game for one viewer (text; the HTML is made from it)."""

    round: str
    board: str  # map, tables: lines of up to 100 columns
    market: str
    prompt: str  # the viewer's legal commands with examples ("" when none)
    waiting: list[str]


def game_view(state: GameState, viewer: str | None = None) -> GameView:
    return GameView(
        round=round_name(state),
        board=_safely(lambda: render_view.text_tables(state, viewer), "the tables"),
        market=_safely(lambda: render_view.market_text(state), "the stock market"),
        prompt=prompt_text(state, viewer) if viewer else "",
        waiting=to_act(state),
    )


def _safely(render: Callable[[], str], what: str) -> str:
    """A rendering bug must not stop the game: the mail says what is missing."""
    try:
        return render()
    except Exception as exc:  # noqa: BLE001
        log.exception("rendering %s failed", what)
        return f"({what} could not be drawn: {type(exc).__name__}; the referee is told)"


def round_name(state: GameState) -> str:
    rnd = state.round
    kind = rnd.get("kind")
    if state.finished:
        return "game over"
    if kind == "auction":
        return "private auction"
    if kind == "stock":
        return f"stock round {rnd.get('number')}"
    if kind == "operating":
        return f"operating round {rnd.get('sr')}.{rnd.get('index')} of {rnd.get('of')}"
    return str(kind)


def situation(state: GameState) -> str:
    """Where the game stands, for a subject: ``SR 1: Alice to act``,
    ``OR 2.1: B&O to move (Alice)``, ``Private auction: Bob to act``, ``Game over``."""
    rnd = state.round
    waiting = to_act(state)
    who = " and ".join(waiting) if waiting else "nobody"
    if state.finished:
        return "Game over"
    kind = rnd.get("kind")
    if kind == "operating":
        corp = rnd.get("current")
        head = f"OR {rnd.get('sr')}.{rnd.get('index')}"
        if corp:
            return f"{head}: {corp} to move ({who})"
        return f"{head}: {who} to act"
    if kind == "stock":
        return f"SR {rnd.get('number')}: {who} to act"
    if kind == "auction":
        return f"Private auction: {who} to act"
    return f"{round_name(state)}: {who} to act"


def round_key(state: GameState) -> str:
    """Changes exactly when a new round starts (digests are sent then)."""
    rnd = state.round
    if state.finished:
        return "over"
    return f"{rnd.get('kind')}:{rnd.get('number', rnd.get('sr'))}.{rnd.get('index', 0)}"


def thread_key(state: GameState) -> str:
    """One mail thread per stock round and the operating rounds after it."""
    rnd = state.round
    if rnd.get("kind") == "stock":
        return f"sr{rnd.get('number')}"
    if rnd.get("kind") == "operating":
        return f"sr{rnd.get('sr')}"
    return "sr0"


# -- the prompt ----------------------------------------------------------------------------------


def legal_commands(state: GameState, viewer: str) -> list[tuple[str, str]]:
    """(example command, note) for each legal move of ``viewer``; numbers that may vary
    (several par prices, say) are folded into one line."""
    lines: list[tuple[str, str]] = []
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    order: list[tuple[Any, ...]] = []
    for move in legal_moves(state).get(viewer, []):
        key = _group_key(move["action"])
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(move)
    for key in order:
        moves = groups[key]
        try:
            text = format_action(moves[0]["action"])
        except Exception:  # a move the notation cannot print is not offered
            continue
        lines.append((text, _note(moves)))
    return lines


def _group_key(action: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(sorted((k, repr(v)) for k, v in action.items() if not isinstance(v, int)))


def _note(moves: list[dict[str, Any]]) -> str:
    first = moves[0]
    action = first["action"]
    if len(moves) > 1:
        values = [_the_number(m["action"]) for m in moves]
        shown = [str(v) for v in values if v is not None]
        if shown:
            return "or " + ", ".join(shown[1:]) if len(shown) > 1 else ""
    if "min" in first and "max" in first:
        what = "shares" if action.get("type") in ("sell", "buy_share") else "$"
        if what == "$":
            return f"from ${first['min']} to ${first['max']}"
        return f"{first['min']} to {first['max']} {what}"
    if "price" in first:
        return f"for ${first['price']}"
    return ""


def _the_number(action: dict[str, Any]) -> int | None:
    numbers = [v for v in action.values() if isinstance(v, int) and not isinstance(v, bool)]
    return numbers[0] if len(numbers) == 1 else None


def prompt_text(state: GameState, viewer: str) -> str:
    """The legal commands of ``viewer`` as an indented list, ready to copy."""
    commands = legal_commands(state, viewer)
    if not commands:
        return ""
    width = min(max(len(text) for text, _ in commands) + 2, 36)
    lines = []
    for text, note in commands:
        lines.append(f"    {text:<{width}}{note}".rstrip() if note else f"    {text}")
    return "\n".join(lines)
