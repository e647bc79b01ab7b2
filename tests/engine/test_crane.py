"""The action crane: setup, taking, rotation, double rotation, overflow (R-CRANE, R-EOT, R-SOLO-2)."""

import json
import random

import pytest

from interpreter.mechanisms import wheel as crane
from interpreter.errors import RulesError
from interpreter.content.model.boards import WheelFile
from interpreter.content.ruleset import load_ruleset

N = 12


def fixture_model(**changes) -> WheelFile:
    """EX-22's geometry: RED 0-3 (costs), GREEN 4-6 (overflow targets), BLUE 7-10 (1, 2, 3, 5), 11 never rests."""
    positions = (
        [{"zone": "red", "cost": f"{c} gold"} for c in (3, 2, 1, 1)]
        + [{"zone": "green", "overflow_target": True}] * 3
        + [{"zone": "blue", "points": p} for p in (1, 2, 3, 5)]
        + [{"zone": "green_single", "rest": False}]
    )
    wheel = [{"box": True}] + [{"bonus": f"score {k}"} for k in range(1, N)]
    tiles = [{"id": f"t{i}", "a": {"actions": ["x", "y"]}, "b": {"actions": ["x", "y"]},
              "provenance": "reconstructed", "source": "EX-22"} for i in range(1, 7)]
    data = {"kind": "wheel", "id": "crane", "provenance": "reconstructed", "source": "EX-22", "positions": positions,
            "wheel": wheel, "rotations": [{"players": 2, "box_at": 10}], "overflow_points": 5, "tiles": tiles,
            "first_game_order": [t["id"] for t in tiles]}
    data.update(changes)
    return WheelFile.model_validate(data)


@pytest.fixture(scope="module")
def geo():
    return crane.build_geometry(fixture_model())


@pytest.fixture(scope="module")
def bundled():
    return load_ruleset().single("wheel")


def state(box: int, tiles: dict[int, str], flagged=()) -> crane.WheelState:
    """A crane state from the box position and {position: tile}."""
    slots = [None] * N
    for position, tile in tiles.items():
        slots[(position - box) % N] = tile
    return crane.WheelState(box, tuple(slots), tuple(sorted(flagged)))


def layout(s: crane.WheelState) -> dict[int, str]:
    return dict(crane.tiles_by_position(s))


def play_turn(geo, s, tile):
    s, info = crane.take(geo, s, tile)
    return crane.end_of_turn(geo, s, tile), info


# ---------------------------------------------------------------- geometry


def test_geometry_compiles_positions_wheel_and_fallback(geo):
    assert geo.size == N
    assert geo.overflow_targets == (4, 5, 6)
    assert geo.fallback == 3  # the highest resting position below the first overflow target
    assert geo.rest == (True,) * 11 + (False,)
    assert geo.points == (0,) * 7 + (1, 2, 3, 5, 0)
    assert geo.costs[:4] == ("3 gold", "2 gold", "1 gold", "1 gold") and geo.costs[4:] == (None,) * 8
    assert geo.cost_keys[0] == "wheel/positions/0/cost"
    assert geo.bonuses[0] is None and geo.bonuses[3] == "score 3"
    assert geo.bonus_keys[3] == "wheel/wheel/3/bonus"


def test_wheel_slots_are_counted_from_the_box_whatever_its_index_in_content():
    model = fixture_model(wheel=[{"bonus": f"score {k}"} for k in range(1, 11)] + [{"box": True}, {"bonus": "score 11"}])
    g = crane.build_geometry(model)
    assert g.bonuses[0] is None
    assert g.bonuses[1] == "score 11" and g.bonus_keys[1] == "wheel/wheel/11/bonus"
    assert g.bonuses[2] == "score 1" and g.bonus_keys[2] == "wheel/wheel/0/bonus"


def test_geometry_without_overflow_target_is_refused():
    positions = [{"zone": "z"}] * 11 + [{"zone": "z", "rest": False}]
    with pytest.raises(RulesError, match="overflow target"):
        crane.build_geometry(fixture_model(positions=positions))


