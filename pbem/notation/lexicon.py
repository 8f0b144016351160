"""The verbs players may type, and the canonical verb (help topic) each stands for."""

from __future__ import annotations

import difflib

#: Every verb word accepted, mapped to the canonical verb it stands for.
VERB_OF: dict[str, str] = {
    # auction and stock round
    "bid": "bid",
    "buy": "buy",
    "purchase": "buy",
    "par": "par",
    "start": "par",
    "sell": "sell",
    "exchange": "exchange",
    "swap": "exchange",
    "accept": "accept",
    "agree": "accept",
    "decline": "decline",
    "reject": "decline",
    "refuse": "decline",
    "pass": "pass",
    "done": "pass",
    "end": "pass",
    "take": "take",
    # operating round
    "lay": "lay",
    "tile": "lay",
    "upgrade": "lay",
    "token": "token",
    "station": "token",
    "run": "run",
    "payout": "payout",
    "pay": "payout",
    "withhold": "withhold",
    "keep": "withhold",
    "hold": "withhold",
    "half": "half",
    "halve": "half",
    "discard": "discard",
    "scrap": "discard",
    "bankrupt": "bankrupt",
    "bankruptcy": "bankrupt",
    "protect": "protect",
    "redeem": "redeem",
    "reissue": "reissue",
    "repay": "repay",
    "destination": "destination",
    "port": "port",
    "open": "port",
    "close": "port",
    "cattle": "cattle",
    # any time
    "say": "say",
    "help": "help",
    "?": "help",
    "show": "show",
    "status": "show",
    "history": "history",
    "log": "history",
    "notify": "notify",
    "undo": "undo",
    "auto": "auto",
    "mail": "mail",
    "picture": "picture",
    "tz": "tz",
    "timezone": "tz",
    "settings": "settings",
    "key": "key",
    "away": "away",
    "back": "back",
    "list": "list",
    "games": "list",
    # referee
    "as": "as",
    "revert": "revert",
    "replace": "replace",
    "pause": "pause",
    "resume": "resume",
    "deadline": "deadline",
    "kick": "kick",
    "extend": "extend",
}

#: What 'help <topic>' accepts, in the order a player meets them.
HELP_TOPICS: tuple[str, ...] = (
    "bid", "buy", "pass", "take",
    "par", "sell", "sell private", "exchange", "accept", "decline",
    "lay", "token", "run", "payout", "withhold", "half", "buy train", "discard",
    "bankrupt", "repay", "buy private", "protect", "redeem", "reissue", "destination", "port",
    "cattle",
    "say", "help", "show", "history", "list", "undo", "accept undo", "auto", "away", "back",
    "notify", "mail", "picture", "tz", "settings", "key",
    "referee", "as", "revert", "replace", "pause", "resume", "deadline", "extend", "kick",
    "end game",
)  # fmt: skip

#: The parts of the players' guide 'help <part>' sends (docs/players-guide.md; the mail
#: layer reads them, tests/test_docs_examples.py checks this list against the guide).
GUIDE_PARTS: tuple[str, ...] = (
    "start", "auction", "stock", "operating", "1870", "talk", "orders", "reading", "refused",
    "deadlines", "mails",
)


def canonical_verb(word: str, fuzzy: bool = False) -> str | None:
    """The canonical verb a typed word stands for ('done' -> 'pass'); with ``fuzzy``
    a misspelt verb ('biid') counts too."""
    lowered = word.lower()
    if lowered in VERB_OF:
        return VERB_OF[lowered]
    if not fuzzy:
        return None
    close = difflib.get_close_matches(lowered, list(VERB_OF), n=1, cutoff=0.75)
    return VERB_OF[close[0]] if close else None
