"""Players, corporations, bank and private companies as text tables (78 columns), for one
viewer: what the game's visibility option hides from him shows as '?'."""

from __future__ import annotations

import textwrap

from pbem.engine.shares import certificate_count, certificate_limit, extra_indexes
from pbem.engine.state import IPO, POOL, GameState, holder_name, player_holder
from pbem.engine.trains import bank_offers, left_in_bank

from .stateinfo import (
    field,
    private_value,
    sees_corp_cash,
    sees_player_cash,
    share_value,
    tokens_left,
    treasury_shares,
    worth,
)

WIDTH = 78
HIDDEN = "?"


def money(amount: int | None) -> str:
    if amount is None:
        return "-"
    return f"-${-amount}" if amount < 0 else f"${amount}"


def round_name(state: GameState) -> str:
    rnd = state.round
    kind = rnd.get("kind")
    if state.finished:
        return "game over"
    if kind == "auction":
        return "private auction"
    if kind == "stock":
        return f"stock round {rnd['number']}"
    if kind == "operating":
        return f"operating round {rnd['sr']}.{rnd['index']} of {rnd['of']}"
    return str(kind)


def round_key(state: GameState) -> str:
    """Changes exactly when a new round starts: ``auction:None.0``, ``stock:3.0``,
    ``operating:3.2``, ``over``."""
    rnd = state.round
    if state.finished:
        return "over"
    return f"{rnd.get('kind')}:{rnd.get('number', rnd.get('sr'))}.{rnd.get('index', 0)}"


def headline(state: GameState) -> str:
    """"1830 - stock round 2 - phase 3: train limit 4, tiles yellow/green, 2 ORs"."""
    text = f"{state.title} - {round_name(state)} - "
    if state.phase is None:
        return text + "phase 1 (private auction)"
    phase = state.rules.phase(state.phase)
    return (text + f"phase {phase.name}: train limit {phase.train_limit}, tiles "
            f"{'/'.join(phase.tiles)}, {phase.operating_rounds} OR"
            + ("s" if phase.operating_rounds > 1 else ""))


def active_corps(state: GameState) -> list[str]:
    """Corporations that have started (a par value or any certificate out of the IPO)."""
    return [s for s, c in state.corps.items() if c.par is not None or c.cell is not None
            or any(h != IPO for h in c.certs)]


# -- players ----------------------------------------------------------------------------------


def is_closed(state: GameState, corp: str) -> bool:
    return bool(field(state.corps[corp], "closed", False))


def share_cell(state: GameState, corp: str, name: str) -> str:
    """"60P": percent, P president, + with a certificate larger than a share (1830
    V-6.5), ! held over the share limit by price protection."""
    pct = state.percent(corp, player_holder(name))
    if not pct:
        return "."
    over = "!" if corp in over_limit(state).get(name, []) else ""
    larger = "+" if extra_indexes(state, corp, player_holder(name)) else ""
    return (f"{pct}P" if state.president(corp) == name else str(pct)) + larger + over


def larger_certificates(state: GameState) -> list[tuple[str, int, str]]:
    """(corporation, percent, holder) of each certificate larger than a share besides
    the president's (1830 V-6.5: the Erie's extra 20%), of the open companies."""
    found = []
    for sym, corp in state.corps.items():
        if is_closed(state, sym):
            continue
        for index, size in enumerate(state.rules.cert_percents(sym)):
            if index > 0 and size > state.rules.ordinary_percent:
                found.append((sym, size, corp.certs[index]))
    return found


def larger_certificate_lines(state: GameState) -> list[str]:
    """Where each certificate larger than a share is: "ERIE's extra 20% certificate
    (V-6.5): in the initial offering." """
    places = {IPO: "in the initial offering", POOL: "in the bank pool"}
    text = " ".join(f"{sym}'s extra {size}% certificate: "
                    f"{places.get(holder) or 'held by ' + holder_name(holder)}."
                    for sym, size, holder in larger_certificates(state))
    return textwrap.wrap(text, WIDTH) if text else []


def over_limit(state: GameState) -> dict[str, list[str]]:
    """1870: player -> companies held over the share limit through price protection."""
    found = field(state, "over_limit", None)
    return found if isinstance(found, dict) else {}


