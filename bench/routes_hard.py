"""Issue #8's hard route positions: the best-route search on synthetic late-game boards,
far denser than real games (``python -m bench routes-hard``, or
``python bench/routes_hard.py [--timeout S] [--only TEXT] [--record]``).

Boards are built by laying random legal tiles on the real 1830 and 1870 maps in passes
(yellow, green, brown, gray; tiles unlimited): "full" boards tile every buildable hex
in every pass, "late" boards skip some hexes in the later passes.  The corporation X
gets several stations in random cities, other corporations fill random free slots
("blocking").  Each position prints the total found, the reference total (the best
found by an earlier exact search, bench/routes_hard_expected.json, when known), the
time and the nodes explored; then the count of results equal to the reference, the
median, p95, max and total time.

Boards are cached in bench/.cache/routes-hard/ (delete it after a board or tile change).
``--record`` writes the totals found as the new references (only for positions that
finished); ``--timeout S`` abandons a position after S seconds (reported as a timeout).
"""

from __future__ import annotations

import json
import random
import signal
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "bench" / ".cache" / "routes-hard"
EXPECTED = ROOT / "bench" / "routes_hard_expected.json"

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pbem.engine.board.map import BoardState, Map, load_map, place_token, tile_at  # noqa: E402
from pbem.engine.board.search import (  # noqa: E402
    RevenueRules,
    RouteSearch,
    TrainSpec,
    best_of,
    search_for,
)
from pbem.engine.board.track import lay_tile, placements  # noqa: E402

COLOURS = ("yellow", "green", "brown", "gray")
#: per pass, the share of buildable hexes tried
FILL = {"full": (1.0, 1.0, 1.0, 1.0), "late": (1.0, 0.85, 0.6, 0.3)}


@dataclass(frozen=True)
class Board:
    title: str
    fill: str
    seed: int
    stations: int
    blocking: int

    @property
    def name(self) -> str:
        return f"{self.title}-{self.fill}-s{self.seed}-x{self.stations}-b{self.blocking}"


def tiled_board(board_map: Map, rng: random.Random, stations: int, blocking: int,
                 fill: tuple[float, ...] | None = None) -> BoardState:
    """Random legal tiles laid in passes (yellow, green, brown, gray; tiles unlimited),
    in each pass on every buildable hex or, with ``fill``, on that share of them; then
    ``stations`` stations of X in random cities and ``blocking`` stations of others in
    free slots. (tests/routehelp.py builds its full boards with it, without ``fill``.)"""
    board = BoardState.new(board_map)
    board.tiles_left = {t: 99 for t in board_map.tiles}
    for step, colour in enumerate(COLOURS):
        coords = [c for c, h in board_map.hexes.items() if h.buildable]
        rng.shuffle(coords)
        for coord in coords:
            if fill is not None and rng.random() >= fill[step]:
                continue
            options = [(t, r) for t, tile in board_map.tiles.items() if tile.colour == colour
                       for r in placements(board_map, board, coord, t, COLOURS[:step + 1])]
            if options:
                lay_tile(board_map, board, coord, *rng.choice(options))
    cities = [(c, i) for c in board_map.hexes
              for i, s in enumerate(tile_at(board_map, board, c)[0].stops) if s.kind == "city"]
    rng.shuffle(cities)
    for coord, index in cities[:stations]:
        place_token(board_map, board, coord, index, "X")
    slots = [(c, i) for c, i in cities
             for _ in range(tile_at(board_map, board, c)[0].stops[i].slots
                            - len(board.tokens_at(c, i)))]
    rng.shuffle(slots)
    for k, (coord, index) in enumerate(slots[:blocking]):
        place_token(board_map, board, coord, index, f"Y{k}")
    return board


def build(spec: Board) -> tuple[Map, BoardState]:
    """The board of `spec` (from the cache when there)."""
    board_map = load_map(spec.title)
    cache = CACHE / f"{spec.name}.json"
    if cache.exists():
        return board_map, BoardState.from_dict(json.loads(cache.read_text(encoding="utf-8")))
    rng = random.Random(f"{spec.title}/{spec.fill}/{spec.seed}")
    board = tiled_board(board_map, rng, spec.stations, spec.blocking, FILL[spec.fill])
    CACHE.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(board.to_dict()), encoding="utf-8")
    return board_map, board


