"""`for each in ZONE [where C]: ...` and the records' runtime attribute `position`, run by the effect machine on a GameState
(interpreter/runtime/iterate.py), against a tiny pack written to disk: a shared road of cards (in
building order, top first), a hand, a pile and a discard per player, and a row of three slots. The
`provost` is a resource of the acting player: how far along the road the loop goes."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.content.ruleset import run_pipeline
from interpreter.dsl.english import to_english
from interpreter.dsl.parse import parse
from interpreter.dsl.printer import to_text
from interpreter.runtime.fallible import Fallibility
from interpreter.runtime.machine import Machine
from interpreter.runtime.state import GameState, PlayerState
from interpreter.runtime.tables import build_tables

import inline_pack

PACK = """\
kind: pack
id: looptest
name: Loop test
version: 0.0.1
players: {min: 1, max: 2}
include: [kinds.yaml, cards.yaml]
resources:
  - {id: coin, name: coin, plural: coins, provenance: exact, source: test}
  - {id: provost, name: provost, provenance: exact, source: test}
actions:
  - {id: activate, name: Activate, effect: "for each in road where position <= provost: as owner: score this.value", provenance: exact, source: test}
events:
  - id: record_moved
    key: to_zone
    params: [{name: record, type: record}, {name: from_zone, type: zone}, {name: to_zone, type: zone}]
    provenance: exact
    source: test
zones:
  - {id: road, holds: card, provenance: exact, source: test}
  - {id: hand, holds: card, per: player, provenance: exact, source: test}
  - {id: pile, holds: card, per: player, provenance: exact, source: test}
  - {id: discard, name: discard pile, holds: card, per: player, provenance: exact, source: test}
  - {id: row, name: market row, holds: card, slots: [left, middle, right], provenance: exact, source: test}
"""
KINDS = """\
kind: record_kinds
kinds:
  - id: card
    doc: A card.
    file: cards
    list: cards
    fields:
      work: {type: effect, doc: What a worker on the card gains.}
      value: {type: integer, min: 0, max: 9, doc: Points.}
"""
CARDS = """\
kind: cards
cards:
  - {id: c1, value: 1, work: "gain 1 coin", provenance: exact, source: test}
  - {id: c2, value: 2, work: "gain 2 coin", provenance: exact, source: test}
  - {id: c3, value: 3, work: "gain 3 coin", provenance: exact, source: test}
  - {id: c4, value: 4, work: "gain 4 coin", provenance: exact, source: test}
  - {id: c5, value: 5, work: "for each in hand where value < this.value: score 1", provenance: exact, source: test}
