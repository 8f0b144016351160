"""Hex coordinates and sides (reference README 1; DESIGN 5: sides NE, E, SE, SW, W, NW)."""

import pytest

from pbem.engine.board import hexes


def test_coordinates_round_trip():
    assert hexes.parse_coord("H12") == (7, 12)
    assert hexes.parse_coord(" h12 ") == (7, 12)
    assert hexes.format_coord(7, 12) == "H12"
    assert hexes.normalise_coord("a9") == "A9"


@pytest.mark.parametrize("text", ["", "12", "H", "HH12", "H-12", "H12x"])
def test_bad_coordinates_are_refused(text):
    with pytest.raises(ValueError):
        hexes.parse_coord(text)


def test_neighbours_of_altoona_follow_the_edge_numbering():
    # README 1: H12 has SW=I11, W=H10, NW=G11, NE=G13, E=H14, SE=I13.
    expected = ["I11", "H10", "G11", "G13", "H14", "I13"]
    assert [hexes.neighbour("H12", e) for e in range(6)] == expected


def test_neighbour_beyond_row_a_or_column_1_is_none():
    assert hexes.neighbour("A9", 2) is None
    assert hexes.neighbour("A9", 3) is None
    assert hexes.neighbour("B2", 1) is None
    assert hexes.neighbour("C1", 0) is None


def test_opposite_edges_lead_back():
    for edge in range(6):
        other = hexes.neighbour("H12", edge)
        assert other is not None
        assert hexes.neighbour(other, hexes.opposite(edge)) == "H12"


def test_rotation_turns_clockwise():
    assert hexes.rotate(0, 1) == 1
    assert hexes.rotate(5, 2) == 1


@pytest.mark.parametrize(
    ("text", "edge"),
    [("SW", 0), ("sw", 0), ("S W", 0), ("south-west", 0), ("Southwest", 0), ("W", 1),
     ("west", 1), ("NW", 2), ("north west", 2), ("ne", 3), ("North-East", 3), ("E", 4),
     ("east", 4), ("se", 5), ("south_east", 5)],
)
def test_side_names_parse(text, edge):
    assert hexes.parse_edge(text) == edge


@pytest.mark.parametrize("text", ["N", "S", "north", "0", "SWW", ""])
def test_unknown_side_names_are_refused_with_the_list(text):
    with pytest.raises(ValueError, match="SW, W, NW, NE, E, SE"):
        hexes.parse_edge(text)


def test_edge_names():
    assert [hexes.edge_name(e) for e in range(6)] == ["SW", "W", "NW", "NE", "E", "SE"]
