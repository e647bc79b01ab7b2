"""JSON Schemas (draft 2020-12) for every content kind of every pack, generated from the models.

A pack's record kinds are declared in its content, so the schemas are made per pack:
`schemas/<pack>/<kind>.schema.json` for each file kind the pack can hold (the built-in kinds and
those its declarations add); a declared field's `doc:` is its description, so editors complete and
document every pack. Editors read them through the `# yaml-language-server: $schema=...` line at
the top of every content file; `caput schema --check` keeps the committed copies in step with the
models and the declarations.

The overlay schema of a pack names every list of records an overlay can edit under `add:`,
`replace:` and `remove:`, and checks the records of `add:` and `replace:` against their kind's
schema: each entry refers to the record's definition in the schema file of its kind
(`walls.schema.json#/$defs/Wall`), relative to the overlay schema, so the schema files of a pack
are used side by side.
"""

from __future__ import annotations

import json
from pathlib import Path

from interpreter.content.model import KindTable
from interpreter.content.overlay import record_lists

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def pack_kinds(content: Path | None = None) -> dict[str, KindTable]:
    """Folder name -> kind table of every pack under ``content`` (default: the bundled packs)."""
    from interpreter.content.declared import read_kinds
    from interpreter.content.pack import PACK_FILE, load_pack
    from interpreter.errors import ContentErrors, ErrorBag
    from interpreter.paths import bundled_content

    content = content or bundled_content()
    out = {}
    for manifest in sorted(content.glob(f"*/{PACK_FILE}")):
        errors = ErrorBag()
        source = load_pack(manifest.parent, errors)
        kinds = read_kinds(source, errors) if source is not None else None
        if kinds is None:
            raise ContentErrors(errors.sorted())
        out[manifest.parent.name] = kinds
    return out


def schema_for(kind: str, kinds: KindTable) -> dict:
    schema = kinds.files[kind].model_json_schema(mode="validation")
    if kind == "overlay":
        _overlay_lists(schema, kinds)
    return {
        "$schema": DIALECT,
        "title": f"caput content file: {kind}",
        **{k: v for k, v in schema.items() if k != "title"},
    }


def record_ref(key: str, kinds: KindTable) -> str:
    """The JSON pointer, relative to the overlay schema, of the records of an overlay's list key."""
    kind, _, model = record_lists(kinds)[key]
    return f"{kind}.schema.json#/$defs/{model.__name__}"


NESTED_LIST = r"^[a-z_][a-z0-9_]*(\.[a-z0-9_]+)+$"  # an overlay's key for a list named by its path


def _overlay_lists(schema: dict, kinds: KindTable) -> None:
    """Name the editable lists under add/replace/remove; records checked by their kind's schema."""
    props = schema["properties"]
    remove_ids = props["remove"]["additionalProperties"]
    for op in ("add", "replace", "remove"):
        entries = {}
        for key in sorted(record_lists(kinds)):
            ref = record_ref(key, kinds)
            records = {"type": "array", "items": {"$ref": ref}}
            if op == "add":
                # allOf, not siblings of $ref: editors on draft 7 ignore keywords beside a $ref
                placed = {"allOf": [{"$ref": "#/$defs/Placed"},
                                    {"properties": {"records": {"items": {"$ref": ref}}}}]}
                entries[key] = {"if": {"type": "array"}, "then": records, "else": placed}
            elif op == "replace":
                entries[key] = records
            else:
                entries[key] = remove_ids
        props[op]["properties"] = entries
        # a list inside a record, by its path (`flow.menus.<id>.entries`): its records are checked when the
        # overlay is applied, where the path is resolved
        nested = {"type": "array", "items": {"type": "object"}}
        if op == "add":
            nested = {"if": {"type": "array"}, "then": nested, "else": {"$ref": "#/$defs/Placed"}}
        props[op]["patternProperties"] = {NESTED_LIST: remove_ids if op == "remove" else nested}
        props[op]["additionalProperties"] = False


def render(kind: str, kinds: KindTable) -> str:
    return json.dumps(schema_for(kind, kinds), indent=2, ensure_ascii=False) + "\n"


def file_name(kind: str, pack: str) -> str:
    """The schema file of a kind of a pack, relative to the schema directory."""
    return f"{pack}/{kind}.schema.json"


def expected_schemas(content: Path | None = None) -> dict[str, str]:
    """Relative file name -> text of every schema of every pack."""
    return {file_name(k, pack): render(k, kinds) for pack, kinds in pack_kinds(content).items() for k in kinds.files}


def write_schemas(directory: Path, content: Path | None = None) -> list[Path]:
    written = []
    for name, text in expected_schemas(content).items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def check_schemas(directory: Path, content: Path | None = None) -> list[str]:
    """Names of schema files that are missing, stale, or no longer generated."""
    stale = []
    expected = expected_schemas(content)
    for name, text in expected.items():
        path = directory / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale.append(name)
    if directory.is_dir():
        stale += sorted(n for p in directory.rglob("*.schema.json") if (n := p.relative_to(directory).as_posix()) not in expected)
    return stale


def editor_patterns(content: Path, schemas: str = "schemas") -> dict[str, list[str]]:
    """`yaml.schemas` for VS Code: each schema file and the content files it applies to.

    Patterns are relative to the repository root: a pack's own files by name
    (`content/<pack>/walls.yaml`, each pack has its schemas), and a folder whose files are all of
    one kind (the variants, all overlays) by a wildcard. A file without a readable `kind:` is left out.
    """
    from interpreter.errors import ErrorBag
    from interpreter.content.pack import kind_of
    from interpreter.content.source import load_file

    base = content.name
    packs = pack_kinds(content)
    by_dir: dict[tuple[str, ...], dict[str, str]] = {}
    for path in sorted(content.rglob("*.yaml")):
        doc = load_file(path, ErrorBag())
        kind = kind_of(doc) if doc is not None else None
        rel = path.relative_to(content).parts
        if len(rel) > 1 and rel[0] in packs and kind in packs[rel[0]].files:
            by_dir.setdefault(rel[:-1], {})[rel[-1]] = kind
    out: dict[str, set[str]] = {}
    for (pack, *sub), files in by_dir.items():
        folder = "/".join([base, pack, *sub])
        kinds = set(files.values())
        if sub and len(kinds) == 1:
            out.setdefault(f"{schemas}/{file_name(kinds.pop(), pack)}", set()).add(f"{folder}/*.yaml")
            continue
        for name, kind in files.items():
            out.setdefault(f"{schemas}/{file_name(kind, pack)}", set()).add(f"{folder}/{name}")
    return {k: sorted(v) for k, v in sorted(out.items())}


def editor_settings(content: Path, schemas: str = "schemas") -> str:
    """The `yaml.schemas` entry of a VS Code `settings.json`, one schema per line (as the README shows it)."""
    rows = [f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in editor_patterns(content, schemas).items()]
    return '{\n  "yaml.schemas": {\n' + ",\n".join(rows) + "\n  }\n}\n"
