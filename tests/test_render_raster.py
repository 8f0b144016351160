"""The map picture made fast (pbem.render.raster): a map drawn again redraws only the
hexes that changed, and comes out as the whole map drawn anew (but for the smoothing of a
few edge pixels); no hex draws beyond OVERFLOW; pictures are palette PNGs that shrink
with the zoom."""

from __future__ import annotations

import io
import random

import pytest
from positions import ALL_COLOURS, late_1830, midgame_1870, random_board

from pbem.engine.board.tiles import unique_rotations
from pbem.engine.board.track import lay_tile, placements
from pbem.engine.state import GameState
from pbem.render import raster
from pbem.render.png import available, rasterise
from pbem.render.svg import BACKGROUND, MapParts, rulers, state_map_parts

PIL = pytest.importorskip("PIL")
from PIL import Image, ImageChops  # noqa: E402

pytestmark = pytest.mark.skipif(not available(), reason="resvg-py is not installed")


def crowded(title: str, seed: int) -> GameState:
    state = late_1830(seed) if title == "1830" else midgame_1870()
    state.board = random_board(title, seed)
    return state


def image(svg: str) -> Image.Image:
    data = rasterise(svg)
    assert data is not None
    return Image.open(io.BytesIO(data)).convert("RGB")


def whole(parts: MapParts) -> Image.Image:
    return image(raster.box_document(parts, (0, 0, *raster.size(parts.layout))))


def one_more_tile(state: GameState, seed: int) -> tuple[GameState, str]:
    """The state with a tile laid (or upgraded) on one more hex, and that hex."""
    after = state.clone()
    board, board_map = after.board, after.map
    rng = random.Random(seed)
    coords = [c for c, h in board_map.hexes.items() if h.buildable]
    rng.shuffle(coords)
    for coord in coords:
        options = [(t, r) for t, left in board.tiles_left.items() if left > 0
                   for r in unique_rotations(board_map.tiles[t], placements(
                       board_map, board, coord, t, ALL_COLOURS))]
        if options:
            lay_tile(board_map, board, coord, *rng.choice(options))
            return after, coord
    raise AssertionError("no hex takes a tile")


@pytest.mark.parametrize("title,seed", [("1830", 5), ("1870", 3)])
def test_no_hex_draws_beyond_its_box(title: str, seed: int) -> None:
    """Each hex alone, on a canvas much larger than its box: every pixel it changes lies
    in ``hex_box`` (OVERFLOW around the hexagon), which the redraw relies on."""
    parts = state_map_parts(crowded(title, seed))
    width, height = raster.size(parts.layout)
    for coord, fragment in parts.hexes:
        box = raster.hex_box(parts.layout, coord)
        left, top = max(box[0] - 40, 0), max(box[1] - 40, 0)
        canvas = (left, top, min(box[0] + box[2] + 40, width) - left,
                  min(box[1] + box[3] + 40, height) - top)
        x, y, w, h = canvas
        alone = image(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                      f'viewBox="{x} {y} {w} {h}"><rect x="{x}" y="{y}" width="{w}" '
                      f'height="{h}" fill="#00ff00"/>{fragment}</svg>')
        changed = ImageChops.difference(alone, Image.new("RGB", (w, h), (0, 255, 0))).getbbox()
        assert changed is not None, coord
        x0, y0, x1, y1 = (changed[0] + left, changed[1] + top, changed[2] + left,
                          changed[3] + top)
        assert box[0] <= x0 and box[1] <= y0 and x1 <= box[0] + box[2] and \
            y1 <= box[1] + box[3], (coord, box, (x0, y0, x1, y1))


@pytest.mark.parametrize("title,seed", [("1830", 5), ("1870", 3)])
def test_no_text_draws_beyond_its_box(title: str, seed: int) -> None:
    """Each text of the map (the rulers' and every hex's), alone on a canvas much larger
    than its ``text_box``: every pixel it changes lies in the box, so a box document
    may leave out the texts whose box does not meet it. Every text is one that the
    culling recognises."""
    parts = state_map_parts(crowded(title, seed))
    document = raster.box_document(parts, (0, 0, *raster.size(parts.layout)))
    texts = list(raster.TEXT.finditer(document))
    assert len(texts) == document.count("<text") > 100
    for match in {m[0]: m for m in texts}.values():
        box = raster.text_box(match)
        x, y, w, h = box[0] - 40, box[1] - 40, box[2] + 80, box[3] + 80
        alone = image(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                      f'viewBox="{x} {y} {w} {h}"><rect x="{x}" y="{y}" width="{w}" '
                      f'height="{h}" fill="#00ff00"/>{match[0]}</svg>')
        changed = ImageChops.difference(alone, Image.new("RGB", (w, h), (0, 255, 0))).getbbox()
        assert changed is not None, match[0]
        x0, y0, x1, y1 = changed[0] + x, changed[1] + y, changed[2] + x, changed[3] + y
        assert box[0] <= x0 and box[1] <= y0 and x1 <= box[0] + box[2] and \
            y1 <= box[1] + box[3], (match[0], box, (x0, y0, x1, y1))


