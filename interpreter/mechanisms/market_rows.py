"""Tile rows: face-down stacks per kind, era and quality, dealt into rows of regular and special positions.

The rows a game has are content (`setup.rows`: kind, regular and special position counts, refresh
costs); the tiles come from the record kinds with `era` and `special` fields. State lives in the
game state: each stack is a hidden zone of ``GameState.zones`` whose id ``stack_zone`` derives from
the row's kind, the era and the quality (``upgrade_2_special``), and the rows in ``GameState.table["rows"]``
as ``{kind: {"regular": [id | None, ...], "special": [id | None, ...]}}``; copies of a state share the
rows, so ``take`` and ``refresh`` return new rows rather than changing them.
"""

from __future__ import annotations

import random
from itertools import combinations

from interpreter.errors import RulesError

QUALITIES = ("regular", "special")


def stack_zone(kind: str, era: int, quality: str) -> str:
    """The id of the zone that holds a row's face-down tiles of one era and quality: ``<kind>_<era>_<quality>``."""
    return f"{kind}_{era}_{quality}"


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


def build_stacks(records, rows_model, rng: random.Random) -> dict[str, tuple[str, ...]]:
    """Every tile of a row's kind in its (era, quality) stack, shuffled."""
    return shuffled(sort_stacks(records, rows_model), rng)


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


def deal(stacks: dict[str, tuple[str, ...]], rows_model, era: int) -> dict:
    """Fresh rows for an era from the top of its stacks (R-SETUP-12, R-ERA-2); empty where a stack runs out."""
    rows = {}
    for row in rows_model:
        rows[row.kind] = {q: [_draw(stacks, stack_zone(row.kind, era, q)) for _ in range(getattr(row, q))] for q in QUALITIES}
    return rows


def _draw(stacks, key):
    stack = stacks.get(key)
    if not stack:
        return None  # an exhausted stack leaves the position empty (OPEN-25)
    stacks[key] = stack[1:]  # replaced, not changed in place: copies of the state share their stacks
    return stack[0]


def _with_own_row(rows: dict, kind: str) -> dict:
    """A copy of the rows in which the row of `kind` may be changed (the state's rows are shared by its copies)."""
    return {**rows, kind: {q: list(line) for q, line in rows[kind].items()}}


def take(rows: dict, stacks: dict, kind: str, tile: str, era: int) -> dict:
    """The rows after taking a tile from its row and refilling the position from the matching stack (R-ROW-2)."""
    rows = _with_own_row(rows, kind)
    for quality in QUALITIES:
        line = rows[kind][quality]
        if tile in line:
            line[line.index(tile)] = _draw(stacks, stack_zone(kind, era, quality))
            return rows
    raise RulesError(f"{tile} is not in the {kind} row")


def refresh_choices(rows: dict, kind: str) -> list[tuple[int, int]]:
    """Pairs of positions a refresh may remove: two regular tiles, or one regular and the special (R-ROW-5).

    Positions are 1-based over the row: the regular ones first, then the special ones.
    """
    regular = [i for i, t in enumerate(rows[kind]["regular"], 1) if t is not None]
    n = len(rows[kind]["regular"])
    special = [n + i for i, t in enumerate(rows[kind]["special"], 1) if t is not None]
    return list(combinations(regular, 2)) + [(r, s) for r in regular for s in special]


def _refreshable(row: dict, positions: tuple) -> bool:
    """Whether ``positions`` is one of ``refresh_choices``: two regular positions in increasing order, or a
    regular one and then a special one, each holding a tile."""
    if len(positions) != 2:
        return False
    a, b = positions
    n, regular, special = len(row["regular"]), row["regular"], row["special"]
    if not (isinstance(a, int) and isinstance(b, int) and 1 <= a <= n and regular[a - 1] is not None):
        return False
    if b <= n:
        return a < b and b >= 1 and regular[b - 1] is not None
    return b - n <= len(special) and special[b - n - 1] is not None


def refresh(rows: dict, stacks: dict, kind: str, positions: tuple[int, int], era: int) -> dict:
    """The rows after putting two tiles face down under their own stacks and refilling each position (R-ROW-5)."""
    if not _refreshable(rows[kind], tuple(positions)):
        raise RulesError(f"positions {positions} are not a legal refresh of the {kind} row")
    rows = _with_own_row(rows, kind)
    n = len(rows[kind]["regular"])
    spots = [("regular", p - 1) if p <= n else ("special", p - n - 1) for p in positions]
    for quality, i in spots:
        key = stack_zone(kind, era, quality)
        stacks[key] = (*stacks.get(key, ()), rows[kind][quality][i])
        rows[kind][quality][i] = None
    for quality, i in spots:
        rows[kind][quality][i] = _draw(stacks, stack_zone(kind, era, quality))
    return rows
