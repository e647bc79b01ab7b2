"""Notation, `caput play` (interactive and --moves) and `caput replay`."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.runtime.game import new_game
from interpreter.errors import IllegalActionError
from interpreter.runtime.notation import describe, parse
from interpreter.content.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def scripted(tmp_path_factory):
    g = new_game(load_ruleset(), 2, seed=4)
    rng = random.Random(4)
    moves = []
    while not g.is_terminal():
        action = rng.choice(g.legal_actions())
        moves.append(action)
        g.apply(action)
    path = tmp_path_factory.mktemp("play") / "moves.txt"
    path.write_text("# a scripted 2-player game\n" + "\n".join(moves) + "\n")
    return path, moves, g


def caput(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=ROOT, input=stdin, capture_output=True, text=True)


def test_every_legal_action_prints_and_parses_back_to_itself():
    g = new_game(load_ruleset(), 3, seed=2)
    rng = random.Random(2)
    words, phrases, said = g.action_words(), g.action_phrases(), set()
    for _ in range(150):
        legal = g.legal_actions()
        for i, action in enumerate(legal, 1):
            assert parse(action, legal, words) == action
            assert parse(f"  {action.upper()} ", legal, words) == action  # spacing and case do not matter
            assert parse(str(i), legal, words) == action
            text = describe(action, g.state.decision.options if g.state.decision else None, phrases)
            assert text and "\n" not in text
            said.add(text.split()[0])
        g.apply(rng.choice(legal))
    # the menu's words say the turn's actions: the pack's names (take the action tile) or the offers'
    assert describe("take tile_a", None, phrases) == "take the action tile tile a"
    assert describe("buy extra 2", None, phrases) == "buy the extra action (payment option 2)"
    assert describe("end", None, phrases) == "end the turn" and {"perform", "take", "end"} <= said


def test_parse_explains_what_is_wrong():
    legal, words = ["end", "take tile_a"], ("end", "take")
    with pytest.raises(IllegalActionError, match="from 1 to 2"):
        parse("3", legal, words)
    with pytest.raises(IllegalActionError, match="starts with one of: end, take"):
        parse("fly away", legal, words)
    with pytest.raises(IllegalActionError, match="not legal now"):
        parse("take tile_b", legal, words)


def test_play_moves_replays_a_scripted_game_and_replay_shows_it(scripted, tmp_path):
    path, moves, game = scripted
    log = tmp_path / "game.json"
    result = caput("play", "--players", "2", "--seed", "4", "--moves", str(path), "--log", str(log))
    assert result.returncode == 0, result.stdout + result.stderr
    for s in game.scores():
        assert f"seat {s['seat']}: {s['score']} points" in result.stdout
    data = json.loads(log.read_text())
    assert data["state"]["log"] == moves and data["state"]["table"]["over"]
    shown = caput("replay", str(log))
    assert shown.returncode == 0 and shown.stdout.count("--- step ") == len(moves)
    assert f"seat 1: {game.scores()[0]['score']} points" in shown.stdout


def test_play_moves_stops_at_an_illegal_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("# first line\nend\n")
    result = caput("play", "--moves", str(path))
    assert result.returncode == 1
    assert f"{path}:2: illegal action 'end'" in result.stdout and "Traceback" not in result.stderr


def test_interactive_play_reads_numbers_and_quits(tmp_path):
    log = tmp_path / "g.json"
    result = caput("play", "--players", "3", "--log", str(log), stdin="1\n1\nnonsense\nq\n")
    assert result.returncode == 0, result.stderr
    assert "seat 1 to play" in result.stdout and "illegal" in result.stdout
    assert json.loads(log.read_text())["state"]["log"][:1] and "Traceback" not in result.stderr


def test_replay_refuses_a_file_that_is_no_game(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text("{}")
    result = caput("replay", str(bad))
    assert result.returncode == 2 and "not a caput game log" in result.stdout


def test_interactive_undo_save_and_load(tmp_path):
    saved, broken = tmp_path / "saved.json", tmp_path / "broken.json"
    broken.write_text('{"players": 2, "state": {"turn": "x"}}')
    r = caput("play", "--players", "2", stdin=f"take tile_building_mines\nundo\nundo\ntake tile_wall_road\nsave {saved}\n"
                                             f"load {broken}\nq\n")
    assert r.returncode == 0, r.stderr
    assert "nothing to undo" in r.stdout  # the second undo: back at the start
    assert "is not a saved caput game" in r.stdout  # the broken file is refused and the game goes on
    data = json.loads(saved.read_text())
    assert data["state"]["log"] == ["take tile_wall_road"]  # the undone take is gone
    again = caput("play", "--load", str(saved), stdin="q\n")
    assert again.returncode == 0 and "seat 1" in again.stdout


def test_bots_take_their_seats(tmp_path):
    log = tmp_path / "game.json"
    r = caput("play", "--players", "2", "--seat", "1=random", "--seat", "2=greedy", "--log", str(log), stdin="")
    assert r.returncode == 0, r.stderr
    assert "seat 2 (greedy):" in r.stdout and "winner: seat" in r.stdout
    assert json.loads(log.read_text())["state"]["table"]["over"] is True
    bad = caput("play", "--seat", "3=greedy", stdin="q\n")
    assert bad.returncode == 2 and "seats are 1..2" in bad.stdout


def test_interactive_menu_folds_and_errors_and_help_stay_under_it():
    r = caput("play", "--players", "2", stdin="refresh\nrefresh wall\nnonsense\nhelp t2_egg_dealer\nhelp no_such_thing\n\nq\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "refresh <building|upgrade|wall> <6 choices> pay <1..2>" in out and "type `refresh`" in out
    assert "refresh building <6 choices> pay <1..2>" in out  # `refresh` opens the group one level down
    assert "refresh wall 3,4 pay 2" in out  # `refresh wall` lists its options
    assert "take the action tile Wall / King's Road" in out  # records by their names
    after_error = out[out.index("illegal"):]
    # the table is not printed again after an error or a help text: they stay on screen, until Enter
    assert after_error.count("seat 1 to play") == 1 and after_error.index("Egg dealer (t2_egg_dealer), technology") < \
        after_error.index("seat 1 to play")
    assert "Whenever a resource is gained (egg)" in out and "no record is called 'no_such_thing'" in out


def test_final_scores_read_by_name():
    r = caput("play", "--players", "1", "--seat", "1=greedy", stdin="")
    assert r.returncode == 0, r.stderr
    final = next(line for line in r.stdout.splitlines() if line.startswith("seat 1:") and "points (" in line)
    assert "Academics" in final and "crane:position" not in final and "_" not in final.partition("(")[2]
