"""Flow: a game as rounds of phases, a phase as turns in an order until a condition (docs/core.md §5).

A pack declares its flow; the runtime keeps a ``FlowCursor`` in the state and moves it with the
pure functions here, which return the new cursor and the lifecycle events that happened
(``round_started``, ``phase_started``, ``turn_started``, ``player_passed``, ``phase_ended``,
``round_ended``, ``game_ended``), for the machine to emit. The cursor is a frozen value, so a copy of
the state shares it.

A phase is one of
- ``turns``: seats take turns in an order until every seat had its turns (``turns_each``) or until
  every seat has passed (``until="all_passed"``: a seat that passed is skipped for the rest of the
  phase);
- ``automatic``: no seat acts; the runtime runs the phase's program and calls ``advance``;
- ``simultaneous``: every seat decides once, in the phase's order, with no turn of its own.

Orders: ``seats`` (seat order from the round's first seat), ``reverse_seats`` (the same, backwards: the
round's last seat first, as when players choose a starting tile in reverse turn order), ``pass_order`` (the order seats passed
in the last phase that recorded passes), ``recorded`` (an order content set with ``set_order``,
e.g. the order players visited a space, followed by the others in their previous order).
``join_order`` (the DSL's `join order`) records that order one seat at a time: the seats that
joined come first, in the order they joined, then the others in the order the last ``recorded``
phase had (seat order before any). The seats that joined are cleared when a ``recorded`` phase
begins and uses them; the order it used stays, so a round in which nobody joins keeps it.
The round's first seat moves on by ``first_seat_moves`` seats each round (0: it stays).
A phase may run only in some rounds (``rounds``). The game ends after ``rounds`` rounds, or
earlier when the runtime reports that the declared end condition holds (``end_game``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from interpreter.errors import RulesError

PHASE_KINDS = ("turns", "automatic", "simultaneous")
ORDERS = ("seats", "reverse_seats", "pass_order", "recorded")


@dataclass(frozen=True, slots=True)
class PhaseSpec:
    id: str
    kind: str = "turns"
    order: str = "seats"
    until: str = "turns_each"  # turns_each | all_passed (turns phases only)
    turns_each: int = 1
    rounds: tuple[int, ...] = ()  # the rounds it runs in; (): every round

    def __post_init__(self):
        if self.kind not in PHASE_KINDS:
            raise ValueError(f"phase {self.id!r}: kind must be one of {PHASE_KINDS}")
        if self.order not in ORDERS:
            raise ValueError(f"phase {self.id!r}: order must be one of {ORDERS}")
        if self.until not in ("turns_each", "all_passed"):
            raise ValueError(f"phase {self.id!r}: until must be turns_each or all_passed")
        if self.turns_each < 1:
            raise ValueError(f"phase {self.id!r}: turns_each must be at least 1")


@dataclass(frozen=True, slots=True)
class FlowSpec:
    phases: tuple[PhaseSpec, ...]
    rounds: int | None = None  # None: until the end condition
    first_seat_moves: int = 0

    def __post_init__(self):
        if not self.phases:
            raise ValueError("a flow needs at least one phase")
        if self.rounds is not None and self.rounds < 1:
            raise ValueError("a flow needs at least one round")
        if self.rounds is None and all(p.rounds for p in self.phases):
            raise ValueError("a flow without a number of rounds needs a phase that runs every round")


class FlowEvent(NamedTuple):
    name: str
    params: dict


@dataclass(frozen=True)  # no slots: a copy is one merge of the instance dicts (``replace``)
class FlowCursor:
    """Where the game stands: round, phase, whose turn, and what this phase has seen."""

    seats: int
    round: int = 1
    phase: int = 0  # index into FlowSpec.phases
    first_seat: int = 0
    order: tuple[int, ...] = ()  # the phase's order of seats
    at: int = 0  # index into order of the seat to act
    turns: tuple[int, ...] = ()  # turns each seat took in this phase
    passed: tuple[int, ...] = ()  # seats that passed this phase, in passing order
    last_pass_order: tuple[int, ...] = ()  # the passing order of the last phase with passes
    recorded: tuple[int, ...] = ()  # an order set by content for the next `recorded` phase
    turn: int = 0  # turns taken in the whole game
    over: bool = False
    closing: str = ""  # "phase": the phase is over, not yet left; "round": the round is over (see next_phase)
    joined: tuple[int, ...] = ()  # seats that ran `join order` since the last `recorded` phase began (join_order)

    @property
    def seat(self) -> int | None:
        """The seat to act, or None in an automatic phase or at the end."""
        if self.over or not self.order or self.closing:
            return None
        return self.order[self.at]


_new, _set = object.__new__, object.__setattr__


def replace(cursor: FlowCursor, **changes) -> FlowCursor:
    """A copy of the cursor with some fields changed (dataclasses.replace, without its generic checks:
    the cursor moves at every turn)."""
    new = _new(FlowCursor)
    _set(new, "__dict__", {**cursor.__dict__, **changes})
    return new


def start(spec: FlowSpec, seats: int, first_seat: int = 0) -> tuple[FlowCursor, list[FlowEvent]]:
    if seats < 1:
        raise RulesError("a game needs at least one seat")
    cursor = FlowCursor(seats=seats, first_seat=first_seat)
    events = [FlowEvent("round_started", {"round": 1})]
    cursor, more = _enter_phase(spec, cursor, 0)
    cursor, rest = settle(spec, cursor)  # a first round in which no phase runs
    return cursor, events + more + rest


def end_turn(spec: FlowSpec, cursor: FlowCursor, passed: bool = False) -> tuple[FlowCursor, list[FlowEvent]]:
    """The seat to act ended its turn (by passing, if ``passed``): the next seat, phase or round."""
    cursor, events = finish_turn(spec, cursor, passed)
    cursor, more = settle(spec, cursor)
    return cursor, events + more


def advance(spec: FlowSpec, cursor: FlowCursor) -> tuple[FlowCursor, list[FlowEvent]]:
    """An automatic phase has run its program: on to the next phase."""
    cursor, events = finish_phase(spec, cursor)
    cursor, more = settle(spec, cursor)
    return cursor, events + more


# The same moves one sequence point at a time, for a runtime that runs content between them (a
# phase's `on_end` before the next phase begins, the end condition once the round's last phase is
# over): ``finish_turn`` and ``finish_phase`` stop when a phase is over (``closing == "phase"``),
# ``next_phase`` stops when the round is over (``closing == "round"``), ``next_round`` starts the
# next round or ends the game.

def finish_turn(spec: FlowSpec, cursor: FlowCursor, passed: bool = False) -> tuple[FlowCursor, list[FlowEvent]]:
    """The seat to act ended its turn: the next seat's turn, or the phase is over."""
    seat = cursor.seat
    if seat is None or cursor.closing:
        raise RulesError("no seat is taking a turn now")
    phase = spec.phases[cursor.phase]
    events = [FlowEvent("turn_ended", {"seat": seat})]
    turns = cursor.turns[:seat] + (cursor.turns[seat] + 1,) + cursor.turns[seat + 1:]
    passed_now = cursor.passed
    if passed:
        if phase.until != "all_passed":
            raise RulesError(f"phase {phase.id!r} has no passing")
        passed_now += (seat,)
        events.append(FlowEvent("player_passed", {"seat": seat, "place": len(passed_now)}))
    following = _next_seat(phase, cursor, turns, passed_now)  # one copy of the cursor below, not three
    if following is None:
        return (replace(cursor, turns=turns, turn=cursor.turn + 1, passed=passed_now, closing="phase"),
                events + [FlowEvent("phase_ended", {"phase": phase.id})])
    cursor = replace(cursor, turns=turns, turn=cursor.turn + 1, passed=passed_now, at=following)
    return cursor, events + [FlowEvent("turn_started", {"seat": cursor.seat})]


