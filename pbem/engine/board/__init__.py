"""The board: pure, title-free, no rounds.

* hexes.py: coordinates and hex sides.
* tiles.py: tiles (track, stops), rotations, upgrades; the tile data.
* map.py: the static Map of a title (rules/<title>/map.json) and the dynamic
  BoardState of a game (tiles laid, stations, tiles left, markers).
* track.py: where a tile may go (placements), laying it, the track graph and what a
  corporation reaches.
* closures.py: what a walk through a directed graph may reach (one Tarjan for both
  graphs).
* routegraph.py: the graph a route search walks; search.py: the best run, exactly;
  written.py: routes a player writes, checked and realised.
"""
