"""Markers moved on grids, and which first statements can be judged before an action starts."""

from __future__ import annotations

from interpreter.dsl import steps as S
from interpreter.errors import RulesError
from interpreter.runtime.state import Decision, Frame, GameState
from interpreter.runtime.natives.common import EMIT, _amounts, _mods, _prog, _push, can_afford, pay
from interpreter.runtime.natives.performing import _build_frame
from interpreter.runtime.natives.building import pick_options

# --------------------------------------------------------------------------- grids

_STEP = {"up": (1, 0), "down": (-1, 0), "left": (0, -1), "right": (0, 1)}


def _move_plan(m, state, seat, grid_id, word, ctx) -> tuple[str, tuple[int, int] | None, list]:
    """(direction, the square reached or None, what it costs) of one move (R-PROJ-3/4, OPEN-15, OPEN-16)."""
    grid = m.layout.grids[grid_id]
    row, col = state.players[seat].grids[grid.id]
    direction = grid.sideways if word == "sideways" else word
    dr, dc = _STEP[direction]
    nrow, ncol = row + dr, col + dc
    if not (1 <= nrow <= len(grid.cols) and ncol in grid.cols[nrow - 1]):
        return direction, None, []
    cost: list = []
    if direction == "up" and not ctx.get("free"):
        fake = Frame("", [], 0, seat, "")
        cost = _amounts(m, state, fake, grid.up_cost, ctx.get("discount")) if grid.up_cost else []
        entered = grid.tier[nrow - 1]
        if entered != grid.tier[row - 1] and entered in grid.tier_cost:
            cost += _amounts(m, state, fake, grid.tier_cost[entered])
    return direction, (nrow, ncol), cost


STARTS_THAT_CAN_FAIL = frozenset({S.Move, S.Pay, S.Advance, S.Build})  # the first statements cannot_start judges


def cannot_start(m, state, seat, key, event: dict | None = None) -> bool:
    """True when a program's first statement surely fails now (a payment, a move up or a single advance
    the player cannot make, a build with no tile to take): an exact, cheap rejection before the program
    is tried on a copy of the state. ``event``: the performance the program would run in (build rights)."""
    steps = m.tables.programs[key].steps
    if not steps:
        return False
    step = steps[0]
    kind = type(step)
    if kind is S.Move and step.steps is None:
        grid = m.layout.grids[step.grid]
        if step.direction == "up" and not step.modifiers and grid.up_cost:  # the move's own price, before its square is found
            price = m.constant(m.tables.programs[grid.up_cost])
            holdings = state.players[seat].holdings
            if price is not None:
                for r, n in price:
                    if holdings.get(r, 0) < n:
                        return True
        mods = _mods(m, state, Frame(key, [], 0, seat, "", None, event), step.modifiers) if step.modifiers else {}
        direction, target, cost = _move_plan(m, state, seat, step.grid, step.direction, mods)
        return direction == "up" and (target is None or not can_afford(state.players[seat], cost))
    if kind is S.Pay:
        return not m._can_pay(m._view(state, Frame(key, [], 0, seat, "", None, event)), step.amounts)
    if kind is S.Advance and step.times is None:
        return not m.can_advance(state, seat, step.track)
    if kind is S.Build:
        return not pick_options(m, state, _build_frame(m, state, Frame(key, [], 0, seat, "", None, event), step))
    return False


def move_step(m, state, frame) -> None:
    """One move of a marker on a grid, paying first (R-PROJ-3..5, OPEN-15, OPEN-16)."""
    state.frames.pop()
    ev = frame.event
    grid = m.layout.grids[ev["grid"]]
    player = state.player(frame.player)
    row, _ = player.grids[grid.id]
    direction, target, cost = _move_plan(m, state, frame.player, grid.id, ev["dir"], ev)
    if target is None:
        if direction == "up":
            raise RulesError(f"there is no square above on {grid.id}")
        return  # a sideways move with no square in its direction is lost
    if cost:
        pay(state, player, cost, f"a move up on {grid.id}")
    nrow, ncol = target
    player.grids = player.grids.with_entry(grid.id, [nrow, ncol])
    queue = []
    key = grid.squares.get((nrow, ncol))
    if key:
        queue.append(_prog(m, key, frame.player, f"{grid.id}:square"))
    tier = grid.tier[nrow - 1]
    if tier != grid.tier[row - 1] and tier in grid.tier_enter:
        queue.append(_prog(m, grid.tier_enter[tier], frame.player, f"{grid.id}:tier"))
    queue.append(Frame(EMIT, [], 0, frame.player, "", None,
                       {"event": "marker_moved", "params": {"grid": grid.id, "direction": ev["dir"]}}))
    _push(state, queue)
