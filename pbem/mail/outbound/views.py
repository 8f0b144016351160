"""What a mail shows of a game: the one place where mail asks the renderers.

``game_view(state, viewer)`` is the only function mail code calls to render a
game. It uses the renderings of ``pbem.render``: the compact prompt with
ready-to-copy examples and the numbers that matter, the holdings (with the
game's ``visibility`` option applied for the viewer), the stock market, and the
text map with its legend and hex listing. Text lines stay within 78 columns
except the map drawing (up to 100).

The map also goes into the mail as a picture: ``game_view`` remembers the text map
it drew together with its SVG, and ``map_image(text)`` finds the map a finished
mail text shows and returns its picture (PNG where a rasteriser is installed,
else SVG) for ``compose.build`` to attach inline.
"""

from __future__ import annotations

import logging
import textwrap
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ...engine.game import legal_moves, to_act
from ...engine.state import GameState
from ...lastused import LastUsed
from ...moderation.describe import DeadlineView
from ...render import market_text as render_market
from ...render import tables_text
from ...render.board_text import board_parts
from ...render.hexview import HexView
from ...render.png import MAIL_COLOURS
from ...render.prompt import context_lines, offer_lines, offers
from ...render.raster import forget as forget_drawings
from ...render.raster import picture as map_picture
from ...render.recent import is_service_event, quiet, visible_to
from ...render.stateinfo import OPEN, state_board_view, visibility
from ...render.svg import Layout, MapParts, state_map_parts
from ...render.tables import round_name
from ...store import Store

log = logging.getLogger("pbem.mail.outbound.views")

WIDTH = 78


@dataclass(frozen=True)
class GameView:
    """Rendered pieces of one game for one viewer (text; the HTML is made from it)."""

    round: str
    board: str  # the holdings: headline, players, corporations, bank, privates
    market: str  # the stock market, then the map (drawing <= 100 columns, legend, hexes)
    prompt: str  # the viewer's legal commands with examples ("" when none)
    waiting: list[str]


class StateViews:
    """The renderings of one game state, made once for all its recipients: the map and
    the market do not depend on the viewer; the holdings and the prompt do.
    ``deadlines``: the game's clock at that moment, which every mail states."""

    def __init__(self, state: GameState, deadlines: DeadlineView | None = None) -> None:
        self.state = state
        self.deadlines = deadlines
        self._tables: dict[str | None, str] = {}

    @cached_property
    def waiting(self) -> list[str]:
        return to_act(self.state)

    @cached_property
    def moves(self) -> dict[str, list[dict[str, Any]]]:
        """The legal moves of every player (listed once for all the prompts)."""
        return legal_moves(self.state)

    @cached_property
    def round(self) -> str:
        return round_name(self.state)

    @cached_property
    def situation(self) -> str:
        return situation(self.state, self.waiting)

    @cached_property
    def map_and_market(self) -> str:
        drawing = _safely(lambda: _map_text(self.state), "the map")
        market = _safely(lambda: _market(self.state), "the stock market")
        return f"{market}\n\n{drawing}"

    def tables(self, viewer: str | None) -> str:
        """The holdings as ``viewer`` sees them: drawn once for everyone when the game
        hides nothing (the tables depend on the viewer only through what is hidden)."""
        key = None if visibility(self.state) == OPEN else viewer
        if key not in self._tables:
            self._tables[key] = _safely(lambda: tables_text(self.state, key), "the tables")
        return self._tables[key]

    def view(self, viewer: str | None = None, recent: Sequence[str] = ()) -> GameView:
        """The game as ``viewer`` may see it (None: the referee, nothing hidden).

        ``recent``: lines of what happened since the viewer's last turn, shown under the
        prompt as "Since your last turn:".
        """
        state = self.state
        return GameView(
            round=self.round,
            board=self.tables(viewer),
            market=self.map_and_market,
            prompt=_safely(lambda: prompt_text(state, viewer, recent,
                                               self.moves.get(viewer, [])), "the commands")
            if viewer else "",
            waiting=list(self.waiting),
        )


def game_view(state: GameState, viewer: str | None = None,
              recent: Sequence[str] = ()) -> GameView:
    """The game as ``viewer`` may see it (see ``StateViews.view``)."""
    return StateViews(state).view(viewer, recent)


def _safely(render: Callable[[], str], what: str) -> str:
    """A rendering bug must not stop the game: the mail says what is missing."""
    try:
        return render()
    except Exception as exc:  # noqa: BLE001
        log.exception("rendering %s failed", what)
        return f"({what} could not be drawn: {type(exc).__name__}; the referee is told)"


