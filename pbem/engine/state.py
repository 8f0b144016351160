"""The state of one game: plain data, rebuilt by applying facts.

Holders are strings: ``"bank"``, ``"ipo"`` (initial offering), ``"pool"`` (bank
pool), ``"p:<player>"`` and ``"c:<corporation>"``.  The round is a plain dict
whose keys depend on its ``kind`` (see pbem.engine.rounds).
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from functools import cache, cached_property
from typing import Any

from .board.map import BoardState, Map
from .maps import rules_map, title_map
from .title import Title, load_title, load_title_for, variant_options

BANK, IPO, POOL = "bank", "ipo", "pool"
#: the holder of a closed company's certificates (out of the game)
CLOSED = "closed"


def player_holder(name: str) -> str:
    return f"p:{name}"


def corp_holder(sym: str) -> str:
    return f"c:{sym}"


def holder_name(holder: str) -> str:
    """The player or corporation behind a holder string ("p:Alice" -> "Alice")."""
    return holder.split(":", 1)[1] if ":" in holder else holder


@dataclass
class Player:
    name: str
    cash: int


@dataclass
class Corporation:
    sym: str
    #: holder of each certificate; index 0 is the president's certificate
    certs: list[str]
    par: int | None = None
    cell: tuple[int, int] | None = None
    #: arrival number in its market cell: lower arrived earlier and lies on top
    arrival: int = 0
    floated: bool = False
    funded: bool = False
    cash: int = 0
    operated: bool = False
    trains: list[str] = field(default_factory=list)
    #: closed for good (its token entered a closing section)
    closed: bool = False
    #: money from reissued shares, not usable before the next operating round
    frozen: int = 0
    #: the initial offering holds reissued shares, whose price goes to the company
    reissued: bool = False
    #: the connection run is done
    destination_reached: bool = False
    #: what became of the destination marker at the connection run: "placed" at
    #: the destination (doubles it for this company) or "kept" (a $100 station marker)
    destination_marker: str | None = None
    #: money borrowed from the bank for a forced train and not yet repaid (a title's
    #: insolvency: the company is insolvent while it owes any)
    loan: int = 0
    #: trains made obsolete that run once more before they leave (a title's delayed
    #: rusting); they count as scrapped already
    rusting: list[str] = field(default_factory=list)
    #: the administrator's order of repayment among several insolvent companies: the
    #: highest number is repaid first (0: the charter order)
    repay_rank: int = 0


@dataclass
class Private:
    sym: str
    price: int
    owner: str = BANK
    closed: bool = False
    used: bool = False


@dataclass
class GameState:
    title: str
    options: dict[str, str]
    seed: int
    players: list[Player]
    corps: dict[str, Corporation]
    privates: dict[str, Private]
    bank: int
    priority: str
    phase: str | None = None  # None: the private auction (the rulebook's phase 1)
    round: dict[str, Any] = field(default_factory=dict)
    arrivals: int = 0
    trains_sold: dict[str, int] = field(default_factory=dict)
    pool_trains: list[str] = field(default_factory=list)
    trains_scrapped: dict[str, int] = field(default_factory=dict)
    finished: bool = False
    result: dict[str, Any] | None = None
    board: BoardState = field(default_factory=BoardState)
    #: None, or how the game ends: {"reason": ..., "after": "set" | "sr"}
    ending: dict[str, Any] | None = None
    #: price protection: player -> corporations held over the share limit by it
    over_limit: dict[str, list[str]] = field(default_factory=dict)
    #: what a title's variant remembers between rounds (fact Note), e.g. when a market
    #: reform begins
    notes: dict[str, Any] = field(default_factory=dict)

    # -- lookups -------------------------------------------------------------
    @cached_property
    def rules(self) -> Title:
        """The title's rules with the game's variants (read once per state object: kept
        in its __dict__, where later reads find it without a call)."""
        return rules_for(self.title, self.options)

    @cached_property
    def map(self) -> Map:
        """The title's map with the readings the game's options choose (the gray
        tiles' station spaces, the upgrades the rulebook allows; read once per state)."""
        return rules_map(self.title, self.rules)

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def left_of(self, name: str, steps: int = 1) -> str:
        names = self.names
        return names[(names.index(name) + steps) % len(names)]

    def clockwise_from(self, name: str) -> list[str]:
        """All players starting with ``name``, clockwise."""
        names = self.names
        i = names.index(name)
        return names[i:] + names[:i]

    def cash_of(self, holder: str) -> int:
        if holder == BANK:
            return self.bank
        kind, name = holder.split(":", 1)
        return self.player(name).cash if kind == "p" else self.corps[name].cash

    def percent(self, corp: str, holder: str) -> int:
        total = 0
        for size, h in zip(self.rules.certificates[corp], self.corps[corp].certs, strict=True):
            if h == holder:
                total += size
        return total

    def cert_percent(self, corp: str, index: int) -> int:
        """The percent of certificate ``index`` of ``corp`` (0: the president's)."""
        return self.rules.cert_percents(corp)[index]

    def cert_indexes(self, corp: str, holder: str) -> list[int]:
        return [i for i, h in enumerate(self.corps[corp].certs) if h == holder]

    def president(self, corp: str) -> str | None:
        holder = self.corps[corp].certs[0]
        return holder_name(holder) if holder.startswith("p:") else None

    def capital(self, corp: str) -> int:
        """What a floated corporation receives from the bank: ten shares at its par (5.3)."""
        return 10 * (self.corps[corp].par or 0)

    def unpaid_capital(self) -> int:
        """The capital of the corporations floated in this stock round, which the bank
        pays them at its end (5.3)."""
        return sum(self.capital(s) for s, c in self.corps.items() if c.floated and not c.funded)

    def price(self, corp: str) -> int | None:
        cell = self.corps[corp].cell
        if cell is None:
            return None
        found = self.rules.market.cell(*cell)
        return found.price if found else None

    def zone(self, corp: str) -> str:
        cell = self.corps[corp].cell
        if cell is None:
            return "plain"
        found = self.rules.market.cell(*cell)
        return found.zone if found else "plain"

    def privates_of(self, holder: str) -> list[str]:
        return [p.sym for p in self.privates.values() if p.owner == holder and not p.closed]

    # -- copying and comparing -------------------------------------------------
    def clone(self) -> GameState:
        """A copy sharing nothing mutable with this state (faster than deepcopy); it
        shares the rules and the map read for this state (immutable, and the options
        are the same). Made without the dataclasses' constructors (a call with every
        field is several times slower than copying the object's __dict__), in the
        same order of fields."""
        values = self.__dict__
        made = {
            "title": self.title,
            "options": dict(self.options),
            "seed": self.seed,
            "players": [_copied(p) for p in self.players],
            "corps": {s: _copied_corporation(c) for s, c in self.corps.items()},
            "privates": {s: _copied(p) for s, p in self.privates.items()},
            "bank": self.bank,
            "priority": self.priority,
            "phase": self.phase,
            "round": plain_copy(self.round),
            "arrivals": self.arrivals,
            "trains_sold": dict(self.trains_sold),
            "pool_trains": list(self.pool_trains),
            "trains_scrapped": dict(self.trains_scrapped),
            "finished": self.finished,
            "result": plain_copy(self.result),
            "board": self.board.copy(),
            "ending": plain_copy(self.ending),
            "over_limit": {p: list(cs) for p, cs in self.over_limit.items()},
            "notes": plain_copy(self.notes),
        }
        for read in ("rules", "map"):
            if read in values:
                made[read] = values[read]
        copy = object.__new__(GameState)
        copy.__dict__ = made
        return copy

    def shell(self) -> GameState:
        """A second object holding this state's values themselves (nothing copied): for a
        caller whose every change is a ``become`` (a decision's state taken whole), which
        so never changes a value the two share."""
        shell = object.__new__(GameState)
        shell.__dict__.update(self.__dict__)
        return shell

    def become(self, other: GameState) -> None:
        """Take ``other``'s values (and what was read for it: rules, map) as this state's:
        the state a decision made of this one (Decision.state), taken instead of applying
        its facts again. ``other`` is not to be used afterwards."""
        self.__dict__.update(other.__dict__)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


#: the types plain_copy returns as they are (a set: a lookup, not a scan of five)
_ATOMS = frozenset({str, int, float, bool, type(None)})


def _copied(record: Player | Private) -> Any:
    """A copy of a player or private company (their fields are atoms)."""
    copy = object.__new__(type(record))
    copy.__dict__ = record.__dict__.copy()
    return copy


def _copied_corporation(corp: Corporation) -> Corporation:
    """A copy of a corporation sharing no list (its other fields are atoms, or the cell's
    tuple)."""
    copy = object.__new__(Corporation)
    values = copy.__dict__ = corp.__dict__.copy()
    values["certs"], values["trains"] = list(corp.certs), list(corp.trains)
    values["rusting"] = list(corp.rusting)
    return copy


def plain_copy(value: Any) -> Any:
    """copy.deepcopy of a state's round, result, ending or notes (JSON-like: dicts,
    lists and atoms), about four times faster.  Values met twice are copied twice (a
    state read back from a snapshot, JSON, shares nothing either); other types go to
    deepcopy."""
    kind = type(value)
    if kind is dict or isinstance(value, dict):
        return {k: v if type(v) in _ATOMS else plain_copy(v) for k, v in value.items()}
    if kind is list or isinstance(value, list):
        return [v if type(v) in _ATOMS else plain_copy(v) for v in value]
    if kind in _ATOMS:
        return value
    if isinstance(value, tuple):
        return tuple(plain_copy(v) for v in value)
    return copy.deepcopy(value)


def board_key(board: BoardState) -> tuple[Any, ...]:
    """A hashable picture of the board (tiles and stations), for caches (sets: no
    sorting, and a frozenset keeps its hash for the next lookup)."""
    return (frozenset(board.tiles.items()),
            frozenset((c, tuple(map(tuple, stops))) for c, stops in board.tokens.items()))


def rules_for(title: str, options: dict[str, str]) -> Title:
    """The title's rules with the variants the game's options choose."""
    keys = variant_options(title)
    if not keys:
        return load_title(title)
    return _rules_with(title, tuple((k, options.get(k, "")) for k in keys))


@cache
def _rules_with(title: str, chosen: tuple[tuple[str, str], ...]) -> Title:
    return load_title_for(title, {k: v for k, v in chosen if v})


def initial_state(title: str, names: list[str], seed: int, options: dict[str, str]) -> GameState:
    """The state before the first command: ``names`` in seat order, first holds priority."""
    rules = rules_for(title, options)
    cash = rules.starting_cash[len(names)]
    return GameState(
        title=title,
        options=dict(options),
        seed=seed,
        players=[Player(name, cash) for name in names],
        corps={sym: Corporation(sym, [IPO] * len(rules.cert_percents(sym)))
               for sym in rules.corporations},
        privates={p.sym: Private(p.sym, p.value) for p in rules.privates.values()},
        bank=rules.bank_cash - cash * len(names),
        priority=names[0],
        board=new_board(title, rules),
    )


def new_board(title: str, rules: Title) -> BoardState:
    """The board before the first tile: every tile of the manifest in the supply, less
    the copies a variant leaves out (data board.tiles_removed, an option's variant)."""
    board = BoardState.new(title_map(title))
    for tile_id, n in rules.extra.get("board", {}).get("tiles_removed", {}).items():
        board.tiles_left[tile_id] = board.tiles_left.get(tile_id, 0) - int(n)
    return board
