"""The static pass that tells which statements cannot fail (interpreter/runtime/fallible.py).

Two kinds of checks: what the pass says about small programs compiled against the bundled pack, and
that it never changes what the engine offers: at every step of random games, the legal actions with
the pass equal the legal actions found by trying every candidate on a copy of the state.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from interpreter.dsl.compile import Compiler
from interpreter.dsl.parse import parse
from interpreter.dsl.resolve import Scope, resolve
from interpreter.runtime.game import Game, new_game
from interpreter.runtime.rules import Rules, rules_for
from interpreter.runtime.setup import deal_stacks
from interpreter.runtime.fallible import Fallibility
from interpreter.paths import default_pack
from interpreter.content.ruleset import load_ruleset


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


@pytest.fixture(scope="module")
def fall(ruleset):
    return rules_for(ruleset, 2).fallibility


def steps(ruleset, text: str) -> tuple:
    node = parse(text)
    res = resolve(node, ruleset.symbols, Scope())
    assert res.errors == [], [e.message for e in res.errors]
    symbols = ruleset.symbols
    return Compiler(symbols.members("resource"), symbols.members("group"), res.constants).program(node, text).steps


@pytest.mark.parametrize("text, safe", [
    ("gain 1 gold; score 2", True),
    ("pay 1 gold", False),
    ("choose { pay 1 gold | gain 1 stone }", True),  # one option that cannot fail is enough
    ("choose { pay 1 gold | pay 1 stone }", False),
    ("may pay 1 gold: gain 2 stone", True),  # declining finishes it
    ("if gold >= 2: pay 2 gold", False),
    ("advance gold_mine", False),  # no way past the end of the track
    ("build wall", False),
    ("later: move hunger_wall sideways", True),  # resolved in an action of its own
    ("move hunger_wall up", False),
])
def test_what_cannot_fail(ruleset, fall, text, safe):
    assert fall.hooks_safe  # the bundled triggers and milestone rewards cannot fail
    assert fall.safe(steps(ruleset, text)) is safe


def test_an_advance_is_sure_while_the_track_has_room(ruleset, fall):
    game = new_game(ruleset, 2, seed=1)
    s, block = game.state, steps(ruleset, "gain 1 gold; advance gold_mine")
    track = game.rules.tables.tracks["gold_mine"]
    s.players[0].tracks["gold_mine"] = track.positions[-2]
    assert fall.sure(s, 0, block)
    s.players[0].tracks["gold_mine"] = track.positions[-1]
    assert not fall.sure(s, 0, block)
    assert fall.sure(s, 0, steps(ruleset, "choose { advance gold_mine | gain 1 gold }"))


def test_a_production_is_sure_while_its_bonuses_can_advance(ruleset):
    """A quarry marker right of space 5 produces `advance technology`. Technology has a way past its end in
    the pack; on a technology track without one, the production is sure until the marker is at the end."""
    rules = rules_for(ruleset, 2)
    assert rules.fallibility.safe(steps(ruleset, "produce quarry"))
    tech = rules.tables.tracks["technology"]
    tables = dataclasses.replace(rules.tables, tracks={**rules.tables.tracks, "technology": dataclasses.replace(tech, beyond_top=None)})
    fall = Fallibility(tables, {})
    game = new_game(ruleset, 2, seed=1)
    s, block = game.state, steps(ruleset, "produce quarry")
    assert not fall.safe(block)
    s.players[0].tracks["quarry"] = 6
    s.players[0].tracks["technology"] = tech.positions[-2]
    assert fall.sure(s, 0, block)
    s.players[0].tracks["technology"] = tech.positions[-1]
    assert not fall.sure(s, 0, block)
    s.players[0].tracks["quarry"] = 4  # left of the bonus: nothing to advance
    assert fall.sure(s, 0, block)


def _distrusting(ruleset, players: int) -> Rules:
    """Rules whose pass trusts nothing: every candidate is tried on a copy, as before the pass existed."""
    rules = Rules(ruleset, players)
    stacks = {sid: set(ids) for sid, ids in deal_stacks(rules, random.Random(0)).items()}
    rules.__dict__["fallibility"] = Fallibility(rules.tables, stacks, trusting=False)
    return rules


@pytest.mark.parametrize("variants", [(), ("crane_b", "kings_road_tiles", "hunger_wall_tiers_a", "cathedral_tiers_a")])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_pass_never_changes_what_is_offered(players, variants):
    rs = load_ruleset(default_pack(), variants)
    slow_rules = _distrusting(rs, players)
    for seed in range(3):
        game = new_game(rs, players, seed=seed)
        rng = random.Random(seed)
        while not game.is_terminal():
            legal = game.legal_actions()
            assert legal == Game(slow_rules, game.state).legal_actions(), (seed, game.state.turn, game.state.log[-3:])
            game.apply(rng.choice(legal))


def test_an_advance_into_a_space_with_an_entry_cost_is_sure_while_it_can_be_paid(ruleset):
    """King's Road space IV costs 1 egg and draws from the bridge IV stack; the kept tile is laid on a free
    plank. In the pack no bridge tile and no plank bonus can fail, so one advance from III is sure exactly
    while the player holds an egg. With a plank whose bonus can fail (here: a build), IV needs a try."""
    rules = rules_for(ruleset, 2)
    game = new_game(ruleset, 2, seed=1)
    s, block = game.state, steps(ruleset, "advance kings_road")
    s.players[0].tracks["kings_road"] = 3
    s.players[0].holdings["egg"] = 1
    assert rules.fallibility.sure(s, 0, block)
    s.players[0].holdings["egg"] = 0
    assert not rules.fallibility.sure(s, 0, block)
    s.players[0].holdings["egg"] = 1
    layout = rules.tables.layout
    (first, _), *rest = layout.slots
    risky = dataclasses.replace(layout, slots=((first, ("pack/actions/building/effect",)), *rest))
    fall = Fallibility(dataclasses.replace(rules.tables, layout=risky), {sid: set(ids) for sid, ids in
                                                                          deal_stacks(rules, random.Random(0)).items()})
    assert fall.hooks_safe and not fall.sure(s, 0, block)
    s.players[0].tracks["kings_road"] = 1  # to II: no entry cost, and its street effects are deferred
    assert fall.sure(s, 0, block) and rules.fallibility.sure(s, 0, block)


def _decisions(ruleset, players: int, seeds: range):
    """Every pending program decision of random games, each as a game of its own (the state at that step)."""
    for seed in seeds:
        game = new_game(ruleset, players, seed=seed)
        rng = random.Random(seed)
        while not game.is_terminal():
            s = game.state
            if s.decision is not None and s.frames and s.frames[-1].key[:1] != "@":
                yield Game(game.rules, s)  # apply replaces the game's state; this one stays as it is
            game.apply(rng.choice(game.legal_actions()))


def test_answers_while_a_turn_ends_are_judged_with_what_the_end_still_runs(ruleset):
    """A choice met while the turn ends (a deferred item resolved by `end`) is sure when what the end
    still runs cannot fail: the other deferred items, the fallbacks of lapsing permits. A deferred item
    that can fail (here: an action program that opens with a build) makes every answer need a try."""
    games = [g for g in _decisions(ruleset, 4, range(1, 6)) if g.state.turn_info.get("ending")]
    assert games
    fall = games[0].rules.fallibility
    sure = [g for g in games if any(fall.answers(g.state))]
    assert sure, "no decision of an ending turn was judged"
    for game in sure:
        s = game.state.clone()
        s.turn_info["later"] = [*s.turn_info.get("later", ()), {
            "key": "pack/actions/building/effect", "addr": [], "trigger": None, "player": s.current,
            "source": "test", "this": None, "event": None, "label": "building"}]
        assert not any(fall.answers(s))


def test_answers_above_a_waiting_placement_or_event_are_judged(ruleset):
    """What a pick's reward asks, with the placement still to come below it, is sure while the tile has a
    place free of any premium; events queued below fire triggers, which cannot fail in the pack."""
    below = {"place": [], "emit": []}
    for game in _decisions(ruleset, 4, range(1, 8)):
        keys = {(f.key, (f.event or {}).get("phase")) for f in game.state.frames[:-1]}
        if ("@build", "place") in keys:
            below["place"].append(game)
        if any(k == "@emit" for k, _ in keys):
            below["emit"].append(game)
    fall = rules_for(ruleset, 4).fallibility
    assert any(any(fall.answers(g.state)) for g in below["place"])
    assert any(any(fall.answers(g.state)) for g in below["emit"])
    for game in below["place"]:
        s = game.state.clone()
        build = next(f for f in s.frames if f.key == "@build" and f.event.get("phase") == "place")
        kind = build.event["kind"]
        if game.rules.tables.layout.kinds[kind].placed_on != "ring":
            continue
        ring = game.rules.tables.layout.area.ring
        p = s.player(build.player)
        p.area = {**p.area, **{f"{h[0]},{h[1]}": [["x", 0]] for h in ring}}  # no ring hex left free
        assert not fall._frame_safe(s, build, 0)


def test_a_plank_to_choose_needs_no_try_when_no_plank_can_fail(ruleset):
    """Laying a bridge tile: every free plank finishes when no plank's bonuses and nothing waiting below
    can fail (the pack's case); with one plank whose bonus can fail, the planks are tried."""
    rules = rules_for(ruleset, 4)
    layout = rules.tables.layout
    (first, _), *rest = layout.slots
    risky = dataclasses.replace(layout, slots=((first, ("pack/actions/building/effect",)), *rest))
    stacks = {sid: set(ids) for sid, ids in deal_stacks(rules, random.Random(0)).items()}
    wary = Fallibility(dataclasses.replace(rules.tables, layout=risky), stacks)
    seen = sure = 0
    for seed in range(1, 10):
        game = new_game(ruleset, 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_terminal() and seen < 3:
            s = game.state
            if s.decision is not None and s.decision.kind == "plank":
                seen += 1
                assert not wary.slots_sure(s)
                sure += rules.fallibility.slots_sure(s)
            game.apply(rng.choice(game.legal_actions()))
    assert seen and sure
