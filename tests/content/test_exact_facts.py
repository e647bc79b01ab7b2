"""Every value RULES.md or COMPONENTS.md gives as EXACT is encoded exactly in content/praga.

Effects are compared as ASTs (parsed DSL), so formatting may change but meaning may not.
"""

from collections import Counter

import pytest

from interpreter.dsl import ast as A
from interpreter.dsl.parse import parse
from interpreter.dsl.printer import to_text
from interpreter.content.ruleset import load_ruleset


@pytest.fixture(scope="module")
def rs():
    return load_ruleset()


def same(text_a: str, text_b: str, start: str = "program") -> bool:
    return parse(text_a, start) == parse(text_b, start)


def track(rs, tid):
    return next(t for t in rs.single("tracks").tracks if t.id == tid)


def table_points(rs, table_id: str, n: int) -> int:
    table = next(t for t in rs.single("scoring").tables if t.id == table_id)
    return max((s for s in table.steps if s.min <= n), key=lambda s: s.min).points


# ------------------------------------------------------------------ tracks (COMPONENTS §2, R-TRACK, R-TECH, R-CU)

def test_track_starts(rs):
    assert {t: track(rs, t).start for t in ("gold_mine", "quarry", "technology", "university")} == {
        "gold_mine": 4, "quarry": 3, "technology": 0, "university": 0}


@pytest.mark.parametrize("tid, first, last, at_last, token_space", [("gold_mine", 1, 9, 8, 6), ("quarry", 1, 8, 7, 5)])
def test_mine_and_quarry_tracks(rs, tid, first, last, at_last, token_space):
    t = track(rs, tid)
    spaces = {s.n: s for s in t.spaces}
    assert (min(spaces), max(spaces)) == (first, last)
    assert all(s.value == s.n - 1 for s in t.spaces)  # capacity = highest number left of the marker
    assert spaces[7].value == 6 and spaces[last].value == at_last
    # the production-token space: choose a token from the river for this track
    assert same(spaces[token_space].on_reach, f"draw all from river keep 1 to {tid}")
    assert [s.n for s in t.spaces if s.on_reach and "river" in s.on_reach] == [token_space]
    # the seal right at the end of the track, and nowhere else
    assert [s.n for s in t.spaces if s.on_reach and "seal_right" in s.on_reach] == [last]
    assert same(spaces[last].on_reach, "gain 1 seal_right")


def _production_left_of(rs, tid, marker):
    points, advances = 0, Counter()
    for s in track(rs, tid).spaces:
        if s.n < marker and s.production:
            for stmt in parse(s.production).items:
                if isinstance(stmt, A.Score):
                    points += stmt.points.value
                elif isinstance(stmt, A.Advance):
                    advances[stmt.track.text] += 1
    return points, dict(advances)


def test_production_bonuses_left_of_space_7(rs):
    assert _production_left_of(rs, "gold_mine", 7) == (2, {})  # EX-3: 2 points
    assert _production_left_of(rs, "quarry", 7) == (1, {"technology": 1})  # EX-4: 1 technology + 1 point


def test_technology_track(rs):
    t = track(rs, "technology")
    marks = {s.label: s.n for s in t.spaces if s.label}
    assert marks["IV"] == 6  # EX-12
    assert set(marks) == {"I", "II", "III", "IV"}
    for label, stack in (("I", "technology_i"), ("II", "technology_ii"), ("III", "technology_iii"), ("IV", "technology_iv")):
        space = next(s for s in t.spaces if s.label == label)
        assert same(space.on_reach, f"draw 3 from {stack} keep 1")  # R-TECH-2
    assert same(t.beyond_top, "score 2")  # R-TECH-6


def test_university_track(rs):
    t = track(rs, "university")
    values = {s.n: s.value for s in t.spaces}
    assert max(values) == 8
    assert [values[h] for h in (0, 1, 2)] == [0, 0, 0] and values[8] == 3  # R-CU-4
    assert same(t.beyond_top, "score 2")  # R-CU-3


