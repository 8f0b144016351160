"""A title (1830, 1870): its definition read from rules/<title>/game.json."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

from .errors import SetupError
from .rulesdata import load_json, title_dir, title_names

ZONES = {"y": "yellow", "o": "orange", "b": "brown", "g": "green", "c": "closed"}
#: Market cell flags besides the zones: par cell, 1870 ledge cell, 1870 lower area.
FLAGS = set(ZONES) | {"p", "l", "d"}


@dataclass(frozen=True)
class Cell:
    row: int
    col: int
    price: int
    zone: str  # plain, yellow, orange, brown (1870: green, closed)
    par: bool
    #: 1870: the last upper-area cell of its column above the lower area (the ledge is
    #: the line under it). Always False in 1830.
    ledge: bool = False
    #: 1870: "upper" or "lower" (below the ledge). 1830 has no ledge: every cell is upper.
    area: str = "upper"


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

    @property
    def max_price(self) -> int:
        return max(c.price for c in self.cells.values())


def parse_market(rows: list[str]) -> Market:
    """Cells from rows of text: price then flags, e.g. ``60y``, ``100p``, ``275l``, ``250d``."""
    cells: dict[tuple[int, int], Cell] = {}
    for r, line in enumerate(rows):
        for c, text in enumerate(line.split()):
            if text == ".":
                continue
            digits = "".join(ch for ch in text if ch.isdigit())
            flags = text[len(digits):]
            if not digits or set(flags) - FLAGS:
                raise SetupError(f"Market cell '{text}' (row {r}, column {c}) is not a price "
                                 f"with flags from {''.join(sorted(FLAGS))}.")
            zone = next((ZONES[f] for f in flags if f in ZONES), "plain")
            area = "lower" if "d" in flags else "upper"
            cells[(r, c)] = Cell(r, c, int(digits), zone, "p" in flags, "l" in flags, area)
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
    #: 1870: the destination hex and its printed name (None: no destination)
    destination: str | None = None
    destination_name: str | None = None
    #: percentage sold that floats it, where it differs from the title's (1870 SLSF: 20)
    float_percent: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TrainDef:
    name: str
    distance: int | None  # None: unlimited (diesel)
    price: int
    count: int | None  # None: unlimited
    rusts_on: str | None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def reach(self) -> int | tuple[int, int] | None:
        """The stops it counts as the route search takes them (board.search.Reach):
        its distance, or for a plus train (data "towns", 1830 V-7.9) (large cities,
        towns)."""
        towns = self.extra.get("towns")
        if towns is None or self.distance is None:
            return self.distance
        return (self.distance, int(towns))


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
    #: what happens when the phase begins besides rusting (1870: privates_buyable,
    #: close_privates, remove_port_and_cattle_tokens); rusting is the trains' rusts_on
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class OptionDef:
    key: str
    default: str
    choices: tuple[str, ...]
    help: str
    #: where the rulebook describes the choice ("V-6.4"; empty: a house or site option)
    rule: str = ""
    #: the value of a game recorded before the option existed (None: the default); a
    #: new option whose default changes what the engine decides keeps the old reading
    #: for the games stored before it (Title.options_as_recorded)
    legacy: str | None = None
    #: choice -> the defaults it gives other options (a preset: 1830 game=base)
    sets: dict[str, dict[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Incompatible:
    """Option values that cannot be played together, and why (a sentence)."""

    options: dict[str, str]
    why: str


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
    #: False while the engine cannot carry out this title's rules (1870 for now)
    engine_support: bool = True
    #: players -> public companies still in the game -> certificate limit (1830: one
    #: column, keyed by its 8 corporations; 1870: 10 and 9, p.6)
    certificate_limits: dict[int, dict[int, int]] = field(default_factory=dict)
    #: the title's further data (1870: auction, redemption, reissue, token_hexes, board...)
    extra: dict[str, Any] = field(default_factory=dict)
    #: option values that cannot be played together
    incompatible: tuple[Incompatible, ...] = ()
    #: rulebook variants pbem does not play, by the option a group would ask for: the
    #: sentence refusing it (data refused_options)
    refused_options: dict[str, str] = field(default_factory=dict)
    #: corporation -> the percent of each of its certificates, the president's first
    #: (data shares.certificates; a company not named there has the president's
    #: certificate and ``ordinary_shares`` ordinary ones: 1830 V-6.5 gives the Erie an
    #: extra 20%)
    certificates: dict[str, tuple[int, ...]] = field(default_factory=dict)
    #: the corporations with a certificate besides the president's worth more than a
    #: share (from ``certificates``)
    larger: frozenset[str] = frozenset()

    def certificate_limit_for(self, players: int, companies: int | None = None) -> int:
        """The certificate limit with ``companies`` public companies left (None: all).

        The column for the fewest companies that is still >= ``companies``: so the 1870
        limit falls once, when the first company closes, and stays there (p.6).
        """
        columns = self.certificate_limits[players]
        if companies is None:
            return columns[max(columns)]
        fitting = [k for k in columns if k >= companies]
        return columns[min(fitting)] if fitting else columns[max(columns)]

    def cert_percents(self, sym: str) -> tuple[int, ...]:
        """The percent of each certificate of ``sym``, index 0 the president's."""
        return self.certificates[sym]

    def has_larger_certificates(self, sym: str) -> bool:
        """Whether ``sym`` has a certificate besides the president's worth more than a
        share (1830 V-6.5)."""
        return sym in self.larger

    def corp_float_percent(self, sym: str) -> int:
        own = self.corporations[sym].float_percent
        return self.float_percent if own is None else own

    def for_options(self, options: Mapping[str, str]) -> Title:
        """This title with the data of the chosen variants (1870 diesels, 1850 market, ...).

        Options without variant data change nothing here; the engine reads them itself.
        """
        return load_title_for(self.title, options)

    def zone_allows(self, zone: str, rule: str) -> bool:
        """Whether a token in ``zone`` grants ``rule`` (uncounted, over_60, multi_buy)."""
        return rule in self.zone_rules.get(zone, ())

    def private(self, sym: str) -> PrivateDef:
        return self.privates[sym]

    def corp(self, sym: str) -> CorpDef:
        return self.corporations[sym]

    def train(self, name: str) -> TrainDef:
        found = self._trains_by_name.get(name)
        if found is None:
            return next(t for t in self.trains if t.name == name)  # StopIteration, as before
        return found

    @cached_property
    def _trains_by_name(self) -> dict[str, TrainDef]:
        """The trains by name, the first of each name (asked for every train a company
        runs or holds, after every turn)."""
        found: dict[str, TrainDef] = {}
        for train in self.trains:
            found.setdefault(train.name, train)
        return found

    def phase(self, name: str) -> PhaseDef:
        return next(p for p in self.phases if p.name == name)

    def privates_by_value(self) -> list[PrivateDef]:
        return sorted(self.privates.values(), key=lambda p: p.value)

    def resolve_options(self, given: dict[str, str]) -> dict[str, str]:
        """The game's options: defaults, then what the presets given set, then ``given``;
        each checked, and the whole set checked for values that cannot go together."""
        resolved = {key: opt.default for key, opt in self.options.items()}
        for key, value in given.items():
            opt = self.options.get(key)
            if opt is None and key in self.refused_options:
                raise SetupError(self.refused_options[key])
            if opt is None:
                known = ", ".join(sorted(self.options))
                raise SetupError(f"{self.title} has no option '{key}'; the options are {known}.")
            if value not in opt.choices:
                choices = ", ".join(opt.choices)
                raise SetupError(f"Option {key} may be {choices}, not '{value}'.")
        for key, value in given.items():
            for other, preset in self.options[key].sets.get(value, {}).items():
                if other not in given:
                    resolved[other] = preset
        resolved.update(given)
        self.check_compatible(resolved)
        return resolved

    def check_compatible(self, options: Mapping[str, str]) -> None:
        """SetupError with the sentence of the first pair of values that cannot go
        together."""
        for rule in self.incompatible:
            if all(options.get(k) == v for k, v in rule.options.items()):
                named = " with ".join(f"{k}={v}" for k, v in rule.options.items())
                raise SetupError(f"Options {named} cannot be played together: {rule.why}")

    def options_as_recorded(self, stored: Mapping[str, str]) -> dict[str, str]:
        """The options of a stored game: an option it does not name did not exist when it
        was recorded, so it takes the reading of that time (OptionDef.legacy) or, for an
        option that changes nothing of the past, its default."""
        known = dict(stored)
        for key, opt in self.options.items():
            if key not in known:
                known[key] = opt.legacy if opt.legacy is not None else opt.default
        return self.resolve_options(known)

    def non_default(self, options: Mapping[str, str]) -> dict[str, str]:
        """The options whose value differs from the default, in the data's order."""
        return {k: options[k] for k, opt in self.options.items()
                if k in options and options[k] != opt.default}


