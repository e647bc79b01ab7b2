"""The generic game driver (interpreter/runtime/core_game.py, core_flow.py) on small invented packs:
setup, automatic and turn phases, passing, spaces, menu limits and payments, decisions inside
effects, the end condition, ties, and the Game API's guarantees (transactions, JSON, clones)."""

from __future__ import annotations

import json
import random
import textwrap

import pytest

from interpreter import IllegalActionError, load_ruleset, new_game
from interpreter.runtime.game import Game

PACK = """\
kind: pack
id: tiny
name: Tiny
version: 0.0.1
players: {min: 1, max: 4}
include: [flow.yaml, scoring.yaml]
resources:
  - {id: coin, name: coin, plural: coins, provenance: exact, source: test}
  - {id: grain, name: grain, provenance: exact, source: test}
pieces:
  - {id: worker, per_player: 2, provenance: exact, source: test}
actions:
  - {id: rest, name: Rest, effect: gain 0 coin, provenance: exact, source: test}
"""

SCORING = """\
kind: scoring
final:
  - {id: coins, effect: "score coin", provenance: exact, source: test}
"""

E = "provenance: exact, source: test"


# The menu of a flow whose one phase `work` only rests (as written inside a flow's text, indented).
REST_MENU = f"""menus:
      - id: work
        provenance: exact
        source: test
        entries:
          - {{id: rest, ends_turn: true, {E}}}"""


def flow_text(body: str) -> str:
    return "kind: flow\nprovenance: exact\nsource: test\n" + textwrap.dedent(body)


def make(tmp_path, flow: str, scoring: str = SCORING, pack: str = PACK):
    (tmp_path / "pack.yaml").write_text(pack)
    (tmp_path / "flow.yaml").write_text(flow_text(flow))
    (tmp_path / "scoring.yaml").write_text(scoring)
    return load_ruleset(tmp_path)


WORKERS = f"""\
setup: gain 2 coin
rounds: 2
first_seat_moves: 1
phases:
  - {{id: income, kind: automatic, run: gain 1 coin}}
  - {{id: work, menu: work, until: all_passed}}
menus:
  - id: work
    provenance: exact
    source: test
    entries:
      - {{id: place, from: spaces, piece: worker, ends_turn: true, {E}}}
      - {{id: sell, cost: 2 grain, effect: gain 3 coin, limit: 1, {E}}}
      - {{id: pass, passes: true, {E}}}
spaces:
  - {{id: field, effect: gain 2 grain, {E}}}
  - {{id: market, capacity: null, occupancy: one_per_player, effect: gain 1 coin, {E}}}
"""


def seat_of_each_action(game: Game, actions):
    seats = []
    for a in actions:
        seats.append(game.current_player)
        game.apply(a)
    return seats


def test_setup_automatic_phase_then_turns_until_all_passed(tmp_path):
    rs = make(tmp_path, WORKERS)
    g = new_game(rs, 2, seed=1)
    assert isinstance(g, Game)
    # the setup and round 1's income run for the round's first seat only
    assert [p.holdings["coin"] for p in g.state.players] == [3, 0]
    assert g.current_player == 0 and g.legal_actions() == ["pass", "place field", "place market"]
    seats = seat_of_each_action(g, ["place field", "place market", "pass"])
    assert seats == [0, 1, 0] and g.current_player == 1
    assert g.legal_actions() == ["pass"]  # one piece per player on the market, the field is full
    g.apply("pass")
    # round 2: pieces back, the first seat moved on, income for seat 1
    assert g.state.flow.round == 2 and g.current_player == 1
    assert [p.pieces_free["worker"] for p in g.state.players] == [2, 2] and g.state.spaces == {"field": (), "market": ()}
    assert g.state.players[1].holdings["coin"] == 2  # 1 from the market, 1 income


def test_space_capacity_and_one_piece_per_player(tmp_path):
    g = new_game(make(tmp_path, WORKERS), 2, seed=1)
    g.apply("place field")
    assert "place field" not in g.legal_actions()  # capacity 1, taken
    g.apply("place market")
    g.apply("place market")  # seat 0: the market takes any number, one each
    assert g.current_player == 1 and "place market" not in g.legal_actions()
    assert g.state.players[0].pieces_free["worker"] == 0


