"""A third game, written in content only: Harvest Fair (tests/packs/harvest_fair), an invented
worker-placement game with two phases a round, a shared deck dealt to a market, worker spaces and
majorities. No Python was written for it: it validates, and random games of 2-4 players end with
every invariant (DESIGN.md §7), as Praga's do in test_random_games.py."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import load_ruleset, new_game, validate
from interpreter.play.bots import make_bot
from interpreter.runtime.game import Game

PACK = Path(__file__).parent / "packs" / "harvest_fair"
ORDERS = {"bread", "cake", "scarf", "cloak", "picnic", "banquet", "blanket", "flour"}
ZONES_OF_ORDERS = ("deck", "market", "discard", "fulfilled")


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(PACK)


def test_it_validates_with_its_variant():
    assert validate(PACK) == []
    assert validate(PACK, [PACK / "variants" / "long_fair.yaml"]) == []


def check_invariants(g) -> None:
    caps = g.rules.tables.caps
    for p in g.state.players:
        assert all(v >= 0 for v in p.holdings.values()), p.holdings
        assert all(p.holdings.get(r, 0) <= cap for r, cap in caps.items()), p.holdings
        on_spaces = sum(1 for occ in g.state.spaces.values() for o in occ if o.owner == p.seat)
        assert p.pieces_free["worker"] + on_spaces == 3  # pieces are never lost or made
    held = [r for key, contents in g.state.zones.items() if key.partition("@")[0] in ZONES_OF_ORDERS
            for r in contents if r is not None]
    assert sorted(held) == sorted(ORDERS)  # every order is in exactly one zone


def play_random(rs, players: int, seed: int):
    g = new_game(rs, players, seed)
    rng = random.Random(seed * 11 + players)
    while not g.is_terminal():
        legal = g.legal_actions()
        assert legal and g.current_player >= 0
        g.apply(rng.choice(legal))
        check_invariants(g)
    return g


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_with_every_invariant(rs, players):
    for seed in range(40):
        g = play_random(rs, players, seed)
        assert g.legal_actions() == [] and g.current_player == -1
        assert g.state.flow.over and g.state.flow.round == 4
        for s in g.scores():
            assert s["score"] == sum(s["breakdown"].values())
        assert Game.from_json(rs, g.to_json()).state == g.state
        if seed % 10 == 0:
            replay = new_game(rs, players, seed)
            for action in g.state.log:
                replay.apply(action)
            assert replay.state == g.state


def test_the_rules_as_written(rs):
    """Setup coins by seat, the first to pass gains a coin, the harvest pays seats with an order,
    and final scoring's majorities."""
    g = new_game(rs, 3, seed=5)
    assert [p.holdings["coin"] for p in g.state.players] == [1, 2, 3]
    assert sum(1 for r in g.state.zones["market"] if r) == 3 and len(g.state.zones["deck"]) == 5
    g.apply("pass")  # seat 1 passes first
    assert g.state.players[0].holdings["coin"] == 2
    g.apply("pass")
    assert g.state.players[1].holdings["coin"] == 2  # not the first to pass
    seat3 = g.state.players[2]
    seat3.holdings.update(grain=9, wool=9)
    g.invalidate()
    order = next(r for r in g.state.zones["market"] if r)
    g.apply(f"fulfil {order}")
    assert order in g.state.zones["fulfilled@2"] and g.state.owners[order] == 2
    assert g.state.players[2].breakdown["fulfil"] > 0
    g.apply("pass")
    # round 2: the harvest paid seat 3 (an order), the market was refilled, the first seat moved on
    assert g.state.flow.round == 2 and g.current_player == 1
    assert g.state.players[2].holdings["coin"] == 4 and all(g.state.zones["market"])


@pytest.mark.parametrize("bot", ["greedy", "mcts:30"])
def test_bots_play_it_to_the_end(rs, bot):
    g = new_game(rs, 2, seed=3)
    bots = [make_bot(bot, g.rules) for _ in range(2)]
    rng = random.Random(3)
    while not g.is_terminal():
        g.apply(bots[g.current_player].choose(g, rng))
    assert g.is_terminal() and len(g.scores()) == 2


