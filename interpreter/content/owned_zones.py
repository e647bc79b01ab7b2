"""Where the records a player gains go (docs/core.md §3, "Owned zones").

A record a player gains by the ways the turn itself has (kept from a stack with ``draw N from S keep
K``, a tile placed, a record claimed) goes to the bottom of that player's zone declared ``owned:
true`` that holds its kind, else of one that holds any kind (``owned_zone_for``). While it is there
it is one of the player's owned records: its triggers fire for them, ``count(<kind>)`` and ``use ...
of each <kind>`` include it. So a pack that lets players gain records declares where they lie, and
the check here (E322) makes sure it did, with a zone that can always take one more (no slots, no
capacity), so that what validates plays.
"""

from __future__ import annotations

from typing import Iterable

from interpreter.dsl import ast as A
from interpreter.errors import ErrorBag

WHY = "declare a zone with `per: player`, `owned: true` and `holds: {kind}` (no slots, no capacity)"


def owned_zone_for(zones: Iterable, kind: str | None):
    """The owned zone (a declaration or a runtime spec: anything with ``owned`` and ``holds``) a record of
    ``kind`` a player gains goes into: the first that holds that kind, else the first that holds any."""
    zones = [z for z in zones if z.owned]
    return next((z for z in zones if z.holds == kind), None) or next((z for z in zones if z.holds is None), None)


def problem(zones: Iterable, kind: str | None, how: str) -> str | None:
    """Why a record of ``kind`` gained ``how`` (a phrase: "placed", "kept from stack 'x'") has nowhere to
    go, or None when its owned zone can take it."""
    zone = owned_zone_for(zones, kind)
    what = f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}" if kind else "a record"
    if zone is None:
        return f"{what} {how} becomes the player's, but no zone is declared to hold it: {WHY.format(kind=kind or '<kind>')}"
    if zone.slots or zone.capacity is not None:
        return (f"{what} {how} goes into the player's zone '{zone.id}', which has "
                f"{'slots' if zone.slots else 'a capacity'} and so could be full: drop them, or declare another owned zone for it")
    return None


def check_kept(fields, zones: list, stacks: dict[str, str | None], errors: ErrorBag) -> None:
    """E322 for a `draw N from S keep K` (without `to <track>`) whose kept records have no owned zone.
    ``stacks``: stack id -> the kind it holds (None: any)."""
    for f in fields:
        if f.start == "amounts":  # a cost or a reward list: no statements
            continue
        for node in A.walk(f.ast):
            if isinstance(node, A.Draw) and node.to is None and node.stack.text in stacks:
                why = problem(zones, stacks[node.stack.text], f"kept from stack '{node.stack.text}'")
                if why:
                    errors.add("E322", why, f.span_at(*node.pos))
