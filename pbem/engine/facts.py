"""Facts: the state changes a command caused.  ``apply`` only mutates, never checks.

Every fact is a plain JSON-serialisable dict with the key ``"f"`` naming its kind.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from .state import BANK, GameState, holder_name

Fact = dict[str, Any]


def _set_cash(state: GameState, holder: str, delta: int) -> None:
    if holder == BANK:
        state.bank += delta
        return
    kind, name = holder.split(":", 1)
    if kind == "p":
        state.player(name).cash += delta
    else:
        state.corps[name].cash += delta


def _cash(state: GameState, fact: Fact) -> None:
    _set_cash(state, fact["from"], -fact["amount"])
    _set_cash(state, fact["to"], fact["amount"])


def _cert(state: GameState, fact: Fact) -> None:
    state.corps[fact["corp"]].certs[fact["index"]] = fact["to"]


def _private(state: GameState, fact: Fact) -> None:
    state.privates[fact["sym"]].owner = fact["owner"]


def _private_price(state: GameState, fact: Fact) -> None:
    state.privates[fact["sym"]].price = fact["price"]


def _private_closed(state: GameState, fact: Fact) -> None:
    state.privates[fact["sym"]].closed = True


def _place_token(state: GameState, corp: str, row: int, col: int) -> None:
    state.arrivals += 1
    c = state.corps[corp]
    c.cell = (row, col)
    c.arrival = state.arrivals


def _par(state: GameState, fact: Fact) -> None:
    state.corps[fact["corp"]].par = fact["price"]
    _place_token(state, fact["corp"], fact["row"], fact["col"])


def _market(state: GameState, fact: Fact) -> None:
    """A share value token moves; arriving in a cell it goes under those there (4.5).
    ``restack``: it arrives again in the cell it stands in (1870: a sale's drop becomes
    final when its price protection is declined)."""
    cell = state.corps[fact["corp"]].cell
    if cell is not None and tuple(cell) == (fact["row"], fact["col"]) \
            and not fact.get("restack"):
        return
    _place_token(state, fact["corp"], fact["row"], fact["col"])


def _corp_set(state: GameState, fact: Fact) -> None:
    corp = state.corps[fact["corp"]]
    for key, value in fact["values"].items():
        setattr(corp, key, copy.deepcopy(value))


def _priority(state: GameState, fact: Fact) -> None:
    state.priority = fact["player"]


def _phase(state: GameState, fact: Fact) -> None:
    state.phase = fact["name"]


def _round_new(state: GameState, fact: Fact) -> None:
    state.round = copy.deepcopy(fact["round"])


def _round_set(state: GameState, fact: Fact) -> None:
    for key, value in fact["values"].items():
        state.round[key] = copy.deepcopy(value)


def _bid(state: GameState, fact: Fact) -> None:
    bids = state.round.setdefault("bids", {}).setdefault(fact["private"], {})
    bids.pop(fact["player"], None)  # a raised bid moves to the end (latest)
    bids[fact["player"]] = fact["amount"]


def _bids_cleared(state: GameState, fact: Fact) -> None:
    state.round.get("bids", {}).pop(fact["private"], None)


def _train(state: GameState, fact: Fact) -> None:
    """A train moves: from the bank (sold), a corporation or the pool, to a corporation,
    the pool or the scrap heap (obsolete)."""
    name, source, dest = fact["name"], fact["source"], fact["dest"]
    if source == BANK:
        state.trains_sold[name] = state.trains_sold.get(name, 0) + 1
    elif source == "pool":
        state.pool_trains.remove(name)
    else:
        state.corps[holder_name(source)].trains.remove(name)
    if dest == "scrap":
        state.trains_scrapped[name] = state.trains_scrapped.get(name, 0) + 1
    elif dest == "pool":
        state.pool_trains.append(name)
    else:
        state.corps[holder_name(dest)].trains.append(name)


def _private_used(state: GameState, fact: Fact) -> None:
    state.privates[fact["sym"]].used = True


def _tile(state: GameState, fact: Fact) -> None:
    from .track import lay_tile

    lay_tile(state.map, state.board, fact["hex"], fact["tile"], fact["rotation"])


def _token(state: GameState, fact: Fact) -> None:
    from .board import place_token

    place_token(state.map, state.board, fact["hex"], fact["stop"], fact["corp"])


def _token_move(state: GameState, fact: Fact) -> None:
    """A station moves to another city of the same hex (option station_retile=choose)."""
    from .board import place_token, remove_token

    for stop, corps in enumerate(state.board.tokens.get(fact["hex"], [])):
        if fact["corp"] in corps:
            remove_token(state.board, fact["hex"], stop, fact["corp"])
    place_token(state.map, state.board, fact["hex"], fact["stop"], fact["corp"])


def _ending(state: GameState, fact: Fact) -> None:
    state.ending = copy.deepcopy(fact["ending"])


def _corp_closed(state: GameState, fact: Fact) -> None:
    from .closing import apply_corp_closed

    apply_corp_closed(state, fact["corp"])


def _market_restore(state: GameState, fact: Fact) -> None:
    """A protected sale: the token goes back to its box and its place in the stack."""
    c = state.corps[fact["corp"]]
    c.cell = (fact["row"], fact["col"])
    c.arrival = fact["arrival"]


def _over_limit(state: GameState, fact: Fact) -> None:
    state.over_limit[fact["player"]] = list(fact["corps"])
    if not fact["corps"]:
        del state.over_limit[fact["player"]]


def _game_over(state: GameState, fact: Fact) -> None:
    state.finished = True
    state.result = copy.deepcopy(fact["result"])


def _marker(state: GameState, fact: Fact) -> None:
    """1870: a marker (cattle, port, destination) is put on the map or changed."""
    state.board.markers[fact["name"]] = copy.deepcopy(fact["marker"])


def _marker_removed(state: GameState, fact: Fact) -> None:
    state.board.markers.pop(fact["name"], None)


APPLIERS: dict[str, Callable[[GameState, Fact], None]] = {
    "cash": _cash,
    "cert": _cert,
    "private": _private,
    "private_price": _private_price,
    "private_closed": _private_closed,
    "par": _par,
    "market": _market,
    "corp": _corp_set,
    "priority": _priority,
    "phase": _phase,
    "round_new": _round_new,
    "round_set": _round_set,
    "bid": _bid,
    "bids_cleared": _bids_cleared,
    "train": _train,
    "game_over": _game_over,
    "private_used": _private_used,
    "tile": _tile,
    "token": _token,
    "token_move": _token_move,
    "ending": _ending,
    "corp_closed": _corp_closed,
    "market_restore": _market_restore,
    "over_limit": _over_limit,
    "marker": _marker,
    "marker_removed": _marker_removed,
}


def apply(state: GameState, fact: Fact) -> None:
    """Mutate ``state`` by one fact."""
    APPLIERS[fact["f"]](state, fact)


def describe_holder(holder: str) -> str:
    return {"ipo": "the initial offering", "pool": "the bank pool", "bank": "the bank"}.get(
        holder, holder_name(holder)
    )
