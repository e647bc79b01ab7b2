"""Statements for actions that cards grant and for gains that change on the way, on small invented packs
written inline (runtime/visiting.py, held.py, iterate.py, executors.py):

- `require C`: the effect cannot be carried out unless C holds;
- `choose N in Z: ...`: N different records picked one after another;
- `all at once: ...`: the gains of the body are received when it ends;
- a resource declared `reduced_by:` another: each gain of it gives that many fewer;
- `gains of R, ... times E: ...`: the acting player's gains of those resources in the body are multiplied;
- `visit S at E`: a space's programs run without a piece, at a value (the name `visiting` is 1 there);
- the name `points`; a record's space keeps its group after the record left its zone.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter import load_ruleset, new_game
from interpreter.content.ruleset import run_pipeline

E = "provenance: exact, source: test"

KINDS = f"""\
kind: record_kinds
kinds:
  - id: card
    doc: A card.
    file: cards
    list: cards
    fields:
      level: {{type: integer, min: 1, max: 9, doc: Its level.}}
      reward: {{type: effect, required: false, doc: What it gives.}}
"""
CARDS = f"""\
kind: cards
cards:
  - {{id: ash, level: 1, reward: gain 1 grain, {E}}}
  - {{id: birch, level: 2, reward: gain 1 coin, {E}}}
  - {{id: cedar, level: 3, reward: gain 2 coin, {E}}}
"""
SCORING = f"""\
kind: scoring
final:
  - {{id: coins, effect: "score coin", {E}}}
"""


def make(tmp_path: Path, flow: str, resources: str = "", players: int = 1):
    pack = (f"kind: pack\nid: visits\nname: Visits\nversion: 0.0.1\nplayers: {{min: 1, max: 3}}\n"
            f"include: [kinds.yaml, cards.yaml, flow.yaml, scoring.yaml]\nresources:\n"
            f"  - {{id: coin, name: coin, plural: coins, {E}}}\n  - {{id: grain, name: grain, {E}}}\n"
            f"  - {{id: servant, name: servant, plural: servants, {E}}}\n{resources}"
            f"pieces:\n  - {{id: worker, per_player: 2, value: \"2\", {E}}}\nactions: []\n"
            f"zones:\n  - {{id: deck, holds: card, start: all, {E}}}\n"
            f"  - {{id: row, holds: card, slots: [s1, s2, s3], refill: {{zone: deck}}, {E}}}\n"
            f"  - {{id: kept, holds: card, per: player, owned: true, {E}}}\n")
    (tmp_path / "pack.yaml").write_text(pack)
    (tmp_path / "kinds.yaml").write_text(KINDS)
    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "flow.yaml").write_text("kind: flow\nprovenance: exact\nsource: test\n" + textwrap.dedent(flow))
    (tmp_path / "scoring.yaml").write_text(SCORING)
    return new_game(load_ruleset(tmp_path), players, seed=0)


def menu(entries: str, spaces: str = "", setup: str = "refill row") -> str:
    return f"""\
setup: "{setup}"
rounds: 1
phases:
  - {{id: work, menu: work, until: all_passed}}
menus:
  - id: work
    {E.replace(', ', chr(10) + '    ')}
    entries:
{textwrap.indent(textwrap.dedent(entries), '      ')}
      - {{id: pass, passes: true, {E}}}
