"""Effects for other players, a record's owner and chance, run by the effect machine on a tiny pack
written here (docs/core.md §7): `for each [other] player`, `as owner`, `roll`, and the queries `die()`,
`rank()`, `most()`, `seat`, `players`, `round`, `passed`."""

from __future__ import annotations

import random
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset, run_pipeline
from interpreter.runtime import chance
from interpreter.runtime.fallible import Fallibility
from interpreter.runtime.flow import FlowCursor
from interpreter.runtime.machine import Machine
from interpreter.runtime.state import GameState, PlayerState
from interpreter.runtime.tables import build_tables

# action id -> its effect: each is run directly through the machine
PROGRAMS = {
    "each_gains": "for each player: gain 1 coin",
    "others_gain": "for each other player: gain 2 coin",
    "each_may": "for each player: may gain 1 coin",
    "each_scores_seat": "for each player: score 10 * seat",
    "each_scores_rank": "for each player: score rank(might)",
    "first_gets_five": "for each player: if rank(might) == 1: score 5",
    "most_gain": "for each player: if most(might + coin): gain 1 coin",
    "flow_numbers": "score 1000 * seat + 100 * players + 10 * round + passed",
    "roll_white": "roll white",
    "roll_both": "roll white; roll odd; score die(white) + 10 * die(odd)",
    "score_white": "score die(white)",
    "each_rolls": "for each player: { roll white; score die(white) }",
    "each_pays": "for each player: pay 1 coin",
    "nested": "for each player: for each other player: gain 1 coin",
}

PACK = """\
kind: pack
id: tiny
name: Tiny
version: 0.0.1
players: {min: 1, max: 4}
include: [kinds.yaml, cards.yaml, flow.yaml]
resources:
  - {id: coin, name: coin, plural: coins, provenance: exact, source: test}
  - {id: might, name: might, provenance: exact, source: test}
actions:
"""
KINDS = """\
kind: record_kinds
kinds:
  - id: card
    doc: A card a player may own.
    file: cards
    list: cards
    fields:
      effect: {type: effect, doc: What the card does.}
"""
CARDS = """\
kind: cards
cards:
  - {id: mill, effect: "as owner: { gain 2 coin; score 3 }", provenance: exact, source: test}
  - {id: fair, effect: "gain 1 coin; as owner: for each other player: gain 1 might", provenance: exact, source: test}
"""
FLOW = """\
kind: flow
provenance: exact
source: test
setup: "for each player: gain 1 coin"
rounds: 1
phases:
  - {id: work, kind: automatic, run: "for each player: if rank(might) == 1: score 1"}
dice:
  - {id: white, faces: 6, provenance: exact, source: test}
  - {id: odd, outcomes: [0, 0, 1, 5], provenance: exact, source: test}
"""


def write_pack(root: Path, programs: dict[str, str], flow: str = FLOW) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    actions = "".join(f'  - {{id: {k}, effect: "{v}", provenance: exact, source: test}}\n' for k, v in programs.items())
    (root / "pack.yaml").write_text(PACK + actions)
    (root / "kinds.yaml").write_text(KINDS)
    (root / "cards.yaml").write_text(CARDS)
    (root / "flow.yaml").write_text(flow)
    return root


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    rs = load_ruleset(write_pack(tmp_path_factory.mktemp("tiny"), PROGRAMS))
    return build_tables(rs)


def new_state(players: int = 4, seed: int | None = None, **holdings) -> GameState:
    """Players with the given holdings (resource -> one value per seat)."""
    state = GameState(players=[PlayerState(i) for i in range(players)])
    for r, values in holdings.items():
        for p, v in zip(state.players, values):
            p.holdings[r] = v
    if seed is not None:
        state.rng = chance.saved_state(random.Random(seed))
    return state


def run(tables, state: GameState, action: str, player: int = 0, this=None) -> GameState:
    key = f"pack/actions/{action}/effect" if this is None else f"cards/{this[1]}/effect"
    m = Machine(tables)
    m.start(state, key, player, action, this)
    m.run(state)
    return state


