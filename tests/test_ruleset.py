"""The pipeline end to end on the bundled pack and its official variants."""

import shutil
from pathlib import Path

import pytest

from interpreter.dsl.compile import Program
from interpreter.errors import ContentErrors
from interpreter.paths import default_pack
from interpreter.content.ruleset import load_ruleset, run_pipeline

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "content" / "praga"
VARIANTS = sorted((PACK / "variants").glob("*.yaml"))


def test_bundled_pack_loads_and_compiles_every_dsl_text():
    rs = load_ruleset(PACK)
    assert rs.pack_id == "praga"
    assert len(rs.fields) == len(rs.programs) > 100
    for f in rs.fields:
        compiled = rs.programs[f.key]
        if f.start == "program":
            assert isinstance(compiled, Program) and (compiled.steps or compiled.triggers)
        elif f.start == "amounts":
            assert compiled and all(isinstance(name, str) for name, _ in compiled)
        else:
            assert callable(compiled)


def test_default_path_is_the_bundled_pack():
    assert load_ruleset().pack_id == "praga"


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda p: p.stem)
def test_every_official_variant_validates(variant):
    assert run_pipeline(PACK, [variant]).errors == []


def test_variants_set_their_parameters_independently():
    base = load_ruleset(PACK)
    assert base.single("wheel").side == "a"
    rs = load_ruleset(PACK, [PACK / "variants" / "crane_b.yaml", PACK / "variants" / "cathedral_tiers_b.yaml"])
    assert rs.single("wheel").side == "b"
    grids = {g.id: g.tier_set for g in rs.single("projects").grids}
    assert grids == {"hunger_wall": "original", "cathedral": "b"}
    road = load_ruleset(PACK, [PACK / "variants" / "kings_road_tiles.yaml"]).single("route")
    assert road.replacement_tiles_in_use == ["krt_i_upgrade_income", "krt_ii_silver_windows", "krt_iii_plain_buildings"]


def _overlay(tmp_path, body: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text("kind: overlay\nextends: praga\nname: house rule\nprovenance: reconstructed\nsource: test\n" + body)
    return path


def test_overlay_replace_add_remove(tmp_path):
    ov = _overlay(tmp_path, """\
replace:
  walls:
    - {id: wall_i_02, era: 1, cost: 1 stone, reward: score 9, edges: [none, none, none, none, none, none],
       corners: [none, none, none, none, none, none], provenance: reconstructed, source: house}
add:
  seals:
    - {id: seal_walls, scoring: score count(wall), provenance: reconstructed, source: house}
remove:
  plazas: [plaza_tokens]
""")
    rs = load_ruleset(PACK, [ov])
    wall = next(w for w in rs.records("wall") if w.id == "wall_i_02")
    assert (wall.cost, wall.reward) == ("1 stone", "score 9")
    assert "seal_walls" in {s.id for s in rs.records("seal")}
    assert "plaza_tokens" not in {p.id for p in rs.records("plaza")}
    assert len(rs.records("wall")) == len(load_ruleset(PACK).records("wall"))


def test_errors_in_overlay_records_point_into_the_overlay(tmp_path):
    ov = _overlay(tmp_path, """\
add:
  seals:
    - {id: seal_walls, scoring: score count(walls), provenance: reconstructed, source: house}
set:
  wheel.side: c
""")
    with pytest.raises(ContentErrors) as info:
        load_ruleset(PACK, [ov])
    found = [(e.span.path, e.span.line, e.span.col, e.code) for e in info.value.errors]
    assert found == [(str(ov), 10, 15, "E204")]
    ov.write_text(ov.read_text().replace("wheel.side: c", "wheel.side: b"))
    with pytest.raises(ContentErrors) as info:
        load_ruleset(PACK, [ov])
    found = [(e.span.path, e.span.line, e.span.col, e.code) for e in info.value.errors]
    assert found == [(str(ov), 8, 45, "E307")]


def test_a_content_file_outside_the_pack_is_checked_inside_the_bundled_pack(tmp_path):
    extra = tmp_path / "more_seals.yaml"
    extra.write_text("kind: seals\nseals:\n  - {id: seal_x, scoring: score count(upgrade where era == 2), provenance: reconstructed, source: t}\n")
    assert run_pipeline(extra).errors == []
    extra.write_text(extra.read_text().replace("era == 2", "eraa == 2"))
    errors = run_pipeline(extra).errors
    assert [(e.span.line, e.span.col, e.code) for e in errors] == [(3, 53, "E308")]
    assert "did you mean 'era'" in errors[0].message


def test_a_manifest_under_another_name_is_a_pack_of_its_own(tmp_path):
    import shutil

    shutil.copytree(PACK, tmp_path / "draft", ignore=shutil.ignore_patterns("variants"))
    (tmp_path / "draft" / "pack.yaml").rename(tmp_path / "draft" / "draft_pack.yaml")
    outcome = run_pipeline(tmp_path / "draft" / "draft_pack.yaml")
    assert outcome.errors == [] and outcome.ruleset.pack_id == "praga"


def test_dsl_keys_are_unique_even_when_a_kind_is_split_over_files(tmp_path):
    import shutil

    pack = tmp_path / "split"
    shutil.copytree(PACK, pack, ignore=shutil.ignore_patterns("variants"))
    lines = (pack / "walls.yaml").read_text().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("  - id: wall_ii_"))
    head = [line for line in lines[:start] if not line.startswith("  ")]
    (pack / "walls.yaml").write_text("".join(lines[:start]))
    (pack / "walls_era2.yaml").write_text("".join(head) + "".join(lines[start:]))
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text().replace("  - walls.yaml\n", "  - walls.yaml\n  - walls_era2.yaml\n"))
    rs = load_ruleset(pack)
    assert len(rs.records("wall")) == 36
    keys = [f.key for f in rs.fields]
    assert len(keys) == len(set(keys)) == len(rs.programs)
    assert "walls/wall_ii_01/reward" in keys and "walls/wall_i_01/reward" in keys
    assert "pack/actions/mines/effect" in keys and "wheel/wheel/3/bonus" in keys