def player_rows(state: GameState, viewer: str | None) -> list[list[str]]:
    corps = [c for c in active_corps(state) if not is_closed(state, c)]
    rows = [["Player", "Cash", "Certs", "Worth", *corps, "Privates"]]
    limit = certificate_limit(state)
    for p in state.players:
        visible = sees_player_cash(state, viewer, p.name)
        holder = player_holder(p.name)
        value = worth(state, p.name) if visible else None
        known = share_value(state, holder) + private_value(state, holder)
        rows.append([
            ("*" if p.name == state.priority else "") + p.name,
            money(p.cash) if visible else HIDDEN,
            f"{certificate_count(state, p.name)}/{limit}",
            money(value) if value is not None else f"{money(known)}+?",
            *[share_cell(state, c, p.name) for c in corps],
            " ".join(state.privates_of(holder)) or "-",
        ])
    return rows


def players_table(state: GameState, viewer: str | None = None) -> list[str]:
    lines = table(player_rows(state, viewer), left={0, -1})
    notes = "* priority deal; shares in percent, P president; worth = cash + shares " \
            "at market + privates at face value"
    sizes = sorted({size for _, size, _ in larger_certificates(state)})
    if sizes:
        notes += f"; + with an extra {'/'.join(map(str, sizes))}% certificate (one certificate)"
    if any(over_limit(state).values()):
        notes += "; ! held over the share limit through price protection"
    if any(HIDDEN in row[1] for row in player_rows(state, viewer)[1:]):
        notes += "; ? hidden by the game's visibility option"
    return lines + textwrap.wrap(notes + ".", WIDTH) + larger_certificate_lines(state) + \
        limit_lines(state)


def limit_lines(state: GameState) -> list[str]:
    """1870: the certificate limit falls once a company has closed (p.6)."""
    closed = [s for s in state.corps if is_closed(state, s)]
    if not closed:
        return []
    open_count = len(state.corps) - len(closed)
    return textwrap.wrap(f"Certificate limit {certificate_limit(state)} with {open_count} "
                         f"companies left ({', '.join(closed)} closed).", WIDTH)


# -- corporations -----------------------------------------------------------------------------


def corp_rows(state: GameState, viewer: str | None) -> list[list[str]]:
    corps = active_corps(state)
    redeemed = "redemption" in state.rules.extra or any(treasury_shares(state, c) for c in corps)
    head = ["Corp", "President", "Cash", "Par", "Price", "IPO", "Pool"]
    head += ["Own"] * redeemed + ["Trains", "Tokens", "Done"]
    rows = [head]
    operating = state.round.get("kind") == "operating"
    # this round's: the corporation's own "operated" flag says it has ever operated
    done = set(state.round.get("operated", [])) if operating else set()
    for sym in corps:
        c = state.corps[sym]
        if is_closed(state, sym):
            rows.append([sym, "-", "-", "-", "closed"] + ["-"] * (len(head) - 5))
            continue
        left, total = tokens_left(state, sym)
        row = [
            sym + ("" if c.floated else "~"),
            state.president(sym) or "-",
            cash_cell(state, viewer, sym),
            money(c.par) + ("r" if field(c, "reissued", False) else ""),
            money(state.price(sym)),
            f"{state.percent(sym, IPO)}%", f"{state.percent(sym, POOL)}%",
        ]
        row += [f"{treasury_shares(state, sym)}%"] * redeemed
        row += [" ".join([*c.trains, *(f"({t})" for t in c.rusting)]) or "-", f"{left}/{total}",
                ("yes" if sym in done else "no") if operating and c.floated else "-"]
        rows.append(row)
    return rows


def frozen(state: GameState, corp: str) -> int:
    """1870: money from reissued shares the company may not use before the next OR."""
    value = field(state.corps[corp], "frozen", 0)
    return value if isinstance(value, int) else 0


def cash_cell(state: GameState, viewer: str | None, corp: str) -> str:
    if not sees_corp_cash(state, viewer, corp):
        return HIDDEN
    return money(state.corps[corp].cash) + ("+" if frozen(state, corp) else "")


