"""A pack whose turns are offers of the mechanisms library runs on the generic flow: a variant of
Praga gives it a setup program, a program at the start of every round, an end condition, a first
seat that moves on, or another tie rule, all as content."""

import random

import pytest

from interpreter import load_ruleset, new_game
from praga_overlay import variant


def play_out(game, seed: int):
    rng = random.Random(seed)
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.fixture(scope="module")
def rs():
    return load_ruleset()


def test_a_setup_program_and_a_program_at_every_round_start(rs, tmp_path):
    rich = variant(tmp_path, "income", '  flow.setup: "for each player: gain 2 gold"\n'
                                       '  flow.phases.0.on_begin: "for each player: score 1"\n')
    base, game = new_game(rs, 2, seed=3), new_game(rich, 2, seed=3)
    for b, p in zip(base.state.players, game.state.players):
        assert p.holdings["gold"] == min(9, b.holdings["gold"] + 2) and p.score == b.score + 1
    play_out(game, 3)
    assert [s["breakdown"]["turn"] for s in game.scores()] == [16, 16]  # a point as each of the 16 rounds began


def test_an_end_condition_ends_the_game_after_that_round(rs, tmp_path):
    short = variant(tmp_path, "short", '  flow.end: "round >= 3"\n')
    game = play_out(new_game(short, 2, seed=5), 5)
    assert game.state.flow.round == 3 and game.state.turn == 6
    assert all("walls" in s["breakdown"] for s in game.scores())  # final scoring ran
    assert play_out(new_game(rs, 2, seed=5), 5).state.turn == 32


def test_the_first_seat_moves_on_each_round(rs, tmp_path):
    moving = variant(tmp_path, "moving", "  flow.first_seat_moves: 1\n")
    game, rng, firsts = new_game(moving, 3, seed=2), random.Random(2), {}
    while not game.is_terminal():
        firsts.setdefault(game.state.flow.round, game.state.current)
        game.apply(rng.choice(game.legal_actions()))
    assert [firsts[r] for r in range(1, 7)] == [0, 1, 2, 0, 1, 2]
    assert game.state.flow.turn == 48


@pytest.mark.parametrize("ties,winners", [("last_seat", [3]), ("first_seat", [1]), ("shared", [1, 2, 3])])
def test_the_tie_rule_is_the_flow_s(rs, tmp_path, ties, winners):
    pack = variant(tmp_path, ties, f"  flow.ties: {ties}\n")
    game = play_out(new_game(pack, 3, seed=1), 1)
    for p in game.state.players:
        p.score = 50  # a three-way tie
    assert game.winners() == winners
    assert game.winner() == (winners[0] if len(winners) == 1 else None)