def test_limits_costs_and_the_entries_a_turn_keeps_offering(tmp_path):
    g = new_game(make(tmp_path, WORKERS), 1, seed=0)
    g.apply("place field")  # 2 grain
    assert "sell" in g.legal_actions()
    g.apply("sell")  # does not end the turn: the same seat goes on
    assert g.current_player == 0 and "sell" not in g.legal_actions()  # once per turn, and no grain left
    assert g.state.players[0].holdings == {"coin": 6, "grain": 0}


def test_an_illegal_action_raises_and_changes_nothing(tmp_path):
    g = new_game(make(tmp_path, WORKERS), 2, seed=0)
    before = g.state.to_json()
    for bad in ("sell", "place nowhere", "dance", "choose 1"):
        with pytest.raises(IllegalActionError):
            g.apply(bad)
    assert g.state.to_json() == before


PAYMENTS = f"""\
rounds: 1
phases:
  - {{id: shop, menu: shop, turns_each: 2}}
menus:
  - id: shop
    provenance: exact
    source: test
    entries:
      - {{id: buy, payments: ["1 coin", "2 grain"], effect: gain 1 grain, needs: [], {E}}}
      - {{id: bargain, needs: [buy], limit: 1, effect: "choose {{ gain 3 coin | gain 3 grain }}", {E}}}
      - {{id: done, ends_turn: true, not_while: [buy], {E}}}
      - {{id: wait, ends_turn: true, {E}}}
"""


def test_payment_options_needs_not_while_and_a_decision_inside_an_effect(tmp_path):
    rs = make(tmp_path, "setup: gain 1 coin, 2 grain\n" + PAYMENTS)
    g = new_game(rs, 1, seed=0)
    assert g.legal_actions() == ["buy 1", "buy 2", "wait"]  # `done` waits while `buy` is offered
    g.apply("buy 2")
    assert g.state.players[0].holdings == {"coin": 1, "grain": 1}
    assert "bargain" in g.legal_actions()
    g.apply("bargain")
    assert g.legal_actions() == ["choose 1", "choose 2"] and g.state.decision.player == 0
    g.apply("choose 2")
    assert g.state.players[0].holdings == {"coin": 1, "grain": 4}
    g.apply("buy 1")
    assert "buy 1" not in g.legal_actions() and "done" not in g.legal_actions()  # buy 2 still offered
    while not g.is_terminal():
        g.apply(sorted(g.legal_actions())[-1])
    assert g.is_terminal() and g.scores()[0]["breakdown"] == {"coins": g.state.players[0].holdings["coin"]}


def test_a_seat_offered_nothing_ends_its_turn_and_the_game_still_ends(tmp_path):
    flow = f"""\
    rounds: 3
    phases:
      - {{id: work, menu: work, until: all_passed}}
    menus:
      - id: work
        provenance: exact
        source: test
        entries:
          - {{id: buy, cost: 5 coin, effect: gain 1 grain, passes: true, {E}}}
    """
    g = new_game(make(tmp_path, flow), 3, seed=0)  # nobody can ever pay
    assert g.is_terminal() and [s["score"] for s in g.scores()] == [0, 0, 0]
    assert g.state.flow.round == 3


def test_the_end_condition_ends_the_game_at_a_round_end(tmp_path):
    flow = f"""\
    end: coin >= 3
    phases:
      - {{id: income, kind: automatic, run: gain 1 coin}}
      - {{id: work, menu: work}}
    {REST_MENU}
    """
    g = new_game(make(tmp_path, flow), 1, seed=0)
    rounds = 0
    while not g.is_terminal():
        g.apply("rest")
        rounds += 1
    assert rounds == 3 and g.state.flow.round == 3 and g.scores()[0]["score"] == 3


def test_phases_in_some_rounds_and_hooks_in_order(tmp_path):
    flow = f"""\
    rounds: 3
    phases:
      - id: work
        menu: work
        on_begin: gain 1 coin
        on_end: "score coin"
      - {{id: bonus, kind: automatic, rounds: [2], run: gain 10 grain}}
    {REST_MENU}
    """
    g = new_game(make(tmp_path, flow, scoring="kind: scoring\nfinal: [{id: none, effect: score 0, provenance: exact, source: test}]\n"), 1, seed=0)
    while not g.is_terminal():
        g.apply("rest")
    p = g.state.players[0]
    assert p.holdings == {"coin": 3, "grain": 10}
    assert p.score == 1 + 2 + 3  # on_end scores after on_begin's coin, each round