def test_ids_are_unique_within_nested_lists(tmp_path):
    import shutil

    pack = tmp_path / "dup"
    shutil.copytree(PACK, pack, ignore=shutil.ignore_patterns("variants"))
    bridge = pack / "bridge.yaml"
    bridge.write_text(bridge.read_text().replace("{id: plank_2,", "{id: plank_1,"))
    errors = run_pipeline(pack).errors
    assert [(e.code, Path(e.span.path).name) for e in errors] == [("E206", "bridge.yaml")]


# --------------------------------------------------------------------------- overlay edits that break the pack's own files


def _where(errors):
    return [(Path(e.span.path).name, e.span.line, e.span.col, e.code) for e in errors]


def test_an_edit_that_breaks_the_packs_files_is_reported_at_the_edit(tmp_path):
    ov = _overlay(tmp_path, """\
set:
  wheel.side: b
  pack.resources: []
""")
    errors = run_pipeline(PACK, [ov]).errors
    assert _where(errors) == [("house.yaml", 8, 3, "E210")]
    (edit,) = errors
    assert "`set: pack.resources`" in edit.message
    assert len(edit.notes) > 100
    assert all(Path(n.span.path).resolve().is_relative_to(PACK.resolve()) for n in edit.notes)
    assert len({n.span.path for n in edit.notes}) > 10
    assert Path(edit.notes[0].span.path).name == "pack.yaml"  # the file the edit changed comes first
    assert f"{len(edit.notes)} error(s) in {len({n.span.path for n in edit.notes})} file(s)" in edit.message


def test_each_consequence_is_blamed_on_the_edit_that_causes_it(tmp_path):
    ov = _overlay(tmp_path, """\
set:
  scoring.tables.eggs.id: eggs_renamed
  wheel.side: b
  pack.resources.egg.id: egg_renamed
""")
    errors = run_pipeline(PACK, [ov]).errors
    assert _where(errors) == [("house.yaml", 7, 3, "E210"), ("house.yaml", 9, 3, "E210")]
    table, resource = errors
    assert "scoring.tables.eggs.id" in table.message and "pack.resources.egg.id" in resource.message
    assert {Path(n.span.path).name for n in table.notes} == {"scoring.yaml"}
    assert all("eggs" in n.message for n in table.notes)
    assert all("egg" in n.message for n in resource.notes)
    assert not {(n.span, n.code) for n in table.notes} & {(n.span, n.code) for n in resource.notes}


