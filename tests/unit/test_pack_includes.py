"""A pack manifest's `include:` reads only files inside the pack's folder."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.errors import ErrorBag, format_errors
from interpreter.content.pack import load_pack
from interpreter.content.ruleset import run_pipeline

ROOT = Path(__file__).resolve().parents[2]

MANIFEST = """kind: pack
id: mini
name: Mini pack
version: 0.0.1
players: {{min: 1, max: 2}}
include:
{include}
  - kinds.yaml
resources:
  - {{id: stone, name: stone, provenance: exact, source: draft}}
actions:
  - {{id: wall, name: Build a wall, effect: build wall, provenance: exact, source: draft}}
tile_kinds:
  - {{id: wall, corner_colours: [], provenance: exact, source: draft}}
"""
INCLUDE_LINE = 7  # the first `  - ` line of `include:`

WALLS = """kind: walls
tiles:
  - id: {id}
    era: 1
    cost: 2 stone
    reward: score 2
    edges: [none, none, none, none, none, none]
    corners: [none, none, none, none, none, none]
    provenance: exact
    source: draft
"""
KINDS_FILE = """kind: record_kinds
kinds:
  - id: wall
    doc: A wall tile.
    file: walls
    list: tiles
    fields:
      era: {type: integer, min: 1, doc: Era.}
      cost: {type: amounts, doc: Paid when the tile is taken.}
      reward: {type: effect, doc: Gained after the cost.}
      edges: {type: hex_sides, of: symbol, doc: Edge symbols.}
      corners: {type: hex_corners, of: colour, doc: Corner colours.}
"""
# What a file outside the pack holds; it must never reach the error output.
SECRET = "password: hunter2-outside-the-pack"


def make_pack(root: Path, *includes: str) -> Path:
    pack = root / "pack"
    pack.mkdir(parents=True, exist_ok=True)
    (pack / "pack.yaml").write_text(MANIFEST.format(include="\n".join(f"  - {i}" for i in includes)), encoding="utf-8")
    (pack / "walls.yaml").write_text(WALLS.format(id="wall_1"), encoding="utf-8")
    (pack / "kinds.yaml").write_text(KINDS_FILE, encoding="utf-8")
    return pack


def outside_file(root: Path) -> Path:
    """A file outside the pack that would break the pack (and be echoed) if it were read."""
    secret = root / "elsewhere" / "walls.yaml"
    secret.parent.mkdir(parents=True, exist_ok=True)
    secret.write_text(f"kind: walls\n{SECRET}\n  [unclosed: {SECRET}\n", encoding="utf-8")
    return secret


def outside_include(tmp_path: Path, how: str) -> Path:
    """A pack whose second include names the outside file: by absolute path, by `..`, or by a symlink."""
    secret = outside_file(tmp_path)
    if how == "absolute":
        return make_pack(tmp_path, "walls.yaml", str(secret))
    if how == "dotdot":
        return make_pack(tmp_path, "walls.yaml", "../elsewhere/walls.yaml")
    if how == "dotdot_inside":  # wanders out of the pack and back into a folder next to it
        return make_pack(tmp_path, "walls.yaml", "sub/../../elsewhere/walls.yaml")
    pack = make_pack(tmp_path, "walls.yaml", "more_walls.yaml")
    os.symlink(secret, pack / "more_walls.yaml")
    return pack


HOW = ["absolute", "dotdot", "dotdot_inside", "symlink"]


@pytest.mark.parametrize("how", HOW)
def test_an_include_outside_the_pack_is_refused_at_its_line(tmp_path, how):
    pack = outside_include(tmp_path, how)
    outcome = run_pipeline(pack)
    got = [(Path(e.span.path).resolve(), e.span.line, e.span.col, e.code) for e in outcome.errors]
    assert got == [((pack / "pack.yaml").resolve(), INCLUDE_LINE + 1, 5, "E010")], format_errors(outcome.errors)
    assert "outside the pack" in outcome.errors[0].message
    assert "hunter2" not in format_errors(outcome.errors)


def test_the_cli_never_prints_a_file_outside_the_pack(tmp_path):
    packs = []
    for how in HOW:
        (tmp_path / how).mkdir()
        packs.append(outside_include(tmp_path / how, how))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    env.pop("CAPUT_PACK", None)
    for extra in ([], ["--json"]):
        result = subprocess.run([sys.executable, "-m", "interpreter", "validate", *map(str, packs), *extra], cwd=ROOT,
                                env=env, capture_output=True, text=True, encoding="utf-8", errors="replace", timeout=300)
        assert result.returncode == 1, result.stdout + result.stderr
        assert result.stdout.count("E010") == len(packs), result.stdout
        assert "hunter2" not in result.stdout + result.stderr


def test_includes_inside_the_pack_load_however_they_are_written(tmp_path):
    pack = make_pack(tmp_path, "walls.yaml", "sub/more.yaml", "./sub/../other.yaml", "linked.yaml")
    (pack / "sub").mkdir()
    (pack / "sub" / "more.yaml").write_text(WALLS.format(id="wall_2"), encoding="utf-8")
    (pack / "other.yaml").write_text(WALLS.format(id="wall_3"), encoding="utf-8")
    (pack / "sub" / "target.yaml").write_text(WALLS.format(id="wall_4"), encoding="utf-8")
    os.symlink(pack / "sub" / "target.yaml", pack / "linked.yaml")  # a link that stays inside the pack
    errors = ErrorBag()
    source = load_pack(pack, errors)
    assert not errors, format_errors(errors.errors)
    assert len(source.documents) == 5  # and kinds.yaml
    assert not run_pipeline(pack).errors


def test_a_pack_reached_through_a_symlinked_folder_loads(tmp_path):
    pack = make_pack(tmp_path / "real", "walls.yaml")
    link = tmp_path / "link"
    os.symlink(pack, link, target_is_directory=True)
    outcome = run_pipeline(link)
    assert not outcome.errors, format_errors(outcome.errors)