@pytest.mark.parametrize("ties,winner", [("shared", None), ("last_seat", 2), ("first_seat", 1)])
def test_ties(tmp_path, ties, winner):
    flow = f"""\
    rounds: 1
    ties: {ties}
    phases:
      - {{id: work, menu: work}}
    {REST_MENU}
    """
    g = new_game(make(tmp_path, flow), 2, seed=0)
    g.apply("rest")
    g.apply("rest")
    assert g.is_terminal() and g.winner() == winner
    assert g.winners() == ([1, 2] if ties == "shared" else [winner])


def random_game(rs, players, seed):
    g = new_game(rs, players, seed)
    rng = random.Random(seed)
    while not g.is_terminal():
        g.apply(rng.choice(g.legal_actions()))
    return g


def test_json_round_trip_clones_and_replay(tmp_path):
    rs = make(tmp_path, WORKERS)
    g = new_game(rs, 3, seed=4)
    rng = random.Random(4)
    for _ in range(5):
        g.apply(rng.choice(g.legal_actions()))
    back = Game.from_json(rs, g.to_json())
    assert back.state.to_json() == g.state.to_json() and back.legal_actions() == g.legal_actions()
    c = g.clone()
    c.apply(c.legal_actions()[0])
    assert c.state.to_json() != g.state.to_json()
    done = random_game(rs, 3, 9)
    again = new_game(rs, 3, 9)
    for a in done.state.log:
        again.apply(a)
    assert again.state.to_json() == done.state.to_json()
    for s in done.scores():
        assert s["score"] == sum(s["breakdown"].values())


def test_observation_is_json_and_offers_legal_actions_to_the_seat_to_act(tmp_path):
    g = new_game(make(tmp_path, WORKERS), 2, seed=0)
    view = g.observation(0)
    assert json.loads(json.dumps(view)) == view
    assert view["legal"] == g.legal_actions() and g.observation(1)["legal"] == []
    assert view["flow"] == {"round": 1, "phase": "work", "first_seat": 0, "passed": [], "turn": 0}


CARD_KINDS = """\
kind: record_kinds
kinds:
  - id: card
    doc: A card of the road.
    file: cards
    list: cards
    fields:
      value: {type: integer, min: 0, max: 9, doc: What a worker on it earns.}
"""

CARDS = f"""\
kind: cards
cards:
  - {{id: mill, value: 2, {E}}}
  - {{id: farm, value: 1, {E}}}
  - {{id: inn, value: 3, {E}}}
"""


def test_spaces_on_the_records_of_a_zone_and_a_zone_that_starts_full(tmp_path):
    pack = PACK.replace("include: [flow.yaml, scoring.yaml]", "include: [flow.yaml, scoring.yaml, kinds.yaml, cards.yaml]")
    pack += f"zones:\n  - {{id: road, holds: card, start: all, {E}}}\n"
    (tmp_path / "kinds.yaml").write_text(CARD_KINDS)
    (tmp_path / "cards.yaml").write_text(CARDS)
    flow = f"""\
    rounds: 1
    phases:
      - {{id: work, menu: work, until: all_passed}}
    menus:
      - id: work
        provenance: exact
        source: test
        entries:
          - {{id: place, from: spaces, piece: worker, ends_turn: true, {E}}}
          - {{id: pass, passes: true, {E}}}
    spaces:
      - {{id: road_card, on: road, effect: gain 1 coin, {E}}}
    """
    g = new_game(make(tmp_path, flow, pack=pack), 2, seed=0)
    assert g.state.zones["road"] == ("mill", "farm", "inn")
    assert g.legal_actions() == ["pass", "place farm", "place inn", "place mill"]
    g.apply("place inn")
    assert g.state.spaces["inn"][0].owner == 0 and g.state.players[0].holdings["coin"] == 1
    assert "place inn" not in g.legal_actions()  # one piece per card


