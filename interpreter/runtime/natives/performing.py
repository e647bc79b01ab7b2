"""Performing an action (the `perform` statement and the turn's actions), its bonuses and deferred (`later`) effects; the statements the machine hands to the board mechanisms."""

from __future__ import annotations

from interpreter.content.bounds import STEP_BUDGET, runaway
from interpreter.dsl import steps as S
from interpreter.runtime.state import Decision, Frame, GameState
from interpreter.runtime.natives.common import BONUS, BUILD, MOVE, PERFORM, _mods, _prog, _push, top_of

# --------------------------------------------------------------------------- statements

def op_perform(m, state, frame, step: S.Perform) -> None:
    action = step.action
    ctx = _mods(m, state, frame, step.modifiers)
    if action is None:  # `perform any`: the player chooses the action
        state.frames.append(Frame(PERFORM, [], 0, frame.player, frame.source, None,
                                  {"action": None, "main": False, **ctx, "phase": "choose"}))
        return
    state.frames.append(start_performance(frame.player, action, main=False, ctx=ctx))


def start_performance(player: int, action: str, main: bool, ctx: dict | None = None) -> Frame:
    return Frame(PERFORM, [], 0, player, f"action:{action}", None, {"action": action, "main": main, **(ctx or {}),
                                                                      "phase": "start"})


def op_build(m, state, frame, step: S.Build) -> None:
    state.frames.append(_build_frame(m, state, frame, step))


_NO_MODS: dict = {}  # what _mods makes of no modifiers (read only)


def _build_frame(m, state, frame, step: S.Build) -> Frame:
    kind = step.kind
    ctx = frame.event if frame.event and "action" in frame.event else {}  # the performance this build is part of
    extra = _mods(m, state, frame, step.modifiers) if step.modifiers else _NO_MODS  # (most builds have none)
    discount = dict(ctx.get("discount") or {})
    for r, n in extra.get("discount", {}).items():
        discount[r] = discount.get(r, 0) + n
    return Frame(BUILD, [], 0, frame.player, frame.source, None,
                 {"kind": kind, "main": bool(ctx.get("main")), "discount": discount,
                  "with": list(ctx.get("with", [])) + extra.get("with", []), "phase": "pick"})


def op_move(m, state, frame, step: S.Move) -> None:
    grid, direction, steps_fn = step.grid, step.direction, step.steps
    n = steps_fn(m._view(state, frame), None) if steps_fn else 1
    if n > STEP_BUDGET:  # a count read from the game: more moves than one action may run (bounds.py)
        raise runaway(state, m.tables.spans)
    ctx = _mods(m, state, frame, step.modifiers)
    for _ in range(n):
        state.frames.append(Frame(MOVE, [], 0, frame.player, frame.source, None, {"grid": grid, "dir": direction, **ctx}))


def op_place(m, state, frame, step: S.Place) -> None:
    """`place PIECE on this`: a free piece of the player goes on the record (a claim, R-BUILD-6)."""
    piece = step.piece
    player = state.player(frame.player)
    if not frame.this or player.pieces_free.get(piece, 0) <= 0:
        return  # without a free piece the tile is still built, with no claim
    site = state.table.get("where", {}).get(frame.this[1])
    if site is None:
        return
    player.pieces_free = player.pieces_free.with_entry(piece, player.pieces_free[piece] - 1)
    key = m.layout.map_key
    sites = state.table[key]
    state.table[key] = {**sites, site: {**sites[site], "piece": [piece, frame.player]}}


def op_later(m, state, frame, step: S.Later) -> None:
    """`later: X` — the active player resolves X at any moment of this turn (R-TIME-1); at once otherwise."""
    addr = frame.addr + [frame.pc - 1, 0]
    entry = {"key": frame.key, "addr": addr, "trigger": frame.trigger, "player": frame.player, "source": frame.source,
             "this": frame.this, "event": frame.event, "label": later_label(frame.key)}
    if frame.player == state.current and not state.table.get("scoring"):
        _defer(state, entry)
    else:
        state.frames.append(later_frame(entry))


