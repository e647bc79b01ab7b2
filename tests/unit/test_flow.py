"""Flow (interpreter/runtime/flow.py): rounds, phases, turn orders, passing, with invented games."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from interpreter.errors import RulesError
from interpreter.runtime import flow as F


def names(events):
    return [e.name for e in events]


def play_turns(spec, cursor, passes=lambda c: False, limit=10_000):
    """Seats in the order they act, ending each turn; automatic phases are advanced."""
    seen = []
    while not cursor.over and limit:
        limit -= 1
        if cursor.seat is None:
            cursor, _ = F.advance(spec, cursor)
            continue
        seen.append((cursor.round, spec.phases[cursor.phase].id, cursor.seat))
        cursor, _ = F.end_turn(spec, cursor, passed=passes(cursor))
    return cursor, seen


@pytest.mark.parametrize("players,seats", [(1, 2), (2, 2), (3, 3), (4, 4)])
def test_a_fixed_number_of_rounds_of_one_turn_each(players, seats):
    """Praga's schedule: one phase of one turn per seat, 16 rounds, seats in order every round."""
    spec = F.FlowSpec((F.PhaseSpec("turn"),), rounds=16)
    cursor, events = F.start(spec, seats)
    assert names(events) == ["round_started", "phase_started", "turn_started"]
    cursor, seen = play_turns(spec, cursor)
    assert len(seen) == 16 * seats and cursor.over and cursor.turn == len(seen)
    for turn, (rnd, _, seat) in enumerate(seen, 1):
        assert (rnd, seat) == ((turn - 1) // seats + 1, (turn - 1) % seats)
        assert F.seek(spec, seats, turn - 1).seat == seat  # a turn's number says where the flow stands


def test_passing_phases_then_phases_in_passing_order_and_a_first_seat_that_moves():
    """A worker game: income, actions until all passed, two phases in passing order, a moving first seat."""
    spec = F.FlowSpec((
        F.PhaseSpec("income", kind="automatic"),
        F.PhaseSpec("actions", until="all_passed"),
        F.PhaseSpec("marker", order="pass_order"),
        F.PhaseSpec("activation", kind="automatic"),
        F.PhaseSpec("offering", order="pass_order"),
    ), rounds=2, first_seat_moves=1)
    cursor, events = F.start(spec, 3)
    assert cursor.seat is None and names(events) == ["round_started", "phase_started"]
    cursor, events = F.advance(spec, cursor)
    assert names(events) == ["phase_ended", "phase_started", "turn_started"] and cursor.seat == 0
    # seat 0 acts, seat 1 passes, seat 2 acts, seat 0 passes, seat 2 passes
    cursor, _ = F.end_turn(spec, cursor)
    cursor, events = F.end_turn(spec, cursor, passed=True)
    assert events[1] == F.FlowEvent("player_passed", {"seat": 1, "place": 1})
    cursor, _ = F.end_turn(spec, cursor)
    assert cursor.seat == 0  # seat 1 has passed: skipped
    cursor, _ = F.end_turn(spec, cursor, passed=True)
    assert cursor.seat == 2
    cursor, events = F.end_turn(spec, cursor, passed=True)
    assert names(events)[-3:] == ["phase_ended", "phase_started", "turn_started"]
    assert spec.phases[cursor.phase].id == "marker" and cursor.order == (1, 0, 2)
    cursor, rest = play_turns(spec, cursor, passes=lambda c: spec.phases[c.phase].until == "all_passed")
    round_one = [x for x in rest if x[0] == 1]
    assert round_one == [(1, "marker", 1), (1, "marker", 0), (1, "marker", 2), (1, "offering", 1), (1, "offering", 0), (1, "offering", 2)]
    assert [x for x in rest if x[0] == 2][0] == (2, "actions", 1)  # the first seat moved on by one
    assert cursor.over


def test_several_turns_each_phases_in_some_rounds_and_an_order_set_by_content():
    """A placement game: 2 turns each, a check every second round, the next order set by visits."""
    spec = F.FlowSpec((
        F.PhaseSpec("placement", order="recorded", turns_each=2),
        F.PhaseSpec("check", kind="simultaneous", rounds=(2, 4)),
    ), rounds=4)
    cursor, _ = F.start(spec, 3)
    seen = []
    while spec.phases[cursor.phase].id == "placement" and cursor.round == 1:
        seen.append(cursor.seat)
        if cursor.seat == 2:
            cursor = F.set_order(cursor, (2,))  # seat 2 visited the space that sets the order
        cursor, events = F.end_turn(spec, cursor)
    assert seen == [0, 1, 2, 0, 1, 2] and cursor.round == 2  # no check in round 1
    assert cursor.order == (2, 0, 1)
    cursor, rest = play_turns(spec, cursor)
    checks = sorted({r for r, p, _ in rest if p == "check"})
    assert checks == [2, 4] and cursor.over


def test_refusals():
    spec = F.FlowSpec((F.PhaseSpec("auto", kind="automatic"), F.PhaseSpec("turns")), rounds=1)
    cursor, _ = F.start(spec, 2)
    with pytest.raises(RulesError, match="no seat"):
        F.end_turn(spec, cursor)
    cursor, _ = F.advance(spec, cursor)
    with pytest.raises(RulesError, match="automatic"):
        F.advance(spec, cursor)
    with pytest.raises(RulesError, match="no passing"):
        F.end_turn(spec, cursor, passed=True)
    with pytest.raises(ValueError, match="every round"):
        F.FlowSpec((F.PhaseSpec("p", rounds=(2,)),))
    with pytest.raises(ValueError, match="kind"):
        F.PhaseSpec("p", kind="sometimes")


def test_an_end_condition_ends_the_game_at_once():
    spec = F.FlowSpec((F.PhaseSpec("turns"),))  # no number of rounds: content decides
    cursor, _ = F.start(spec, 2)
    cursor, events = F.end_game(cursor)
    assert cursor.over and cursor.seat is None and names(events) == ["game_ended"]


@given(st.integers(1, 5), st.lists(st.booleans(), max_size=400), st.integers(1, 3))
def test_every_passing_phase_ends_with_every_seat_passed_once(seats, choices, rounds):
    spec = F.FlowSpec((F.PhaseSpec("actions", until="all_passed"), F.PhaseSpec("after", order="pass_order")), rounds=rounds)
    cursor, _ = F.start(spec, seats)
    moves = iter(choices)
    passes_by_round: dict[int, list[int]] = {}
    steps = 0
    while not cursor.over:
        steps += 1
        assert steps < 2000
        phase = spec.phases[cursor.phase]
        passing = phase.until == "all_passed" and next(moves, True)
        if passing:
            passes_by_round.setdefault(cursor.round, []).append(cursor.seat)
        seat, rnd = cursor.seat, cursor.round
        cursor, _ = F.end_turn(spec, cursor, passed=passing)
        if phase.id == "actions" and not cursor.over and spec.phases[cursor.phase].id == "after":
            assert cursor.order == tuple(passes_by_round[rnd])
    assert sorted(passes_by_round) == list(range(1, rounds + 1))
    assert all(sorted(p) == list(range(seats)) for p in passes_by_round.values())


def test_a_phase_in_reverse_seat_order_starts_from_the_rounds_last_seat():
    """Choosing a starting tile in reverse turn order, once, before the rounds' turns."""
    spec = F.FlowSpec((F.PhaseSpec("pick", order="reverse_seats", rounds=(1,)), F.PhaseSpec("turn")),
                      rounds=2, first_seat_moves=1)
    cursor, _ = F.start(spec, 3)
    cursor, seen = play_turns(spec, cursor)
    assert seen == [(1, "pick", 2), (1, "pick", 1), (1, "pick", 0), (1, "turn", 0), (1, "turn", 1), (1, "turn", 2),
                    (2, "turn", 1), (2, "turn", 2), (2, "turn", 0)]


def test_seeking_a_turn_past_an_automatic_phase_is_refused_with_the_reason():
    """A scenario cannot jump over a phase whose program deals or rolls: it must play the turns."""
    spec = F.FlowSpec((F.PhaseSpec("deal", kind="automatic"), F.PhaseSpec("turn")), rounds=2)
    with pytest.raises(RulesError, match="automatic phase 'deal' runs a program between turns"):
        F.seek(spec, 2, 0)
    plain = F.FlowSpec((F.PhaseSpec("turn"),), rounds=2)
    assert F.seek(plain, 2, 3).round == 2
    with pytest.raises(RulesError, match="the flow has no turn 5$"):
        F.seek(plain, 2, 4)