def test_a_flow_program_that_cannot_go_on_stops_there_and_the_game_goes_on(tmp_path):
    flow = f"""\
    rounds: 2
    setup: "gain 1 grain; pay 9 coin; gain 5 grain"
    phases:
      - {{id: tax, kind: automatic, run: "gain 1 coin; pay 3 coin; gain 7 grain"}}
      - {{id: work, menu: work}}
    {REST_MENU}
    """
    g = new_game(make(tmp_path, flow), 1, seed=0)
    assert g.state.players[0].holdings == {"coin": 1, "grain": 1}  # each program ran up to its payment
    assert len(g.state.table["stopped"]) == 2 and "setup" in g.state.table["stopped"][0]
    g.apply("rest")
    g.apply("rest")
    assert g.is_terminal() and g.state.players[0].holdings == {"coin": 2, "grain": 1}


def test_only_answers_that_can_be_carried_out_are_offered(tmp_path):
    """An answer the rules refuse is no legal action, in a player's turn and in an automatic phase (where it
    would stop the program); an action is offered only when some way of answering what it asks finishes."""
    flow = f"""\
    rounds: 1
    setup: gain 2 coin
    phases:
      - id: toll
        kind: automatic
        run: "choose {{ pay 5 coin; gain 9 grain | pay 1 coin | gain 1 grain }}; gain 1 grain"
      - {{id: work, menu: work}}
    menus:
      - id: work
        provenance: exact
        source: test
        entries:
          - {{id: trade, effect: "choose {{ pay 3 coin; gain 9 grain | pay 1 coin; gain 2 grain }}", ends_turn: true, {E}}}
          - {{id: splurge, effect: "choose {{ pay 7 coin | pay 8 coin }}", ends_turn: true, {E}}}
          - {{id: rest, ends_turn: true, {E}}}
    """
    g = new_game(make(tmp_path, flow), 1, seed=0)
    assert g.state.decision is not None  # the toll, in the automatic phase
    assert g.legal_actions() == ["choose 2", "choose 3"]  # 5 coins cannot be paid: that answer would stop the phase
    g.apply("choose 2")
    assert g.state.players[0].holdings == {"coin": 1, "grain": 1} and "stopped" not in g.state.table
    assert g.legal_actions() == ["rest", "trade"]  # no way of finishing a splurge
    g.apply("trade")
    assert g.legal_actions() == ["choose 2"]  # 3 coins cannot be paid
    with pytest.raises(IllegalActionError):
        g.apply("choose 1")
    g.apply("choose 2")
    assert g.is_terminal() and g.state.players[0].holdings == {"coin": 0, "grain": 3}


def test_when_no_answer_of_an_automatic_program_can_be_carried_out_any_stops_it(tmp_path):
    flow = f"""\
    rounds: 1
    phases:
      - {{id: toll, kind: automatic, run: "choose {{ pay 5 coin | pay 6 coin }}; gain 1 grain"}}
      - {{id: work, menu: work}}
    {REST_MENU}
    """
    g = new_game(make(tmp_path, flow), 1, seed=0)
    assert g.legal_actions() == ["choose 1", "choose 2"]
    g.apply("choose 2")
    assert "toll" in g.state.table["stopped"][0] and g.state.players[0].holdings == {"coin": 0, "grain": 0}


def test_what_a_later_program_asks_does_not_bar_the_action_that_leads_to_it(tmp_path):
    """An action is judged by the decisions it asks itself: once the turn is over, a decision of the flow's
    next program (one no answer of which can be carried out) is that program's."""
    flow = f"""\
    rounds: 1
    phases:
      - {{id: work, menu: work}}
      - {{id: toll, kind: automatic, run: "choose {{ pay 5 coin | pay 6 coin }}; gain 1 grain"}}
    {REST_MENU}
    """
    g = new_game(make(tmp_path, flow), 1, seed=0)
    assert g.legal_actions() == ["rest"]
    g.apply("rest")
    assert g.state.decision is not None and g.legal_actions() == ["choose 1", "choose 2"]