# ---------------------------------------------------------------- EX-22, EX-23


def test_ex22_case_a_normal_rotation(geo):
    before = state(5, {1: "a", 2: "b", 6: "c", 8: "d", 9: "e"})
    after = crane.end_of_turn(geo, before, "T")
    assert crane.box_position(after) == 6
    assert layout(after) == {0: "T", 2: "a", 3: "b", 7: "c", 9: "d", 10: "e"}
    assert after.flagged == ()


def test_ex22_case_b_double_rotation_and_overflow(geo):
    before = state(11, {2: "a", 4: "b", 5: "c", 8: "d", 10: "e"})
    after = crane.end_of_turn(geo, before, "T")
    assert crane.box_position(after) == 1
    assert layout(after) == {0: "T", 4: "a", 5: "e", 6: "b", 7: "c", 10: "d"}
    assert after.flagged == ("e",)


def test_ex22_case_c_flagged_tile_taken_from_blue_scores_both(geo):
    s = crane.end_of_turn(geo, state(11, {2: "a", 4: "b", 5: "c", 8: "d", 10: "e"}), "T")
    # three turns take the tiles ahead of e, so e moves 5 -> 8 without anything else overflowing
    for tile in ("d", "c", "b"):
        s, _ = play_turn(geo, s, tile)
    assert crane.position_of(s, "e") == 8 and s.flagged == ("e",)
    s, info = crane.take(geo, s, "e")
    assert (info.position, info.points, info.flagged, info.flag_points) == (8, 2, True, 5)
    assert info.points + info.flag_points == 7
    assert s.flagged == ()  # the token returns beside the crane
    assert info.cost is None


def test_ex23_solo_dummy_takes_the_furthest_tile_and_returns_it(geo):
    s = state(5, {0: "a", 2: "b", 4: "c", 7: "d", 9: "e", 10: "f"})
    tile = crane.dummy_choice(s)
    assert tile == "f"
    s, _ = play_turn(geo, s, tile)  # the engine pays, gains and scores nothing for a dummy seat
    assert crane.box_position(s) == 6
    assert layout(s) == {0: "f", 1: "a", 3: "b", 5: "c", 8: "d", 10: "e"}
    assert crane.dummy_choice(s, "lowest_position") == "f"


def test_dummy_taking_a_flagged_tile_returns_the_token(geo):
    s = state(5, {0: "a", 10: "f"}, flagged=("f",))
    s, info = crane.take(geo, s, crane.dummy_choice(s))
    assert info.flagged and s.flagged == ()  # OPEN-48: the dummy gains nothing, the token returns


# ---------------------------------------------------------------- taking


def test_take_reports_cost_points_and_the_bonus_of_the_slot(geo):
    s = state(5, {1: "a", 9: "b"})
    s2, info = crane.take(geo, s, "a")
    assert (info.position, info.cost, info.cost_key, info.points) == (1, "2 gold", "wheel/positions/1/cost", 0)
    assert info.slot == (1 - 5) % N and info.bonus == f"score {info.slot}"
    assert not info.flagged and info.flag_points == 0
    assert crane.tile_at(s2, 1) is None and crane.tile_at(s, 1) == "a"  # the old state is unchanged
    _, info = crane.take(geo, s, "b")
    assert (info.cost, info.points) == (None, 3)


def test_inconsistent_calls_raise_clear_errors(geo):
    s = state(5, {1: "a", 9: "b"})
    with pytest.raises(RulesError, match="'z' is not on the wheel"):
        crane.take(geo, s, "z")
    with pytest.raises(RulesError, match="not on the wheel"):
        crane.take(geo, s, None)
    with pytest.raises(RulesError, match="still on the wheel"):
        crane.end_of_turn(geo, s, "a")
    with pytest.raises(RulesError, match="tile taken this turn"):
        crane.end_of_turn(geo, s, None)
    with pytest.raises(RulesError, match="not on the wheel"):
        crane.position_of(s, "z")
    with pytest.raises(RulesError, match="no tile"):
        crane.dummy_choice(state(5, {}))
    with pytest.raises(RulesError, match="no starting rotation for 3 players"):
        crane.setup(geo, 3, ["a"])
    with pytest.raises(RulesError, match="twice"):
        crane.setup(geo, 2, ["a", "a"])


