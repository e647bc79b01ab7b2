"""Pieces on spaces (docs/core.md §4): workers on cards, family members on action spaces.

A space holds pieces up to a capacity, under an occupancy rule, and gives them back at a flow
point (``release``). Which spaces a piece may go to is decided here from the occupants alone; the
space's requirement (an expression such as "value + helpers >= 3") and its entry fee are content
programs the machine evaluates before asking. Occupants are tuples of ``Placement`` values, so a
copy of the state shares them safely; every function returns new occupants.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Mapping, NamedTuple

from interpreter.errors import RulesError

OCCUPANCY = ("any", "one_per_player", "one_coloured_per_player_in_group")
RELEASES = ("round_end", "phase_end", "never")


class Placement(NamedTuple):
    owner: int
    piece: str  # the piece's id, e.g. a worker or a member of one colour
    coloured: bool = True  # False for a neutral piece, which rules about coloured pieces ignore


@dataclass(frozen=True, slots=True)
class SpaceSpec:
    id: str
    capacity: int | None = 1  # None: any number
    occupancy: str = "any"
    group: str | None = None  # spaces of a group share the `one_coloured_per_player_in_group` rule
    release: str = "round_end"
    after_phase: str | None = None  # with release "phase_end": only at the end of this phase (None: of every phase)

    def __post_init__(self):
        if self.occupancy not in OCCUPANCY:
            raise ValueError(f"space {self.id!r}: occupancy must be one of {OCCUPANCY}")
        if self.release not in RELEASES:
            raise ValueError(f"space {self.id!r}: release must be one of {RELEASES}")
        if self.capacity is not None and self.capacity < 1:
            raise ValueError(f"space {self.id!r}: capacity must be at least 1")


Occupants = tuple[Placement, ...]


def refusal(spec: SpaceSpec, board: Mapping[str, Occupants], placement: Placement,
            specs: Mapping[str, SpaceSpec], enters_full: Callable[[str], bool] | None = None,
            groups_held: set[str | None] | None = None) -> str | None:
    """Why the piece may not go on the space, or None when it may (requirement and fee aside).
    ``enters_full(space)``: whether the placing player may go on that space although it is full (asked
    only then). ``groups_held``: the groups holding a coloured piece of the placing player, when the
    caller has them already (``coloured_groups``; found here otherwise)."""
    here = board.get(spec.id, ())
    if spec.capacity is not None and len(here) >= spec.capacity and not (enters_full and enters_full(spec.id)):
        return f"space {spec.id!r} is full"
    if spec.occupancy == "one_per_player" and any(p.owner == placement.owner for p in here):
        return f"player {placement.owner + 1} already has a piece on {spec.id!r}"
    if spec.occupancy == "one_coloured_per_player_in_group" and placement.coloured:
        if groups_held is None:
            groups_held = coloured_groups(board, specs, placement.owner)
        if spec.group in groups_held:
            return f"player {placement.owner + 1} already has a coloured piece in {spec.group or spec.id}"
    return None


def coloured_groups(board: Mapping[str, Occupants], specs: Mapping[str, SpaceSpec], owner: int) -> set[str | None]:
    """The groups (None for the spaces of no group) of the spaces holding a coloured piece of ``owner``."""
    return {specs[sid].group for sid, occupants in board.items()
            if sid in specs and any(p.owner == owner and p.coloured for p in occupants)}


def open_spaces(specs: Mapping[str, SpaceSpec], board: Mapping[str, Occupants], placement: Placement,
                enters_full: Callable[[str], bool] | None = None) -> list[str]:
    """Every space the piece may go on, in declaration order."""
    return list(iter_open_spaces(specs, board, placement, enters_full))


def iter_open_spaces(specs: Mapping[str, SpaceSpec], board: Mapping[str, Occupants], placement: Placement,
                     enters_full: Callable[[str], bool] | None = None) -> Iterator[str]:
    """The spaces the piece may go on, in declaration order, one at a time: a caller that needs only
    the first (is anything offered?) judges no more."""
    groups_held = None  # found once, for every space under the group rule
    for sid, spec in specs.items():
        if groups_held is None and spec.occupancy == "one_coloured_per_player_in_group" and placement.coloured:
            groups_held = coloured_groups(board, specs, placement.owner)
        if refusal(spec, board, placement, specs, enters_full, groups_held) is None:
            yield sid


def place(specs: Mapping[str, SpaceSpec], board: Mapping[str, Occupants], space: str, placement: Placement,
          enters_full: Callable[[str], bool] | None = None) -> Occupants:
    """The space's new occupants; a refused placement raises."""
    spec = specs[space]
    why = refusal(spec, board, placement, specs, enters_full)
    if why:
        raise RulesError(why)
    return board.get(space, ()) + (placement,)


def group_occupied(specs: Mapping[str, SpaceSpec], board: Mapping[str, Occupants], space: str) -> bool:
    """Whether a piece, anyone's, is on a space of the space's group (on the space itself when it has
    no group): the condition of a space's `occupied_cost`."""
    group = specs[space].group
    if group is None:
        return bool(board.get(space))
    return any(occupants and specs.get(sid) is not None and specs[sid].group == group
               for sid, occupants in board.items())


def occupied_by(board: Mapping[str, Occupants], space: str) -> tuple[int, ...]:
    """The owners of the pieces on a space, in the order they came."""
    return tuple(p.owner for p in board.get(space, ()))


def release(specs: Mapping[str, SpaceSpec], board: Mapping[str, Occupants], point: str,
            phase: str | None = None) -> tuple[dict[str, Occupants], list[Placement]]:
    """At a flow point (``round_end``, ``phase_end`` of ``phase``): the board with those spaces emptied,
    and the pieces that go back to their owners, space by space."""
    if point not in RELEASES:
        raise RulesError(f"no release point {point!r}")
    kept, back = {}, []
    for sid, occupants in board.items():
        spec = specs.get(sid)
        if spec is None:  # an emptied space on a record that left its zone: no space any more
            continue
        if spec.release == point and (spec.after_phase is None or spec.after_phase == phase):
            back += occupants
            kept[sid] = ()
        else:
            kept[sid] = occupants
    return kept, back


def specs_by_id(specs: Iterable[SpaceSpec]) -> dict[str, SpaceSpec]:
    out: dict[str, SpaceSpec] = {}
    for s in specs:
        if s.id in out:
            raise ValueError(f"space {s.id!r} is declared twice")
        out[s.id] = s
    return out
