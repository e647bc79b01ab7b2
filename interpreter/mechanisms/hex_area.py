"""A player's personal hex area: the action hexes, the ring around them, and what a new tile connects to.

Geometry comes from content (the action board's centre and action hexes); the ring is every hex
sharing a side with the board. A placed tile is ``(id, rotation)``; its features are read through
the ``edges``/``corners`` callables (local index -> symbol or colour, ``"none"`` for blank), so this
module knows no tile kinds.

Used connections (R-CONN-1): a connection end is ``tile|feature|hex`` (the feature is a local
edge or corner index, the hex the neighbour it faces). A connection pays only if neither end has
paid before; both ends are then marked used, and the marks stay with the tile after it is covered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from interpreter.mechanisms.hexes import Hex, build_board, ring, side_table, vertex_table

Features = Callable[[str], tuple[str, ...]]


@dataclass(frozen=True)
class AreaGeometry:
    action_hex: dict[str, Hex]  # action id -> hex
    ring: tuple[Hex, ...]  # the hexes around the board, sorted
    # per hex that can hold a tile: per world side, the neighbouring tile hex (None if none can be there)
    sides: dict[Hex, tuple[Hex | None, ...]]
    # per hex and world corner: the other tile hexes at that vertex with their corner index there
    vertex: dict[Hex, tuple[tuple[tuple[Hex, int], ...], ...]]


def build_area(centre: Hex, action_hexes: dict[str, Hex]) -> AreaGeometry:
    """The area's hex graph (networkx, at load) flattened into the tables the hot path reads."""
    outer = tuple(sorted(ring({centre, *action_hexes.values()})))
    graph = build_board([*action_hexes.values(), *outer])  # the centre never holds a tile (R-GEO-1)
    return AreaGeometry(dict(action_hexes), outer, side_table(graph), vertex_table(graph))


def key(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def parse_key(text: str) -> Hex:
    q, r = text.split(",")
    return (int(q), int(r))


@dataclass
class Connections:
    symbols: list[str]  # edge symbols paid, the new tile's and its neighbours', in side order
    corners: int  # corner matches
    used: list[str]  # connection ends to mark used


def connect(geo: AreaGeometry, at: Hex, tile: str, rot: int, tops: dict[Hex, tuple[str, int]],
            edges: Features, corners: Features, paying: set[str], colours: set[str], used: set[str]) -> Connections:
    """What placing ``tile`` at ``at`` with ``rot`` pays (R-ADJ-1..5, R-CORNER-2/4/5, R-CONN-1).

    ``tops`` maps occupied hexes to their top tile; ``paying`` are the edge symbols with a reward
    (others count as blank, R-ADJ-4); ``colours`` the corner colours this kind matches.
    """
    out = Connections([], 0, [])
    own_edges, own_corners = edges(tile), corners(tile)
    for side, other_hex in enumerate(geo.sides[at]):
        if other_hex is None or other_hex not in tops:
            continue
        other, orot = tops[other_hex]
        a = own_edges[(side - rot) % 6]
        b = edges(other)[(side + 3 - orot) % 6]
        if a not in paying or b not in paying:
            continue
        ends = (f"{tile}|e{(side - rot) % 6}|{key(other_hex)}", f"{other}|e{(side + 3 - orot) % 6}|{key(at)}")
        if used.isdisjoint(ends) and set(out.used).isdisjoint(ends):
            out.symbols += [a, b]
            out.used += ends
    for c in range(6):
        colour = own_corners[(c - rot) % 6]
        if colour not in colours:
            continue
        for other_hex, oc in geo.vertex[at][c]:
            if other_hex not in tops:
                continue
            other, orot = tops[other_hex]
            if corners(other)[(oc - orot) % 6] != colour:
                continue
            ends = (f"{tile}|c{(c - rot) % 6}|{key(other_hex)}", f"{other}|c{(oc - orot) % 6}|{key(at)}")
            if used.isdisjoint(ends):
                out.corners += 1
                out.used += ends
    return out
