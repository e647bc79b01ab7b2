"""`interpreter.ui.render`: the whole table as SVG and PNG, drawn from content and state."""

from __future__ import annotations

import importlib.util
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("drawsvg")

from interpreter.runtime.game import Game, new_game
from interpreter.ui.render import load_game, render_png, render_svg, short, wrap
from interpreter.content.ruleset import load_ruleset

SVG = "{http://www.w3.org/2000/svg}"


def _cairo_available() -> bool:
    if importlib.util.find_spec("cairosvg") is None:
        return False
    try:
        import cairosvg  # noqa: F401  # needs the system cairo library
    except (ImportError, OSError):
        return False
    return True


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


def played(ruleset, players: int, seed: int, actions: int | None) -> Game:
    """A game after `actions` random legal actions (None: to the end)."""
    g = new_game(ruleset, players, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not g.is_terminal() and (actions is None or n < actions):
        g.apply(rng.choice(g.legal_actions()))
        n += 1
    return g


@pytest.fixture(scope="module")
def games(ruleset):
    return {
        "4p_mid": played(ruleset, 4, 3, 200),
        "3p_mid": played(ruleset, 3, 5, 150),
        "2p_end": played(ruleset, 2, 2, None),
        "1p_start": new_game(ruleset, 1, seed=1),
    }


def elements(svg: str, klass: str) -> list[ET.Element]:
    root = ET.fromstring(svg)  # well-formed XML or it raises
    return [e for e in root.iter() if klass in (e.get("class") or "").split()]


@pytest.mark.parametrize("name", ["4p_mid", "3p_mid", "2p_end", "1p_start"])
def test_the_svg_shows_every_part_of_the_table(games, name):
    g = games[name]
    svg = render_svg(g)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    rs = g.rules.ruleset
    state = g.state

    hexes = elements(svg, "map-hex")
    assert len(hexes) == len(rs.single("hex_map").hexes)
    assert {e.get("id") for e in hexes} == {f"hex-{h.id}" for h in rs.single("hex_map").hexes}

    buildings = elements(svg, "building")
    assert len(buildings) == len(state.table["city"])
    assert {e.get("data-site") for e in buildings} == set(state.table["city"])

    grids = rs.single("projects").grids
    markers = elements(svg, "grid-marker")
    assert len(markers) == len(state.players) * len(grids)
    assert {e.get("id") for e in markers} == {f"marker-{gr.id}-{p.seat}" for gr in grids for p in state.players}

    boards = elements(svg, "player-board")
    assert len(boards) == len(state.players)

    # every tile of every area, covered ones included; one top per occupied hex
    tiles = elements(svg, "area-tile")
    assert len(tiles) == sum(len(stack) for p in state.players for stack in p.area.values())
    tops = [t for t in tiles if t.get("data-top") == "1"]
    assert len(tops) == sum(len(p.area) for p in state.players)

    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids)), "element ids are unique"


def test_the_mid_game_has_something_to_count(games):
    """The counting test above is not vacuous: the 4-player state has buildings and area tiles."""
    g = games["4p_mid"]
    assert g.state.table["city"]
    assert any(p.area for p in g.state.players)
    assert games["2p_end"].is_terminal()


def test_a_stacked_area_hex_counts_every_tile(ruleset, games):
    g = games["4p_mid"].clone()
    p = g.state.players[0]
    hexes = sorted(k for k, v in p.area.items() if v)
    assert hexes
    under = next(rid for (kind, rid) in g.rules.tables.records if kind == "upgrade")
    p.area = p.area.with_entry(hexes[0], [[under, 1], *p.area[hexes[0]]])
    svg = render_svg(g)
    assert len(elements(svg, "area-tile")) == sum(len(s) for q in g.state.players for s in q.area.values())


def test_the_render_does_not_change_the_game(games):
    g = games["4p_mid"]
    before = g.to_json()
    render_svg(g)
    assert g.to_json() == before


@pytest.mark.skipif(not _cairo_available(), reason="cairosvg or the system cairo library is missing")
def test_png(games):
    data = render_png(games["2p_end"])
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) > 10_000


def test_load_game_round_trips(tmp_path, games):
    g = games["4p_mid"]
    path = tmp_path / "state.json"
    path.write_text(g.to_json(), encoding="utf-8")
    loaded = load_game(path)
    assert loaded.to_json() == g.to_json()
    assert render_svg(loaded) == render_svg(g)


def test_load_game_keeps_the_variants(tmp_path):
    rs = load_ruleset(None, ("crane_b",))
    g = new_game(rs, 2, seed=4)
    path = tmp_path / "variant.json"
    path.write_text(g.to_json(), encoding="utf-8")
    loaded = load_game(path)
    assert loaded.rules.ruleset.variants == rs.variants
    assert loaded.rules.ruleset.single("wheel").side == "b"
    assert "crane-pos-0" in render_svg(loaded)


