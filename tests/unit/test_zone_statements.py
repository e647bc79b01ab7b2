"""The statements that move records between zones, run by the effect machine on a GameState
(interpreter/runtime/zone_effects.py), against a tiny pack written to disk: a pile per player that
refills from the player's discard (shuffled), a hand and a discard per player, and a shared deck that
refills a row of three slots. No board, no setup: the tests build the state and start programs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.content.ruleset import run_pipeline
from interpreter.dsl.english import to_english
from interpreter.dsl.parse import parse
from interpreter.dsl.printer import to_text
from interpreter.errors import RulesError
from interpreter.runtime import zone_effects
from interpreter.runtime.fallible import Fallibility
from interpreter.runtime.machine import Machine
from interpreter.runtime.state import GameState, PlayerState
from interpreter.runtime.tables import build_tables
from interpreter.runtime.zones import ZoneError

import inline_pack

PACK = """\
kind: pack
id: zonetest
name: Zone test
version: 0.0.1
players: {min: 1, max: 2}
include: [kinds.yaml, cards.yaml]
resources:
  - {id: coin, name: coin, plural: coins, provenance: exact, source: test}
actions:
  - {id: deal, name: Deal, effect: "draw 2 from pile to hand", provenance: exact, source: test}
events:
  - id: record_moved
    key: to_zone
    params: [{name: record, type: record}, {name: from_zone, type: zone}, {name: to_zone, type: zone}]
    provenance: exact
    source: test
zones:
  - {id: pile, holds: card, per: player, visibility: hidden, refill: {zone: discard, shuffle: true}, provenance: exact, source: test}
  - {id: hand, holds: card, per: player, visibility: owner, provenance: exact, source: test}
  - {id: discard, name: discard pile, holds: card, per: player, provenance: exact, source: test}
  - {id: deck, holds: card, provenance: exact, source: test}
  - {id: row, name: market row, holds: card, slots: [left, middle, right], refill: {zone: deck}, provenance: exact, source: test}
"""
KINDS = """\
kind: record_kinds
kinds:
  - id: card
    doc: A card.
    file: cards
    list: cards
    fields:
      effect: {type: effect, doc: Runs when the card is played.}
      value: {type: integer, min: 0, max: 9, doc: Points.}
"""
CARDS = """\
kind: cards
cards:
  - {id: c1, value: 1, effect: "move this to discard", provenance: exact, source: test}
  - {id: c2, value: 2, effect: "move this to row", provenance: exact, source: test}
  - {id: c3, value: 3, effect: "on record_moved(discard) if event.from_zone == hand: gain 1 coin", provenance: exact, source: test}
  - {id: c4, value: 1, effect: "gain 1 coin", provenance: exact, source: test}
  - {id: c5, value: 2, effect: "gain 1 coin", provenance: exact, source: test}
  - {id: c6, value: 3, effect: "gain 1 coin", provenance: exact, source: test}
  - {id: c7, value: 4, effect: "gain 1 coin", provenance: exact, source: test}
  - {id: c8, value: 5, effect: "gain 1 coin", provenance: exact, source: test}
