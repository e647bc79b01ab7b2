"""JSON Schemas: generated from the models, committed, referenced by every content file."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.content.schema_export import DIALECT, check_schemas, pack_kinds, render

ROOT = Path(__file__).resolve().parents[1]
CONTENT = sorted((ROOT / "content").rglob("*.yaml"))
HEADER = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")
PRAGA = pack_kinds(ROOT / "content")["praga"]
SCHEMAS = ROOT / "schemas" / "praga"


def test_committed_schemas_match_the_models():
    assert check_schemas(ROOT / "schemas") == []


def test_one_draft_2020_12_schema_per_kind():
    for kind in PRAGA.files:
        schema = json.loads(render(kind, PRAGA))
        assert schema["$schema"] == DIALECT
        assert schema["properties"]["kind"]["const"] == kind
        assert schema["additionalProperties"] is False


def test_check_reports_a_stale_schema(tmp_path):
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    target = tmp_path / "schemas" / "praga" / "walls.schema.json"
    target.write_text(target.read_text().replace('"additionalProperties": false', '"additionalProperties": true', 1))
    (tmp_path / "schemas" / "old.schema.json").write_text("{}")
    assert check_schemas(tmp_path / "schemas") == ["praga/walls.schema.json", "old.schema.json"]


def _schema_of(path: Path) -> Path:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    m = HEADER.match(first)
    assert m, f"{path} must start with '# yaml-language-server: $schema=<relative path>'"
    return (path.parent / m.group(1)).resolve()


@pytest.mark.parametrize("path", CONTENT, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_content_file_names_the_schema_of_its_kind(path):
    schema = _schema_of(path)
    kind = re.search(r"^kind: (\w+)", path.read_text(encoding="utf-8"), re.M).group(1)
    pack = path.relative_to(ROOT / "content").parts[0]
    assert schema == (ROOT / "schemas" / pack / f"{kind}.schema.json").resolve()


def test_check_jsonschema_accepts_the_content():
    by_schema: dict[Path, list[str]] = {}
    for path in CONTENT:
        by_schema.setdefault(_schema_of(path), []).append(str(path))
    exe = Path(sys.executable).with_name("check-jsonschema")
    for schema, files in by_schema.items():
        result = subprocess.run([str(exe), "--schemafile", str(schema), *files], capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr


def test_check_jsonschema_rejects_a_broken_file(tmp_path):
    bad = tmp_path / "walls.yaml"
    bad.write_text("kind: walls\ntiles:\n  - {id: Wall, era: one, cost: 2 stone}\n")
    exe = Path(sys.executable).with_name("check-jsonschema")
    result = subprocess.run([str(exe), "--schemafile", str(SCHEMAS / "walls.schema.json"), str(bad)],
                            capture_output=True, text=True)
    assert result.returncode == 1
    assert "era" in result.stdout + result.stderr


# --------------------------------------------------------------------------- overlays: records checked by their kind's schema


def _check_jsonschema(schema: Path, *files: Path) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("check-jsonschema")
    return subprocess.run([str(exe), "--schemafile", str(schema), *map(str, files)], capture_output=True, text=True)


def test_the_overlay_schema_refers_to_the_record_schema_of_every_editable_list():
    from interpreter.content.overlay import record_lists

    RECORD_LISTS = record_lists(PRAGA)
    overlay = json.loads((SCHEMAS / "overlay.schema.json").read_text(encoding="utf-8"))
    props = overlay["properties"]
    for op in ("add", "replace", "remove"):
        assert set(props[op]["properties"]) == set(RECORD_LISTS) and props[op]["additionalProperties"] is False
    for key, (kind, field, model) in RECORD_LISTS.items():
        replace = props["replace"]["properties"][key]["items"]["$ref"]
        add = props["add"]["properties"][key]
        assert add["then"]["items"]["$ref"] == replace
        assert add["else"]["allOf"][1]["properties"]["records"]["items"]["$ref"] == replace
        target, pointer = replace.split("#")
        assert target == f"{kind}.schema.json"
        of_kind = json.loads((SCHEMAS / target).read_text(encoding="utf-8"))
        # the very definition the kind's own file uses for that list
        assert of_kind["properties"][field]["items"] == {"$ref": "#" + pointer}
        assert pointer.split("/")[-1] in of_kind["$defs"]


GOOD_OVERLAY = """\
kind: overlay
extends: praga
name: House rule
provenance: reconstructed
source: test
add:
  walls:
    - {id: wall_draft_a, era: 1, cost: 2 stone, reward: score 3, edges: [none, none, none, none, none, none],
       corners: [none, none, none, none, none, none], provenance: reconstructed, source: house rule}
  scoring.final:
    after: walls
    records:
      - {id: house_step, effect: score 1, provenance: reconstructed, source: house rule}
replace:
  scoring.final:
    - {id: eggs, effect: "score 2 * egg", provenance: reconstructed, source: house rule}
remove:
  seals: [seal_points]
"""


def test_check_jsonschema_checks_the_records_of_an_overlay(tmp_path):
    schema = SCHEMAS / "overlay.schema.json"
    good = tmp_path / "good.yaml"
    good.write_text(GOOD_OVERLAY, encoding="utf-8")
    variants = sorted((ROOT / "content" / "praga" / "variants").glob("*.yaml"))
    result = _check_jsonschema(schema, good, *variants)
    assert result.returncode == 0, result.stdout + result.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text(GOOD_OVERLAY.replace("era: 1", "era: one").replace("effect: score 1", "effct: score 1")
                   .replace("{id: eggs", "{id: Eggs").replace("  seals: [seal_points]", "  wallz: [wall_i_01]"), encoding="utf-8")
    result = _check_jsonschema(schema, bad)
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert "$.add.walls[0].era: 'one' is not of type 'integer'" in out
    assert "$.add['scoring.final'].records[0]" in out and "effct" in out
    assert "$.replace['scoring.final'][0].id: 'Eggs' does not match" in out
    assert "wallz" in out


# --------------------------------------------------------------------------- the README's VS Code settings

def _readme_settings() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, re.S)
    found = [b for b in blocks if '"yaml.schemas"' in b]
    assert len(found) == 1, "README.md shows one ```json block with the VS Code `yaml.schemas` settings"
    return found[0]


def test_the_readme_vscode_settings_name_existing_schemas_and_match_the_pack():
    from interpreter.content.schema_export import editor_settings

    block = _readme_settings()
    assert block == editor_settings(ROOT / "content"), (
        "README.md's VS Code settings are stale; paste interpreter.content.schema_export.editor_settings(Path('content')):\n"
        + editor_settings(ROOT / "content"))
    patterns = json.loads(block)["yaml.schemas"]
    matched: dict[Path, list[Path]] = {}
    for schema, globs in patterns.items():
        assert (ROOT / schema).is_file(), f"README.md names {schema}, which does not exist"
        for glob in globs:
            hits = sorted(ROOT.glob(glob))
            assert hits, f"README.md's pattern {glob} matches no content file"
            for hit in hits:
                matched.setdefault(hit.resolve(), []).append((ROOT / schema).resolve())
    for path in CONTENT:
        # every bundled file gets one schema from the settings: the one its own schema line names
        assert matched.get(path.resolve()) == [_schema_of(path)], path