@pytest.mark.parametrize("title,seed", [("1830", 5), ("1870", 3)])
def test_a_box_without_the_texts_beyond_it_has_the_same_pixels(title: str, seed: int
                                                               ) -> None:
    """Hexes' boxes drawn from every text of the rulers and of the hexes that reach into
    them, and from only the texts that may reach into the box: the same pixels."""
    parts = state_map_parts(crowded(title, seed))
    for coord, _ in parts.hexes[::9]:
        box = raster.hex_box(parts.layout, coord)
        left, top, width, height = box
        body = "".join(fragment for other, fragment in parts.hexes
                       if meets(raster.hex_box(parts.layout, other), box))
        every_text = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
                      f'height="{height}" viewBox="{left} {top} {width} {height}">'
                      f'<rect x="{left}" y="{top}" width="{width}" height="{height}" '
                      f'fill="{BACKGROUND}"/>{rulers(parts.layout)}<g>{body}</g></svg>')
        culled = raster.box_document(parts, box)
        assert culled.count("<text") < every_text.count("<text")
        assert rasterise(culled) == rasterise(every_text), coord


def meets(a: raster.Box, b: raster.Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and \
        b[1] < a[1] + a[3]


@pytest.mark.parametrize("title,seed", [("1830", 5), ("1870", 3)])
def test_a_map_drawn_again_is_the_whole_map_drawn_anew(title: str, seed: int) -> None:
    raster.forget()
    before = crowded(title, seed)
    first = raster.draw(state_map_parts(before))
    after, coord = one_more_tile(before, seed)
    parts = state_map_parts(after)
    changed = [c for (c, f), (_, g) in zip(state_map_parts(before).hexes, parts.hexes,
                                           strict=True) if f != g]
    assert changed == [coord]
    again = raster.draw(parts)
    assert again is not None and first is not None
    box = raster.hex_box(parts.layout, coord)
    assert ImageChops.difference(first, again).getbbox() is not None  # the tile is drawn
    outside = ImageChops.difference(first, again)
    outside.paste((0, 0, 0), (box[0], box[1], box[0] + box[2], box[1] + box[3]))
    assert outside.getbbox() is None  # nothing else was touched
    anew = whole(parts)
    diff = ImageChops.difference(again, anew).convert("L")
    hist = diff.histogram()
    # the same pixels but for the smoothing of a few edge pixels of the redrawn box
    assert sum(hist[9:]) <= 0.02 * box[2] * box[3], sum(hist[9:])
    assert raster.draw(parts) is again  # kept: the same map is not drawn twice


def test_a_game_whose_drawing_was_packed_redraws_only_what_changed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A server's mails go to many games in turn: the drawing of a game's last map is
    packed once KEEP other maps were drawn after it, and its next map is still drawn
    from it (one box redrawn, the rest its pixels, unpacked exactly), not anew."""
    raster.forget()
    before = crowded("1830", 5)
    first = raster.draw(state_map_parts(before))
    assert first is not None
    first = first.copy()
    for seed in range(6, 6 + raster.KEEP):  # other games' maps
        raster.draw(state_map_parts(crowded("1830", seed)))
    packed = [d for d in raster._DRAWINGS.values() if d.image is None]
    assert len(packed) == 1 and packed[0].parts == state_map_parts(before)
    after, coord = one_more_tile(before, 5)
    drawn: list[raster.Box] = []
    render = raster._render

    def counted(parts: MapParts, box: raster.Box) -> object:
        drawn.append(box)
        return render(parts, box)

    monkeypatch.setattr(raster, "_render", counted)
    again = raster.draw(state_map_parts(after))
    assert again is not None
    box = raster.hex_box(state_map_parts(after).layout, coord)
    assert drawn == [box]
    outside = ImageChops.difference(first, again)
    outside.paste((0, 0, 0), (box[0], box[1], box[0] + box[2], box[1] + box[3]))
    assert outside.getbbox() is None


def test_a_map_that_has_not_changed_keeps_its_picture(monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    """A game's next mail after a run or a dividend shows the same map: its picture is
    the one made before, not drawn and put in a palette again; a map that changed, or
    another zoom, is made anew."""
    raster.forget()
    before = crowded("1830", 5)
    first = raster.picture(state_map_parts(before), 1.0, 32)
    drawn: list[MapParts] = []
    draw = raster.draw

    def counted(parts: MapParts) -> object:
        drawn.append(parts)
        return draw(parts)

    monkeypatch.setattr(raster, "draw", counted)
    again = raster.picture(state_map_parts(before.clone()), 1.0, 32)  # pieces made anew
    assert again == first and drawn == []
    after, _ = one_more_tile(before, 5)
    assert raster.picture(state_map_parts(after), 1.0, 32) != first
    assert raster.picture(state_map_parts(before), 0.8, 32) != first
    assert len(drawn) == 2


def test_pictures_are_palette_pngs_that_shrink_with_the_zoom() -> None:
    raster.forget()
    parts = state_map_parts(crowded("1870", 3))
    sizes = []
    for zoom in (1.0, 0.7, 0.5):
        data = raster.picture(parts, zoom, 32)
        assert data is not None
        picture = Image.open(io.BytesIO(data))
        assert picture.format == "PNG" and picture.mode == "P"
        assert len(picture.getcolors() or []) <= 32
        width, height = raster.size(parts.layout)
        assert picture.size == (round(width * zoom), round(height * zoom))
        sizes.append(len(data))
    assert sizes == sorted(sizes, reverse=True)