def test_the_entry_is_free_after_rotating_even_for_a_tile_at_the_last_position(geo):
    # A tile carried onto position 0 has wrapped and overflows, so the returned tile always fits.
    s = crane.end_of_turn(geo, state(10, {11: "x", 0: "y"}), "T")
    assert layout(s) == {0: "T", 1: "y", 4: "x"} and s.flagged == ("x",)


# ---------------------------------------------------------------- overflow edge cases (OPEN-31)


def test_overflow_goes_to_the_fallback_when_every_target_is_full(geo):
    s = crane.end_of_turn(geo, state(7, {3: "a", 4: "b", 5: "c", 10: "d"}), "T")
    assert layout(s) == {0: "T", 3: "d", 4: "a", 5: "b", 6: "c"} and s.flagged == ("d",)


def test_overflow_counts_backwards_from_an_occupied_fallback(geo):
    s = crane.end_of_turn(geo, state(7, {2: "a", 3: "b", 4: "c", 5: "d", 10: "e"}), "T")
    assert layout(s) == {0: "T", 2: "e", 3: "a", 4: "b", 5: "c", 6: "d"}


def test_overflow_skips_the_box_at_the_fallback(geo):
    s = crane.end_of_turn(geo, state(2, {3: "a", 4: "b", 5: "c", 10: "d"}), "T")
    assert crane.box_position(s) == 3
    assert layout(s) == {0: "T", 2: "d", 4: "a", 5: "b", 6: "c"}


def test_two_tiles_overflow_in_one_double_rotation_furthest_first(geo):
    s = crane.end_of_turn(geo, state(11, {4: "a", 9: "b", 10: "c"}), "T")
    assert crane.box_position(s) == 1
    assert layout(s) == {0: "T", 4: "c", 5: "b", 6: "a"}
    assert s.flagged == ("b", "c")


def test_a_flagged_tile_overflowing_again_keeps_one_flag(geo):
    s = crane.end_of_turn(geo, state(5, {10: "a"}, flagged=("a",)), "T")
    assert layout(s) == {0: "T", 4: "a"} and s.flagged == ("a",)


def test_no_room_for_an_overflowing_tile_raises():
    # one overflow target (2); the fallback (1) is where the box lands after a double rotation
    positions = ([{"zone": "r"}, {"zone": "r"}, {"zone": "g", "overflow_target": True}]
                 + [{"zone": "b"}] * 8 + [{"zone": "x", "rest": False}])
    g = crane.build_geometry(fixture_model(positions=positions))
    assert (g.overflow_targets, g.fallback) == ((2,), 1)
    with pytest.raises(RulesError, match="'c' overflows but the wheel has no empty position"):
        crane.end_of_turn(g, state(11, {0: "a", 10: "c"}), "T")


# ---------------------------------------------------------------- JSON


def test_crane_state_round_trips_through_json(geo):
    s = crane.end_of_turn(geo, state(11, {2: "a", 4: "b", 5: "c", 8: "d", 10: "e"}), "T")
    text = json.dumps(crane.to_json(s))
    assert crane.from_json(json.loads(text)) == s
    assert hash(crane.from_json(json.loads(text))) == hash(s)


# ---------------------------------------------------------------- the bundled crane


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_bundled_setup_puts_every_tile_where_it_costs_or_overflows(bundled, players):
    g = crane.build_geometry(bundled)
    s = crane.setup(g, players, bundled.first_game_order)
    box_at = {r.players: r.box_at for r in bundled.rotations}[players]
    assert crane.box_position(s) == box_at
    placed = crane.tiles_by_position(s)
    assert [t for _, t in placed] == list(bundled.first_game_order)  # clockwise from 0, in order
    for position, _ in placed:
        assert g.rest[position] and g.points[position] == 0
        assert g.costs[position] is not None or position in g.overflow_targets
    assert placed[0][0] == (1 if box_at == 0 else 0)  # the first empty slot from the entry