def finish_phase(spec: FlowSpec, cursor: FlowCursor) -> tuple[FlowCursor, list[FlowEvent]]:
    """An automatic phase has run its program: the phase is over."""
    if cursor.over or cursor.closing or spec.phases[cursor.phase].kind != "automatic":
        raise RulesError("only an automatic phase is advanced without turns")
    return replace(cursor, closing="phase"), [FlowEvent("phase_ended", {"phase": spec.phases[cursor.phase].id})]


def next_phase(spec: FlowSpec, cursor: FlowCursor) -> tuple[FlowCursor, list[FlowEvent]]:
    """Leave the phase that is over: enter the next one that runs this round, or the round is over."""
    if cursor.closing != "phase":
        raise RulesError("the phase is not over")
    if cursor.passed:
        cursor = replace(cursor, last_pass_order=cursor.passed)
    return _enter_phase(spec, cursor, cursor.phase + 1)  # it sets `closing` (one copy of the cursor less)


def next_round(spec: FlowSpec, cursor: FlowCursor, end: bool = False) -> tuple[FlowCursor, list[FlowEvent]]:
    """Leave the round that is over: the game ends (after the last round, or when ``end``: the declared
    end condition holds), else the next round starts."""
    if cursor.closing != "round":
        raise RulesError("the round is not over")
    if end or (spec.rounds is not None and cursor.round >= spec.rounds):
        return end_game(replace(cursor, closing=""))
    cursor = replace(cursor, round=cursor.round + 1, first_seat=(cursor.first_seat + spec.first_seat_moves) % cursor.seats)
    cursor, more = _enter_phase(spec, cursor, 0)  # it sets `closing`
    return cursor, [FlowEvent("round_started", {"round": cursor.round})] + more


