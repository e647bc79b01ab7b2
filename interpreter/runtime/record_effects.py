"""`run F of this` / `run F of R` (docs/core.md §3): a record's effect field runs as a program, one
executor per step class (dsl/steps.py), added to the machine's table in executors.py.

The field's program runs for the frame's player (so `as owner: run secondary of this` runs it for the
record's owner) with `this` bound to the record, and its points are the record's (a per-player copy's
are its record's, copies.py); the frame's event
parameters go with it (a placed piece's `value` stays readable). A record without the field (an
optional one left out) runs nothing. Only the program's statements run: its triggers listen as the
record's triggers always do.
"""

from __future__ import annotations

from interpreter.dsl import steps as S
from interpreter.runtime.copies import base_id
from interpreter.runtime.state import Frame


def _run(m, state, frame, step: S.Run) -> None:
    frame.pc += 1
    if step.record is None:
        record = frame.this
    else:
        record = [m.tables.kind_of[step.record], step.record]
    if not record:
        return
    kind, rid = record
    key = m.tables.keys.get((kind, rid, step.field))
    if key is not None:
        state.frames.append(Frame(key, [], 0, frame.player, base_id(rid), [kind, rid], frame.event))


EXECUTORS = {S.Run: _run}
