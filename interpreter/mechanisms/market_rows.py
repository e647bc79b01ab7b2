"""Market rows: offers shown in slotted zones, refilled from face-down stacks per kind, era and quality.

The rows a game has are content (`setup.rows`: kind, regular and special position counts, refresh
costs); the tiles come from the record kinds with `era` and `special` fields. Both live in
``GameState.zones`` as zones the rows derive (registered in ``Tables.zones``, so the zone queries,
the observation and the scenarios see them like declared ones):

- a row is a public slotted zone ``<kind>_row`` (``row_zone``) whose slots are ``regular_1`` ..
  ``regular_R`` then ``special_1`` .. ``special_S`` (``row_slots``); a position of the notation
  (``refresh upgrade 1,4``) is a slot's 1-based index;
- each stack is a hidden pile ``<kind>_<era>_<quality>`` (``stack_zone``, ``upgrade_2_special``).

Zone contents are tuples shared by copies of a state: the functions here put new tuples into the
``zones`` mapping they are given and never change a tuple.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations
from typing import Iterable

from interpreter.errors import RulesError

QUALITIES = ("regular", "special")


@dataclass(frozen=True, slots=True)
class RowSpec:
    """A row as the runtime reads it (from a `setup.rows` entry): its kind and its numbers of positions."""

    kind: str
    regular: int
    special: int

    @property
    def zone(self) -> str:
        return row_zone(self.kind)


def row_specs(rows_model) -> dict[str, RowSpec]:
    """Row kind -> RowSpec, in the order of the content."""
    return {r.kind: RowSpec(r.kind, r.regular, r.special) for r in rows_model}


def stack_zone(kind: str, era: int, quality: str) -> str:
    """The id of the zone that holds a row's face-down tiles of one era and quality: ``<kind>_<era>_<quality>``."""
    return f"{kind}_{era}_{quality}"


def row_zone(kind: str) -> str:
    """The id of the slotted zone that shows a row's tiles: ``<kind>_row``."""
    return f"{kind}_row"


def row_slots(row) -> tuple[str, ...]:
    """A row's slot names, regular positions first: ``regular_1``, ..., ``special_1``, ..."""
    return tuple(f"{q}_{i}" for q in QUALITIES for i in range(1, getattr(row, q) + 1))


def quality_of(row, index: int) -> str:
    """Whether the slot at a 0-based index of the row is a regular or a special position."""
    return QUALITIES[index >= row.regular]


def _shuffle_order(group: tuple) -> str:
    """Stacks are shuffled in this order, the sorted order of their ids before they were zones
    (``tiles:<kind>:<era>:<quality>``), so that a seed deals the same tiles."""
    kind, era, quality = group
    return f"tiles:{kind}:{era}:{quality}"


def zone_of_old_key(key: str) -> str | None:
    """The zone of a stack saved under its old key (``tiles:<kind>:<era>:<quality>``); None for another key."""
    parts = key.split(":")
    if len(parts) == 4 and parts[0] == "tiles" and parts[2].isdigit() and parts[3] in QUALITIES:
        return stack_zone(parts[1], int(parts[2]), parts[3])
    return None


def contents_of_old_row(row: dict) -> tuple:
    """A row's zone contents from its saved form before rows were zones (``{"regular": [...], "special": [...]}``)."""
    return (*row.get("regular", ()), *row.get("special", ()))


def sort_stacks(records, rows_model) -> dict[str, tuple[str, ...]]:
    """Every tile of a row's kind in its (era, quality) stack, in id order (the same for every game),
    by zone id, in the order the stacks are shuffled."""
    groups: dict[tuple, list[str]] = {}
    kinds = {r.kind for r in rows_model}
    for (kind, rid), rec in sorted(records.items()):
        if kind in kinds:
            groups.setdefault((kind, rec.era, QUALITIES[rec.special]), []).append(rid)
    return {stack_zone(*g): tuple(groups[g]) for g in sorted(groups, key=_shuffle_order)}


def shuffled(sorted_stacks: dict[str, tuple[str, ...]], rng: random.Random) -> dict[str, tuple[str, ...]]:
    """Each stack shuffled, one after the other in the order of ``sort_stacks``."""
    out = {}
    for zone, ids in sorted_stacks.items():
        order = list(ids)
        rng.shuffle(order)
        out[zone] = tuple(order)
    return out


def deal(zones: dict, rows: Iterable[RowSpec], era: int) -> None:
    """Fill every row afresh for an era from the top of its stacks (R-SETUP-12, R-ERA-2); a position
    stays empty where its stack runs out."""
    for row in rows:
        zones[row_zone(row.kind)] = tuple(_draw(zones, stack_zone(row.kind, era, q))
                                          for q in QUALITIES for _ in range(getattr(row, q)))


def _draw(zones, key):
    stack = zones.get(key)
    if not stack:
        return None  # an exhausted stack leaves the position empty (OPEN-25)
    zones[key] = stack[1:]  # replaced, not changed in place: copies of the state share their zones
    return stack[0]


def positions(row, contents) -> dict[str, list]:
    """A row's contents split by quality, ``{"regular": [id | None, ...], "special": [...]}``: how the
    terminal, the picture and the web page show it."""
    line = list(contents)
    return {"regular": line[:row.regular], "special": line[row.regular:]}


def is_special(row, contents: tuple, tile: str) -> bool:
    """Whether a tile lies in one of the row's special positions."""
    return tile in contents[row.regular:]


def take(zones: dict, row, tile: str, era: int) -> None:
    """Take a tile from its row and refill the position from the matching stack (R-ROW-2)."""
    key = row_zone(row.kind)
    line = zones[key]
    if tile not in line:
        raise RulesError(f"{tile} is not in the {row.kind} row")
    i = line.index(tile)
    zones[key] = (*line[:i], _draw(zones, stack_zone(row.kind, era, quality_of(row, i))), *line[i + 1:])


def refresh_choices(row, contents: tuple) -> list[tuple[int, int]]:
    """Pairs of positions a refresh may remove: two regular tiles, or one regular and the special (R-ROW-5).

    Positions are 1-based over the row: the regular ones first, then the special ones.
    """
    n = row.regular
    regular = [i for i, t in enumerate(contents[:n], 1) if t is not None]
    special = [n + i for i, t in enumerate(contents[n:], 1) if t is not None]
    return list(combinations(regular, 2)) + [(r, s) for r in regular for s in special]


def _refreshable(row, contents: tuple, positions: tuple) -> bool:
    """Whether ``positions`` is one of ``refresh_choices``: two regular positions in increasing order, or a
    regular one and then a special one, each holding a tile."""
    if len(positions) != 2:
        return False
    a, b = positions
    n = row.regular
    if not (isinstance(a, int) and isinstance(b, int) and 1 <= a <= n and contents[a - 1] is not None):
        return False
    if b <= n:
        return a < b and contents[b - 1] is not None
    return b <= len(contents) and contents[b - 1] is not None


def refresh(zones: dict, row, positions: tuple[int, int], era: int) -> None:
    """Put two tiles face down under their own stacks and refill each position (R-ROW-5)."""
    key = row_zone(row.kind)
    line = list(zones[key])
    if not _refreshable(row, tuple(line), tuple(positions)):
        raise RulesError(f"positions {positions} are not a legal refresh of the {row.kind} row")
    spots = [(p - 1, stack_zone(row.kind, era, quality_of(row, p - 1))) for p in positions]
    for i, stack in spots:
        zones[stack] = (*zones.get(stack, ()), line[i])
        line[i] = None
    for i, stack in spots:
        line[i] = _draw(zones, stack)
    zones[key] = tuple(line)
