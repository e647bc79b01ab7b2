"""The effect machine on the bundled pack: resources, tracks, production, draws, triggers, decisions.

Each test builds a small state by hand (setup is the engine's job) and runs real content programs.
"""

import pytest

from interpreter.dsl import steps as S
from interpreter.runtime import natives as mechanisms
from interpreter.runtime.machine import Machine
from interpreter.runtime import zones as Z
from interpreter.runtime.tables import build_tables
from interpreter.runtime.view import View
from interpreter.errors import RulesError
from interpreter.content.ruleset import load_ruleset
from interpreter.runtime.state import GameState, PlayerState


@pytest.fixture(scope="module")
def tables():
    return build_tables(load_ruleset())


def new_state(tables, players=2, **holdings):
    ps = []
    for seat in range(players):
        p = PlayerState(seat, holdings={"gold": 2, "stone": 2, **holdings}, pieces_free={"cube": 2})
        p.tracks = {t: tt.positions[0] for t, tt in tables.tracks.items()}
        p.tracks.update({"gold_mine": 4, "quarry": 3, "technology": 0, "university": 0})
        ps.append(p)
    stacks = {}
    for (kind, rid), rec in tables.records.items():
        stack = getattr(rec, "stack", None)
        if stack:
            stacks.setdefault(stack, []).append(rid)
        if kind == "production_token" and rec.from_players <= players:
            stacks.setdefault("river", []).append(rid)
    zones = Z.empty(tables.zones.values(), players)  # every zone, the slotted ones with empty slots
    return GameState(players=ps, zones={**zones, **{k: tuple(v) for k, v in stacks.items()}})


def machine(tables) -> Machine:
    return Machine(tables, dict(mechanisms.OPS), dict(mechanisms.NATIVES))


def run_text(tables, state, key, player=0, answers=(), source="test"):
    m = machine(tables)
    m.start(state, key, player, source)
    m.run(state)
    for a in answers:
        assert state.decision is not None, "expected a decision"
        m.answer(state, a)
    return m


def action(name):
    return f"pack/actions/{name}/effect"


def test_ex3_produce_gold_with_marker_on_7(tables):
    s = new_state(tables)
    p = s.players[0]
    p.tracks["gold_mine"] = 7
    p.track_tokens = p.track_tokens.with_entry("gold_mine", ["points_2_a"])
    run_text(tables, s, action("mines"), answers=[1])  # option (b): produce
    assert s.decision is None and not s.frames
    assert p.holdings["gold"] == 8  # 2 + 6 mines
    assert p.breakdown == {"gold_mine:5": 1, "gold_mine:6": 1, "points_2_a": 2}  # 2 printed points + the token
    assert p.milestones == ("gold_6",) and p.holdings["silver_window"] == 1  # W-G6, reconstructed reward
    assert p.pieces_free["cube"] == 3


def test_ex4_produce_stone_with_marker_on_7(tables):
    s = new_state(tables, stone=0)
    p = s.players[0]
    p.tracks["quarry"] = 7
    p.track_tokens = p.track_tokens.with_entry("quarry", ["point_stone"])
    run_text(tables, s, action("quarries"), answers=[1])
    # the technology advance reaches space I: draw 3 technologies, keep one
    assert s.decision.kind == "keep" and len(s.decision.options) == 3
    kept = s.decision.options[1]
    others = [o for o in s.decision.options if o != kept]
    machine(tables).answer(s, 1)
    assert p.tracks["technology"] == 1 and p.owned["technology"] == [kept]
    assert s.zones["technology_i"][-2:] == tuple(others)  # the others to the bottom, in order
    assert p.holdings["stone"] == 7  # 6 quarries + 1 from the token
    assert p.score == 2 and p.breakdown == {"quarry:6": 1, "point_stone": 1}
    assert "stone_6" in p.milestones


def test_ex24_one_gain_can_trigger_two_wealth_bonuses(tables):
    s = new_state(tables, gold=5)
    p = s.players[0]
    p.tracks["gold_mine"] = 7
    run_text(tables, s, action("mines"), answers=[1])
    assert p.holdings["gold"] == 9  # 5 + 6 capped at 9
    assert p.milestones == ("gold_6", "any_9")
    assert p.pieces_free["cube"] == 4
    p.holdings["gold"] = 3
    run_text(tables, s, action("mines"), answers=[1])
    assert p.milestones == ("gold_6", "any_9")  # each bonus once per game


