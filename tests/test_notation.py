"""The command language (pbem.notation): lenient reading, strict printing, clear errors."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.engine.actions import ENGINE_TYPES
from pbem.mail.processing.catalog import CATALOG
from pbem.notation import (
    HELP_TOPICS,
    PROPOSED_TYPES,
    SIDES,
    NotationError,
    ParseContext,
    closest,
    context_for_1830,
    context_for_1870,
    format_action,
    parse_command,
    parse_commands,
    split_commands,
)
from pbem.notation.lexicon import VERB_OF
from pbem.notation.parser import _HANDLERS
from pbem.notation.printer import _PRINTERS

PLAYERS = ["Alice", "Bob", "Carol", "Dan Smith"]


def auction(in_auction: bool = False) -> ParseContext:
    return context_for_1830("auction", PLAYERS, in_auction=in_auction)


def stock() -> ParseContext:
    return context_for_1830("stock", PLAYERS)


def operating() -> ParseContext:
    return context_for_1830("operating", PLAYERS)


def read(text: str, ctx: ParseContext | None = None) -> dict[str, Any]:
    return parse_command(text, ctx or stock())


def error(text: str, ctx: ParseContext | None = None) -> NotationError:
    with pytest.raises(NotationError) as caught:
        parse_command(text, ctx or stock())
    return caught.value


# Private auction


@pytest.mark.parametrize(
    "text",
    ["bid CA 170", "bid 170 CA", "bid 170 on CA", "BID ca $170", "bid CA 170$", "  bid ,CA, 170 "],
)
def test_bid_reads_private_and_amount_in_any_order_and_case(text: str) -> None:
    assert read(text, auction()) == {"type": "bid", "private": "CA", "amount": 170}


def test_bid_without_private_is_allowed_only_between_bidders() -> None:
    assert read("bid 175", auction(in_auction=True)) == {
        "type": "bid",
        "private": None,
        "amount": 175,
    }
    assert read("bid CA 175", auction(in_auction=True))["private"] == "CA"
    assert "which private company" in error("bid 175", auction()).message


def test_buy_alone_buys_the_cheapest_private_in_the_auction() -> None:
    assert read("buy", auction()) == {"type": "buy_private"}
    assert read("buy SV", auction()) == {"type": "buy_private", "private": "SV"}
    assert "buy PRR" in error("buy", stock()).message


def test_bo_is_the_private_in_the_auction_and_the_corporation_in_a_stock_round() -> None:
    assert read("buy BO", auction()) == {"type": "buy_private", "private": "BO"}
    assert read("buy B&O", auction()) == {"type": "buy_private", "private": "BO"}
    assert read("buy BO", stock())["corp"] == "B&O"
    assert read("par BO 100", auction()) == {"type": "par", "corp": "B&O", "price": 100}


def test_bo_after_private_or_in_exchange_or_a_bid_is_the_private() -> None:
    assert read("exchange BO")["private"] == "BO"
    assert read("bid BO 100", stock())["private"] == "BO"
    assert read("sell private B&O to Bob for 80")["private"] == "BO"
    assert read("buy private BO from Alice for 140", operating())["private"] == "BO"
    assert read("buy BO from Alice for 140", operating())["private"] == "BO"


def test_private_aliases_are_accepted() -> None:
    assert read("bid C&SL 45", auction())["private"] == "CS"
    assert read("bid d&h 70", auction())["private"] == "DH"


# Stock round


@pytest.mark.parametrize(
    "text", ["par PRR 82", "par PRR at 82", "par 82 PRR", "par prr $82", "buy PRR par 82",
             "buy PRR at par 82", "start PRR at 82"]
)  # fmt: skip
def test_par_forms(text: str) -> None:
    assert read(text) == {"type": "par", "corp": "PRR", "price": 82}


@pytest.mark.parametrize(
    ("text", "corp", "source", "count"),
    [
        ("buy PRR", "PRR", None, 1),
        ("buy PRR pool", "PRR", "pool", 1),
        ("buy PRR from pool", "PRR", "pool", 1),
        ("buy PRR from the bank pool", "PRR", "pool", 1),
        ("buy PRR ipo", "PRR", "ipo", 1),
        ("buy PRR from ipo", "PRR", "ipo", 1),
        ("buy PRR initial", "PRR", "ipo", 1),
        ("buy a share of PRR from the initial offering", "PRR", "ipo", 1),
        ("buy 3 NYC pool", "NYC", "pool", 3),
        ("buy 3 NYC from the pool", "NYC", "pool", 3),
        ("buy 3 shares of nyc", "NYC", None, 3),
        ("buy nnh", "NYNH", None, 1),
    ],
)
def test_buy_share_forms(text: str, corp: str, source: str | None, count: int) -> None:
    assert read(text) == {"type": "buy_share", "corp": corp, "source": source, "count": count}


def test_buy_share_number_after_the_symbol_is_explained() -> None:
    assert error("buy PRR 82").suggestions == ["par PRR 82"]
    assert error("buy NYC 3").suggestions == ["buy 3 NYC"]


def test_bank_alone_is_ambiguous_between_pool_and_ipo() -> None:
    assert "pool" in error("buy PRR from bank").reason


@pytest.mark.parametrize(
    "text",
    ["sell 2 PRR, 1 NYC", "sell 2 PRR 1 NYC", "sell 2 PRR and 1 NYC", "sell PRR 2 NYC 1",
     "sell 2 shares of PRR, a share of NYC", "SELL 2 prr,1 nyc"],
)  # fmt: skip
def test_sell_lists_keep_their_order(text: str) -> None:
    assert read(text) == {
        "type": "sell",
        "sales": [{"corp": "PRR", "count": 2}, {"corp": "NYC", "count": 1}],
    }


def test_sell_one_share_without_a_count() -> None:
    assert read("sell PRR") == {"type": "sell", "sales": [{"corp": "PRR", "count": 1}]}
    assert read("sell NYC, 2 B&O")["sales"] == [
        {"corp": "NYC", "count": 1},
        {"corp": "B&O", "count": 2},
    ]


def test_selling_a_private_without_the_word_private_is_explained() -> None:
    assert "sell private DH" in error("sell DH").reason


@pytest.mark.parametrize(
    "text",
    ["sell private DH to Bob for 80", "sell private DH to bob for $80", "sell DH to BOB 80",
     "sell private d&h for 80 to Bob"],
)  # fmt: skip
def test_sell_private_to_a_player_uses_the_registered_spelling(text: str) -> None:
    assert read(text) == {"type": "sell_private", "private": "DH", "to": "Bob", "price": 80}


def test_player_names_with_spaces() -> None:
    assert read("sell private DH to dan smith for 80")["to"] == "Dan Smith"


@pytest.mark.parametrize(
    ("text", "expected"),
    [("sell private MH to A for 100", {"type": "sell_private", "private": "MH", "to": "A",
                                      "price": 100}),
     ("sell private MH to a for 100", {"type": "sell_private", "private": "MH", "to": "A",
                                      "price": 100}),
     ("buy private MH from A for 100", {"type": "buy_private", "private": "MH", "from": "A",
                                       "price": 100}),
     ("kick A", {"type": "kick", "player": "A"}),
     ("buy a share of PRR", {"type": "buy_share", "corp": "PRR", "source": None,
                             "count": 1})],
)  # fmt: skip
def test_a_player_called_a_can_be_named(text: str, expected: dict[str, object]) -> None:
    """Issue 13: 'sell private MH to A for 100' was refused ("'for' is not a player"):
    the name was dropped as the article 'a'."""
    ctx = context_for_1830("stock", ["A", "Bob"])
    if expected["type"] == "buy_private":
        ctx = context_for_1830("operating", ["A", "Bob"])
    assert parse_command(text, ctx) == expected


def test_unknown_player_lists_the_players() -> None:
    caught = error("sell private DH to Bbo for 80")
    assert "the players are Alice, Bob, Carol, Dan Smith" in caught.message
    assert caught.suggestions == ["sell private DH to Bob for 80"]


def test_exchange_forms() -> None:
    assert read("exchange MH") == {"type": "exchange", "private": "MH"}
    assert read("exchange M&H for a NYC share") == {"type": "exchange", "private": "MH"}


@pytest.mark.parametrize(
    ("text", "kind"),
    [("pass", "pass"), ("done", "pass"), ("Done.", "pass"), ("end turn", "pass"),
     ("accept", "accept"), ("decline", "decline"), ("reject", "decline")],
)  # fmt: skip
def test_turn_ending_and_answering_words(text: str, kind: str) -> None:
    assert read(text) == {"type": kind}


def test_end_alone_is_not_a_pass() -> None:
    assert error("end").suggestions == ["pass"]


def test_bare_verbs_refuse_extra_words() -> None:
    caught = error("pass CA")
    assert "takes nothing after it" in caught.reason
    assert caught.suggestions == ["pass"]


# Operating round


@pytest.mark.parametrize(
    "text",
    ["lay 57 H12 SW-NE", "lay 57 h12 sw ne", "lay 57 H12 SW,NE", "lay tile 57 on H12 sw/ne",
     "lay H12 57 southwest northeast"],
)  # fmt: skip
def test_lay_reads_tile_hex_and_exits(text: str) -> None:
    assert read(text, operating()) == {
        "type": "lay",
        "tile": "57",
        "hex": "H12",
        "exits": ["SW", "NE"],
        "with": None,
    }


def test_lay_without_exits_and_with_a_private_ability() -> None:
    assert read("lay 57 H12", operating())["exits"] is None
    assert read("lay 57 B20 SW-NE with CS", operating())["with"] == "CS"


def test_lay_refuses_an_unknown_side() -> None:
    assert "the sides are SW, W, NW, NE, E, SE" in error("lay 57 H12 SW-NN", operating()).reason


@pytest.mark.parametrize(
    ("text", "hex_", "city", "using"),
    [("token E19", "E19", None, None), ("token G19 2", "G19", 2, None),
     ("token g19 city 2", "G19", 2, None), ("token F16 with DH", "F16", None, "DH"),
     ("station in E19", "E19", None, None)],
)  # fmt: skip
def test_token_forms(text: str, hex_: str, city: int | None, using: str | None) -> None:
    assert read(text, operating()) == {"type": "token", "hex": hex_, "city": city, "with": using}


ROUTES = [{"train": "3", "stops": ["H12", "I15", "J14"]}, {"train": "2", "stops": ["E19", "F20"]}]


@pytest.mark.parametrize(
    "text",
    ["run 3: H12-I15-J14, 2: E19-F20", "run 3: H12-I15-J14; 2: E19-F20",
     "run 3 h12 i15 j14 2 e19 f20", "run 3-train: H12-I15-J14, 2-train: E19-F20",
     "run 3: H12, I15, J14; 2: E19, F20"],
)  # fmt: skip
def test_run_reads_routes(text: str) -> None:
    assert read(text, operating()) == {"type": "run", "routes": ROUTES}


def test_run_alone_leaves_routes_to_the_service() -> None:
    assert read("run", operating()) == {"type": "run", "routes": None}


def test_run_needs_a_train_before_its_stops_and_two_stops() -> None:
    assert "which train" in error("run H12-I15", operating()).reason
    assert "at least two stops" in error("run 3: H12", operating()).reason
    assert "the trains are" not in error("run 7: H12-I15", operating()).reason
    assert "neither a train" in error("run 7: H12-I15", operating()).reason


@pytest.mark.parametrize(
    ("text", "kind"),
    [("payout", "payout"), ("pay", "payout"), ("pay out", "payout"), ("withhold", "withhold"),
     ("keep", "withhold"), ("half", "half"), ("pay half", "half")],
)  # fmt: skip
def test_dividend_words(text: str, kind: str) -> None:
    assert read(text, operating()) == {"type": kind}


def train(train: str | None = None, source: str | None = None, price: int | None = None,
          trade: str | None = None) -> dict[str, Any]:  # fmt: skip
    return {"type": "buy_train", "train": train, "source": source, "price": price, "trade": trade}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("buy train", train()),
        ("buy train 4", train("4")),
        ("buy a 4-train", train("4")),
        ("buy train 4 pool", train("4", "pool")),
        ("buy train 4 from the pool", train("4", "pool")),
        ("buy train d trade 5", train("D", trade="5")),
        ("buy train D trade in a 5-train", train("D", trade="5")),
        ("buy train 3 from NYC for 150", train("3", "NYC", 150)),
        ("buy train 3 from nyc for $150", train("3", "NYC", 150)),
        ("buy 4", train("4")),
    ],
)
def test_buy_train_forms(text: str, expected: dict[str, Any]) -> None:
    assert read(text, operating()) == expected


def test_buy_train_price_needs_for() -> None:
    assert "for 300" in error("buy train 4 300", operating()).reason


def test_discard_and_buying_a_private_from_a_player() -> None:
    assert read("discard 3", operating()) == {"type": "discard", "train": "3"}
    assert read("discard a 3-train", operating()) == {"type": "discard", "train": "3"}
    assert read("buy private DH from alice for 140", operating()) == {
        "type": "buy_private",
        "private": "DH",
        "from": "Alice",
        "price": 140,
    }
    assert "say the price" in error("buy private DH from Alice", operating()).reason


def test_1870_commands() -> None:
    ctx = context_for_1870("operating", PLAYERS)
    assert read("protect", ctx) == {"type": "protect"}
    assert read("redeem MP", ctx) == {"type": "redeem", "corp": "MP"}
    assert read("reissue a share of mp", ctx) == {"type": "reissue", "corp": "MP"}
    assert read("destination", ctx) == {"type": "destination"}
    assert read("port open M20", ctx) == {"type": "port", "hex": "M20"}
    assert read("port M20", ctx) == {"type": "port", "hex": "M20"}
    assert read("open port m20", ctx) == {"type": "port", "hex": "M20"}
    assert read("cattle E12", ctx) == {"type": "cattle", "hex": "E12"}
    assert read("buy train 8", ctx)["train"] == "8"


def test_1870_slsf_is_the_private_in_the_auction_and_the_corporation_later() -> None:
    assert read("buy SLSF", context_for_1870("auction", PLAYERS))["private"] == "SLSF"
    assert read("buy SLSF", context_for_1870("stock", PLAYERS))["corp"] == "SLSF"


# Any time and referee


def test_say_keeps_the_text_verbatim() -> None:
    text = "Good luck; and DON'T   buy the B&O!"
    assert read(f"say {text}") == {"type": "say", "text": text}
    assert "words to pass on" in error("say").reason


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("help", {"type": "help", "topic": None}),
        ("help bid", {"type": "help", "topic": "bid"}),
        ("help buy train", {"type": "help", "topic": "buy train"}),
        ("help done", {"type": "help", "topic": "pass"}),
        ("show", {"type": "show"}),
        ("show board", {"type": "show"}),
        ("history", {"type": "history", "count": 20}),
        ("history 50", {"type": "history", "count": 50}),
        ("notify every", {"type": "notify", "mode": "every"}),
        ("notify me every round", {"type": "notify", "mode": "round"}),
        ("notify turn", {"type": "notify", "mode": "turn"}),
        ("undo", {"type": "undo"}),
    ],
)
def test_any_time_commands(text: str, expected: dict[str, Any]) -> None:
    assert read(text, operating()) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("as alice pass", {"type": "as", "player": "Alice", "action": {"type": "pass"}}),
        ("as Dan Smith say hi", {"type": "as", "player": "Dan Smith",
                                 "action": {"type": "say", "text": "hi"}}),
        ("revert to 123", {"type": "revert", "seq": 123}),
        ("replace Alice with new@example.org",
         {"type": "replace", "player": "Alice", "person": None, "email": "new@example.org"}),
        ("replace Alice with Ben ben@example.org",
         {"type": "replace", "player": "Alice", "person": "Ben", "email": "ben@example.org"}),
        ("extend alice 24h", {"type": "extend", "player": "Alice", "hours": 24}),
        ("extend Alice by 2 days", {"type": "extend", "player": "Alice", "hours": 48}),
        ("deadline off", {"type": "deadline", "hours": None}),
        ("pause", {"type": "pause"}),
        ("resume", {"type": "resume"}),
        ("deadline 72h", {"type": "deadline", "hours": 72}),
        ("deadline 3 days", {"type": "deadline", "hours": 72}),
        ("kick bob", {"type": "kick", "player": "Bob"}),
        ("take group 2", {"type": "take_group", "group": 2}),
    ],
)  # fmt: skip
def test_referee_commands(text: str, expected: dict[str, Any]) -> None:
    assert read(text) == expected


def test_as_cannot_be_nested() -> None:
    assert "inside 'as'" in error("as Alice as Bob pass").reason


# Amounts


@pytest.mark.parametrize("amount", ["1100", "$1100", "1100$", "$1,100", "1,100", "1100.00"])
def test_amounts_accept_dollar_signs_and_thousands(amount: str) -> None:
    assert read(f"buy train D for {amount}", operating())["price"] == 1100


def test_amounts_must_be_whole_dollars() -> None:
    caught = error("bid CA 170.5", auction())
    assert "'170.5' is not a whole number of dollars" in caught.message


@pytest.mark.parametrize("text", ["bid CA 0", "bid CA -5", "par PRR $0"])
def test_amounts_must_be_positive(text: str) -> None:
    error(text, auction())


def test_counts_must_be_positive_whole_numbers() -> None:
    assert "at least 1" in error("sell 0 PRR").reason
    assert "whole number" in error("buy 1.5 PRR").reason


# Error messages


def test_unknown_verb_is_explained_with_the_repaired_command() -> None:
    caught = error("biid CA 170", auction())
    assert caught.message == (
        "I did not understand 'biid CA 170': 'biid' is not a command. Did you mean: bid CA 170?"
    )
    assert caught.text == "biid CA 170"
    assert caught.suggestions == ["bid CA 170"]


def test_unknown_corporation_lists_the_corporations() -> None:
    caught = error("buy CX")
    assert (
        "'CX' is not a corporation in 1830; the corporations are "
        "PRR, NYC, CPR, B&O, C&O, ERIE, NYNH, B&M" in caught.message
    )


def test_a_word_that_is_not_money_is_named() -> None:
    assert error("bid CA seventy", auction()).reason == "'seventy' is not an amount of money"
    assert error("par PRR eighty").reason == "'eighty' is not an amount of money"


def test_errors_suggest_the_closest_legal_commands() -> None:
    ctx = auction()
    ctx.legal = ["buy SV", "bid CS 45", "bid DH 75", "bid CA 165", "pass"]
    caught = error("bid CX 170", ctx)
    assert caught.suggestions[0].startswith("bid ")
    assert "pass" not in caught.suggestions


def test_a_long_command_is_quoted_short() -> None:
    caught = error("frobnicate " + "x" * 200)
    assert len(caught.message) < 200


def test_semicolons_inside_one_command_are_refused() -> None:
    assert "one command at a time" in error("pass; pass").reason


# Several commands


def test_parse_commands_splits_lines_and_semicolons_and_keeps_errors() -> None:
    parsed = parse_commands("buy PRR; buy NYC pool\n\n sell 2 PRR\nbiid 3\n", stock())
    assert [(p.line, p.text) for p in parsed] == [
        (1, "buy PRR"),
        (1, "buy NYC pool"),
        (3, "sell 2 PRR"),
        (4, "biid 3"),
    ]
    assert [p.ok for p in parsed] == [True, True, True, False]
    assert parsed[1].action == {"type": "buy_share", "corp": "NYC", "source": "pool", "count": 1}
    assert parsed[3].error is not None and "'biid' is not a command" in parsed[3].error.message


@pytest.mark.parametrize(
    ("line", "commands"),
    [("run; payout; buy train", ["run", "payout", "buy train"]),
     ("run 3: H12-I15-J14; 2: E19-F20; payout", ["run 3: H12-I15-J14; 2: E19-F20", "payout"]),
     ("run 3-train: H12-I15-J14; 2 E19 F20; withhold; done",
      ["run 3-train: H12-I15-J14; 2 E19 F20", "withhold", "done"]),
     ("run nothing; done", ["run nothing", "done"]),
     ("as Bob run; payout", ["as Bob run", "payout"])],
)  # fmt: skip
def test_run_takes_its_routes_up_to_the_next_command(line: str, commands: list[str]) -> None:
    """Issue 13: the README's own 'run; payout; buy train' was refused ("'payout' is
    neither a train nor a hex")."""
    assert [c for _, c in split_commands(line, operating())] == commands
    for command in commands:
        parse_command(command, operating())


