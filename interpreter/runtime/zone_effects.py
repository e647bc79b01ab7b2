"""The statements that move records between zones (docs/core.md §3), one executor per step class
(dsl/steps.py), registered in executors.EXECUTORS like the machine's other statements.

A zone an effect names is the acting player's (``frame.player``) when it is one per player, else the
shared one. Contents are tuples (runtime/zones.py) and ``state.zones`` and ``state.owners`` are
replaced, never changed in place, so copies of a state share them. A record put into a per-player
zone becomes that player's (``state.owners``); put into a shared zone it keeps its owner. A record in
a zone declared `owned: true` is also one of the player's owned records (``PlayerState.owned``) while
it is there (``_owned_zones``). Every record that changes zone emits ``record_moved`` (its record, the
zone it left, the zone it entered). A record a player gains by the turn's own ways (kept, placed,
claimed) enters their owned zone for its kind through ``gain`` (``give_up`` takes a used-up one out),
without ``record_moved``: the turn's own events say what happened.

Chance (a shuffle, a draw that refills from a shuffled zone) draws from the state's generator: the
``random.Random`` state saved in ``state.rng`` at setup is restored, used, and saved back as a new
list, so a game stays a pure function of its seed and a copy of a state draws what the original
would. A state without a saved generator refuses a shuffle (of two records or more).

What refuses a move (``ZoneError``, so the action is not offered): a full zone, an occupied slot, a
slot or end the zone does not have, `move this` outside a record's effect.
"""

from __future__ import annotations

import random

from interpreter.dsl import steps as S
from interpreter.errors import RulesError
from interpreter.runtime import chance
from interpreter.runtime import zones as Z
from interpreter.runtime.zones import ZoneError, ZoneSpec


# --------------------------------------------------------------------------- the state's generator

class _NoGenerator:
    """Stands for the generator of a state that saved none: fine while nothing needs shuffling."""

    def shuffle(self, items) -> None:
        if len(items) > 1:
            raise RulesError("this game saved no random generator (state.rng): its zones cannot be shuffled")


def generator(state) -> random.Random | _NoGenerator:
    """A ``random.Random`` in the state saved in ``state.rng`` ([version, internal state, gauss])."""
    if not state.rng:
        return _NoGenerator()
    return chance.generator(state.rng)


def save(state, rng) -> None:
    """Save the generator back into the state (a new list: copies of the state share the old one)."""
    if isinstance(rng, random.Random):
        state.rng = chance.saved_state(rng)


# --------------------------------------------------------------------------- zones of the acting player

def _zone(m, frame, zone_id: str) -> tuple[ZoneSpec, str]:
    spec = m.tables.zones[zone_id]
    return spec, Z.key(spec, frame.player if spec.per_player else None)


def _contents(state, spec: ZoneSpec, zone_key: str) -> tuple:
    return state.zones.get(zone_key, (None,) * len(spec.slots))


def _put_all(spec: ZoneSpec, contents: tuple, records, where: str) -> tuple:
    """Put records in the order given, the first one ending nearest ``where``: on top of a pile
    (``top``) they keep their order, the first on top; at its end (``bottom``) and into slots, in
    order."""
    records = tuple(records)
    if where == "top" and not spec.slots:
        records = records[::-1]
    for r in records:
        contents = Z.put(spec, contents, r, where)
    return contents


def _arrive(m, state, frame, records, from_zone: str | None, to_key: str) -> None:
    """Records that entered a zone: a per-player zone makes them its player's; each emits record_moved."""
    seat = Z.owner_of(to_key)
    if seat is not None and records:
        state.owners = state.owners.merged({r: seat for r in records})
    to_zone = to_key.partition("@")[0]
    kind_of = m.tables.kind_of
    for r in records:
        m.emit(state, frame.player, "record_moved", {"record": [kind_of.get(r), r], "from_zone": from_zone, "to_zone": to_zone})