def test_the_packs_own_errors_are_not_blamed_on_an_overlay(tmp_path):
    pack = tmp_path / "praga"
    shutil.copytree(PACK, pack)
    walls = pack / "walls.yaml"
    text = walls.read_text(encoding="utf-8")
    walls.write_text(text.replace("cost: 2 stone", "cost: 2 stonez", 1), encoding="utf-8")
    ov = _overlay(tmp_path, "set:\n  wheel.side: b\n")
    alone = _where(run_pipeline(pack).errors)
    assert alone and all(name == "walls.yaml" for name, *_ in alone)
    assert _where(run_pipeline(pack, [ov]).errors) == alone


def test_an_overlay_cannot_change_a_files_kind_or_the_packs_includes(tmp_path):
    ov = _overlay(tmp_path, """\
set:
  walls.kind: buildings
  pack.include: [walls.yaml]
""")
    errors = run_pipeline(PACK, [ov]).errors
    assert _where(errors) == [("house.yaml", 7, 3, "E208"), ("house.yaml", 8, 3, "E208")]
    assert "kind" in errors[0].message and "include" in errors[1].message


# --------------------------------------------------------------------------- final scoring steps, one at a time

# EX-16's end of a 4-player game (tests/scenarios/ex16_walls_eggs_a.yaml): 2, 3, 4 and 6 walls, 0 to 3 eggs.
WALLS = [2, 3, 4, 6]
EGGS = [0, 1, 2, 3]


def _final_scores(variants=()):
    from interpreter.runtime.game import new_game
    from interpreter.play.scenario import write_path

    game = new_game(load_ruleset(PACK, variants), 4, seed=0)
    setup = {"turn": 64, "current": 3}
    for seat, (walls, eggs) in enumerate(zip(WALLS, EGGS)):
        setup[f"players.{seat}.owned.wall"] = [f"wall_i_{n:02}" for n in range(1, walls + 1)]
        if eggs:
            setup[f"players.{seat}.holdings.egg"] = eggs
    for key, value in setup.items():
        write_path(game.state, key, value)
    game.seek_turn(64)  # the last turn: its end is the end of the game
    for action in ("take tile_building_quarries", "act quarries", "choose 1", "end"):
        game.apply(action)
    assert game.is_terminal
    final = game.scores()
    return [s["score"] for s in final], [s["breakdown"] for s in final]


def test_an_overlay_adds_replaces_and_removes_final_scoring_steps_one_at_a_time(tmp_path):
    ov = _overlay(tmp_path, """\
add:
  scoring.final:
    - {id: house_walls, effect: "score 2 * count(wall)", provenance: reconstructed, source: house}
replace:
  scoring.final:
    - {id: eggs, effect: "score 5 * egg", provenance: reconstructed, source: house}
remove:
  scoring.final: [walls]
""")
    steps = [s.id for s in load_ruleset(PACK, [ov]).single("scoring").final]
    base_steps = [s.id for s in load_ruleset(PACK).single("scoring").final]
    assert steps == [s for s in base_steps if s != "walls"] + ["house_walls"]  # an added step comes last
    base, base_parts = _final_scores()
    scores, parts = _final_scores([ov])
    assert [b["walls"] for b in base_parts] == [0, 4, 10, 18] and [b["eggs"] for b in base_parts] == [0, 1, 3, 6]
    for seat in range(4):
        assert "walls" not in parts[seat]
        assert parts[seat]["house_walls"] == 2 * WALLS[seat]
        assert parts[seat]["eggs"] == 5 * EGGS[seat]
        want = base[seat] - base_parts[seat]["walls"] - base_parts[seat]["eggs"] + 2 * WALLS[seat] + 5 * EGGS[seat]
        assert scores[seat] == want


def test_unknown_final_scoring_step_ids_are_reported_at_the_overlay(tmp_path):
    ov = _overlay(tmp_path, """\
replace:
  scoring.final:
    - {id: egs, effect: "score 5 * egg", provenance: reconstructed, source: house}
remove:
  scoring.final: [wals]
add:
  scoring.final:
    - {id: eggs, effect: "score 1", provenance: reconstructed, source: house}
""")
    errors = run_pipeline(PACK, [ov]).errors
    assert _where(errors) == [("house.yaml", 8, 12, "E208"), ("house.yaml", 10, 19, "E208"), ("house.yaml", 13, 12, "E208")]
    assert "did you mean 'eggs'" in errors[0].message and "did you mean 'walls'" in errors[1].message
    assert "exists" in errors[2].message


