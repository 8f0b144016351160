"""The archive page (`pbem export GAME --format html`) in a real headless browser.

Debian's chromium loads the file (no network), the page's script steps to an event
given in the URL (#step=N&press=next,prev,...: it presses those buttons), and the
test reads the DOM chromium dumps.  Skipped with a message where chromium is absent
(.ci/run installs it).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
from cli_driver import Cli
from selfplay import pick

from pbem import service
from pbem.engine.game import apply_facts, decide, legal_moves
from pbem.engine.state import GameState
from pbem.notation import format_action
from pbem.render.archive import archive_page
from pbem.store import open_store

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed "
                                    "(apt-get install chromium; .ci/run does this)")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars"]


def chromium(url: str, *extra: str) -> str:
    """Run headless chromium on ``url`` with a fresh profile; returns its stdout."""
    assert CHROMIUM is not None
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *extra, url],
            capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def dump_dom(path: Path, fragment: str = "") -> str:
    return chromium(path.as_uri() + fragment, "--virtual-time-budget=5000", "--dump-dom")


def screenshot(path: Path, target: Path, fragment: str = "", size: str = "1400,1000") -> None:
    chromium(path.as_uri() + fragment, "--virtual-time-budget=5000", f"--window-size={size}",
             f"--screenshot={target}")
    assert target.exists() and target.stat().st_size > 10_000


# -- games to export --------------------------------------------------------------------------


def short_game(tmp_path: Path) -> tuple[Cli, int]:
    """An auction with a command taken back by the referee."""
    cli = Cli(tmp_path / "pbem.db")
    game = cli.new("Ann", "Ben", "Cat")
    cli.act(game, "Ann", "buy SV")
    cli.act(game, "Ben", "bid CA 170")
    cli.act(game, "Cat", "buy CS")
    cli.ok("undo", str(game), "--to", "2")
    cli.act(game, "Cat", "bid DH 75")
    return cli, game


def builder_pick(state: GameState, rng: random.Random) -> tuple[str, dict[str, Any]]:
    """Like selfplay.pick, but a corporation that may lay track or a station mostly does
    (for busier boards)."""
    moves = legal_moves(state)
    eager = [(n, m) for n, ms in moves.items() for m in ms
             if m["action"]["type"] in ("lay", "token")]
    if eager and rng.random() < 0.85:
        name, move = rng.choice(eager)
        return name, dict(move["action"])
    return pick(state, rng)


def played_game(db: Path, steps: int, seed: int = 4, eager: bool = False) -> int:
    """A self-played 1830 game stored as the service stores commands."""
    store = open_store(str(db), now="2026-01-01T00:00:00+00:00")
    created = service.create_game(store, "1830", [(n, f"{n.lower()}@example.org") for n in
                                                  ("Ann", "Ben", "Cat", "Dan")],
                                  seed=seed, seating="fixed", options={},
                                  now="2026-01-01T00:00:00+00:00")
    state = service.initial(store, created.game_id)
    rng = random.Random(seed)
    for seq in range(1, steps + 1):
        if state.finished:
            break
        name, action = builder_pick(state, rng) if eager else pick(state, rng)
        decision = decide(state, name, action)
        try:
            text = format_action(action)
        except ValueError:  # a command the notation cannot print yet
            text = action["type"]
        store.append_event(created.game_id, seq, kind="command", command=action,
                           text=text, actor=name, source="test",
                           received=f"2026-01-01T00:{seq // 60 % 60:02d}:{seq % 60:02d}+00:00",
                           facts=decision.records, log=decision.log)
        apply_facts(state, decision.facts)
    return created.game_id


def export_html(db: Path, game: int, target: Path) -> Path:
    store = open_store(str(db), now="2026-01-01T00:00:00+00:00")
    page = archive_page(service.initial(store, game), store.events(game), store.game(game),
                        store.players(game))
    target.write_text(page, encoding="utf-8")
    return target


# -- without a browser ------------------------------------------------------------------------


def test_export_html_is_one_self_contained_file(tmp_path: Path) -> None:
    cli, game = short_game(tmp_path)
    page = cli.ok("export", str(game), "--format", "html")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page), "loads from the network"
    assert "<link" not in page and "@import" not in page
    for text in ("buy SV", "bid CA 170", "revert to 2", "bid DH 75", "(undone later)",
                 "Ann buys SV for $20.", "Ben bids $170 for CA."):
        assert text in page, text


# -- in chromium ------------------------------------------------------------------------------


def cash(dom: str, name: str) -> str:
    """The cash a player's row of the shown holdings table gives."""
    panel = dom[dom.index('id="panel"'):]
    found = re.search(rf"^\*?{name}\s+(\S+)", panel, re.M)
    assert found, f"no row for {name}"
    return found.group(1)


