"""`visit S [or S2 ...] at E` (docs/core.md §4): a space's programs run for the acting player without a
piece, as if one worth E had been put there: an action a card grants (a gathering of value 4, a card taken
from any column at value 7). The player picks the space (a named one, or one on a record of a zone with
spaces on it) and a boost; the value is E plus the space's `value_bonus` plus the boost, which the
first menu entry that puts pieces on spaces with a `boost` prices. The space's `min_value` and
`requires` must hold, its `cost` and the boost are paid, and its `effect` runs, reading the value as
`value` and `visiting` as 1; nothing is put on the space, so its capacity, occupancy and
`occupied_cost` play no part. Only the visits that can be carried out are offered (each tried on a copy of
the state, up to its next decision); with none, the statement cannot be carried out, so a `may visit`
declines.

The options live in a native frame (``VISIT``) until the player answers (`choose n`, in the order the
spaces are named, each space's boosts from 0).
"""

from __future__ import annotations

from interpreter.errors import RulesError, RunawayError
from interpreter.runtime.core_flow import STOPPED
from interpreter.runtime import placing, zones as Z
from interpreter.runtime.state import Decision, Frame
from interpreter.runtime.view import PLACED_VALUE, VISITING, View

VISIT = "@visit"


def boost_entry(rules):
    """The menu entry whose `boost` prices a visit's boost (the first that puts pieces on spaces with one), or None."""
    return rules.tables.once(("visiting", "boost"), lambda: next(
        (e for entries in rules.menus.values() for e in entries if e.source == "spaces" and e.boost), None))


def _value(rules, state, seat: int, sid: str, this, programs, base: int, boost: int) -> int:
    """What a visit of the space is worth: the given value, the space's bonus and the boost (as a piece's,
    placing.value_of, with no piece)."""
    return base + placing.value_of(rules, state, seat, None, sid, this, programs, boost)


def _spaces(rules, state, name: str) -> list[tuple[str, list | None]]:
    """(space id, its record) of a declared space: itself, or one per record of the zone it is on."""
    if name in rules.spaces:
        return [(name, None)]
    zone = next(z for z, _, declared in rules.zone_spaces if declared == name)
    kind_of = rules.tables.kind_of
    return [(rid, [kind_of[rid], rid]) for rid in Z.records(state.zones.get(zone, ()))]


def options(rules, state, seat: int, names, base: int) -> list[list]:
    """[space, boost, declared space] of every visit the value and requirements allow now."""
    entry = boost_entry(rules)
    boosts = placing.boosts(rules, state, entry, seat) if entry is not None else (0,)
    programs_of, out = rules.space_programs, []
    for name in names:
        programs = programs_of[name]
        for sid, this in _spaces(rules, state, name):
            worth = _value(rules, state, seat, sid, this, programs, base, 0)
            for boost in boosts:
                value = worth + boost
                if programs.min_value is not None and value < programs.min_value:
                    continue
                frame = Frame("", [], 0, seat, sid, this, {PLACED_VALUE: value, VISITING: 1})
                if programs.requires and not rules.tables.programs[programs.requires](
                        View(rules.tables, state, seat, frame), None):
                    continue
                out.append([sid, boost, name])
    return out


def _carried_out(m, state, frame, option: list, base: int) -> bool:
    """Whether the visit can be carried out: tried on a copy of the state, with what follows it, up to the
    next decision (the engine's search looks past that one)."""
    work = state.clone()
    work.frames.append(Frame(VISIT, [], 0, frame.player, frame.source, frame.this, {"options": [option], "value": base}))
    stopped = len(state.table.get(STOPPED, ()))
    try:
        m.run(work)
        m.answer(work, 0)
    except RunawayError:
        raise
    except RulesError:
        return False
    return len(work.table.get(STOPPED, ())) == stopped  # a flow program stopped there: not carried out


def op_visit(rules):
    """The `visit` statement's executor for the machine of these rules (its program counter moved on)."""
    def run(m, state, frame, step) -> None:
        base = step.value(m._view(state, frame), None)
        found = [o for o in options(rules, state, frame.player, step.spaces, base)
                 if _carried_out(m, state, frame, o, base)]
        if not found:
            raise RulesError(f"no space of {', '.join(step.spaces)} can be visited at value {base}")
        state.frames.append(Frame(VISIT, [], 0, frame.player, frame.source, frame.this,
                                  {"options": found, "value": base}))
    return run


def _ask(m, state, frame) -> None:
    labels = [sid if not boost else f"{sid} boost {boost}" for sid, boost, _ in frame.event["options"]]
    state.decision = Decision(frame.player, "choose", labels, {})


def _answer(rules):
    def answer(m, state, frame, index: int, d) -> None:
        state.frames.pop()
        sid, boost, name = frame.event["options"][index]
        programs = rules.space_programs[name]
        this = [rules.tables.kind_of[sid], sid] if name not in rules.spaces else None
        seat = frame.player
        value = _value(rules, state, seat, sid, this, programs, frame.event["value"], boost)
        acting = Frame("", [], 0, seat, sid, this, {PLACED_VALUE: value, VISITING: 1})
        if programs.effect:
            state.frames.append(Frame(programs.effect, [], 0, seat, sid, this, acting.event))
        if programs.cost:
            m._pay(state, acting, rules.tables.programs[programs.cost])
        entry = boost_entry(rules)
        if boost and entry is not None:
            placing.pay_boost(rules, state, acting, entry, boost)
    return answer


def natives(rules) -> dict[str, tuple]:
    return {VISIT: (_ask, _answer(rules))}
