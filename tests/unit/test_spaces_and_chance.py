"""Pieces on spaces and chance nodes (interpreter/runtime/spaces.py, chance.py), with invented games."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from interpreter.errors import RulesError
from interpreter.runtime import chance as C
from interpreter.runtime import spaces as P

SPECS = P.specs_by_id([
    P.SpaceSpec("card_1"),                                   # one worker
    P.SpaceSpec("palace", capacity=None, release="round_end"),  # any number
    P.SpaceSpec("harvest", capacity=None, occupancy="one_per_player"),
    P.SpaceSpec("tower_a_1", occupancy="one_coloured_per_player_in_group", group="tower_a"),
    P.SpaceSpec("tower_a_2", occupancy="one_coloured_per_player_in_group", group="tower_a"),
    P.SpaceSpec("tower_b_1", occupancy="one_coloured_per_player_in_group", group="tower_b"),
    P.SpaceSpec("statue", release="never"),
])
RED0, BLUE0, NEUTRAL0, RED1 = P.Placement(0, "red"), P.Placement(0, "blue"), P.Placement(0, "neutral", coloured=False), P.Placement(1, "red")


def test_capacity_one_and_unlimited():
    board = {"card_1": P.place(SPECS, {}, "card_1", RED0)}
    with pytest.raises(RulesError, match="full"):
        P.place(SPECS, board, "card_1", RED1)
    palace = ()
    for p in (RED0, BLUE0, RED1, NEUTRAL0):
        palace = P.place(SPECS, {"palace": palace}, "palace", p)
    assert P.occupied_by({"palace": palace}, "palace") == (0, 0, 1, 0)


def test_one_piece_per_player():
    board = {"harvest": P.place(SPECS, {}, "harvest", RED0)}
    assert "already has a piece" in P.refusal(SPECS["harvest"], board, BLUE0, SPECS)
    assert P.refusal(SPECS["harvest"], board, RED1, SPECS) is None


def test_one_coloured_piece_per_player_in_a_group_but_a_neutral_one_may_join():
    board = {"tower_a_1": (RED0,)}
    assert "coloured piece in tower_a" in P.refusal(SPECS["tower_a_2"], board, BLUE0, SPECS)
    assert P.refusal(SPECS["tower_a_2"], board, NEUTRAL0, SPECS) is None
    assert P.refusal(SPECS["tower_a_2"], board, RED1, SPECS) is None
    assert P.refusal(SPECS["tower_b_1"], board, BLUE0, SPECS) is None
    assert P.open_spaces(SPECS, board, BLUE0) == ["card_1", "palace", "harvest", "tower_b_1", "statue"]


def test_open_spaces_one_at_a_time_agree_with_each_refusal_and_judge_no_more_than_asked():
    board = {"tower_a_1": (RED0,), "harvest": (BLUE0,), "card_1": (RED1,)}
    for piece in (RED0, BLUE0, NEUTRAL0, RED1):
        each = [sid for sid, spec in SPECS.items() if P.refusal(spec, board, piece, SPECS) is None]
        assert P.open_spaces(SPECS, board, piece) == list(P.iter_open_spaces(SPECS, board, piece)) == each
    assert P.coloured_groups(board, SPECS, 0) == {"tower_a", None}  # harvest has no group
    asked = []

    def enters_full(space: str) -> bool:
        asked.append(space)
        return True

    first = next(P.iter_open_spaces(SPECS, {"card_1": (RED1,), "statue": (RED1,)}, RED0, enters_full))
    assert first == "card_1" and asked == ["card_1"]  # the full statue is not judged yet


def test_release_gives_pieces_back_at_their_point_only():
    board = {"card_1": (RED0,), "palace": (BLUE0, RED1), "statue": (NEUTRAL0,)}
    kept, back = P.release(SPECS, board, "round_end")
    assert back == [RED0, BLUE0, RED1] and kept == {"card_1": (), "palace": (), "statue": (NEUTRAL0,)}
    assert board["palace"] == (BLUE0, RED1)  # nothing changed in place
    with pytest.raises(RulesError, match="no release point"):
        P.release(SPECS, board, "sometime")


def test_space_declarations_are_checked():
    with pytest.raises(ValueError, match="occupancy"):
        P.SpaceSpec("x", occupancy="two_each")
    with pytest.raises(ValueError, match="twice"):
        P.specs_by_id([P.SpaceSpec("x"), P.SpaceSpec("x")])


def test_a_fair_die_has_equal_exact_probabilities_and_rolls_within_its_faces():
    die = C.Die.faces("black", 6)
    assert C.distribution(die) == tuple((v, Fraction(1, 6)) for v in range(1, 7))
    rng = random.Random(3)
    counts = Counter(C.roll(die, rng) for _ in range(6000))
    assert set(counts) == set(range(1, 7)) and min(counts.values()) > 850


def test_weighted_outcomes_merge_repeated_values():
    die = C.Die("event", (0, 1, 1), weights=(2, 1, 1))
    assert C.distribution(die) == ((0, Fraction(1, 2)), (1, Fraction(1, 2)))


def test_rolls_are_a_function_of_the_seed_in_declared_order():
    dice = (C.Die.faces("black", 6), C.Die.faces("white", 6), C.Die.faces("orange", 6))
    first = C.roll_all(dice, random.Random(11))
    assert first == C.roll_all(dice, random.Random(11)) and list(first) == ["black", "white", "orange"]


def test_a_die_needs_faces_and_one_weight_each():
    with pytest.raises(ValueError, match="no faces"):
        C.Die("d", ())
    with pytest.raises(ValueError, match="weight"):
        C.Die("d", (1, 2), weights=(1,))


def test_shuffle_draws_as_random_shuffle_does():
    """chance.shuffle is random.Random.shuffle without a call per item: the same order from the same
    draws, leaving the generator in the same state (saved games and recorded corpora depend on it)."""
    for seed in range(200):
        for n in (0, 1, 2, 3, 7, 16, 33):
            ours, theirs = list(range(n)), list(range(n))
            a, b = random.Random(seed), random.Random(seed)
            C.shuffle(ours, a)
            b.shuffle(theirs)
            assert ours == theirs and a.getstate() == b.getstate()


def test_a_generator_of_another_kind_shuffles_itself():
    class Reversing(random.Random):
        def shuffle(self, x):
            x.reverse()

    items = [1, 2, 3]
    C.shuffle(items, Reversing(1))
    assert items == [3, 2, 1]
