"""Zones: one container for decks, hands, discard piles, market rows, tableaus, a road of cards,
the floors of a column of offers and face-down stacks (docs/core.md §3).

A zone is declared by content (``ZoneSpec``: what it holds, shared or one per player, ordered or
not, who sees it, named slots or a capacity, where it refills from). Its contents live in the game
state as a **tuple** under the zone's key (``zone`` or ``zone@seat``): top first for a pile, one
entry per slot (``None`` when empty) for a slotted zone. Tuples cannot change in place, so copies
of a state share their zones safely; every function here returns new contents and never changes
its arguments. Chance (shuffles) draws from the ``random.Random`` it is given, in a fixed order, so
a game is a pure function of its seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable, Mapping

from interpreter.errors import RulesError
from interpreter.runtime import chance

VISIBILITIES = ("public", "owner", "hidden")
Contents = tuple  # of record ids (a pile, top first) or of ids and None (a slotted zone)


@dataclass(frozen=True, slots=True)
class ZoneSpec:
    id: str
    holds: str | None = None  # the record kind it holds; None: records of any kind
    per_player: bool = False
    ordered: bool = True  # False: a set of records (a tableau); its order is only the order of arrival
    visibility: str = "public"  # public | owner (its owner sees it, others its size) | hidden (size only)
    slots: tuple[str, ...] = ()  # named positions, each holding at most one record; () for a pile
    capacity: int | None = None  # at most this many records (a slotted zone: its number of slots)
    refill_from: str | None = None  # a zone whose records become this one's when a draw finds it empty
    refill_shuffle: bool = False  # shuffle them on the way (a chance node)
    owned: bool = False  # its records are its player's owned records (PlayerState.owned) while they are in it

    def __post_init__(self):
        if self.visibility not in VISIBILITIES:
            raise ValueError(f"zone {self.id!r}: visibility must be one of {VISIBILITIES}")
        if len(set(self.slots)) != len(self.slots):
            raise ValueError(f"zone {self.id!r}: a slot is named twice")

    @property
    def pile(self) -> bool:
        """A shared zone without slots: a stack, pool or deck that a draw to keep looks at."""
        return not self.per_player and not self.slots

    @property
    def limit(self) -> int | None:
        return len(self.slots) if self.slots else self.capacity


class ZoneError(RulesError):
    """A move the zone's rules refuse: full, occupied slot, a record that is not there."""


def key(spec: ZoneSpec, owner: int | None = None) -> str:
    """Where a zone's contents live in the state: ``id`` when shared, ``id@seat`` per player."""
    if spec.per_player:
        if owner is None:
            raise ZoneError(f"zone {spec.id!r} belongs to a player: name whose")
        return f"{spec.id}@{owner}"
    return spec.id


def owner_of(zone_key: str) -> int | None:
    _, at, seat = zone_key.partition("@")
    return int(seat) if at else None


def empty(specs: Iterable[ZoneSpec], players: int) -> dict[str, Contents]:
    """Every zone's contents at the start: no records; a slotted zone has all its slots empty."""
    out: dict[str, Contents] = {}
    for spec in specs:
        blank = (None,) * len(spec.slots)
        for owner in (range(players) if spec.per_player else (None,)):
            out[key(spec, owner)] = blank
    return out


# ---------------------------------------------------------------- queries

def records(contents: Contents) -> tuple[str, ...]:
    """The records a zone holds, in order (empty slots left out)."""
    return tuple(r for r in contents if r is not None)


def count(contents: Contents) -> int:
    return sum(1 for r in contents if r is not None)


def top(contents: Contents) -> str | None:
    """The first record (a pile's top, a row's first filled slot)."""
    return next((r for r in contents if r is not None), None)


def position(contents: Contents, record: str) -> int | None:
    """0-based index of a record in the zone (its slot's index in a slotted zone), or None."""
    try:
        return contents.index(record)
    except ValueError:
        return None


def slot_of(spec: ZoneSpec, contents: Contents, record: str) -> str | None:
    i = position(contents, record)
    return None if i is None or not spec.slots else spec.slots[i]


def free_slots(spec: ZoneSpec, contents: Contents) -> tuple[str, ...]:
    return tuple(s for s, r in zip(spec.slots, contents) if r is None)


# ---------------------------------------------------------------- changes (each returns new contents)

