"""Actions back to text: the one canonical spelling of each command."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.engine.actions import Action

Printer = Callable[[Action], str]


def format_action(action: Action) -> str:
    """The canonical text of an action, e.g. 'par PRR 82'.

    parse_command(format_action(a), ctx) == a for every action a, in a context
    of the round it belongs to.
    """
    kind = action.get("type")
    printer = _PRINTERS.get(kind) if isinstance(kind, str) else None
    if printer is None:
        raise ValueError(f"no command text for an action of type {kind!r}")
    return printer(action)


def _words(*parts: Any) -> str:
    return " ".join(str(part) for part in parts if part is not None and part != "")


def _bid(a: Action) -> str:
    return _words("bid", a.get("private"), a["amount"])


def _buy_private(a: Action) -> str:
    if "from" in a:
        return _words("buy private", a["private"], "from", a["from"], "for", a["price"])
    return _words("buy", a.get("private"))


def _par(a: Action) -> str:
    return _words("par", a["corp"], a["price"])


def _buy_share(a: Action) -> str:
    count = a.get("count", 1)
    size = f"{a['percent']}%" if a.get("percent") else None
    return _words("buy", count if count != 1 else None, a["corp"], size, a.get("source"))


def _sell(a: Action) -> str:
    return "sell " + ", ".join(f"{sale['count']} {sale['corp']}" for sale in a["sales"])


def _redeem(a: Action) -> str:
    source = a.get("from")
    return _words("redeem", a["corp"], *(("from", source) if source else ()))


def _protect(a: Action) -> str:
    return _words("protect", a.get("corp"))


def _sell_private(a: Action) -> str:
    return _words("sell private", a["private"], "to", a["to"], "for", a["price"])


def _lay(a: Action) -> str:
    exits = "-".join(a["exits"]) if a.get("exits") else None
    if a.get("paths"):  # the track, pair by pair: SW-NW/SW-E
        exits = "/".join("-".join(pair) for pair in a["paths"])
    return _words("lay", a["tile"], a["hex"], exits, *_with(a))


def _token(a: Action) -> str:
    return _words("token", a["hex"], a.get("city"), *_with(a))


def _with(a: Action) -> tuple[str | None, str | None]:
    return ("with", a["with"]) if a.get("with") else (None, None)


def _run(a: Action) -> str:
    routes = a.get("routes")
    if routes == []:
        return "run nothing"
    if not routes:
        return "run"
    return "run " + ", ".join(f"{r['train']}: {'-'.join(r['stops'])}" for r in routes)


def _buy_train(a: Action) -> str:
    source = a.get("source")
    if source not in (None, "pool", "bank"):
        source = f"from {source}"
    price = f"for {a['price']}" if a.get("price") is not None else None
    trade = f"trade {a['trade']}" if a.get("trade") is not None else None
    return _words("buy train", a.get("train"), source, price, trade)


def _help(a: Action) -> str:
    return _words("help", a.get("topic"))


def _as(a: Action) -> str:
    return _words("as", a["player"], format_action(a["action"]))


def _plain(verb: str) -> Printer:
    return lambda a: verb


def _one(verb: str, key: str) -> Printer:
    return lambda a: _words(verb, a[key])


def _auto(a: Action) -> str:
    if a.get("cancel"):
        return "auto cancel"
    if a.get("order") == "pass":
        return "auto pass"
    if a.get("order") == "buy":
        until = f"until {a['until']}%" if a.get("until") else None
        return _words("auto buy", a["corp"], a.get("source"), until)
    return "auto"


_PRINTERS: dict[str, Printer] = {
    "bid": _bid,
    "buy_private": _buy_private,
    "pass": _plain("pass"),
    "take_group": _one("take group", "group"),
    "par": _par,
    "buy_share": _buy_share,
    "sell": _sell,
    "exchange": _one("exchange", "private"),
    "sell_private": _sell_private,
    "accept": _plain("accept"),
    "decline": _plain("decline"),
    "lay": _lay,
    "token": _token,
    "run": _run,
    "payout": _plain("payout"),
    "withhold": _plain("withhold"),
    "half": _plain("half"),
    "buy_train": _buy_train,
    "discard": _one("discard", "train"),
    "bankrupt": _plain("bankrupt"),
    "protect": _protect,
    "redeem": _redeem,
    "reissue": _one("reissue", "corp"),
    "repay": lambda a: _words("repay", a["corp"], "first"),
    "destination": lambda a: _words("destination", a.get("marker")),
    "port": lambda a: _words("port", "closed" if a.get("closed") else "open", a.get("hex"),
                             a.get("city")),
    "cattle": lambda a: _words("cattle", a["hex"], a.get("city")),
    "say": lambda a: (f"say to {', '.join(a['to'])}: {a['text']}" if a.get("to")
                      else f"say {a['text']}"),
    "auto": lambda a: _auto(a),
    "mail": _one("mail", "mode"),
    "picture": lambda a: "picture on" if a["on"] else "picture off",
    "tz": _one("tz", "zone"),
    "settings": _plain("settings"),
    "key": _plain("key new"),
    "help": _help,
    "show": _plain("show"),
    "history": lambda a: f"history {a['first']}-{a['last']}" if a.get("first") else
    _words("history", a["count"]),
    "notify": _one("notify", "mode"),
    "undo": _plain("undo"),
    "as": _as,
    "revert": lambda a: _words("revert to", a["seq"]),
    "replace": lambda a: _words("replace", a["player"], "with", a.get("person"), a["email"]),
    "end_game": _plain("end game"),
    "pause": _plain("pause"),
    "resume": _plain("resume"),
    "deadline": lambda a: f"deadline {a['hours']}h" if a.get("hours") else "deadline off",
    "extend": lambda a: f"extend {a['player']} {a['hours']}h",
    "away": lambda a: _words("away", f"until {a['until']}" if a.get("until") else
                             f"for {a['hours']}h", a.get("reason") or None),
    "back": _plain("back"),
    "list": _plain("list"),
    "undo_answer": lambda a: f"{a['answer']} undo",
    "kick": _one("kick", "player"),
}