def test_expand_reaching_the_token_space_chooses_a_token_from_the_river(tables):
    s = new_state(tables)
    p = s.players[0]
    p.tracks["gold_mine"] = 5
    river = list(s.zones["river"])
    assert len(river) == 4  # the 2-player set
    run_text(tables, s, action("mines"), answers=[0])  # option (a): gain 1 gold and advance
    assert p.holdings["gold"] == 3 and p.tracks["gold_mine"] == 6
    assert s.decision.kind == "keep" and s.decision.options == river  # any token of the river
    machine(tables).answer(s, 2)
    assert p.track_tokens["gold_mine"] == [river[2]] and s.zones["river"] == tuple(river[:2] + river[3:])


def test_reaching_the_end_of_a_track_gives_a_seal_right(tables):
    s = new_state(tables)
    p = s.players[0]
    p.tracks["quarry"] = 7
    run_text(tables, s, action("quarries"), answers=[0])
    assert p.tracks["quarry"] == 8 and p.holdings["seal_right"] == 1


def test_ex26_advancing_at_the_top_scores_instead(tables):
    s = new_state(tables)
    p = s.players[0]
    p.tracks["technology"] = 8
    p.tracks["university"] = 8
    run_text(tables, s, "technologies/t3_scholarship/effect")  # advance university 4
    assert p.tracks["university"] == 8 and p.score == 8
    assert p.breakdown == {"test": 8}


def test_advancing_n_times_resolves_each_reach_effect_before_the_next(tables):
    s = new_state(tables)
    p = s.players[0]
    m = run_text(tables, s, "slot_row/br4_technology/effect")  # advance technology 3: spaces 1, 2, 3
    assert p.tracks["technology"] == 1 and s.decision.data["stack"] == "technology_i"
    m.answer(s, 0)
    assert p.tracks["technology"] == 2 and s.decision.data["stack"] == "technology_ii"
    m.answer(s, 2)
    assert p.tracks["technology"] == 3 and s.decision is None
    assert len(p.owned["technology"]) == 2


def test_ex14_seal_conversion_repeats_while_affordable(tables):
    s = new_state(tables, gold=5, stone=8)
    p = s.players[0]
    m = run_text(tables, s, "seals/seal_pairs/scoring")
    for _ in range(5):
        assert s.decision.kind == "repeat"
        m.answer(s, 0)
    assert s.decision is None  # a sixth pair cannot be paid: the loop ends by itself
    assert (p.score, p.holdings["gold"], p.holdings["stone"]) == (15, 0, 3)
    s2 = new_state(tables, gold=5, stone=8)
    m = run_text(tables, s2, "seals/seal_pairs/scoring", answers=[0, 0, 1])  # converting fewer is allowed
    assert (s2.players[0].score, s2.players[0].holdings["stone"]) == (6, 6)


def test_optional_payment_is_offered_only_when_affordable(tables):
    s = new_state(tables, gold=0)
    run_text(tables, s, "wheel/wheel/6/bonus")  # may pay 1 gold: gain 1 egg
    assert s.decision is None and s.players[0].holdings.get("egg", 0) == 0
    s = new_state(tables, gold=1)
    run_text(tables, s, "wheel/wheel/6/bonus", answers=[0])
    assert (s.players[0].holdings["gold"], s.players[0].holdings["egg"]) == (0, 1)


def test_choose_offers_readable_options(tables):
    s = new_state(tables)
    run_text(tables, s, action("mines"))
    assert s.decision.options == ["gain 1 gold; advance gold_mine", "produce gold_mine"]


def test_permanent_technologies_act_from_the_next_turn(tables):
    s = new_state(tables, egg=0)
    p = s.players[0]
    p.owned = p.owned.with_entry("technology", ["t2_egg_dealer"])
    p.acquired = p.acquired.with_entry("technology:t2_egg_dealer", 1)
    run_text(tables, s, "wheel/wheel/6/bonus", answers=[0])  # buy an egg in the turn it was gained
    assert p.score == 0
    s.turn = 2
    run_text(tables, s, "wheel/wheel/6/bonus", answers=[0])
    assert p.score == 1 and p.breakdown == {"t2_egg_dealer": 1}
    assert p.holdings["stone"] == 3  # +1 stone from the ability


