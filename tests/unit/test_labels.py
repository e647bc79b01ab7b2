"""Names, not ids (issue 18): what a score breakdown, a summary or a report shows for an id
(interpreter/content/labels.py), on an invented pack, and on every bundled pack's games."""

from __future__ import annotations

import random

import pytest

from interpreter import load_ruleset, make_bot, new_game
from interpreter.content.labels import Labels, words
from interpreter.content.ruleset import run_pipeline

import inline_pack

E = "provenance: exact, source: test"
PACK = f"""\
kind: pack
id: labelstest
name: Labels test
version: 0.0.1
players: {{min: 1, max: 2}}
include: [flow.yaml, scoring.yaml, tracks.yaml]
resources:
  - {{id: coin, name: silver coin, plural: silver coins, {E}}}
  - {{id: relic, name: holy relic, {E}}}
  - {{id: grain_sack, {E}}}
actions:
  - {{id: rest, name: Rest a while, effect: gain 1 coin, {E}}}
"""
FLOW = f"""\
kind: flow
provenance: exact
source: test
rounds: 2
phases:
  - {{id: work, menu: work}}
menus:
  - id: work
    provenance: exact
    source: test
    entries:
      - {{id: pray, effect: advance piety, ends_turn: true, {E}}}
"""
TRACKS = f"""\
kind: tracks
tracks:
  - id: piety
    name: Path of Piety
    start: 0
    provenance: exact
    source: test
    spaces: [{{n: 0}}, {{n: 1, on_reach: score 2}}, {{n: 2, on_reach: score 3}}, {{n: 3}}]
"""
SCORING = f"""\
kind: scoring
final:
  - {{id: relic, name: Relics kept at the end, effect: score relic, {E}}}
  - {{id: left_over_coins, effect: score coin, {E}}}
"""


@pytest.fixture
def rs(tmp_path):
    root = inline_pack.write_pack(tmp_path, {"pack.yaml": PACK, "flow.yaml": FLOW, "scoring.yaml": SCORING,
                                             "tracks.yaml": TRACKS})
    outcome = run_pipeline(root)
    assert not outcome.errors, [e.format() for e in outcome.errors]
    return outcome.ruleset


def test_ids_in_words():
    assert words("wall_ii_10") == "Wall II 10"
    assert words("open_plazas") == "Open plazas"
    assert words("site_o3_sw") == "Site o3 sw"  # only whole roman numerals are capitalised


def test_records_and_declared_things_by_their_names(rs):
    labels = Labels.of(rs)
    assert labels.source("rest") == "Rest a while"
    assert labels.source("coin") == "Silver coin"
    assert labels.source("grain_sack") == "Grain sack"  # no name: the id in words
    assert labels.source("left_over_coins") == "Left over coins"


def test_a_final_step_is_named_before_a_resource_of_the_same_id(rs):
    # a breakdown's key `relic` is what final scoring's step gave, not the resource
    assert Labels.of(rs).source("relic") == "Relics kept at the end"


def test_owner_and_part_sources(rs):
    labels = Labels.of(rs)
    assert labels.source("piety:2") == "Path of Piety, space 2"
    assert labels.source("market:position") == "Market: points of the position taken"
    assert labels.source("site:site_n2") == "Site premium: site n2"
    assert labels.source("rest:grain_sack") == "Rest a while: grain sack"


def test_breakdown_merges_equal_names_and_sorts_by_points(rs):
    labels = Labels.of(rs)
    assert labels.breakdown({"piety:1": 2, "relic": 5, "left_over_coins": 3}) == {
        "Relics kept at the end": 5, "Left over coins": 3, "Path of Piety, space 1": 2}
    assert labels.breakdown({"a_b": 1, "a__b": 2}) == {"A b": 3}


def test_the_track_scores_under_its_space_and_reads_by_name(rs):
    game = new_game(rs, 1, seed=0)
    while not game.is_terminal():
        game.apply(game.legal_actions()[0])
    breakdown = game.scores()[0]["breakdown"]
    assert breakdown == {"piety:1": 2, "piety:2": 3, "relic": 0, "left_over_coins": 0}
    assert list(Labels.of(rs).breakdown(breakdown)) == ["Path of Piety, space 2", "Path of Piety, space 1",
                                                         "Left over coins", "Relics kept at the end"]


def test_labels_are_built_once_per_ruleset(rs):
    assert Labels.of(rs) is Labels.of(rs)


@pytest.mark.parametrize("pack", ["content/praga", "content/caylus_magna_carta", "content/lorenzo_il_magnifico"])
def test_every_source_of_points_in_bundled_games_reads_as_words(pack):
    rs = load_ruleset(pack, ())
    labels = Labels.of(rs)
    for seed in range(2):
        game = new_game(rs, 2, seed=seed)
        bot, rng = make_bot("greedy", game.rules), random.Random(seed)
        while not game.is_terminal():
            game.apply(bot.choose(game, rng))
        for score in game.scores():
            for key in score["breakdown"]:
                label = labels.source(key)
                assert "_" not in label and label != key, (key, label)
