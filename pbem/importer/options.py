"""The pbem game options that reproduce an 18xx.games game: the site's reading of the
rules wherever it differs from pbem's default (docs/18xx-games.md lists each), plus
the log's optional rules."""

from __future__ import annotations

from .sitelog import SiteLog

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
        "auction_order": "lowest-bid",
        "compliance": "sell-first",
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