def _owned_zones(m, state, before: dict) -> None:
    """Records that entered or left a zone declared `owned: true` (one per player) become or stop being
    its player's owned records (``PlayerState.owned``, by kind, in the order they came in; ``acquired``
    says the turn), so the triggers of the records there fire for the player and `count(<kind>)` and
    `use ... of each` count them. ``before``: ``state.zones`` before the statement changed it."""
    specs, kind_of = m.tables.zones, m.tables.kind_of
    for k, contents in state.zones.items():
        old = before.get(k, ())
        if old is contents or not specs[k.partition("@")[0]].owned:
            continue
        was, now = set(Z.records(old)), Z.records(contents)
        gone, came = was - set(now), [r for r in now if r not in was]
        if gone or came:
            _index(state, Z.owner_of(k), kind_of, gone, came)


def _index(state, seat: int, kind_of, gone, came) -> None:
    """Keep a player's owned records (``PlayerState.owned``, an index of their owned zones by kind, in the
    order the records came: triggers queue in that order) and ``acquired`` in step with their zones."""
    player = state.player(seat)
    for kind in dict.fromkeys(kind_of.get(r) for r in (*gone, *came)):
        if kind is None:  # not a record of the pack: nothing to own
            continue
        ids = [r for r in player.owned.get(kind, ()) if r not in gone]  # a new list: copies share the old one
        ids += [r for r in came if kind_of.get(r) == kind and r not in ids]
        player.owned = player.owned.with_entry(kind, ids)
    if came:
        player.acquired = player.acquired.merged({f"{kind_of.get(r)}:{r}": state.turn for r in came})


# --------------------------------------------------------------------------- gaining and giving up records

def gain(tables, state, seat: int, kind: str, record: str) -> None:
    """A record a player gains by the turn's own ways (kept from a stack, placed, claimed) goes to the
    bottom of their owned zone for its kind (``Tables.owned_zone``; validation makes sure there is one,
    without slots or a capacity): it becomes theirs (``state.owners``), one of their owned records,
    acquired this turn. It emits no ``record_moved``: the turn's own events (``tile_placed``, ...) say
    what happened."""
    spec = tables.owned_zone(kind)
    k = Z.key(spec, seat)
    state.zones = {**state.zones, k: Z.put(spec, _contents(state, spec, k), record, "bottom")}
    state.owners = state.owners.with_entry(record, seat)
    _index(state, seat, {record: kind}, (), (record,))


def give_up(tables, state, seat: int, kind: str, record: str) -> None:
    """A record leaves its player's owned zone for the box (a one-time record used up): no longer one
    of their owned records. It stays theirs in ``state.owners``, as a record moved to a shared zone does."""
    spec = tables.owned_zone(kind)
    k = Z.key(spec, seat)
    state.zones = {**state.zones, k: Z.remove(spec, _contents(state, spec, k), record)}
    _index(state, seat, {record: kind}, {record}, ())


def hold(tables, state, seat: int, kind: str, records) -> None:
    """Set which records of ``kind`` a player owns, in order (a scenario's setup, a test): their owned
    zone then holds exactly those of that kind, after its records of other kinds. ``acquired`` is left
    as it is (the scenario sets it when a trigger needs it)."""
    spec = tables.owned_zone(kind)
    if spec is None:
        raise ZoneError(f"no owned zone holds a {kind}: the player cannot own one")
    k = Z.key(spec, seat)
    records = tuple(records)
    others = tuple(r for r in _contents(state, spec, k) if tables.kind_of.get(r) != kind)
    state.zones = {**state.zones, k: others + records}
    state.owners = state.owners.merged({r: seat for r in records})
    player = state.player(seat)
    player.owned = player.owned.with_entry(kind, list(records))


# --------------------------------------------------------------------------- executors

def _zone_draw(m, state, frame, step: S.ZoneDraw) -> None:
    """`draw N from Z to Z2`: up to N records from the top of Z (refilled once from its `refill:` zone
    when it runs out) go on top of Z2 in order, the first drawn on top; fewer when there are not
    enough. `draw all`: every record Z holds now (no refill)."""
    frame.pc += 1
    specs = m.tables.zones
    src_spec, src = _zone(m, frame, step.source)
    dst_spec, dst = _zone(m, frame, step.to)
    pile = _contents(state, src_spec, src)
    n = Z.count(pile) if step.count is None else max(0, step.count(m._view(state, frame), None))
    present = {src: pile}
    if src_spec.refill_from is not None:
        refill_spec = specs[src_spec.refill_from]
        refill_key = Z.key(refill_spec, Z.owner_of(src) if refill_spec.per_player else None)
        present[refill_key] = _contents(state, refill_spec, refill_key)
    rng = generator(state) if src_spec.refill_shuffle else None
    changed, drawn = Z.draw(specs, present, src, n, rng)
    target = changed.get(dst, _contents(state, dst_spec, dst))
    changed[dst] = _put_all(dst_spec, target, drawn, "top")
    before, state.zones = state.zones, {**state.zones, **changed}
    _owned_zones(m, state, before)
    save(state, rng)
    _arrive(m, state, frame, drawn, step.source, dst)


