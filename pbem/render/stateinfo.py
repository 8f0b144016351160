"""Small read-only lookups on a GameState that several renderings share.

These read the state and the title's data; where the answer is a rule (who may see a
treasury, which hexes a private company blocks) it follows the rule exactly as the
option or the data states it, and docs/rendering.md names the engine function that
should replace it once the engine offers one.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.engine.state import GameState, corp_holder, player_holder

from .hexview import HexView, board_view

OPEN, CORP_HIDDEN, PLAYER_HIDDEN = "open", "corporation-cash-hidden", "player-cash-hidden"


def revenue_column(state: GameState) -> str:
    """The map's revenue column for the current phase (1830: yellow, from phase 5 brown)."""
    columns = state.map.revenue_columns
    if state.phase is None:
        return columns[0]
    index = state.rules.phase(state.phase).offboard
    return columns[min(index, len(columns) - 1)]


def column_phases(state: GameState) -> list[str]:
    """For each revenue column, the first phase that uses it ("2", "5")."""
    result = []
    for i in range(len(state.map.revenue_columns)):
        first = next((p.name for p in state.rules.phases if p.offboard == i), None)
        result.append(first or "?")
    return result


def blocked_hexes(state: GameState) -> dict[str, str]:
    """Hex -> the open private company that blocks it (not yet owned by a corporation)."""
    result = {}
    for sym, private in state.privates.items():
        if private.closed or private.owner.startswith("c:"):
            continue
        for coord in state.rules.private(sym).hexes:
            result[coord] = sym
    return result


def pending_homes(state: GameState) -> dict[str, tuple[str, int | None]]:
    """Corporation -> (home hex, city) while it has no station on its home hex."""
    result = {}
    for sym, cdef in state.rules.corporations.items():
        if getattr(state.corps.get(sym), "closed", False):
            continue  # 1870: a closed company never comes back
        if not any(coord == cdef.home for coord, _ in state.board.stations(sym)):
            result[sym] = (cdef.home, cdef.home_city)
    return result


def spent_marks(state: GameState) -> frozenset[str]:
    """1870: the cattle and port marks that no longer matter: the token is on the map, or
    the private company that places it has closed."""
    spent = set()
    for sym, pdef in state.rules.privates.items():
        token = pdef.extra.get("token")
        kind = token.get("kind") if isinstance(token, dict) else None
        if kind and (kind in state.board.markers or state.privates[sym].closed):
            spent.add(str(kind))
    return frozenset(spent)


def state_board_view(state: GameState) -> dict[str, HexView]:
    return board_view(state.map, state.board, revenue_column(state), blocked_hexes(state),
                      pending_homes(state), spent_marks(state))


def tokens_left(state: GameState, corp: str) -> tuple[int, int]:
    """(station tokens not on the board, tokens in all) of a corporation (1870: a
    destination marker kept at the connection run is one more, one placed in a city
    space in station marker wars is not one of the charter's)."""
    from pbem.engine.titles.t1870.tokens import station_prices, stations_placed

    total = len(station_prices(state, corp))
    placed = stations_placed(state, corp)
    return max(total - placed, 0), total


# -- hidden information -----------------------------------------------------------------------


def visibility(state: GameState) -> str:
    return state.options.get("visibility", OPEN)


def sees_player_cash(state: GameState, viewer: str | None, player: str) -> bool:
    """Players' cash is hidden only under player-cash-hidden (V-0.1 "secret money");
    everyone always sees his own.  viewer None: the referee or the archive (all)."""
    return viewer is None or viewer == player or visibility(state) != PLAYER_HIDDEN


def sees_corp_cash(state: GameState, viewer: str | None, corp: str) -> bool:
    """Treasuries are hidden under both hiding options (C-1.1, V-0.1); the president
    sees his corporations' treasuries."""
    if viewer is None or visibility(state) == OPEN:
        return True
    return state.president(corp) == viewer


def share_value(state: GameState, holder: str) -> int:
    """Market value of all shares ``holder`` has."""
    rules = state.rules
    total = 0
    for sym in state.corps:
        price = state.price(sym)
        if price:
            total += state.percent(sym, holder) * price // rules.ordinary_percent
    return total


def private_value(state: GameState, holder: str) -> int:
    """Face value of the open private companies ``holder`` owns."""
    return sum(state.rules.private(sym).value for sym in state.privates_of(holder))


def worth(state: GameState, player: str) -> int:
    """Cash + shares at market value + private companies at face value."""
    holder = player_holder(player)
    return state.player(player).cash + share_value(state, holder) + private_value(state, holder)


def treasury_shares(state: GameState, corp: str) -> int:
    """Percent of its own shares a corporation holds (1870 redeemed shares)."""
    return state.percent(corp, corp_holder(corp))


def field(obj: object, name: str, default: object = None) -> object:
    """An attribute the engine may not have yet (read without failing)."""
    return getattr(obj, name, default)


def mapping_field(obj: object, name: str) -> Mapping[str, object]:
    value = getattr(obj, name, None)
    return value if isinstance(value, Mapping) else {}