def test_solo_uses_the_two_player_rotation(bundled):
    box = {r.players: r.box_at for r in bundled.rotations}
    assert box[1] == box[2]  # R-SETUP-CRANE-1


def box_after_turns(model, players, turns, choose=lambda s: crane.tiles_by_position(s)[0][1]):
    """Box positions after turns 1..turns, the tile taken each turn given by `choose`."""
    g = crane.build_geometry(model)
    s = crane.setup(g, players, model.first_game_order)
    boxes = []
    for _ in range(turns):
        s, _ = play_turn(g, s, choose(s))
        boxes.append(crane.box_position(s))
    return boxes


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_revolution_of_the_bundled_crane_takes_eleven_turns(bundled, players):
    boxes = box_after_turns(bundled, players, 33)
    assert sorted(boxes[:11]) == list(range(1, 12))  # every position but the entry, once each
    assert boxes[11:] == boxes[:-11]


def test_the_box_does_not_depend_on_which_tile_is_taken(bundled):
    rng = random.Random(7)
    anyone = box_after_turns(bundled, 2, 32, lambda s: rng.choice(crane.tiles_by_position(s))[1])
    assert anyone == box_after_turns(bundled, 2, 32)


def test_two_player_box_reaches_the_last_cost_position_after_turn_16(bundled):
    last_cost = crane.build_geometry(bundled).fallback  # the star at the last red space (R-ERA-1)
    boxes = box_after_turns(bundled, 2, 16)
    assert boxes[15] == last_cost and boxes[14] != last_cost


def drops_agree(model) -> bool:
    """COMPONENTS.md §10.2: the cube drops at one frame position; every game ends on a drop and the
    3- and 4-player era changes happen on one (after turns 48/64/32, 26 and 31)."""
    ends = {box_after_turns(model, p, t)[-1] for p, t in ((2, 32), (3, 48), (4, 64), (3, 26), (4, 31))}
    return len(ends) == 1


def test_bundled_rotations_fit_the_cube_drop_schedule(bundled):
    assert drops_agree(bundled)


@pytest.mark.parametrize("players,turns", [(1, 32), (2, 32), (3, 48), (4, 64)])
def test_random_games_keep_the_crane_consistent(bundled, players, turns):
    g = crane.build_geometry(bundled)
    s = crane.setup(g, players, bundled.first_game_order)
    rng = random.Random(players)
    for _ in range(turns):
        tile = rng.choice(crane.tiles_by_position(s))[1]
        s, _ = play_turn(g, s, tile)
        placed = crane.tiles_by_position(s)
        assert len(placed) == 6 and crane.tile_at(s, 0) == tile
        assert all(g.rest[p] for p, _ in placed)
        assert crane.box_position(s) != 0
        assert set(s.flagged) <= {t for _, t in placed}


def test_geometry_keys_name_compiled_programs_of_the_ruleset():
    from interpreter.content.ruleset import load_ruleset

    rs = load_ruleset()
    g = crane.build_geometry(rs.single("wheel"))
    keys = [k for k in (*g.cost_keys, *g.bonus_keys) if k is not None]
    assert len(keys) == 4 + 11  # four costs, eleven bonuses (the box has none)
    assert all(k in rs.programs for k in keys)


def test_the_json_walk_lists_the_tiles_as_the_state_does(geo):
    """The take offers read the wheel from its JSON form (crane.tiles_in_order); it must agree with
    tiles_by_position on every rotation and filling."""
    rng = random.Random(5)
    for _ in range(300):
        box = rng.randrange(N)
        positions = rng.sample([p for p in range(N) if (p - box) % N], rng.randint(0, N - 1))
        s = state(box, {p: f"t{p}" for p in positions})
        assert crane.tiles_in_order(crane.to_json(s)) == list(crane.tiles_by_position(s))
