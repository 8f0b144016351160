"""What a walk through a directed graph may gather: for each node, the union of the bits
of every edge some walk from it takes (and of the node itself).

Both searches on the board need it: the track search (track.py: which segments a
walk from a segment state may still travel) and the route search (routegraph.py:
which track and stops a route may still reach).  Strongly connected components
(Tarjan's algorithm, iterative), then unions in reverse topological order: every
node of a component gathers the same.
"""

from __future__ import annotations

from collections.abc import Sequence

#: an edge: (the node it leads to, or -1 when a walk stops there; the bits it gathers)
Edge = tuple[int, int]


def closures(own: Sequence[int], edges: Sequence[Sequence[Edge]]) -> list[int]:
    """For each node v: own[v] | the bits of every edge some walk from v takes | the
    own bits of every node it reaches."""
    n = len(edges)
    index = [-1] * n
    low = [0] * n
    comp = [-1] * n
    comp_bits: list[int] = []
    on_stack: list[int] = []
    counter = 0
    for root in range(n):
        if index[root] != -1:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                on_stack.append(v)
            if i < len(edges[v]):
                work.append((v, i + 1))
                w = edges[v][i][0]
                if w < 0:
                    continue
                if index[w] == -1:
                    work.append((w, 0))
                elif comp[w] == -1:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                number = len(comp_bits)
                members = []
                while True:
                    w = on_stack.pop()
                    comp[w] = number
                    members.append(w)
                    if w == v:
                        break
                bits = 0
                for w in members:
                    bits |= own[w]
                    for target, gathered in edges[w]:
                        bits |= gathered
                        if target >= 0 and comp[target] != number:
                            bits |= comp_bits[comp[target]]
                comp_bits.append(bits)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return [comp_bits[comp[v]] for v in range(n)]
