"""Board mechanisms for the effect machine: performing actions, building tiles from rows onto the
personal area or the shared map, moving markers on grids, placing pieces, deferred (`later`)
effects, laying kept tiles on the slots of a slot row and resolving enclosed areas.

A mechanism that needs choices runs as a *native frame*: a frame whose key starts with "@" and
whose local data lives in ``frame.event``. A native's ``step`` advances it (setting a decision,
pushing program frames, or popping itself); its ``answer`` takes the decision's answer. So a half-
done mechanism clones and serialises with the state like any program.

State kept here: ``PlayerState.area`` (hex "q,r" -> stack of [tile, rotation], top last),
``PlayerState.used`` (connection ends that paid, R-CONN-1), ``table[<map id>]`` (site -> tile,
owner, rotation, piece), ``table["where"]`` (tile -> site), ``table["resolved"]`` (enclosed areas
already resolved), ``table[<slot row id>]`` (slot -> tile), and per turn ``turn_info["tops"]`` /
``turn_info["owed"]`` (upgrade bonuses, R-ACT-3/4) and ``turn_info["later"]`` (deferred effects).
"""

from __future__ import annotations

from interpreter.runtime.natives.common import (  # noqa: F401  (the package's names, used as natives.X)
    BONUS, BUILD, EMIT, MOVE, PERFORM, PICK_HALF,
    AREA, SLOT, _amounts, _mods, _prog, _push,
    _text, can_afford, emit_step, pay, top_of,
)
from interpreter.runtime.natives.performing import (  # noqa: F401  (the package's names, used as natives.X)
    _bonus_frame, _build_frame, _claimable, _defer, _note_top, _action_bonus,
    bonus_answer, bonus_step, later_frame, later_label, op_build, op_later,
    op_move, op_perform, op_place, perform_answer, perform_step, start_performance,
)
from interpreter.runtime.natives.building import (  # noqa: F401  (the package's names, used as natives.X)
    _bonus_grants, _cost, _discount_left, _labels_at, _may_special, _place_label,
    _placement, _rotations, build_answer, build_outlook, build_step, free_place,
    pick_options, place_options, place_tile, sure_picks,
)
from interpreter.runtime.natives.grids import (  # noqa: F401  (the package's names, used as natives.X)
    STARTS_THAT_CAN_FAIL, _STEP, _move_plan, cannot_start, move_step,
)
from interpreter.runtime.natives.areas import (  # noqa: F401  (the package's names, used as natives.X)
    slots_open, half_answer, half_step, slot_answer, slot_step, area_step,
)

NATIVES = {
    PERFORM: (perform_step, perform_answer),
    BUILD: (build_step, build_answer),
    MOVE: (move_step, None),
    AREA: (area_step, None),
    SLOT: (slot_step, slot_answer),
    BONUS: (bonus_step, bonus_answer),
    PICK_HALF: (half_step, half_answer),
    EMIT: (emit_step, None),
}

OPS = {"perform": op_perform, "build": op_build, "move": op_move, "place": op_place, "later": op_later}
