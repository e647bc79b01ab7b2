"""Lorenzo il Magnifico (content/lorenzo_il_magnifico), a pack written only as content on the generic core:
it validates, and random games of 2, 3 and 4 players end with every invariant (DESIGN.md §7): legal
actions empty only at the end, no negative count, six rounds played, every score the sum of its
breakdown, the JSON round trip, replaying the log giving an equal state, and trying actions leaving the
state as it was. The dice are chance nodes a bot can sample; two processes with different hash seeds
play the same games; the bots play it to the end; every development card is taken in these games."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from interpreter import load_ruleset, make_bot, new_game
from interpreter.content.ruleset import run_pipeline
from interpreter.runtime.game import Game
from pack_games import games_under_hash_seeds

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "content" / "lorenzo_il_magnifico"
SEEDS = range(8)
KINDS = ("territory", "building", "character", "venture")


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(PACK)


def test_the_pack_validates():
    assert run_pipeline(PACK).errors == []


@pytest.mark.parametrize("variant", sorted((PACK / "variants").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_variant_validates(variant):
    assert run_pipeline(PACK, [variant]).errors == []


def _counts_are_never_negative(g: Game, action: str) -> None:
    for p in g.state.players:
        assert all(v >= 0 for v in p.holdings.values()), (action, p.seat, p.holdings)
        assert all(v >= 0 for v in p.pieces_free.values()), (action, p.pieces_free)
        assert all(len(p.owned.get(k, ())) <= 6 for k in KINDS), (action, p.owned)


def _leaders_first(acts: list[str], rng: random.Random) -> list[str]:
    """The actions a random player who plays and activates leaders when it can picks among (and discards
    one now and then)."""
    leading = [a for a in acts if a.split()[0] in ("play", "activate", "imitate")]
    if leading:
        return leading
    discards = [a for a in acts if a.startswith("discard ")]
    return discards if discards and rng.random() < 0.03 else [a for a in acts if a not in discards] or acts


def play(rs, players: int, seed: int, taken: Counter, policy=lambda acts, rng: acts) -> Game:
    g = new_game(rs, players, seed=seed)
    rng = random.Random(seed * 7 + players)
    while not g.is_terminal():
        acts = g.legal_actions()
        assert acts, (players, seed, g.state.flow, g.state.log[-5:])
        g.apply(rng.choice(policy(acts, rng)))
        _counts_are_never_negative(g, g.state.log[-1])
    for p in g.state.players:
        for kind in KINDS:
            taken.update(p.owned.get(kind, ()))
    return g


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_and_keep_the_invariants(rs, players):
    taken = Counter()
    for seed in SEEDS:
        g = play(rs, players, seed, taken)
        assert g.legal_actions() == [] and g.current_player == -1
        assert g.state.flow.round == 6
        for s in g.scores():
            assert s["score"] == sum(s["breakdown"].values())
        assert Game.from_json(rs, g.to_json()).state == g.state
        if seed % 4 == 0:  # replaying the log gives an equal state
            replay = new_game(rs, players, seed=seed)
            for action in g.state.log:
                replay.apply(action)
            assert replay.state == g.state
    assert len(taken) > 40  # cards of every period are taken


def test_the_full_game_with_leaders_and_advanced_tiles_plays_to_the_end():
    """Both overlays at once: random games of 2, 3 and 4 players end with the invariants; every player holds
    an advanced tile chosen in reverse order; leader cards are played, activated and discarded."""
    rs = load_ruleset(PACK, [PACK / "variants" / "advanced_tiles.yaml", PACK / "variants" / "leaders.yaml"])
    verbs = Counter()
    for players, seed in [(n, seed) for n in (2, 3, 4) for seed in range(2)]:
        g = play(rs, players, seed, Counter(), _leaders_first)
        assert g.legal_actions() == [] and g.state.flow.round == 6
        assert [g.state.log[i].split()[0] for i in range(players)] == ["pick"] * players
        for seat in range(players):
            (tile,) = g.state.zones[f"bonus_tile@{seat}"]
            assert tile.startswith("advanced_")
        for s in g.scores():
            assert s["score"] == sum(s["breakdown"].values())
        assert Game.from_json(rs, g.to_json()).state == g.state
        verbs.update(a.split()[0] for a in g.state.log)
        leaders = {r.id for r in rs.records("leader")}
        played = g.state.zones.get("leaders_in_play", ())
        hands = [r for seat in range(players) for r in g.state.zones.get(f"leader_hand@{seat}", ())]
        discarded = [r for r in g.state.zones.get("discarded", ()) if r in leaders]
        assert len(played) + len(hands) + len(discarded) == 4 * players  # each dealt leader is somewhere
        assert len(discarded) == sum(1 for a in g.state.log if a.startswith("discard "))
    assert verbs["play"] > 0 and verbs["discard"] > 0 and verbs["activate"] > 0


def test_every_development_card_is_taken_in_some_game(rs):
    """Random play that takes a card whenever it can, over games of every player count: all but a few
    costly cards are taken by someone (each deck holds its 24 cards, dealt 4 a round over the 6 rounds)."""
    taken = Counter()
    towers = {c.id for k in KINDS for c in rs.records(k)}
    for players in (2, 3, 4):
        for seed in range(12):
            g = new_game(rs, players, seed=100 + seed)
            rng = random.Random(seed)
            while not g.is_terminal():
                acts = g.legal_actions()
                takes = [a for a in acts if a.split()[0] == "place" and a.split()[2] in towers]
                g.apply(rng.choice(takes if takes and rng.random() < 0.9 else acts))
            for p in g.state.players:
                for kind in KINDS:
                    taken.update(p.owned.get(kind, ()))
    assert len(towers - set(taken)) <= 16, sorted(towers - set(taken))  # costly ones random play rarely affords


@pytest.mark.parametrize("players", [2, 4])
def test_trying_and_applying_actions_leave_the_state_they_start_from_as_it_was(rs, players):
    g = new_game(rs, players, seed=3)
    rng = random.Random(3)
    while not g.is_terminal():
        before = g.state.to_json()
        acts = g.legal_actions()
        children = [g.child(a) for a in acts]  # every legal action can be carried out
        assert g.state.to_json() == before and len(children) == len(acts)
        old = g.state
        g.apply(rng.choice(acts))
        assert old.to_json() == before


def test_the_dice_are_chance_nodes_with_their_distribution(rs):
    g = new_game(rs, 2, seed=0)
    outcomes = g.chance_outcomes()
    assert set(outcomes) == {"black", "white", "orange"}
    assert all(o == [(n, Fraction(1, 6)) for n in range(1, 7)] for o in outcomes.values())
    # a coloured member is worth its die: the top floor of the green tower (value 7) takes the black one with
    # exactly 7 - die servants or more (3 held), the neutral one (worth 0) never
    die = g.state.dice["black"]
    top = g.state.zones["territory_tower"][3]
    legal = set(g.legal_actions())
    assert f"place black {top}" not in legal
    assert {f"place black {top} boost {b}" for b in range(1, 4)} & legal == {
        f"place black {top} boost {b}" for b in range(max(1, 7 - die), 4)}
    assert not any(a.startswith(f"place neutral {top}") for a in legal)


@pytest.mark.parametrize("bot", ["greedy", "mcts:8"])
def test_bots_play_it_to_the_end(rs, bot):
    g = new_game(rs, 3, seed=2)
    bots = [make_bot(bot, g.rules) for _ in range(3)]
    rng = random.Random(2)
    while not g.is_terminal():
        g.apply(bots[g.current_player].choose(g, rng))
    assert len(g.scores()) == 3


def test_two_processes_with_different_hash_seeds_agree():
    out = games_under_hash_seeds(PACK)
    assert out[0] == out[1] and out[0].count("\n") == 3


def test_people_play_it_in_the_terminal():
    result = subprocess.run([sys.executable, "-m", "interpreter", "play", "--pack", str(PACK), "-p", "2", "--seed", "1"],
                            input="q\n", capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stdout + result.stderr
    assert "round 1, phase placement, seat 1 to play" in result.stdout
