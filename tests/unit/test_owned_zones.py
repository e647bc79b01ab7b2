"""Zones declared `owned: true` (pack.yaml `zones:`; interpreter/runtime/zone_effects.py `_owned_zones`):
a record in such a zone is one of its player's owned records while it is there, as a record the player
holds is: its triggers fire for the player, `count(<kind>)` and `use ... of each <kind>` include it.
Played as a small game on the generic core (a tableau of cards bought from a shared market), and run
statement by statement through the effect machine."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_ruleset, new_game
from interpreter.content.ruleset import run_pipeline
from interpreter.runtime.state import GameState, PlayerState

import inline_pack

E = "provenance: exact, source: test"
PACK = f"""\
kind: pack
id: tableau
name: Tableau
version: 0.0.1
players: {{min: 1, max: 2}}
include: [kinds.yaml, cards.yaml, flow.yaml, scoring.yaml]
resources:
  - {{id: coin, name: coin, plural: coins, {E}}}
actions:
  - {{id: rest, name: Rest, effect: gain 0 coin, {E}}}
events:
  - id: round_started
    params: [{{name: round, type: number}}]
    provenance: exact
    source: test
zones:
  - {{id: market, holds: card, start: all, {E}}}
  - {{id: tableau, holds: card, per: player, owned: true, {E}}}
  - {{id: discard, holds: card, per: player, {E}}}
"""
KINDS = """\
kind: record_kinds
kinds:
  - id: card
    doc: A card a player buys into their tableau.
    file: cards
    list: cards
    fields:
      effect: {type: effect, doc: What the card does while it is in a tableau.}
      income: {type: effect, required: false, doc: What `use income of each card` gives.}
      value: {type: integer, min: 0, max: 9, doc: Points.}
"""
CARDS = f"""\
kind: cards
cards:
  - {{id: well, value: 1, effect: "on round_started: gain 1 coin", income: gain 10 coin, {E}}}
  - {{id: mill, value: 2, effect: "on round_started: gain 2 coin", {E}}}
  - {{id: shed, value: 4, effect: gain 0 coin, {E}}}
"""
FLOW = f"""\
kind: flow
provenance: exact
source: test
rounds: 3
phases:
  - {{id: work, menu: work, until: all_passed}}
menus:
  - id: work
    provenance: exact
    source: test
    entries:
      - {{id: buy, from: market, effect: move this to tableau, ends_turn: true, {E}}}
      - {{id: scrap, from: tableau, effect: move this to discard, ends_turn: true, {E}}}
      - {{id: pass, passes: true, {E}}}
"""
SCORING = f"""\
kind: scoring
final:
  - {{id: cards, effect: "score 10 * count(card) + count(all card)", {E}}}