def test_short_effect_texts():
    assert short("gain 1 silver_window; score 2") == "+1 s.window · 2VP"
    assert short("grant special_tile or score 1") == "s.tile or 1VP"
    assert short("may pay 1 gold: gain 1 egg") == "1 gold → +1 egg"
    assert short("later: may move hunger_wall sideways; gain 1 silver_window; score 2") == "h.wall ↔ · +1 s.window · 2VP"
    assert short("advance technology 2") == "technology +2"
    assert short("choose { advance gold_mine | advance quarry }") == "gold_mine +1 / quarry +1"
    assert short(None) == ""
    # a count of records reads as words, not as the effect language
    assert short("score 3 * count(upgrade where era == 1)") == "3VP per upgrade (era 1)"
    assert short("score 2 * count(wall)") == "2VP per wall"


def test_wrap_cuts_with_an_ellipsis():
    lines = wrap("one two three four five six seven eight", 40, 8, 2)
    assert len(lines) == 2 and lines[-1].endswith("…")
    assert wrap("short", 100, 8) == ["short"]


def test_caput_render_writes_svg_and_refuses_other_suffixes(tmp_path):
    import subprocess
    import sys

    from interpreter.runtime.game import new_game
    from interpreter.content.ruleset import load_ruleset

    saved = tmp_path / "game.json"
    saved.write_text(new_game(load_ruleset(), 2, seed=1).to_json())
    root = Path(__file__).resolve().parent.parent
    ok = subprocess.run([sys.executable, "-m", "interpreter", "render", str(saved), "-o", str(tmp_path / "t.svg")],
                        cwd=root, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert (tmp_path / "t.svg").read_text().lstrip().startswith("<?xml") or "<svg" in (tmp_path / "t.svg").read_text()
    bad = subprocess.run([sys.executable, "-m", "interpreter", "render", str(saved), "-o", str(tmp_path / "t.txt")],
                         cwd=root, capture_output=True, text=True)
    assert bad.returncode == 2 and ".svg or .png" in bad.stdout
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    refused = subprocess.run([sys.executable, "-m", "interpreter", "render", str(broken), "-o", str(tmp_path / "b.svg")],
                             cwd=root, capture_output=True, text=True)
    assert refused.returncode == 2 and "is not a saved caput game" in refused.stdout


def test_the_live_board_marks_what_can_be_clicked():
    import re

    from interpreter.runtime.game import new_game
    from interpreter.content.ruleset import load_ruleset
    from interpreter.ui.render import render_svg

    g = new_game(load_ruleset(), 2, seed=0)
    marked = lambda svg: set(re.findall(r'data-action="([^"]+)"', svg))  # noqa: E731
    takes = {a for a in g.legal_actions() if a.startswith("take ")}
    assert marked(render_svg(g, g.legal_actions())) == takes and "data-action" not in render_svg(g)
    g.apply("take tile_building_quarries")  # a free position (the bundled crane)
    g.apply("act building")
    picks = set(g.legal_actions())
    assert picks and marked(render_svg(g, g.legal_actions())) == picks  # every row tile that may be picked
    g.apply(sorted(picks)[0])
    sites = {a.split(" at ")[1].split(" rot ")[0] for a in g.legal_actions()}
    clicks = marked(render_svg(g, g.legal_actions()))
    assert {c.split(" at ")[1].split(" rot ")[0] for c in clicks} == sites and clicks <= set(g.legal_actions())


def test_the_golden_playthroughs_render_at_every_fiftieth_step():
    import json as _json

    from interpreter.runtime.game import new_game
    from interpreter.paths import default_pack
    from interpreter.content.ruleset import load_ruleset
    from interpreter.ui.render import render_svg

    root = Path(__file__).resolve().parent
    for path in sorted((root / "playthroughs").glob("*.json")):
        data = _json.loads(path.read_text())
        rs = load_ruleset(default_pack(), data["variants"])
        g = new_game(rs, data["players"], seed=data["seed"])
        for n, (action, _) in enumerate(data["steps"], 1):
            g.apply(action)
            if n % 50 == 0 or n == len(data["steps"]):
                tree = ET.fromstring(render_svg(g))
                classes = [e.get("class") for e in tree.iter()]
                assert classes.count("player-board") == len(g.state.players), path.name
                assert classes.count("grid-marker") == len(g.state.players) * len(rs.single("projects").grids)
                assert classes.count("map-hex") == len(rs.single("hex_map").hexes)
                assert classes.count("building") == len(g.state.table.get("city", {}))


CORE_PACKS = ["content/caylus_magna_carta", "content/lorenzo_il_magnifico", "tests/packs/harvest_fair"]


@pytest.mark.parametrize("pack", CORE_PACKS)
def test_a_pack_on_the_generic_core_is_drawn_from_what_its_observation_shows(pack):
    rs = load_ruleset(pack, ())
    for moves in (0, 25, None):
        g = played(rs, 2, 7, moves)
        root = ET.fromstring(render_svg(g))
        ids = {e.get("id") for e in root.iter() if e.get("id")}
        obs = g.observation(-1)
        assert {f"board-{p['seat']}" for p in obs["players"]} <= ids
        layout = rs.single("table")
        hidden = set(layout.hidden) if layout else set()
        cards = [rid for zone, seen in obs["zones"].items() if isinstance(seen, list) and zone.partition("@")[0] not in hidden
                 for rid in seen[:20] if rid]
        assert {f"record-{rid}" for rid in cards} <= ids  # every face-up card the layout does not hide (20 a zone)
        assert all(f"space-{s}" in ids or f"record-{s}" in ids for s in obs["spaces"])  # every space
        tiles = {e.get("data-tile") for e in root.iter() if e.get("data-tile")}
        assert {rid.split("~")[0] for rid in cards} <= tiles  # a tooltip names the record
        text = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
        assert f"{g.scores()[0]['score']} points" in text


@pytest.mark.parametrize("pack", CORE_PACKS[:2])
def test_the_live_core_board_marks_the_cards_and_spaces_the_legal_actions_name(pack):
    rs = load_ruleset(pack, ())
    g = played(rs, 2, 3, 10)
    legal = g.legal_actions()
    root = ET.fromstring(render_svg(g, legal))
    marked = [e for e in root.iter() if e.get("data-action") or e.get("data-choices")]
    assert marked, legal
    for e in marked:
        if e.get("data-action"):
            assert e.get("data-action") in legal
        else:  # several legal actions name it: the word they share
            assert sum(1 for a in legal if e.get("data-choices") in a.split(" ")[1:]) > 1


@pytest.mark.skipif(not _cairo_available(), reason="cairosvg or the system cairo library is missing")
@pytest.mark.parametrize("pack", CORE_PACKS[:2])
def test_caput_render_draws_a_saved_game_of_every_bundled_pack(tmp_path, pack):
    import subprocess
    import sys

    saved = tmp_path / "game.json"
    saved.write_text(played(load_ruleset(pack, ()), 2, 5, None).to_json())
    root = Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, "-m", "interpreter", "render", str(saved), "--pack", pack, "-o",
                        str(tmp_path / "t.png")], cwd=root, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (tmp_path / "t.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _copy_with_table(tmp_path, table: str | None) -> Path:
    """The default pack copied with its table layout replaced (None: without one, the default layout)."""
    import shutil

    root = tmp_path / "pack"
    shutil.copytree(Path(load_ruleset().root), root)
    if table is None:
        (root / "table.yaml").unlink()
        pack = root / "pack.yaml"
        pack.write_text(pack.read_text().replace("  - table.yaml\n", ""))
    else:
        (root / "table.yaml").write_text(table)
    return root


def _top(root, ident: str) -> float:
    element = next(e for e in root.iter() if e.get("id") == ident)
    return min(float(e.get("y")) for e in element.iter() if e.get("y") is not None)


def test_the_pack_s_table_file_draws_the_table_the_default_layout_draws(tmp_path, games):
    """Its layout is written out in content (what a designer edits); the same picture as without it."""
    game = games["3p_mid"]
    without = load_ruleset(_copy_with_table(tmp_path, None))
    assert without.single("table") is None
    assert render_svg(Game.from_json(without, game.to_json())) == render_svg(game)


def test_a_changed_layout_moves_the_parts(tmp_path, games):
    from interpreter.ui.kinds import MAP_KIND, WHEEL_KIND, table_key

    table = "kind: table\nwidth: 2000\nlayout:\n  - widget: seats\n  - across: [{widget: wheel}, {widget: hex_map}]\n"
    rs = load_ruleset(_copy_with_table(tmp_path, table))
    before = ET.fromstring(render_svg(games["3p_mid"]))
    root = ET.fromstring(render_svg(Game.from_json(rs, games["3p_mid"].to_json())))
    assert root.get("width") == "2000"
    map_key, wheel_key = table_key(rs, MAP_KIND), table_key(rs, WHEEL_KIND)
    assert _top(before, "board-0") > _top(before, map_key)
    assert _top(root, "board-0") < _top(root, map_key)  # the seats first now
    assert _top(root, "rows") > _top(root, map_key) and _top(root, "stacks") > _top(root, "rows")  # left out: after
    wheel = [float(e.get("x")) for e in next(e for e in root.iter() if e.get("id") == wheel_key).iter() if e.get("x")]
    hexes = [float(e.get("x")) for e in next(e for e in root.iter() if e.get("id") == map_key).iter() if e.get("x")]
    assert max(wheel) < min(hexes)  # the wheel at the left of the map
