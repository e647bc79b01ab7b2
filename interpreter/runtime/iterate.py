"""`for each in Z [where C]: <body>` (docs/core.md §3), the body once per record of a zone, `choose one
in Z [where C]: <body>`, the body for one record of a zone the acting player picks, and `join order`
(docs/core.md §5), a seat joining the next `recorded` turn order: one executor per step class
(dsl/steps.py), added to the machine's table in executors.py.

The zone is the acting player's when it is one per player. The records are those it holds when the
statement starts, in zone order (a pile from the top; a slotted zone in slot order, empty slots
skipped); ``C`` is tested on each of them then, as the ``where`` of ``count`` tests a record (a
record that a body moves later is still visited, and one that enters the zone meanwhile is not).
Each body is a frame of the acting player whose ``this`` is the record, so ``this.<field>``,
``this.position``, ``as owner:`` and ``move this to ...`` inside it are about that record. The
frames are pushed together, the first record's on top, so the bodies run one after another.
"""

from __future__ import annotations

from interpreter.dsl import steps as S
from interpreter.errors import RulesError
from interpreter.runtime import flow as F
from interpreter.runtime import zones as Z
from interpreter.runtime.state import Decision, Frame
from interpreter.runtime.view import View


def _with_this(frame: Frame, record: list, addr: list) -> Frame:
    """A frame like ``frame`` whose `this` is ``record`` ([kind, id]), at ``addr`` from its first step."""
    return Frame(frame.key, addr, 0, frame.player, frame.source, record, frame.event, frame.trigger)


def _records(m, state, frame, zone: str, where) -> list[list]:
    """The records ([kind, id]) the zone holds now (the acting player's, when it is per player), in zone
    order, that pass ``where``."""
    spec = m.tables.zones[zone]
    contents = state.zones.get(Z.key(spec, frame.player if spec.per_player else None), ())
    kind_of = m.tables.kind_of
    records = [[kind_of.get(rid, spec.holds), rid] for rid in Z.records(contents)]
    if where is not None:
        view = View(m.tables, state, frame.player, frame)
        records = [r for r in records if where(view, tuple(r))]
    return records


def _for_each_record(m, state, frame, step: S.ForEachRecord) -> None:
    frame.pc += 1
    records = _records(m, state, frame, step.zone, step.where)
    body = frame.addr + [frame.pc - 1, 0]
    for record in reversed(records):  # the first record's frame on top: it runs first
        state.frames.append(_with_this(frame, record, body))


def _choose_record(m, state, frame, step: S.ChooseRecord) -> None:
    """`choose one in Z [where C]`: a decision among the records that pass C now (answered `choose n`, in
    zone order); with none, the statement cannot be carried out. `choose N in Z` (N > 1) hands the picks to
    a native frame (``PICKS``), which asks N times, each time among the records not picked yet."""
    if step.count > 1:
        frame.pc += 1
        if len(_records(m, state, frame, step.zone, step.where)) < step.count:
            raise RulesError(f"fewer than {step.count} records of zone {step.zone!r} to choose")
        state.frames.append(Frame(PICKS, [], 0, frame.player, frame.source, frame.this,
                                  {"key": frame.key, "addr": frame.addr, "trigger": frame.trigger, "pc": frame.pc - 1,
                                   "event": frame.event, "picked": [], "left": step.count}))
        return
    records = _records(m, state, frame, step.zone, step.where)
    if not records:
        raise RulesError(f"no record of zone {step.zone!r} to choose")
    m._decide(state, frame, "choose", [rid for _, rid in records], records=records)


def _answer_choose_record(m, state, frame, step: S.ChooseRecord, d, index: int) -> None:
    state.frames.append(_with_this(frame, list(d.data["records"][index]), frame.addr + [frame.pc - 1, 0]))


PICKS = "@picks"  # the native frame of `choose N in Z`: the statement's place, the records picked, how many are left


def _statement(m, data: dict) -> tuple[Frame, S.ChooseRecord]:
    """The frame the `choose N in` statement ran in (as it was then) and the statement."""
    from interpreter.runtime.machine import block_at

    at = Frame(data["key"], data["addr"], data["pc"] + 1, 0, "", None, data["event"], data["trigger"])
    return at, block_at(m.tables.programs[data["key"]], data["addr"], data["trigger"])[data["pc"]]


def _picks_step(m, state, frame) -> None:
    data = frame.event
    at, step = _statement(m, data)
    at.player, at.source, at.this = frame.player, frame.source, frame.this
    records = [r for r in _records(m, state, at, step.zone, step.where) if r[1] not in data["picked"]]
    if not records:
        raise RulesError(f"no record of zone {step.zone!r} left to choose")
    state.decision = Decision(frame.player, "choose", [rid for _, rid in records], {"records": records})


def _picks_answer(m, state, frame, index: int, d) -> None:
    data = frame.event
    record = list(d.data["records"][index])
    data["picked"] = [*data["picked"], record[1]]
    data["left"] -= 1
    if data["left"] <= 0:
        state.frames.pop()
    state.frames.append(Frame(data["key"], data["addr"] + [data["pc"], 0], 0, frame.player, frame.source, record,
                              data["event"], data["trigger"]))


def _join_order(m, state, frame, step: S.JoinOrder) -> None:
    """`join order`: the acting seat takes the next place in the order of the next phase declared
    `order: recorded` (flow.join_order); it keeps its place if it joined already."""
    frame.pc += 1
    if state.flow is None:
        raise RulesError("`join order` needs a game played by a flow (a flow file with an `order: recorded` phase)")
    state.flow = F.join_order(state.flow, frame.player)  # a frozen cursor: replaced, never changed


EXECUTORS = {S.ForEachRecord: _for_each_record, S.ChooseRecord: _choose_record, S.JoinOrder: _join_order}
ANSWERS = {S.ChooseRecord: _answer_choose_record}
NATIVES = {PICKS: (_picks_step, _picks_answer)}
