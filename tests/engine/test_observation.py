"""What a seat may see: Game.observation hides face-down stacks and others' draws; the greedy bot judges
positions that do not depend on the real order of the face-down stacks."""

from __future__ import annotations

import json
import random

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.play.bots import GreedyBot, load_evaluation
from interpreter.runtime.game import Game, new_game
from interpreter.runtime.state import GameState


@pytest.fixture(scope="module")
def rs():
    return load_ruleset()


def _face_down(game: Game) -> list[str]:
    """The zones no seat sees (the face-down stacks); the face-up ones and the rows are public."""
    return [sid for sid in game.state.zones if game.rules.tables.zones[sid.partition("@")[0]].visibility == "hidden"]


def _reordered(game: Game, only: str | None = None) -> Game:
    """The same game with its face-down stacks (or one of them) in reverse order."""
    other = game.clone()
    for sid in _face_down(game):
        stack = other.state.zones[sid]
        if only in (None, sid):
            other.state.zones[sid] = tuple(reversed(stack))
    other.invalidate()
    return other


def _to_a_hidden_draw(rs) -> tuple[Game, Game]:
    """Two games that differ only in the order of a face-down stack, played alike until the second seat
    keeps from cards drawn off it (so the cards drawn differ)."""
    g = new_game(rs, 2, seed=1)
    h = _reordered(g, "technology_i")
    rng = random.Random(1)
    for _ in range(400):
        d = g.state.decision
        if d is not None and d.kind == "keep" and d.data["stack"] not in g.rules.face_up:
            return g, h
        legal = g.legal_actions()
        assert h.legal_actions() == legal
        action = rng.choice(legal)
        g.apply(action)
        h.apply(action)
    raise AssertionError("no draw from a face-down stack")


def test_the_observation_shows_no_face_down_order_nor_another_seats_draw(rs):
    g, h = _to_a_hidden_draw(rs)
    keeper = g.state.decision.player
    other = 1 - keeper
    assert g.state.decision.options != h.state.decision.options  # the draws really differ
    seen_g, seen_h = g.observation(other), h.observation(other)
    assert seen_g == seen_h  # nothing in the other seat's view tells the two games apart
    assert seen_g["decision"] == {"player": keeper, "kind": "keep", "count": len(g.state.decision.options),
                                  "options": None}
    text = json.dumps(seen_g)
    assert not any(card in text for card in g.state.decision.options)
    down = _face_down(g)
    assert down and all(seen_g["zones"][sid] == {"size": len(g.state.zones[sid])} for sid in down)
    assert "seed" not in seen_g["table"] and "rng" not in seen_g
    # the keeper sees their own draw, and what they may do with it
    mine = g.observation(keeper)
    assert mine["decision"]["options"] == g.state.decision.options
    assert mine["legal"] == g.legal_actions() and seen_g["legal"] == []


def test_the_observation_is_json_ready_and_a_copy(rs):
    g = new_game(rs, 3, seed=2)
    obs = g.observation(0)
    assert json.loads(json.dumps(obs)) == obs
    assert {"player", "to_act", "current", "turn", "over", "table", "turn_info", "players", "zones", "decision",
            "legal", "log"} <= set(obs)
    assert [p["seat"] for p in obs["players"]] == [0, 1, 2]
    obs["players"][0]["holdings"].clear()
    obs["table"].clear()
    assert g.state.players[0].holdings and g.state.table  # changing the view changes nothing in the game


def test_a_determinized_copy_does_not_depend_on_the_real_order_of_the_stacks(rs):
    g = new_game(rs, 2, seed=4)
    h = _reordered(g)
    assert g.state.zones != h.state.zones
    assert g.determinized(0, random.Random(9)).state.zones == h.determinized(0, random.Random(9)).state.zones


def test_the_greedy_bot_never_judges_the_real_order_of_a_face_down_stack(rs):
    g = new_game(rs, 2, seed=1)
    sid = "technology_i"
    h = _reordered(g, sid)
    legal = g.legal_actions()
    assert h.legal_actions() == legal and len(legal) > 1
    cards = sorted(g.state.zones[sid])

    def wanted(top: str) -> str:  # the action an evaluation that read the stack's top would prefer
        return legal[cards.index(top) % len(legal)]

    assert wanted(g.state.zones[sid][0]) != wanted(h.state.zones[sid][0])  # reading the stack would tell

    def peeking(game, seat, memo=None) -> float:  # an evaluation that reads whatever stack it is shown
        return 1.0 if game.state.log[-1:] == [wanted(game.state.zones[sid][0])] else 0.0

    bot = GreedyBot(peeking)
    assert bot.choose(g, random.Random(3)) == bot.choose(h, random.Random(3))
    real = GreedyBot(load_evaluation(g.rules))
    assert real.choose(g, random.Random(3)) == real.choose(h, random.Random(3))


def test_a_determinized_copy_is_the_same_after_a_save_and_load(rs):
    """The zones are reshuffled in the order setup deals them, not in the order the state's dict
    happens to hold them (a loaded state's is sorted): a bot searching a loaded game sees the same."""
    g = new_game(rs, 2, seed=5)
    rng = random.Random(5)
    for _ in range(12):
        g.apply(rng.choice(g.legal_actions()))
    loaded = Game(g.rules, GameState.from_json(g.state.to_json()))
    assert list(loaded.state.zones) != list(g.state.zones)  # the dict's order differs
    assert loaded.state.zones == g.state.zones
    live, back = g.determinized(0, random.Random(3)), loaded.determinized(0, random.Random(3))
    assert back.state.zones == live.state.zones and back.legal_actions() == live.legal_actions()
