"""The shared hex map as plain lookup tables, and the rules that read it.

Built once per ruleset from the map file (site -> area hex, area hex -> sites,
printed corner icons per vertex) so the engine's hot path only does dict
look-ups: corner matching (R-CORNER-3/4/5, OPEN-40), enclosure (R-PLAZA-5),
majority (R-PLAZA-6) and the empty sites a building may go on.
Colours and hex types are data; nothing here names a game's pieces.
"""

from __future__ import annotations

from dataclasses import dataclass

from interpreter.mechanisms.hexes import Hex, build_board, corner_key, neighbour, vertex_table
from interpreter.errors import RulesError

# Roles of the map's hex types (HexType.role): sites take tiles; an area hex gathers the sites around it.
SITE = "site"
AREA = "area"
Placed = dict[str, tuple[tuple[str, ...], int]]


@dataclass(frozen=True)
class HexMap:
    """Precomputed tables of one hex map (see build_hex_map)."""

    hexes: dict[str, Hex]  # hex id -> axial
    at: dict[Hex, str]  # axial -> hex id
    types: dict[str, str]  # hex id -> hex type (the pack's name)
    roles: dict[str, str]  # hex id -> the role of its type
    sites: tuple[str, ...]  # site ids in file order
    area_of: dict[str, str]  # site id -> its area hex id
    sites_of: dict[str, tuple[str, ...]]  # area hex id -> its site ids
    printed: dict[tuple, tuple[str, ...]]  # corner key -> colours printed at that vertex
    vertex: dict[str, tuple[tuple[tuple[str, int], ...], ...]]  # hex id -> per world corner: (other hex id, its corner)
    corner_keys: dict[str, tuple[tuple, ...]]  # hex id -> corner key per world corner


def build_hex_map(map_model) -> HexMap:
    """Tables from a map file; every site must touch exactly one area hex (R-BUILD-5; the content checker also enforces it)."""
    hexes = {h.id: (h.at[0], h.at[1]) for h in map_model.hexes}
    at = {xy: hid for hid, xy in hexes.items()}
    types = {h.id: h.type for h in map_model.hexes}
    roles = {hid: map_model.hex_types[t].role for hid, t in types.items()}
    sites = tuple(hid for hid in hexes if roles[hid] == SITE)
    area_of = {s: _area_of(s, hexes, at, roles) for s in sites}
    sites_of = {p: tuple(s for s in sites if area_of[s] == p) for p in hexes if roles[p] == AREA}
    printed: dict[tuple, tuple[str, ...]] = {}
    for pc in map_model.corners:
        key = corner_key((pc.at[0], pc.at[1]), pc.corner)
        printed[key] = printed.get(key, ()) + (pc.colour,)
    return HexMap(hexes, at, types, roles, sites, area_of, sites_of, printed, **corner_tables(hexes))


def corner_tables(hexes: dict[str, Hex]) -> dict:
    """Who meets at each vertex, from the map's networkx graph (built here, at load, and not kept)."""
    at = {xy: hid for hid, xy in hexes.items()}
    graph = build_board(hexes.values())
    vertex = {at[h]: tuple(tuple((at[o], oc) for o, oc in per) for per in table) for h, table in vertex_table(graph).items()}
    return {"vertex": vertex, "corner_keys": {at[h]: keys for h, keys in graph.corners.items()}}


def _area_of(site: str, hexes: dict[str, Hex], at: dict[Hex, str], roles: dict[str, str]) -> str:
    """The single area hex sharing a side with a site; anything else is a content bug."""
    around = (at.get(neighbour(hexes[site], s)) for s in range(6))
    areas = [n for n in around if n is not None and roles[n] == AREA]
    if len(areas) != 1:
        raise RulesError(f"site '{site}' touches {len(areas)} area hexes; every site touches exactly one")
    return areas[0]


def corner_matches(cmap: HexMap, at: str, rot: int, corners: tuple[str, ...], colour: str, placed: Placed) -> int:
    """Tokens of `colour` a tile gains when placed on `at` with rotation `rot`.

    Each of its world corners showing `colour` pays once per other tile whose
    corner at that vertex shows `colour` and once per printed icon of that
    colour there (R-CORNER-3; printed icons pay every building, OPEN-40).
    Matches add up across corners and vertices (R-CORNER-4), and earlier
    matches at a vertex do not block new ones (R-CORNER-5).
    """
    total = 0
    for w in range(6):
        if corners[(w - rot) % 6] != colour:
            continue
        total += cmap.printed.get(cmap.corner_keys[at][w], ()).count(colour)
        for oid, oc in cmap.vertex[at][w]:
            if oid != at and oid in placed:
                ocorners, orot = placed[oid]
                total += ocorners[(oc - orot) % 6] == colour
    return total


def enclosed(cmap: HexMap, area: str, occupied: set[str]) -> bool:
    """An area is enclosed once every one of its sites holds a tile, neutral ones included (R-PLAZA-5, OPEN-46)."""
    sites = cmap.sites_of.get(area, ())
    return bool(sites) and all(s in occupied for s in sites)


def majority(claims: dict[int, int], spend: dict[int, int]) -> tuple[set[int], set[int]]:
    """(majority seats, other claimants) of an enclosed area (R-PLAZA-6).

    Most cubes wins; a tie goes to the highest sum of printed costs of the
    tied seats' cubed buildings (OPEN-36); a tie on that too makes all of the
    still-tied seats the majority. Seats with no cube are not claimants (R-PLAZA-3).
    """
    claimants = {s for s, n in claims.items() if n > 0}
    if not claimants:
        return set(), set()
    most = max(claims[s] for s in claimants)
    tied = {s for s in claimants if claims[s] == most}
    best = max(spend.get(s, 0) for s in tied)
    top = {s for s in tied if spend.get(s, 0) == best}
    return top, claimants - top


def legal_sites(cmap: HexMap, occupied: set[str]) -> list[str]:
    """Empty sites in file order: only sites take tiles, never another hex nor an area hex (R-BUILD-3, R-PLAZA-2)."""
    return [s for s in cmap.sites if s not in occupied]