def test_run_and_say_take_the_rest_of_their_line() -> None:
    text = "pass; say hi; bye\nrun 3: H12-I15-J14; 2: E19-F20\nas Bob run 2: E19-F20; 3: H12-I15"
    commands = [command for _, command in split_commands(text, operating())]
    assert commands == [
        "pass",
        "say hi; bye",
        "run 3: H12-I15-J14; 2: E19-F20",
        "as Bob run 2: E19-F20; 3: H12-I15",
    ]
    parsed = parse_commands(text, operating())
    assert all(p.ok for p in parsed)
    assert parsed[2].action == {"type": "run", "routes": ROUTES}


def test_bullets_are_ignored() -> None:
    assert [p.action for p in parse_commands("- pass\n* done", stock())] == [
        {"type": "pass"},
        {"type": "pass"},
    ]


# Printing


@pytest.mark.parametrize(
    ("action", "text"),
    [
        ({"type": "bid", "private": "CA", "amount": 170}, "bid CA 170"),
        ({"type": "bid", "private": None, "amount": 175}, "bid 175"),
        ({"type": "buy_private"}, "buy"),
        ({"type": "buy_private", "private": "SV"}, "buy SV"),
        ({"type": "par", "corp": "PRR", "price": 82}, "par PRR 82"),
        ({"type": "buy_share", "corp": "PRR", "source": None, "count": 1}, "buy PRR"),
        ({"type": "buy_share", "corp": "PRR", "source": "ipo", "count": 1}, "buy PRR ipo"),
        ({"type": "buy_share", "corp": "PRR", "source": "pool", "count": 1}, "buy PRR pool"),
        ({"type": "buy_share", "corp": "NYC", "source": "pool", "count": 3}, "buy 3 NYC pool"),
        ({"type": "sell", "sales": [{"corp": "PRR", "count": 2}, {"corp": "NYC", "count": 1}]},
         "sell 2 PRR, 1 NYC"),
        ({"type": "exchange", "private": "MH"}, "exchange MH"),
        ({"type": "sell_private", "private": "DH", "to": "Bob", "price": 80},
         "sell private DH to Bob for 80"),
        ({"type": "pass"}, "pass"),
        ({"type": "lay", "tile": "57", "hex": "H12", "exits": ["SW", "NE"], "with": None},
         "lay 57 H12 SW-NE"),
        ({"type": "lay", "tile": "57", "hex": "B20", "exits": None, "with": "CS"},
         "lay 57 B20 with CS"),
        ({"type": "token", "hex": "G19", "city": 2, "with": None}, "token G19 2"),
        ({"type": "run", "routes": ROUTES}, "run 3: H12-I15-J14, 2: E19-F20"),
        ({"type": "run", "routes": None}, "run"),
        (train("4", "pool"), "buy train 4 pool"),
        (train("3", "NYC", 150), "buy train 3 from NYC for 150"),
        (train("D", trade="5"), "buy train D trade 5"),
        ({"type": "buy_private", "private": "DH", "from": "Alice", "price": 140},
         "buy private DH from Alice for 140"),
        ({"type": "history", "count": 20}, "history 20"),
        ({"type": "deadline", "hours": 72}, "deadline 72h"),
        ({"type": "as", "player": "Alice", "action": {"type": "pass"}}, "as Alice pass"),
    ],
)  # fmt: skip
def test_format_action_canonical_texts(action: dict[str, Any], text: str) -> None:
    assert format_action(action) == text


