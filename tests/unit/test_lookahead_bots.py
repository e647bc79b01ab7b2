"""Bots that look past one click (issue 17): the scores final scoring would give now
(Game.scores_if_over), an evaluation that counts them (`final`) and weighs holdings by the share of the
game left (`early`, flow.share_left), the planner that searches the steps of its whole turn
(interpreter/play/planner.py), and bot specs (`best` named by the bots file). On an invented pack."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from interpreter import load_ruleset, make_bot, new_game
from interpreter.content.bot_specs import BotSpec, SpecError, parse_spec
from interpreter.content.ruleset import run_pipeline
from interpreter.play.bots import load_evaluation
from interpreter.runtime import flow as F

import inline_pack

E = "provenance: exact, source: test"
PACK = f"""\
kind: pack
id: lookaheadtest
name: Lookahead test
version: 0.0.1
players: {{min: 1, max: 2}}
include: [flow.yaml, scoring.yaml, bots.yaml]
resources:
  - {{id: coin, name: coin, plural: coins, {E}}}
  - {{id: tool, name: tool, {E}}}
  - {{id: grain, name: grain, {E}}}
actions:
  - {{id: rest, name: Rest, effect: gain 0 coin, {E}}}
"""


def flow(rounds: int, *entries: str) -> str:
    """A flow file: ``rounds`` rounds of one phase whose menu has these entries (without provenance)."""
    lines = "".join(f"      - {{{entry}, {E}}}\n" for entry in entries)
    return (f"kind: flow\nprovenance: exact\nsource: test\nrounds: {rounds}\nfinal_choices: most_points\n"
            f"phases:\n  - {{id: work, menu: work}}\nmenus:\n  - id: work\n    provenance: exact\n"
            f"    source: test\n    entries:\n{lines}")


FLOW = flow(4, "id: prepare, effect: gain 1 tool, limit: 1",
            'id: build, effect: "pay 1 tool\\ngain 9 coin", ends_turn: true',
            "id: sell, effect: gain 2 coin, ends_turn: true",
            "id: farm, effect: gain 1 grain, ends_turn: true")
SCORING = f"""\
kind: scoring
tables:
  - {{id: granary, steps: [{{min: 0, points: 0}}, {{min: 3, points: 10}}], {E}}}
final:
  - {{id: coins, effect: score coin, {E}}}
  - {{id: granary, effect: "score table(granary, grain)", {E}}}
  - {{id: tools, effect: "repeat: may pay 1 tool: score 3", {E}}}
"""
BOTS = f"""\
kind: bots
greedy: default
mcts: default
planner: ahead
best: planner:ahead:4
evaluations:
  - {{id: default, holdings: {{coin: 1.0}}, opponents: 0, {E}}}
  - {{id: ahead, final: 1.0, opponents: 0, {E}}}
  - id: early_grain
    holdings: {{coin: 1.0}}
    early: {{holdings: {{grain: 8.0}}}}
    opponents: 0
    provenance: exact
    source: test