@needs_chromium
def test_archive_steps_through_a_game_in_chromium(tmp_path: Path) -> None:
    cli, game = short_game(tmp_path)
    path = tmp_path / "game.html"
    path.write_text(cli.ok("export", str(game), "--format", "html"), encoding="utf-8")
    # the start: nobody owns anything
    dom = dump_dom(path, "#step=0")
    assert 'data-step="0"' in dom
    assert len(re.findall(r'<g id="hex-[A-K]\d+"', dom)) == 93
    assert "event 0 (1 of 6)" in dom and cash(dom, "Ann") == "$800"
    # two presses of "next" from the start: Ann bought SV, Ben bid on CA
    dom = dump_dom(path, "#step=0&press=next,next")
    assert 'data-step="2"' in dom and "event 2 (3 of 6)" in dom
    assert "Bids: CA: Ben $170" in dom and "Ann: buy SV" not in dom and "Ben: bid CA 170" in dom
    # event 3 (Cat buys CS) was reverted by event 4; event 5 is in effect
    dom = dump_dom(path, "#step=3")
    assert cash(dom, "Cat") == "$760"  # CS bought for $40
    dom = dump_dom(path, "#step=4")
    assert cash(dom, "Cat") == "$800" and "revert to 2" in dom
    dom = dump_dom(path, "#step=5&press=prev,next")
    assert 'data-step="5"' in dom and "DH: Cat $75" in dom and cash(dom, "Cat") == "$800"
    assert 'class="undone' in dom


@needs_chromium
def test_archive_of_a_long_game_shows_board_and_holdings_at_each_step(tmp_path: Path) -> None:
    db = tmp_path / "pbem.db"
    game = played_game(db, 350, eager=True)
    path = export_html(db, game, tmp_path / "long.html")
    store = open_store(str(db), now="2026-01-01T00:00:00+00:00")
    events = store.events(game)
    lays = [i for i, e in enumerate(events, 1) if e["command"]["type"] == "lay"]
    if not lays:
        pytest.skip("the engine's operating rounds lay no tile yet")
    step = lays[len(lays) // 2]
    laid = events[step - 1]["command"]
    before = dump_dom(path, f"#step={step - 1}")
    after = dump_dom(path, f"#step={step - 1}&press=next")
    assert f'data-step="{step}"' in after
    tile = str(laid["tile"])
    hex_after = re.search(rf'<g id="hex-{laid["hex"]}".*?</g>', after)
    hex_before = re.search(rf'<g id="hex-{laid["hex"]}".*?</g>', before)
    assert hex_after and hex_before and hex_after.group(0) != hex_before.group(0)
    assert f">{tile}</text>" in hex_after.group(0)
    assert "STOCK MARKET" in after and "Operating order" in after


@needs_chromium
def test_map_svg_renders_in_chromium(tmp_path: Path) -> None:
    from positions import late_1830

    from pbem.render.svg import svg_map

    (tmp_path / "map.svg").write_text(svg_map(late_1830()), encoding="utf-8")
    page = tmp_path / "page.html"
    page.write_text(
        '<!DOCTYPE html><html><body><img id="m" src="map.svg"><script>'
        "var i = document.getElementById('m');"
        "i.onload = function () { document.title = 'loaded ' + i.naturalWidth; };"
        "i.onerror = function () { document.title = 'failed'; };"
        "</script></body></html>", encoding="utf-8")
    dom = dump_dom(page)
    found = re.search(r"<title>loaded (\d+)</title>", dom)
    assert found and int(found.group(1)) > 800, dom[:500]


@needs_chromium
@pytest.mark.skipif(os.environ.get("PBEM_SCREENSHOTS") != "1",
                    reason="writes docs/screenshots/ only with PBEM_SCREENSHOTS=1")
def test_write_screenshots(tmp_path: Path) -> None:
    """docs/screenshots/: the map and the archive page late in a self-played game."""
    from pbem.render import mail_parts
    from pbem.render.svg import svg_map

    out = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    db = tmp_path / "pbem.db"
    game = played_game(db, 3000, seed=7, eager=True)
    store = open_store(str(db), now="2026-01-01T00:00:00+00:00")
    events = store.events(game)
    late = max(1, len(events) - 40)
    state = service.initial(store, game)
    for event in events[:late]:
        apply_facts(state, event["facts"])
    svg = tmp_path / "map.svg"
    svg.write_text(svg_map(state), encoding="utf-8")
    (out / "map-late-game.svg").write_text(svg_map(state), encoding="utf-8")
    page = tmp_path / "map.html"
    page.write_text('<!DOCTYPE html><html><body style="margin:0"><img src="map.svg" '
                    'style="width:1240px"></body></html>', encoding="utf-8")
    screenshot(page, out / "map-late-game.png", size="1240,1000")
    archive = export_html(db, game, tmp_path / "archive.html")
    screenshot(archive, out / "archive-late-game.png", f"#step={late}", size="1500,1250")
    mail = tmp_path / "mail.html"
    mail.write_text(mail_parts(state, state.names[0], ["(the last events)"],
                               image_cid="map.png").html, encoding="utf-8")
    (tmp_path / "map.png").write_bytes(mail_parts(state, None).png or b"")
    screenshot(mail, out / "mail-html.png", size="1100,1400")
