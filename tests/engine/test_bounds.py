"""Content cannot hang or crash a game (interpreter/content/bounds.py and the checks that refuse unplayable setups).

* The machine's step budget stops an action whose effects loop, with a RunawayError naming the
  program and where it is written: for a loop validation cannot see (a count read from the game) and
  for a cycle when the static check is bypassed. Searches for legal actions let it through.
* A wheel bonus that cannot be paid is not offered, and lapses at the end of the turn.
* A one-turn game in a single era plays to the end; official variants raise no bounds error.

Every test that could hang without the fix runs under a 20 s alarm.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

from interpreter.content import ruleset as ruleset_module
from interpreter.runtime.game import new_game
from interpreter.errors import IllegalActionError, RunawayError
from interpreter.content.ruleset import load_ruleset, run_pipeline
from interpreter.play.simulate import GameSpec, play_game

HERE = Path(__file__).resolve().parents[1]
BOUNDS = HERE / "bounds"
VARIANTS = sorted((HERE.parent / "content" / "praga" / "variants").glob("*.yaml"))


def _run_action(rs, action: str):
    game = new_game(rs, 2, seed=1)
    machine, state = game.rules.machine, game.state.clone()
    machine.start(state, f"pack/actions/{action}/effect", 0, f"action:{action}")
    machine.run(state)


def test_the_machine_meters_every_step_it_runs_in_any_state():
    """Machine.steps_run: the work a bot's search bounds itself by, the same on every machine."""
    game = new_game(load_ruleset(None), 2, seed=1)
    machine = game.rules.machine
    counted = []
    for _ in range(2):  # the same program run twice, on two copies: the meter counts both
        state, before = game.state.clone(), machine.steps_run
        machine.start(state, "pack/actions/mines/effect", 0, "action:mines")
        machine.run(state)
        counted.append(machine.steps_run - before)
        assert counted[-1] == state._steps > 0  # a fresh copy has taken no step before
    assert counted[0] == counted[1]
    before = machine.steps_run
    game.scores_if_over()  # final scoring run on a copy is work too
    assert machine.steps_run > before


def test_step_budget_stops_a_loop_validation_lets_through(time_limit):
    rs = load_ruleset(None, [BOUNDS / "step_budget.yaml"])  # valid: the count is read from the game
    with time_limit(20), pytest.raises(RunawayError) as caught:
        _run_action(rs, "mines")
    message = str(caught.value)
    assert "pack/actions/mines/effect" in message
    assert "step_budget.yaml:9:" in message  # where the looping text is written


@pytest.mark.parametrize("effect", ["advance quarry 1000000000 * gold + 1", "move hunger_wall sideways 1000000000 * gold + 1"])
def test_advances_and_moves_counted_from_the_game_are_budgeted_too(tmp_path, effect, time_limit):
    """One statement that would queue a billion single advances or moves stops before queuing them."""
    overlay = tmp_path / "many_advances.yaml"
    overlay.write_text((BOUNDS / "step_budget.yaml").read_text().replace('"repeat 1 + 100000 * gold: score 1"', effect))
    rs = load_ruleset(None, [overlay])
    with time_limit(20), pytest.raises(RunawayError, match="pack/actions/mines/effect"):
        _run_action(rs, "mines")


def test_step_budget_stops_a_perform_cycle_when_the_static_check_is_bypassed(monkeypatch, time_limit):
    cycle = HERE / "content_errors" / "e230_perform_cycle.yaml"
    assert [e.code for e in run_pipeline(None, [cycle]).errors] == ["E230"]
    monkeypatch.setattr(ruleset_module, "check_cycles", lambda *args, **kwargs: None)
    rs = load_ruleset(None, [cycle])
    with time_limit(20), pytest.raises(RunawayError) as caught:
        _run_action(rs, "mines")
    assert "e230_perform_cycle.yaml:1" in str(caught.value)  # one of the cycle's two programs, with its line


def test_step_budget_counts_every_run_of_one_action(tmp_path, monkeypatch, time_limit):
    """`later:` defers to the end of the turn, where the engine runs what is left, again and again while
    more is deferred: each run is short, so the budget counts all the runs of one action."""
    overlay = tmp_path / "later_cycle.yaml"
    overlay.write_text((BOUNDS / "step_budget.yaml").read_text().replace(
        '"repeat 1 + 100000 * gold: score 1"', '"later: { score 1; perform mines }"'))
    assert [e.code for e in run_pipeline(None, [overlay]).errors] == ["E230"]
    monkeypatch.setattr(ruleset_module, "check_cycles", lambda *args, **kwargs: None)
    rs = load_ruleset(None, [overlay])
    game = new_game(rs, 2, seed=3)
    rng = random.Random(3)
    with time_limit(60), pytest.raises(RunawayError, match="pack/actions/mines/effect"):
        for _ in range(2000):
            game.apply(rng.choice(game.legal_actions()))
            if game.is_terminal():
                break


def test_a_looping_action_is_not_hidden_as_illegal(time_limit):
    """The legal-action search tries actions on copies: a RunawayError there is raised, not taken for
    'this action cannot be carried out'."""
    rs = load_ruleset(None, [BOUNDS / "step_budget.yaml"])
    game = new_game(rs, 2, seed=3)
    rng = random.Random(3)
    with time_limit(60), pytest.raises(RunawayError):
        for _ in range(2000):
            game.apply(rng.choice(game.legal_actions()))
            if game.is_terminal():
                break


def test_unpayable_wheel_bonus_is_not_offered_and_lapses(time_limit):
    rs = load_ruleset(None, [BOUNDS / "unpayable_bonus.yaml"])
    for seed in (1, 2):
        game = new_game(rs, 2, seed=seed)
        rng = random.Random(seed)
        with time_limit(60):
            while not game.is_terminal():
                legal = game.legal_actions()
                if "bonus" in legal:  # only when the 5 eggs can be paid
                    assert game.state.players[game.current_player].holdings.get("egg", 0) >= 5
                game.apply(rng.choice(legal))
        assert game.state.turn >= 32


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_one_turn_game_plays_to_the_end(players, time_limit):
    spec = GameSpec(players, ("random",) * players, seed=5, variants=(str(BOUNDS / "one_turn.yaml"),))
    with time_limit(20):
        record = play_game(spec)
    seats = {1: 2}.get(players, players)
    assert record["turns"] == seats  # one turn per seat, then final scoring


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda p: p.stem)
def test_official_variants_have_no_unbounded_effects(variant):
    assert run_pipeline(None, [variant]).errors == []


def test_illegal_action_error_crosses_process_boundaries():
    """Simulations run games in worker processes: the error a game raises must unpickle there."""
    err = pickle.loads(pickle.dumps(IllegalActionError("end", "player 1 cannot pay")))
    assert (err.action, err.reason, str(err)) == ("end", "player 1 cannot pay", "illegal action 'end': player 1 cannot pay")