"""


@pytest.fixture
def pack(tmp_path):
    return inline_pack.write_pack(tmp_path, {"pack.yaml": PACK, "flow.yaml": FLOW, "scoring.yaml": SCORING,
                                             "bots.yaml": BOTS})


def test_scores_if_over_runs_final_scoring_on_a_copy(pack):
    g = new_game(load_ruleset(pack), 1, seed=0)
    assert g.scores_if_over() == [0]
    g.apply("farm")
    g.apply("farm")  # 2 grain: below the granary's step
    g.apply("prepare")
    g.apply("sell")  # 2 coins, 1 tool; the last round begins
    assert g.scores_if_over() == [2 + 0 + 3]  # the coins, no granary step, the tool converted for 3
    player = g.state.players[0]
    assert player.score == 0 and player.holdings.get("tool") == 1  # the game is unchanged
    assert g.child("farm").scores_if_over() == [2 + 10 + 3]  # the third grain: the step
    g.apply("farm")  # the game ends
    assert g.is_terminal() and g.scores_if_over() == [g.state.players[0].score] == [2 + 10 + 3]


def test_final_weight_values_a_table_step_the_linear_terms_cannot_see(pack):
    g = new_game(load_ruleset(pack), 1, seed=0)
    g.apply("farm")
    g.apply("farm")
    plain, ahead = make_bot("greedy", g.rules), make_bot("greedy:ahead", g.rules)
    assert plain.choose(g, random.Random(0)) == "sell"  # 2 coins now; grain weighs nothing
    assert ahead.choose(g, random.Random(0)) == "farm"  # the third grain reaches the 10-point step


def test_early_weights_count_in_proportion_to_the_game_left(pack):
    g = new_game(load_ruleset(pack), 1, seed=0)
    evaluation = load_evaluation(g.rules, "early_grain")
    g.apply("farm")  # round 2 begins: 3 of 4 rounds left
    assert evaluation.share_left(g) == pytest.approx(0.75)
    assert evaluation(g, 0) == pytest.approx(0.75 * 8.0)
    g.apply("sell")
    g.apply("sell")  # round 4: a quarter left
    assert evaluation(g, 0) == pytest.approx(4 + 0.25 * 8.0)
    assert make_bot("greedy:early_grain", g.rules).choose(g, random.Random(0)) == "sell"  # 2 coins > 2 grain-quarters
    fresh = new_game(load_ruleset(pack), 1, seed=0)
    assert make_bot("greedy:early_grain", fresh.rules).choose(fresh, random.Random(0)) == "farm"  # 8 > 2 early on


def test_share_left_counts_rounds_phases_and_turns():
    spec = F.FlowSpec((F.PhaseSpec("a"), F.PhaseSpec("b", turns_each=2)), rounds=2)
    cursor, _ = F.start(spec, 2)
    assert F.share_left(spec, cursor) == 1.0
    cursor, _ = F.end_turn(spec, cursor)  # one of two turns of phase a
    assert F.share_left(spec, cursor) == pytest.approx(1 - (0.5 / 2) / 2)
    cursor, _ = F.end_turn(spec, cursor)  # phase b, round 1
    assert F.share_left(spec, cursor) == pytest.approx(0.75)
    open_ended = F.FlowSpec((F.PhaseSpec("a"),))
    start, _ = F.start(open_ended, 2)
    assert F.share_left(open_ended, start) == 0.5  # no number of rounds known
    assert F.share_left(open_ended, start, rounds=4) == 1.0  # what the caller expects


def test_the_planner_takes_a_step_worth_nothing_alone_for_the_turn_it_opens(pack):
    g = new_game(load_ruleset(pack), 1, seed=0)
    greedy, planner = make_bot("greedy", g.rules), make_bot("planner:default", g.rules)
    assert greedy.choose(g, random.Random(0)) == "sell"  # a tool is worth nothing to the default weights
    assert planner.plan(g, random.Random(0)) == ["prepare", "build"]  # 9 coins through the tool
    assert planner.choose(g, random.Random(0)) == "prepare"
    g.apply("prepare")
    assert planner.choose(g, random.Random(0)) == "build"


def test_the_turns_own_search_stops_where_the_decisions_work_is_spent(pack):
    """Past PlannerBot.SEARCH_WORK steps of the machine in one decision of a planner that checks (or searches
    to the end), the turn's search expands no position past the first: the sequences still open end where
    they stand, valued as they were when reached. A planner that does neither searches as its spec asks."""
    g = new_game(load_ruleset(pack), 1, seed=0)
    planner, plain = make_bot("planner:default:6:1:top::::1", g.rules), make_bot("planner:default", g.rules)
    before = planner.work_done(g)
    assert planner.plan(g, random.Random(0)) == ["prepare", "build"]
    whole = planner.work_done(g) - before
    planner.SEARCH_WORK = plain.SEARCH_WORK = 0  # spent after the first position: a tool is worth nothing yet
    before = planner.work_done(g)
    assert planner.plan(g, random.Random(0)) == ["sell"]
    assert 0 < planner.work_done(g) - before < whole
    assert plain.plan(g, random.Random(0)) == ["prepare", "build"]
    planner.SEARCH_WORK = whole  # as much as the whole decision took: the turn's search runs to its end
    assert planner.plan(g, random.Random(0)) == ["prepare", "build"]


def test_the_planner_ends_its_search_with_the_turn(pack):
    g = new_game(load_ruleset(pack), 2, seed=0)
    planner = make_bot("planner:default:1", g.rules)
    plan = planner.plan(g, random.Random(0))
    assert plan == ["prepare", "build"]  # not the next seat's turn: the sequence stops where the turn ends
    g.apply("prepare")
    g.apply("build")
    assert g.current_player == 1


def test_a_frontier_by_first_actions_keeps_the_best_of_each_beginning_before_a_second_of_any():
    from interpreter.play.planner import _round_first_actions

    ranked = [(-9.0, 0.1, ("take a", "place 1"), "g1"), (-8.0, 0.2, ("take a", "place 2"), "g2"),
              (-7.0, 0.3, ("take a", "place 3"), "g3"), (-5.0, 0.4, ("take b", "place 1"), "g4"),
              (-4.0, 0.5, ("take b", "place 2"), "g5"), (-1.0, 0.6, ("refresh",), "g6")]
    assert [e[3] for e in ranked[:3]] == ["g1", "g2", "g3"]  # by value alone: three ways of one beginning
    assert [e[3] for e in _round_first_actions(ranked, 3)] == ["g1", "g4", "g6"]
    assert [e[3] for e in _round_first_actions(ranked, 5)] == ["g1", "g2", "g4", "g5", "g6"]  # best first
    assert len(_round_first_actions(ranked, 10)) == 6


def test_the_planner_with_a_first_actions_frontier_plans_the_turn_and_refuses_an_unknown_one(pack):
    g = new_game(load_ruleset(pack), 1, seed=0)
    planner = make_bot("planner:default:2:1:first_actions", g.rules)
    assert planner.frontier == "first_actions"
    assert planner.plan(g, random.Random(0)) == ["prepare", "build"]
    from interpreter.play.planner import PlannerBot

    with pytest.raises(ValueError, match="'widest' is not one of top, first_actions"):
        PlannerBot(load_evaluation(g.rules, "default"), 2, frontier="widest")


def test_best_is_the_bot_the_bots_file_names(pack):
    rules = new_game(load_ruleset(pack), 1, seed=0).rules
    best = make_bot("best", rules)
    assert best.name == "planner" and best.width == 4 and best.evaluate.final == 1.0
    assert make_bot("planner", rules).evaluate == load_evaluation(rules, "ahead")  # the file's `planner`


def test_bot_specs_parse_and_refuse_clearly():
    assert parse_spec("planner:tuned:8") == BotSpec("planner", "tuned", 8)
    assert parse_spec("planner::4:2") == BotSpec("planner", None, 4, 2)
    assert parse_spec("planner:tuned:16:1:first_actions") == BotSpec("planner", "tuned", 16, 1, "first_actions")
    assert parse_spec("planner:tuned:16:2:first_actions:6") == BotSpec("planner", "tuned", 16, 2, "first_actions", 6)
    assert parse_spec("planner:tuned:16:1:first_actions::4") == BotSpec("planner", "tuned", 16, 1, "first_actions",
                                                                        None, 4)
    assert parse_spec("planner:tuned:16:1:first_actions:4::3") == BotSpec("planner", "tuned", 16, 1, "first_actions",
                                                                           4, None, 3)
    assert parse_spec("planner:tuned:16:1:first_actions:4::3:2") == BotSpec("planner", "tuned", 16, 1,
                                                                             "first_actions", 4, None, 3, 2)
    assert parse_spec("mcts:400") == BotSpec("mcts", number=400)
    assert parse_spec("greedy") == BotSpec("greedy")
    for bad, says in (("wizard", "unknown bot 'wizard'"), ("mcts:lots", "'lots' is not a positive whole number"),
                      ("random:x", "random takes no options"), ("planner:a:3:2:top:4:2:1:2:x", "planner takes 8 options"),
                      ("planner:a:3:2:top:4:2:0", "'0' is not a positive whole number"),
                      ("planner:a:3:2:top:4:2:1:0", "'0' is not a positive whole number"),
                      ("planner:a:3:2:top:4:0", "'0' is not a positive whole number"),
                      ("planner:a:3:2:top:none", "'none' is not a positive whole number"),
                      ("planner:a:3:2:widest", "'widest' is not a frontier; known: top, first_actions")):
        with pytest.raises(SpecError, match=says):
            parse_spec(bad)


def test_a_bots_file_naming_an_unknown_best_or_weight_is_an_error_at_its_line(tmp_path):
    bots = BOTS.replace("best: planner:ahead:4", "best: planner:ahaed") + "    track_values: {nowhere: 1.0}\n"
    bots = bots.replace("    early: {holdings: {grain: 8.0}}", "    early: {holdings: {grian: 8.0}}")
    root = inline_pack.write_pack(tmp_path, {"pack.yaml": PACK, "flow.yaml": FLOW, "scoring.yaml": SCORING,
                                             "bots.yaml": bots})
    errors = [(e.span.line if e.span else None, e.message) for e in run_pipeline(root).errors]
    assert any("unknown evaluation 'ahaed'; did you mean 'ahead'?" in m for _, m in errors), errors
    assert any("unknown resource 'grian'" in m for _, m in errors), errors
    assert any("unknown track 'nowhere'" in m for _, m in errors), errors
    assert all(line for line, _ in errors)
    selfish = BOTS.replace("best: planner:ahead:4", "best: best")
    root2 = inline_pack.write_pack(tmp_path / "b", {"pack.yaml": PACK, "flow.yaml": FLOW, "scoring.yaml": SCORING,
                                                    "bots.yaml": selfish})
    assert any("must name another bot" in e.message for e in run_pipeline(root2).errors)


SEASONS = flow(3, "id: sell, effect: gain 2 coin, ends_turn: true", "id: plant, effect: gain 1 grain, ends_turn: true",
               'id: reap, effect: "pay 1 grain\\ngain 6 coin", ends_turn: true')


def game_of(tmp_path, flow_text: str, players: int):
    """A new game of the test pack with this flow file."""
    root = inline_pack.write_pack(tmp_path, {"pack.yaml": PACK, "flow.yaml": flow_text, "scoring.yaml": SCORING,
                                             "bots.yaml": BOTS})
    return new_game(load_ruleset(root), players, seed=0)


def test_a_planner_looking_two_turns_ahead_sows_what_it_reaps_next_turn(tmp_path):
    g = game_of(tmp_path, SEASONS, 1)
    one, two = make_bot("planner:default:6", g.rules), make_bot("planner:default:6:2", g.rules)
    assert one.choose(g, random.Random(0)) == "sell"  # 2 coins this turn beat a grain worth nothing yet
    assert two.choose(g, random.Random(0)) == "plant"  # plant then reap, 6 coins, beats selling twice, 4
    g.apply("plant")
    assert two.choose(g, random.Random(0)) == "reap"
    g.apply("reap")
    assert two.choose(g, random.Random(0)) == "sell"  # the last turn: nothing to reap after it


def test_the_turns_ahead_follow_as_many_ends_of_this_turn_as_ahead_says(tmp_path):
    g = game_of(tmp_path, SEASONS, 1)
    narrow, wide = make_bot("planner:default:6:2:top:1", g.rules), make_bot("planner:default:6:2:top:2", g.rules)
    assert (narrow.width, narrow.ahead, wide.ahead, make_bot("planner:default:6:2", g.rules).ahead) == (6, 1, 2, 6)
    assert narrow.choose(g, random.Random(0)) == "sell"  # only this turn's best end is played on: selling
    assert wide.choose(g, random.Random(0)) == "plant"  # the second, planting, is played on too: then reaping


def test_between_its_turns_the_planner_lets_the_other_seats_play_their_best_move(tmp_path):
    g = game_of(tmp_path, SEASONS, 2)
    two = make_bot("planner:default:6:2", g.rules)
    assert two.choose(g, random.Random(0)) == "plant"  # seat 2 sells in between; seat 1 reaps after
    assert two.others.move_in(g.child("plant"), random.Random(0)) == "sell"


ORCHARD = flow(3, "id: sell, effect: gain 2 coin, ends_turn: true", "id: plant, effect: gain 1 grain, ends_turn: true",
               'id: graft, effect: "pay 1 grain\\ngain 1 tool", ends_turn: true',
               'id: pick, effect: "pay 1 tool\\ngain 9 coin", ends_turn: true')


def test_a_planner_looking_three_turns_ahead_sees_a_harvest_two_turns_away(tmp_path):
    g = game_of(tmp_path, ORCHARD, 1)
    two, three = make_bot("planner:default:6:2", g.rules), make_bot("planner:default:6:3", g.rules)
    assert two.choose(g, random.Random(0)) == "sell"  # two sales, 4 coins, beat anything two turns show
    assert three.choose(g, random.Random(0)) == "plant"  # plant, graft, pick: 9 coins beat three sales, 6
    g.apply("plant")
    assert three.choose(g, random.Random(0)) == "graft"
    g.apply("graft")
    assert three.choose(g, random.Random(0)) == "pick"


def test_within_end_of_its_turns_of_the_end_the_planner_searches_every_turn_left(tmp_path):
    from interpreter.play.planner import own_turns_left

    g = game_of(tmp_path, SEASONS, 1)
    ending, plain = make_bot("planner:default:6:1:top:::2", g.rules), make_bot("planner:default:6", g.rules)
    short = make_bot("planner:default:6:1:top:::1", g.rules)
    assert (ending.end, plain.end, ending.turns) == (2, 0, 1)
    assert own_turns_left(g, 1.0) is None and ending.turns_searched(g) == 1  # no turn played yet to measure by
    assert ending.choose(g, random.Random(0)) == "sell"
    g.apply("sell")  # 2 of the 3 rounds left
    assert own_turns_left(g, ending.evaluate.share_left(g)) == 2
    assert (ending.turns_searched(g), short.turns_searched(g), plain.turns_searched(g)) == (2, 1, 1)
    assert plain.choose(g, random.Random(0)) == "sell" == short.choose(g, random.Random(0))  # 2 coins now
    assert ending.choose(g, random.Random(0)) == "plant"  # plant then reap, 6 coins, beats selling twice, 4
    g.apply("plant")
    assert ending.turns_searched(g) == 1 and ending.choose(g, random.Random(0)) == "reap"
    g.apply("reap")
    assert g.is_terminal() and g.scores()[0]["score"] == 2 + 6  # selling three times scores 6


def test_a_seat_counts_only_its_own_turns_left(tmp_path):
    from interpreter.play.planner import PlannerBot, own_turns_left

    g = game_of(tmp_path, SEASONS, 2)
    g.apply("sell")
    g.apply("sell")  # each seat took one of its 3 turns
    assert g.current_player == 0 and own_turns_left(g, F.share_left(g.rules.flow, g.state.flow)) == 2
    # a flow that ends on a condition and no length expected: the share left is a guess, the end is not searched
    planner = make_bot("planner:default:6:1:top:::3", g.rules)
    fifth_turn = SimpleNamespace(turn=5, players=g.state.players, flow=g.state.flow)  # 4 played; half left, a guess
    open_ended = SimpleNamespace(rules=SimpleNamespace(flow=SimpleNamespace(rounds=None)), state=fifth_turn)
    assert own_turns_left(open_ended, 0.5) == 2 and planner.turns_searched(open_ended) == 1
    with pytest.raises(ValueError, match="end: -1 is not a whole number of turns"):
        PlannerBot(load_evaluation(g.rules, "default"), end=-1)


class _Guess:
    """A stand-in for a determinized game: which guess of the hidden stacks it is."""

    def __init__(self, number: int):
        self.number = number


class _Table:
    """A stand-in for the game the planner is asked about: each determinization is the next guess."""

    current_player = 0

    def __init__(self):
        self.guesses = 0

    def determinized(self, seat, rng):
        self.guesses += 1
        return _Guess(self.guesses)

    def legal_actions(self):
        return ["steady", "lucky"]


def test_a_planner_over_several_guesses_plays_the_first_action_best_on_average(pack):
    from interpreter.play.planner import Plan, PlannerBot

    class Guessing(PlannerBot):
        # in the first guess the draw favours "lucky" (10 against 6); in the others it misses (1 against 6)
        def work_done(self, game):  # a stand-in game has no rules machine, and the search here no cost
            return 0

        def turn_ends(self, world, seat, rng, width=None, until=None, budget_end=None):
            lucky = 10.0 if world.number == 1 else 1.0
            ends = [Plan(6.0, ("steady", "end"), world), Plan(5.0, ("steady", "rest"), world),
                    Plan(lucky, ("lucky", "end"), world)]
            return sorted(ends, key=lambda p: -p.value)

    evaluation = load_evaluation(new_game(load_ruleset(pack), 1, seed=0).rules, "default")
    one, three = Guessing(evaluation, guesses=1), Guessing(evaluation, guesses=3)
    table = _Table()
    assert one.plan(table, random.Random(0)) == ["lucky", "end"]  # one guess: its luck decides
    assert three.plan(table, random.Random(0)) == ["steady", "end"]  # 6 each time beats (10 + 1 + 1) / 3
    assert table.guesses == 4
    with pytest.raises(ValueError, match="guesses: 0 is not a positive whole number"):
        PlannerBot(evaluation, guesses=0)


def test_a_planner_over_guesses_compares_only_first_actions_every_guess_reached(pack):
    from interpreter.play.planner import Plan, PlannerBot

    class Sometimes(PlannerBot):
        # "rare" is reached (kept by the beam) in the first guess only, where it looks best
        def turn_ends(self, world, seat, rng, width=None, until=None, budget_end=None):
            ends = [Plan(6.0, ("steady",), world)]
            return ([Plan(20.0, ("rare",), world)] if world.number == 1 else []) + ends

    evaluation = load_evaluation(new_game(load_ruleset(pack), 1, seed=0).rules, "default")
    assert Sometimes(evaluation, guesses=2).plan(_Table(), random.Random(0)) == ["steady"]


def test_the_planner_spec_takes_the_guesses_and_a_real_game_is_played_by_them(pack):
    g = new_game(load_ruleset(pack), 1, seed=0)
    planner = make_bot("planner:default:2:1:first_actions::3", g.rules)
    assert (planner.width, planner.frontier, planner.guesses) == (2, "first_actions", 3)
    assert make_bot("planner:default", g.rules).guesses == 1
    assert planner.plan(g, random.Random(0)) == ["prepare", "build"]  # the same best whatever the guess
    while not g.is_terminal():
        g.apply(planner.choose(g, random.Random(0)))
    assert g.scores()[0]["score"] > 0


class _Drawn:
    """A stand-in for a position of a determinized game: its hidden stack, and what its last action drew."""

    def __init__(self, turn: int, stack: tuple, drawn: str | None = None, guess: int = 1):
        self.state = SimpleNamespace(turn=turn, zones={"stack": stack})
        self.drawn = drawn
        self.guess = guess  # which determinization this position was reached in
        self.current_player = 0

    def child(self, action):
        if action == "refresh":  # the top of this guess's stack comes into view
            return _Drawn(self.state.turn, self.state.zones["stack"][1:], self.state.zones["stack"][0], self.guess)
        return _Drawn(self.state.turn, self.state.zones["stack"], action, self.guess)

    def is_terminal(self):
        return False


class _Stacked(_Drawn):
    """The game the planner is asked about: each determinization is a new guess of the stack; the first
    has the good card on top, the later ones a poor one."""

    def __init__(self):
        super().__init__(1, ("good", "poor"))
        self.guesses = 0

    def determinized(self, seat, rng):
        self.guesses += 1
        return _Drawn(1, ("good", "poor") if self.guesses == 1 else ("poor", "good"), guess=self.guesses)

    def legal_actions(self):
        return ["take", "refresh", "rest"]


def test_a_planner_checks_its_best_beginnings_on_new_guesses_of_the_hidden_stacks(pack):
    from interpreter.play.planner import Plan, PlannerBot, _OutOfWork, check_candidates

    class Refreshing(PlannerBot):
        # refreshing shows the top card, then taking it scores 10 if it is good, 1 if poor; taking the card in
        # view scores 6 whatever the guess; resting, 2. The widths the rest of the turn is searched at are kept,
        # and the guess each beginning was valued in
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.widths, self.valued_in = [], {}
            self.check_cost = 1  # the work of a search from a beginning in a new guess
            self.positions = 0  # the stand-in's meter of work: positions valued

        def work_done(self, game):  # a stand-in game has no rules machine: a position valued is a unit of work
            return self.positions

        def turn_ends(self, world, seat, rng, width=None, until=None, budget_end=None):
            if until is not None and self.positions >= until:
                raise _OutOfWork
            if world.drawn is not None:  # after the first action, in a new guess: the rest of the turn
                self.positions += self.check_cost
                self.widths.append(width or self.width)
                self.valued_in.setdefault(world.drawn, []).append(world.guess)
                value = {"good": 10.0, "poor": 1.0, "take": 6.0, "rest": 2.0}[world.drawn]
                return [Plan(value, ("end",), world)]
            self.positions += 1  # the turn's search values one position here
            after = world.child("refresh")
            ends = [Plan(6.0, ("take", "end"), world.child("take")), Plan(2.0, ("rest",), world.child("rest")),
                    Plan(10.0 if after.drawn == "good" else 1.0, ("refresh", "take"), after)]
            return sorted(ends, key=lambda p: -p.value)

    evaluation = load_evaluation(new_game(load_ruleset(pack), 1, seed=0).rules, "default")
    unchecked, checked = Refreshing(evaluation, width=8), Refreshing(evaluation, width=8, checks=3)
    assert unchecked.plan(_Stacked(), random.Random(0)) == ["refresh", "take"]  # the first guess's luck
    table = _Stacked()
    assert checked.plan(table, random.Random(0)) == ["take", "end"]  # 6 beats the refresh's 1 in a new guess
    # each beginning on a new guess, searched as wide as the turn; the better half of them (2 of 3: take and rest)
    # on the next; the second guess valued those two as the first did (both put the poor card on top), so no
    # third is drawn
    assert table.guesses == 1 + 2 and checked.widths == [8] * 5
    # the beginnings are valued on the same new guesses, so that their differences are not one guess's luck
    assert checked.valued_in == {"take": [2, 3], "rest": [2, 3], "poor": [2]}
    # the work budget: the turn's search took one unit here, and a first new guess is expected to take as
    # much for each of the 3 beginnings (3); it takes 3, and the next, for the 2 kept, is expected to take 2
    checked.SEARCH_WORK, table = 0, _Stacked()  # spent before any check: the first plan, and no new guess drawn
    assert checked.plan(table, random.Random(0)) == ["refresh", "take"] and table.guesses == 1
    checked.SEARCH_WORK, table = 3, _Stacked()  # 1 + 3 expected is past 3: no guess begun
    assert checked.plan(table, random.Random(0)) == ["refresh", "take"] and table.guesses == 1
    checked.SEARCH_WORK, table = 4, _Stacked()  # one new guess (1 + 3), then none (4 + 2 is past 4)
    assert checked.plan(table, random.Random(0)) == ["take", "end"] and table.guesses == 2
    checked.SEARCH_WORK, table = 5, _Stacked()  # one (4 + 2 is past 5)
    assert checked.plan(table, random.Random(0)) == ["take", "end"] and table.guesses == 2
    checked.SEARCH_WORK, table = 6, _Stacked()  # two (4 + 2 is within 6)
    assert checked.plan(table, random.Random(0)) == ["take", "end"] and table.guesses == 3
    # a guess that takes more than expected is given up where the budget ends, and not counted
    checked.SEARCH_WORK, checked.check_cost, table = 5, 2, _Stacked()  # begun (1 + 3), then 1 + 2 + 2 reaches 5
    before = checked.positions
    assert checked.plan(table, random.Random(0)) == ["refresh", "take"] and table.guesses == 2
    assert checked.positions - before == 5
    assert checked.checks == 3 and unchecked.checks == 0
    with pytest.raises(ValueError, match="checks: -1 is not a whole number of guesses"):
        PlannerBot(evaluation, checks=-1)
    # the best of each verb is checked, then the next best: the variants of one kind crowd no other kind out
    firsts = ["refresh a 1", "refresh a 2", "refresh b 1", "take x", "refresh b 2", "buy extra", "take y"]
    assert check_candidates(firsts, 4) == ["refresh a 1", "refresh a 2", "take x", "buy extra"]
    assert check_candidates(firsts, 2) == ["refresh a 1", "take x", "buy extra"]


def test_the_planner_spec_takes_the_checks_and_a_real_game_is_played_by_them(pack):
    games, most = {}, {}
    for spec, budget in (("planner:default:4:1:first_actions", 0), ("planner:default:4:1:first_actions::::2", 0),
                         ("planner:default:4:1:first_actions::::2", None)):
        g = new_game(load_ruleset(pack), 1, seed=0)
        planner = make_bot(spec, g.rules)
        if budget is not None:
            planner.SEARCH_WORK = budget
        key = (planner.checks, budget)
        most[key] = 0
        while not g.is_terminal():
            before = planner.work_done(g)
            g.apply(planner.choose(g, random.Random(len(g.state.log))))
            most[key] = max(most[key], planner.work_done(g) - before)
        games[key] = g
    assert set(games) == {(0, 0), (2, 0), (2, None)}  # the spec's eighth option
    assert all(g.scores()[0]["score"] > 0 for g in games.values())
    # a planner that checks stops each decision where the work is spent, its turn's search included; one that
    # neither checks nor searches to the end searches as its spec asks, whatever the work
    assert 0 < most[(2, 0)] < most[(2, None)]
    assert most[(0, 0)] > most[(2, 0)]
    assert games[(0, 0)].state.log[:2] == ["prepare", "build"]  # its whole turn searched


def test_the_turns_to_the_end_are_given_up_once_the_decisions_work_is_spent(tmp_path):
    """PlannerBot.SEARCH_WORK bounds a decision by the machine's steps (work_done): past it the turns that
    ``end`` adds are given up and the planner plays the best plan of its own ``turns``; those a spec asks for
    are searched in full."""
    g = game_of(tmp_path, SEASONS, 1)
    g.apply("sell")  # 2 of the 3 rounds left: within ``end``, the last 2 turns are searched
    ending, two = make_bot("planner:default:6:1:top:::2", g.rules), make_bot("planner:default:6:2", g.rules)
    before = ending.work_done(g)
    assert ending.choose(g, random.Random(0)) == "plant"  # plant then reap, 6 coins, beats selling twice, 4
    spent = ending.work_done(g) - before
    assert spent > 0
    ending.SEARCH_WORK = two.SEARCH_WORK = 0
    before = ending.work_done(g)
    assert ending.choose(g, random.Random(0)) == "sell"  # no work left for the turn to the end: 2 coins now
    assert ending.work_done(g) - before < spent  # the turn ahead given up at its first position
    assert two.choose(g, random.Random(0)) == "plant"  # its spec's second turn is searched whatever the work
    ending.SEARCH_WORK = spent  # as much as the whole search took: it runs to its end
    assert ending.choose(g, random.Random(0)) == "plant"