# ------------------------------------------------------------------ resources and setup

def test_resource_caps_and_start(rs):
    pack = rs.single("pack")
    caps = {r.id: r.cap for r in pack.resources}
    assert caps["gold"] == caps["stone"] == 9 and caps["egg"] is None  # R-RES-1, R-RES-2
    assert same(rs.single("setup").start_holdings, "2 gold, 2 stone", "amounts")  # R-SETUP-PLAYER-4
    assert next(p for p in pack.pieces if p.id == "cube").per_player == 11  # R-COMP-3


def test_turns_and_era_changes_by_player_count(rs):
    flow = rs.single("flow")
    assert flow.rounds == 16 and [(p.kind, p.turns_each) for p in flow.phases] == [("turns", 1)]  # R-TURN-5
    assert {e.players: e.after_turn for e in flow.era_changes} == {1: 16, 2: 16, 3: 26, 4: 31}  # R-ERA-1, EX-11
    assert {s.players: s.seats for s in flow.seatings} == {1: 2, 2: 2, 3: 3, 4: 4}  # solo: the dummy's seat (R-SOLO-1)
    assert flow.automatic_turn == "return_farthest_offer"  # R-SOLO-2
    assert {s.players: s.seats * flow.rounds for s in flow.seatings} == {1: 32, 2: 32, 3: 48, 4: 64}  # R-ROUND-2


def test_windows_and_extra_action(rs):
    setup = rs.single("setup")
    assert setup.carry_limit == 2 and setup.carry_group == "window"  # R-WIN-3
    assert sorted(setup.extra_action_costs) == sorted(["2 gold_window", "1 gold_window, 1 silver_window"])  # R-EXTRA-1
    for row in setup.rows:
        assert (row.regular, row.special) == (3, 1)  # R-ROW-1
        assert sorted(row.refresh_cost) == ["1 gold", "1 stone"]  # R-ROW-5


# ------------------------------------------------------------------ crane (COMPONENTS §1)

def test_crane_geometry(rs):
    crane = rs.single("wheel")
    zones = Counter(p.zone for p in crane.positions)
    assert len(crane.positions) == len(crane.wheel) == 12
    assert zones["red"] == 4 and zones["green"] == 3 and sum(p.overflow_target for p in crane.positions) == 3
    assert crane.positions[0].zone == "red"  # R-CRANE-1: position 0 is the red entry
    blues = [p for p in crane.positions if p.zone == "blue"]
    assert blues[-1].points == 5  # R-CRANE-2
    assert crane.overflow_points == 5  # R-EOT-3
    assert sum(s.box for s in crane.wheel) == 1
    assert len(crane.tiles) == 6


# ------------------------------------------------------------------ projects (§10, COMPONENTS §3)

def test_project_grids(rs):
    grids = {g.id: g for g in rs.single("projects").grids}
    hw, cat = grids["hunger_wall"], grids["cathedral"]
    assert (hw.sideways, cat.sideways) == ("left", "right")  # R-PROJ-3
    assert (hw.multiplies, cat.multiplies) == ("blue_token", "red_token")  # R-SCORE-4
    for g in (hw, cat):
        assert same(g.up_cost, "2 silver_window", "amounts")  # R-PROJ-4
        for ts in g.tier_sets:
            assert len(ts.tiers) == 3
            assert ts.tiers[0].enter_cost is None
            assert same(ts.tiers[1].enter_cost, "1 gold, 1 stone", "amounts")
            assert same(ts.tiers[2].enter_cost, "1 gold, 2 stone", "amounts")
    rows = [r for t in hw.tier_sets[0].tiers for r in t.rows]
    assert hw.start == [1, max(rows[0].cols)]  # bottom-right
    cat_rows = [r for t in next(s for s in cat.tier_sets if s.id == "original").tiers for r in t.rows]
    assert cat.start == [1, min(cat_rows[0].cols)]  # bottom-left
    assert cat_rows[-1].value == 13 and cat.columns[3] == 3  # EX-13
    assert len({ts.id for ts in hw.tier_sets}) == len({ts.id for ts in cat.tier_sets}) == 3