def put(spec: ZoneSpec, contents: Contents, record: str, where: str = "top") -> Contents:
    """Add a record: on top or at the bottom of a pile; into a named slot of a slotted zone, or its
    first free slot (``"top"`` or ``"slot"``) or last free slot (``"bottom"``). A full zone or an
    occupied slot refuses it."""
    if spec.slots:
        name = where
        if where in ("top", "bottom", "slot"):
            free = free_slots(spec, contents)
            if not free:
                raise ZoneError(f"zone {spec.id!r} has no free slot for {record!r}")
            name = free[0] if where != "bottom" else free[-1]
        if name not in spec.slots:
            raise ZoneError(f"zone {spec.id!r} has no slot {name!r}")
        i = spec.slots.index(name)
        if contents[i] is not None:
            raise ZoneError(f"slot {name!r} of zone {spec.id!r} already holds {contents[i]!r}")
        return contents[:i] + (record,) + contents[i + 1:]
    if spec.capacity is not None and len(contents) >= spec.capacity:
        raise ZoneError(f"zone {spec.id!r} is full ({spec.capacity})")
    if where == "top":
        return (record,) + contents
    if where == "bottom":
        return contents + (record,)
    raise ZoneError(f"zone {spec.id!r} has no slots; put a record on top or at the bottom, not at {where!r}")


def remove(spec: ZoneSpec, contents: Contents, record: str) -> Contents:
    """Take a record out; a slotted zone keeps the slot, empty."""
    i = position(contents, record)
    if i is None:
        raise ZoneError(f"zone {spec.id!r} does not hold {record!r}")
    if spec.slots:
        return contents[:i] + (None,) + contents[i + 1:]
    return contents[:i] + contents[i + 1:]


def shuffle(contents: Contents, rng: random.Random) -> Contents:
    """A chance node: the records in a new order (``random.shuffle`` on a list of them)."""
    order = list(contents)
    chance.shuffle(order, rng)
    return tuple(order)


def draw(specs: Mapping[str, ZoneSpec], zones: Mapping[str, Contents], zone_key: str, n: int,
         rng: random.Random) -> tuple[dict[str, Contents], tuple[str, ...]]:
    """Take up to ``n`` records from the top of a pile. When it runs out and declares a refill, the
    refill zone (same owner) is emptied into it, shuffled if declared, and the draw goes on; it
    refills at most once per draw, so an empty pair of zones ends it. Returns the changed zones and
    the records drawn (fewer than ``n`` when there are not enough)."""
    spec = specs[zone_key.partition("@")[0]]
    owner = owner_of(zone_key)
    pile = records(zones[zone_key])
    changed: dict[str, Contents] = {}
    drawn: list[str] = []
    refilled = False
    while len(drawn) < n:
        if not pile:
            if refilled or spec.refill_from is None:
                break
            source_spec = specs[spec.refill_from]
            source_key = key(source_spec, owner if source_spec.per_player else None)
            pile = records(zones[source_key])
            if spec.refill_shuffle:
                pile = shuffle(pile, rng)
            changed[source_key] = (None,) * len(source_spec.slots)
            refilled = True
            continue
        take = min(n - len(drawn), len(pile))
        drawn += pile[:take]
        pile = pile[take:]
    changed[zone_key] = pile if not spec.slots else _slotted(spec, pile)
    return changed, tuple(drawn)


def fill_slots(spec: ZoneSpec, contents: Contents, source: Contents) -> tuple[Contents, Contents]:
    """Deal into every empty slot, in slot order, from the top of a pile: (new contents, the rest of
    the pile). Slots stay empty where the pile runs out."""
    pile = list(records(source))
    out = list(contents)
    for i, r in enumerate(out):
        if r is None and pile:
            out[i] = pile.pop(0)
    return tuple(out), tuple(pile)


def _slotted(spec: ZoneSpec, items: tuple) -> Contents:
    items = items[: len(spec.slots)]
    return tuple(items) + (None,) * (len(spec.slots) - len(items))


# ---------------------------------------------------------------- what a player sees

def observe(specs: Mapping[str, ZoneSpec], zones: Mapping[str, Contents], viewer: int | None) -> dict:
    """Each zone as ``viewer`` may see it: its records, or only ``{"size": n}`` where hidden from
    them (a hidden zone from everyone, an owner's zone from the other players). ``viewer=None``
    is a spectator, who sees only public zones."""
    out = {}
    for zone_key, contents in zones.items():
        spec = specs[zone_key.partition("@")[0]]
        out[zone_key] = list(contents) if visible(spec, zone_key, viewer) else {"size": count(contents)}
    return out


def visible(spec: ZoneSpec, zone_key: str, viewer: int | None) -> bool:
    """Whether a seat (None: a spectator) sees the records of a zone, and their order."""
    return spec.visibility == "public" or (spec.visibility == "owner" and viewer is not None
                                           and owner_of(zone_key) == viewer)


def specs_of(declared) -> dict[str, ZoneSpec]:
    """Compile a pack's validated zone declarations (``pack.zones``) into specs, by zone id."""
    return {z.id: ZoneSpec(
        id=z.id, holds=z.holds, per_player=z.per == "player", ordered=z.ordered, visibility=z.visibility,
        slots=tuple(z.slots), capacity=z.capacity,
        refill_from=z.refill.zone if z.refill else None, refill_shuffle=bool(z.refill and z.refill.shuffle),
        owned=z.owned,
    ) for z in declared}
