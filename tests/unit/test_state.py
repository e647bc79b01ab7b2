"""Copies of the game state (interpreter/runtime/state.py): hand-written for speed, so every field must be in them."""

from __future__ import annotations

import copy as copy_module
import dataclasses
import json
import pickle

import pytest

from interpreter.runtime.state import Decision, Frame, GameState, PlayerState, ReadOnlyDict, _copy_player, without


def _player() -> PlayerState:
    return PlayerState(
        seat=2, holdings={"a": 1}, score=7, breakdown={"x": 7}, tracks={"t": 3}, grids={"g": [1, 2]},
        track_tokens={"t": ["r1"]}, owned={"k": ["r2"]}, acquired={"k:r2": 4}, milestones=["m"],
        pieces_free={"cube": 2}, permits=["p"], area={"0,0": [["r3", 1]]}, used=["e"])


def _state() -> GameState:
    return GameState(
        players=[_player(), _player()], turn=5, current=1, zones={"s": ("r4", "r5")},
        frames=[Frame("k", [0, 1], 2, 1, "src", ["k", "r2"], {"action": "a", "with": ["p"]}),
                Frame("@build", [], 0, 1, "src", None, {"phase": "pick", "with": ["p"]})],
        decision=Decision(1, "choose", ["a", "b"], {"n": 1}), flags=["turn:x"],
        expiring=[{"player": 1, "permit": "p"}], table={"era": 1, "rows": {"w": {"regular": ["r6"]}}},
        turn_info={"tile": "t1"}, rng=[3, [1, 2], None], log=["take t1"])


def test_a_player_copy_has_every_field_and_its_own_top_level_containers():
    p = _player()
    c = _copy_player(p)
    for f in dataclasses.fields(PlayerState):
        value = getattr(p, f.name)
        assert getattr(c, f.name) == value, f.name
        if type(value) in (dict, list):
            assert getattr(c, f.name) is not value, f"{f.name} is shared"
        else:  # a read-only field: shared until one side replaces it
            assert type(value) in (ReadOnlyDict, tuple, int), f"{f.name} is {type(value).__name__}"
    c.holdings["a"] += 1
    c.milestones = (*c.milestones, "n")
    assert p.holdings == {"a": 1} and p.milestones == ("m",)


def test_the_shared_fields_of_a_player_refuse_changes_in_place_and_are_replaced():
    p = _player()
    c = _copy_player(p)
    for name in ("grids", "track_tokens", "owned", "acquired", "pieces_free", "area"):
        with pytest.raises(TypeError, match="replace it"):
            getattr(c, name)["new"] = 1
    with pytest.raises(AttributeError):
        c.permits.append("q")
    c.owned = c.owned.with_entry("k", ["r2", "r7"])
    assert p.owned == {"k": ["r2"]} and c.owned == {"k": ["r2", "r7"]} and type(c.owned) is ReadOnlyDict
    assert without(("a", "b", "a"), "a") == ("b", "a")
    # a save or a test gives plain data: it is made read-only, and saved as before
    assert type(PlayerState(0, owned={"k": []}).owned) is ReadOnlyDict and PlayerState(0, used=["e"]).used == ("e",)
    assert pickle.loads(pickle.dumps(p)) == p and copy_module.deepcopy(p) == p


def test_a_state_copy_has_every_field_and_the_same_json():
    s = _state()
    c = s.clone()
    assert set(vars(c)) == set(vars(s))
    for f in dataclasses.fields(GameState):
        assert getattr(c, f.name) == getattr(s, f.name), f.name
    assert c.to_json() == s.to_json()
    for name in ("owners", "spaces", "dice"):  # read-only, so shared
        assert type(getattr(c, name)) is ReadOnlyDict and getattr(c, name) is getattr(s, name)
    with pytest.raises(TypeError, match="replace it"):
        c.spaces["x"] = ()
    assert type(c.flags) is tuple and type(c.expiring) is tuple


def test_writing_a_copy_leaves_the_original_as_it_was():
    s = _state()
    before = s.to_json()
    c = s.clone()
    c.player(1).holdings["a"] = 9
    c.top_frame().event["phase"] = "place"  # a native frame changes its event
    c.top_frame().event["with"].append("q")
    native = c.frames.pop()
    c.top_frame().pc += 1  # a program frame changes its pc
    c.frames.append(Frame("k2", [], 0, 0, "src"))
    c.zones["s"] = c.zones["s"][1:]
    c.table["era"] = 2
    c.turn_info["tile"] = None
    c.flags += ("turn:y",)
    c.dice = c.dice.with_entry("d6", 4)
    c.log.append("end")
    assert s.to_json() == before
    assert c.players[1].holdings["a"] == 9 and c.frames[0].pc == 3
    assert native.event == {"phase": "place", "with": ["p", "q"]}


def test_the_action_log_is_a_list_to_read_and_is_shared_by_copies_until_each_appends():
    from interpreter.runtime.state import ActionLog

    log = ActionLog(["take t1", "act a"])
    copy = log.copy()
    assert copy._last is log._last  # the copy shares every entry: no list of actions is copied
    copy.append("end")
    log.append("undo")
    assert log == ["take t1", "act a", "undo"] and copy == ["take t1", "act a", "end"]
    assert copy.count("end") == 1 and copy.index("end") == 2
    assert len(copy) == 3 and copy[-1] == "end" and copy[:2] == ["take t1", "act a"] and list(copy) == copy.to_list()
    assert log != copy and ActionLog(["take t1", "act a", "end"]) == copy and log != ("take t1", "act a", "undo")
    state = GameState(players=[_player()], log=["take t1"])  # a list given is taken as the log
    assert isinstance(state.log, ActionLog) and json.loads(state.to_json())["log"] == ["take t1"]
    assert GameState.from_json(state.to_json()).log == ["take t1"]
    long = ActionLog(f"a{i}" for i in range(5000))  # far longer than any game, deeper than the recursion limit
    assert pickle.loads(pickle.dumps(long)) == long and copy_module.deepcopy(long) == long