def holdings(state, r):
    return [p.holdings.get(r, 0) for p in state.players]


# --------------------------------------------------------------------------- for each player


def test_each_seat_gains_for_itself(tables):
    state = run(tables, new_state(), "each_gains", player=2)
    assert holdings(state, "coin") == [1, 1, 1, 1]
    assert state.frames == [] and state.decision is None


def test_each_other_seat_gains_but_not_the_acting_one(tables):
    state = run(tables, new_state(3), "others_gain", player=1)
    assert holdings(state, "coin") == [2, 0, 2]


def test_nested_for_each_counts_every_ordered_pair(tables):
    state = run(tables, new_state(3), "nested")
    assert holdings(state, "coin") == [2, 2, 2]  # every seat gains once from each of the two others


def test_scores_count_for_each_seat_with_the_statement_source(tables):
    state = run(tables, new_state(3), "each_scores_seat", player=1)
    assert [p.score for p in state.players] == [10, 20, 30]
    assert [p.breakdown for p in state.players] == [{"each_scores_seat": 10}, {"each_scores_seat": 20},
                                                    {"each_scores_seat": 30}]


def _decision_order(tables, state, action: str) -> list[int]:
    m = Machine(tables)
    m.start(state, f"pack/actions/{action}/effect", 0, action)
    m.run(state)
    order = []
    while state.decision is not None:
        order.append(state.decision.player)
        m.answer(state, 0 if len(order) % 2 else 1)  # alternately yes and no
    return order


def test_seats_run_in_turn_order_from_the_first_seat_and_each_decides_for_itself(tables):
    state = new_state(4)
    assert _decision_order(tables, state, "each_may") == [0, 1, 2, 3]  # without a flow: from seat 0
    assert holdings(state, "coin") == [1, 0, 1, 0]
    state = new_state(4)
    state.flow = FlowCursor(seats=4, first_seat=2)
    assert _decision_order(tables, state, "each_may") == [2, 3, 0, 1]
    assert holdings(state, "coin") == [1, 0, 1, 0]  # seats 2 and 0 said yes


def test_a_seat_runs_after_the_previous_one_finished(tables):
    # each seat rolls and scores what it rolled: the die shows the last seat's roll at the end
    state = run(tables, new_state(3, seed=5), "each_rolls")
    rng = random.Random(5)
    rolls = [chance.roll(tables.dice["white"], rng) for _ in range(3)]
    assert [p.score for p in state.players] == rolls and state.dice == {"white": rolls[-1]}


def test_a_body_that_can_fail_fails_for_the_seat_that_cannot_pay(tables):
    from interpreter.errors import RulesError

    state = new_state(3, coin=[1, 0, 1])
    with pytest.raises(RulesError):
        run(tables, state, "each_pays")


# --------------------------------------------------------------------------- ranks


@pytest.mark.parametrize("might, ranks", [
    ([3, 5, 5, 1], [3, 1, 1, 4]),  # two tied for the most share first place; the next is third
    ([2, 2, 2, 2], [1, 1, 1, 1]),
    ([0, 1, 2, 3], [4, 3, 2, 1]),
    ([7, 7, 1, 1], [1, 1, 3, 3]),
])
def test_rank_is_competition_ranking_over_all_players(tables, might, ranks):
    state = run(tables, new_state(4, might=might), "each_scores_rank")
    assert [p.score for p in state.players] == ranks


def test_every_seat_tied_for_first_scores_and_most_includes_ties(tables):
    state = run(tables, new_state(4, might=[4, 1, 4, 0]), "first_gets_five", player=3)
    assert [p.score for p in state.players] == [5, 0, 5, 0]
    # most(might + coin), evaluated as each player: 4+0, 1+3, 4+0, 0+0, the first three tied; seat 0 runs first
    # and gains a coin, so when seats 1 and 2 run it has more than they do
    state = run(tables, new_state(4, might=[4, 1, 4, 0], coin=[0, 3, 0, 0]), "most_gain")
    assert holdings(state, "coin") == [1, 3, 0, 0]
    state = run(tables, new_state(4, might=[4, 1, 4, 0], coin=[0, 3, 0, 0]), "most_gain", player=3)
    assert holdings(state, "coin") == [1, 3, 0, 0]  # the order is the seats' whoever acts


