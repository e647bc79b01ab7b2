"""The engine, part 1: setup, the turn menu, transactions, end of turn, final scoring, random games."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.mechanisms import wheel as crane
from interpreter.runtime.game import Game, new_game
from interpreter.errors import IllegalActionError
from interpreter.content.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def rs():
    return load_ruleset()


@pytest.mark.parametrize("players, river", [(1, 4), (2, 4), (3, 6), (4, 8)])
def test_setup_from_content(rs, players, river):
    g = new_game(rs, players, seed=3)
    s = g.state
    assert len(s.players) == (2 if players == 1 else players)  # solo adds the dummy seat
    for p in s.players:
        assert p.holdings == {"gold": 2, "stone": 2} and p.pieces_free == {"cube": 2}
        assert (p.tracks["gold_mine"], p.tracks["quarry"], p.tracks["technology"], p.tracks["university"]) == (4, 3, 0, 0)
        assert p.grids == {"hunger_wall": [1, 6], "cathedral": [1, 1]}
    assert len(s.zones["river"]) == river
    assert sorted(len(s.zones[f"technology_{n}"]) for n in ("i", "ii", "iii", "iv")) == [6, 6, 6, 6]
    positions = [pos for pos, _ in crane.tiles_by_position(crane.from_json(s.table["crane"]))]
    geometry = g.rules.geometry
    assert len(positions) == 6 and all(geometry.points[p] == 0 and geometry.rest[p] for p in positions)
    assert (s.turn, s.current, g.current_player) == (1, 0, 0)


def test_the_seed_decides_the_shuffles(rs):
    a, b, c = new_game(rs, 2, seed=1), new_game(rs, 2, seed=1), new_game(rs, 2, seed=2)
    assert a.state.zones == b.state.zones and a.state.zones != c.state.zones


def test_judging_the_crane_tiles_leaves_the_state_as_it_was(rs, monkeypatch):
    """Whether a tile's actions can be performed once its price is paid is judged with a paying copy
    of the player standing in the state's list of players (LegalActions._verdict_as): afterwards the
    state holds its own players again, owns none it did not own, and reads as before."""
    from interpreter.runtime.legal import LegalActions

    payers = []
    payer = LegalActions._payer
    monkeypatch.setattr(LegalActions, "_payer", lambda self, paid: payers.append(payer(self, paid)) or payers[-1])
    g, rng = new_game(rs, 4, 5), random.Random(5)
    while not g.is_terminal() and len([p for p in payers if p is not None]) < 10:
        s = g.state
        players, own, text = list(s.players), s._own, s.to_json()
        actions = g.legal_actions()
        assert all(a is b for a, b in zip(s.players, players)) and s.to_json() == text
        assert s._own | own == own  # it owns no player it did not own (tries on copies may share some since)
        g.apply(rng.choice(actions))
    assert len([p for p in payers if p is not None]) >= 10  # the paying copies were made and judged with


def test_a_red_tile_needs_its_cost_paid_first(rs):
    g = new_game(rs, 2)
    cs = crane.from_json(g.state.table["crane"])
    costs = {tile: g.rules.geometry.costs[pos] for pos, tile in crane.tiles_by_position(cs)}
    takeable = {a.split()[1] for a in g.legal_actions() if a.startswith("take ")}
    assert {t for t, c in costs.items() if c == "3 gold"} and not takeable & {t for t, c in costs.items() if c == "3 gold"}
    assert takeable == {t for t, c in costs.items() if c != "3 gold"}


def test_an_illegal_action_raises_and_changes_nothing(rs):
    g = new_game(rs, 2)
    before = g.state.to_json()
    with pytest.raises(IllegalActionError) as info:
        g.apply("act mines")  # no tile taken yet
    assert info.value.reason.startswith("take an action tile first")
    assert g.state.to_json() == before
    with pytest.raises(IllegalActionError):
        g.apply("end")
    assert g.state.to_json() == before


def _tile_with(g, action):
    cs = crane.from_json(g.state.table["crane"])
    for pos, tile in crane.tiles_by_position(cs):
        if action in g.rules.tile_actions[tile] and f"take {tile}" in g.legal_actions():
            return tile, pos
    raise AssertionError(action)


def test_a_whole_turn_take_act_choose_end(rs):
    g = new_game(rs, 2)
    tile, pos = _tile_with(g, "mines")
    gold = g.state.players[0].holdings["gold"]
    cost = g.rules.geometry.costs[pos]
    g.apply(f"take {tile}")
    paid = int(cost.split()[0]) if cost else 0
    assert "act mines" in g.legal_actions() and "end" not in g.legal_actions()  # the main action must be done
    g.apply("act mines")
    assert g.state.decision.options == ["gain 1 gold; advance gold_mine", "produce gold_mine"]
    g.apply("choose 2")  # produce: 3 mines
    p = g.state.players[0]
    assert p.holdings["gold"] >= gold - paid + 3  # the wheel bonus may add more
    g.apply("end")
    assert (g.state.turn, g.state.current) == (2, 1)
    assert crane.position_of(crane.from_json(g.state.table["crane"]), tile) == 0  # returned to the entry
    assert g.state.turn_info == {}


def test_the_carry_limit_is_enforced_at_the_end_of_the_turn(rs):
    g = new_game(rs, 2)
    tile, _ = _tile_with(g, "mines")
    g.apply(f"take {tile}")
    g.apply("act mines")
    g.apply("choose 2")
    g.state.players[0].holdings.update({"silver_window": 2, "gold_window": 2})
    g.apply("end")
    assert g.legal_actions() == ["discard gold_window", "discard silver_window"]
    while g.state.current == 0:  # one at a time, the player's choice, down to the limit (R-WIN-3)
        g.apply("discard gold_window" if g.state.players[0].holdings["gold_window"] else "discard silver_window")
    p = g.state.players[0]
    assert p.holdings["gold_window"] + p.holdings["silver_window"] == 2 and g.state.turn == 2


def test_an_unused_special_tile_right_scores_its_points(rs):
    g = new_game(rs, 2)
    geometry = g.rules.geometry
    cs = crane.from_json(g.state.table["crane"])
    special = [(pos, t) for pos, t in crane.tiles_by_position(cs)
               if (geometry.bonuses[crane._slot_of(cs, t)] or "").startswith("grant") and f"take {t}" in g.legal_actions()]
    if not special:
        pytest.skip("no special-tile slot under a takeable tile at setup")
    pos, tile = special[0]
    points = int(geometry.bonuses[crane._slot_of(cs, tile)].split()[-1])
    g.apply(f"take {tile}")
    acts = [a for a in g.legal_actions() if a.startswith("act ")]
    if acts:
        g.apply(acts[0])
        while g.state.decision is not None:
            g.apply("choose 1")
    before = g.state.players[0].score
    g.apply("end")
    assert g.state.players[0].score == before + points
    assert g.state.players[0].breakdown.get("wheel_bonus", 0) >= points


def play_random(rs, players, seed, check_each=True):
    g = new_game(rs, players, seed=seed)
    rng = random.Random(seed * 7 + players)
    while not g.is_terminal():
        acts = g.legal_actions()
        assert acts, (players, seed, g.state.turn)
        g.apply(rng.choice(acts))
        if check_each:
            for p in g.state.players:
                assert all(v >= 0 for v in p.holdings.values()), p.holdings
                assert p.holdings.get("gold", 0) <= 9 and p.holdings.get("stone", 0) <= 9
    return g


def test_turns_per_seat_and_final_scoring_steps(rs):
    g = play_random(rs, 3, 5, check_each=False)
    assert g.state.log.count("end") + sum(1 for a in g.state.log if a.startswith("discard")) >= 48 - 16
    for s in g.scores():
        assert {"academics", "projects", "walls", "eggs"} <= set(s["breakdown"])


def test_json_round_trip_mid_game_and_observation_hides_stacks(rs):
    g = new_game(rs, 2, seed=9)
    tile, _ = _tile_with(g, "mines")
    g.apply(f"take {tile}")
    g.apply("act mines")
    copy = Game.from_json(rs, g.to_json())
    assert copy.state == g.state and copy.legal_actions() == g.legal_actions()
    obs = g.observation(1)
    assert obs["zones"]["technology_i"] == {"size": 6}  # a hidden zone: its size only
    assert obs["zones"]["river"] == list(g.state.zones["river"])  # a public one: its records
    assert "rng" not in obs and "seed" not in obs["table"]


def test_the_same_seed_plays_the_same_game_whatever_the_hash_seed():
    code = ("import random; from interpreter.content.ruleset import load_ruleset; from interpreter.runtime.game import new_game\n"
            "g = new_game(load_ruleset(), 3, seed=11); r = random.Random(11)\n"
            "while not g.is_terminal(): g.apply(r.choice(g.legal_actions()))\n"
            "print(g.to_json())")
    outs = []
    for hashseed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        outs.append(subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                                   check=True).stdout)
    assert outs[0] == outs[1] and json.loads(outs[0])["state"]["table"]["over"]


def test_claiming_a_seal_uses_a_right_and_pays_its_cost(rs):
    g = new_game(rs, 2)
    p = g.state.players[0]
    assert not [a for a in g.legal_actions() if a.startswith("seal ")]
    p.holdings.update({"seal_right": 1, "silver_window": 1})
    g.invalidate()  # the state was edited by hand
    seals = {a for a in g.legal_actions() if a.startswith("seal ")}
    assert seals == {"seal seal_points", "seal seal_eggs"}  # the others cost 2 silver windows
    p.holdings["silver_window"] = 2
    g.invalidate()
    g.apply("seal seal_gold")
    p = g.state.players[0]
    assert (p.holdings["seal_right"], p.holdings["silver_window"], p.owned["seal"]) == (0, 0, ["seal_gold"])
    g.state.current = 1
    g.state.players[1].holdings.update({"seal_right": 1, "silver_window": 2})
    g.invalidate()
    assert "seal seal_gold" not in g.legal_actions() and "seal seal_stone" in g.legal_actions()  # one player per seal


def test_the_six_v_tiles_are_split_into_two_stacks_of_three(rs):
    s = new_game(rs, 2, seed=5).state
    assert len(s.zones["bridge_v"]) == len(s.zones["cathedral_v"]) == 3
    assert sorted(s.zones["bridge_v"] + s.zones["cathedral_v"]) == sorted(
        t.id for t in rs.records("bridge_tile") if t.stack == "bridge_v")


@pytest.mark.parametrize("players, plazas, prefilled", [(1, 8, 6), (2, 8, 6), (3, 9, 3), (4, 10, 0)])
def test_rows_plazas_and_prefilled_sites_at_setup(rs, players, plazas, prefilled):
    s = new_game(rs, players, seed=8).state
    for kind in ("upgrade", "wall", "building"):
        row = {"regular": list(s.zones[f"{kind}_row"][:3]), "special": list(s.zones[f"{kind}_row"][3:])}
        assert len(row["special"]) == 1 and None not in row["regular"] + row["special"]
        eras = {tile.split("_")[1] for tile in row["regular"] + row["special"]}
        assert eras == {"i"}  # Era I tiles only
        assert all("_s" in t for t in row["special"]) and not any("_s" in t for t in row["regular"])
    assert len(s.table["plazas"]) == plazas and len(set(s.table["plazas"].values())) == plazas
    assert len(s.table["city"]) == prefilled
    assert all(v["owner"] is None and v["tile"].startswith("building_i_") for v in s.table["city"].values())


def test_ex30_refresh_a_row_once_per_turn(rs):
    g = new_game(rs, 2, seed=3)
    row = g.state.zones["wall_row"]
    regular2, special = row[1], row[3]
    next_regular = g.state.zones["wall_1_regular"][0]
    next_special = g.state.zones["wall_1_special"][0]
    g.apply("refresh wall 2,4 pay 2")  # pay 1 stone; the second regular tile and the special tile
    p, row = g.state.players[0], g.state.zones["wall_row"]
    assert p.holdings["stone"] == 1
    assert (row[1], row[3]) == (next_regular, next_special)
    assert g.state.zones["wall_1_regular"][-1] == regular2 and g.state.zones["wall_1_special"][-1] == special
    assert not [a for a in g.legal_actions() if a.startswith("refresh")]  # once per turn
    assert "refresh wall 4,2 pay 1" not in g.legal_actions()


def test_the_era_change_deals_era_ii_rows(rs):
    g = new_game(rs, 2, seed=1)
    rng = random.Random(1)
    while g.state.turn <= 16:
        g.apply(rng.choice(g.legal_actions()))
    assert g.state.table["era"] == 2
    for kind in ("upgrade", "wall", "building"):
        assert all(t.split("_")[1] == "ii" for t in g.state.zones[f"{kind}_row"])
    assert all(g.state.zones[f"{row.kind}_1_{q}"] == () for row in g.rules.setup.rows for q in ("regular", "special"))


def test_a_ruleset_loaded_with_a_variant_sets_up_its_game(rs):
    b_side = ROOT / "content" / "praga" / "variants" / "crane_b.yaml"
    g = new_game(load_ruleset(rs.root, [b_side]), 2, seed=1)
    assert g.rules.tile_actions["tile_building_mines"] == ("building", "kings_road")
    assert new_game(rs, 2, seed=1).rules.tile_actions["tile_building_mines"] == ("building", "mines")


@pytest.mark.parametrize("scores, winner", [
    ([10, 30, 20, 30], 4),  # EX-17: seats 2 and 4 tie -> seat 4
    ([30, 10, 30, 20], 3),  # seats 1 and 3 tie -> seat 3
    ([30, 30, 30, 20], 3),  # seats 1, 2 and 3 tie -> seat 3
    ([40, 10], 1),
    ([40], None),  # solo: no winner, only the score (R-TIE-3)
])
def test_ex17_ties_go_to_the_latest_seat(scores, winner):
    from interpreter.runtime.game import winner_of

    assert winner_of(scores) == winner


def test_a_finished_game_names_its_winner(rs):
    g = play_random(rs, 3, 2, check_each=False)
    scores = [s["score"] for s in g.scores()]
    assert g.winner() == max(i for i, s in enumerate(scores, 1) if s == max(scores))
    assert play_random(rs, 1, 2, check_each=False).winner() is None
    assert new_game(rs, 2).winner() is None


def test_a_row_set_by_hand_changes_the_refresh_offers(rs):
    """Refresh offers are remembered per row; a scenario that empties a row position by hand gives the row's
    zone new contents (a zone is a tuple, never changed in place), so the offers follow."""
    from interpreter.play.scenario import write_state

    g = new_game(rs, 2, seed=3)
    assert "refresh wall 1,2 pay 1" in g.legal_actions()
    before = g.state.clone()  # shares the row with the game
    write_state(g, "zones.wall_row.regular_1", None)
    g.invalidate()
    offers = [a for a in g.legal_actions() if a.startswith("refresh wall")]
    assert offers and not any(" 1," in a or ",1 " in a for a in offers)
    assert before.zones["wall_row"][0] is not None and g.state.zones["wall_row"][0] is None  # the copy kept its own row