def _zone_move(m, state, frame, step: S.ZoneMove) -> None:
    """`move this to Z [at P]`: the record leaves whichever zone holds it (none: it comes from outside
    the zones) and goes into Z. `move all from Z to Z2 [at P]`: every record of Z, in order."""
    frame.pc += 1
    dst_spec, dst = _zone(m, frame, step.to)
    if step.source is None:
        if not frame.this:
            raise ZoneError("`move this` needs the record the effect belongs to")
        record = frame.this[1]
        changed = {}
        holder = next((k for k, c in state.zones.items() if record in c), None)
        if holder is not None:
            changed[holder] = Z.remove(m.tables.zones[holder.partition("@")[0]], state.zones[holder], record)
        changed[dst] = _put_all(dst_spec, changed.get(dst, _contents(state, dst_spec, dst)), (record,), step.at)
        before, state.zones = state.zones, {**state.zones, **changed}
        _owned_zones(m, state, before)
        _arrive(m, state, frame, (record,), holder.partition("@")[0] if holder else None, dst)
        return
    src_spec, src = _zone(m, frame, step.source)
    moved = Z.records(_contents(state, src_spec, src))
    changed = {src: (None,) * len(src_spec.slots)}
    changed[dst] = _put_all(dst_spec, changed.get(dst, _contents(state, dst_spec, dst)), moved, step.at)
    before, state.zones = state.zones, {**state.zones, **changed}
    _owned_zones(m, state, before)
    _arrive(m, state, frame, moved, step.source, dst)


def _shuffle(m, state, frame, step: S.Shuffle) -> None:
    """`shuffle Z`: a chance node; the records of Z in a new order drawn from the state's generator
    (in a slotted zone, records and empty slots change places)."""
    frame.pc += 1
    spec, k = _zone(m, frame, step.zone)
    rng = generator(state)
    state.zones = {**state.zones, k: Z.shuffle(_contents(state, spec, k), rng)}
    save(state, rng)


def _refill(m, state, frame, step: S.Refill) -> None:
    """`refill Z` from its `refill:` zone (the same player's, when that one is per player): a slotted
    zone deals into its empty slots, in slot order, from the top (zones.fill_slots); a pile takes every
    record of the refill zone under its own, shuffled first when the refill says so."""
    frame.pc += 1
    specs = m.tables.zones
    spec, k = _zone(m, frame, step.zone)
    if spec.refill_from is None:
        raise ZoneError(f"zone {spec.id!r} declares no refill")
    src_spec = specs[spec.refill_from]
    src = Z.key(src_spec, Z.owner_of(k) if src_spec.per_player else None)
    contents, source = _contents(state, spec, k), _contents(state, src_spec, src)
    rng = None
    if spec.slots:
        filled, rest = Z.fill_slots(spec, contents, source)
        moved = tuple(r for r, before in zip(filled, contents) if before is None and r is not None)
        if src_spec.slots:
            rest = tuple(rest) + (None,) * (len(src_spec.slots) - len(rest))
    else:
        moved = Z.records(source)
        if spec.refill_shuffle:
            rng = generator(state)
            moved = Z.shuffle(moved, rng)
        filled, rest = _put_all(spec, contents, moved, "bottom"), (None,) * len(src_spec.slots)
    before = state.zones
    state.zones = {**state.zones, src: rest, k: filled} if src != k else {**state.zones, k: filled}
    _owned_zones(m, state, before)
    save(state, rng)
    _arrive(m, state, frame, moved, spec.refill_from, k)


ZONE_EXECUTORS = {S.ZoneDraw: _zone_draw, S.ZoneMove: _zone_move, S.Shuffle: _shuffle, S.Refill: _refill}
