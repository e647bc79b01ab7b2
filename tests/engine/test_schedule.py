"""Turn schedule: seats, rounds, era change and game end (R-ROUND-1..2, R-ERA-1, R-END-1, R-SOLO-3)."""

import pytest

from interpreter.runtime import schedule as sch
from interpreter.errors import RulesError
from interpreter.content.ruleset import load_ruleset


@pytest.fixture(scope="module")
def setup_model():
    return load_ruleset().single("flow")


@pytest.fixture(scope="module")
def schedules(setup_model):
    return {p: sch.build_schedule(setup_model, p) for p in (1, 2, 3, 4)}


# EX-11: players -> (seats, era change after turn, turns left after it, game ends after turn)
EX11 = {1: (2, 16, 16, 32), 2: (2, 16, 16, 32), 3: (3, 26, 22, 48), 4: (4, 31, 33, 64)}


@pytest.mark.parametrize("players", sorted(EX11))
def test_ex11_era_change_and_game_end(schedules, players):
    seats, change, left, end = EX11[players]
    s = schedules[players]
    assert s.seats == seats
    assert sch.total_turns(s) == end and sch.total_turns(s) - change == left
    assert [t for t in range(1, end + 1) if sch.is_era_change(s, t)] == [change]
    assert [t for t in range(1, end + 1) if sch.is_last_turn(s, t)] == [end]
    assert sch.era_of(s, 1) == sch.era_of(s, change) == 1
    assert sch.era_of(s, change + 1) == sch.era_of(s, end) == 2
    assert all(sch.turns_left(s, seat, end) == 0 for seat in range(1, seats + 1))


def test_ex11_seat_and_round_of_the_era_change(schedules):
    assert (sch.round_of(schedules[2], 16), sch.seat_of(schedules[2], 16)) == (8, 2)  # end of round 8
    assert (sch.round_of(schedules[3], 26), sch.seat_of(schedules[3], 26)) == (9, 2)  # round 9, seat 2
    assert (sch.round_of(schedules[4], 31), sch.seat_of(schedules[4], 31)) == (8, 3)  # round 8, seat 3
    # upgrades taken on turn 26 (3 players) are Era I; from turn 27 Era II
    assert (sch.era_of(schedules[3], 26), sch.era_of(schedules[3], 27)) == (1, 2)


def test_ex10_final_countdown_three_players(schedules):
    s = schedules[3]
    assert (sch.seat_of(s, 37), sch.round_of(s, 37)) == (1, 13)  # seat 1's 13th turn
    left = {seat: sch.turns_left(s, seat, 37) for seat in (1, 2, 3)}
    assert left == {1: 3, 2: 4, 3: 4} and sum(left.values()) == 11
    assert sch.seat_of(s, 48) == 3 and sch.round_of(s, 48) == 16 and sch.is_last_turn(s, 48)


def test_seats_and_rounds_follow_the_turn_number(schedules):
    s = schedules[4]
    assert [sch.seat_of(s, t) for t in range(1, 10)] == [1, 2, 3, 4, 1, 2, 3, 4, 1]
    assert [sch.round_of(s, t) for t in range(1, 10)] == [1, 1, 1, 1, 2, 2, 2, 2, 3]
    assert sch.round_of(s, 64) == 16 and sch.seat_of(s, 64) == 4
    assert sch.turns_left(s, 1, 0) == 16


def test_solo_counts_the_dummy_seat(schedules):
    s = schedules[1]
    assert (s.players, s.seats) == (1, 2)
    assert not sch.is_dummy_seat(s, 1) and sch.is_dummy_seat(s, 2)
    assert sch.seat_of(s, 16) == 2 and sch.round_of(s, 16) == 8  # the dummy's 8th turn
    assert not any(sch.is_dummy_seat(schedules[4], seat) for seat in range(1, 5))


def test_turns_outside_the_game_are_refused(schedules):
    s = schedules[2]
    for bad in (0, 33):
        with pytest.raises(RulesError, match="outside 1..32"):
            sch.seat_of(s, bad)
    with pytest.raises(RulesError):
        sch.turns_left(s, 3, 10)


def test_unknown_player_count_and_late_era_change_are_refused(setup_model):
    with pytest.raises(RulesError, match="no seating for 5 players"):
        sch.build_schedule(setup_model, 5)
    late = setup_model.model_copy(update={"era_changes": [e.model_copy(update={"after_turn": 32})
                                                          for e in setup_model.era_changes]})
    with pytest.raises(RulesError, match="not before the last turn"):
        sch.build_schedule(late, 2)
    single = setup_model.model_copy(update={"era_changes": []})
    s = sch.build_schedule(single, 2)
    assert s.era_change is None and sch.era_of(s, 32) == 1 and not sch.is_era_change(s, 16)
