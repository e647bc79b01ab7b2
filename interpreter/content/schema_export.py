"""JSON Schemas (draft 2020-12) for every content kind, generated from the models.

Editors read them through the `# yaml-language-server: $schema=...` line at the
top of every content file; `caput schema --check` keeps the committed copies
in step with the models.

The overlay schema names every list of records an overlay can edit under
`add:`, `replace:` and `remove:`, and checks the records of `add:` and
`replace:` against their kind's schema: each entry refers to the record's
definition in the schema file of its kind (`walls.schema.json#/$defs/WallTile`),
relative to the overlay schema, so the schema files are used side by side.
"""

from __future__ import annotations

import json
from pathlib import Path

from interpreter.content.model import KINDS
from interpreter.content.overlay import RECORD_LISTS

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def schema_for(kind: str) -> dict:
    schema = KINDS[kind].model_json_schema(mode="validation")
    if kind == "overlay":
        _overlay_lists(schema)
    return {
        "$schema": DIALECT,
        "title": f"caput content file: {kind}",
        **{k: v for k, v in schema.items() if k != "title"},
    }


def record_ref(key: str) -> str:
    """The JSON pointer, relative to the overlay schema, of the records of an overlay's list key."""
    kind, _, model = RECORD_LISTS[key]
    return f"{file_name(kind)}#/$defs/{model.__name__}"


def _overlay_lists(schema: dict) -> None:
    """Name the editable lists under add/replace/remove; records checked by their kind's schema."""
    props = schema["properties"]
    remove_ids = props["remove"]["additionalProperties"]
    for op in ("add", "replace", "remove"):
        entries = {}
        for key in sorted(RECORD_LISTS):
            records = {"type": "array", "items": {"$ref": record_ref(key)}}
            if op == "add":
                # allOf, not siblings of $ref: editors on draft 7 ignore keywords beside a $ref
                placed = {"allOf": [{"$ref": "#/$defs/Placed"},
                                    {"properties": {"records": {"items": {"$ref": record_ref(key)}}}}]}
                entries[key] = {"if": {"type": "array"}, "then": records, "else": placed}
            elif op == "replace":
                entries[key] = records
            else:
                entries[key] = remove_ids
        props[op]["properties"] = entries
        props[op]["additionalProperties"] = False


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


def editor_patterns(content: Path, schemas: str = "schemas") -> dict[str, list[str]]:
    """`yaml.schemas` for VS Code: each schema file and the content files it applies to.

    Patterns are relative to the repository root: a pack's own files by name
    (`content/*/walls.yaml`), and a folder whose files are all of one kind (the
    variants, all overlays) by a wildcard. A file without a readable `kind:` is left out.
    """
    from interpreter.errors import ErrorBag
    from interpreter.content.pack import kind_of
    from interpreter.content.source import load_file

    base = content.name
    by_dir: dict[tuple[str, ...], dict[str, str]] = {}
    for path in sorted(content.rglob("*.yaml")):
        doc = load_file(path, ErrorBag())
        kind = kind_of(doc) if doc is not None else None
        if kind in KINDS:
            rel = path.relative_to(content).parts
            by_dir.setdefault(rel[1:-1], {})[rel[-1]] = kind
    out: dict[str, set[str]] = {}
    for sub, files in by_dir.items():
        folder = "/".join([base, "*", *sub])
        kinds = set(files.values())
        if sub and len(kinds) == 1:
            out.setdefault(f"{schemas}/{file_name(kinds.pop())}", set()).add(f"{folder}/*.yaml")
            continue
        for name, kind in files.items():
            out.setdefault(f"{schemas}/{file_name(kind)}", set()).add(f"{folder}/{name}")
    return {k: sorted(v) for k, v in sorted(out.items())}


def editor_settings(content: Path, schemas: str = "schemas") -> str:
    """The `yaml.schemas` entry of a VS Code `settings.json`, one schema per line (as the README shows it)."""
    rows = [f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in editor_patterns(content, schemas).items()]
    return '{\n  "yaml.schemas": {\n' + ",\n".join(rows) + "\n  }\n}\n"
