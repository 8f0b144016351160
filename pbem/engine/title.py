"""A title (1830, 1870): its definition read from rules/<title>/game.json."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .errors import SetupError
from .rulesdata import load_json, rules_dir

ZONES = {"y": "yellow", "o": "orange", "b": "brown", "g": "green", "c": "closed"}


@dataclass(frozen=True)
class Cell:
    row: int
    col: int
    price: int
    zone: str  # plain, yellow, orange, brown (1870: green, closed)
    par: bool


@dataclass(frozen=True)
class Market:
    cells: dict[tuple[int, int], Cell]

    def cell(self, row: int, col: int) -> Cell | None:
        return self.cells.get((row, col))

    def par_cell(self, price: int) -> Cell | None:
        for cell in self.cells.values():
            if cell.par and cell.price == price:
                return cell
        return None

    @property
    def par_prices(self) -> list[int]:
        return sorted({c.price for c in self.cells.values() if c.par})

    @property
    def n_rows(self) -> int:
        return 1 + max(r for r, _ in self.cells)

    @property
    def n_cols(self) -> int:
        return 1 + max(c for _, c in self.cells)


def parse_market(rows: list[str]) -> Market:
    cells: dict[tuple[int, int], Cell] = {}
    for r, line in enumerate(rows):
        for c, text in enumerate(line.split()):
            if text == ".":
                continue
            digits = "".join(ch for ch in text if ch.isdigit())
            flags = text[len(digits):]
            zone = next((ZONES[f] for f in flags if f in ZONES), "plain")
            cells[(r, c)] = Cell(r, c, int(digits), zone, "p" in flags)
    return Market(cells)


@dataclass(frozen=True)
class PrivateDef:
    sym: str
    name: str
    value: int
    revenue: int
    hexes: tuple[str, ...]
    aliases: tuple[str, ...]
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CorpDef:
    sym: str
    name: str
    home: str
    home_city: int | None
    token_prices: tuple[int, ...]
    aliases: tuple[str, ...]
    #: tiles it may lay on its home hex without a connection (1830: NYC 57, Erie 59)
    home_lay: tuple[str, ...] = ()


@dataclass(frozen=True)
class TrainDef:
    name: str
    distance: int | None  # None: unlimited (diesel)
    price: int
    count: int | None  # None: unlimited
    rusts_on: str | None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PhaseDef:
    name: str
    rulebook: int
    on_train: str | None
    train_limit: int
    tiles: tuple[str, ...]
    operating_rounds: int
    corporations_buy_privates: bool
    offboard: int


@dataclass(frozen=True)
class OptionDef:
    key: str
    default: str
    choices: tuple[str, ...]
    help: str


@dataclass(frozen=True)
class Title:
    title: str
    name: str
    rules_version: str
    min_players: int
    max_players: int
    bank_cash: int
    starting_cash: dict[int, int]
    certificate_limit: dict[int, int]
    player_share_limit: int
    pool_certificate_limit: int
    float_percent: int
    market: Market
    privates: dict[str, PrivateDef]
    corporations: dict[str, CorpDef]
    president_percent: int
    ordinary_shares: int
    ordinary_percent: int
    trains: tuple[TrainDef, ...]
    phases: tuple[PhaseDef, ...]
    options: dict[str, OptionDef]
    zone_rules: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def zone_allows(self, zone: str, rule: str) -> bool:
        """Whether a token in ``zone`` grants ``rule`` (uncounted, over_60, multi_buy)."""
        return rule in self.zone_rules.get(zone, ())

    def private(self, sym: str) -> PrivateDef:
        return self.privates[sym]

    def corp(self, sym: str) -> CorpDef:
        return self.corporations[sym]

    def train(self, name: str) -> TrainDef:
        return next(t for t in self.trains if t.name == name)

    def phase(self, name: str) -> PhaseDef:
        return next(p for p in self.phases if p.name == name)

    def privates_by_value(self) -> list[PrivateDef]:
        return sorted(self.privates.values(), key=lambda p: p.value)

    def resolve_options(self, given: dict[str, str]) -> dict[str, str]:
        """The game's options: defaults overridden by ``given``, each checked."""
        resolved = {key: opt.default for key, opt in self.options.items()}
        for key, value in given.items():
            opt = self.options.get(key)
            if opt is None:
                known = ", ".join(sorted(self.options))
                raise SetupError(f"{self.title} has no option '{key}'; the options are {known}.")
            if value not in opt.choices:
                choices = ", ".join(opt.choices)
                raise SetupError(f"Option {key} may be {choices}, not '{value}'.")
            resolved[key] = value
        return resolved


def _extra(record: dict[str, Any], known: set[str]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in known}


@cache
def load_title(title: str) -> Title:
    """The title's definition; raises SetupError for a title pbem does not know."""
    if not (rules_dir() / title / "game.json").exists():
        raise SetupError(f"pbem does not know the game '{title}'; it knows {', '.join(titles())}.")
    data = load_json(f"{title}/game.json")
    private_keys = {"sym", "name", "value", "revenue", "hexes", "aliases"}
    train_keys = {"name", "distance", "price", "count", "rusts_on"}
    return Title(
        title=data["title"],
        name=data["name"],
        rules_version=data["rules_version"],
        min_players=data["players"]["min"],
        max_players=data["players"]["max"],
        bank_cash=data["bank_cash"],
        starting_cash={int(k): v for k, v in data["starting_cash"].items()},
        certificate_limit={int(k): v for k, v in data["certificate_limit"].items()},
        player_share_limit=data["player_share_limit_percent"],
        pool_certificate_limit=data["pool_certificate_limit"],
        float_percent=data["float_percent"],
        market=parse_market(data["market"]["rows"]),
        privates={
            p["sym"]: PrivateDef(
                p["sym"], p["name"], p["value"], p["revenue"], tuple(p.get("hexes", [])),
                tuple(p.get("aliases", [])), _extra(p, private_keys),
            )
            for p in data["privates"]
        },
        corporations={
            c["sym"]: CorpDef(
                c["sym"], c["name"], c["home"], c["home_city"], tuple(c["tokens"]),
                tuple(c.get("aliases", [])), tuple(c.get("home_lay", [])),
            )
            for c in data["corporations"]
        },
        president_percent=data["shares"]["president_percent"],
        ordinary_shares=data["shares"]["ordinary"],
        ordinary_percent=data["shares"]["ordinary_percent"],
        trains=tuple(
            TrainDef(t["name"], t["distance"], t["price"], t["count"], t.get("rusts_on"),
                     _extra(t, train_keys))
            for t in data["trains"]
        ),
        phases=tuple(
            PhaseDef(p["name"], p["rulebook"], p.get("on_train"), p["train_limit"],
                     tuple(p["tiles"]), p["operating_rounds"], p["corporations_buy_privates"],
                     p["offboard"])
            for p in data["phases"]
        ),
        options={
            k: OptionDef(k, v["default"], tuple(v["choices"]), v["help"])
            for k, v in data["options"].items()
        },
        zone_rules={
            k: tuple(v) for k, v in data.get("zones", {}).items() if not k.startswith("_")
        },
    )


def titles() -> list[str]:
    return sorted(p.parent.name for p in rules_dir().glob("*/game.json"))