def corps_table(state: GameState, viewer: str | None = None) -> list[str]:
    rows = corp_rows(state, viewer)
    if len(rows) == 1:
        return ["No corporation has started yet."]
    lines = table(rows, left={0, 1, len(rows[0]) - 3})
    notes = ["~ not yet floated; Tokens: station tokens left/all; Done: has operated "
             "this round"]
    if "Own" in rows[0]:
        notes.append("Own: redeemed shares in its treasury")
    if any(row[3].endswith("r") for row in rows[1:]):
        notes.append("r: the new par after a reissue")
    if any(row[2].endswith("+") for row in rows[1:]):
        notes.append("+: some of it from reissued shares (below)")
    if any(row[4] == "closed" for row in rows[1:]):
        notes.append("closed: token in the closing section, certificates, stations "
                     "and treasury gone")
    if any(row[2] == HIDDEN for row in rows[1:]):
        notes.append("? hidden by the game's visibility option")
    if any(c.rusting for c in state.corps.values()):
        notes.append("(2): an obsolete train that runs once more")
    lines += textwrap.wrap("; ".join(notes) + ".", WIDTH)
    return lines + frozen_lines(state, viewer) + destination_lines(state)


def frozen_lines(state: GameState, viewer: str | None) -> list[str]:
    """"MP $900 ($140 from reissue usable next OR)" for each company that has some."""
    parts = [f"{sym} {money(c.cash)} ({money(frozen(state, sym))} from reissue usable "
             "next OR)" for sym, c in state.corps.items()
             if frozen(state, sym) and sees_corp_cash(state, viewer, sym)]
    return textwrap.wrap("Cash: " + "; ".join(parts), WIDTH) if parts else []


def destination_lines(state: GameState) -> list[str]:
    """1870 destinations (Connection Run, p.22-23): where each company wants to go, and
    once its connection run is done what became of its destination marker."""
    lines = []
    for sym in active_corps(state):
        cdef = state.rules.corp(sym)
        dest = field(cdef, "destination")
        if not dest or is_closed(state, sym):
            continue
        name = field(cdef, "destination_name")
        where = f"{name} ({dest})" if name else str(dest)
        c = state.corps[sym]
        marker = field(c, "destination_marker")
        if field(c, "destination_reached", False) or marker:
            status = "reached" if field(c, "destination_reached", False) else \
                "connection run under way"
            if marker == "placed":
                status += (f", marker on {dest} (doubles {name or dest} at the end of "
                           f"{sym}'s routes)")
            elif marker == "kept":
                status += ", marker kept as one more $100 station marker"
        else:
            status = "not yet connected"
        lines += textwrap.wrap(f"  {sym} to {where}: {status}", WIDTH, subsequent_indent="    ")
    return ["Destinations:"] + lines if lines else []


# -- bank and privates ------------------------------------------------------------------------


def bank_lines(state: GameState) -> list[str]:
    cash = state.bank
    text = f"Bank: {money(cash)}" if cash >= 0 else \
        f"Bank: broken, {money(-cash)} paid in paper debt"
    lines = [text]
    offers = {t.name for t in bank_offers(state)} if state.phase else set()
    trains = []
    for train in state.rules.trains:
        left = left_in_bank(state, train)
        count = "unlimited" if left is None else f"{left} left"
        if left == 0:
            continue
        mark = " FOR SALE" if train.name in offers else ""
        trade = train.extra.get("trade_in")
        extra = f" (or {money(trade['price'])} trading in a " \
                f"{'/'.join(trade['trains'])})" if trade else ""
        trains.append(f"{train.name}-train {money(train.price)}{extra}, {count}{mark}")
    lines += textwrap.wrap("Trains: " + "; ".join(trains), WIDTH, subsequent_indent="  ")
    if state.pool_trains:
        lines.append("In the bank pool: " + ", ".join(state.pool_trains))
    lines += next_phase_lines(state)
    lines += tiles_left_lines(state)
    return lines


def next_phase_lines(state: GameState) -> list[str]:
    names = [p.name for p in state.rules.phases]
    if state.phase is None or state.phase not in names:
        return []
    later = state.rules.phases[names.index(state.phase) + 1:]
    if not later:
        return ["This is the last phase."]
    nxt = later[0]
    return textwrap.wrap(f"Next: phase {nxt.name} with the first {nxt.on_train}-train (train "
                         f"limit {nxt.train_limit}, tiles {'/'.join(nxt.tiles)}).", WIDTH,
                         subsequent_indent="  ")


