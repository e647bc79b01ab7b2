"""Saving and loading games in `caput play` (interpreter/ui/cli.py, interpreter/play/savefile.py).

`caput play` is driven through its standard input: in-process with typer's CliRunner for the many loads
of the fuzz test, and in a subprocess for the plain cases.
"""

from __future__ import annotations

import copy
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from interpreter.play import savefile
from interpreter.ui.cli import app
from interpreter.runtime.game import new_game
from interpreter.content.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
# an exception's class name, as Python prints it (KeyError, IndexError, JSONDecodeError, RulesError, ...)
EXCEPTION_NAME = re.compile(r"\b[A-Z][A-Za-z]*(Error|Exception|Exit)\b|Traceback")


def caput(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=ROOT, input=stdin, capture_output=True,
                          text=True, timeout=300)


def play(*args, stdin=""):
    """`caput play ARGS` in this process, reading `stdin`."""
    return CliRunner().invoke(app, ["play", *args], input=stdin, catch_exceptions=False)


def clean(text: str) -> None:
    found = EXCEPTION_NAME.search(text)
    assert found is None, f"an exception shows: {found.group(0)!r} in\n{text}"


@pytest.fixture(scope="module")
def rules():
    return load_ruleset()


@pytest.fixture
def saved(tmp_path):
    """A real terminal save: seat 1 plays its first turn (`end` when it can, else its first legal action),
    the greedy bot on seat 2 its own, and seat 1 starts its second turn."""
    path = tmp_path / "real.json"
    r = play("--players", "2", "--seed", "3", "--seat", "2=greedy", stdin="end\n1\n" * 6 + f"save {path}\nq\n")
    assert r.exit_code == 0, r.output
    assert path.is_file(), r.output
    return path


def test_a_save_for_five_players_is_refused_at_the_prompt_and_the_game_goes_on(saved, tmp_path):
    data = json.loads(saved.read_text())
    data["players"] = 5
    five = tmp_path / "five.json"
    five.write_text(json.dumps(data))
    after = tmp_path / "after.json"
    r = caput("play", "--players", "2", stdin=f"take tile_wall_road\nload {five}\nsave {after}\nq\n")
    assert r.returncode == 0, r.stdout + r.stderr
    clean(r.stdout + r.stderr)
    assert f"{five} is not a saved caput game" in r.stdout and "5 players" in r.stdout
    assert json.loads(after.read_text())["state"]["log"] == ["take tile_wall_road"]  # the game in progress is kept
    assert r.stdout.count("seat 1> ") >= 3  # the prompt came back after the refused load


def test_play_load_of_a_bad_save_is_refused_with_a_clear_message(saved, tmp_path):
    data = json.loads(saved.read_text())
    data["players"] = 5
    five = tmp_path / "five.json"
    five.write_text(json.dumps(data))
    r = caput("play", "--load", str(five), stdin="q\n")
    assert r.returncode == 2, r.stdout + r.stderr
    clean(r.stdout + r.stderr)
    assert "5 players" in r.stdout and "1..4" in r.stdout


def test_a_missing_file_says_so(tmp_path):
    gone = tmp_path / "gone.json"
    r = play("--load", str(gone))
    assert r.exit_code == 2
    clean(r.output)
    assert f"{gone}: no such file" in r.output
    r = play(stdin=f"load {gone}\nq\n")
    assert r.exit_code == 0 and f"{gone}: no such file" in r.output
    clean(r.output)


@pytest.mark.parametrize("change, words", [
    (lambda d: d["state"]["players"].append(copy.deepcopy(d["state"]["players"][1])), "holds 3 seats"),
    (lambda d: d.__setitem__("players", 3), "holds 2 seats"),
    (lambda d: d.__setitem__("pack", "another_pack"), "another_pack"),
    (lambda d: d.__setitem__("seed", 99), "seed"),
    (lambda d: d.__setitem__("variants", ["crane_b"]), "log"),  # the state was not set up with that variant
    (lambda d: d["state"]["table"].__setitem__("seed", 99), "seed"),
    (lambda d: d["state"]["players"][0].__setitem__("score", 50), "log"),
])
def test_a_save_whose_header_and_state_disagree_is_refused(saved, rules, change, words):
    data = json.loads(saved.read_text())
    change(data)
    with pytest.raises(savefile.SaveError) as caught:
        savefile.game_from_data(data, load_ruleset(None, tuple(data["variants"])) if data["variants"] else rules)
    clean(str(caught.value))
    assert words in str(caught.value)


