"""Hex geometry and the adjacency graph of a board.

Axial coordinates (q, r), pointy-top hexes. Sides 0..5 run clockwise from
east: 0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE. Corner k is the vertex between side k
and side k+1, so it is shared by the hex and its neighbours across sides k
and k+1. A side is keyed by the sorted pair of hexes it separates and a corner
by the sorted triple of hexes that meet there, so every hex computes the same
key. A tile placed with rotation r shows its local side k on world side
(k + r) % 6, and likewise for corners.

The networkx graph is built once per board at load time; the engine's hot
path reads the plain tuples precomputed from it (``Board.neighbours``,
``Board.corners``), never networkx itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import networkx as nx

Hex = tuple[int, int]
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def neighbour(h: Hex, side: int) -> Hex:
    dq, dr = DIRECTIONS[side % 6]
    return (h[0] + dq, h[1] + dr)


def side_key(h: Hex, side: int) -> tuple[Hex, Hex]:
    return tuple(sorted((h, neighbour(h, side))))  # type: ignore[return-value]


def corner_key(h: Hex, corner: int) -> tuple[Hex, Hex, Hex]:
    return tuple(sorted((h, neighbour(h, corner), neighbour(h, corner + 1))))  # type: ignore[return-value]


def rotate(local: int, rotation: int) -> int:
    return (local + rotation) % 6


def ring(hexes: Iterable[Hex]) -> set[Hex]:
    """Hexes that share a side with the given area but are not part of it."""
    area = set(hexes)
    return {neighbour(h, s) for h in area for s in range(6)} - area


@dataclass(frozen=True)
class Board:
    """A set of hexes with precomputed neighbour and corner tables."""

    hexes: tuple[Hex, ...]
    neighbours: dict[Hex, tuple[Hex | None, ...]]  # per side, None when off the board
    corners: dict[Hex, tuple[tuple[Hex, Hex, Hex], ...]]  # corner keys per corner
    graph: nx.Graph

    def adjacent(self, h: Hex) -> list[Hex]:
        return [n for n in self.neighbours[h] if n is not None]


def build_board(hexes: Iterable[Hex]) -> Board:
    hs = tuple(sorted(set(hexes)))
    present = set(hs)
    g = nx.Graph()
    g.add_nodes_from(("hex", h) for h in hs)
    neighbours: dict[Hex, tuple[Hex | None, ...]] = {}
    corners: dict[Hex, tuple[tuple[Hex, Hex, Hex], ...]] = {}
    edges = []  # in the order they were added one by one before: one call adds them all
    for h in hs:
        row = []
        for s in range(6):
            n = neighbour(h, s)
            if n in present:
                edges.append((("hex", h), ("hex", n), {"side": side_key(h, s)}))
                row.append(n)
            else:
                row.append(None)
        neighbours[h] = tuple(row)
        keys = tuple(corner_key(h, c) for c in range(6))
        for c, key in enumerate(keys):
            edges.append((("hex", h), ("vertex", key), {"corner": c}))
        corners[h] = keys
    g.add_edges_from(edges)
    return Board(hs, neighbours, corners, g)


def connected(board: Board) -> bool:
    hexes = [("hex", h) for h in board.hexes]
    return not hexes or nx.is_connected(board.graph.subgraph(hexes))


def side_table(board: Board) -> dict[Hex, tuple[Hex | None, ...]]:
    """Per hex and world side, the hex across that side, read from the graph's hex-hex edges."""
    out = {}
    for h in board.hexes:
        across = {}
        for _, (kind, other), data in board.graph.edges(("hex", h), data=True):
            if kind == "hex":
                across[data["side"]] = other
        out[h] = tuple(across.get(side_key(h, s)) for s in range(6))
    return out


def vertex_table(board: Board) -> dict[Hex, tuple[tuple[tuple[Hex, int], ...], ...]]:
    """Per hex and world corner, the other hexes at that vertex with their own corner index there,
    read from the graph's vertex nodes (each vertex node links the up to three hexes that meet)."""
    out = {}
    adj = board.graph.adj  # node -> {neighbour: edge data}, read without an edge view per vertex
    for h in board.hexes:
        per_corner = []
        for c, key in enumerate(board.corners[h]):
            others = tuple(sorted((other, data["corner"]) for (kind, other), data in
                                  adj[("vertex", key)].items() if other != h))
            per_corner.append(others)
        out[h] = tuple(per_corner)
    return out