def test_once_per_turn_triggers_fire_once_until_the_flags_are_cleared(tables):
    s = new_state(tables)
    p = s.players[0]
    p.owned = p.owned.with_entry("technology", ["t2_corners_red"])
    p.acquired = p.acquired.with_entry("technology:t2_corners_red", 0)
    m = machine(tables)
    for _ in range(2):
        m.emit(s, 0, "corner_token_gained", {"colour": "red"})
        m.run(s)
    assert p.score == 1
    m.emit(s, 0, "corner_token_gained", {"colour": "blue"})  # wrong colour: not this tile
    m.run(s)
    assert p.score == 1
    s.flags = ()  # the engine clears turn flags at the end of a turn
    m.emit(s, 0, "corner_token_gained", {"colour": "red"})
    m.run(s)
    assert p.score == 2


def test_bridge_tiles_kept_from_their_stack_run_their_effect(tables):
    s = new_state(tables)
    s.zones["bridge_iv"] = ("br4_hunger_wall", "br4_technology", "br4_cathedral")
    m = run_text(tables, s, "route/spaces/4/effects/kr_iv/effect")
    assert s.decision.kind == "keep"
    m.answer(s, 1)  # keep the technology tile; first it becomes a plank (R-ROAD-5)
    assert s.players[0].owned["bridge_tile"] == ["br4_technology"]
    assert s.zones["bridge_iv"] == ("br4_hunger_wall", "br4_cathedral")
    assert s.decision.kind == "plank" and s.decision.options == [f"plank_{i}" for i in range(1, 6)]
    m.answer(s, 1)  # plank_2 covers "gain 1 stone" and "score 2"; then the tile's own advance technology 3
    assert s.zones["bridge"] == (None, "br4_technology", None, None, None)  # the slot row's zone, slot by slot
    assert s.players[0].holdings["stone"] == 3 and s.players[0].breakdown == {"bridge:plank_2": 2}
    assert s.decision is not None and s.decision.data["stack"] == "technology_i"


def test_board_statements_need_the_engine(tables):
    s = new_state(tables)
    m = Machine(tables)  # a machine without the board mechanisms
    m.start(s, action("upgrade"), 0, "test")
    with pytest.raises(RulesError, match="needs the engine"):
        m.run(s)


def test_paying_more_than_held_is_refused(tables):
    s = new_state(tables, gold=0)
    m = Machine(tables)
    with pytest.raises(RulesError, match="cannot pay"):
        m._pay(s, type("F", (), {"player": 0})(), tables.programs["wheel/positions/0/cost"])


def test_state_with_a_pending_decision_round_trips_through_json(tables):
    s = new_state(tables, gold=5, stone=8)
    m = run_text(tables, s, "seals/seal_pairs/scoring", answers=[0])
    copy = GameState.from_json(s.to_json())
    assert copy == s and copy.to_json() == s.to_json()
    m.answer(copy, 0)
    m.answer(s, 0)
    assert copy == s and copy.players[0].score == 6


def test_view_reads_values_and_counts(tables):
    s = new_state(tables)
    p = s.players[0]
    p.tracks["gold_mine"] = 9
    p.owned = p.owned.with_entry("upgrade", ["upgrade_i_01", "upgrade_ii_01"])
    v = View(tables, s, 0)
    assert v.query("value", "gold_mine") == 8
    assert tables.programs["slot_row/br5_upgrades/scoring"].steps[0].points(v, None) == 6  # 3 per upgrade
    later = tables.programs["route/spaces/3/effects/kr_iii_main/effect"].steps[0]
    assert isinstance(later, S.Later) and later.body[0].points(v, None) == 3  # Era I only
    assert v.table("eggs", 7) == 10 and v.table("walls", 3) == 4


