"""The SVG map: valid XML with one group per hex, track, stations and labels; the PNG
where a rasteriser is installed.  (That a browser draws it: test_archive_browser.py.)"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from positions import late_1830, midgame_1830, random_board

from pbem.engine.board.map import load_map
from pbem.render import png
from pbem.render.hexview import board_view
from pbem.render.svg import svg_document, svg_map

NS = {"svg": "http://www.w3.org/2000/svg"}


def texts(group: ET.Element) -> list[str]:
    return [t.text or "" for t in group.iter("{http://www.w3.org/2000/svg}text")]


def test_svg_of_a_game_is_valid_xml_with_every_hex() -> None:
    state = midgame_1830()
    root = ET.fromstring(svg_map(state))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    groups = {g.get("id"): g for g in root.iter("{http://www.w3.org/2000/svg}g")
              if (g.get("id") or "").startswith("hex-")}
    assert len(groups) == len(state.map.hexes)
    altoona = texts(groups["hex-H12"])
    assert "H12" in altoona and "PRR" in altoona and "10" in altoona and "Altoona" in altoona
    albany = groups["hex-E19"]
    assert {"E19", "NYC", "B&O", "30", "14"} <= set(texts(albany))
    assert len(albany.findall("svg:path", NS)) == 4  # tile 14: four track segments


def test_svg_of_crowded_boards_of_both_titles() -> None:
    for title, seed in (("1830", 1), ("1870", 2)):
        board_map = load_map(title)
        views = board_view(board_map, random_board(title, seed), board_map.revenue_columns[0])
        root = ET.fromstring(svg_document(views, f"{title} map"))
        assert len(root.findall(".//svg:polygon", NS)) == len(board_map.hexes)


def test_png_where_a_rasteriser_is_installed() -> None:
    if not png.available():
        pytest.skip("no rasteriser (pip install resvg-py): mails carry the SVG only")
    data = png.svg_to_png(svg_map(late_1830()))
    assert data is not None and data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 50_000
