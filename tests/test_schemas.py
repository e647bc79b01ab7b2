"""JSON Schemas: generated from the models, committed, referenced by every content file."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.model import KINDS
from interpreter.schema_export import DIALECT, check_schemas, render

ROOT = Path(__file__).resolve().parents[1]
CONTENT = sorted((ROOT / "content").rglob("*.yaml"))
HEADER = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def test_committed_schemas_match_the_models():
    assert check_schemas(ROOT / "schemas") == []


def test_one_draft_2020_12_schema_per_kind():
    for kind in KINDS:
        schema = json.loads(render(kind))
        assert schema["$schema"] == DIALECT
        assert schema["properties"]["kind"]["const"] == kind
        assert schema["additionalProperties"] is False


def test_check_reports_a_stale_schema(tmp_path):
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    target = tmp_path / "schemas" / "walls.schema.json"
    target.write_text(target.read_text().replace('"additionalProperties": false', '"additionalProperties": true', 1))
    assert check_schemas(tmp_path / "schemas") == ["walls.schema.json"]


def _schema_of(path: Path) -> Path:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    m = HEADER.match(first)
    assert m, f"{path} must start with '# yaml-language-server: $schema=<relative path>'"
    return (path.parent / m.group(1)).resolve()


@pytest.mark.parametrize("path", CONTENT, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_content_file_names_the_schema_of_its_kind(path):
    schema = _schema_of(path)
    kind = re.search(r"^kind: (\w+)", path.read_text(encoding="utf-8"), re.M).group(1)
    assert schema == (ROOT / "schemas" / f"{kind}.schema.json").resolve()


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
    result = subprocess.run([str(exe), "--schemafile", str(ROOT / "schemas" / "walls.schema.json"), str(bad)],
                            capture_output=True, text=True)
    assert result.returncode == 1
    assert "era" in result.stdout + result.stderr