def test_cathedral_squares_of_ex_8(rs):
    cat = next(g for g in rs.single("projects").grids if g.id == "cathedral")
    tiers = next(s for s in cat.tier_sets if s.id == "original").tiers
    rows = [r for t in tiers for r in t.rows]
    row2 = {s.col: s.effect for s in rows[1].squares}
    row3 = {s.col: s.effect for s in rows[2].squares}
    assert same(row2[3], "may move cathedral up discount 2 silver_window")  # S1: up arrow, still tier I
    assert len(tiers[0].rows) == 2  # S2 (row 3) is in tier II
    assert same(row3[4], "score 2")  # S3


# ------------------------------------------------------------------ scoring tables (R-SCORE-5, R-SCORE-7, EX-16)

@pytest.mark.parametrize("n, points", [(0, 0), (2, 0), (3, 4), (4, 10), (5, 10), (6, 18), (9, 18)])
def test_walls_table(rs, n, points):
    assert table_points(rs, "walls", n) == points


@pytest.mark.parametrize("n, points", [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (7, 10)])
def test_eggs_table(rs, n, points):
    assert table_points(rs, "eggs", n) == points


def test_final_scoring_order(rs):
    steps = [s.id for s in rs.single("scoring").final]
    assert steps == ["open_plazas", "academics", "projects", "walls", "abilities", "eggs"]  # R-SCORE-1..7
    academics = next(s for s in rs.single("scoring").final if s.id == "academics")
    assert same(academics.effect, "score position(technology) * value(university)")


# ------------------------------------------------------------------ seals, bridge V, technologies III and IV

def test_seal_effects(rs):
    seals = {s.id: s for s in rs.records("seal")}
    assert len(seals) == 5
    assert same(seals["seal_gold"].scoring, "repeat: may pay 1 gold: score 2")  # SEAL-1
    assert same(seals["seal_stone"].scoring, "repeat: may pay 1 stone: score 2")  # SEAL-2
    assert same(seals["seal_pairs"].scoring, "repeat: may pay 1 gold, 1 stone: score 3")  # SEAL-3, EX-14
    assert same(seals["seal_points"].scoring, "score 6") and seals["seal_points"].cost is None
    for sid in ("seal_gold", "seal_stone"):
        assert same(seals[sid].cost, "2 silver_window", "amounts")


GOLD_V = {
    "br5_university": ("score 3", "score position(university)"),
    "br5_upgrades": (None, "score 3 * count(upgrade)"),
    "br5_walls": (None, "score 2 * count(wall)"),
    "br5_gold_mines": ("score 3", "score value(gold_mine)"),
    "br5_quarries": ("score 3", "score value(quarry)"),
    "br5_projects": (None, "score 2 * row(hunger_wall) + 2 * row(cathedral)"),
}


def test_the_six_gold_v_tiles(rs):
    v = {t.id: t for t in rs.records("bridge_tile") if t.stack == "bridge_v"}
    assert set(v) == set(GOLD_V)
    for tid, (now, end) in GOLD_V.items():
        assert (v[tid].effect is None) == (now is None)
        if now:
            assert same(v[tid].effect, now)
        assert same(v[tid].scoring, end)


TECH_III_IV = {
    "T-III-1": "gain 1 egg; if position(kings_road) < 5: perform kings_road",  # OPEN-33
    "T-III-2": "choose { move hunger_wall up free | move cathedral up free }",
    "T-III-3": "advance university 4",
    "T-III-4": "perform upgrade; score 3",
    "T-III-5": "produce gold_mine; gain 2 stone",
    "T-III-6": "produce quarry; gain 2 gold",
    "T-IV-1": "perform building discount 2 gold",
    "T-IV-2": "perform wall discount 2 stone",
    "T-IV-3": "perform any",
    "T-IV-4": "perform upgrade; gain 1 gold_window",
    "T-IV-5": "use upper and lower of any plaza",
    "T-IV-6": "choose { advance gold_mine | advance quarry }; choose { produce gold_mine | produce quarry }",
}