def _market(state: GameState) -> str:
    """The market without its own heading (the mails have "Stock market:")."""
    text = render_market(state)
    head, _, rest = text.partition("\n")
    return rest.lstrip("\n") if head.strip() == "STOCK MARKET" else text


def _map_text(state: GameState) -> str:
    hexes = state_board_view(state)  # for the text and the picture
    drawing, rest = board_parts(state, hexes)
    text = drawing + "\n\n" + rest
    _remember(text, state, hexes)
    return text


def situation(state: GameState, waiting: Sequence[str] | None = None) -> str:
    """Where the game stands, for a subject: ``SR 1: Alice to act``,
    ``OR 2.1: B&O to move (Alice)``, ``Private auction: Bob to act``, ``Game over``.
    ``waiting``: who must act, when the caller knows it already."""
    rnd = state.round
    waiting = to_act(state) if waiting is None else waiting
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


def thread_key(state: GameState) -> str:
    """One mail thread per stock round and the operating rounds after it."""
    rnd = state.round
    if rnd.get("kind") == "stock":
        return f"sr{rnd.get('number')}"
    if rnd.get("kind") == "operating":
        return f"sr{rnd.get('sr')}"
    return "sr0"


def history_text(store: Store, game_id: int, count: int, viewer: str | None = None) -> str:
    """The last ``count`` events ``viewer`` may see (None: the referee, all), commands
    taken back marked "(undone)" (talk, orders, settings and the running of the game are
    never taken back; the clock's bookkeeping is left out)."""
    events = [e for e in store.events(game_id) if visible_to(e, viewer) and not quiet(e)]
    kept = {e["seq"] for e in store.effective_events(game_id)}
    lines = [f"The last {min(count, len(events))} of {len(events)} events:"]
    for event in events[-max(count, 1):]:
        lines.append(history_line(event, kept))
    return "\n".join(lines)


def history_range(store: Store, game_id: int, first: int, last: int,
                  viewer: str | None = None) -> str:
    """Events ``first`` to ``last`` that ``viewer`` may see (``history 120-180``)."""
    events = store.events(game_id)
    kept = {e["seq"] for e in store.effective_events(game_id)}
    chosen = [e for e in events if first <= e["seq"] <= last and not quiet(e)
              and visible_to(e, viewer)]
    if not chosen:
        return (f"The game has events 1 to {len(events)}; there is none from {first} to "
                f"{last}.")
    lines = [f"Events {chosen[0]['seq']} to {chosen[-1]['seq']} of {len(events)}:"]
    lines += [history_line(event, kept) for event in chosen]
    return "\n".join(lines)


def history_line(event: dict[str, Any], kept: set[int]) -> str:
    """``[12] Ann: buy SV``; a command taken back is marked ``(undone)``."""
    undone = event["seq"] not in kept and event["kind"] != "revert" \
        and not is_service_event(event)
    mark = " (undone)" if undone else ""
    return f"[{event['seq']}] {event['actor'] or '-'}: {event['text']}{mark}"


# -- the prompt ----------------------------------------------------------------------------------


def prompt_text(state: GameState, viewer: str, recent: Sequence[str] = (),
                moves: Sequence[dict[str, Any]] | None = None) -> str:
    """The legal commands of ``viewer``, one line per kind with a ready-to-copy example
    and the numbers that matter (pbem.render.prompt), the viewer's cash (and his
    corporation's, when he runs it), then what happened since his last turn.
    ``moves``: his legal moves, when the caller has listed them."""
    found = offers(state, viewer, moves)
    if not found:
        return ""
    lines = offer_lines(found) + context_lines(state, viewer)
    if recent:
        lines += ["", "Since your last turn:"]
        for line in recent:
            lines += textwrap.wrap(line, WIDTH, initial_indent="  ", subsequent_indent="    ",
                                   break_on_hyphens=False) or [""]
    return "\n".join(lines)


# -- the map as a picture --------------------------------------------------------------------------


#: A picture of the map is at most this many bytes; a mail that shows the game, at most
#: MAIL_LIMIT (the picture is made smaller, down to ZOOMS[-1], to fit; else left out).
MAP_IMAGE_LIMIT = 60_000
MAIL_LIMIT = 80_000
ZOOMS = (1.0, 0.9, 0.8, 0.7, 0.65, 0.6, 0.55, 0.5)


@dataclass(frozen=True)
class MapImage:
    """The picture of the map a mail shows, to attach inline."""

    subtype: str  # of image/: "png", or "svg+xml" where no PNG rasteriser is installed
    data: bytes
    filename: str  # map.png or map.svg
    anchor: str  # the first line of the text map ("MAP (1830; ..."): the HTML shows it there
    symbols: tuple[str, ...]  # the title's corporations, to colour them in the HTML


