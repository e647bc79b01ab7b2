"""Per-player copies of records (docs/core.md §3): a zone declared `per: player, start: copies`
starts, for every player, with a copy of each record of the kind it holds, owned by that player.

A copy's id is the record's id, ``~`` and the player's number from 1 (``farm~2``: player 2's farm);
content ids never hold a ``~``, so a copy is never mistaken for a record. The tables read a copy
as its record (``add_copies``: its kind, its fields, the program keys of its effects and its
triggers), for every player count the pack allows, so one set of tables serves every game of the
pack; ``Tables.ids_of`` lists the records only. ``deal`` fills the zones and the owners at the
start of a game.
"""

from __future__ import annotations

from interpreter.runtime import zones as Z
from interpreter.runtime.state import ReadOnlyDict

COPY = "~"


def copy_id(rid: str, seat: int) -> str:
    """The id of the copy of record ``rid`` that seat ``seat`` (from 0) owns."""
    return f"{rid}{COPY}{seat + 1}"


def base_id(rid: str) -> str:
    """The record a copy is of (a record is its own base)."""
    return rid.partition(COPY)[0]


def copied_kinds(pack) -> tuple[str, ...]:
    """The kinds some zone starts with copies of."""
    return tuple(dict.fromkeys(z.holds for z in pack.zones if z.start == "copies" and z.holds and z.per == "player"))


def add_copies(pack, records: dict, kind_of: dict, keys: dict, triggers: dict) -> None:
    """Register every copy a game of the pack can have as its record (in place, while the tables are built)."""
    kinds = copied_kinds(pack)
    if not kinds:
        return
    players = pack.players.max
    originals = [(kind, rid) for (kind, rid) in records if kind in kinds]
    fields = {}
    for (kind, rid, fld), key in keys.items():
        if kind in kinds:
            fields.setdefault((kind, rid), []).append((fld, key))
    for kind, rid in originals:
        for seat in range(players):
            cid = copy_id(rid, seat)
            records[(kind, cid)] = records[(kind, rid)]
            kind_of[cid] = kind
            for fld, key in fields.get((kind, rid), ()):
                keys[(kind, cid, fld)] = key
            if (kind, rid) in triggers:
                triggers[(kind, cid)] = triggers[(kind, rid)]


def deal(rules, state) -> None:
    """Fill every `start: copies` zone of a new game: each player's zone gets a copy of every record of
    its kind, in content order, and the player owns them (in an `owned: true` zone, as owned records too)."""
    pack = rules.ruleset.single("pack")
    owners = dict(state.owners)
    for z in pack.zones:
        if z.start != "copies" or not z.holds or z.per != "player":
            continue
        spec = rules.tables.zones[z.id]
        for seat in range(len(state.players)):
            ids = tuple(copy_id(rid, seat) for rid in rules.tables.ids_of(z.holds))
            state.zones = {**state.zones, Z.key(spec, seat): ids}
            owners.update((cid, seat) for cid in ids)
            if spec.owned:
                player = state.player(seat)
                player.owned = player.owned.with_entry(z.holds, [*player.owned.get(z.holds, ()), *ids])
    state.owners = ReadOnlyDict(owners)