def test_technologies(rs):
    techs = rs.records("technology")
    assert Counter(t.level for t in techs) == {1: 6, 2: 6, 3: 6, 4: 6}
    assert all((t.use == "permanent") == (t.level <= 2) for t in techs)  # R-TECH-4, R-TECH-5
    by_source = {t.source.split()[0]: t for t in techs if t.level >= 3}
    assert set(by_source) == set(TECH_III_IV)
    for rule, text in TECH_III_IV.items():
        assert same(by_source[rule].effect, text), rule
    for t in techs:
        if t.level <= 2:  # permanent abilities act from the next turn
            trig = parse(t.effect).items[0]
            assert isinstance(trig, A.Trigger) and trig.from_next.text == "turn"


# ------------------------------------------------------------------ production tokens (COMPONENTS §7.2)

def test_production_token_sets_by_player_count(rs):
    tokens = rs.records("production_token")
    assert len(tokens) == 8

    def in_play(players):
        return Counter(to_text(parse(t.bonus)) for t in tokens if t.from_players <= players)

    def canon(*texts):
        return Counter(to_text(parse(x)) for x in texts)

    two = canon("score 2", "score 2", "score 1; gain 1 gold", "score 1; gain 1 stone")
    assert in_play(1) == in_play(2) == two
    assert in_play(3) == two + canon("gain 1 gold", "gain 1 stone")
    assert sum(in_play(4).values()) == 8


# ------------------------------------------------------------------ King's Road, plazas, wealth (§5.6, §20)

def test_kings_road(rs):
    road = rs.single("route")
    spaces = {s.n: s for s in road.spaces}
    assert sorted(spaces) == [0, 1, 2, 3, 4, 5]
    for n in (4, 5):
        assert same(spaces[n].enter_cost, "1 egg", "amounts")  # R-ROAD-4, R-ROAD-6
    assert same(spaces[4].effects[0].effect, "draw 3 from bridge_iv keep 1")  # R-ROAD-5
    assert same(spaces[5].effects[0].effect, "draw all from bridge_v keep 1")  # R-ROAD-7
    texts = [parse(e.effect) for n in (1, 2, 3) for e in spaces[n].effects]
    # street effects are resolved at any moment of the turn (R-ROAD-3, DIFF-20)
    assert parse("later: score 3 * count(upgrade where era == 1)") in texts  # KR-1
    assert parse("later: may pay 1 gold: score 4") in texts  # KR-2
    assert all(t.items and type(t.items[0]).__name__ == "Later" for t in texts)
    faces = {t.id: t for t in road.replacement_tiles}
    assert len({t.tile for t in faces.values()}) == 3  # three physical tiles
    assert same(faces["krt_ii_silver_windows"].effect, "later: score 2 * silver_window")  # KRT-1


def test_plaza_plz_1(rs):
    plz = next(p for p in rs.records("plaza") if p.id == "plaza_sideways_gold")
    assert same(plz.upper, "choose { later: move hunger_wall sideways | later: move cathedral sideways }")
    assert same(plz.lower, "gain 3 gold")


def test_wealth_bonus_triggers(rs):
    bonuses = {b.id: b for b in rs.records("wealth_bonus")}
    assert same(bonuses["gold_6"].when, "gold >= 6", "condition")
    assert same(bonuses["stone_6"].when, "stone >= 6", "condition")
    assert same(bonuses["any_9"].when, "gold >= 9 or stone >= 9", "condition")
    assert all(b.piece == "cube" for b in bonuses.values())