def _clean(value: Any) -> Any:
    """``value`` without the "_"-prefixed comment keys of its objects, at any depth."""
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items() if not k.startswith("_")}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def _extra(record: dict[str, Any], known: set[str]) -> dict[str, Any]:
    return {k: _clean(v) for k, v in record.items() if k not in known and not k.startswith("_")}


TITLE_KEYS = {
    "title", "name", "rules_version", "engine_support", "players", "bank_cash", "starting_cash",
    "certificate_limit", "player_share_limit_percent", "pool_certificate_limit", "float_percent",
    "zones", "market", "privates", "corporations", "shares", "trains", "phases", "options",
    "variants", "incompatible", "refused_options",
}
PRIVATE_KEYS = {"sym", "name", "value", "revenue", "hexes", "aliases"}
CORP_KEYS = {"sym", "name", "home", "home_city", "tokens", "aliases", "home_lay", "destination",
             "destination_name", "float_percent"}
TRAIN_KEYS = {"name", "distance", "price", "count", "rusts_on"}


def _certificate_limits(data: dict[str, Any]) -> dict[int, dict[int, int]]:
    """players -> companies -> limit; a flat table (1830) is one column for all companies."""
    players = range(data["players"]["min"], data["players"]["max"] + 1)
    companies = len(data["corporations"])
    limits: dict[int, dict[int, int]] = {}
    for key, value in data["certificate_limit"].items():
        if key.startswith("_") or int(key) not in players:
            continue
        if isinstance(value, dict):
            limits[int(key)] = {int(k): v for k, v in value.items()}
        else:
            limits[int(key)] = {companies: value}
    for n, columns in limits.items():
        if max(columns) != companies:
            raise SetupError(f"{data['title']}: the certificate limit for {n} players has no "
                             f"column for all {companies} companies.")
    if set(limits) != set(players):
        raise SetupError(f"{data['title']}: certificate limits are missing for some of "
                         f"{players.start}-{players.stop - 1} players.")
    return limits