def test_format_action_refuses_an_unknown_type() -> None:
    with pytest.raises(ValueError):
        format_action({"type": "teleport"})


def test_every_action_type_of_the_contract_can_be_printed() -> None:
    assert ENGINE_TYPES | CATALOG.service_types | PROPOSED_TYPES == set(_PRINTERS)


def test_every_verb_has_a_canonical_verb_and_help_topic() -> None:
    assert set(_HANDLERS) | {"say", "as", "away"} == set(VERB_OF)
    assert set(VERB_OF.values()) <= set(HELP_TOPICS)


# closest


LEGAL = ["buy SV", "bid CS 45", "bid DH 75", "bid MH 115", "bid CA 165", "pass"]


def test_closest_prefers_the_same_verb() -> None:
    assert closest("biid CA 170", LEGAL)[0] == "bid CA 165"
    assert closest("buy", LEGAL)[0] == "buy SV"


def test_closest_returns_at_most_n_and_drops_unlike_commands() -> None:
    assert len(closest("bid", LEGAL, n=2)) == 2
    assert closest("zzzzzzzzzzzzzzzz", LEGAL) == []
    assert closest("pass", []) == []


def test_closest_counts_synonyms_as_the_same_verb() -> None:
    assert closest("done", ["bid CA 165", "pass"])[0] == "pass"