def test_hidden_zones_stay_hidden_and_search_copies_do_not_read_them(rs):
    g = new_game(rs, 2, seed=1)
    view = g.observation(0)
    assert view["zones"]["deck"] == {"size": 5} and all(view["zones"]["market"])
    assert json.loads(json.dumps(view)) == view
    copies = {tuple(g.determinized(0, random.Random(k)).state.zones["deck"]) for k in range(20)}
    assert len(copies) > 1 and all(sorted(c) == sorted(g.state.zones["deck"]) for c in copies)
    same_cards = g.clone()  # another order of the same deck
    same_cards.state.zones = {**same_cards.state.zones, "deck": tuple(reversed(g.state.zones["deck"]))}
    assert (g.determinized(0, random.Random(7)).state.zones["deck"]
            == same_cards.determinized(0, random.Random(7)).state.zones["deck"])


def test_two_processes_with_different_hash_seeds_agree():
    code = ("import random, sys; from interpreter import load_ruleset, new_game;"
            "rs = load_ruleset(sys.argv[1]); g = new_game(rs, 3, 8); r = random.Random(8)\n"
            "while not g.is_terminal(): g.apply(r.choice(g.legal_actions()))\n"
            "print(g.state.to_json())")
    outs = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        outs.add(subprocess.run([sys.executable, "-c", code, str(PACK)], env=env, capture_output=True,
                                text=True, check=True).stdout)
    assert len(outs) == 1


def test_a_save_loads_back_checked_against_its_log(rs):
    from interpreter.play.savefile import SaveError, game_from_data

    g = new_game(rs, 3, seed=2)
    rng = random.Random(2)
    for _ in range(12):
        g.apply(rng.choice(g.legal_actions()))
    back = game_from_data(json.loads(g.to_json()), rs)
    assert back.state == g.state and back.legal_actions() == g.legal_actions()
    data = json.loads(g.to_json())
    data["state"]["players"][0]["holdings"]["coin"] += 5  # a state its log does not lead to
    with pytest.raises(SaveError):
        game_from_data(data, rs)


def test_menus_and_logs_say_the_actions_in_the_packs_words(rs, tmp_path):
    from interpreter.runtime.notation import describe, parse

    named = tmp_path / "named.yaml"
    named.write_text("kind: overlay\nextends: harvest_fair\nname: Named\nprovenance: exact\nsource: test\n"
                     "set:\n  flow.menus.0.entries.1.name: deliver the order\n", encoding="utf-8")
    game = new_game(load_ruleset(PACK, [str(named)]), 2, seed=3)
    assert game.action_phrases() == {"fulfil": "deliver the order {arg}"}
    assert set(game.action_words()) == {"place", "fulfil", "trade", "pass", "choose"}
    assert describe("fulfil cake", None, game.action_phrases()) == "deliver the order cake"
    plain = new_game(rs, 2, seed=3)
    for action in plain.legal_actions():  # without names an action is said as it is written
        assert describe(action, None, plain.action_phrases()) == action
        assert parse(action, plain.legal_actions(), plain.action_words()) == action


def test_people_play_it_in_the_terminal_by_number_or_verb():
    result = subprocess.run([sys.executable, "-m", "interpreter", "play", "--pack", str(PACK), "-p", "2", "--seed", "1"],
                            input="1\nplace field\nq\n", capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert "place field" in result.stdout and "seat 2>" in result.stdout  # the second seat's turn came


def test_the_terminal_says_what_the_menu_does_not_offer_and_why():
    result = subprocess.run([sys.executable, "-m", "interpreter", "play", "--pack", str(PACK), "-p", "2", "--seed", "1"],
                            input="why\nq\n", capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "not offered now: fulfil, trade (type why)" in result.stdout  # under the menu
    assert "not now: trade: you cannot pay 2 coins" in result.stdout  # `why`
    assert "not now: fulfil: it needs your grain is at least" in result.stdout
