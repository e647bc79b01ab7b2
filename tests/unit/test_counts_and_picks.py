"""Counts that are no player's own and records picked or occupied, run by the effect machine on a
GameState against a tiny pack written to disk (interpreter/runtime/counts.py, iterate.py, seats.py):

- a shared resource (`shared: true`): one count for the table, changed by `gain` and `pay` whoever acts;
- marks (`marks:`) and resources kept on records: `put N M on this`, `take N M from this`, `this.M`;
- a resource that stands in for others in payments (`substitutes:`);
- the runtime attributes `owner` and `occupant`, and `as occupant: ...`;
- `choose one in Z [where C]: ...`, a record picked by the acting player;
- `first_most(e)`: the most, a tie going to the earliest in the phase's turn order.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.content.ruleset import run_pipeline
from interpreter.dsl.english import to_english
from interpreter.dsl.parse import parse
from interpreter.dsl.printer import to_text
from interpreter.errors import RulesError
from interpreter.runtime import flow as F
from interpreter.runtime.spaces import Placement
from interpreter.runtime.state import GameState, PlayerState, ReadOnlyDict
from interpreter.runtime.tables import build_tables

import inline_pack

PACK = """\
kind: pack
id: counttest
name: Count test
version: 0.0.1
players: {min: 1, max: 3}
include: [kinds.yaml, cards.yaml]
resources:
  - {id: coin, name: coin, plural: coins, provenance: exact, source: test}
  - {id: clay, name: clay, provenance: exact, source: test}
  - {id: reed, name: reed, provenance: exact, source: test}
  - {id: gem, name: gem, plural: gems, substitutes: [clay, reed], provenance: exact, source: test}
  - {id: marker, name: marker, shared: true, cap: 5, provenance: exact, source: test}
marks:
  - {id: sealed, name: sealed, provenance: exact, source: test}
actions:
  - {id: rest, name: Rest, effect: gain 1 coin, provenance: exact, source: test}
zones:
  - {id: road, provenance: exact, source: test}
  - {id: hand, holds: card, per: player, provenance: exact, source: test}
"""
KINDS = """\
kind: record_kinds
kinds:
  - id: card
    doc: A card.
    file: cards
    list: cards
    fields:
      value: {type: integer, min: 0, max: 9, doc: Points.}
      work: {type: effect, required: false, doc: What a piece on it gives.}
  - id: stone
    doc: A marker stone, of another kind.
    file: stones
    list: stones
    fields:
      weight: {type: integer, min: 0, max: 9, doc: Its weight.}
"""
CARDS = """\
kind: cards
cards:
  - {id: c1, value: 1, work: "gain 1 coin", provenance: exact, source: test}
  - {id: c2, value: 2, work: "gain 2 coin", provenance: exact, source: test}
  - {id: c3, value: 3, provenance: exact, source: test}
"""
STONES = """\
kind: stones
stones:
  - {id: s1, weight: 4, provenance: exact, source: test}