def test_added_final_scoring_steps_can_be_placed_before_or_after_a_step(tmp_path):
    ov = _overlay(tmp_path, """\
add:
  scoring.final:
    after: walls
    records:
      - {id: house_a, effect: "score 1", provenance: reconstructed, source: house}
      - {id: house_b, effect: "score 2", provenance: reconstructed, source: house}
  seals:
    before: seal_gold
    records:
      - {id: seal_draft_first, cost: 1 silver_window, scoring: score 1, provenance: reconstructed, source: house}
""")
    rs = load_ruleset(PACK, [ov])
    steps = [s.id for s in rs.single("scoring").final]
    assert steps[steps.index("walls") + 1:steps.index("walls") + 3] == ["house_a", "house_b"]
    seals = [s.id for s in rs.records("seal")]
    assert seals.index("seal_draft_first") + 1 == seals.index("seal_gold")
    ov.write_text(ov.read_text().replace("after: walls", "after: wals"))
    errors = run_pipeline(PACK, [ov]).errors
    assert _where(errors) == [("house.yaml", 8, 12, "E208")]
    assert "did you mean 'walls'" in errors[0].message


def test_consequences_no_single_edit_explains_go_under_the_overlays_first_edit(tmp_path, monkeypatch):
    import interpreter.content.ruleset as ruleset

    monkeypatch.setattr(ruleset, "_MAX_EDITS_TO_BLAME", 0)  # too many edits to try one by one
    ov = _overlay(tmp_path, """\
set:
  wheel.side: b
  pack.resources: []
""")
    errors = run_pipeline(PACK, [ov]).errors
    assert _where(errors) == [("house.yaml", 7, 3, "E210")]
    assert "together" in errors[0].message and len(errors[0].notes) > 100


def test_set_on_a_record_by_id_replaces_the_whole_record(tmp_path):
    ov = _overlay(tmp_path, """\
set:
  scoring.final.eggs: {id: eggs, effect: "score 4 * egg", provenance: reconstructed, source: house}
""")
    final = load_ruleset(PACK, [ov]).single("scoring").final
    assert [s.effect for s in final if s.id == "eggs"] == ["score 4 * egg"]
    assert len(final) == len(load_ruleset(PACK).single("scoring").final)


def test_an_event_key_that_is_not_a_param_is_an_error_not_a_crash(tmp_path):
    """A trigger on an event whose key names no param: E314 at the key, and name resolution goes on."""
    pack = tmp_path / "pack"
    shutil.copytree(default_pack(), pack)
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    assert "params: [{name: colour, type: colour}]" in text
    (pack / "pack.yaml").write_text(text.replace("params: [{name: colour, type: colour}]",
                                                 "params: [{name: shade, type: colour}]"), encoding="utf-8")
    errors = run_pipeline(pack).errors
    assert sorted((e.code, e.message) for e in errors) == [
        ("E220", "event 'corner_token_gained' is emitted with params (colour: colour)"),
        ("E314", "event key 'colour' is not one of its params: shade")]


def test_an_overlay_adds_and_removes_records_of_a_list_inside_a_record(tmp_path):
    caylus = ROOT / "content" / "caylus_magna_carta"
    ov = tmp_path / "house.yaml"
    ov.write_text("""\
kind: overlay
extends: caylus_magna_carta
name: house rule
provenance: reconstructed
source: test
add:
  flow.menus.activities.entries:
    before: renew
    records:
      - {id: beg, verb: beg, effect: gain 1 denier, limit: 1, provenance: reconstructed, source: house}
remove:
  flow.menus.castle_building.entries: [deliver]
""")
    menus = {m.id: [e.id for e in m.entries] for m in load_ruleset(caylus, [ov]).single("flow").menus}
    base = {m.id: [e.id for e in m.entries] for m in load_ruleset(caylus).single("flow").menus}
    at = base["activities"].index("renew")
    assert menus["activities"] == base["activities"][:at] + ["beg"] + base["activities"][at:]
    assert menus["castle_building"] == [e for e in base["castle_building"] if e != "deliver"]
    ov.write_text(ov.read_text().replace("flow.menus.activities.entries", "flow.menus.activitys.entries"))
    errors = run_pipeline(caylus, [ov]).errors
    assert _where(errors) == [("house.yaml", 7, 3, "E208")] and "not a list of records" in errors[0].message