def trains_of(text: str) -> list[TrainSpec]:
    """"6+D" -> [("6", 6), ("D", None)]; "12u" is a 12-train run as unlimited."""
    result: list[TrainSpec] = []
    for name in text.split("+"):
        if name == "D":
            result.append(("D", None))
        elif name.endswith("u"):
            result.append((name[:-1], None))
        else:
            result.append((name, int(name)))
    return result


def cases() -> list[tuple[Board, str]]:
    """(board, trains) of every hard position."""
    found: list[tuple[Board, str]] = []
    for seed in range(4):
        board = Board("1830", "full", seed, 4, 20)
        found += [(board, t) for t in ("5+6", "6+D", "D+D", "4+4+4")]
    for seed in range(4, 8):
        board = Board("1830", "late", seed, 5, 12)
        found += [(board, t) for t in ("6+D", "D+D")]
    for seed in range(8, 11):
        board = Board("1830", "full", seed, 4, 0)
        found += [(board, t) for t in ("5+6", "6+D", "D+D")]
    for seed in range(4):
        board = Board("1870", "full", seed, 4, 26)
        found += [(board, t) for t in ("6+8", "8+10", "10+12", "12+12")]
    for seed in range(4, 8):
        board = Board("1870", "late", seed, 5, 20)
        found += [(board, t) for t in ("8+10", "10+12", "12+12", "12u")]
    return found


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout


def search(board_map: Map, board: BoardState, trains: list[TrainSpec], column: str,
           timeout: float) -> tuple[int | None, int, float]:
    """(total or None on timeout, nodes, seconds)."""
    started = time.process_time()
    engine: RouteSearch | None = None
    if timeout:
        signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        engine = search_for(board_map, board, "X", column, RevenueRules())
        total: int | None = best_of(engine, trains).total
    except _Timeout:
        total = None
    finally:
        if timeout:
            signal.setitimer(signal.ITIMER_REAL, 0)
    seconds = time.process_time() - started
    nodes = engine.stats.get("nodes", 0) if engine is not None else 0
    return total, nodes, seconds


def main(argv: list[str] | None = None) -> int:
    args = list(argv or [])
    timeout = 0.0
    only: list[str] = []
    record = False
    while args:
        arg = args.pop(0)
        if arg == "--timeout":
            timeout = float(args.pop(0))
        elif arg == "--only":
            only.append(args.pop(0))
        elif arg == "--record":
            record = True
        else:
            print(f"unknown argument {arg!r}")
            return 2
    expected: dict[str, int] = {}
    if EXPECTED.exists():
        expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    times: list[float] = []
    same = known = late = 0
    print(f"{'position':<34} {'trains':<8} {'found':>6} {'expected':>8} {'ms':>9} {'nodes':>9}")
    for spec, text in cases():
        key = f"{spec.name} {text}"
        if only and not any(o in key for o in only):
            continue
        board_map, board = build(spec)
        column = board_map.revenue_columns[-1]
        total, nodes, seconds = search(board_map, board, trains_of(text), column, timeout)
        times.append(seconds)
        want = expected.get(key)
        flag = ""
        if total is None:
            late += 1
            flag = "  <-- timeout"
        elif want is not None:
            known += 1
            same += total == want
            flag = "" if total == want else "  <-- differs"
        if record and total is not None:
            expected[key] = total
        print(f"{spec.name:<34} {text:<8} {total if total is not None else '-':>6} "
              f"{want if want is not None else '?':>8} {seconds * 1000:>9.1f} {nodes:>9}"
              f"{flag}", flush=True)
    if record:
        EXPECTED.write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n",
                            encoding="utf-8")
    if times:
        ordered = sorted(times)
        p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
        print(f"positions {len(times)}, equal to the reference {same}/{known}"
              f"{f', timeouts {late}' if late else ''}; median "
              f"{statistics.median(times) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
              f"max {max(times) * 1000:.1f} ms, total {sum(times):.2f} s")
    return 0 if same == known and not late else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
