"""Scenarios run through the engine (Praga's in tests/scenarios/, Caylus Magna Carta's in
tests/scenarios/caylus/), and the scenario runner itself."""

import io
import re
from collections import Counter
from pathlib import Path

import pytest

from interpreter.play.scenario import (
    ABSENT,
    PathError,
    diff,
    read_path,
    run_scenario,
    run_scenarios,
    write_path,
)
from interpreter.runtime.state import GameState, PlayerState

ROOT = Path(__file__).resolve().parents[1]
# collection -> (its folder, what each file's comment must cite, the section of docs/scenarios.md listing them)
COLLECTIONS = {
    "praga": (ROOT / "tests" / "scenarios", r"\b(R-[A-Z]+-\d+|EX-\d+|OPEN-\d+|T-[IV]+-\d+|SEAL-\d+|BR5-\d+|ICON-\d+)",
              "# Scenarios"),
    "caylus": (ROOT / "tests" / "scenarios" / "caylus", r"games/caylus_magna_carta\.md §\d", "## Caylus Magna Carta"),
    "lorenzo": (ROOT / "tests" / "scenarios" / "lorenzo", r"games/lorenzo_il_magnifico\.md §\d",
                "## Lorenzo il Magnifico"),
}
SCENARIOS = [(name, path) for name, (folder, _, _) in COLLECTIONS.items() for path in sorted(folder.glob("*.yaml"))]


@pytest.mark.parametrize("collection, path", SCENARIOS, ids=[f"{c}/{p.stem}" for c, p in SCENARIOS])
def test_scenario(collection, path):
    result = run_scenario(path)
    assert result.passed, f"{result.status.upper()} {result.name}\n{result.report()}"


def test_every_collection_is_there():
    assert Counter(c for c, _ in SCENARIOS) >= Counter({"praga": 80, "caylus": 50, "lorenzo": 60})


def test_every_scenario_cites_its_source():
    """A Praga scenario cites rule ids (RULES.md); a Caylus one, a section of its fact sheet."""
    for collection, path in SCENARIOS:
        head = "".join(line for line in path.read_text(encoding="utf-8").splitlines(True) if line.startswith("#"))
        assert re.search(COLLECTIONS[collection][1], head), path.name


def test_the_notes_list_every_worked_example_and_every_scenario():
    notes = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    for n in range(1, 32):
        assert re.search(rf"\bEX-{n}\b", notes), f"EX-{n} is not in docs/scenarios.md"
    sections = {name: notes.index(heading) for name, (_, _, heading) in COLLECTIONS.items()}
    for collection, path in SCENARIOS:  # each in its own section, up to the next collection's
        start = sections[collection]
        end = min((i for i in sections.values() if i > start), default=len(notes))
        assert f"`{path.stem}`" in notes[start:end], f"{path.name} is not in its section of docs/scenarios.md"


# --------------------------------------------------------------------------- the runner