def test_rank_reads_the_state_as_it_stands_when_each_seat_runs(tables):
    # seat 0 gains first; `most` for the later seats sees its new coin
    state = run(tables, new_state(2, might=[0, 0], coin=[0, 0]), "most_gain")
    assert holdings(state, "coin") == [1, 0]


# --------------------------------------------------------------------------- the flow's numbers


def test_seat_players_round_and_passed(tables):
    state = run(tables, new_state(3), "flow_numbers", player=1)
    assert state.players[1].score == 2000 + 300  # no flow: round and passed are 0
    state = new_state(3)
    state.flow = FlowCursor(seats=3, round=4, passed=(2, 0))
    run(tables, state, "flow_numbers", player=2)
    assert state.players[2].score == 3000 + 300 + 40 + 2


# --------------------------------------------------------------------------- as owner


def test_as_owner_runs_for_the_owner_in_the_owners_map(tables):
    state = new_state(3)
    state.owners = {"mill": 2}
    state.players[0].owned = {"card": ["mill"]}  # the owners map comes first
    run(tables, state, "mill", player=0, this=("card", "mill"))
    assert holdings(state, "coin") == [0, 0, 2]
    assert [p.score for p in state.players] == [0, 0, 3] and state.players[2].breakdown == {"mill": 3}


def test_as_owner_falls_back_to_the_seat_owning_the_record(tables):
    state = new_state(3)
    state.players[1].owned = {"card": ["mill"]}
    run(tables, state, "mill", player=0, this=("card", "mill"))
    assert holdings(state, "coin") == [0, 2, 0]


def test_as_owner_is_skipped_when_nobody_owns_the_record(tables):
    state = run(tables, new_state(3), "mill", player=1, this=("card", "mill"))
    assert holdings(state, "coin") == [0, 0, 0] and state.frames == []


def test_the_acting_player_and_the_owner_each_get_their_part(tables):
    state = new_state(3)
    state.owners = {"fair": 1}
    run(tables, state, "fair", player=0, this=("card", "fair"))
    assert holdings(state, "coin") == [1, 0, 0]  # the acting player
    assert holdings(state, "might") == [1, 0, 1]  # the owner's other players


# --------------------------------------------------------------------------- chance


def test_a_roll_is_a_pure_function_of_the_seed(tables):
    a = run(tables, new_state(2, seed=11), "roll_both")
    b = run(tables, new_state(2, seed=11), "roll_both")
    assert a.dice == b.dice and a.rng == b.rng and a.players[0].score == b.players[0].score
    rng = random.Random(11)
    white, odd = chance.roll(tables.dice["white"], rng), chance.roll(tables.dice["odd"], rng)
    assert a.dice == {"white": white, "odd": odd} and a.players[0].score == white + 10 * odd
    assert a.rng == chance.saved_state(rng)  # the state's generator moved on by exactly the two draws
    assert {tuple(run(tables, new_state(2, seed=s), "roll_both").dice.items()) for s in range(30)} != {tuple(a.dice.items())}


def test_a_die_shows_zero_before_its_first_roll_and_the_last_roll_after(tables):
    state = run(tables, new_state(1, seed=3), "score_white")
    assert state.players[0].score == 0
    run(tables, state, "roll_white")
    shown = state.dice["white"]
    assert 1 <= shown <= 6
    run(tables, state, "score_white")
    assert state.players[0].score == shown


def test_a_copy_of_the_state_keeps_its_own_dice_and_generator(tables):
    state = run(tables, new_state(1, seed=8), "roll_white")
    copy = state.clone()
    before = (dict(state.dice), state.rng)
    run(tables, copy, "roll_white")
    run(tables, copy, "roll_white")
    assert (state.dice, state.rng) == before and copy.rng != state.rng