def test_a_space_may_release_its_pieces_at_the_end_of_a_named_phase(tmp_path):
    flow = f"""\
    rounds: 1
    phases:
      - {{id: work, menu: work, until: all_passed}}
      - {{id: harvest, kind: automatic, run: "gain 1 coin"}}
      - {{id: market, menu: market}}
    menus:
      - id: work
        provenance: exact
        source: test
        entries:
          - {{id: place, from: spaces, piece: worker, ends_turn: true, {E}}}
          - {{id: pass, passes: true, {E}}}
      - id: market
        provenance: exact
        source: test
        entries:
          - {{id: rest, ends_turn: true, {E}}}
    spaces:
      - {{id: field, release: harvest, {E}}}
      - {{id: barn, {E}}}
    """
    g = new_game(make(tmp_path, flow), 1, seed=0)
    g.apply("place field")
    g.apply("place barn")
    g.apply("pass")  # the work phase ends: nothing goes back yet; the harvest runs and ends: the field's worker does
    assert g.state.flow.phase == 2 and g.state.players[0].pieces_free == {"worker": 1}
    assert g.state.spaces == {"field": (), "barn": g.state.spaces["barn"]} and len(g.state.spaces["barn"]) == 1
    bad = flow.replace("release: harvest", "release: harvst")
    with pytest.raises(Exception) as err:
        make(tmp_path, bad)
    assert "E204" in str(err.value.errors[0].code) and "harvest" in err.value.errors[0].message


def test_dice_are_chance_nodes_a_search_can_read(tmp_path):
    flow = f"""\
    rounds: 3
    dice:
      - {{id: white, faces: 6, {E}}}
      - {{id: odd, outcomes: [0, 0, 1], {E}}}
    phases:
      - {{id: roll, kind: automatic, run: "roll white; roll odd; gain (die(white)) coin"}}
      - {{id: work, menu: work}}
    {REST_MENU}
    """
    from fractions import Fraction

    rs = make(tmp_path, flow)
    g = new_game(rs, 1, seed=3)
    assert g.chance_outcomes() == {"white": [(v, Fraction(1, 6)) for v in range(1, 7)],
                                   "odd": [(0, Fraction(2, 3)), (1, Fraction(1, 3))]}
    first = g.state.dice
    assert 1 <= first["white"] <= 6 and g.state.players[0].holdings["coin"] == first["white"]
    assert new_game(rs, 1, seed=3).state.dice == first  # the seed decides the rolls
    seen = {new_game(rs, 1, seed=s).state.dice["white"] for s in range(40)}
    assert seen == {1, 2, 3, 4, 5, 6}


def test_a_limit_per_round_is_each_players_own(tmp_path):
    flow = f"""\
    rounds: 2
    phases:
      - {{id: work, menu: work}}
    menus:
      - id: work
        provenance: exact
        source: test
        entries:
          - {{id: bonus, effect: gain 1 coin, limit: 1, per: game, {E}}}
          - {{id: rest, ends_turn: true, {E}}}
    """
    g = new_game(make(tmp_path, flow), 2, seed=0)
    g.apply("bonus")
    assert g.legal_actions() == ["rest"]
    g.apply("rest")
    assert g.current_player == 1 and "bonus" in g.legal_actions()  # seat 2 has its own once per game
    g.apply("bonus")
    g.apply("rest")
    assert g.legal_actions() == ["rest"]  # round 2: seat 1 used its one


@pytest.mark.parametrize("final_choices", ["players", "most_points"])
def test_final_choices_are_the_players_or_made_for_the_most_points(tmp_path, final_choices):
    """Final scoring's optional conversions: each player answers them (the default), or with
    `final_choices: most_points` the game answers each step for the most points of the player
    (maximise.py), which here means skipping the dear conversion for the cheap one."""
    flow = f"""\
    setup: "for each player: gain 3 grain"
    rounds: 1
    final_choices: {final_choices}
    phases:
      - {{id: work, menu: work}}
    {REST_MENU}
    """
    scoring = textwrap.dedent("""\
    kind: scoring
    final:
      - id: market
        effect: |
          repeat: may pay 2 grain: score 1
          repeat: may pay 1 grain: score 1
        provenance: exact
        source: test
    """)
    g = new_game(make(tmp_path, flow, scoring=scoring), 2, seed=0)
    g.apply("rest")
    g.apply("rest")
    if final_choices == "players":
        assert not g.is_terminal() and g.state.decision.kind == "repeat" and g.current_player == 0
        while not g.is_terminal():
            g.apply(g.legal_actions()[0])  # yes to every conversion, as offered
        assert [s["score"] for s in g.scores()] == [2, 2]  # 2 grain for 1 point, then 1 for 1
    else:
        assert g.is_terminal() and g.state.decision is None
        assert [s["score"] for s in g.scores()] == [3, 3]  # every grain at 1 point
        assert [p.holdings["grain"] for p in g.state.players] == [0, 0]
        assert g.scores()[0]["breakdown"] == {"market": 3}
