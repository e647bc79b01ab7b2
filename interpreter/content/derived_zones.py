"""The zones a pack does not declare but its boards imply: the market rows' face-down stacks and
rows (mechanisms/market_rows.py) and the slot row's zone. One list, read by the name resolver (so
`count(wall_row)` and zone statements know them), the reference checks (E216: a declared zone or
record must not take such an id) and the runtime's tables (their ZoneSpecs)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from interpreter.mechanisms import market_rows


@dataclass(frozen=True)
class DerivedZone:
    id: str
    holds: str | None  # the record kind it holds
    slots: tuple[str, ...] = ()  # () for a pile
    hidden: bool = False  # a face-down stack (no seat sees its records); otherwise public
    derived_for: str = ""  # what implies it, for an error message


def derived_zones(models: Mapping[str, Sequence], record_kinds: Mapping) -> list[DerivedZone]:
    """Every derived zone, in the order the runtime registers them: the rows' stacks in the order
    they are shuffled, then the rows, then the slot row. ``models``: file kind -> its file models;
    ``record_kinds``: record kind -> its declaration (file kind and list field)."""
    setup = next(iter(models.get("setup", ())), None)
    rows = list(setup.rows) if setup is not None else []
    tiles = {}
    for row in rows:
        rk = record_kinds.get(row.kind)
        for m in models.get(rk.file_kind, ()) if rk is not None else ():
            for rec in getattr(m, rk.field):  # a row's tiles: the records of its kind with an era and a quality
                if isinstance(getattr(rec, "era", None), int) and isinstance(getattr(rec, "special", None), bool):
                    tiles[(row.kind, rec.id)] = rec
    kind_of = {rid: kind for kind, rid in tiles}
    out = [DerivedZone(zid, kind_of[ids[0]], hidden=True, derived_for="a stack (<kind>_<era>_<quality>)")
           for zid, ids in market_rows.sort_stacks(tiles, rows).items()]
    out += [DerivedZone(market_rows.row_zone(row.kind), row.kind, market_rows.row_slots(row), derived_for="a row (<kind>_row)")
            for row in rows]
    slot_row = next(iter(models.get("slot_row", ())), None)
    if slot_row is not None:  # the row of slots kept tiles are laid on: a slotted zone named by its id
        holds = next((k for k, rk in record_kinds.items() if rk.file_kind == "slot_row"), None)
        out.append(DerivedZone(slot_row.id, holds, tuple(p.id for p in slot_row.slots), derived_for="the slot row (its id)"))
    return out
