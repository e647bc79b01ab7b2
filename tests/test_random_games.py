"""Random games over every action, for 1-4 players, the base game and every official variant.

Each game picks uniformly among the legal actions until the end and checks the invariants of
DESIGN.md §8 on the way: no negative holdings and no holding above its cap, legal actions empty
only at the end, 16 turns per seat, every score equal to the sum of its breakdown, the owned
records those of the player's owned zones, the JSON round trip, and replaying the log giving an
equal state. The variants are played in two sets of compatible overlays, so each official variant
is in 100 seeds of every player count.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from interpreter.runtime.game import Game, new_game
from interpreter.paths import default_pack
from interpreter.content.ruleset import load_ruleset

SEEDS = range(100)
VARIANT_SETS = {
    "base": (),
    "variants_a": ("crane_b", "kings_road_tiles", "hunger_wall_tiers_a", "cathedral_tiers_a"),
    "variants_b": ("kings_road_tiles_ii_b", "hunger_wall_tiers_b", "cathedral_tiers_b"),
}


@pytest.fixture(scope="module")
def rulesets():
    return {name: load_ruleset(default_pack(), variants) for name, variants in VARIANT_SETS.items()}


def test_the_variant_sets_hold_every_official_variant():
    official = {p.stem for p in (Path(default_pack()) / "variants").glob("*.yaml")}
    assert official == {v for vs in VARIANT_SETS.values() for v in vs}


def play(rs, players: int, seed: int, seen: Counter) -> Game:
    g = new_game(rs, players, seed=seed)
    caps = g.rules.tables.caps
    rng = random.Random(seed * 7 + players)
    while not g.is_terminal():
        acts = g.legal_actions()
        assert acts, (players, seed, g.state.turn, g.state.log[-5:])
        action = rng.choice(acts)
        g.apply(action)
        seen[action.split()[0] + (" " + action.split()[1] if action.startswith(("act ", "extra ", "do ", "use ")) else "")] += 1
        for p in g.state.players:
            assert all(v >= 0 for v in p.holdings.values()), (seed, action, p.holdings)
            assert all(p.holdings.get(r, 0) <= cap for r, cap in caps.items()), (seed, action, p.holdings)
            assert all(v >= 0 for v in p.pieces_free.values())
    seen["games"] += 1
    for p in g.state.players:
        for acquired in p.acquired:  # "kind:id" of every record the player gained
            seen["gained " + acquired.split(":")[0]] += 1
            seen["gained " + acquired] += 1
    return g


def check_games(rs, players: int, seen: Counter) -> None:
    seats = 2 if players == 1 else players
    for seed in SEEDS:
        g = play(rs, players, seed, seen)
        assert g.state.turn == 16 * seats and g.legal_actions() == [] and g.current_player == -1
        for s in g.scores():
            assert s["score"] == sum(s["breakdown"].values())
        for p in g.state.players:  # what the game gave: tiles placed are owned, tokens and tracks in range
            placed = [t for stack in p.area.values() for t, _ in stack]
            assert sorted(placed) == sorted(p.owned.get("upgrade", []) + p.owned.get("wall", []))
            zones = {k: v for k, v in g.state.zones.items() if k.endswith(f"@{p.seat}")}
            tables = g.rules.tables
            for kind, ids in p.owned.items():  # the owned records are those of the player's owned zones
                assert list(zones[f"{tables.owned_zone(kind).id}@{p.seat}"]) == ids, (seed, kind)
            assert {r for k, v in zones.items() if tables.zones[k.partition("@")[0]].owned for r in v} == \
                {r for ids in p.owned.values() for r in ids}
        assert Game.from_json(rs, g.to_json()).state == g.state
        if seed % 25 == 0:  # replaying the log gives an equal state
            replay = new_game(rs, players, seed=seed)
            for action in g.state.log:
                replay.apply(action)
            assert replay.state == g.state


@pytest.mark.parametrize("variant_set", [v for v in VARIANT_SETS if v != "base"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_games_with_variants_end_and_keep_the_invariants(rulesets, variant_set, players):
    check_games(rulesets[variant_set], players, Counter())


def test_base_random_games_keep_the_invariants_and_cover_every_action_tile_kind_and_technology(rulesets):
    """The base game for 1-4 players: the invariants, then that every action, tile kind, technology,
    one-shot use and any-time action happened somewhere in these games."""
    rs = rulesets["base"]
    seen: Counter = Counter()
    for players in (1, 2, 3, 4):
        check_games(rs, players, seen)
    pack = rs.single("pack")
    for a in pack.actions:
        assert seen[f"act {a.id}"] + seen[f"extra {a.id}"] > 0, a.id
    for verb in ("take", "pick", "place", "plank", "resolve", "refresh", "bonus", "buy", "seal", "discard", "choose"):
        assert seen[verb] > 0, verb
    for kind in pack.tile_kinds:
        assert seen[f"gained {kind.id}"] > 0, kind.id
    technologies = {t.id for t in rs.records("technology")}
    never = technologies - {k.split(":")[1] for k in seen if k.startswith("gained technology:")}
    assert not never, f"never gained: {sorted(never)}"
    one_shots = {t.id for t in rs.records("technology") if t.use == "one_shot"}
    unused = one_shots - {k.split()[1] for k in seen if k.startswith("use ")}
    assert not unused, f"never used: {sorted(unused)} in {seen['games']} games"
    anytime = {a.id for a in rs.single("setup").anytime_actions}
    undone = anytime - {k.split()[1] for k in seen if k.startswith("do ")}
    assert not undone, f"never done: {sorted(undone)}"


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_trying_and_applying_actions_leave_the_state_they_start_from_as_it_was(rulesets, players):
    """Copies of a state share what neither side has changed (players until written, the table's values,
    which are replaced and never changed in place). Trying every legal action, applying each to a copy,
    and applying the chosen one must leave the state they started from as it was."""
    for variant_set in ("base", "variants_a"):
        rs = rulesets[variant_set]
        for seed in range(3):
            g = new_game(rs, players, seed=seed)
            rng = random.Random(seed)
            while not g.is_terminal():
                before = g.state.to_json()
                acts = g.legal_actions()
                assert g.state.to_json() == before
                children = [g.child(a) for a in acts]  # every legal action can be carried out
                assert g.state.to_json() == before and len(children) == len(acts)
                old = g.state
                g.apply(rng.choice(acts))
                assert old.to_json() == before
