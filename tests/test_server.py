"""The web server's JSON API (interpreter/ui/server.py) through FastAPI's TestClient."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web server needs fastapi (the `web` extra)")

from fastapi.testclient import TestClient

from interpreter.ui import server, sessions
from interpreter.runtime.game import Game
from interpreter.runtime.state import Decision

SEED = 1


@pytest.fixture
def save_dir(tmp_path):
    return tmp_path / "saves"


@pytest.fixture
def client(save_dir):
    with TestClient(server.create_app(save_dir), base_url="http://localhost:8000") as c:
        yield c


def new(client, seed=SEED, players=2, seats=("human", "greedy"), variants=()) -> dict:
    r = client.post("/api/games", json={"players": players, "seats": list(seats), "variants": list(variants), "seed": seed})
    assert r.status_code == 200, r.text
    return r.json()


def act(client, view, action) -> dict:
    r = client.post(f"/api/games/{view['id']}/actions", json={"action": action})
    assert r.status_code == 200, r.text
    return r.json()


def legal(view) -> list[str]:
    return [a["action"] for a in view["legal"]]


def first(view, prefix) -> str:
    return next(a for a in legal(view) if a.startswith(prefix))


def get(client, view) -> dict:
    r = client.get(f"/api/games/{view['id']}")
    assert r.status_code == 200, r.text
    return r.json()


def reach_pick(client) -> dict:
    """A game where the human must pick a tile from a row (picking refills the row from a face-down stack)."""
    view = new(client)
    for take in [a for a in legal(view) if a.startswith("take ")]:
        v = act(client, view, take)
        for main in [a for a in legal(v) if a.startswith("act ")]:
            w = act(client, v, main)
            if w["decision"] and w["decision"]["kind"] == "pick":
                return w
            assert client.post(f"/api/games/{view['id']}/undo").status_code == 200
        assert client.post(f"/api/games/{view['id']}/undo").status_code == 200
    pytest.fail("no take + act of the first turn leads to picking a tile")


# --------------------------------------------------------------------------- playing


def test_a_new_game_against_greedy_shows_the_view(client):
    view = new(client)
    assert view["players"] == 2 and view["seed"] == SEED and view["turn"] == 1 and view["era"] == 1
    assert view["current_seat"] == 1 and view["to_act"] == "human" and not view["over"]
    assert [s["kind"] for s in view["seats"]] == ["human", "greedy"]
    assert all({"score", "holdings", "tracks"} <= set(s) for s in view["seats"])
    assert view["legal"] and all(a["text"] for a in view["legal"])
    assert any(a["action"].startswith("take ") and a["text"].startswith("take the action tile") for a in view["legal"])
    assert view["log"] == [] and view["undo"]["possible"] is False and view["final"] is None
    assert all(s["face"] == "up" or "items" not in s for s in view["table"]["stacks"].values())  # face-down hidden


def test_human_actions_then_the_bot_moves(client):
    view = act(client, new(client), "take tile_building_mines")
    assert [e["action"] for e in view["log"]] == ["take tile_building_mines"] and view["log"][0]["seat"] == 1
    view = act(client, view, first(view, "act "))
    while view["decision"] is not None:  # answer the choices the action asks
        assert view["decision"]["seat"] == 1 and view["decision"]["options"]
        view = act(client, view, legal(view)[0])
    steps = len(view["log"])
    view = act(client, view, "end")
    assert len(view["log"]) > steps + 1, "the greedy bot played its turn"
    assert {e["seat"] for e in view["log"][steps + 1:]} == {2}
    assert view["current_seat"] == 1 and view["to_act"] == "human" and view["turn"] == 3


def test_an_illegal_action_is_a_400_with_the_reason_and_changes_nothing(client):
    view = new(client)
    before = get(client, view)
    for bad, words in (("end", "legal"), ("take no_such_tile", "legal"), ("fly away", "legal")):
        r = client.post(f"/api/games/{view['id']}/actions", json={"action": bad})
        assert r.status_code == 400, r.text
        assert "illegal action" in r.json()["detail"] and words in r.json()["detail"]
        assert get(client, view) == before


def test_malformed_bodies_are_refused(client):
    view = new(client)
    before = get(client, view)
    url = f"/api/games/{view['id']}/actions"
    for body in ({}, {"action": 5}, {"action": ""}, {"action": None}, {"action": "end", "extra": 1}, [], "end"):
        assert client.post(url, json=body).status_code in (400, 422), body
    assert client.post(url, content=b"{not json", headers={"Content-Type": "application/json"}).status_code in (400, 422)
    assert get(client, view) == before
    for body in ({"players": 0}, {"players": 5}, {"players": "two"}, {"seats": ["robot", "human"]}, {"seed": -1},
                 {"players": 2, "colour": "red"}):
        assert client.post("/api/games", json=body).status_code == 422, body
    for body in ({"players": 2, "seats": ["human"]}, {"players": 2, "variants": ["no_such_variant"]},
                 {"players": 2, "variants": ["../../etc/passwd"]}, {"players": 2, "variants": ["/etc/passwd"]}):
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and r.json()["detail"], body


def test_unknown_ids_are_404(client):
    for method, url, body in (("get", "/api/games/nope", None), ("post", "/api/games/nope/actions", {"action": "end"}),
                              ("post", "/api/games/nope/undo", None), ("post", "/api/games/nope/save", {"name": "x"}),
                              ("get", "/api/games/nope/replay/0", None), ("get", "/api/games/nope/board.svg", None)):
        r = client.request(method.upper(), url, json=body)
        assert r.status_code == 404 and "nope" in r.json()["detail"], url


def test_the_pack_is_described(client):
    pack = client.get("/api/pack").json()
    assert pack["id"] and pack["name"] and pack["players"]["min"] <= 2 <= pack["players"]["max"]


def test_variants_are_listed_and_playable(client):
    variants = client.get("/api/variants").json()
    names = {v["name"] for v in variants}
    assert "crane_b" in names and all(v["title"] for v in variants)
    view = new(client, variants=["crane_b"])
    assert view["variants"] == ["crane_b"] and view["legal"]


def test_solo_game_has_the_automatic_dummy_seat(client):
    view = new(client, players=1, seats=["human"])
    assert [s["kind"] for s in view["seats"]] == ["human", "automatic"] and view["seats"][1]["dummy"]


# --------------------------------------------------------------------------- undo


def test_undo_goes_back_to_before_the_last_human_action(client):
    start = new(client)
    assert client.post(f"/api/games/{start['id']}/undo").status_code == 409  # nothing to undo yet
    view = act(client, start, "take tile_building_mines")
    view = act(client, view, first(view, "act "))
    assert view["undo"]["possible"]
    r = client.post(f"/api/games/{start['id']}/undo")
    assert r.status_code == 200
    assert [e["action"] for e in r.json()["log"]] == ["take tile_building_mines"]
    r = client.post(f"/api/games/{start['id']}/undo")
    assert r.status_code == 200
    undone = r.json()
    assert undone["log"] == [] and undone["legal"] == start["legal"] and undone["seats"] == start["seats"]
    assert undone["table"] == start["table"]


def test_undo_takes_back_the_bot_moves_too(client):
    view = act(client, new(client, seed=4), "take tile_building_mines")  # seed 4: the bot's answer reveals nothing
    view = act(client, view, first(view, "act "))
    while view["decision"] is not None:
        view = act(client, view, legal(view)[0])
    before_end = get(client, view)
    after = act(client, view, "end")
    assert after["undo"]["possible"], after["undo"]["reason"]
    assert any(e["seat"] == 2 for e in after["log"]) and after["current_seat"] == 1
    r = client.post(f"/api/games/{view['id']}/undo")
    assert r.status_code == 200
    for key in ("log", "legal", "seats", "table", "turn", "current_seat"):
        assert r.json()[key] == before_end[key], key
    # the same action again gets the same answer from the bot (its random generator was rewound)
    again = act(client, r.json(), "end")
    assert again["log"] == after["log"]


def test_undo_is_refused_across_hidden_information(client):
    view = reach_pick(client)
    assert view["undo"]["possible"]  # taking and performing revealed nothing
    pick = first(view, "pick ")
    view = act(client, view, pick)  # the row is refilled from its face-down stack
    assert not view["undo"]["possible"] and "face-down" in view["undo"]["reason"]
    assert pick in view["undo"]["reason"]  # the pick itself is named as what revealed it
    before = get(client, view)
    r = client.post(f"/api/games/{view['id']}/undo")
    assert r.status_code == 409
    assert "hidden information" in r.json()["detail"] and "face-down stack " in r.json()["detail"]
    assert get(client, view) == before  # nothing changed


def test_undo_is_refused_when_a_bot_drew_hidden_information(client):
    view = new(client)
    # play human turns (first legal action each time) until a bot turn reveals something
    for _ in range(60):
        action = "end" if "end" in legal(view) else legal(view)[0]
        was = len(view["log"])
        view = act(client, view, action)
        bot_steps = [e for e in view["log"][was:] if e["seat"] == 2]
        if bot_steps and not view["undo"]["possible"] and "seat 2" in view["undo"]["reason"]:
            r = client.post(f"/api/games/{view['id']}/undo")
            assert r.status_code == 409 and "seat 2" in r.json()["detail"]
            return
    pytest.fail("the greedy bot never revealed hidden information in 60 human actions")


def test_a_keep_decision_on_a_face_down_stack_counts_as_revealing():
    from interpreter.runtime.game import new_game
    from interpreter.content.ruleset import load_ruleset

    game = new_game(load_ruleset(None, ()), 2, SEED)
    before = sessions.hidden_fingerprint(game)
    down = next(sid for sid in game.state.zones if sid not in game.rules.face_up)
    game.state.decision = Decision(0, "keep", ["a", "b"], {"stack": down})
    assert "revealed hidden information" in sessions.revealed(game, before, 0, "end", 1)
    up = next(iter(game.rules.face_up))
    game.state.decision = Decision(0, "keep", ["a", "b"], {"stack": up})
    assert sessions.revealed(game, before, 0, "end", 1) is None


# --------------------------------------------------------------------------- saving and loading


@pytest.mark.parametrize("name", ["../x", "a/b", "", "..", "/tmp/x", "a.b", "a b", "x" * 65, "a\\b", "ä", "x\n"])
def test_bad_save_names_are_400_and_write_nothing(client, save_dir, tmp_path, name):
    view = new(client)
    r = client.post(f"/api/games/{view['id']}/save", json={"name": name})
    assert r.status_code == 400 and "save name" in r.json()["detail"]
    assert list(tmp_path.rglob("*.json")) == [] and list(tmp_path.parent.glob("x*")) == []
    assert client.post("/api/load", json={"name": name}).status_code == 400


def test_a_save_name_of_the_wrong_type_is_refused(client):
    view = new(client)
    for body in ({"name": 5}, {}, {"name": ["a"]}):
        assert client.post(f"/api/games/{view['id']}/save", json=body).status_code == 422


def test_save_list_and_load(client, save_dir):
    view = act(client, new(client), "take tile_building_mines")
    r = client.post(f"/api/games/{view['id']}/save", json={"name": "my-game_1"})
    assert r.status_code == 200 and r.json()["file"] == "my-game_1.json"
    assert (save_dir / "my-game_1.json").is_file()
    assert [s["name"] for s in client.get("/api/saves").json()] == ["my-game_1"]
    r = client.post("/api/load", json={"name": "my-game_1"})
    assert r.status_code == 200
    loaded = r.json()
    assert loaded["id"] != view["id"]
    for key in ("log", "legal", "seats", "table", "turn", "seed"):
        assert loaded[key] == view[key], key
    # the loaded game goes on by itself; the original is untouched
    loaded = act(client, loaded, first(loaded, "act "))
    assert len(get(client, view)["log"]) == 1 and len(loaded["log"]) == 2
    # the file is the engine's own format: `caput play --load` reads it
    text = (save_dir / "my-game_1.json").read_text(encoding="utf-8")
    game = Game.from_json(sessions.ruleset(()), text)
    assert game.state.log == ["take tile_building_mines"]


@pytest.mark.parametrize("content, words", [
    ("not json at all", "not valid JSON"),
    ("[1, 2]", "no game state"),
    ('{"state": 5}', "no game state"),
    ('{"players": 2, "state": {"players": []}}', "is not a saved caput game"),
    ('{"players": 9, "state": {}}', "9 players"),
    ('{"players": 2, "variants": ["/etc/passwd"], "state": {}}', "not one of the pack's own variants"),
])
def test_loading_a_corrupt_save_is_a_400_and_loses_nothing(client, save_dir, content, words):
    view = act(client, new(client), "take tile_building_mines")
    save_dir.mkdir(parents=True, exist_ok=True)
    (save_dir / "broken.json").write_text(content, encoding="utf-8")
    r = client.post("/api/load", json={"name": "broken"})
    assert r.status_code == 400, r.text
    assert "broken.json" in r.json()["detail"] and words in r.json()["detail"]
    assert (save_dir / "broken.json").read_text(encoding="utf-8") == content
    assert len(get(client, view)["log"]) == 1  # the game in progress goes on


def test_loading_a_truncated_real_save_is_a_400(client, save_dir):
    view = new(client)
    client.post(f"/api/games/{view['id']}/save", json={"name": "whole"})
    text = (save_dir / "whole.json").read_text(encoding="utf-8")
    data = json.loads(text)
    del data["state"]["players"][0]["holdings"]
    data["state"]["table"].pop("crane")
    (save_dir / "cut.json").write_text(json.dumps(data), encoding="utf-8")
    (save_dir / "half.json").write_text(text[: len(text) // 2], encoding="utf-8")
    for name in ("cut", "half"):
        r = client.post("/api/load", json={"name": name})
        assert r.status_code == 400 and f"{name}.json" in r.json()["detail"], r.text
    assert client.post("/api/load", json={"name": "missing"}).status_code == 404
    assert client.post("/api/load", json={"name": "whole"}).status_code == 200


# --------------------------------------------------------------------------- several games, replay, board


def test_two_games_at_once_are_independent(client):
    a, b = new(client, seed=1), new(client, seed=1)
    assert a["id"] != b["id"]
    a = act(client, a, "take tile_building_mines")
    assert get(client, b)["log"] == [] and get(client, b)["legal"] == b["legal"]
    b = act(client, b, "take tile_wall_road")
    assert [e["action"] for e in get(client, a)["log"]] == ["take tile_building_mines"]
    assert [e["action"] for e in get(client, b)["log"]] == ["take tile_wall_road"]
    client.post(f"/api/games/{a['id']}/undo")
    assert get(client, a)["log"] == [] and len(get(client, b)["log"]) == 1


def test_replay_shows_the_game_after_each_step(client):
    view = act(client, new(client), "take tile_building_mines")
    view = act(client, view, first(view, "act "))
    while view["decision"] is not None:
        view = act(client, view, legal(view)[0])
    view = act(client, view, "end")
    total = len(view["log"])
    start = client.get(f"/api/games/{view['id']}/replay/0").json()
    assert start["replay"] == {"step": 0, "total": total} and start["log"] == [] and start["turn"] == 1
    assert start["legal"] == [] and start["undo"]["possible"] is False
    one = client.get(f"/api/games/{view['id']}/replay/1").json()
    assert [e["action"] for e in one["log"]] == ["take tile_building_mines"]
    last = client.get(f"/api/games/{view['id']}/replay/{total}").json()
    for key in ("log", "seats", "table", "turn", "era", "decision"):
        assert last[key] == view[key], key
    assert client.get(f"/api/games/{view['id']}/replay/{total + 1}").status_code == 404
    assert client.get(f"/api/games/{view['id']}/replay/-1").status_code == 422
    assert client.get(f"/api/games/{view['id']}/replay/x").status_code == 422


def test_a_finished_game_has_scores_a_winner_and_a_full_replay(client):
    view = new(client, seed=3, seats=("random", "random"))  # bots only: the game plays out at once
    assert view["over"] and view["current_seat"] is None and view["legal"] == []
    assert [s["seat"] for s in view["final"]["scores"]] == [1, 2] and view["final"]["winner"] in (1, 2)
    r = client.post(f"/api/games/{view['id']}/actions", json={"action": "end"})
    assert r.status_code == 409 and "over" in r.json()["detail"]
    mid = client.get(f"/api/games/{view['id']}/replay/{view['steps'] // 2}").json()
    assert not mid["over"] and len(mid["log"]) == view["steps"] // 2
    end = client.get(f"/api/games/{view['id']}/replay/{view['steps']}").json()
    assert end["over"] and end["final"] == view["final"]


def test_the_board_picture(client, monkeypatch):
    view = new(client)
    r = client.get(f"/api/games/{view['id']}/board.svg")
    try:
        import interpreter.ui.render  # noqa: F401
    except ImportError:
        assert r.status_code == 501 and "not available" in r.json()["detail"]
    else:
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        assert "<svg" in r.text
        assert client.get(f"/api/games/{view['id']}/board.svg?step=0").status_code == 200
    monkeypatch.setitem(sys.modules, "interpreter.ui.render", None)  # as if the render package did not exist
    r = client.get(f"/api/games/{view['id']}/board.svg")
    assert r.status_code == 501 and "interpreter/ui/render/" in r.json()["detail"]


def test_the_page_and_its_files_are_served(client):
    r = client.get("/")
    assert r.status_code == 200 and 'id="message"' in r.text and "/static/app.js" in r.text
    assert "cdn" not in r.text.lower()
    for name, kind in (("app.js", "javascript"), ("app.css", "css")):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and kind in r.headers["content-type"]
    assert client.get("/static/../server.py").status_code == 404


def _clean(text: str) -> None:
    import re

    found = re.search(r"\b[A-Z][A-Za-z]*(Error|Exception)\b|Traceback", text)
    assert found is None, f"an exception shows: {found.group(0)!r} in {text}"


def test_a_save_whose_state_does_not_follow_from_its_log_is_refused(client, save_dir):
    view = act(client, new(client), "take tile_building_mines")
    client.post(f"/api/games/{view['id']}/save", json={"name": "whole"})
    data = json.loads((save_dir / "whole.json").read_text(encoding="utf-8"))
    assert data["seats"] == ["human", "greedy"] and data["seed"] == SEED
    for name, change, words in (
        ("score", lambda d: d["state"]["players"][0].__setitem__("score", 40), "not the one its log leads to"),
        ("three", lambda d: d["state"]["players"].append(d["state"]["players"][1]), "holds 3 seats"),
        ("seed", lambda d: d.__setitem__("seed", SEED + 1), "seed"),
        ("variants", lambda d: d["server"].__setitem__("variants", ["crane_b"]), "variants"),
        ("type", lambda d: d["state"].__setitem__("turn", "one"), "state.turn should be a whole number"),
    ):
        broken = json.loads(json.dumps(data))
        change(broken)
        (save_dir / f"{name}.json").write_text(json.dumps(broken), encoding="utf-8")
        r = client.post("/api/load", json={"name": name})
        assert r.status_code == 400, r.text
        assert f"{name}.json" in r.json()["detail"] and words in r.json()["detail"], r.text
        _clean(r.json()["detail"])
    assert len(get(client, view)["log"]) == 1


def test_the_web_loads_a_terminal_save_with_its_bots(client, tmp_path):
    from typer.testing import CliRunner

    from interpreter.ui.cli import app

    path = client.app.state.save_dir / "from_terminal.json"
    r = CliRunner().invoke(app, ["play", "--seed", "2", "--seat", "2=mcts:5"], input=f"save {path}\nq\n")
    assert r.exit_code == 0, r.output
    r = client.post("/api/load", json={"name": "from_terminal"})
    assert r.status_code == 200, r.text
    assert [s["kind"] for s in r.json()["seats"]] == ["human", "mcts"]


# --------------------------------------------------------------------------- the Host header


ALLOWED_HOSTS = ["localhost", "localhost:8000", "LOCALHOST:1", "127.0.0.1", "127.0.0.1:8000", "[::1]", "[::1]:8000"]
REFUSED_HOSTS = ["evil.example", "evil.example:8000", "localhost.evil.example", "127.0.0.1.nip.io", "attacker:8000",
                 "10.0.0.1", "0.0.0.0:8000", "[::2]:80", "[::1", "localhost:x", "", "localhost:8000@evil.example"]


@pytest.mark.parametrize("host", ALLOWED_HOSTS)
def test_requests_to_a_loopback_name_are_served(client, host):
    r = client.get("/api/pack", headers={"Host": host})
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("host", REFUSED_HOSTS)
def test_requests_to_another_host_are_refused(client, host):
    """A page of another site that rebinds its name to 127.0.0.1 sends its own name as the Host: refused."""
    view = new(client)
    for method, url in (("GET", "/"), ("GET", "/api/pack"), ("GET", f"/api/games/{view['id']}"),
                        ("GET", "/api/saves"), ("POST", "/api/games"), ("GET", "/static/app.js")):
        r = client.request(method, url, headers={"Host": host}, json={} if method == "POST" else None)
        assert r.status_code == 403, (method, url, r.status_code)
        assert "Host" in r.json()["detail"] and "localhost" in r.json()["detail"], r.text
        assert view["id"] not in r.text


def test_a_host_named_to_serve_on_is_allowed_too(save_dir):
    app = server.create_app(save_dir, hosts=["mybox.lan", "192.168.1.20", "fd00::5"])
    with TestClient(app, base_url="http://localhost") as c:
        for host in ("mybox.lan", "MyBox.lan:8000", "192.168.1.20:8000", "localhost:8000", "[fd00::5]:8000"):
            assert c.get("/api/pack", headers={"Host": host}).status_code == 200, host
        for host in ("evil.example", "mybox.lan.evil.example"):
            assert c.get("/api/pack", headers={"Host": host}).status_code == 403, host


def test_serve_allows_the_host_it_listens_on(save_dir, monkeypatch):
    uvicorn = pytest.importorskip("uvicorn")
    started = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: started.update(app=app, **kw))
    from typer.testing import CliRunner

    from interpreter.ui.cli import app as cli

    r = CliRunner().invoke(cli, ["serve", "--host", "mybox.lan", "--port", "8123", "--save-dir", str(save_dir)])
    assert r.exit_code == 0, r.output
    assert started["host"] == "mybox.lan" and started["port"] == 8123
    with TestClient(started["app"], base_url="http://localhost") as c:
        assert c.get("/api/pack", headers={"Host": "mybox.lan:8123"}).status_code == 200
        assert c.get("/api/pack", headers={"Host": "127.0.0.1:8123"}).status_code == 200
        assert c.get("/api/pack", headers={"Host": "evil.example:8123"}).status_code == 403
    server.serve(host="127.0.0.1", port=8124, save_dir=save_dir)  # the default: loopback names only
    with TestClient(started["app"], base_url="http://localhost") as c:
        assert c.get("/api/pack", headers={"Host": "mybox.lan"}).status_code == 403
        assert c.get("/api/pack", headers={"Host": "localhost:8124"}).status_code == 200


def test_serving_on_every_interface_answers_only_the_names_allowed(save_dir, monkeypatch, capsys):
    uvicorn = pytest.importorskip("uvicorn")
    started = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: started.update(app=app, **kw))
    server.serve(host="0.0.0.0", port=8000, save_dir=save_dir)
    assert "--allow-host" in capsys.readouterr().out
    with TestClient(started["app"], base_url="http://localhost") as c:
        assert c.get("/api/pack", headers={"Host": "0.0.0.0:8000"}).status_code == 403
        assert c.get("/api/pack", headers={"Host": "localhost:8000"}).status_code == 200
    server.serve(host="0.0.0.0", port=8000, save_dir=save_dir, allow_hosts=("mybox.lan",))
    with TestClient(started["app"], base_url="http://localhost") as c:
        assert c.get("/api/pack", headers={"Host": "mybox.lan:8000"}).status_code == 200
        assert c.get("/api/pack", headers={"Host": "evil.example"}).status_code == 403


def test_a_pack_on_the_generic_core_plays_in_the_browser(save_dir, monkeypatch):
    """CAPUT_PACK names the pack the server plays: here the content-only game of tests/packs."""
    from pathlib import Path

    monkeypatch.setenv("CAPUT_PACK", str(Path(__file__).parent / "packs" / "harvest_fair"))
    for cached in (sessions.pack_variants, sessions._ruleset_cached):
        cached.cache_clear()
    try:
        with TestClient(server.create_app(save_dir), base_url="http://localhost:8000") as c:
            assert c.get("/api/pack").json()["id"] == "harvest_fair"
            view = new(c, players=2, seats=("human", "greedy"))
            assert view["round"] == 1 and view["phase"] == "work" and view["to_act"] == "human"
            assert view["table"]["zones"]["deck"] == {"size": 5} and len(view["table"]["zones"]["market"]) == 3
            assert "place field" in legal(view)
            assert {u["name"]: u["reason"] for u in view["unavailable"]}["trade"] == "you cannot pay 2 coins"
            view = act(c, view, "place field")
            assert view["table"]["spaces"]["field"] == [[0, "worker"]]
            assert view["log"][0] == {"step": 1, "seat": 1, "action": "place field", "text": "place field (+2 grain)"}
            while not view["over"]:
                view = act(c, view, legal(view)[0])
            assert view["final"]["scores"] and len(view["seats"]) == 2
    finally:
        for cached in (sessions.pack_variants, sessions._ruleset_cached):
            cached.cache_clear()


def test_a_stepwise_game_moves_its_bots_one_at_a_time_and_says_each_step(client):
    view = client.post("/api/games", json={"players": 2, "seats": ["greedy", "random"], "seed": 5, "stepwise": True}).json()
    assert view["log"] == [] and view["to_act"] == "greedy"  # nobody moved yet
    steps = []
    while not view["over"] and len(steps) < 12:
        view = client.post(f"/api/games/{view['id']}/bot").json()
        steps.append(len(view["log"]))
    assert steps == list(range(1, len(steps) + 1))  # one move per request
    first = view["log"][0]
    assert first["seat"] == 1 and first["action"].startswith("take ")
    assert first["text"].startswith("take the action tile ") and "_" not in first["text"].partition(" (")[0]
    choices = [e for e in view["log"] if e["action"].startswith("choose ")]
    assert all(e["text"].startswith("choose: ") for e in choices)  # a decision's choice by the option it chose
    assert any("points" in e["text"] or "gold" in e["text"] or "stone" in e["text"] for e in view["log"])


def test_the_bot_step_is_refused_when_a_person_is_to_act(client):
    view = client.post("/api/games", json={"players": 2, "seats": ["human", "greedy"], "seed": 1, "stepwise": True}).json()
    r = client.post(f"/api/games/{view['id']}/bot")
    assert r.status_code == 409 and "person" in r.json()["detail"]
    for _ in range(40):  # the person's turn, to its end
        if view["to_act"] != "human":
            break
        view = act(client, view, next((a for a in legal(view) if a == "end"), legal(view)[-1]))
    assert view["to_act"] == "greedy" and all(e["seat"] == 1 for e in view["log"])  # the bot waits to be stepped
    while view["to_act"] == "greedy":
        view = client.post(f"/api/games/{view['id']}/bot").json()
    assert view["to_act"] == "human" and any(e["seat"] == 2 for e in view["log"])


def test_the_log_says_what_a_step_did_after_undo_and_load(client, save_dir):
    view = new(client, players=2, seats=("human", "greedy"), seed=2)
    view = act(client, view, "take tile_building_mines")
    said = view["log"][0]["text"]
    assert said.startswith("take the action tile Building / Manage Mines")
    client.post(f"/api/games/{view['id']}/save", json={"name": "said"})
    loaded = client.post("/api/load", json={"name": "said"}).json()
    assert [e["text"] for e in loaded["log"]] == [e["text"] for e in view["log"]]
    undone = client.post(f"/api/games/{view['id']}/undo").json()
    assert undone["log"] == []


def test_a_record_is_said_in_words_for_a_tooltip(client):
    view = new(client, players=2, seats=("human", "greedy"), seed=2)
    takes = [a for a in view["legal"] if a["action"].startswith("take ")]
    assert takes and all(a["record"] == a["action"].split()[1] for a in takes)  # the record an action names
    r = client.get(f"/api/games/{view['id']}/records/t2_egg_dealer")
    assert r.status_code == 200
    lines = r.json()["lines"]
    assert lines[0] == "Egg dealer (t2_egg_dealer), technology" and any("score 1 point" in line for line in lines)
    assert client.get(f"/api/games/{view['id']}/records/no_such_record").status_code == 404


def test_serve_refuses_a_pack_folder_that_is_none(tmp_path):
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "interpreter", "serve", "--pack", str(tmp_path), "--port", "1"],
                       capture_output=True, text=True, cwd=str(Path(__file__).resolve().parents[1]))
    assert r.returncode == 2 and "is not a pack folder (it has no pack.yaml)" in " ".join(r.stdout.split())


def test_the_view_says_why_a_turn_offer_is_missing(client):
    view = new(client)
    why = {u["name"]: u["reason"] for u in view["unavailable"]}
    assert why["perform the main action"] == "take an offer of the wheel first"
    assert why["end the turn"] == "take an offer of the wheel first"
    assert why["perform the extra action"] == "buy an extra action first"
    assert all(not any(a.startswith(u["name"]) for a in legal(view)) for u in view["unavailable"])
    view = act(client, view, next(a for a in legal(view) if a.startswith("take ")))
    why = {u["name"]: u["reason"] for u in view["unavailable"]}
    assert why["take the action tile"] == "an offer of the wheel is taken this turn"
    assert "perform the main action" not in why  # offered now
