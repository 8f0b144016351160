"""The pbem game options that reproduce an 18xx.games game: the site's reading of the
rules wherever it differs from pbem's default (docs/18xx-games.md lists each), plus
the log's optional rules."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.state import GameState
from ..engine.title import load_title
from .sitelog import SiteLog
from .t1870 import (
    TRACK_READING,
    asks_connections,
    connection_check_matters,
    connection_check_unread,
)

#: Options every imported game of the title gets: the site's readings.
SITE_READINGS: dict[str, dict[str, str]] = {
    "1830": {
        "best_run": "free",  # runs as recorded are accepted when legal
        "diesels": "unlimited",  # the site sells any number of diesels
        "auction_order": "lowest-bid",
        "station_retile": "choose",
        "private_lay": "any-time",
        "forced_sale": "any",
        "bankruptcy": "declare",
        "compliance": "sell-first",
        "private_trade": "site",
        "auction_resume": "next",
        "private_resale": "free",  # the site's interplayer company buys have no V-6.4
        "bank_break": "overdrawn",
    },
    "1870": {
        "best_run": "free",
        "players": "2-7",
        "half_dividend": "round-down",
        "reissue_par": "nearest-up",
        "ledge": "site",
        "upgrades": "site",
        "gray_tiles": "site",
        "token_cities": "site",
        "bankrupt_prices": "unchanged",
        "forced_sale": "any",
        "bankruptcy": "declare",
        "share_limit_compliance": "keep",
        "finish_400_timing": "at-once",
        "protection_timing": "turn-end",
        "protect_own_forced_sale": "yes",
        "bank_break": "overdrawn",
        "connection_after_closing": "later",
        "auction_order": "lowest-bid",
        "compliance": "sell-first",
        "mrbc_uses": "one",
        "private_trade": "site",
        "auction_resume": "next",
    },
}

#: The site's optional rules -> pbem options.
OPTIONAL_RULES: dict[str, dict[str, dict[str, str]]] = {
    "1830": {
        "optional_6_train": {"six_trains": "3"},
        "multiple_brown_from_ipo": {"brown_buy": "pool-and-ipo"},
    },
    "1870": {
        "diesels": {"trains": "1830-diesels"},
        "finish_on_400": {"finish_on_400": "yes"},
        "station_wars": {"station_wars": "yes"},
        "original_tiles": {"tiles": "original"},
        "max_reissue_200": {"reissue_max": "200"},
        "can_protect_if_sold": {"protect_after_selling": "yes"},
        "original_market": {"market": "1850"},
        "original_rules": {"station_wars": "yes", "tiles": "original", "reissue_max": "200",
                           "protect_after_selling": "yes", "market": "1850",
                           "certificate_limit_drops": "twice"},
    },
}


#: readings of older versions of the site, which a log's own record may call for (an
#: imported game then plays with them)
OLDER_READINGS: dict[str, dict[str, str]] = {"1870": TRACK_READING}

@dataclass(frozen=True)
class Reader:
    """What reads an option of an older reading, for Replay.reread: ``asks`` names the
    stored commands (by the state before them and their facts) whose decision may read
    it, any other deciding the same under every value of the option; ``matters`` says
    whether, in a state one of them passes through (the state before it, then after
    each of its facts in turn), what reads the option may answer otherwise under its
    values: when it says no in every one, the command decides the same. ``unread``:
    whether ``matters`` answers as before after a (stored) fact: it reads nothing the
    fact changes."""

    asks: Callable[[GameState, list[dict[str, Any]]], bool]
    matters: Callable[[GameState], bool]
    unread: Callable[[dict[str, Any]], bool] = lambda fact: False


#: for each option of an older reading, what reads it
READ_BY: dict[str, Reader] = {
    "connection_check": Reader(asks_connections, connection_check_matters,
                                connection_check_unread)}

#: options that decide nothing the log records: who sees what, who may undo, who reads
#: private talk (the export writes the players in their seat order)
NO_DECISION = {"seating", "visibility", "undo", "private_talk"}


class UnknownOptionalRule(Exception):
    pass


def site_options(log: SiteLog) -> dict[str, str]:
    options = dict(SITE_READINGS.get(log.title, {}))
    known = OPTIONAL_RULES.get(log.title, {})
    for rule in log.optional_rules:
        if rule not in known:
            raise UnknownOptionalRule(f"pbem does not know the {log.title} optional rule "
                                      f"{rule!r}; it knows {', '.join(sorted(known))}.")
        options.update(known[rule])
    options["seating"] = "fixed"
    return options


def site_rules(title: str, options: dict[str, str]) -> list[str]:
    """The optional rules of a pbem game's options (for the export)."""
    found = []
    for rule, implied in OPTIONAL_RULES.get(title, {}).items():
        if all(options.get(k) == v for k, v in implied.items()):
            found.append(rule)
    return found


def options_the_site_lacks(title: str, options: Mapping[str, str]) -> dict[str, str]:
    """The game's options (all of them, as the game reads them) that the site cannot play:
    a value other than pbem's default that is neither a reading of the site (of now or
    of an older version) nor one of its optional rules, for an option that decides
    something."""
    implied: dict[str, str] = {}
    for rule in site_rules(title, dict(options)):
        implied.update(OPTIONAL_RULES[title][rule])
    readings = (SITE_READINGS.get(title, {}), OLDER_READINGS.get(title, {}), implied)
    return {key: value for key, value in load_title(title).non_default(options).items()
            if key not in NO_DECISION and all(r.get(key) != value for r in readings)}
