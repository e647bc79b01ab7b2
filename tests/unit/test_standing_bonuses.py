"""The bonuses an action carries, to a bot's evaluation (bots.Evaluation.bonuses): the record on top of
an action's hex in a player's area gives its bonus every time that action is performed
(natives/performing.py), so an evaluation counts that bonus, priced from its text (play/effect_value.py),
times `bonuses` and the share of the game left. On invented records and a bare player."""

from __future__ import annotations

from dataclasses import replace

import pytest

from interpreter.dsl.parse import parse
from interpreter.play.bots import Evaluation
from interpreter.runtime.state import PlayerState

PROGRAMS = {"spark": parse("gain 1 ticket"), "medal": parse("score 2"), "dud": parse("draw 1 from pile keep 1")}
PLACES = ("0,1", "1,0")  # the hexes of two actions


def evaluation(**changes) -> Evaluation:
    base = Evaluation(points=1.0, holdings={"ticket": 0.5}, tracks={}, grids={}, owned={}, pieces_free={},
                      opponents=0.0, bonuses=4.0, bonus_programs=PROGRAMS, action_places=PLACES)
    return replace(base, **changes)


def player(area: dict) -> PlayerState:
    return PlayerState(seat=0, area=area)


def test_the_top_of_each_action_hex_counts_its_bonus_times_the_game_left():
    p = player({"0,1": [["dud", 0], ["spark", 3]], "1,0": [["medal", 0]], "2,2": [["medal", 1]]})
    e = evaluation()
    # spark gains a ticket (0.5), medal scores 2 (2 x points 1); the hex of no action does not count,
    # the record beneath the top (dud) neither
    assert e.of_player(p, left=1.0) == pytest.approx(4.0 * (0.5 + 2.0))
    assert e.of_player(p, left=0.5) == pytest.approx(0.5 * 4.0 * (0.5 + 2.0))
    assert e.of_player(p, left=0.0) == 0.0  # at the end no performance is left
    assert e.of_player(player({"0,1": [["spark", 0], ["dud", 2]]}), left=1.0) == 0.0  # a bonus not priced


def test_a_bonus_price_replaces_the_weights_of_what_it_gains():
    p = player({"0,1": [["spark", 0]]})
    priced = evaluation(bonus_prices={"ticket": 3.0})
    assert priced.of_player(p, left=1.0) == pytest.approx(4.0 * 3.0)
    # held, a ticket is still worth its holdings weight
    assert priced.of_player(PlayerState(seat=0, holdings={"ticket": 2}), left=1.0) == pytest.approx(1.0)


def test_early_weights_price_a_bonus_for_the_game_left_and_a_changed_weight_is_seen():
    p = player({"0,1": [["spark", 0]]})
    e = evaluation(holdings={}, early={"holdings": {"ticket": 2.0}})
    assert e.of_player(p, left=0.5) == pytest.approx(4.0 * 0.5 * (0.5 * 2.0))  # bonuses x left x (left x early)
    assert replace(e, bonuses=0.0).of_player(p, left=0.5) == 0.0  # the term is off without its weight
    assert replace(e, bonuses=8.0).of_player(p, left=0.5) == pytest.approx(2 * e.of_player(p, left=0.5))


def test_the_bundled_evaluation_reads_the_bonuses_of_the_records_on_the_action_hexes():
    from pathlib import Path

    from interpreter import load_ruleset, new_game
    from interpreter.play.bots import load_evaluation

    pack = Path(__file__).resolve().parents[2] / "content" / "praga"
    game = new_game(load_ruleset(pack), 1, seed=0)
    e = load_evaluation(game.rules, "tuned_bonuses")
    places = game.rules.machine.layout.action_hex_keys
    assert set(e.action_places) == set(places.values()) and len(places) == 6
    bare = PlayerState(seat=0)
    # an upgrade whose bonus is a gold window, on top of the hex of the action it upgrades
    upgraded = PlayerState(seat=0, area={places["upgrade"]: [["upgrade_i_02", 0]]})
    assert e.of_player(upgraded, left=0.5) - e.of_player(bare, left=0.5) == pytest.approx(8.0 * 0.5 * 3.0)
    # off the action hexes it is no bonus
    elsewhere = PlayerState(seat=0, area={"3,3": [["upgrade_i_02", 0]]})
    assert e.of_player(elsewhere, left=0.5) == e.of_player(bare, left=0.5)