# Context


def test_context_refuses_an_unknown_round_kind() -> None:
    with pytest.raises(ValueError):
        context_for_1830("lunch", PLAYERS)


# Properties

HEXES = st.builds(
    lambda row, col: f"{row}{col}", st.sampled_from("ABCDEFGHIJKLMNO"), st.integers(1, 24)
)
AMOUNTS = st.integers(1, 20_000)
PLAYER = st.sampled_from(PLAYERS)
SAY_TEXT = st.text(min_size=1, max_size=40).map(lambda t: " ".join(t.split())).filter(bool)


def actions_1830() -> st.SearchStrategy[tuple[ParseContext, dict[str, Any]]]:
    ctx = context_for_1830("stock", PLAYERS)
    corp = st.sampled_from(ctx.corporation_symbols)
    private = st.sampled_from(ctx.private_symbols)
    trains = st.sampled_from(ctx.train_names)
    in_auction = st.just(auction(in_auction=True))
    in_stock = st.just(stock())
    in_or = st.just(operating())

    def pair(ctx_: st.SearchStrategy[ParseContext], action: Any) -> Any:
        return st.tuples(ctx_, action)

    def typed(kind: str, **fields: Any) -> Any:
        return st.fixed_dictionaries({"type": st.just(kind), **fields})

    auction_actions = st.one_of(
        st.just({"type": "buy_private"}),
        typed("buy_private", private=private),
        typed("bid", private=st.none() | private, amount=AMOUNTS),
        typed("pass"),
        typed("take_group", group=st.integers(1, 9)),
    )
    stock_actions = st.one_of(
        typed("par", corp=corp, price=AMOUNTS),
        typed("buy_share", corp=corp, source=st.sampled_from([None, "ipo", "pool"]),
              count=st.integers(1, 10)),
        typed("sell", sales=st.lists(typed("", corp=corp, count=st.integers(1, 10)).map(
            lambda s: {"corp": s["corp"], "count": s["count"]}), min_size=1, max_size=4)),
        typed("exchange", private=private),
        typed("sell_private", private=private, to=PLAYER, price=AMOUNTS),
        typed("accept"), typed("decline"), typed("pass"),
    )  # fmt: skip
    or_actions = st.one_of(
        typed("lay", tile=st.integers(1, 999).map(str), hex=HEXES,
              exits=st.none() | st.lists(st.sampled_from(SIDES), min_size=1, max_size=6),
              **{"with": st.none() | private}),
        typed("token", hex=HEXES, city=st.none() | st.integers(1, 2),
              **{"with": st.none() | private}),
        typed("run", routes=st.none() | st.lists(
            typed("", train=trains, stops=st.lists(HEXES, min_size=2, max_size=8)).map(
                lambda r: {"train": r["train"], "stops": r["stops"]}), min_size=1, max_size=4)),
        typed("payout"), typed("withhold"), typed("half"), typed("pass"),
        typed("buy_train", train=st.none() | trains,
              source=st.sampled_from([None, "bank", "pool"]) | corp,
              price=st.none() | AMOUNTS, trade=st.none() | trains),
        typed("discard", train=trains),
        typed("buy_private", private=private, price=AMOUNTS, **{"from": PLAYER}),
        typed("protect"), typed("destination"), typed("port", hex=HEXES),
        typed("cattle", hex=HEXES), typed("redeem", corp=corp), typed("reissue", corp=corp),
    )  # fmt: skip
    any_time = st.one_of(
        typed("say", text=SAY_TEXT),
        typed("help", topic=st.none() | st.sampled_from(HELP_TOPICS)),
        typed("show"), typed("undo"),
        typed("history", count=st.integers(1, 500)),
        typed("notify", mode=st.sampled_from(["every", "round", "turn"])),
        typed("revert", seq=st.integers(0, 10_000)),
        typed("replace", player=PLAYER, person=st.none() | st.sampled_from(["Ben", "Eve Lu"]),
              email=st.sampled_from(["a@b.org", "New.One@x.example"])),
        typed("pause"), typed("resume"),
        typed("deadline", hours=st.none() | st.integers(1, 999)),
        typed("kick", player=PLAYER),
        typed("extend", player=PLAYER, hours=st.integers(1, 999)),
        typed("history", count=st.none(), first=st.integers(1, 99), last=st.integers(100, 999)),
        typed("away", until=st.sampled_from(["2026-12-24", "2027-01-02 18:00"]), hours=st.none(),
              reason=st.sampled_from(["", "holiday", "in Rome; back soon"])),
        typed("away", until=st.none(), hours=st.integers(1, 999),
              reason=st.sampled_from(["", "holiday"])),
        typed("back"), typed("list"),
        typed("undo_answer", answer=st.sampled_from(["accept", "decline"])),
    )  # fmt: skip
    return st.one_of(
        pair(in_auction, auction_actions),
        pair(in_stock, stock_actions),
        pair(in_or, or_actions),
        pair(st.sampled_from([auction(), stock(), operating()]), any_time),
        pair(in_stock, typed("as", player=PLAYER, action=stock_actions | any_time)),
    )