def _check_variants(data: dict[str, Any]) -> None:
    options = data["options"]
    for key, choices in data.get("variants", {}).items():
        if key.startswith("_"):
            continue
        if key not in options:
            raise SetupError(f"{data['title']}: variant data for '{key}', which is no option.")
        for choice in choices:
            if choice not in options[key]["choices"] or choice == options[key]["default"]:
                raise SetupError(f"{data['title']}: variant data for {key}={choice}, which is "
                                 f"not a choice other than the default.")


def _check_options(data: dict[str, Any]) -> None:
    """Presets and incompatible pairs name options and choices that exist."""
    options = {k: v for k, v in data["options"].items() if not k.startswith("_")}

    def known(key: str, value: str, where: str) -> None:
        if key not in options or value not in options[key]["choices"]:
            raise SetupError(f"{data['title']}: {where} names {key}={value}, which is no "
                             "option's choice.")

    for key, opt in options.items():
        for choice, preset in opt.get("sets", {}).items():
            known(key, choice, f"the preset {key}={choice}")
            for other, value in preset.items():
                known(other, value, f"the preset {key}={choice}")
        if opt.get("legacy") is not None:
            known(key, opt["legacy"], f"the legacy value of {key}")
    for rule in data.get("incompatible", []):
        for key, value in rule["options"].items():
            known(key, value, "an incompatible pair")


def _merge(base: dict[str, Any], patch: dict[str, Any]) -> None:
    """Objects merge key by key; anything else (lists, values) replaces."""
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        else:
            base[key] = copy.deepcopy(value)


def _raw(title: str) -> dict[str, Any]:
    if not (title_dir(title) / "game.json").exists():
        raise SetupError(f"pbem does not know the game '{title}'; it knows {', '.join(titles())}.")
    data: dict[str, Any] = load_json(f"{title}/game.json")
    return data


@cache
def load_title(title: str) -> Title:
    """The title's definition; raises SetupError for a title pbem does not know."""
    return _parse(_raw(title))


def load_title_for(title: str, options: Mapping[str, str]) -> Title:
    """The title with the variant data of ``options`` (checked; defaults for the rest)."""
    base = load_title(title)
    resolved = base.resolve_options(dict(options))
    variants = _raw(title).get("variants", {})
    chosen = tuple(sorted((k, v) for k, v in resolved.items() if v in variants.get(k, {})))
    return _load_variant(title, chosen) if chosen else base