@dataclass
class DrawnMap:
    """A map ``game_view`` drew: its pieces (pbem.render.svg.MapParts), and its pictures
    by zoom (made on first use, shared by every mail that shows this map)."""

    parts: MapParts
    anchor: str  # the first line of its text (the HTML puts the picture there)
    symbols: tuple[str, ...]  # the title's corporations, to colour them in the HTML
    images: dict[float, MapImage | None] = field(default_factory=dict)

    @cached_property
    def svg(self) -> str:
        return self.parts.document()

    def image(self, budget: int = MAP_IMAGE_LIMIT) -> MapImage | None:
        """The largest picture of at most ``budget`` bytes (and MAP_IMAGE_LIMIT), or
        None when even the smallest is larger. The first zoom tried is the largest that
        the pictures made so far (of this map, else of the last map of this layout)
        say will fit: a picture's bytes go with its area."""
        budget = min(budget, MAP_IMAGE_LIMIT)
        for zoom in ZOOMS[self._first(budget):]:
            if zoom not in self.images:
                self.images[zoom] = _picture(self, zoom)
            found = self.images[zoom]
            if found is not None and found.subtype == "png":
                _BYTES_PER_AREA[self.parts.layout] = len(found.data) / zoom ** 2
            if found is not None and len(found.data) <= budget:
                return found
            if found is not None and found.subtype != "png":
                return None  # an SVG has no smaller size
        return None

    def _first(self, budget: int) -> int:
        """The index in ZOOMS of the first zoom to try for ``budget``."""
        made = [(zoom, len(image.data)) for zoom, image in self.images.items()
                if image is not None and image.subtype == "png"]
        per_area = (max(made)[1] / max(made)[0] ** 2 if made
                    else _BYTES_PER_AREA.get(self.parts.layout))
        if per_area is None:
            return 0
        for index, zoom in enumerate(ZOOMS):
            if zoom in self.images or per_area * zoom ** 2 <= budget * 1.02:
                return index
        return len(ZOOMS) - 1


#: The bytes of the last picture of each map layout per unit of zoom squared, to guess
#: the zoom that fits a budget.
_BYTES_PER_AREA: dict[Layout, float] = {}


#: The maps drawn lately (their text, normalised) with their SVG; the PNG is made on
#: first use. Bounded: a mail is built right after its game was drawn.
_DRAWN: LastUsed[str, DrawnMap] = LastUsed(8)
_LOCK = threading.Lock()


def _normal(text: str) -> str:
    """Text as the mail templates may lay it out: trailing blanks and empty lines gone."""
    lines = [line.rstrip() for line in text.splitlines()]
    return "\n".join(line for line in lines if line)


def _remember(map_text: str, state: GameState, hexes: Mapping[str, HexView]) -> None:
    try:
        parts = state_map_parts(state, hexes)
    except Exception:  # noqa: BLE001 - the mail goes without a picture
        log.exception("drawing the SVG map failed")
        return
    key = _normal(map_text)
    with _LOCK:
        known = _DRAWN.get(key)
        if known is None or known.parts != parts:
            _DRAWN.put(key, DrawnMap(parts, key.partition("\n")[0],
                                     tuple(state.rules.corporations)))


def drawn_map(text: str) -> DrawnMap | None:
    """The map that the mail ``text`` shows (the last one, if several), or None when it
    shows none that ``game_view`` drew in this process."""
    normal = _normal(text)
    with _LOCK:
        drawn = _DRAWN.items()
    found, where = None, -1
    for key, entry in drawn:
        at = normal.rfind(key)
        if at > where:
            found, where = entry, at
    return found


def map_image(text: str, budget: int = MAP_IMAGE_LIMIT) -> MapImage | None:
    """The picture of the map that the mail ``text`` shows, of at most ``budget`` bytes."""
    found = drawn_map(text)
    return found.image(budget) if found is not None else None


def _picture(drawn: DrawnMap, zoom: float) -> MapImage | None:
    png = None
    try:
        png = map_picture(drawn.parts, zoom, MAIL_COLOURS)
    except Exception:  # noqa: BLE001 - the SVG will do
        log.exception("rasterising the map failed")
    if png is not None:
        return MapImage("png", png, "map.png", drawn.anchor, drawn.symbols)
    return MapImage("svg+xml", drawn.svg.encode("utf-8"), "map.svg", drawn.anchor,
                    drawn.symbols)


def forget() -> None:
    """Forget every map drawn in this process and its pictures (a benchmark starts as a
    service that never drew the game)."""
    with _LOCK:
        _DRAWN.clear()
        _BYTES_PER_AREA.clear()
    forget_drawings()