"""


def write_pack(root: Path, cards: str = CARDS) -> Path:
    return inline_pack.write_pack(root, {"pack.yaml": PACK, "kinds.yaml": KINDS, "cards.yaml": cards})


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory):
    outcome = run_pipeline(write_pack(tmp_path_factory.mktemp("looptest")))
    assert outcome.errors == [], [(e.code, e.message) for e in outcome.errors]
    return outcome.ruleset


@pytest.fixture(scope="module")
def tables(ruleset):
    return build_tables(ruleset)


def compiled(ruleset, text: str, this: bool = False):
    return inline_pack.compiled(ruleset, text, "card" if this else None)


def new_state(**zones) -> GameState:
    state = GameState(players=[PlayerState(0), PlayerState(1)])
    state.zones = {k: tuple(v) for k, v in zones.items()}
    return state


def run(ruleset, tables, state: GameState, text: str, player: int = 0, this: str | None = None) -> GameState:
    """Run one program for ``player`` to its end (as the effect of card ``this`` when given)."""
    return inline_pack.run(ruleset, tables, state, text, player, ("card", this) if this else None)


# --------------------------------------------------------------------------- order, this, the acting player's zone

def test_the_body_runs_once_per_record_in_zone_order_with_this_bound_to_it(ruleset, tables):
    state = new_state(**{"hand@0": ("c3", "c1", "c2")})
    run(ruleset, tables, state, "for each in hand: move this to discard")  # each on top of the last
    assert state.zones["discard@0"] == ("c2", "c1", "c3") and state.zones["hand@0"] == ()
    state = new_state(**{"hand@0": ("c3", "c1", "c2")})
    run(ruleset, tables, state, "for each in hand: { move this to discard at end; score this.value * count(discard) }")
    assert state.zones["discard@0"] == ("c3", "c1", "c2")
    assert state.players[0].score == 3 * 1 + 1 * 2 + 2 * 3  # the bodies run one after another, top first


def test_a_zone_per_player_is_the_acting_players(ruleset, tables):
    state = new_state(**{"hand@0": ("c1",), "hand@1": ("c2", "c3")})
    run(ruleset, tables, state, "for each in hand: score this.value", player=1)
    assert [p.score for p in state.players] == [0, 5]


def test_a_slotted_zone_in_slot_order_empty_slots_skipped_and_position_counts_slots(ruleset, tables):
    state = new_state(row=(None, "c4", "c2"))
    run(ruleset, tables, state, "for each in row: { score 10 * this.position; move this to discard at end }")
    assert state.zones["discard@0"] == ("c4", "c2") and state.players[0].score == 20 + 30
    assert state.zones["row"] == (None, None, None)


def test_the_records_are_those_the_zone_holds_when_the_statement_starts(ruleset, tables):
    state = new_state(**{"hand@0": ("c1", "c2"), "pile@0": ("c3", "c4", "c5")})
    run(ruleset, tables, state, "for each in hand: { move all from pile to hand; score 1 }")
    assert state.players[0].score == 2  # the records that came in meanwhile are not visited
    state = new_state(**{"hand@0": ("c1", "c2", "c3")})
    run(ruleset, tables, state, "for each in hand: { move all from hand to discard; score this.value }")
    assert state.players[0].score == 6  # nor are the ones a body moved out skipped


def test_an_empty_zone_runs_no_body(ruleset, tables):
    state = run(ruleset, tables, new_state(), "for each in road: score 1; score 5")
    assert state.players[0].score == 5


# --------------------------------------------------------------------------- where, position, owners

def test_where_tests_each_record_when_the_statement_starts_with_position_up_to_a_number(ruleset, tables):
    state = new_state(road=("c1", "c2", "c3", "c4"))
    state.players[0].holdings = {"provost": 3}
    run(ruleset, tables, state, "for each in road where position <= provost: score this.value")
    assert state.players[0].score == 1 + 2 + 3
    state = new_state(road=("c1", "c2", "c3", "c4"))
    state.players[0].holdings = {"provost": 1}
    run(ruleset, tables, state, "for each in road where value >= 2: { gain 1 provost; score this.position }")
    assert state.players[0].score == 2 + 3 + 4 and state.players[0].holdings["provost"] == 4  # tested once, at the start


def test_the_activation_of_a_road_up_to_the_provost_rewards_the_owner_of_each_card(ruleset, tables):
    state = new_state(road=("c1", "c2", "c3", "c4"))
    state.owners = {"c1": 0, "c2": 1, "c4": 0}  # c3 has no owner: its `as owner` is skipped
    state.players[1].holdings = {"provost": 3}
    m = Machine(tables)
    m.start(state, "pack/actions/activate/effect", 1, "activate")  # seat 1 activates, as far as its provost
    m.run(state)
    assert [p.score for p in state.players] == [1, 2]  # c4 is past the provost


def test_this_in_where_is_the_effects_record_and_in_the_body_the_zones(ruleset, tables):
    state = new_state(**{"hand@0": ("c1", "c2", "c4", "c3")})
    m = Machine(tables)
    m.start(state, "cards/c5/work", 0, "c5", ("card", "c5"))  # for each in hand where value < this.value: score 1
    m.run(state)
    assert state.players[0].score == 4  # every card of the hand is worth less than c5
    run(ruleset, tables, state, "for each in hand where value < this.value: score this.value", this="c3")
    assert state.players[0].score == 4 + 1 + 2  # c1 and c2, scoring their own value


def test_position_is_the_place_in_the_zone_holding_the_record_and_zero_outside_every_zone(ruleset, tables):
    state = new_state(**{"pile@0": ("c2", "c3"), "row": (None, None, "c4")})
    run(ruleset, tables, state, "score this.position", this="c3")
    assert state.players[0].score == 2
    run(ruleset, tables, state, "score 10 * this.position", this="c1")
    assert state.players[0].score == 2
    run(ruleset, tables, state, "score 100 * count(row where position == 3)")
    assert state.players[0].score == 102


# --------------------------------------------------------------------------- decisions inside the body

def test_a_decision_in_the_body_is_asked_once_per_record_of_the_acting_player(ruleset, tables):
    state = new_state(**{"hand@1": ("c1", "c2", "c3")})
    m = inline_pack.machine_for(ruleset, tables, "for each in hand: may score this.value")
    m.start(state, "test", 1, "test")
    m.run(state)
    answers = [0, 1, 0]  # yes, no, yes
    for a in answers:
        assert state.decision is not None and state.decision.player == 1 and state.decision.kind == "may"
        m.answer(state, a)
    assert state.decision is None and state.players[1].score == 1 + 3
    copy = GameState.from_json(state.to_json())
    assert copy.players[1].score == 4


# --------------------------------------------------------------------------- the static pass

@pytest.mark.parametrize("text, safe", [
    ("for each in hand: gain 1 coin", True),
    ("for each in road where position <= provost: score this.value", True),
    ("for each in hand: pay 1 coin", False),  # as sure as its body
    ("for each in hand: move this to row", False),  # the row may be full
    ("for each in hand: move this to discard", True),
    ("for each in hand: may pay 1 coin: score 1", True),
])
def test_what_the_static_pass_says_of_a_loop(ruleset, tables, text, safe):
    fall = Fallibility(tables, {})
    assert fall.safe(compiled(ruleset, text).steps) is safe


# --------------------------------------------------------------------------- the pack's own effects

def test_names_inside_a_loop_are_checked_where_they_are_written(tmp_path):
    cards = CARDS.replace('"for each in hand where value < this.value: score 1"',
                          '"for each in hand where valu < this.value: score this.points"')
    errors = run_pipeline(write_pack(tmp_path / "bad", cards)).errors
    line_no = next(n for n, text in enumerate(cards.splitlines(), 1) if "valu <" in text)
    line = cards.splitlines()[line_no - 1]
    got = [(Path(e.span.path).name, e.span.line, e.span.col, e.code) for e in errors]
    assert got == [("cards.yaml", line_no, line.index("valu <") + 1, "E308"),
                   ("cards.yaml", line_no, line.index("points") + 1, "E308")], [e.message for e in errors]
    assert "card has no attribute 'valu'" in errors[0].message and "'value'" in errors[0].message


def test_a_trigger_whose_loop_moves_records_into_the_zone_it_listens_to_is_a_cycle(tmp_path):
    cards = CARDS.replace('"for each in hand where value < this.value: score 1"',
                          '"on record_moved(discard): for each in hand: move this to discard"')
    errors = run_pipeline(write_pack(tmp_path / "loop", cards)).errors
    assert [e.code for e in errors] == ["E230"]


def test_a_loop_prints_back_and_reads_in_english_with_the_packs_names(ruleset):
    tree = parse("for each in road where position <= provost:\n  as owner: gain 1 coin")
    assert parse(to_text(tree)) == tree
    assert to_text(tree) == "for each in road where position <= provost: as owner: gain 1 coin"
    assert to_english(tree, ruleset.names) == (
        "For each record of the road where position is at most your provost, in order from the top: this tile's "
        "owner (if it has one): gain 1 coin.")