def settle(spec: FlowSpec, cursor: FlowCursor, ends=lambda cursor: False) -> tuple[FlowCursor, list[FlowEvent]]:
    """Every sequence point at once, until a seat acts, an automatic phase begins or the game ends;
    ``ends(cursor)`` says at each round's end whether the declared end condition holds."""
    events: list[FlowEvent] = []
    while cursor.closing:
        if cursor.closing == "phase":
            cursor, more = next_phase(spec, cursor)
        else:
            cursor, more = next_round(spec, cursor, ends(cursor))
        events += more
    return cursor, events


def set_order(cursor: FlowCursor, seats_first: tuple[int, ...]) -> FlowCursor:
    """Content sets the order of the next `recorded` phase: these seats first, in this order, then
    the others in the order they had."""
    rest = tuple(s for s in (cursor.recorded or _seat_order(cursor)) if s not in seats_first)
    return replace(cursor, recorded=tuple(dict.fromkeys(seats_first)) + rest)


def join_order(cursor: FlowCursor, seat: int) -> FlowCursor:
    """A seat takes the next place in the order of the next `recorded` phase (a seat joins once; see
    the module docstring)."""
    if seat in cursor.joined:
        return cursor
    return replace(cursor, joined=cursor.joined + (seat,))


def end_game(cursor: FlowCursor) -> tuple[FlowCursor, list[FlowEvent]]:
    """The declared end condition holds (checked by the runtime at a round's end)."""
    return replace(cursor, over=True, order=(), at=0), [FlowEvent("game_ended", {"round": cursor.round})]


# ---------------------------------------------------------------- inside

def _seat_order(cursor: FlowCursor) -> tuple[int, ...]:
    return tuple((cursor.first_seat + k) % cursor.seats for k in range(cursor.seats))


def _order_for(phase: PhaseSpec, cursor: FlowCursor) -> tuple[int, ...]:
    if phase.kind == "automatic":
        return ()
    if phase.order == "pass_order" and cursor.last_pass_order:
        done = cursor.last_pass_order
        return done + tuple(s for s in _seat_order(cursor) if s not in done)
    if phase.order == "recorded" and cursor.joined:
        old = cursor.recorded or _seat_order(cursor)
        return cursor.joined + tuple(s for s in old if s not in cursor.joined)
    if phase.order == "recorded" and cursor.recorded:
        return cursor.recorded
    if phase.order == "reverse_seats":
        return tuple(reversed(_seat_order(cursor)))
    return _seat_order(cursor)