"""


def write_pack(root: Path, cards: str = CARDS) -> Path:
    return inline_pack.write_pack(root, {"pack.yaml": PACK, "kinds.yaml": KINDS, "cards.yaml": cards})


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory):
    outcome = run_pipeline(write_pack(tmp_path_factory.mktemp("zonetest")))
    assert outcome.errors == [], [(e.code, e.message) for e in outcome.errors]
    return outcome.ruleset


@pytest.fixture(scope="module")
def tables(ruleset):
    return build_tables(ruleset)


def compiled(ruleset, text: str, this: bool = False):
    return inline_pack.compiled(ruleset, text, "card" if this else None)


def new_state(seed: int | None = 7, **zones) -> GameState:
    state = GameState(players=[PlayerState(0), PlayerState(1)])
    state.zones = {k: tuple(v) for k, v in zones.items()}
    if seed is not None:
        zone_effects.save(state, random.Random(seed))
    return state


def run(ruleset, tables, state: GameState, text: str, this: str | None = None, player: int = 0) -> GameState:
    """Run one program for ``player`` (as the effect of card ``this`` when given) to its end."""
    return inline_pack.run(ruleset, tables, state, text, player, ("card", this) if this else None)


# --------------------------------------------------------------------------- draw N from Z to Z2

def test_draw_moves_the_top_records_onto_the_other_zone_in_order(ruleset, tables):
    state = new_state(**{"pile@0": ("c1", "c2", "c3"), "hand@0": ("c8",), "pile@1": ("c4",)})
    run(ruleset, tables, state, "draw 2 from pile to hand")
    assert state.zones["pile@0"] == ("c3",)
    assert state.zones["hand@0"] == ("c1", "c2", "c8")  # the first drawn on top
    assert state.zones["pile@1"] == ("c4",)  # the other player's pile is not the acting player's
    assert state.owners == {"c1": 0, "c2": 0}


def test_draw_for_the_second_player_uses_their_zones(ruleset, tables):
    state = new_state(**{"pile@0": ("c1",), "pile@1": ("c4", "c5")})
    run(ruleset, tables, state, "draw 1 from pile to hand", player=1)
    assert state.zones["hand@1"] == ("c4",) and state.zones["pile@0"] == ("c1",)
    assert state.owners == {"c4": 1}


def test_draw_all_takes_what_the_zone_holds_now(ruleset, tables):
    state = new_state(**{"hand@0": ("c1", "c2"), "discard@0": ("c3",)})
    run(ruleset, tables, state, "draw all from hand to discard")
    assert state.zones["hand@0"] == () and state.zones["discard@0"] == ("c1", "c2", "c3")


def test_a_short_pile_refills_once_from_its_discard_shuffled_and_then_moves_what_there_is(ruleset, tables):
    state = new_state(**{"pile@0": ("c1",), "discard@0": ("c2", "c3", "c4")})
    before = state.rng
    run(ruleset, tables, state, "draw 9 from pile to hand")
    hand = state.zones["hand@0"]
    assert hand[0] == "c1" and sorted(hand[1:]) == ["c2", "c3", "c4"] and len(hand) == 4
    assert state.zones["pile@0"] == () and state.zones["discard@0"] == ()
    assert state.rng != before  # the shuffle drew from the state's generator, and saved it back


def test_the_refill_shuffle_is_a_function_of_the_seed(ruleset, tables):
    cards = ("c2", "c3", "c4", "c5", "c6", "c7", "c8")

    def drawn(seed):
        state = run(ruleset, tables, new_state(seed, **{"discard@0": cards}), "draw 7 from pile to hand")
        return state.zones["hand@0"], state.rng

    assert drawn(1) == drawn(1)
    assert len({drawn(seed)[0] for seed in range(1, 6)}) > 1
    # the order is the one random.shuffle gives with that seed
    order = list(cards)
    random.Random(3).shuffle(order)
    assert drawn(3)[0] == tuple(order)


def test_a_copy_of_the_state_draws_what_the_original_draws_and_shares_nothing_it_changes(ruleset, tables):
    state = new_state(5, **{"discard@0": ("c2", "c3", "c4", "c5")})
    copy = state.clone()
    rng, zones = state.rng, state.zones
    run(ruleset, tables, copy, "draw 2 from pile to hand")
    assert state.rng is rng and state.rng == rng and state.zones is zones and state.zones["discard@0"] == ("c2", "c3", "c4", "c5")
    again = GameState.from_json(state.to_json())  # saved and loaded: the same draws
    run(ruleset, tables, state, "draw 2 from pile to hand")
    run(ruleset, tables, again, "draw 2 from pile to hand")
    assert state.zones == again.zones == copy.zones and state.rng == again.rng


def test_a_shuffle_without_a_saved_generator_is_refused_but_a_draw_that_needs_none_runs(ruleset, tables):
    state = new_state(None, **{"pile@0": ("c1",), "discard@0": ("c2", "c3")})
    run(ruleset, tables, state, "draw 1 from pile to hand")
    assert state.zones["hand@0"] == ("c1",) and state.rng == []
    with pytest.raises(RulesError, match="random generator"):
        run(ruleset, tables, state, "draw 1 from pile to hand")


def test_drawing_into_a_full_row_is_refused(ruleset, tables):
    state = new_state(**{"deck": ("c1", "c2"), "row": ("c3", None, "c4")})
    run(ruleset, tables, state, "draw 1 from deck to row")
    assert state.zones["row"] == ("c3", "c1", "c4") and state.zones["deck"] == ("c2",)
    assert state.owners == {}  # a shared zone gives no owner
    with pytest.raises(ZoneError, match="no free slot"):
        run(ruleset, tables, state, "draw 1 from deck to row")


def test_the_action_program_of_the_pack_draws(ruleset, tables):
    state = new_state(**{"pile@0": ("c1", "c2", "c3")})
    machine = Machine(tables)
    machine.start(state, "pack/actions/deal/effect", 0, "deal")
    machine.run(state)
    assert state.zones["hand@0"] == ("c1", "c2")


# --------------------------------------------------------------------------- move this / move all

def test_move_this_takes_the_record_out_of_whichever_zone_holds_it(ruleset, tables):
    state = new_state(**{"hand@0": ("c5", "c1", "c6"), "discard@0": ("c8",)})
    machine = Machine(tables)
    machine.start(state, "cards/c1/effect", 0, "c1", ("card", "c1"))  # the card's own effect: `move this to discard`
    machine.run(state)
    assert state.zones["hand@0"] == ("c5", "c6") and state.zones["discard@0"] == ("c1", "c8")
    assert state.owners == {"c1": 0}


def test_move_this_into_a_slotted_row_takes_the_first_free_slot_or_the_named_one(ruleset, tables):
    state = new_state(**{"hand@0": ("c1", "c2"), "row": ("c3", None, None)})
    state.owners = {"c2": 0}
    run(ruleset, tables, state, "move this to row", this="c2")
    assert state.zones["row"] == ("c3", "c2", None) and state.zones["hand@0"] == ("c1",)
    assert state.owners == {"c2": 0}  # a shared zone keeps the owner
    run(ruleset, tables, state, "move this to row at right", this="c1")
    assert state.zones["row"] == ("c3", "c2", "c1")
    with pytest.raises(ZoneError, match="already holds"):
        run(ruleset, tables, new_state(**{"row": ("c3", None, None)}), "move this to row at left", this="c1")


def test_move_this_at_the_end_of_a_pile_and_from_outside_every_zone(ruleset, tables):
    state = new_state(**{"pile@1": ("c2", "c3")})
    run(ruleset, tables, state, "move this to pile at end", this="c1", player=1)
    assert state.zones["pile@1"] == ("c2", "c3", "c1") and state.owners == {"c1": 1}
    run(ruleset, tables, state, "move this to pile at top", this="c1", player=1)
    assert state.zones["pile@1"] == ("c1", "c2", "c3")


def test_move_all_empties_a_zone_into_another_in_order(ruleset, tables):
    state = new_state(**{"hand@0": ("c1", "c2", "c3"), "discard@0": ("c8",)})
    run(ruleset, tables, state, "move all from hand to discard")
    assert state.zones["hand@0"] == () and state.zones["discard@0"] == ("c1", "c2", "c3", "c8")
    run(ruleset, tables, state, "move all from discard to pile at end")
    assert state.zones["discard@0"] == () and state.zones["pile@0"] == ("c1", "c2", "c3", "c8")
    assert state.owners == {"c1": 0, "c2": 0, "c3": 0, "c8": 0}


def test_move_all_into_a_row_too_small_is_refused(ruleset, tables):
    state = new_state(**{"hand@0": ("c1", "c2", "c3", "c4")})
    with pytest.raises(ZoneError):
        run(ruleset, tables, state, "move all from hand to row")
    state = new_state(**{"hand@0": ("c1", "c2"), "row": (None, "c5", None)})
    run(ruleset, tables, state, "move all from hand to row")
    assert state.zones["row"] == ("c1", "c5", "c2") and state.zones["hand@0"] == ()


# --------------------------------------------------------------------------- shuffle and refill

def test_shuffle_is_a_chance_node_of_the_seed(ruleset, tables):
    cards = ("c1", "c2", "c3", "c4", "c5", "c6")
    state = run(ruleset, tables, new_state(11, **{"pile@0": cards}), "shuffle pile")
    order = list(cards)
    random.Random(11).shuffle(order)
    assert state.zones["pile@0"] == tuple(order)
    twice = run(ruleset, tables, state, "shuffle pile")  # the generator moved on: a second shuffle is drawn after the first
    again = list(order)
    rng = random.Random(11)
    rng.shuffle(list(cards))
    rng.shuffle(again)
    assert twice.zones["pile@0"] == tuple(again)


def test_refill_deals_into_the_empty_slots_from_the_refill_zone(ruleset, tables):
    state = new_state(**{"row": (None, "c1", None), "deck": ("c2", "c3", "c4")})
    run(ruleset, tables, state, "refill row")
    assert state.zones["row"] == ("c2", "c1", "c3") and state.zones["deck"] == ("c4",)
    state = new_state(**{"row": (None, None, None), "deck": ("c2",)})
    run(ruleset, tables, state, "refill row")
    assert state.zones["row"] == ("c2", None, None) and state.zones["deck"] == ()  # slots stay empty


def test_refill_of_a_pile_takes_its_discard_under_it_shuffled(ruleset, tables):
    state = new_state(4, **{"pile@0": ("c1",), "discard@0": ("c2", "c3", "c4", "c5")})
    run(ruleset, tables, state, "refill pile")
    order = ["c2", "c3", "c4", "c5"]
    random.Random(4).shuffle(order)
    assert state.zones["pile@0"] == ("c1", *order) and state.zones["discard@0"] == ()


# --------------------------------------------------------------------------- queries

def test_count_of_a_zone_and_with_a_condition_on_its_records(ruleset, tables):
    state = new_state(**{"hand@0": ("c1", "c2", "c8"), "hand@1": ("c3",), "row": ("c4", None, "c5")})
    state.owners = {"c5": 0}
    run(ruleset, tables, state, "gain (count(hand)) coin; score count(hand where value >= 2) + 10 * count(row where owned)")
    assert state.players[0].holdings == {"coin": 3} and state.players[0].score == 2 + 10
    run(ruleset, tables, state, "score count(hand) + count(row) * 10", player=1)
    assert state.players[1].score == 1 + 20


def test_this_inside_where_is_the_effects_record_as_for_a_kind(ruleset, tables):
    state = new_state(**{"hand@0": ("c1", "c2", "c4", "c8")})
    run(ruleset, tables, state, "score count(hand where value == this.value)", this="c4")
    assert state.players[0].score == 2  # c1 and c4 have value 1


# --------------------------------------------------------------------------- record_moved

def test_every_moved_record_emits_record_moved_to_the_triggers_of_owned_records(ruleset, tables):
    state = new_state(**{"hand@0": ("c1", "c2"), "pile@0": ("c4",)})
    state.players[0].owned = {"card": ["c3"]}  # c3: on record_moved(discard) if event.from_zone == hand: gain 1 coin
    run(ruleset, tables, state, "move all from hand to discard")
    assert state.players[0].holdings == {"coin": 2}  # once per record
    run(ruleset, tables, state, "draw 1 from pile to discard; draw 1 from discard to hand")  # not from the hand; not to the discard
    assert state.players[0].holdings == {"coin": 2}


# --------------------------------------------------------------------------- the static pass

@pytest.mark.parametrize("text, safe", [
    ("draw 2 from pile to hand", True),  # fewer records move as many as there are: nothing refuses
    ("draw 1 from deck to row", False),  # the row may be full
    ("move all from hand to discard", True),
    ("move all from hand to row", False),
    ("shuffle pile; refill row; refill pile", True),  # slots stay empty when the deck runs out
    ("choose { move all from hand to row | shuffle pile }", True),
])
def test_what_the_static_pass_says_of_zone_statements(ruleset, tables, text, safe):
    fall = Fallibility(tables, {})
    assert fall.safe(compiled(ruleset, text).steps) is safe


def test_a_move_into_a_slot_is_never_judged_sure(ruleset, tables):
    fall = Fallibility(tables, {})
    steps = compiled(ruleset, "move this to row at left", this=True).steps
    assert not fall.safe(steps)
    empty = new_state(**{"row": (None, None, None)})
    assert not fall.sure(empty, 0, steps)  # even with room now: the pass does not judge zones by the state
    assert fall.safe(compiled(ruleset, "move this to discard", this=True).steps)


# --------------------------------------------------------------------------- the pack's own effects

def test_zone_names_in_a_packs_effects_are_checked_where_they_are_written(tmp_path):
    cards = CARDS.replace('effect: "move this to row"', 'effect: "move this to rows at left"')
    root = write_pack(tmp_path / "bad", cards)
    errors = run_pipeline(root).errors
    line = next(n for n, text in enumerate(cards.splitlines(), 1) if "rows at left" in text)
    col = cards.splitlines()[line - 1].index("rows") + 1
    assert [(Path(e.span.path).name, e.span.line, e.span.col, e.code) for e in errors] == [("cards.yaml", line, col, "E320")]
    assert "unknown zone 'rows'" in errors[0].message and "'row'" in errors[0].message


def test_a_trigger_that_moves_records_into_the_zone_it_listens_to_is_a_cycle(tmp_path):
    cards = CARDS.replace('"on record_moved(discard) if event.from_zone == hand: gain 1 coin"',
                          '"on record_moved(discard): move all from hand to discard"')
    errors = run_pipeline(write_pack(tmp_path / "loop", cards)).errors
    assert [e.code for e in errors] == ["E230"]


def test_the_packs_names_print_and_read_in_english(ruleset):
    tree = parse("draw 2 from pile to hand; move all from hand to discard; refill row; score count(row)")
    assert parse(to_text(tree)) == tree
    assert to_english(tree, ruleset.names) == (
        "Move the top 2 of the pile onto the hand. Move every record of the hand to the discard pile. "
        "Refill the market row. Score 1 point for each record in the market row.")
