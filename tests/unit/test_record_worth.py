"""Records of one kind that are not worth alike: the `records` weights of an evaluation (bots.Evaluation),
what a simulated game's record keeps of each source's gains and of when each record was gained
(simulate.play_game), and the worth of each record with a trigger measured from them
(interpreter/play/record_worth.py). On an invented pack: a well and a mill drawn together from one stack,
the well paying 1 coin at the start of every round and the mill 2."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_ruleset, make_bot, new_game
from interpreter.content.ruleset import run_pipeline
from interpreter.play.bots import load_evaluation
from interpreter.play.record_worth import dealt_from, record_worths
from interpreter.play.simulate import GameSpec, play_game

import inline_pack

E = "provenance: exact, source: test"
PACK = f"""\
kind: pack
id: recordworth
name: Record worth
version: 0.0.1
players: {{min: 1, max: 2}}
include: [kinds.yaml, cards.yaml, flow.yaml, scoring.yaml, bots.yaml]
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
"""
KINDS = """\
kind: record_kinds
kinds:
  - id: card
    doc: A card a player keeps in their tableau.
    file: cards
    list: cards
    fields:
      effect: {type: effect, doc: What the card does while it is in a tableau.}
"""
CARDS = f"""\
kind: cards
cards:
  - {{id: well, effect: "on round_started: gain 1 coin", {E}}}
  - {{id: mill, effect: "on round_started: gain 2 coin", {E}}}
"""
FLOW = f"""\
kind: flow
provenance: exact
source: test
rounds: 4
phases:
  - {{id: work, menu: work}}
menus:
  - id: work
    provenance: exact
    source: test
    entries:
      - {{id: pick, effect: "draw 2 from market keep 1", ends_turn: true, {E}}}
      - {{id: sell, effect: gain 1 coin, ends_turn: true, {E}}}
"""
SCORING = f"""\
kind: scoring
final:
  - {{id: coins, effect: score coin, {E}}}
"""


def bots(records: str = "{}", early: str = "{}") -> str:
    return f"""\
kind: bots
greedy: plain
mcts: plain
evaluations:
  - {{id: plain, holdings: {{coin: 1.0}}, opponents: 0, {E}}}
  - id: weighed
    holdings: {{coin: 1.0}}
    records: {records}
    early: {{records: {early}}}
    opponents: 0
    provenance: exact
    source: test
"""


def write(root: Path, records: str = "{}", early: str = "{}") -> Path:
    return inline_pack.write_pack(root, {"pack.yaml": PACK, "kinds.yaml": KINDS, "cards.yaml": CARDS, "flow.yaml": FLOW,
                                         "scoring.yaml": SCORING, "bots.yaml": bots(records, early)})


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return write(tmp_path_factory.mktemp("worth"), "{mill: 3.0}", "{well: 4.0}")


@pytest.fixture(scope="module")
def rs(root):
    return load_ruleset(root)


def keep(g, record: str) -> None:
    """Pick, and keep ``record`` of the two drawn."""
    g.apply("pick")
    options = g.state.decision.options
    g.apply(next(a for a in g.legal_actions() if a.endswith(str(options.index(record) + 1))))


# --------------------------------------------------------------------------- the weights

def test_a_record_weight_counts_while_the_player_owns_that_record_and_its_early_weight_times_the_game_left(rs):
    plain, weighed = load_evaluation(new_game(rs, 1).rules, "plain"), load_evaluation(new_game(rs, 1).rules, "weighed")
    g = new_game(rs, 1, seed=0)
    assert weighed(g, 0) == plain(g, 0) == 0.0  # nothing owned yet
    mill = new_game(rs, 1, seed=0)
    keep(mill, "mill")
    assert mill.state.players[0].owned == {"card": ["mill"]}
    assert weighed(mill, 0) - plain(mill, 0) == pytest.approx(3.0)  # `records`: the mill, whatever the time
    well = new_game(rs, 1, seed=0)
    keep(well, "well")
    left = weighed.share_left(well)
    assert 0 < left < 1
    assert weighed(well, 0) - plain(well, 0) == pytest.approx(4.0 * left)  # `early.records`: times the game left


@pytest.mark.parametrize("favoured", ["well", "mill"])
def test_the_record_kept_from_a_draw_is_the_one_its_weight_favours(tmp_path, favoured):
    rules = new_game(load_ruleset(write(tmp_path, f"{{{favoured}: 2.0}}")), 1, seed=0).rules
    for spec in ("greedy:weighed", "planner:weighed:4"):
        g = new_game(rules.ruleset, 1, seed=0)
        g.apply("pick")
        bot, rng = make_bot(spec, g.rules), random.Random(0)
        g.apply(bot.choose(g, rng))
        assert g.state.players[0].owned == {"card": [favoured]}, spec


def test_a_record_weight_names_a_record_of_the_pack(tmp_path):
    root = write(tmp_path, "{mil: 1.0}")
    errors = run_pipeline(root).errors
    assert [(e.code, Path(e.span.path).name) for e in errors] == [("E314", "bots.yaml")]
    assert "unknown record 'mil'" in errors[0].message and "did you mean 'mill'" in errors[0].message
    text = (root / "bots.yaml").read_text().splitlines()
    assert text[errors[0].span.line - 1].strip() == "records: {mil: 1.0}"  # at the weight, as every other group's


# --------------------------------------------------------------------------- measured by games

def test_a_games_record_keeps_what_each_source_gained_each_seat_and_when_each_record_was_gained(root):
    record = play_game(GameSpec(1, ("greedy:weighed",), 3, (), str(root)))  # it picks while a card is left
    gained = record["acquired"][0]
    assert set(gained) == {"card:well", "card:mill"} and set(gained.values()) == {1, 2}
    pays = {"well": 1, "mill": 2}
    for owned, turn in gained.items():
        rid = owned.split(":")[1]
        assert record["gains"][0][rid] == {"coin": pays[rid] * (4 - turn)}  # each round started after, once
    assert record["gains"][0]["sell"] == {"coin": 2}  # the two sells; the copies the rules tried gain nothing


def test_a_records_worth_is_what_it_gained_per_whole_game_held_by_the_weights(rs):
    g = new_game(rs, 1, seed=0)
    evaluation = load_evaluation(g.rules, "plain")  # a coin weighs 1, a point 1
    records = [  # by hand: games of 8 turns; the mill gained at turn 2 and 6, the well at turn 4
        {"turns": 8, "breakdown": [{"mill": 1}], "gains": [{"mill": {"coin": 12}}], "acquired": [{"card:mill": 2}]},
        {"turns": 8, "breakdown": [{}, {"well": 3}], "gains": [{"mill": {"coin": 2}}, {"well": {"coin": 2}}],
         "acquired": [{"card:mill": 6}, {"card:well": 4}]},
    ]
    rows = {w.record: w for w in record_worths(records, g.rules.tables, evaluation, dealt_from(g.state))}
    mill, well = rows["mill"], rows["well"]
    assert (mill.zone, mill.games, well.games) == ("market", 2, 1)
    assert mill.share_held == pytest.approx((6 / 8 + 2 / 8) / 2)
    assert mill.gains == {"coin": pytest.approx(14.0)} and mill.points == pytest.approx(1.0)  # held 1 whole game
    assert well.gains == {"coin": pytest.approx(4.0)} and well.points == pytest.approx(6.0)  # held half a game
    assert (mill.worth, well.worth) == (pytest.approx(15.0), pytest.approx(10.0))
    assert (mill.relative, well.relative) == (pytest.approx(2.5), pytest.approx(-2.5))  # less the market's mean