def actions_1870() -> st.SearchStrategy[tuple[ParseContext, dict[str, Any]]]:
    ctx = context_for_1870("operating", PLAYERS)
    corp = st.sampled_from(ctx.corporation_symbols)
    private = st.sampled_from(ctx.private_symbols)
    return st.one_of(
        st.tuples(st.just(ctx), st.builds(lambda c: {"type": "redeem", "corp": c}, corp)),
        st.tuples(
            st.just(context_for_1870("stock", PLAYERS)),
            st.builds(lambda c: {"type": "buy_share", "corp": c, "source": None, "count": 1}, corp),
        ),  # fmt: skip
        st.tuples(
            st.just(context_for_1870("auction", PLAYERS)),
            st.builds(lambda p: {"type": "buy_private", "private": p}, private),
        ),
    )


@settings(max_examples=400)
@given(actions_1830() | actions_1870())
def test_format_then_parse_gives_the_action_back(pair: tuple[ParseContext, dict]) -> None:
    ctx, action = pair
    text = format_action(action)
    assert parse_command(text, ctx) == action
    assert format_action(parse_command(text.lower() if action["type"] != "say" else text, ctx))


@settings(max_examples=300)
@given(st.text(max_size=80), st.sampled_from(["auction", "stock", "operating"]), st.booleans())
def test_the_parser_raises_only_notation_error_on_any_text(
    text: str, kind: str, in_auction: bool
) -> None:
    ctx = context_for_1830(kind, PLAYERS, in_auction=in_auction)
    try:
        parse_command(text, ctx)
    except NotationError as caught:
        assert caught.message.startswith("I did not understand")