"""


def write_pack(root: Path, pack: str = PACK) -> Path:
    return inline_pack.write_pack(root, {"pack.yaml": pack, "kinds.yaml": KINDS, "cards.yaml": CARDS, "flow.yaml": FLOW,
                                         "scoring.yaml": SCORING})


@pytest.fixture(scope="module")
def rs(tmp_path_factory):
    return load_ruleset(write_pack(tmp_path_factory.mktemp("tableau")))


def coins(g) -> list[int]:
    return [p.holdings.get("coin", 0) for p in g.state.players]


# --------------------------------------------------------------------------- in a game

def test_a_trigger_of_a_record_in_an_owned_zone_fires_for_its_owner_and_stops_when_it_leaves(rs):
    g = new_game(rs, 2, seed=1)
    assert g.state.zones["market"] == ("well", "mill", "shed") and coins(g) == [0, 0]
    g.apply("buy well")  # seat 0
    assert g.state.players[0].owned == {"card": ["well"]} and g.state.owners == {"well": 0}
    g.apply("buy mill")  # seat 1
    g.apply("pass")
    g.apply("pass")
    assert g.state.flow.round == 2
    assert coins(g) == [1, 2]  # round_started is emitted for every seat: each card's owner gains
    g.apply("scrap well")  # seat 0: the well leaves the tableau, and is no longer owned
    assert g.state.players[0].owned == {"card": []} and g.state.zones["discard@0"] == ("well",)
    g.apply("pass")
    g.apply("pass")
    assert g.state.flow.round == 3 and coins(g) == [1, 4]


def test_count_of_a_kind_counts_the_records_of_the_owned_zone(rs):
    g = new_game(rs, 2, seed=1)
    for a in ("buy well", "buy mill", "buy shed"):  # seat 0, seat 1, seat 0
        g.apply(a)
    while not g.is_terminal():
        g.apply("pass")
    assert g.state.players[0].owned == {"card": ["well", "shed"]}
    assert [p.score for p in g.state.players] == [10 * 2 + 3, 10 * 1 + 3]


def test_an_owned_zone_survives_json_and_clones(rs):
    g = new_game(rs, 2, seed=1)
    g.apply("buy mill")
    copy = g.clone()
    copy.apply("pass")  # seat 1
    copy.apply("scrap mill")  # seat 0, in the copy only
    assert copy.state.players[0].owned == {"card": []} and g.state.players[0].owned == {"card": ["mill"]}
    again = type(g).from_json(rs, g.to_json())
    assert again.state.players[0].owned == {"card": ["mill"]} and again.legal_actions() == g.legal_actions()


# --------------------------------------------------------------------------- statement by statement

def run(rs, state: GameState, text: str, player: int = 0) -> GameState:
    from interpreter.runtime.tables import build_tables
    return inline_pack.run(rs, build_tables(rs), state, text, player)


def test_every_zone_statement_keeps_the_owned_records_in_step_with_the_zone(rs):
    state = GameState(players=[PlayerState(0), PlayerState(1)])
    state.zones = {"market": ("well", "mill", "shed")}
    run(rs, state, "draw 2 from market to tableau", player=1)
    assert state.players[1].owned == {"card": ["well", "mill"]} and state.players[0].owned == {}
    run(rs, state, "use income of each card", player=1)
    assert state.players[1].holdings == {"coin": 10}  # `use ... of each` reads the owned records too
    run(rs, state, "for each in tableau where value == 2: move this to discard", player=1)
    assert state.players[1].owned == {"card": ["well"]} and state.zones["discard@1"] == ("mill",)
    run(rs, state, "move all from tableau to discard", player=1)
    assert state.players[1].owned == {"card": []}
    run(rs, state, "move all from discard to tableau at end; move all from tableau to discard", player=1)
    run(rs, state, "draw 1 from discard to tableau; draw 1 from discard to tableau", player=1)
    assert state.zones["tableau@1"] == ("mill", "well")
    assert state.players[1].owned == {"card": ["well", "mill"]}  # in the order they came in
    assert state.players[1].acquired == {"card:well": 1, "card:mill": 1}


def test_a_zone_that_is_not_owned_gives_no_owned_records(rs):
    state = GameState(players=[PlayerState(0)])
    state.zones = {"market": ("well",)}
    run(rs, state, "draw 1 from market to discard")
    assert state.players[0].owned == {} and state.owners == {"well": 0}  # its seat still owns it (state.owners)


def test_an_owned_zone_must_be_one_per_player(tmp_path):
    pack = PACK.replace("{id: tableau, holds: card, per: player, owned: true,", "{id: tableau, holds: card, owned: true,")
    errors = run_pipeline(write_pack(tmp_path / "bad", pack)).errors
    line = next(n for n, text in enumerate(pack.splitlines(), 1) if "owned: true" in text)
    assert [(Path(e.span.path).name, e.span.line, e.code) for e in errors] == [("pack.yaml", line, "E209")]
    assert "per: player" in errors[0].message


# --------------------------------------------------------------------------- what a player keeps

PICK = '      - {id: pick, effect: "draw 2 from market keep 1", ends_turn: true, provenance: exact, source: test}\n'


def with_pick(root: Path, pack: str = PACK) -> Path:
    flow = FLOW.replace("      - {id: pass,", PICK + "      - {id: pass,")
    return inline_pack.write_pack(root, {"pack.yaml": pack, "kinds.yaml": KINDS, "cards.yaml": CARDS, "flow.yaml": flow,
                                         "scoring.yaml": SCORING})


def test_a_record_kept_from_a_stack_goes_to_the_bottom_of_the_players_owned_zone(tmp_path):
    rs = load_ruleset(with_pick(tmp_path / "pick"))
    g = new_game(rs, 2, seed=1)
    g.apply("buy shed")  # seat 0
    g.apply("pass")  # seat 1
    g.apply("pick")  # seat 0 draws the well and the mill, and keeps one of them
    assert g.state.decision.kind == "keep" and g.state.decision.options == ["well", "mill"]
    turn = g.state.turn
    g.apply(next(a for a in g.legal_actions() if a.endswith("2")))  # the mill
    assert g.state.zones["tableau@0"] == ("shed", "mill") and g.state.zones["market"] == ("well",)
    assert g.state.players[0].owned == {"card": ["shed", "mill"]} and g.state.owners["mill"] == 0
    assert g.state.players[0].acquired["card:mill"] == turn  # the pick ended the turn


def test_a_kept_record_needs_an_owned_zone_that_can_always_take_it(tmp_path):
    line = next(n for n, text in enumerate(FLOW.replace("      - {id: pass,", PICK).splitlines(), 1) if "pick" in text)
    unowned = PACK.replace("per: player, owned: true,", "per: player,")
    errors = run_pipeline(with_pick(tmp_path / "none", unowned)).errors
    assert [(Path(e.span.path).name, e.span.line, e.code) for e in errors] == [("flow.yaml", line, "E322")]
    assert "no zone is declared to hold it" in errors[0].message and "owned: true" in errors[0].message
    capped = PACK.replace("per: player, owned: true,", "per: player, owned: true, capacity: 2,")
    errors = run_pipeline(with_pick(tmp_path / "capped", capped)).errors
    assert [(e.span.line, e.code) for e in errors] == [(line, "E322")] and "could be full" in errors[0].message


def test_a_scenario_that_sets_owned_records_sets_the_owned_zone_with_them(rs):
    from interpreter.play.state_paths import PathError, write_state

    g = new_game(rs, 2, seed=1)
    write_state(g, "players.1.owned.card", ["shed", "well"])
    assert g.state.zones["tableau@1"] == ("shed", "well") and g.state.players[1].owned == {"card": ["shed", "well"]}
    assert g.state.owners["shed"] == 1
    with pytest.raises(PathError, match="nope is not card records|nope is not a card"):
        write_state(g, "players.0.owned.card", ["nope"])
    with pytest.raises(PathError, match="not a seat"):
        write_state(g, "players.5.owned.card", [])