def tiles_left_lines(state: GameState) -> list[str]:
    """Tiles in the supply by colour, e.g. "yellow 1, 2, 3x2, 7x4"."""
    board_map = state.map
    parts = []
    for colour in ("yellow", "green", "brown", "gray"):
        ids = [t for t in board_map.manifest if board_map.tiles[t].colour == colour]
        shown = [t if state.board.tiles_left.get(t, 0) == 1 else
                 f"{t}x{state.board.tiles_left.get(t, 0)}"
                 for t in ids if state.board.tiles_left.get(t, 0) > 0]
        if shown:
            parts.append(f"{colour} {' '.join(shown)}")
    return textwrap.wrap("Tiles left: " + "; ".join(parts), WIDTH, subsequent_indent="  ")


def privates_lines(state: GameState) -> list[str]:
    rows = [["Private", "Name", "Owner", "Value", "Income", "Status"]]
    for sym, private in state.privates.items():
        pdef = state.rules.private(sym)
        owner = "-" if private.owner == "bank" else holder_name(private.owner)
        status = "closed" if private.closed else (
            f"for sale {money(private.price)}" if private.owner == "bank" else "open")
        rows.append([sym, pdef.name, owner, money(pdef.value), money(pdef.revenue), status])
    return table(rows, left={0, 1, 2, 5}) + bid_lines(state)


def bid_lines(state: GameState) -> list[str]:
    """Bids standing in the private auction, per private company, in the order made."""
    if state.round.get("kind") != "auction":
        return []
    parts = [f"{sym}: " + ", ".join(f"{n} {money(v)}" for n, v in bids.items())
             for sym, bids in (state.round.get("bids") or {}).items() if bids]
    return textwrap.wrap("Bids: " + "; ".join(parts), WIDTH) if parts else []


# -- layout ----------------------------------------------------------------------------------


def table(rows: list[list[str]], left: set[int]) -> list[str]:
    """Columns padded to their widest cell; columns in ``left`` left-aligned (-1: last)."""
    n = len(rows[0])
    aligned_left = {i % n for i in left}
    widths = [max(len(row[i]) for row in rows) for i in range(n)]
    lines = []
    for row in rows:
        cells = [row[i].ljust(widths[i]) if i in aligned_left else row[i].rjust(widths[i])
                 for i in range(n)]
        lines.append(" ".join(cells).rstrip())
    return lines


def holdings_text(state: GameState, viewer: str) -> str:
    """What ``viewer`` holds, in a few lines (compact mails): the headline, his cash,
    certificates, worth, shares and privates, and each corporation he presides."""
    lines = textwrap.wrap(headline(state), WIDTH, subsequent_indent="  ")
    holder = player_holder(viewer)
    shares = []
    for corp in active_corps(state):
        pct = state.percent(corp, holder)
        if pct and not is_closed(state, corp):
            role = " president" if state.president(corp) == viewer else ""
            larger = "".join(f" (with the {state.cert_percent(corp, i)}% certificate)"
                             for i in extra_indexes(state, corp, holder))
            shares.append(f"{corp} {pct}%{role}{larger} at {money(state.price(corp))}")
    player = state.player(viewer)
    text = (f"{viewer}: {money(player.cash)}, {certificate_count(state, viewer)}/"
            f"{certificate_limit(state)} certificates, worth {money(worth(state, viewer))}; "
            f"shares: {', '.join(shares) or 'none'}; privates: "
            f"{' '.join(state.privates_of(holder)) or 'none'}.")
    lines += textwrap.wrap(text, WIDTH, subsequent_indent="  ")
    for corp in active_corps(state):
        if state.president(corp) != viewer or is_closed(state, corp):
            continue
        c = state.corps[corp]
        left, total = tokens_left(state, corp)
        text = (f"{corp} (yours): {cash_cell(state, viewer, corp)}, trains "
                f"{' '.join(c.trains) or 'none'}, tokens {left}/{total}, initial offering "
                f"{state.percent(corp, IPO)}%, pool {state.percent(corp, POOL)}%.")
        lines += textwrap.wrap(text, WIDTH, subsequent_indent="  ")
    return "\n".join(lines)


def tables_text(state: GameState, viewer: str | None = None) -> str:
    lines = textwrap.wrap(headline(state), WIDTH, subsequent_indent="  ") + [""]
    lines += players_table(state, viewer) + [""]
    lines += corps_table(state, viewer) + [""] + bank_lines(state) + [""]
    lines += privates_lines(state)
    return "\n".join(lines)