WORDS = st.sampled_from(
    sorted(VERB_OF) + ["PRR", "BO", "B&O", "CA", "SV", "3", "D", "H12", "SW-NE", "from", "for",
                       "to", "pool", "ipo", "with", "private", "train", ",", ";", ":", "$", "170",
                       "170.5", "-5", "0", "Alice", "Dan", "Smith", "trade", "city", "x@y.org"]
)  # fmt: skip


@settings(max_examples=500)
@given(st.lists(WORDS, min_size=1, max_size=8), st.sampled_from(["auction", "stock", "operating"]))
def test_the_parser_raises_only_notation_error_on_command_like_text(
    words: list[str], kind: str
) -> None:
    ctx = context_for_1830(kind, PLAYERS, in_auction=kind == "auction")
    ctx.legal = ["bid CA 170", "buy PRR", "pass", "lay 57 H12 SW-NE"]
    try:
        action = parse_command(" ".join(words), ctx)
    except NotationError:
        return
    assert parse_command(format_action(action), ctx) == action


@given(st.text(max_size=200))
def test_parse_commands_never_raises(text: str) -> None:
    for parsed in parse_commands(text, operating()):
        assert (parsed.action is None) != (parsed.error is None)


# The player documentation

DOCS = Path(__file__).resolve().parent.parent / "docs" / "commands.md"
REFUSED_IN_DOCS = {"say", "end", "bid BO ...", "sell private BO ...", "redeem ...", "buy PRR 82",
                   "buy NYC 3"}  # fmt: skip