def later_label(key: str) -> str:
    parts = key.split("/")
    return parts[-2] if len(parts) >= 2 else key


def later_frame(e: dict) -> Frame:
    return Frame(e["key"], list(e["addr"]), 0, e["player"], e["source"], e["this"], e["event"], e["trigger"])


# --------------------------------------------------------------------------- performing an action

def perform_step(m, state, frame) -> None:
    ev = frame.event
    player = state.players[frame.player]
    if ev["phase"] == "choose":
        state.decision = Decision(frame.player, "choose", list(m.layout.actions), {})
        return
    action = ev["action"]
    if ev["phase"] == "start":
        _note_top(m, state, player, action)
        ev["phase"] = "done"
        ctx = {"action": action, "main": ev["main"], "discount": ev.get("discount", {}), "with": ev.get("with", [])}
        state.frames.append(Frame(f"pack/actions/{action}/effect", [], 0, frame.player, f"action:{action}", None, ctx))
        return
    state.frames.pop()
    m.emit(state, frame.player, "action_performed", {"action": action})
    _action_bonus(m, state, frame.player, action)


def perform_answer(m, state, frame, index, d) -> None:
    frame.event["action"] = d.options[index]
    frame.event["phase"] = "start"
    frame.source = f"action:{frame.event['action']}"


def _note_top(m, state, player, action) -> None:
    """Remember every tile that was the top upgrade of an action's hex this turn (R-ACT-4)."""
    at = m.layout.action_hex_keys.get(action)
    if at is None:
        return
    top = top_of(player, at)
    tops = state.turn_info.get("tops", {})
    seen = tops.get(action)
    if seen is None or (top and top[0] not in seen):
        seen = list(seen or ())
        if top and top[0] not in seen:
            seen.append(top[0])
        state.turn_info["tops"] = {**tops, action: seen}


def _action_bonus(m, state, seat: int, action: str) -> None:
    """One upgrade bonus per performance (R-ACT-3), claimed at any moment of the turn from any tile that
    was the top of that hex this turn (R-ACT-4): a deferred item, resolved at the end of the turn if
    not before. With no upgrade yet it is owed, and becomes claimable if the hex is upgraded this turn."""
    _note_top(m, state, state.players[seat], action)
    if state.turn_info.get("tops", {}).get(action):
        _claimable(state, seat, action)
    else:
        owed = state.turn_info.get("owed", {})
        state.turn_info["owed"] = {**owed, action: owed.get(action, 0) + 1}


def _claimable(state, seat, action) -> None:
    entry = {"key": BONUS, "addr": [], "trigger": None, "player": seat, "source": f"action:{action}", "this": None,
             "event": {"action": action}, "label": f"bonus:{action}"}
    if seat == state.current and not state.table.get("scoring"):
        _defer(state, entry)
    else:
        state.frames.append(later_frame(entry))


def _defer(state, entry: dict) -> None:
    # turn_info's values are replaced, never changed in place: copies of the state share them
    state.turn_info["later"] = [*state.turn_info.get("later", ()), entry]


def _bonus_frame(m, seat, tile) -> Frame:
    kind = m.tables.kind_of[tile]
    return _prog(m, m.tables.keys[(kind, tile, "bonus")], seat, tile, (kind, tile))


def bonus_step(m, state, frame) -> None:
    tops = state.turn_info.get("tops", {}).get(frame.event["action"], [])
    if len(tops) == 1:
        state.frames.pop()
        _push(state, [_bonus_frame(m, frame.player, tops[0])])
    else:  # re-upgraded this turn: the old or the new bonus, never both
        state.decision = Decision(frame.player, "choose", list(tops), {})


def bonus_answer(m, state, frame, index, d) -> None:
    state.frames.pop()
    _push(state, [_bonus_frame(m, frame.player, d.options[index])])
