"""JSON Schemas (draft 2020-12) for every content kind, generated from the models.

Editors read them through the `# yaml-language-server: $schema=...` line at the
top of every content file; `caput schema --check` keeps the committed copies
in step with the models.
"""

from __future__ import annotations

import json
from pathlib import Path

from .model import KINDS

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def schema_for(kind: str) -> dict:
    schema = KINDS[kind].model_json_schema(mode="validation")
    return {
        "$schema": DIALECT,
        "title": f"caput content file: {kind}",
        **{k: v for k, v in schema.items() if k != "title"},
    }


def render(kind: str) -> str:
    return json.dumps(schema_for(kind), indent=2, ensure_ascii=False) + "\n"


def file_name(kind: str) -> str:
    return f"{kind}.schema.json"


def write_schemas(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in KINDS:
        path = directory / file_name(kind)
        path.write_text(render(kind), encoding="utf-8")
        written.append(path)
    return written


def check_schemas(directory: Path) -> list[str]:
    """Names of schema files that are missing, stale, or no longer generated."""
    stale = []
    expected = {file_name(k): render(k) for k in KINDS}
    for name, text in expected.items():
        path = directory / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale.append(name)
    if directory.is_dir():
        stale += sorted(p.name for p in directory.glob("*.schema.json") if p.name not in expected)
    return stale