"""


def write_pack(root: Path, pack: str = PACK) -> Path:
    return inline_pack.write_pack(root, {"pack.yaml": pack.replace("[kinds.yaml, cards.yaml]", "[kinds.yaml, cards.yaml, stones.yaml]"),
                                         "kinds.yaml": KINDS, "cards.yaml": CARDS, "stones.yaml": STONES})


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory):
    outcome = run_pipeline(write_pack(tmp_path_factory.mktemp("counttest")))
    assert outcome.errors == [], [(e.code, e.message) for e in outcome.errors]
    return outcome.ruleset


@pytest.fixture(scope="module")
def tables(ruleset):
    return build_tables(ruleset)


def new_state(players: int = 2, **zones) -> GameState:
    state = GameState(players=[PlayerState(i) for i in range(players)])
    state.zones = {k: tuple(v) for k, v in zones.items()}
    return state


def run(ruleset, tables, state, text, player=0, this=None):
    return inline_pack.run(ruleset, tables, state, text, player, this)


def start(ruleset, tables, state, text, player=0, this=None):
    """Run a text until it finishes or stops at a decision; the machine, to answer it."""
    m = inline_pack.machine_for(ruleset, tables, text, this[0] if this else None)
    m.start(state, "test", player, "test", this)
    m.run(state)
    return m


def errors_of(tmp_path, pack: str, effect: str = "gain 1 coin") -> list[tuple[str, str]]:
    outcome = run_pipeline(write_pack(tmp_path, pack.replace("effect: gain 1 coin", f"effect: \"{effect}\"")))
    return [(e.code, e.message) for e in outcome.errors]


# --------------------------------------------------------------------------- shared resources

def test_a_shared_resource_is_one_count_for_the_table(ruleset, tables):
    s = new_state()
    run(ruleset, tables, s, "gain 2 marker, 1 coin", player=0)
    run(ruleset, tables, s, "gain 1 marker", player=1)
    assert s.shared == {"marker": 3} and s.players[0].holdings == {"coin": 1} and "marker" not in s.players[1].holdings
    run(ruleset, tables, s, "if marker == 3: gain 1 coin", player=1)
    assert s.players[1].holdings["coin"] == 1
    run(ruleset, tables, s, "pay 2 marker", player=1)
    run(ruleset, tables, s, "gain 9 marker")
    assert s.shared == {"marker": 5}  # its cap


def test_a_payment_short_of_the_shared_count_or_the_players_changes_neither(ruleset, tables):
    s = new_state()
    s.shared = ReadOnlyDict({"marker": 1})
    s.player(0).holdings["coin"] = 5
    with pytest.raises(RulesError, match="table holds 1 marker"):
        run(ruleset, tables, s, "pay 2 marker, 1 coin")
    with pytest.raises(RulesError, match="cannot pay"):
        run(ruleset, tables, s.clone(), "pay 1 marker, 9 coin")
    assert s.shared == {"marker": 1} and s.players[0].holdings["coin"] == 5
    run(ruleset, tables, s, "pay 1 marker, 1 coin")
    assert s.shared == {"marker": 0} and s.players[0].holdings["coin"] == 4


def test_copies_of_a_state_keep_their_own_shared_counts(ruleset, tables):
    s = new_state()
    copy = s.clone()
    run(ruleset, tables, copy, "gain 2 marker")
    assert s.shared == {} and copy.shared == {"marker": 2}
    assert GameState.from_json(copy.to_json()).shared == {"marker": 2}
    assert "shared" not in GameState.from_json(s.to_json()).to_json()  # an unused part is left out of the text


def test_a_shared_resource_is_no_cost(tmp_path):
    found = errors_of(tmp_path, PACK, "may pay 1 marker: gain 1 coin")
    assert [c for c, _ in found] == ["E310"] and "only `gain` and `pay`" in found[0][1]


# --------------------------------------------------------------------------- what records keep

def test_marks_and_resources_are_put_on_a_record_and_taken_from_it(ruleset, tables):
    s = new_state()
    run(ruleset, tables, s, "put 2 clay, 1 sealed on this", this=("card", "c1"))
    assert s.marks == {"c1": {"clay": 2, "sealed": 1}}
    run(ruleset, tables, s, "if this.clay == 2 and this.sealed == 1 and this.reed == 0: score 1", this=("card", "c1"))
    assert s.players[0].score == 1
    copy = s.clone()
    run(ruleset, tables, copy, "take 3 clay, 1 sealed from this", player=1, this=("card", "c1"))
    assert copy.marks == {} and copy.players[1].holdings == {"clay": 2}  # at most what it kept; a mark goes nowhere
    assert s.marks == {"c1": {"clay": 2, "sealed": 1}}  # the original's are its own
    assert GameState.from_json(s.to_json()).marks == s.marks


def test_a_where_reads_the_marks_of_records_of_any_kind(ruleset, tables):
    s = new_state(road=["c1", "s1", "c2"])
    run(ruleset, tables, s, "put 1 sealed on this", this=("card", "c2"))
    run(ruleset, tables, s, "gain (count(road where sealed == 0)) coin; for each in road where sealed > 0: score this.value")
    assert s.players[0].holdings["coin"] == 2 and s.players[0].score == 2
    run(ruleset, tables, s, "score count(road where weight > 3)")  # a field of one of the kinds the road holds
    assert s.players[0].score == 3


def test_counts_on_records_are_checked(tmp_path):
    found = errors_of(tmp_path, PACK, "put 1 marker on this")
    assert [c for c, _ in found] == ["E302", "E311"]  # a shared count lies on no record; no `this` in an action
    assert "is shared" in found[0][1]
    bad = PACK.replace("  - {id: sealed, name: sealed,", "  - {id: coin, name: coin,")
    bad = bad.replace("marks:\n", "marks:\n  - {id: owner, name: owner, provenance: exact, source: test}\n"
                                   "  - {id: value, name: value, provenance: exact, source: test}\n")
    found = errors_of(tmp_path, bad)
    assert [c for c, _ in found] == ["E209", "E209", "E206"], found  # in the order of the file
    assert "every record has" in found[0][1] and "field of the kind 'card'" in found[1][1] and "resource too" in found[2][1]


def test_put_and_take_read_back_and_say_what_they_do(ruleset):
    for text in ("put 2 clay, 1 sealed on this", "take 1 clay from this"):
        assert to_text(parse(text)) == text
    assert to_english(parse("take 1 clay from this")) == "Take up to 1 clay from this tile."


# --------------------------------------------------------------------------- substitutes

def test_a_substitute_pays_what_the_player_lacks_and_no_more(ruleset, tables):
    s = new_state()
    s.player(0).holdings.update(clay=1, reed=0, gem=3)
    run(ruleset, tables, s, "pay 2 clay, 1 reed")
    assert s.players[0].holdings == {"clay": 0, "reed": 0, "gem": 1}
    with pytest.raises(RulesError, match="cannot pay"):
        run(ruleset, tables, s.clone(), "pay 2 clay")  # 1 gem left: not enough
    s.player(0).holdings.update(clay=2, gem=1)
    run(ruleset, tables, s, "pay 2 clay")  # holding enough: the gem is kept
    assert s.players[0].holdings["gem"] == 1
    with pytest.raises(RulesError, match="cannot pay"):
        run(ruleset, tables, s.clone(), "pay 1 reed, 1 gem")  # the gem asked for itself cannot stand in too


def test_a_payment_a_substitute_completes_is_offered(ruleset, tables):
    s = new_state()
    s.player(0).holdings.update(gem=1)
    m = start(ruleset, tables, s, "may pay 1 reed: score 2")
    assert s.decision is not None and s.decision.kind == "may_pay"
    m.answer(s, 0)
    assert s.players[0].score == 2 and s.players[0].holdings["gem"] == 0


def test_substitutes_are_checked(tmp_path):
    bad = PACK.replace("substitutes: [clay, reed]", "substitutes: [clay, gem, mud, marker]")
    found = errors_of(tmp_path, bad)
    assert [c for c, _ in found] == ["E209", "E302", "E209"], found


# --------------------------------------------------------------------------- owners, occupants, records picked

def test_owner_and_occupant_name_seats_from_one(ruleset, tables):
    s = new_state(road=["c1", "c2", "c3"])
    s.owners = ReadOnlyDict({"c1": 1, "c2": 0})
    s.spaces = ReadOnlyDict({"c1": (Placement(0, "worker"),), "c2": (Placement(2, "worker"), Placement(1, "worker"))})
    run(ruleset, tables, s, "for each in road where occupant > 0 and owner != occupant: score this.occupant * 10 + this.owner")
    assert s.players[0].score == 12 + 31  # c1: occupant 1, owner 2; c2: occupant 3, owner 1; c3: nobody's, empty


def test_as_occupant_acts_for_each_piece_owner_in_the_order_they_came(ruleset, tables):
    s = new_state(players=3, road=["c1", "c2", "c3"])
    s.owners = ReadOnlyDict({"c1": 1})
    s.spaces = ReadOnlyDict({"c1": (Placement(2, "worker"), Placement(0, "worker"))})
    run(ruleset, tables, s, "for each in road: { as occupant: run work of this; as owner: score 1 }")
    assert [p.holdings.get("coin", 0) for p in s.players] == [1, 0, 1] and [p.score for p in s.players] == [0, 1, 0]
    run(ruleset, tables, s, "as occupant: gain 5 coin", this=("card", "c3"))  # nobody's piece on it: nothing
    assert [p.holdings.get("coin", 0) for p in s.players] == [1, 0, 1]


def test_as_occupant_needs_a_record(tmp_path):
    found = errors_of(tmp_path, PACK, "as occupant: gain 1 coin")
    assert [c for c, _ in found] == ["E311"] and "`as occupant`" in found[0][1]


def test_choose_one_in_a_zone_picks_a_record_that_passes(ruleset, tables):
    s = new_state(road=["c1", "s1", "c2", "c3"])
    s.owners = ReadOnlyDict({"c2": 0, "c3": 0, "c1": 1})
    m = start(ruleset, tables, s, "choose one in road where owner == seat: put 1 sealed on this")
    assert s.decision.kind == "choose" and s.decision.options == ["c2", "c3"]
    m.answer(s, 1)
    assert s.decision is None and s.marks == {"c3": {"sealed": 1}}
    with pytest.raises(RulesError, match="no record of zone 'road'"):
        run(ruleset, tables, s.clone(), "choose one in road where value > 5: score 1")
    with pytest.raises(RulesError, match="no record"):
        run(ruleset, tables, new_state(), "choose one in hand: score 1")  # the player's own hand, empty


def test_choose_one_in_reads_back(ruleset):
    text = "choose one in road where owner == seat and sealed == 0: put 1 sealed on this"
    assert to_text(parse(text)) == text
    assert to_english(parse(text)).startswith("Choose one record of the road where")


# --------------------------------------------------------------------------- first_most

def test_first_most_breaks_a_tie_by_the_phases_turn_order(ruleset, tables):
    s = new_state(players=3)
    for seat, coins in enumerate((2, 3, 3)):
        s.player(seat).holdings["coin"] = coins
    winners = []
    for seat in range(3):
        run(ruleset, tables, s, "if first_most(coin): gain 1 reed", player=seat)
        winners.append(s.players[seat].holdings.get("reed", 0))
    assert winners == [0, 1, 0]  # seats 2 and 3 tie; without a flow, seat order from the first seat
    t = new_state(players=3)
    for seat, coins in enumerate((2, 3, 3)):
        t.player(seat).holdings["coin"] = coins
    t.flow = F.FlowCursor(seats=3, order=(2, 0, 1))  # this phase's order: seat 3 first
    for seat in range(3):
        run(ruleset, tables, t, "if first_most(coin): gain 1 reed", player=seat)
    assert [p.holdings.get("reed", 0) for p in t.players] == [0, 0, 1]
