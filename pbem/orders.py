"""Standing orders: ``auto pass``, ``auto buy PRR until 60%``, ``auto cancel``, ``auto``.

A standing order is service automation, not a rule. It is set, cancelled and dropped
by events of kind ``order`` (no facts) on the game's record, and carried out with the
engine's public face (``legal_moves``, ``decide``): each command it gives is recorded
as its player's command, with the source ``auto <seq>`` (the event that set the
order), so ``pbem audit`` re-decides it like any other.

- ``auto pass``: pass in each of my turns of this private auction or stock round.
- ``auto buy PRR [ipo|pool] [until 60%]``: in each of my turns of this stock round,
  buy one PRR share if I may (from the initial offering or the pool as I say; else
  where the engine would take it), and end the turn; else pass.

An order is carried out only at the start of its player's turn (he may always act
himself first), and only with commands that are legal. It is dropped, and its player
told, when the situation it assumed changes: the round ends; for a buy order, a share
of its corporation is bought or sold by someone else, or the player's cash no longer
covers a share. One order per player: a new one replaces the old.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .engine.errors import PbemError
from .engine.game import legal_moves, to_act
from .engine.state import IPO, POOL, GameState, player_holder
from .render.tables import round_key, round_name

ORDER_KIND = "order"
#: How many commands orders may give after one request (a whole round of passes is
#: at most a few per player).
MAX_AUTO_COMMANDS = 400

Action = dict[str, Any]


class OrderError(PbemError):
    """An order cannot be set now; the message says why."""


@dataclass(frozen=True)
class Order:
    seq: int  # the event that set it
    player: str
    kind: str  # "pass" or "buy"
    round: str  # the round it is for (render.tables.round_key)
    corp: str | None = None
    source: str | None = None  # "ipo", "pool", or None: where the engine takes it
    until: int | None = None  # percent of the corporation the player holds at most

    @property
    def text(self) -> str:
        if self.kind == "pass":
            return "auto pass"
        words = ["auto buy", self.corp or "", self.source or ""]
        if self.until:
            words.append(f"until {self.until}%")
        return " ".join(w for w in words if w)

    def describe(self) -> str:
        """What the order does, in a sentence."""
        if self.kind == "pass":
            return f"{self.text}: pass in each of your turns for the rest of this round."
        where = {"ipo": " from the initial offering", "pool": " from the bank pool"}.get(
            self.source or "", "")
        limit = f" while you hold less than {self.until}% of it" if self.until else ""
        return (f"{self.text}: in each of your turns of this stock round, buy one "
                f"{self.corp} share{where}{limit} if you may, and end your turn; else pass.")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "round": self.round}
        for key in ("corp", "source", "until"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        return data


@dataclass(frozen=True)
class Drop:
    """An order dropped: whose, which, and why (a sentence for its player)."""

    order: Order
    reason: str

    @property
    def note(self) -> str:
        return f"Your standing order {self.order.text} is dropped: {self.reason}."


def current_orders(events: Iterable[Mapping[str, Any]]) -> dict[str, Order]:
    """The orders in force after these events (of kind ``order``, in seq order)."""
    orders: dict[str, Order] = {}
    for event in events:
        if event["kind"] != ORDER_KIND:
            continue
        command = event.get("command") or {}
        player = str(event["actor"])
        data = command.get("order")
        if isinstance(data, dict):
            orders[player] = Order(int(event["seq"]), player, data["kind"], data["round"],
                                   data.get("corp"), data.get("source"), data.get("until"))
        else:  # cancelled or dropped
            orders.pop(player, None)
    return orders


# -- setting ---------------------------------------------------------------------------------


def new_order(state: GameState, player: str, action: Action, seq: int) -> Order:
    """The order ``auto pass`` / ``auto buy ...`` asks for, or OrderError."""
    kind = state.round.get("kind")
    if action.get("order") == "pass":
        if kind not in ("auction", "stock"):
            raise OrderError("auto pass works in the private auction and the stock rounds; in "
                             "an operating round each company's turn needs its president.")
        return Order(seq, player, "pass", round_key(state))
    corp = str(action.get("corp"))
    if kind != "stock":
        raise OrderError(f"auto buy {corp} works in a stock round; it is the "
                         f"{round_name(state)} now.")
    if corp not in state.corps or state.corps[corp].par is None:
        raise OrderError(f"{corp} has not been started; a standing order buys shares of a "
                         "corporation that has a par value.")
    until = action.get("until")
    limit = state.rules.player_share_limit
    if until is not None and until > limit:
        raise OrderError(f"You may hold at most {limit}% of a corporation; write auto buy "
                         f"{corp} until {limit}%.")
    return Order(seq, player, "buy", round_key(state), corp, action.get("source"), until)


# -- carrying out ----------------------------------------------------------------------------


@dataclass
class Snapshot:
    """What the orders watch, before a command: the round and the certificates."""

    round: str
    certs: dict[str, list[str]] = field(default_factory=dict)


class OrderBook:
    """The orders in force in one game, while commands are decided."""

    def __init__(self, orders: Mapping[str, Order]) -> None:
        self.orders: dict[str, Order] = dict(orders)

    def __bool__(self) -> bool:
        return bool(self.orders)

    def snapshot(self, state: GameState) -> Snapshot:
        corps = {o.corp for o in self.orders.values() if o.corp}
        return Snapshot(round_key(state), {c: list(state.corps[c].certs) for c in corps})

    def changed(self, before: Snapshot, state: GameState, actor: str) -> list[Drop]:
        """The orders that a command by ``actor`` (from ``before`` to ``state``) breaks;
        they are taken out of the book."""
        drops: list[Drop] = []
        now = round_key(state)
        for player, order in list(self.orders.items()):
            reason = ""
            if order.round != now:
                reason = "the round it was for has ended"
            elif order.corp and actor != player and \
                    state.corps[order.corp].certs != before.certs.get(order.corp):
                reason = (f"{actor} bought or sold {order.corp} shares, so the situation "
                          "it assumed has changed")
            if reason:
                drops.append(Drop(order, reason))
                del self.orders[player]
        return drops

    def due(self, state: GameState) -> Order | None:
        """The order to carry out now: its player must act, at the start of his turn."""
        if state.finished or state.round.get("turn", {}).get("acted"):
            return None
        for player in to_act(state):
            order = self.orders.get(player)
            if order is not None and order.round == round_key(state):
                return order
        return None

    def commands(self, state: GameState, order: Order) -> list[Action] | Drop:
        """The commands ``order`` gives now ([] when it cannot act: its player decides),
        or the Drop when the player's cash no longer covers it."""
        moves = [m for m in legal_moves(state).get(order.player, [])]
        may_pass = any(m["action"]["type"] == "pass" for m in moves)
        if order.kind == "pass":
            return [{"type": "pass"}] if may_pass else []
        assert order.corp is not None
        holding = state.percent(order.corp, player_holder(order.player))
        if order.until is not None and holding >= order.until:
            return [{"type": "pass"}] if may_pass else []
        buys = [m for m in moves if m["action"]["type"] == "buy_share"
                and m["action"]["corp"] == order.corp and m["action"].get("count", 1) == 1
                and (order.source is None or m["action"].get("source") == order.source)]
        if buys:
            buy = dict(buys[0]["action"])
            if order.source is None:
                buy["source"] = None  # where the engine takes it, as "buy PRR" does
            return [buy]  # the turn is ended after it (see service.run_orders)
        short = self._cash_short(state, order)
        if short:
            self.orders.pop(order.player, None)
            return Drop(order, short)
        return [{"type": "pass"}] if may_pass else []

    def _cash_short(self, state: GameState, order: Order) -> str:
        """Why the player's cash no longer covers a share, or ""."""
        assert order.corp is not None
        corp = state.corps[order.corp]
        prices = []
        if order.source in (None, "ipo") and state.percent(order.corp, IPO) and corp.par:
            prices.append(corp.par)
        if order.source in (None, "pool") and state.percent(order.corp, POOL):
            price = state.price(order.corp)
            if price:
                prices.append(price)
        cash = state.player(order.player).cash
        if prices and cash < min(prices):
            return (f"your cash (${cash}) no longer covers a {order.corp} share "
                    f"(${min(prices)})")
        return ""