def test_successive_rolls_follow_the_generator_and_spread_over_the_faces(tables):
    state = new_state(1, seed=2024)
    rng = random.Random(2024)
    seen = []
    for _ in range(600):
        run(tables, state, "roll_white")
        seen.append(state.dice["white"])
    assert seen == [chance.roll(tables.dice["white"], rng) for _ in range(600)]
    counts = Counter(seen)
    assert set(counts) == {1, 2, 3, 4, 5, 6} and all(60 <= c <= 140 for c in counts.values()), counts


def test_over_many_seeds_a_die_with_repeated_faces_follows_its_distribution(tables):
    counts = Counter(run(tables, new_state(1, seed=s), "roll_both").dice["odd"] for s in range(800))
    assert set(counts) == {0, 1, 5}
    # faces [0, 0, 1, 5]: 0 half of the time, 1 and 5 a quarter each
    assert 340 <= counts[0] <= 460 and 150 <= counts[1] <= 250 and 150 <= counts[5] <= 250, counts
    assert dict(chance.distribution(tables.dice["odd"])) == {0: 0.5, 1: 0.25, 5: 0.25}


def test_a_state_built_without_a_generator_rolls_as_seed_zero(tables):
    a = run(tables, new_state(1), "roll_white")
    b = run(tables, new_state(1, seed=0), "roll_white")
    assert a.dice == b.dice and a.rng == b.rng


# --------------------------------------------------------------------------- the static pass


def test_a_body_run_for_several_seats_is_as_sure_as_its_body_and_a_roll_cannot_fail(tables):
    fall = Fallibility(tables, {})
    programs = tables.programs
    judge = {a: fall.safe(programs[f"pack/actions/{a}/effect"].steps) for a in PROGRAMS}
    assert judge["each_gains"] and judge["others_gain"] and judge["nested"] and judge["each_may"]
    assert judge["roll_both"] and judge["each_rolls"] and judge["first_gets_five"]
    assert not judge["each_pays"]
    assert fall.safe(programs["cards/mill/effect"].steps)


# --------------------------------------------------------------------------- the content pipeline


def test_the_flow_files_programs_use_the_statements(tables):
    assert {"flow/setup", "flow/phases/work/run"} <= set(tables.programs)
    state = new_state(2)
    m = Machine(tables)
    m.start(state, "flow/setup", 0, "setup")
    m.run(state)
    assert holdings(state, "coin") == [1, 1]


def _errors(root: Path) -> list[tuple[str, int, int, str, str]]:
    return [(Path(e.span.path).name, e.span.line, e.span.col, e.code, e.message) for e in run_pipeline(root).errors]


def _at(path: Path, token: str) -> tuple[str, int, int]:
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if token in line:
            return path.name, n, line.index(token) + 1
    raise AssertionError(token)


def test_names_are_checked_with_the_place_of_the_mistake(tmp_path):
    root = write_pack(tmp_path / "bad", {"a": "roll blue", "b": "score die(whit)", "c": "as owner: gain 1 coin",
                                         "d": "score rank(mite)"})
    pack = root / "pack.yaml"
    found = _errors(root)
    assert [f[:4] for f in found] == [(*_at(pack, "blue"), "E301"), (*_at(pack, "whit)"), "E301"),
                                      (*_at(pack, "as owner"), "E311"), (*_at(pack, "mite"), "E301")]
    assert "unknown die 'blue'" in found[0][4] and "did you mean 'white'" in found[1][4]


def test_a_pack_without_dice_is_told_where_dice_are_declared(tmp_path):
    flow = FLOW.split("dice:")[0]
    root = write_pack(tmp_path / "nodice", {"a": "roll white"}, flow=flow)
    ((name, line, col, code, message),) = _errors(root)
    assert (name, line, col, code) == (*_at(root / "pack.yaml", "white"), "E301")
    assert "declares no dice" in message