spaces:
{textwrap.indent(textwrap.dedent(spaces), '  ') if spaces else '  - {id: yard, ' + E + '}'}
"""


def holdings(g, seat: int = 0) -> dict:
    return {k: v for k, v in g.state.players[seat].holdings.items() if v}


# ---------------------------------------------------------------- require


def test_an_effect_that_reaches_a_requirement_that_does_not_hold_is_not_offered(tmp_path):
    g = make(tmp_path, menu(f"""\
        - {{id: sow, effect: "require grain >= 2; gain 3 coin", {E}}}
        - {{id: reap, effect: gain 1 grain, {E}}}
        """))
    assert "sow" not in g.legal_actions()
    g.apply("reap")
    g.apply("reap")
    assert "sow" in g.legal_actions()
    g.apply("sow")
    assert holdings(g) == {"grain": 2, "coin": 3}


def test_a_requirement_inside_a_choice_takes_away_only_that_option(tmp_path):
    g = make(tmp_path, menu(f"""\
        - {{id: trade, effect: "choose {{ require grain > 0; gain 5 coin | gain 1 coin }}", {E}}}
        """))
    g.apply("trade")
    assert g.state.decision is not None and g.legal_actions() == ["choose 2"]  # no grain: the first cannot be done
    g.apply("choose 2")
    assert holdings(g) == {"coin": 1}


# ---------------------------------------------------------------- choose N in


def test_choose_n_in_picks_different_records_one_after_another(tmp_path):
    g = make(tmp_path, menu(f"""\
        - {{id: take_two, effect: "choose 2 in row: {{ move this to kept; run reward of this }}", {E}}}
        """))
    g.apply("take two")
    assert g.state.decision.options == ["ash", "birch", "cedar"]
    g.apply("choose 2")  # birch
    assert g.state.decision.options == ["ash", "cedar"]  # the one picked is not offered again
    g.apply("choose 2")  # cedar
    assert g.state.decision is None and holdings(g) == {"coin": 3}
    assert list(g.state.players[0].owned["card"]) == ["birch", "cedar"]


def test_choose_n_in_with_fewer_records_than_n_cannot_be_carried_out(tmp_path):
    g = make(tmp_path, menu(f"""\
        - {{id: take_two, effect: "choose 2 in row where level > 2: run reward of this", {E}}}
        - {{id: take_one, effect: "choose one in row where level > 2: run reward of this", {E}}}
        """))
    assert "take two" not in g.legal_actions() and "take one" in g.legal_actions()


# ---------------------------------------------------------------- all at once, reduced gains


def test_all_at_once_holds_the_gains_until_the_body_ends(tmp_path):
    g = make(tmp_path, menu(f"""\
        - {{id: mill, effect: "all at once: {{ gain 2 grain; pay 2 grain; gain 1 coin }}", {E}}}
        - {{id: plain, effect: "gain 2 grain; pay 2 grain; gain 1 coin", {E}}}
        - {{id: mill_later, effect: "all at once: {{ gain 2 grain; may pay 1 grain: gain 3 coin }}", {E}}}
        """))
    legal = g.legal_actions()
    assert "plain" in legal and "mill" not in legal  # the grain gained in the body cannot pay in it
    g.apply("mill later")  # the optional exchange cannot be paid from the body's own gain: skipped
    assert holdings(g) == {"grain": 2}
    g.apply("mill")  # now the grain held before pays, and what the body gains comes after
    assert holdings(g) == {"grain": 2, "coin": 1}


def test_held_gains_of_a_flow_program_that_stops_are_received_and_the_next_gains_are_not_held(tmp_path):
    flow = menu(f"- {{id: earn, effect: gain 3 coin, {E}}}", setup="all at once: { gain 2 grain; pay 9 coin; gain 1 coin }")
    g = make(tmp_path, flow)
    assert "setup" in g.state.table["stopped"][0]
    assert holdings(g) == {"grain": 2} and "held" not in g.state.table  # what the body gained up to the payment
    g.apply("earn")
    assert holdings(g) == {"grain": 2, "coin": 3}


def test_a_reduced_resource_gives_fewer_per_gain_never_below_zero(tmp_path):
    resources = f"  - {{id: coin_cut, name: coin cut, {E}}}\n"
    g2 = make(tmp_path, menu(f"""\
        - {{id: curse, effect: gain 1 coin_cut, {E}}}
        - {{id: earn, effect: "gain 3 coin; gain 1 coin; gain 2 coin, 1 grain", {E}}}
        """), resources)
    (tmp_path / "pack.yaml").write_text((tmp_path / "pack.yaml").read_text().replace(
        "{id: coin, name: coin, plural: coins,", "{id: coin, name: coin, plural: coins, reduced_by: coin_cut,"))
    g = new_game(load_ruleset(tmp_path), 1, seed=0)
    g.apply("earn")
    assert holdings(g) == {"coin": 6, "grain": 1}  # no cut yet
    g.apply("curse")
    g.apply("earn")  # 3-1, 1-1, 2-1: each gain one fewer; grain untouched
    assert holdings(g) == {"coin": 9, "grain": 2, "coin_cut": 1}
    g2.apply("curse")
    g2.apply("earn")  # the pack without `reduced_by`: nothing taken off
    assert holdings(g2)["coin"] == 6


def test_reduced_by_names_a_resource_of_the_pack(tmp_path):
    make(tmp_path, menu(f"- {{id: rest, {E}}}\n"))
    (tmp_path / "pack.yaml").write_text((tmp_path / "pack.yaml").read_text().replace(
        "{id: grain, name: grain,", "{id: grain, name: grain, reduced_by: frost,"))
    assert [(e.code, "reduced_by" in e.message) for e in run_pipeline(tmp_path).errors] == [("E302", True)]


# ---------------------------------------------------------------- gains of R times E


def test_gains_of_multiplies_the_named_resources_gained_in_the_body(tmp_path):
    g = make(tmp_path, menu(f"""\
        - {{id: boost, effect: "gains of coin, grain times 2: {{ gain 1 coin, 1 grain, 1 servant; gain 2 coin }}", {E}}}
        - {{id: pick, effect: "choose one in row: gains of coin times 3: run reward of this", {E}}}
        """))
    g.apply("boost")
    assert holdings(g) == {"coin": 6, "grain": 2, "servant": 1}  # the servant is not named
    assert "gain_factors" not in g.state.table
    g.apply("pick")
    g.apply("choose 3")  # cedar: 2 coin, tripled
    assert holdings(g) == {"coin": 12, "grain": 2, "servant": 1}


def test_the_factor_is_read_from_a_holding_when_the_statement_starts(tmp_path):
    resources = f"  - {{id: doubler, name: doubler, {E}}}\n"
    g = make(tmp_path, menu(f"""\
        - {{id: more, effect: gain 1 doubler, {E}}}
        - {{id: earn, effect: "gains of coin times doubler: {{ gain 3 coin; gain 1 doubler; gain 1 coin }}", {E}}}
        - {{id: earn_plus, effect: "gains of coin times (1 + doubler): gain 1 coin", {E}}}
        """), resources)
    g.apply("earn")  # no doubler: every coin of the body is multiplied by 0, the doubler gained meanwhile too late
    assert holdings(g) == {"doubler": 1}
    g.apply("earn plus")  # 1 + 1
    assert holdings(g) == {"doubler": 1, "coin": 2}
    g.apply("more")
    g.apply("earn")  # 2 from now on: 3 coin are 6, and 1 is 2
    assert holdings(g) == {"doubler": 3, "coin": 10}


def test_a_gain_is_multiplied_then_reduced(tmp_path):
    resources = f"  - {{id: coin_cut, name: coin cut, {E}}}\n"
    make(tmp_path, menu(f"""\
        - {{id: curse, effect: gain 1 coin_cut, {E}}}
        - {{id: earn, effect: "gains of coin times 2: gain 1 coin", {E}}}
        - {{id: plain, effect: gain 1 coin, {E}}}
        """), resources)
    (tmp_path / "pack.yaml").write_text((tmp_path / "pack.yaml").read_text().replace(
        "{id: coin, name: coin, plural: coins,", "{id: coin, name: coin, plural: coins, reduced_by: coin_cut,"))
    g = new_game(load_ruleset(tmp_path), 1, seed=0)
    g.apply("curse")
    g.apply("plain")  # 1 - 1
    assert holdings(g) == {"coin_cut": 1}
    g.apply("earn")  # 1 * 2 - 1 (reduced first it would be 0)
    assert holdings(g) == {"coin_cut": 1, "coin": 1}


def test_gains_multiplied_inside_or_around_all_at_once_are_held_multiplied(tmp_path):
    g = make(tmp_path, menu(f"""\
        - {{id: inner, effect: "all at once: {{ gains of coin times 2: gain 1 coin; may score 1 }}", {E}}}
        - {{id: outer, effect: "gains of coin times 3: all at once: {{ gain 1 coin; may score 1 }}", {E}}}
        """))
    g.apply("inner")
    assert g.state.table["held"] == {"0": [["coin", 2]]} and "gain_factors" not in g.state.table
    assert holdings(g) == {}
    g.apply("choose 2")
    assert holdings(g) == {"coin": 2}
    g.apply("outer")
    assert g.state.table["held"] == {"0": [["coin", 3]]} and g.state.table["gain_factors"] == {"0": [[["coin"], 3]]}
    g.apply("choose 2")  # received when the body ends, not multiplied a second time
    assert holdings(g) == {"coin": 5} and "held" not in g.state.table and "gain_factors" not in g.state.table


def test_another_seats_gains_in_the_body_are_not_multiplied(tmp_path):
    g = make(tmp_path, menu(f"""\
        - {{id: share, effect: "gains of coin times 2: for each player: gain 1 coin", {E}}}
        """), players=2)
    g.apply("share")
    assert holdings(g, 0) == {"coin": 2} and holdings(g, 1) == {"coin": 1}


def test_the_factor_ends_with_the_body_and_nested_factors_multiply(tmp_path):
    g = make(tmp_path, menu(f"""\
        - {{id: stack, effect: "gains of coin times 2: {{ gains of coin, grain times 3: gain 1 coin, 1 grain; gain 1 coin }}; gain 1 coin, 1 grain", {E}}}
        """))
    g.apply("stack")  # 1 coin * 2 * 3, 1 grain * 3; 1 coin * 2; then 1 coin and 1 grain as they are
    assert holdings(g) == {"coin": 9, "grain": 4} and "gain_factors" not in g.state.table


def test_the_factor_of_a_flow_program_that_stops_ends_with_it(tmp_path):
    flow = menu(f"""\
        - {{id: earn, effect: gain 3 coin, {E}}}
        """, setup="gains of coin times 2: { gain 1 coin; pay 9 grain; gain 1 coin }")
    g = make(tmp_path, flow)
    assert "setup" in g.state.table["stopped"][0]
    assert holdings(g) == {"coin": 2} and "gain_factors" not in g.state.table
    g.apply("earn")
    assert holdings(g) == {"coin": 5}


def test_gains_of_prints_back_and_names_resources_of_the_pack(tmp_path):
    from interpreter.dsl.parse import DslSyntaxError, parse
    from interpreter.dsl.printer import to_text

    text = "gains of coin, grain times (1 + doubler): run reward of this"
    tree = parse(text)
    assert to_text(tree) == "gains of coin, grain times 1 + doubler: run reward of this"
    assert parse(to_text(tree)) == tree
    with pytest.raises(DslSyntaxError) as info:
        parse("gains of coin times 2 gain 1 coin")
    assert info.value.code == "E107"
    make(tmp_path, menu(f"""\
        - {{id: earn, effect: "gains of coin, grain times 2: gain 1 coin", {E}}}
        """))
    (tmp_path / "flow.yaml").write_text((tmp_path / "flow.yaml").read_text().replace("gains of coin,", "gains of coins,"))
    errors = run_pipeline(tmp_path).errors
    assert [e.code for e in errors] == ["E302"] and "unknown resource 'coins'" in errors[0].message
    (tmp_path / "flow.yaml").write_text((tmp_path / "flow.yaml").read_text().replace("gains of coins,", "gains of pool,"))
    (tmp_path / "pack.yaml").write_text((tmp_path / "pack.yaml").read_text().replace(
        "pieces:", f"  - {{id: pool, name: pool, shared: true, {E}}}\npieces:"))
    errors = run_pipeline(tmp_path).errors
    assert [e.code for e in errors] == ["E302"] and "'pool' is shared" in errors[0].message


# ---------------------------------------------------------------- visit


VISITS = f"""\
- {{id: place, from: spaces, piece: worker, boost: 1 servant, ends_turn: true, {E}}}
- {{id: grant, effect: "visit field at 1", {E}}}
- {{id: grant_high, effect: "visit field or hall at 3", {E}}}
- {{id: grant_card, effect: "may visit card_spot at 1", {E}}}
"""
SPACES = f"""\
- {{id: field, min_value: 2, effect: "gain (value) grain; if visiting == 0: gain 1 coin", {E}}}
- {{id: hall, requires: value >= 4, occupied_cost: 5 coin, group: halls, effect: gain 10 coin, {E}}}
- {{id: card_spot, on: row, group: row_spots, occupied_cost: 1 coin, requires: value >= this.level, effect: "move this to kept; run reward of this", {E}}}
"""


def test_a_visit_runs_the_space_at_the_value_without_a_piece(tmp_path):
    g = make(tmp_path, menu(VISITS, SPACES, setup="refill row; gain 2 servant"))
    assert "grant" in g.legal_actions()
    g.apply("grant")  # value 1 needs a boost of 1 for the field's min_value 2
    assert g.state.decision.options == ["field boost 1", "field boost 2"]
    g.apply("choose 2")
    assert holdings(g) == {"grain": 3}  # value 1 + 2, no coin: `visiting` is 1; 2 servants paid
    assert g.state.spaces.get("field", ()) == () and g.state.players[0].pieces_free["worker"] == 2


def test_a_visit_lists_every_named_space_its_value_and_requirements_allow(tmp_path):
    g = make(tmp_path, menu(VISITS, SPACES, setup="refill row; gain 1 servant"))
    g.apply("grant high")
    assert g.state.decision.options == ["field", "field boost 1", "hall boost 1"]  # hall needs 4
    g.apply("choose 3")
    assert holdings(g) == {"coin": 10}  # an empty hall: no fee


def test_a_visit_ignores_occupancy_and_the_fee_of_an_occupied_group(tmp_path):
    g = make(tmp_path, menu(VISITS, SPACES, setup="refill row; gain 5 servant"))
    g.apply("place field")  # worth 2: 2 grain and 1 coin (placed, not visiting)
    assert holdings(g) == {"grain": 2, "coin": 1, "servant": 5}
    g.apply("grant")  # the field holds a piece: a visit may still take its action
    g.apply("choose 1")
    assert holdings(g)["grain"] == 4


def test_a_visit_of_the_spaces_on_a_zone_picks_a_record_and_its_effect_reads_it(tmp_path):
    g = make(tmp_path, menu(VISITS, SPACES, setup="refill row; gain 1 servant"))
    g.apply("grant card")
    g.apply("choose 1")  # yes
    assert g.state.decision.options == ["ash", "ash boost 1", "birch boost 1"]  # cedar needs 3
    g.apply("choose 3")
    assert holdings(g) == {"coin": 1} and list(g.state.players[0].owned["card"]) == ["birch"]


def test_with_nothing_to_visit_the_statement_cannot_be_carried_out(tmp_path):
    g = make(tmp_path, menu(VISITS, SPACES, setup="refill row"))
    legal = g.legal_actions()
    assert "grant" not in legal  # value 1, no servant: the field's min_value 2 cannot be reached
    g.apply("grant card")
    assert g.legal_actions() == ["choose 1", "choose 2"]  # `may`: ash can be visited


TOLL = f"""\
- {{id: place, from: spaces, piece: worker, boost: 1 servant, ends_turn: true, {E}}}
- {{id: grant, effect: "may visit toll or field at 2", {E}}}
"""
TOLL_SPACES = f"""\
- {{id: toll, effect: "pay 3 coin; gain 5 grain", {E}}}
- {{id: field, min_value: 2, effect: "gain (value) grain", {E}}}
"""


def test_a_visit_whose_effect_cannot_be_carried_out_is_not_offered(tmp_path):
    g = make(tmp_path, menu(TOLL, TOLL_SPACES, setup="gain 2 coin"))
    g.apply("grant")
    g.apply("choose 1")  # yes: the toll's 3 coins cannot be paid, the field can be visited
    assert g.state.decision.options == ["field"]


def test_a_may_visit_with_many_options_none_carried_out_only_declines(tmp_path):
    # 61 boosts of the toll, each failing its payment: more than the engine's search tries per action,
    # so the visit itself must leave them out, or a bot is offered a `yes` that can only fail
    flow = menu(TOLL.replace("toll or field", "toll"), TOLL_SPACES, setup="gain 60 servant")
    g = make(tmp_path, flow)
    g.apply("grant")
    assert g.legal_actions() == ["choose 2"]  # no
    g.apply("choose 2")
    assert holdings(g) == {"servant": 60}


def test_visit_names_spaces_of_the_flow(tmp_path):
    make(tmp_path, menu(VISITS, SPACES))
    (tmp_path / "flow.yaml").write_text((tmp_path / "flow.yaml").read_text().replace("visit field at 1", "visit feld at 1"))
    errors = run_pipeline(tmp_path).errors
    assert [e.code for e in errors] == ["E301"] and "unknown space 'feld'" in errors[0].message


def test_a_records_space_keeps_its_group_after_the_record_left(tmp_path):
    g = make(tmp_path, menu(VISITS, SPACES, setup="refill row; for each player: gain 5 coin"), players=2)
    g.apply("place ash")  # the space on ash: its effect takes ash into the seat's zone
    assert "ash" not in g.state.zones["row"] and g.state.spaces["ash"]
    g.apply("place birch")  # seat 2: the group still holds seat 1's piece on ash: the fee is paid
    assert g.state.players[1].holdings["coin"] == 5 - 1 + 1


def test_points_names_the_points_so_far(tmp_path):
    g = make(tmp_path, menu(f"""\
        - {{id: bank, effect: "score 7; gain (points) coin", {E}}}
        """))
    g.apply("bank")
    assert holdings(g) == {"coin": 7}