@cache
def variant_options(title: str) -> tuple[str, ...]:
    """The options that select variant data (1870: finish_on_400, trains, market...)."""
    return tuple(sorted(_raw(title).get("variants", {})))


@cache
def _load_variant(title: str, chosen: tuple[tuple[str, str], ...]) -> Title:
    data = copy.deepcopy(_raw(title))
    for key, value in chosen:
        _merge(data, data["variants"][key][value])
    return _parse(data)


def _parse(data: dict[str, Any]) -> Title:
    _check_variants(data)
    _check_options(data)
    limits = _certificate_limits(data)
    certificates = _certificates(data)
    return Title(
        title=data["title"],
        name=data["name"],
        rules_version=data["rules_version"],
        min_players=data["players"]["min"],
        max_players=data["players"]["max"],
        bank_cash=data["bank_cash"],
        starting_cash={int(k): v for k, v in data["starting_cash"].items()
                       if data["players"]["min"] <= int(k) <= data["players"]["max"]},
        certificate_limit={n: columns[max(columns)] for n, columns in limits.items()},
        player_share_limit=data["player_share_limit_percent"],
        pool_certificate_limit=data["pool_certificate_limit"],
        float_percent=data["float_percent"],
        market=parse_market(data["market"]["rows"]),
        privates={
            p["sym"]: PrivateDef(
                p["sym"], p["name"], p["value"], p["revenue"], tuple(p.get("hexes", [])),
                tuple(p.get("aliases", [])), _extra(p, PRIVATE_KEYS),
            )
            for p in data["privates"]
        },
        corporations={
            c["sym"]: CorpDef(
                c["sym"], c["name"], c["home"], c["home_city"], tuple(c["tokens"]),
                tuple(c.get("aliases", [])), tuple(c.get("home_lay", [])),
                c.get("destination"), c.get("destination_name"), c.get("float_percent"),
                _extra(c, CORP_KEYS),
            )
            for c in data["corporations"]
        },
        president_percent=data["shares"]["president_percent"],
        ordinary_shares=data["shares"]["ordinary"],
        ordinary_percent=data["shares"]["ordinary_percent"],
        trains=tuple(
            TrainDef(t["name"], t["distance"], t["price"], t["count"], t.get("rusts_on"),
                     _extra(t, TRAIN_KEYS))
            for t in data["trains"]
        ),
        phases=tuple(
            PhaseDef(p["name"], p["rulebook"], p.get("on_train"), p["train_limit"],
                     tuple(p["tiles"]), p["operating_rounds"], p["corporations_buy_privates"],
                     p["offboard"], tuple(p.get("events", [])))
            for p in data["phases"]
        ),
        options={
            k: OptionDef(k, v["default"], tuple(v["choices"]), v["help"], v.get("rule", ""),
                         v.get("legacy"), {c: dict(p) for c, p in v.get("sets", {}).items()})
            for k, v in data["options"].items() if not k.startswith("_")
        },
        zone_rules={
            k: tuple(v) for k, v in data.get("zones", {}).items() if not k.startswith("_")
        },
        engine_support=data.get("engine_support", True),
        certificate_limits=limits,
        extra=_extra(data, TITLE_KEYS),
        incompatible=tuple(Incompatible(dict(i["options"]), i["why"])
                           for i in data.get("incompatible", [])),
        refused_options={k: v for k, v in data.get("refused_options", {}).items()
                         if not k.startswith("_")},
        certificates=certificates,
        larger=frozenset(sym for sym, sizes in certificates.items()
                         if max(sizes[1:]) > data["shares"]["ordinary_percent"]),
    )


def _certificates(data: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """Each corporation's certificates: the president's and the ordinary shares, or what
    the data gives (shares.certificates: the president's first, 100% in all)."""
    shares = data["shares"]
    plain = (shares["president_percent"],) + (shares["ordinary_percent"],) * shares["ordinary"]
    found = {c["sym"]: plain for c in data["corporations"]}
    for sym, percents in shares.get("certificates", {}).items():
        if sym.startswith("_"):
            continue
        if sum(percents) != 100 or percents[0] != shares["president_percent"] or \
                sym not in found:
            raise SetupError(f"{data['title']}: the certificates of {sym} must be the "
                             "president's first and add up to 100%.")
        found[sym] = tuple(percents)
    return found


def titles() -> list[str]:
    return title_names()