def test_use_any_lets_the_player_choose_the_record(tables):
    s = new_state(tables)
    s.table["plazas"] = {"plaza_o1": "plaza_points", "plaza_o2": "plaza_mines"}  # the tiles dealt onto the map
    m = run_text(tables, s, "technologies/t4_plaza_reward/effect")  # both rewards of one plaza
    assert s.decision.kind == "use" and s.decision.options == ["plaza_mines", "plaza_points"]  # the pack's order
    m.answer(s, s.decision.options.index("plaza_points"))  # upper: score 5, lower: score 3
    assert s.players[0].score == 8 and s.players[0].breakdown == {"plaza_points": 8}



def test_amounts_that_read_nothing_of_the_game_are_known_once(tables):
    """Constant costs are evaluated once (a probe with no game); costs that read the game are not."""
    from interpreter.dsl.compile import Compiler
    from interpreter.dsl.parse import parse
    from interpreter.dsl.resolve import Scope, resolve

    symbols = load_ruleset().symbols

    def amounts(text):
        node = parse(text, "amounts")
        res = resolve(node, symbols, Scope())
        return Compiler(symbols.members("resource"), symbols.members("group"), res.constants).amounts(node)

    m = machine(tables)
    fixed = tables.programs["setup/extra_action_costs/0"]
    assert m.constant(fixed) == (("gold_window", 2),)
    assert m.constant(amounts("1 gold, (2 + 1) stone")) == (("gold", 1), ("stone", 3))
    assert m.constant(amounts("(egg) stone")) is None
    assert m.constant(amounts("1 gold, (position(technology)) stone")) is None


def test_a_price_book_answers_every_constant_price_at_once():
    """Constant prices get a bit each (the same amounts share one); a price that reads the game gets
    none. The mask follows the holdings, also when holdings seen before come back."""
    from interpreter.dsl.compile import Compiler
    from interpreter.dsl.parse import parse
    from interpreter.dsl.resolve import Scope, resolve
    from interpreter.runtime.prices import PriceBook

    symbols = load_ruleset().symbols

    def amounts(text):
        node = parse(text, "amounts")
        res = resolve(node, symbols, Scope())
        return Compiler(symbols.members("resource"), symbols.members("group"), res.constants).amounts(node)

    book = PriceBook()
    one_gold, gold_and_stone = book.bit(amounts("1 gold")), book.bit(amounts("1 gold, 2 stone"))
    nothing = book.bit(amounts("0 gold"))
    assert (one_gold, gold_and_stone, nothing) == (0, 1, 2)
    assert book.bit(amounts("(2 - 1) gold")) == one_gold
    assert book.bit(amounts("(egg) stone")) is None
    assert book.payable({}) == 0b100  # a price of nothing is always paid
    assert book.payable({"gold": 1, "stone": 1}) == 0b101
    assert book.payable({"gold": 1, "stone": 2, "egg": 9}) == 0b111
    assert book.payable({"gold": 0, "stone": 5}) == 0b100
    assert book.payable({"gold": 1, "stone": 1}) == 0b101  # remembered


def _with_programs(tables, texts: dict[str, str]):
    """The tables with extra programs compiled from effect texts (resolved against the pack)."""
    import dataclasses

    from interpreter.dsl.compile import Compiler
    from interpreter.dsl.parse import parse
    from interpreter.dsl.resolve import resolve

    symbols = load_ruleset().symbols
    programs = dict(tables.programs)
    for key, text in texts.items():
        ast = parse(text)
        res = resolve(ast, symbols)
        assert not res.errors, res.errors
        compiler = Compiler(symbols.members("resource"), symbols.members("group"), res.constants, res.attributes)
        programs[key] = compiler.program(ast, text)
    return dataclasses.replace(tables, programs=programs)


def test_a_computed_amount_below_zero_is_nothing(tables):
    # a negative constant amount is refused by validation (E319); one computed at run time counts as 0
    t = _with_programs(tables, {"test/pay": "pay (gold - 5) gold, (stone - 1) stone",
                                "test/gain": "gain (gold - 5) gold, (stone + 1) stone"})
    s = new_state(t)  # 2 gold, 2 stone
    p = s.players[0]
    run_text(t, s, "test/pay")
    assert (p.holdings["gold"], p.holdings["stone"]) == (2, 1)
    run_text(t, s, "test/gain")
    assert (p.holdings["gold"], p.holdings["stone"]) == (2, 3)
