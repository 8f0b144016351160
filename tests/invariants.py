"""Invariants that hold after every event of any game (checked by the self-play tests)."""

from __future__ import annotations

from typing import Any

from pbem.engine.shares import (
    certificate_count,
    certificate_limit,
    corp_counts_toward_limit,
    limit_problems,
    pool_shares,
)
from pbem.engine.state import CLOSED, IPO, POOL, GameState, corp_holder, player_holder
from pbem.engine.trains import train_count, train_limit


def check(state: GameState, actor: str, action: dict[str, Any]) -> None:
    money(state)
    shares(state)
    redeemed_shares(state)
    closed_companies(state)
    privates(state)
    destination_markers(state)
    if state.phase is not None:
        trains(state)
        tiles_and_tokens(state)
    limits_after_buying(state, actor, action)
    loans(state)


def money(state: GameState) -> None:
    """Money is conserved; the bank alone may go below zero (paid on paper, 7.0)."""
    total = state.bank + sum(p.cash for p in state.players) + sum(
        c.cash for c in state.corps.values())
    assert total == state.rules.bank_cash, total
    assert all(p.cash >= 0 for p in state.players)
    assert all(c.cash >= 0 for c in state.corps.values())


def shares(state: GameState) -> None:
    rules = state.rules
    holders = {IPO, POOL} | {player_holder(n) for n in state.names}
    for sym, corp in state.corps.items():
        assert len(corp.certs) == len(rules.cert_percents(sym))
        assert sum(rules.cert_percents(sym)) == 100
        if corp.closed:
            continue
        redeemable = {corp_holder(sym)} if "redemption" in rules.extra else set()
        assert set(corp.certs) <= holders | redeemable, corp.certs
        assert corp.certs[0] != POOL
        assert pool_shares(state, sym) <= rules.pool_certificate_limit
        president = state.president(sym)
        if president is not None:
            mine = state.percent(sym, player_holder(president))
            assert mine >= rules.president_percent
            # an insolvent company keeps its administrator (1830 base game 7.7)
            assert corp.loan > 0 or \
                all(state.percent(sym, player_holder(n)) <= mine for n in state.names)
        if corp.floated:
            assert state.percent(sym, IPO) <= 100 - rules.corp_float_percent(sym) or \
                corp.reissued
        if corp.par is not None and not corp.reissued:
            assert corp.par in rules.market.par_prices


def loans(state: GameState) -> None:
    """1830 base game 7.7: while a company owes the bank, every dollar it or its
    administrator takes in repays the loan, so after each command both hold none."""
    for sym, corp in state.corps.items():
        assert corp.loan >= 0
        if corp.loan and not corp.closed:
            administrator = state.president(sym)
            assert corp.cash == 0, (sym, corp.cash)
            assert administrator is None or state.player(administrator).cash == 0


def redeemed_shares(state: GameState) -> None:
    """1870: a company holds at most four of its own shares, never the president's
    certificate, and its frozen reissue money is part of its cash (p.17-18)."""
    if "redemption" not in state.rules.extra:
        return
    most = state.rules.extra["redemption"]["max_in_treasury"]
    for sym, corp in state.corps.items():
        own = state.cert_indexes(sym, corp_holder(sym))
        assert len(own) <= most and 0 not in own, (sym, own)
        assert 0 <= corp.frozen <= corp.cash


def closed_companies(state: GameState) -> None:
    """A closed company leaves nothing behind: no certificates, stations, trains,
    money, privates or destination marker, and no token on the market (1870, p.7); a
    cattle or port token it placed stays, as it is the private company's (p.9)."""
    for sym, corp in state.corps.items():
        if not corp.closed:
            assert CLOSED not in corp.certs
            continue
        assert set(corp.certs) == {CLOSED}
        assert corp.cash == 0 and not corp.trains and corp.cell is None
        assert not list(state.board.stations(sym))
        assert not state.privates_of(corp_holder(sym))
        assert f"destination:{sym}" not in state.board.markers
        assert all(sym not in corps for corps in state.over_limit.values())


def destination_markers(state: GameState) -> None:
    """A destination marker stands on the map only for an open company that chose to
    place it at its connection run (made, or being made now), on its destination; one
    in a city space is one of its stations there; a company that placed its marker has
    it on the map, one that kept it has none there (1870 Connection Run, p.23)."""
    markers = state.board.markers
    for key, marker in markers.items():
        if not key.startswith("destination:"):
            continue
        sym = key.split(":", 1)[1]
        corp = state.corps[sym]
        making = (state.round.get("connection") or {}).get("corp") == sym
        assert not corp.closed and (corp.destination_reached or making), key
        assert corp.destination_marker == "placed", (key, corp.destination_marker)
        assert marker["hex"] == state.rules.corp(sym).destination, (key, marker)
        if marker.get("stop") is not None:
            assert sym in state.board.tokens_at(marker["hex"], marker["stop"]), (key, marker)
    for sym, corp in state.corps.items():
        placed = f"destination:{sym}" in markers
        assert placed == (corp.destination_marker == "placed" and not corp.closed), sym
        if corp.destination_reached:
            assert corp.destination_marker in ("placed", "kept"), sym


def privates(state: GameState) -> None:
    for sym, private in state.privates.items():
        assert private.owner == "bank" or private.owner.startswith(("p:", "c:")), sym
        if private.owner.startswith("p:"):
            assert private.owner[2:] in state.names


def trains(state: GameState) -> None:
    """Every train is in the bank, a corporation, the pool or gone, exactly once; and
    once excess trains are discarded every corporation is within the limit."""
    for train in state.rules.trains:
        sold = state.trains_sold.get(train.name, 0)
        held = sum(c.trains.count(train.name) for c in state.corps.values())
        assert sold == held + state.pool_trains.count(train.name) + \
            state.trains_scrapped.get(train.name, 0), train.name
        count = train_count(state, train)
        assert count is None or sold <= count
    if state.round.get("kind") != "operating" or not state.round.get("discards"):
        limit = train_limit(state)
        assert all(len(c.trains) <= limit for c in state.corps.values())


def tiles_and_tokens(state: GameState) -> None:
    board = state.board
    on_board: dict[str, int] = {}
    for tile, _ in board.tiles.values():
        on_board[tile] = on_board.get(tile, 0) + 1
    for tile, count in state.map.manifest.items():
        assert board.tiles_left.get(tile, 0) + on_board.get(tile, 0) == count, tile
        assert board.tiles_left.get(tile, 0) >= 0
    for sym in state.corps:
        stations = list(board.stations(sym))
        destination = 1 if state.rules.corp(sym).destination else 0  # 1870, p.23
        assert len(stations) <= len(state.rules.corp(sym).token_prices) + destination
        assert len({c for c, _ in stations}) == len(stations), (sym, stations)
    for coord, stops in board.tokens.items():
        current = state.map.tiles.get(board.tiles[coord][0]) if coord in board.tiles else \
            state.map.hex(coord).tile
        assert current is not None
        for i, corps in enumerate(stops):
            if corps:
                assert len(corps) <= current.stops[i].slots, (coord, corps)


def limits_after_buying(state: GameState, actor: str, action: dict[str, Any]) -> None:
    """A player who just bought a share that counts toward the certificate limit is
    within it (a share whose value is in a zone that does not count may be bought
    whatever the count, 1830 4.3)."""
    if action["type"] in ("par", "buy_share"):
        corp = action["corp"]
        if corp_counts_toward_limit(state, corp):
            assert certificate_count(state, actor) <= certificate_limit(state), (actor, corp)
        assert not [p for p in limit_problems(state, actor) if f"% of {corp}," in p]