def test_a_terminal_save_keeps_its_bots_and_loading_brings_them_back(saved, tmp_path):
    data = json.loads(saved.read_text())
    assert data["seats"] == ["human", "greedy"]
    steps = len(data["state"]["log"])
    assert data["state"]["log"].count("end") == 2  # seat 1 and the greedy seat 2 played a turn each
    # play on from the save: the greedy seat 2 moves by itself again
    log = tmp_path / "more.json"
    moves = "end\n1\n" * 20
    r = play("--load", str(saved), "--log", str(log), stdin=moves + "q\n")
    assert r.exit_code == 0, r.output
    assert "seat 2 (greedy):" in r.output
    again = json.loads(log.read_text())
    assert again["seats"] == ["human", "greedy"] and len(again["state"]["log"]) > steps
    # `load` at the prompt brings the bots back too
    r = play("--players", "2", "--seed", "5", stdin=f"load {saved}\n" + moves + "q\n")
    assert r.exit_code == 0 and "seat 2 (greedy):" in r.output, r.output
    # --seat given with --load takes that seat over
    r = play("--load", str(saved), "--seat", "2=random", stdin=moves + "q\n")
    assert r.exit_code == 0 and "seat 2 (random):" in r.output and "seat 2 (greedy):" not in r.output


def _paths(node, here=()):
    yield here
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*here, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*here, i))


def _set(data, path, value):
    target = data
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value