def _enter_phase(spec: FlowSpec, cursor: FlowCursor, index: int) -> tuple[FlowCursor, list[FlowEvent]]:
    """Enter the first phase from ``index`` on that runs this round; past the last, the round is over
    (``closing`` is set either way: "" in a phase, "round" past the last)."""
    while index < len(spec.phases) and spec.phases[index].rounds and cursor.round not in spec.phases[index].rounds:
        index += 1
    if index == len(spec.phases):
        return replace(cursor, closing="round", order=(), at=0), [FlowEvent("round_ended", {"round": cursor.round})]
    phase = spec.phases[index]
    order = _order_for(phase, cursor)
    if phase.order == "recorded" and cursor.joined:  # the seats that joined are used once; the order stays
        cursor = replace(cursor, recorded=order, joined=())
    cursor = replace(cursor, phase=index, order=order, at=0, turns=(0,) * cursor.seats, passed=(), closing="")
    events = [FlowEvent("phase_started", {"phase": phase.id})]
    if order:
        events.append(FlowEvent("turn_started", {"seat": cursor.seat}))
    return cursor, events


def _next_seat(phase: PhaseSpec, cursor: FlowCursor, turns: tuple[int, ...], passed: tuple[int, ...]) -> int | None:
    """Index in the order of the next seat to act this phase, or None when the phase is over, once
    the turns taken and the seats passed are these."""
    n = len(cursor.order)
    if phase.until == "all_passed":
        if len(passed) == n:
            return None
        for k in range(1, n + 1):
            i = (cursor.at + k) % n
            if cursor.order[i] not in passed:
                return i
        return None
    if cursor.at + 1 < n:
        return cursor.at + 1
    if min(turns[s] for s in cursor.order) >= phase.turns_each:
        return None
    return 0  # the next lap of the order


def seek(spec: FlowSpec, seats: int, turns_taken: int) -> FlowCursor:
    """The cursor once ``turns_taken`` turns have been taken from the start, every seat ending its
    turn without passing and no end condition holding: where a scenario that sets the turn's number
    stands (a flow of automatic phases only has no turn to seek)."""
    cursor, _ = start(spec, seats)
    while True:
        if cursor.seat is None:
            phase = spec.phases[cursor.phase] if cursor.phase < len(spec.phases) and not cursor.over else None
            if phase is not None and phase.kind == "automatic":  # its program would not have run: refuse
                raise RulesError(f"the flow has no turn {turns_taken + 1} to jump to: the automatic phase "
                                 f"'{phase.id}' runs a program between turns; play the turns instead")
            raise RulesError(f"the flow has no turn {turns_taken + 1}")
        if cursor.turn == turns_taken:
            return cursor
        cursor, _ = end_turn(spec, cursor)


def share_left(spec: FlowSpec, cursor: FlowCursor | None, rounds: int | None = None) -> float:
    """The share of the game still to play: 1 at the start, 0 at the end, by rounds (the flow's number of
    rounds, else ``rounds``, what a caller expects of a flow that ends on a condition), within a round by
    its phases and the turns taken in the phase. 0.5 when neither number is known, or there is no cursor."""
    total = spec.rounds or rounds
    if cursor is not None and cursor.over:
        return 0.0
    if not total or cursor is None:
        return 0.5
    phase = spec.phases[min(cursor.phase, len(spec.phases) - 1)]
    if phase.until == "turns_each" and cursor.order:
        in_phase = min(1.0, sum(cursor.turns) / (len(cursor.order) * phase.turns_each))
    else:
        in_phase = cursor.at / len(cursor.order) if cursor.order else 0.0
    done = cursor.round - 1 + (cursor.phase + in_phase) / len(spec.phases)
    return max(0.0, min(1.0, 1.0 - done / total))