def write(tmp_path, text, name="case.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


TURN = """\
players: 2
steps:
  - do: take tile_building_quarries
  - do: act quarries
"""


def test_a_failing_expectation_is_reported_with_a_readable_diff(tmp_path):
    path = write(tmp_path, TURN + """\
  - do: choose 1
    expect:
      players.0.holdings: {gold: 2, stone: 99, egg: 1}
      turn: 1
""")
    result = run_scenario(path)
    assert result.status == "fail" and not result.passed
    assert (result.step, result.line, result.action) == (3, 5, "choose 1")
    assert [(m.path, m.expected, m.got) for m in result.mismatches] == [
        ("players.0.holdings.stone", 99, 3), ("players.0.holdings.egg", 1, ABSENT)]
    report = result.report()
    assert f"step 3 ({result.path}:5): choose 1" in report
    assert "players.0.holdings.stone: expected 99, got 3" in report
    assert "players.0.holdings.egg: expected 1, got <absent>" in report
    out = io.StringIO()
    assert run_scenarios([path], out) == 1
    assert out.getvalue().splitlines()[0] == "FAIL case" and "expected 99, got 3" in out.getvalue()


def test_legal_action_expectations(tmp_path):
    path = write(tmp_path, TURN + """\
    expect:
      legal: [choose 2, choose 1]
      legal_includes: [choose 1, end]
      legal_excludes: [choose 2]
""")
    result = run_scenario(path)
    assert [m.path for m in result.mismatches] == ["legal_includes", "legal_excludes"]
    assert "['end'] legal, got not legal; legal now: ['choose 1', 'choose 2']" in result.report()
    assert "['choose 2'] not legal, got legal" in result.report()


def test_an_illegal_action_with_the_wrong_error_fails(tmp_path):
    path = write(tmp_path, """\
players: 2
steps:
  - do: act mines
    error: the player is too tired
""")
    result = run_scenario(path)
    assert result.status == "fail" and result.step == 1
    assert result.mismatches[0].path == "error" and result.mismatches[0].expected == "the player is too tired"
    assert "take an action tile first" in result.mismatches[0].got
    assert "the action is illegal for another reason" in result.report()


def test_an_expected_error_that_does_not_happen_fails(tmp_path):
    result = run_scenario(write(tmp_path, """\
players: 2
steps:
  - do: take tile_wall_road
    error: not among the legal actions
"""))
    assert result.status == "fail" and "expected an illegal action" in result.message


def test_an_unexpected_illegal_action_fails_with_the_reason(tmp_path):
    result = run_scenario(write(tmp_path, "players: 2\nsteps:\n  - do: end\n"))
    assert result.status == "fail" and result.message.startswith("illegal action: not among the legal actions")


def test_an_illegal_action_that_matches_passes(tmp_path):
    result = run_scenario(write(tmp_path, """\
players: 2
steps:
  - do: act mines
    error: take an action tile first
    expect: {log: [], players.0.holdings: {gold: 2, stone: 2}}
"""))
    assert result.status == "pass", result.report()


def test_known_failure_reports_xfail_and_fails_once_fixed(tmp_path):
    failing = write(tmp_path, "players: 2\nknown_failure: why\nsteps:\n  - expect: {turn: 2}\n", "a.yaml")
    passing = write(tmp_path, "players: 2\nknown_failure: why\nsteps:\n  - expect: {turn: 1}\n", "b.yaml")
    assert run_scenario(failing).status == "xfail" and run_scenario(failing).passed
    fixed = run_scenario(passing)
    assert fixed.status == "fail" and "remove known_failure" in fixed.message
    out = io.StringIO()
    assert run_scenarios([failing], out) == 0 and out.getvalue().startswith("XFAIL a")


@pytest.mark.parametrize("text, where, code, words", [
    ("players: 2\nstpes:\n  - expect: {turn: 1}\n", "1:1", "E201", "missing field 'steps'"),
    ("players: 2\nstpes:\n  - expect: {turn: 1}\n", "2:1", "E202", "did you mean 'steps'?"),
    ("players: two\nsteps:\n  - expect: {turn: 1}\n", "1:10", "E203", "players"),
    ("players: 0\nsteps:\n  - expect: {turn: 1}\n", "1:10", "E204", "greater than or equal to 1"),
    ("players: 2\nsteps:\n  - error: nope\n", "3:5", "E209", "add `do`"),
    ("players: 2\nsteps:\n  - do: end\n    expct: {turn: 1}\n", "4:5", "E202", "did you mean 'expect'?"),
    ("players: 2\nsteps: []\n", "2:8", "E204", "at least 1"),
    ("players: 2\nsteps:\n  - do: [end\n", "3:9", "E001", "never closed"),
    ("players: 2\nsteps:\n  - note: hi\n", "3:5", "E209", "a step needs `do`, `set` or `expect`"),
    ("players: 2\nsteps:\n  - set: {turn: 2}\n    do: end\n", "3:5", "E209", "split it in two"),
    ("players: !!python/object:os.system 2\nsteps: []\n", "1:10", "E002", "tag"),
    ("- players: 2\n", "1:1", "E203", "a scenario file is a mapping"),
    ("players: 2\nsetup:\n  players.0.holding.gold: 1\nsteps:\n  - expect: {turn: 1}\n", "3:3", "E301",
     "did you mean 'holdings'?"),
    ("players: 2\nsteps:\n  - expect:\n      turn.x: 1\n", "4:7", "E301", "'turn' is a number"),
    ("players: 2\nsteps:\n  - set: {players.9.score: 1}\n", "3:11", "E301", "no index 9"),
    ("players: 2\nsteps:\n  - set: {zones.wall_row.special_2: wall_i_s1}\n", "3:11", "E301",
     "zone 'wall_row' has no slot 'special_2'; its slots: regular_1, regular_2, regular_3, special_1"),
    ("players: 2\nsetup:\n  zones.wall_row: [wall_i_03, wall_i_06]\nsteps:\n  - expect: {turn: 1}\n", "3:3", "E301",
     "zone 'wall_row' has 4 slots (regular_1, regular_2, regular_3, special_1): give one entry per slot"),
    ("players: 2\nsetup:\n  zones.wall_row.regular_1: [wall_i_03]\nsteps:\n  - expect: {turn: 1}\n", "3:3", "E301",
     "holds a record id or null, not a list"),
    ("players: 9\nsteps:\n  - expect: {turn: 1}\n", "1:10", "E204", "players"),
    ("players: 2\nvariants: [no_such_variant]\nsteps:\n  - expect: {turn: 1}\n", "2:12", "E007", "variant not found"),
])
def test_a_broken_scenario_gives_a_positioned_error_and_exit_status_2(tmp_path, text, where, code, words):
    path = write(tmp_path, text)
    result = run_scenario(path)
    assert result.status == "error" and not result.passed
    shown = result.path
    heads = [f"{e.span}: error[{e.code}]: {e.message}" for e in result.errors]
    assert any(h.startswith(f"{shown}:{where}: error[{code}]") and words in h for h in heads), heads
    out = io.StringIO()
    assert run_scenarios([path], out) == 2
    assert out.getvalue().startswith("ERROR case") and f"error[{code}]" in out.getvalue()


def test_exit_status_over_several_files_and_directories(tmp_path):
    good = write(tmp_path, "players: 2\nsteps:\n  - expect: {turn: 1}\n", "good.yaml")
    bad = write(tmp_path, "players: 2\nsteps:\n  - expect: {turn: 5}\n", "bad.yaml")
    write(tmp_path, "players: 2\n", "broken.yaml")  # no steps: does not load
    assert run_scenarios([good], io.StringIO()) == 0
    assert run_scenarios([good, bad], io.StringIO()) == 1
    out = io.StringIO()
    assert run_scenarios([tmp_path], out) == 2
    lines = [line for line in out.getvalue().splitlines() if not line.startswith(" ")]
    assert lines == ["FAIL bad", "ERROR broken", "PASS good", "1 pass, 1 fail, 1 error"]


def test_the_scenario_pack_can_be_named(tmp_path):
    pack = ROOT / "content" / "praga"
    path = write(tmp_path, f"pack: {pack}\nvariants: [crane_b]\nplayers: 2\nsteps:\n"
                           "  - expect: {legal_includes: [take tile_building_quarries]}\n"
                           "  - do: take tile_building_quarries\n    expect: {legal_includes: [act mines, act quarries]}\n")
    result = run_scenario(path)
    assert result.status == "pass", result.report()


# --------------------------------------------------------------------------- dotted paths


def test_paths_read_and_write_the_state():
    state = GameState(players=[PlayerState(0, holdings={"gold": 2})])
    assert read_path(state, "players.0.holdings.gold") == 2
    assert read_path(state, "players.0.holdings.egg") is ABSENT
    assert read_path(state, "players.3.score") is ABSENT
    assert read_path(state, "decision.options") is ABSENT
    write_path(state, "players.0.holdings.egg", 1)
    write_path(state, "table.claimed.x", "y")  # intermediate dictionaries are created
    value = [1, 2]
    write_path(state, "zones.s", value)
    value.append(3)  # the state keeps its own copy
    assert state.players[0].holdings == {"gold": 2, "egg": 1} and state.table == {"claimed": {"x": "y"}}
    assert state.zones == {"s": (1, 2)}  # a zone's contents are a tuple
    for bad in ("players.0.holding.gold", "turn.x", "players.x"):
        with pytest.raises(PathError):
            write_path(state, bad, 1)
    with pytest.raises(PathError, match="holds a number, not text"):
        write_path(state, "turn", "three")
    with pytest.raises(PathError, match="set its fields one by one"):
        write_path(state, "players.0", {})
    from interpreter.runtime.flow import FlowCursor
    state.flow = FlowCursor(seats=1)
    with pytest.raises(PathError, match="'round' of FlowCursor cannot be set"):  # a frozen record, not a crash
        write_path(state, "flow.round", 6)


def test_a_slotted_zone_is_set_and_expected_whole_by_slot_name_or_by_some_slots(tmp_path):
    """The market rows are slotted zones (`<kind>_row`, slots regular_1.. then special_1..): a
    scenario sets a whole row, one slot, or some slots by name, keeps the others, and expects them the
    same ways; a wrong record in a slot is reported under the slot's path."""
    path = write(tmp_path, """\
players: 2
setup:
  zones.wall_row: [wall_i_01, wall_i_02, wall_i_03, wall_i_s1]
  zones.building_row: {regular_2: building_i_10, special_1: null}
steps:
  - set: {zones.wall_row.regular_1: wall_i_13}
    expect:
      zones.wall_row: [wall_i_13, wall_i_02, wall_i_03, wall_i_s1]
      zones.wall_row.special_1: wall_i_s1
      zones.wall_row.3: wall_i_s1
      zones.building_row: {regular_2: building_i_10, special_1: null}
  - expect: {zones.wall_row: {regular_2: wall_i_03, regular_3: wall_i_03}}
""")
    result = run_scenario(path)
    assert result.status == "fail" and result.step == 2, result.report()
    assert [(m.path, m.expected, m.got) for m in result.mismatches] == [("zones.wall_row.regular_2", "wall_i_03", "wall_i_02")]


def test_diff_reports_per_key_and_matches_null_with_absent():
    assert diff("h", {"a": 1, "b": None}, {"a": 1}) == []
    assert [str(m) for m in diff("h", {"a": 1}, {"a": 2, "c": 0})] == ["h.a: expected 1, got 2", "h.c: expected <absent>, got 0"]
    assert [str(m) for m in diff("x", True, 1)] == ["x: expected True, got 1"]
    assert [str(m) for m in diff("l", ["a"], ["a", "b"])] == ["l: expected ['a'], got ['a', 'b']"]
