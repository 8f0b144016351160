"""Every error with a sentence for a person shares one base class, PbemError: the
engine's (rules, setup), the command language's, the service's, the store's, the
standing orders'; a command that fits several ways is its own kind (AmbiguousError)."""

from __future__ import annotations

import pytest

from pbem.engine.errors import (
    AmbiguousError,
    NotImplementedRule,
    PbemError,
    RulesError,
    SetupError,
)
from pbem.notation import NotationError, parse_command
from pbem.notation.context import context_for_1830
from pbem.orders import OrderError
from pbem.service import CommandError
from pbem.store.errors import StoreError, UnknownGame


@pytest.mark.parametrize("kind", [RulesError, AmbiguousError, NotImplementedRule, SetupError,
                                  NotationError, CommandError, StoreError, UnknownGame,
                                  OrderError])
def test_every_error_with_a_sentence_is_a_pbem_error(kind: type[Exception]) -> None:
    assert issubclass(kind, PbemError)


def test_the_sentence_is_the_message() -> None:
    assert str(SetupError("No such game.")) == "No such game."
    assert str(RulesError("Not now.", "1830 5.1")) == "Not now. (rule 1830 5.1)"
    assert str(UnknownGame(7)) == "There is no game #7." == UnknownGame(7).message
    with pytest.raises(PbemError) as info:
        parse_command("frobnicate PRR", context_for_1830("stock", ["Ann", "Ben"]))
    assert isinstance(info.value, NotationError) and info.value.message
