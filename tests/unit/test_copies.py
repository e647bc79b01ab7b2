"""Per-player starting copies (runtime/copies.py): a zone `per: player, start: copies` starts with a
copy of every record of its kind for each player, owned by that player; a copy reads as its record
(kind, fields, effects, triggers). A small invented pack, written inline."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from interpreter import load_ruleset, new_game
from interpreter.content.ruleset import run_pipeline
from interpreter.runtime.game import Game

import inline_pack

E = "provenance: exact, source: test"

ZONES = f"""\
  - {{id: pile, holds: building, per: player, start: copies, visibility: owner, {E}}}
  - {{id: market, holds: building, start: all, {E}}}
  - {{id: road, holds: building, {E}}}
  - {{id: traits, holds: trait, per: player, owned: true, start: copies, {E}}}
"""
PACK = f"""\
kind: pack
id: copies_test
name: Copies test
version: 0.0.1
players: {{min: 1, max: 3}}
include: [kinds.yaml, records.yaml, flow.yaml, scoring.yaml]
resources:
  - {{id: coin, name: coin, plural: coins, {E}}}
  - {{id: grain, name: grain, {E}}}
pieces:
  - {{id: worker, per_player: 1, {E}}}
actions:
  - {{id: rest, name: Rest, effect: gain 0 coin, {E}}}
events:
  - {{id: round_started, params: [{{name: round, type: number}}], {E}}}
zones:
"""
KINDS = """\
kind: record_kinds
kinds:
  - id: building
    doc: A building card; every player has a set.
    file: records
    list: buildings
    fields:
      points: {type: integer, min: 0, doc: Points for building it.}
      primary: {type: effect, doc: For the worker's owner.}
      secondary: {type: effect, required: false, doc: For the card's owner.}
  - id: trait
    doc: A standing rule of a player.
    file: records
    list: traits
    fields:
      effect: {type: effect, doc: Its triggers.}
"""
RECORDS = f"""\
kind: records
buildings:
  - {{id: farm, points: 1, primary: gain 2 grain, secondary: gain 1 coin, {E}}}
  - {{id: mill, points: 3, primary: score 2, {E}}}
traits:
  - {{id: thrift, effect: "on round_started: gain 1 coin", {E}}}
"""
FLOW = f"""\
kind: flow
provenance: exact
source: test
rounds: 1
phases:
  - {{id: build, menu: build}}
  - {{id: work, menu: work}}
menus:
  - id: build
    provenance: exact
    source: test
    entries:
      - {{id: build, from: pile, effect: "score this.points; move this to road at end", ends_turn: true, {E}}}
  - id: work
    provenance: exact
    source: test
    entries:
      - {{id: place, from: spaces, piece: worker, ends_turn: true, {E}}}
spaces:
  - {{id: card, on: road, effect: "run primary of this; as owner: run secondary of this", {E}}}
"""
SCORING = f"""\
kind: scoring
final:
  - {{id: coins, effect: "score coin", {E}}}
"""


def make(tmp_path: Path, zones: str = ZONES) -> Path:
    return inline_pack.write_pack(tmp_path, {"pack.yaml": PACK + zones, "kinds.yaml": KINDS, "records.yaml": RECORDS,
                                             "flow.yaml": FLOW, "scoring.yaml": SCORING})


@pytest.fixture()
def rs(tmp_path):
    return load_ruleset(make(tmp_path))


def test_each_player_starts_with_its_own_copies_and_owns_them(rs):
    g = new_game(rs, 3, seed=0)
    assert [g.state.zones[f"pile@{s}"] for s in range(3)] == [
        ("farm~1", "mill~1"), ("farm~2", "mill~2"), ("farm~3", "mill~3")]
    assert {r: g.state.owners[r] for r in ("farm~1", "mill~2", "farm~3")} == {"farm~1": 0, "mill~2": 1, "farm~3": 2}
    assert g.state.zones["market"] == ("farm", "mill")  # a zone of every record lists the records, not their copies
    assert g.state.players[1].owned["trait"] == ["thrift~2"]  # an owned zone: the copies are owned records
    assert g.legal_actions() == ["build farm~1", "build mill~1"]  # the acting player's own pile


def test_a_copy_reads_as_its_record_and_stays_its_players_on_a_shared_zone(rs):
    g = new_game(rs, 2, seed=0)
    g.apply("build mill~1")
    g.apply("build farm~2")
    assert g.state.players[0].score == 3 and g.state.players[1].score == 1  # this.points of the copy
    assert g.state.zones["road"] == ("mill~1", "farm~2") and g.state.owners["farm~2"] == 1
    g.apply("place farm~2")  # seat 0's worker on seat 1's farm: its primary for seat 0, its secondary for seat 1
    assert g.state.players[0].holdings["grain"] == 2
    g.apply("place mill~1")  # seat 1's worker on seat 0's mill: 2 points, attributed to the mill
    assert g.is_terminal() and g.state.players[1].breakdown["mill"] == 2
    # coins: the trait's 1 each, and seat 1's farm's secondary; the mill has none
    assert [p.holdings["coin"] for p in g.state.players] == [1, 2]


def test_a_copys_trigger_fires_for_its_player(rs):
    g = new_game(rs, 2, seed=0)
    # `on round_started: gain 1 coin` of each player's own copy of the trait
    assert [p.holdings["coin"] for p in g.state.players] == [1, 1]


def test_a_game_with_copies_saves_replays_and_hides_the_other_piles(rs):
    g = new_game(rs, 2, seed=0)
    g.apply("build farm~1")
    again = Game.from_json(rs, g.to_json())
    assert again.state == g.state and again.legal_actions() == g.legal_actions()
    seen = g.observation(1)["zones"]
    assert "farm~2" in json.dumps(seen["pile@1"]) and "mill~1" not in json.dumps(seen["pile@0"])
    d = g.determinized(1, random.Random(3))
    assert sorted(d.state.zones["pile@0"]) == ["mill~1"]
    while not g.is_terminal():
        g.apply(g.legal_actions()[0])
    assert g.is_terminal()


@pytest.mark.parametrize("zone, message", [
    (f"  - {{id: pile, holds: building, start: copies, {E}}}\n", "needs `per: player`"),
    (f"  - {{id: pile, holds: building, per: player, start: all, {E}}}\n", "needs `per: shared`"),
    (f"  - {{id: pile, per: player, start: copies, {E}}}\n", "and the kind it `holds`"),
    (f"  - {{id: pile, holds: building, per: player, start: copies, {E}}}\n"
     f"  - {{id: spare, holds: building, per: player, start: copies, {E}}}\n", "both start with copies of 'building'"),
])
def test_start_declarations_are_checked(tmp_path, zone, message):
    zones = zone + ZONES.split("\n", 1)[1]
    path = make(tmp_path, zones)
    errors = run_pipeline(path).errors
    assert [e.code for e in errors if e.code == "E209"] == ["E209"], [e.message for e in errors]
    error = next(e for e in errors if e.code == "E209")
    assert message in error.message and Path(error.span.path).name == "pack.yaml"
    line = PACK.count("\n") + 1 + (1 if "spare" in zone else 0)
    assert error.span.line == line
