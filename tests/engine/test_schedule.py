"""Praga's turn schedule as its flow runs it: seats, rounds, the era change and the game end
(R-ROUND-1..2, R-ERA-1, R-END-1, R-SOLO-3), read from the compiled rules and the flow cursor."""

import random
from collections import Counter

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.errors import RulesError
from interpreter.runtime import flow as F
from interpreter.runtime.game import new_game
from interpreter.runtime.rules import rules_for


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


@pytest.fixture(scope="module")
def rules(ruleset):
    return {p: rules_for(ruleset, p) for p in (1, 2, 3, 4)}


def at_turn(rules, turn: int) -> F.FlowCursor:
    """Where the flow stands at the start of a turn (from 1)."""
    return F.seek(rules.flow, rules.seats, turn - 1)


def seat_and_round(rules, turn: int) -> tuple[int, int]:
    cursor = at_turn(rules, turn)
    return cursor.seat + 1, cursor.round


# EX-11: players -> (seats, era change after turn, turns after it, game ends after turn)
EX11 = {1: (2, 16, 16, 32), 2: (2, 16, 16, 32), 3: (3, 26, 22, 48), 4: (4, 31, 33, 64)}


@pytest.mark.parametrize("players", sorted(EX11))
def test_ex11_era_change_and_game_end(rules, players):
    seats, change, left, end = EX11[players]
    r = rules[players]
    assert r.seats == seats and r.total_turns == end and end - change == left
    assert r.era_change_turn == change
    last = at_turn(r, end)
    over, _ = F.end_turn(r.flow, last)
    assert not last.over and over.over and over.turn == end


def test_ex11_seat_and_round_of_the_era_change(rules):
    assert seat_and_round(rules[2], 16) == (2, 8)  # end of round 8
    assert seat_and_round(rules[3], 26) == (2, 9)  # round 9, seat 2
    assert seat_and_round(rules[4], 31) == (3, 8)  # round 8, seat 3


def test_ex10_final_countdown_three_players(rules):
    r = rules[3]
    assert seat_and_round(r, 37) == (1, 13)  # seat 1's 13th turn
    assert seat_and_round(r, 48) == (3, 16)
    with pytest.raises(RulesError, match="no turn 49"):
        at_turn(r, 49)


def test_seats_and_rounds_follow_the_turn_number(rules):
    r = rules[4]
    assert [seat_and_round(r, t) for t in range(1, 10)] == [(1, 1), (2, 1), (3, 1), (4, 1), (1, 2), (2, 2),
                                                             (3, 2), (4, 2), (1, 3)]
    assert seat_and_round(r, 64) == (4, 16)


def test_solo_counts_the_dummy_seat(rules):
    r = rules[1]
    assert (r.players, r.seats, r.automatic_seats) == (1, 2, frozenset({1}))
    assert seat_and_round(r, 16) == (2, 8)  # the dummy's 8th turn
    assert not rules[4].automatic_seats


@pytest.mark.parametrize("players", sorted(EX11))
def test_a_played_game_changes_era_after_its_turn_and_ends_after_the_last(ruleset, players):
    """Random games: the era is 1 until the era-change turn is over, 2 from the next turn; the game
    ends after the last turn, every seat having taken 16 turns, and the dummy never acts."""
    _, change, _, end = EX11[players]
    game, rng = new_game(ruleset, players, seed=players), random.Random(players)
    eras, seat_of = {}, {}
    while not game.is_terminal():
        eras[game.state.turn] = game.state.table["era"]
        seat_of[game.state.turn] = game.state.current
        assert game.current_player not in game.rules.automatic_seats
        game.apply(rng.choice(game.legal_actions()))
    cursor = game.state.flow
    assert cursor.over and cursor.turn == end
    assert Counter(seat_of.values()) == {seat: 16 for seat in range(players)}  # the dummy's turns are its own
    played = sorted(eras)
    assert {eras[t] for t in played if t <= change} == {1} and {eras[t] for t in played if t > change} == {2}
    assert played[-1] == end or game.rules.automatic_seats  # solo: the dummy took the last turn


def test_a_flow_without_era_changes_keeps_one_era(ruleset):
    from interpreter.runtime.core_rules import CoreRules

    assert rules_for(ruleset, 2).era_change_turn == 16
    plain = CoreRules(ruleset, 2)
    plain.__dict__["model"] = ruleset.single("flow").model_copy(update={"era_changes": []})  # its flow file, edited
    assert plain.era_change_turn is None and plain.total_turns == 32
