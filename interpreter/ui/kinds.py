"""The content kinds the front ends show by name. Each names a content file kind (or a record kind) of the
schema, and the part of the state (its ``table`` or a zone) the runtime keeps for it; nothing else about a game is named here."""

from __future__ import annotations

WHEEL_KIND = "wheel"  # the wheel of offers: frame positions around a turning wheel of slots
MAP_KIND = "hex_map"  # the shared map of hexes with its sites
ROUTE_KIND = "route"  # the pawn track with effects on its spaces
SLOTS_KIND = "slot_row"  # the slots that kept tiles are laid on


def claim_kind(rs) -> str | None:
    """The record kind players claim (the setup's `claim_kind`), if the pack has one."""
    setup = rs.single("setup")
    return getattr(setup, "claim_kind", None)


def table_key(rs, kind: str) -> str:
    """The key of the state's ``table`` under which a one-per-pack file's state is kept: the file's `id:`
    (the pack's own name for the board, which also titles it); the kind itself when the file has none."""
    model = rs.single(kind)
    return getattr(model, "id", None) or kind


def laid_on_slots(rules, zones: dict) -> dict[str, str]:
    """Slot -> record laid on it, for the slot row's slotted zone (``zones`` a state's or an
    observation's); empty when the pack has no slot row."""
    key = rules.tables.layout.slot_key
    if key is None:
        return {}
    return {slot: rid for slot, rid in zip(rules.tables.zones[key].slots, zones[key]) if rid is not None}
