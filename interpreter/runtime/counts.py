"""Counts that are no player's: the table's shared resources (a resource declared `shared: true`) and
what records keep (`put N M on this`, `take N M from this`: a mark the pack declares, or a resource
lying on the record). Both live in the state as read-only mappings (``GameState.shared``,
``GameState.marks``), replaced when they change, so copies of a state share them.

The executors of `put` and `take`, and the shared part of `gain` and `pay` (executors.py calls
``gain_shared`` and ``shared_paid`` for a step's ``shared`` amounts).
"""

from __future__ import annotations

from interpreter.dsl import steps as S
from interpreter.errors import RulesError
from interpreter.runtime.state import ReadOnlyDict

_NONE: dict = {}  # read only


def _values(m, state, frame, amounts) -> list[tuple[str, int]]:
    """The amounts' numbers now, for the frame's player; a computed one below zero is nothing."""
    view = m._view(state, frame)
    return [(r, n) for r, n in ((r, fn(view, None)) for r, fn in amounts) if n > 0]


def gain_shared(m, state, frame, amounts) -> None:
    """The table's counts grow (up to a resource's cap)."""
    caps, shared = m.tables.caps, state.shared
    changed = {}
    for r, n in _values(m, state, frame, amounts):
        total = changed.get(r, shared.get(r, 0)) + n
        cap = caps.get(r)
        changed[r] = total if cap is None else min(cap, total)
    if changed:
        state.shared = shared.merged(changed)


def shared_paid(m, state, frame, amounts) -> ReadOnlyDict:
    """The table's counts once these are paid (the state is left as it is: the statement sets them once the
    player's part is paid too); one that holds less than asked refuses the whole statement."""
    shared = state.shared
    values = _values(m, state, frame, amounts)
    short = [(r, n) for r, n in values if shared.get(r, 0) < n]
    if short:
        r, n = short[0]
        raise RulesError(f"the table holds {shared.get(r, 0)} {r}, not the {n} to pay")
    return shared.merged({r: shared.get(r, 0) - n for r, n in values}) if values else shared


def _record(frame, verb: str) -> str:
    if not frame.this:
        raise RulesError(f"`{verb} ... this` needs the record the effect belongs to")
    return frame.this[1]


def _keep(state, rid: str, kept: dict) -> None:
    """The record keeps these counts now (none left: it keeps nothing)."""
    kept = {k: v for k, v in kept.items() if v}
    state.marks = state.marks.with_entry(rid, ReadOnlyDict(kept)) if kept else ReadOnlyDict(
        {k: v for k, v in state.marks.items() if k != rid})


def _put(m, state, frame, step: S.Put) -> None:
    """`put N M on this`: the record keeps N more of each M (a resource comes from the stock)."""
    frame.pc += 1
    rid = _record(frame, "put")
    kept = dict(state.marks.get(rid, _NONE))
    for r, n in _values(m, state, frame, step.amounts):
        kept[r] = kept.get(r, 0) + n
    _keep(state, rid, kept)


def _take(m, state, frame, step: S.Take) -> None:
    """`take N M from this`: up to N of each M the record keeps go; a resource goes to the acting player."""
    frame.pc += 1
    rid = _record(frame, "take")
    kept = dict(state.marks.get(rid, _NONE))
    gains = []
    for r, n in _values(m, state, frame, step.amounts):
        taken = min(n, kept.get(r, 0))
        kept[r] = kept.get(r, 0) - taken
        if taken and r not in m.tables.marks:
            gains.append((r, taken))
    _keep(state, rid, kept)
    if gains:
        m._gain(state, frame, gains)


EXECUTORS = {S.Put: _put, S.Take: _take}