def _mutants(text: str, rng: random.Random, count: int):
    """Truncations of the text, and values of another type put at random places of its JSON."""
    out = [text[:n] for n in sorted(rng.sample(range(len(text)), count // 3))]
    data = json.loads(text)
    paths = [p for p in _paths(data) if p]
    others = [None, True, -1, 7, 1.5, "x", "", [], [1, "a"], {}, {"a": 1}, 2**70]
    for path in rng.sample(paths, min(len(paths), count - len(out))):
        mutant = json.loads(text)
        old = mutant
        for step in path:
            old = old[step]
        value = rng.choice([v for v in others if type(v) is not type(old)])
        _set(mutant, path, value)
        out.append(json.dumps(mutant))
    for path in rng.sample(paths, 10):  # and keys taken away
        mutant = json.loads(text)
        parent = mutant
        for step in path[:-1]:
            parent = parent[step]
        del parent[path[-1]]
        out.append(json.dumps(mutant))
    return out


def test_fuzz_the_loader_every_broken_save_is_a_clean_message(saved, rules, tmp_path):
    text = saved.read_text()
    mutants = _mutants(text, random.Random(13), 150)
    refused = []
    for i, mutant in enumerate(mutants):
        path = tmp_path / f"bad{i}.json"
        path.write_text(mutant)
        try:
            game, seats = savefile.load(path, lambda variants: rules if not variants else load_ruleset(None, variants))
        except savefile.SaveError as exc:
            clean(str(exc))
            assert str(exc).strip()
            refused.append(path)
        else:  # a change the game does not depend on: what loads must be playable
            assert game.is_terminal() or game.legal_actions()
            assert seats is None or len(seats) == 2
    assert len(refused) > len(mutants) * 0.8
    # the same files through `load` at the prompt: each is refused, and the game in progress is kept
    after = tmp_path / "after.json"
    script = "take tile_wall_road\n" + "".join(f"load {p}\n" for p in refused) + f"save {after}\nq\n"
    r = play("--players", "2", "--seat", "2=greedy", stdin=script)
    assert r.exit_code == 0, r.output
    clean(r.output)
    assert r.output.count("is not a saved caput game") == len(refused)
    final = json.loads(after.read_text())
    assert final["state"]["log"] == ["take tile_wall_road"] and final["seats"] == ["human", "greedy"]


def test_a_save_that_cannot_be_written_is_a_message_and_the_game_goes_on(tmp_path):
    nowhere = tmp_path / "no" / "such" / "folder" / "g.json"
    good = tmp_path / "g.json"
    r = play(stdin=f"take tile_wall_road\nsave {nowhere}\nsave {good}\nq\n")
    assert r.exit_code == 0, r.output
    clean(r.output)
    assert f"cannot write {nowhere}" in r.output
    assert json.loads(good.read_text())["state"]["log"] == ["take tile_wall_road"]


def test_replay_refuses_a_bad_log_without_exception_names(tmp_path):
    for content in ("{not json", "[]", '{"players": 2}', '{"players": "x", "state": {"table": {"seed": 1}, "log": []}}'):
        bad = tmp_path / "x.json"
        bad.write_text(content)
        r = play_replay(bad)
        assert r.exit_code == 2 and "not a caput game log" in r.output, r.output
        clean(r.output)
    r = play_replay(tmp_path / "missing.json")
    assert r.exit_code == 2 and "no such file" in r.output
    clean(r.output)


def play_replay(path):
    return CliRunner().invoke(app, ["replay", str(path)], catch_exceptions=False)


def test_a_save_round_trips_through_the_loader(rules):
    g = new_game(rules, 3, seed=2)
    rng = random.Random(2)
    for _ in range(30):
        g.apply(rng.choice(g.legal_actions()))
    text = savefile.dumps(g, ["human", "random", "greedy"])
    loaded, seats = savefile.load_text(text, lambda variants: rules)
    assert loaded.state.to_json() == g.state.to_json() and seats == ["human", "random", "greedy"]


def test_a_save_from_before_the_flow_cursor_loads_with_the_cursor_its_log_gives(rules):
    """A save whose state has no `flow` (made before the state kept where the flow stands) loads: its
    log gives the cursor; any other difference from the replayed state is still refused."""
    game, rng = new_game(rules, 2, seed=7), random.Random(7)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    data = json.loads(game.to_json())
    cursor = data["state"].pop("flow")
    back = savefile.game_from_data(copy.deepcopy(data), rules)
    assert json.loads(back.to_json())["state"]["flow"] == cursor and back.legal_actions() == game.legal_actions()
    data["state"]["turn"] += 1
    with pytest.raises(savefile.SaveError, match="state.turn differs"):
        savefile.game_from_data(data, rules)


def test_a_save_from_before_the_offers_limits_were_content_loads(rules):
    """A save made when refreshing and buying the extra action were once a turn by the offers' own rules
    (`refreshed`, `extra_bought`, `extra_done` in the turn record, no counts of picks) loads as the state its
    log gives; a turn record that disagrees with the log is still refused, named."""
    game, rng = new_game(rules, 2, seed=3), random.Random(3)
    while "extras" not in game.state.turn_info or not game.state.turn_info.get("picks:refresh"):
        actions = game.legal_actions()
        game.apply(next((a for a in actions if a.startswith(("refresh ", "buy extra "))), rng.choice(actions)))
    data = json.loads(game.to_json())
    state = data["state"]
    assert state["turn_info"]["extras"] == 1  # bought, not yet taken
    for key in ("extras", "picks:refresh", "picks:buy extra"):
        del state["turn_info"][key]
    state["turn_info"].update(refreshed=True, extra_bought=True)
    back = savefile.game_from_data(copy.deepcopy(data), rules)
    assert back.state.to_json() == game.state.to_json() and back.legal_actions() == game.legal_actions()
    state["turn_info"]["extra_done"] = True  # the log has the extra action still to take
    with pytest.raises(savefile.SaveError, match="state.turn_info.extra_done differs"):
        savefile.game_from_data(data, rules)


SAVES = Path(__file__).parent / "saves"


def test_a_save_from_before_the_stacks_were_zones_loads_from_its_replayed_log(rules):
    """tests/saves/before_zones.json was written by the engine that kept `stacks` (the rows' stacks
    under `tiles:<kind>:<era>:<quality>`, an era's stacks removed when it ended): it loads, each stack
    in its zone; any other difference from the replayed state is still refused."""
    text = (SAVES / "before_zones.json").read_text()
    data = json.loads(text)
    assert "stacks" in data["state"] and "zones" not in data["state"] and data["state"]["table"]["era"] == 2
    game, seats = savefile.load_text(text, lambda variants: rules)
    assert seats == ["human", "random"]
    replay = new_game(rules, 2, seed=7)
    for action in data["state"]["log"]:
        replay.apply(action)
    assert game.state.to_json() == replay.state.to_json() and game.legal_actions() == replay.legal_actions()
    old = data["state"]["stacks"]
    assert all(game.state.zones[zid] == tuple(old[zid]) for zid in ("technology_i", "river", "cathedral_v"))
    assert game.state.zones["wall_2_regular"] == tuple(old["tiles:wall:2:regular"])
    assert game.state.zones["wall_1_regular"] == ()  # the first era's stacks left the game
    changed = copy.deepcopy(data)
    changed["state"]["stacks"]["technology_i"].reverse()  # a stack in another order than its log gives
    with pytest.raises(savefile.SaveError, match="state.zones.technology_i"):
        savefile.game_from_data(changed, rules)
    both = copy.deepcopy(data)
    both["state"]["zones"] = {"river": []}
    with pytest.raises(savefile.SaveError, match="beside `zones`"):
        savefile.game_from_data(both, rules)


def test_a_save_from_before_the_rows_were_zones_loads_each_row_into_its_zone(rules):
    """tests/saves/before_rows.json was written by the engine that kept the market rows in
    `table.rows` (kind -> regular and special positions) and the laid planks in `table.bridge` (slot
    -> tile), in Era II after refreshes and two planks: it loads, each row in its slotted zone
    `<kind>_row` (regular positions first), the planks in the slot row's zone; a row or a plank that
    is not what its log gives, or not in that shape, is refused."""
    text = (SAVES / "before_rows.json").read_text()
    data = json.loads(text)
    old, planks = data["state"]["table"]["rows"], data["state"]["table"]["bridge"]
    assert data["state"]["table"]["era"] == 2 and "upgrade_row" not in data["state"]["zones"] and len(planks) == 2
    game, seats = savefile.load_text(text, lambda variants: rules)
    assert seats == ["human", "random", "greedy"]
    assert "rows" not in game.state.table and "bridge" not in game.state.table
    for kind in ("upgrade", "wall", "building"):
        assert game.state.zones[f"{kind}_row"] == (*old[kind]["regular"], *old[kind]["special"])
    assert game.state.zones["bridge"] == tuple(planks.get(f"plank_{i}") for i in range(1, 6))
    replay = new_game(rules, 3, seed=data["seed"])
    for action in data["state"]["log"]:
        replay.apply(action)
    assert game.state.to_json() == replay.state.to_json() and game.legal_actions() == replay.legal_actions()
    swapped = copy.deepcopy(data)
    row = swapped["state"]["table"]["rows"]["wall"]["regular"]
    row[0], row[1] = row[1], row[0]
    with pytest.raises(savefile.SaveError, match="state.zones.wall_row"):
        savefile.game_from_data(swapped, rules)
    moved = copy.deepcopy(data)
    moved["state"]["table"]["bridge"] = {"plank_5" if k == "plank_4" else k: v for k, v in planks.items()}
    with pytest.raises(savefile.SaveError, match="state.zones.bridge"):
        savefile.game_from_data(moved, rules)
    for where, bad, words in ((("rows", "wall"), ["wall_ii_07"], "regular and special positions"),
                              (("bridge",), {"plank_9": "br4_university"}, "should map some of the slots")):
        broken = copy.deepcopy(data)
        target = broken["state"]["table"]
        for key in where[:-1]:
            target = target[key]
        target[where[-1]] = bad
        with pytest.raises(savefile.SaveError, match=words):
            savefile.game_from_data(broken, rules)


def test_why_says_which_turn_offers_are_missing_and_why():
    result = play("--seed", "3", "--players", "2", stdin="why\nq\n")
    assert result.exit_code == 0, result.output
    clean(result.output)
    assert "not offered now: perform the main action," in result.output  # the line under the menu
    assert "not now: perform the main action: take an offer of the wheel first" in result.output
    assert "not now: perform the extra action: buy an extra action first" in result.output