def test_every_command_example_in_the_player_docs_is_understood() -> None:
    contexts = [auction(in_auction=True), stock(), operating(),
                context_for_1870("operating", PLAYERS)]  # fmt: skip
    examples = [s for s in re.findall(r"`([^`\n]+)`", DOCS.read_text())
                if s.split() and not re.search(r"<\w+>|\|", s)]  # not the usage patterns
    commands = {s for s in examples if s.split()[0].lower() in VERB_OF} - REFUSED_IN_DOCS
    assert len(commands) > 100
    for command in sorted(commands):
        assert any(_understood(command, ctx) for ctx in contexts), command


def _understood(command: str, ctx: ParseContext) -> bool:
    """Every command of the example (several when it has ';') is understood."""
    try:
        for _, single in split_commands(command, ctx):
            parse_command(single, ctx)
    except NotationError:
        return False
    return True


def test_the_game_s_title_names_the_corporations_in_an_1870_game() -> None:
    """Issue 13: in an 1870 game an unknown corporation was answered with "'FOO' is not a
    corporation in 1830" (the parse context never got the game's title)."""
    from pbem import service
    from pbem.engine.game import new_game

    state = new_game("1870", ["Ann", "Ben", "Cat"], 1, {})
    with pytest.raises(NotationError) as caught:
        parse_command("par FOO 100", service.parse_context(state))
    assert "'FOO' is not a corporation in 1870" in caught.value.message
    assert "1830" not in caught.value.message


def test_closest_orders_equally_like_commands_by_their_numbers() -> None:
    """Issue 13: the hints came in odd order (par NYC 100/71/82)."""
    pars = [f"par NYC {p}" for p in (100, 90, 82, 76, 71, 67)]
    assert closest("par NYC 75", pars) == ["par NYC 76", "par NYC 71", "par NYC 82"]
    assert closest("par NYC", pars) == ["par NYC 67", "par NYC 71", "par NYC 76"]
    assert closest("bid CA 170", ["bid CA 200", "bid CA 165", "bid CS 45"])[:2] == \
        ["bid CA 165", "bid CA 200"]
