"""What a placed piece will gain, to a bot's evaluation (bots.Evaluation.occupying): a piece on a record's
space is paid by the record's program only when a later phase runs it, so until then the position would
not show what the placement is worth. With `occupying`, each of the player's pieces on a record counts what
the record's `occupying_program` gains (priced from its text, play/effect_value.py). On a small invented
pack, written inline: cards on a road, a worker placed on one, then a phase that runs the occupied cards."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from interpreter import load_ruleset, new_game
from interpreter.content.ruleset import run_pipeline
from interpreter.play.bots import GreedyBot, load_evaluation

import inline_pack

E = "provenance: exact, source: test"

PACK = f"""\
kind: pack
id: occupying_test
name: Occupying test
version: 0.0.1
players: {{min: 1, max: 4}}
include: [kinds.yaml, cards.yaml, flow.yaml, scoring.yaml, bots.yaml]
resources:
  - {{id: coin, name: coin, plural: coins, {E}}}
  - {{id: grain, name: grain, {E}}}
pieces:
  - {{id: worker, per_player: 1, {E}}}
actions:
  - {{id: rest, name: Rest, effect: gain 0 coin, {E}}}
zones:
  - {{id: road, holds: card, start: all, {E}}}
"""
KINDS = """\
kind: record_kinds
kinds:
  - id: card
    doc: A card of the road.
    file: cards
    list: cards
    fields:
      primary: {type: effect, doc: For the worker's owner.}
      keep: {type: effect, required: false, doc: Another program that is never run.}
"""
CARDS = f"""\
kind: cards
cards:
  - {{id: farm, primary: gain 2 grain, keep: gain 9 grain, {E}}}
  - {{id: mill, primary: score 2, {E}}}
  - {{id: well, primary: "may pay 1 coin: gain 6 grain", {E}}}
"""
FLOW = f"""\
kind: flow
provenance: exact
source: test
setup: "for each player: gain 1 coin"
rounds: 1
phases:
  - {{id: work, menu: work}}
  - {{id: activate, kind: automatic, run: "for each in road where occupant > 0: as occupant: run primary of this"}}
menus:
  - id: work
    provenance: exact
    source: test
    entries:
      - {{id: place, from: spaces, piece: worker, ends_turn: true, {E}}}
      - {{id: rest, ends_turn: true, {E}}}
spaces:
  - {{id: card, on: road, {E}}}
"""
SCORING = f"""\
kind: scoring
final:
  - {{id: coins, effect: "score coin", {E}}}
"""
BOTS = f"""\
kind: bots
greedy: placed
mcts: placed
evaluations:
  - {{id: placed, points: 1.0, holdings: {{grain: 0.5, coin: 0.25}}, occupying: 1.0, occupying_program: primary, opponents: 0, {E}}}
  - {{id: blind, points: 1.0, holdings: {{grain: 0.5, coin: 0.25}}, opponents: 0, {E}}}
"""


def make(tmp_path: Path, bots: str = BOTS) -> Path:
    return inline_pack.write_pack(tmp_path, {"pack.yaml": PACK, "kinds.yaml": KINDS, "cards.yaml": CARDS,
                                             "flow.yaml": FLOW, "scoring.yaml": SCORING, "bots.yaml": bots})


def placed(tmp_path: Path, card: str | None):
    """The first seat's worker on the card (None: not yet placed); the second seat is to act."""
    g = new_game(load_ruleset(make(tmp_path)), 2, seed=0)
    return g if card is None else g.child(f"place {card}")


def test_a_piece_on_a_record_counts_what_its_program_will_gain_the_occupant(tmp_path):
    e = load_evaluation(placed(tmp_path, None).rules, "placed")
    bare = e(placed(tmp_path, None), 0)
    assert bare == pytest.approx(0.25)  # the coin
    # 2 grain at 0.5; 2 points; the well's optional payment: 6 grain (3.0) less a coin (0.25)
    assert e(placed(tmp_path, "farm"), 0) - bare == pytest.approx(1.0)
    assert e(placed(tmp_path, "mill"), 0) - bare == pytest.approx(2.0)
    assert e(placed(tmp_path, "well"), 0) - bare == pytest.approx(2.75)
    # only the program named counts (the farm's `keep` is never run), and with half the weight, half of it
    assert replace(e, occupying=0.5)(placed(tmp_path, "farm"), 0) - bare == pytest.approx(0.5)
    # without the term a placed piece is worth nothing until its program has run
    blind = load_evaluation(placed(tmp_path, None).rules, "blind")
    assert blind(placed(tmp_path, "well"), 0) == blind(placed(tmp_path, None), 0)


def test_once_the_program_has_run_its_gain_is_held_and_the_piece_counts_no_more(tmp_path):
    g = placed(tmp_path, "farm")
    e = load_evaluation(g.rules, "placed")
    before = e(g, 0)
    assert g.state.spaces.get("farm")  # the worker stands on the farm until the activation
    done = g.child("rest")  # the second seat's turn, then the activation
    assert done.is_terminal() and not any(done.state.spaces.values())  # the worker went home
    assert done.state.players[0].holdings["grain"] == 2
    # what was counted ahead is now held; the value changed only by the point final scoring gave the coin
    assert e(done, 0) == pytest.approx(before + 1.0)
    assert load_evaluation(g.rules, "blind")(done, 0) - load_evaluation(g.rules, "blind")(g, 0) == pytest.approx(1.0 + 1.0)


def test_a_one_move_bot_places_where_the_program_pays_most_only_when_it_sees_it(tmp_path):
    g = placed(tmp_path, None)
    assert sorted(g.legal_actions()) == ["place farm", "place mill", "place well", "rest"]
    seeing = GreedyBot(load_evaluation(g.rules, "placed"))
    assert seeing.choose(g, random.Random(0)) == "place well"
    blind = GreedyBot(load_evaluation(g.rules, "blind"))
    # every placement looks alike to it: over seeds it picks among them as a tie
    assert {blind.choose(g, random.Random(s)) for s in range(20)} != {"place well"}


def test_the_weight_needs_its_program_named_and_the_program_must_be_a_records(tmp_path):
    no_program = BOTS.replace(", occupying_program: primary", "")
    errors = run_pipeline(make(tmp_path, no_program)).errors
    assert len(errors) == 1 and "occupying_program" in errors[0].message
    assert Path(errors[0].span.path).name == "bots.yaml" and errors[0].span.line == 5
    misspelt = BOTS.replace("occupying_program: primary", "occupying_program: primery")
    errors = run_pipeline(make(tmp_path, misspelt)).errors
    assert [(e.code, e.span.line) for e in errors] == [("E308", 5)]
    assert "unknown effect field of a record kind 'primery'; did you mean 'primary'?" in errors[0].message
    # a field the kind declares but no record sets: the pack is sound, the bot cannot be made, and says why
    unset = BOTS.replace("occupying_program: primary", "occupying_program: keep")
    g = new_game(load_ruleset(inline_pack.write_pack(tmp_path / "unset", {
        "pack.yaml": PACK, "kinds.yaml": KINDS, "cards.yaml": CARDS.replace(", keep: gain 9 grain", ""),
        "flow.yaml": FLOW, "scoring.yaml": SCORING, "bots.yaml": unset})), 2, seed=0)
    with pytest.raises(ValueError, match="occupying_program 'keep' is the program of no record"):
        load_evaluation(g.rules, "placed")
