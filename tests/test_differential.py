"""Differential testing against the 18xx.games engine (issue 18), the CI sample: a few
random games per title played in pbem and in the site's engine (../shared/oracle),
compared after every command with near-legal moves probed on both; one 18xx.games log
compared action by action; and every saved reproduction of a divergence found so far
played again (tests/data/differential/, written by bench/differential/repro.py).

Skips with a message when ruby or ../shared/oracle is absent.  The long runs are
``python -m bench.differential`` (docs/18xx-games.md, Differential testing)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.differential.duel import SITE_DEFECTS as DEFECT_KINDS
from bench.differential.duel import Duel
from bench.differential.fixtures import compare_log
from bench.differential.oracle import fixtures_dir, missing, start
from bench.differential.players import new_player
from bench.differential.repro import replay
from bench.differential.setups import setup_for

WHY = missing()
pytestmark = pytest.mark.skipif(WHY is not None, reason=f"differential testing: {WHY}")

REPRODUCTIONS = sorted((Path(__file__).parent / "data" / "differential").glob("*.json"))
SITE_DEFECTS = sorted((Path(__file__).parent / "data" / "differential" / "site-defects")
                      .glob("*.json"))
KNOWN = sorted((Path(__file__).parent / "data" / "differential" / "known-differences")
               .glob("*.json"))
#: commands per sample game: the auction, stock rounds and the first operating rounds
SAMPLE_COMMANDS = 100


@pytest.fixture(scope="module")
def oracle() -> Iterator[Any]:
    with start() as running:
        yield running


@pytest.mark.parametrize("title,seed", [("1830", 1), ("1830", 2), ("1870", 1), ("1870", 2)])
def test_a_random_game_agrees_with_the_site_after_every_command(oracle: Any, title: str,
                                                                  seed: int) -> None:
    duel = Duel(oracle, setup_for(title, seed), new_player(probing=0.05))
    out = duel.play(SAMPLE_COMMANDS)
    assert out.divergence is None, out.divergence.summary()
    assert out.commands == SAMPLE_COMMANDS or out.finished
    assert out.compared > SAMPLE_COMMANDS // 2
    assert out.site_actions > SAMPLE_COMMANDS // 2


def test_a_site_log_agrees_with_the_site_after_every_action(oracle: Any) -> None:
    folder = fixtures_dir()
    if folder is None or not (folder / "1830" / "29133.json").is_file():
        pytest.skip("the 18xx.games logs of ../shared/fixtures are absent")
    result = compare_log(oracle, folder / "1830" / "29133.json")
    assert result.refusal is None and result.site_error is None
    assert not result.differing, result.differing[:2]
    assert result.compared > 300


@pytest.mark.parametrize("path", REPRODUCTIONS, ids=[p.stem for p in REPRODUCTIONS])
def test_a_divergence_found_is_settled(oracle: Any, path: Path) -> None:
    """The reproduction's note says what differed and which commit settled it."""
    document = json.loads(path.read_text(encoding="utf-8"))
    found = replay(oracle, document)
    assert found is None, found.summary()


@pytest.mark.parametrize("path", SITE_DEFECTS, ids=[p.stem for p in SITE_DEFECTS])
def test_a_refusal_by_a_defect_of_the_site_is_recognised(oracle: Any, path: Path) -> None:
    """The site refuses the last command, and the runner recognises the defect of the
    site's engine that explains it (the note says which); it ends the game there."""
    document = json.loads(path.read_text(encoding="utf-8"))
    found = replay(oracle, document)
    assert found is not None and found.kind in DEFECT_KINDS, found and found.summary()
    assert found.kind == document["defect"]


@pytest.mark.parametrize("path", KNOWN, ids=[p.stem for p in KNOWN])
def test_a_move_the_site_allows_and_pbem_does_not_is_a_known_difference(oracle: Any,
                                                                        path: Path) -> None:
    """pbem refuses the last command by its rule, the site's engine takes it, and the
    probes know why (bench/differential/probes.py KNOWN_DIFFERENCES; the note says
    which): a leniency of the site's, not counted as a divergence, pbem's rule kept."""
    document = json.loads(path.read_text(encoding="utf-8"))
    found = replay(oracle, document)
    assert found is not None and found.kind == "known-difference", found and found.summary()
