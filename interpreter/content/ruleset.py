"""The content pipeline: load -> schema -> references -> parse -> resolve -> compile.

``validate`` runs every phase and returns every error; ``load_ruleset``
returns an immutable ``Ruleset`` (models, ASTs and compiled programs) or
raises ``ContentErrors``. A phase reports all its errors; the phases after
it run only on what it accepted: effects are parsed in every file (in a file
that failed the schema, for syntax errors only), while references and names,
which need the whole pack, are checked only when every file is valid.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from pydantic import BaseModel

from interpreter.content.bounds import check_counts, check_cycles
from interpreter.dsl.compile import Compiler
from interpreter.dsl.english import Names
from interpreter.dsl.parse import DslSyntaxError, parse
from interpreter.dsl.resolve import Scope, Symbols, resolve
from interpreter.errors import ContentError, ContentErrors, ErrorBag, Span
from interpreter.content.declared import read_kinds
from interpreter.content.model import BUILTIN, KindTable, iter_dsl
from interpreter.content.overlay import Edit, apply_overlay
from interpreter.content.pack import PackSource, bundled_pack, find_pack_dir, kind_of, load_pack
from interpreter.paths import default_pack, display_path
from interpreter.content.references import check_names, check_references
from interpreter.content.flow_checks import scope as flow_scope
from interpreter.content.schema import check_document, raw_dsl_nodes
from interpreter.content.source import Document, Mapping, Scalar, load_file, walk
from interpreter.content.symbols import build_names, build_symbols
from interpreter.content import owned_zones

@dataclass(frozen=True)
class DslField:
    """One DSL string of the pack, located, parsed, and (once resolved) compiled."""

    kind: str  # file kind
    path: tuple  # path inside the file's model
    start: str  # grammar start rule
    text: str
    record: str | None  # id of the innermost record the text belongs to
    key_path: tuple[str, ...]  # the path with record-list indices replaced by record ids
    node: Scalar = field(compare=False, repr=False)
    ast: object = field(compare=False, repr=False)
    scope: Scope = field(compare=False, repr=False)

    @property
    def span(self) -> Span:
        return self.node.span

    def span_at(self, start: int, end: int) -> Span:
        """File position of characters start..end of the DSL text."""
        return _scalar_span(self.node, start, end)

    @property
    def key(self) -> str:
        """Stable name of the text: `walls/wall_i_01/reward`, `crane/wheel/3/bonus`.

        List indices of items with an id are replaced by the id (and a record list's name is
        dropped), so keys stay unique when a kind's records are split over several files and do
        not move when records are reordered; ids are unique within their list (E206).
        """
        return f"{self.kind}/" + "/".join(self.key_path)


@dataclass(frozen=True)
class Ruleset:
    """Everything a game needs from content, validated and compiled once."""

    pack_id: str
    root: Path
    variants: tuple[str, ...]
    models: MappingProxyType  # file kind -> tuple of file models
    symbols: Symbols
    names: Names
    fields: tuple[DslField, ...]
    programs: MappingProxyType  # DslField.key -> Program (effects) or compiled amounts/expr/condition
    kinds: KindTable = BUILTIN  # the pack's file and record kinds (built-in and declared)
    memo: dict = field(default_factory=dict, compare=False, repr=False)  # what the engine builds once per ruleset

    @property
    def record_kinds(self) -> dict:
        """Record kind -> RecordKind (file kind, list field, model), as the pack declares them."""
        return self.kinds.records

    def records(self, kind: str) -> list:
        rk = self.kinds.records[kind]
        out = []
        for m in self.models.get(rk.file_kind, ()):
            out.extend(getattr(m, rk.field))
        return out

    def single(self, kind: str) -> BaseModel | None:
        models = self.models.get(kind, ())
        return models[0] if models else None


@dataclass
class Outcome:
    errors: list[ContentError]
    ruleset: Ruleset | None = None
    summary: dict = field(default_factory=dict)


# --------------------------------------------------------------------------- entry points


def load_ruleset(path: str | Path | None = None, variants=()) -> Ruleset:
    outcome = run_pipeline(path, variants)
    if outcome.errors:
        raise ContentErrors(outcome.errors)
    assert outcome.ruleset is not None
    return outcome.ruleset


def validate(path: str | Path | None = None, variants=()) -> list[ContentError]:
    return run_pipeline(path, variants).errors


def _variant_path(root: Path, variant) -> Path:
    """An overlay file, or the name of one of the pack's own variants (`crane_b` -> <pack>/variants/crane_b.yaml)."""
    path = Path(variant)
    named = root / "variants" / f"{variant}.yaml"
    if not path.exists() and path.suffix == "" and named.exists():
        return named
    return path


def run_pipeline(path: str | Path | None = None, variants=()) -> Outcome:
    outcome, edits, overlay_paths = _run(path, variants)
    if outcome.errors and edits:
        outcome.errors = _blame_edits(outcome.errors, edits, overlay_paths, path, variants)
    return outcome


def _run(path, variants, select=None) -> tuple[Outcome, list, set[str]]:
    """The pipeline; ``select(overlay number, edit number)`` applies only some of the overlays' edits.

    Returns the outcome, the edits applied (as ``(overlay number, edit number, Edit)``)
    and the paths of the overlay files.
    """
    errors = ErrorBag()
    source, extra = _locate(Path(path) if path is not None else None, errors)
    if source is None or source.kinds is None:
        return Outcome(errors.sorted()), [], set()
    overlays = [*extra, *(_variant_path(source.root, v) for v in variants)]
    applied = []
    edits: list[tuple[int, int, Edit]] = []
    overlay_paths: set[str] = set()
    for n, ov in enumerate(overlays):
        doc = load_file(ov, errors, display_path(ov))
        if doc is None:
            continue
        overlay_paths.add(doc.path)
        if _check_overlay(doc, source, errors):
            only = None if select is None else (lambda i, n=n: select(n, i))
            done = apply_overlay(source, doc, errors, only)
            edits += [(n, e.number, e) for e in done]
            applied.append(display_path(ov))
    if errors:  # the overlays themselves are wrong: nothing to blame on their edits
        return Outcome(errors.sorted()), [], overlay_paths
    return _check_pack(source, applied, errors), edits, overlay_paths


# An overlay with more edits than this has its consequences summarised under its
# first edit instead of being run once per edit to find the edit that caused each.
_MAX_EDITS_TO_BLAME = 24


def _blame_edits(errors: list[ContentError], edits, overlay_paths: set[str], path, variants) -> list[ContentError]:
    """Report errors an overlay caused in the pack's own files at the edit that caused them.

    An error outside every overlay that the pack without the overlays does not
    have is a consequence of an edit. Each consequence goes, as a note, under one
    E210 error at the edit that causes it when applied alone (found by running
    the pipeline once per edit); consequences only the edits together cause go
    under one at the overlays' first edit. The pack's own errors stay as they are.
    """
    def key(e: ContentError):
        return (e.span.path, e.span.line, e.span.col, e.code) if e.span else (None, 0, 0, e.code)

    outside = [e for e in errors if e.span is None or e.span.path not in overlay_paths]
    if not outside:
        return errors
    baseline = {key(e) for e in _run(path, variants, lambda n, i: False)[0].errors}
    caused = [e for e in outside if key(e) not in baseline]
    if not caused:
        return errors
    blamed: dict[int, list[ContentError]] = {}
    rest = list(caused)
    if len(edits) == 1:
        blamed[0], rest = rest, []
    elif len(edits) <= _MAX_EDITS_TO_BLAME:
        for j, (n, i, _) in enumerate(edits):
            if not rest:
                break
            alone = {key(e) for e in _run(path, variants, lambda n2, i2, n=n, i=i: (n2, i2) == (n, i))[0].errors}
            these = [e for e in rest if key(e) in alone]
            if these:
                blamed[j] = these
                rest = [e for e in rest if key(e) not in alone]
    reports = []
    for j, notes in sorted(blamed.items()):
        edit = edits[j][2]
        reports.append(_edit_error(edit.span, f"{edit.describe()} breaks the pack's own files", notes, edit.files))
    if rest:
        first = edits[0][2]
        reports.append(_edit_error(first.span, "the edits of the overlay together break the pack's own files", rest,
                                   frozenset().union(*(e.files for _, _, e in edits))))
    caused_keys = {id(e) for e in caused}
    others = [e for e in errors if id(e) not in caused_keys]
    inside = [e for e in others if e.span is not None and e.span.path in overlay_paths]
    return [*sorted(reports + inside, key=_position), *[e for e in others if e not in inside]]


def _position(e: ContentError):
    s = e.span
    return (s.path, s.line, s.col, e.code) if s else ("", 0, 0, e.code)


def _edit_error(span: Span, what: str, notes: list[ContentError], edited: frozenset[str]) -> ContentError:
    """One E210 at an edit, with the errors it causes as notes (those in the files it changed first)."""
    notes = sorted(notes, key=lambda e: (e.span is None or e.span.path not in edited, _position(e)))
    files = len({e.span.path for e in notes if e.span})
    codes: dict[str, int] = {}
    for e in notes:
        codes[e.code] = codes.get(e.code, 0) + 1
    mix = ", ".join(f"{c} x{k}" if k > 1 else c for c, k in sorted(codes.items(), key=lambda ck: (-ck[1], ck[0])))
    first = notes[0]
    message = (f"{what}: {len(notes)} error(s) in {files} file(s) of the pack follow from it ({mix}); "
               f"the first: {first.span}: {first.message}")
    return ContentError("E210", message, span, tuple(notes))


def _check_pack(source: PackSource, applied: list[str], errors: ErrorBag) -> Outcome:
    """Phases 2 to 6 on a loaded pack (overlays applied)."""
    kinds: KindTable = source.kinds
    # phase 2: schema
    pairs: list[tuple[Document, BaseModel]] = []
    for doc in source.all():
        before = len(errors)
        model = check_document(doc, errors, kinds.files)
        if model is not None:
            pairs.append((doc, model))
        elif len(errors) > before:
            _syntax_check_raw(doc, errors, kinds)  # its effects' syntax errors belong in the same report
    _check_kinds(source, pairs, errors)
    check_names(pairs, errors)

    # phase 4: parse the DSL strings of every valid file (invalid ones were syntax-checked above)
    fields = _parse_fields(pairs, errors, kinds)
    if errors:
        return Outcome(errors.sorted())

    # phase 3: references across records (needs every file valid); its errors
    # do not stop name resolution, which reports its own in the same run
    check_references(pairs, errors, kinds)

    # phase 5: resolve names
    models: dict[str, list[BaseModel]] = {}
    for _, m in pairs:
        models.setdefault(m.kind, []).append(m)
    symbols = build_symbols(models, kinds)
    resolutions = {}
    for f in fields:
        res = resolve(f.ast, symbols, f.scope)
        resolutions[f.key] = res
        for e in res.errors:
            errors.add(e.code, e.message, f.span_at(e.start, e.end))
    if errors:
        return Outcome(errors.sorted())

    # bounds: no effect may loop forever or count beyond what a game can use (bounds.py)
    pack = models["pack"][0]
    caps = {r.id: r.cap for r in pack.resources if r.cap is not None}
    by_group: dict[str, tuple[str, ...]] = {}
    for r in pack.resources:
        if r.group:
            by_group[r.group] = (*by_group.get(r.group, ()), r.id)
    check_counts(fields, caps, by_group, errors)
    check_cycles(fields, models, by_group, errors, prefer=applied, kinds=kinds)
    stacks = {sid: symbols.zones[sid].holds for sid in symbols.members("stack")}  # declared and derived piles
    owned_zones.check_kept(fields, pack.zones, stacks, errors)  # what a player keeps has a zone to go to (E322)
    if errors:
        return Outcome(errors.sorted())

    # phase 6: compile
    groups = symbols.members("group")
    resources = symbols.members("resource")
    shared = symbols.members("shared")
    programs = {}
    for f in fields:
        res = resolutions[f.key]
        compiler = Compiler(resources, groups, res.constants, res.attributes, res.zone_counts, shared)
        programs[f.key] = _compile(compiler, f)
    ruleset = Ruleset(
        pack.id, source.root, tuple(applied),
        MappingProxyType({k: tuple(v) for k, v in models.items()}),
        symbols, build_names(models), tuple(fields), MappingProxyType(programs), kinds,
    )
    return Outcome([], ruleset, {"files": len(source.all()), "fields": len(fields)})


# --------------------------------------------------------------------------- helpers


def _locate(path: Path | None, errors: ErrorBag) -> tuple[PackSource | None, list[Path]]:
    """The pack to load for a command-line path, and overlays or extra files it implies; its
    record kinds are read (`source.kinds`, None when their declarations are broken)."""
    source, extra = _find(path, errors)
    if source is not None:
        source.kinds = read_kinds(source, errors)
    return source, extra


def _find(path: Path | None, errors: ErrorBag) -> tuple[PackSource | None, list[Path]]:
    if path is None:
        path = default_pack()
    if not path.exists():
        errors.add("E007", f"no such file or directory: {path}", Span(str(path), 1, 1))
        return None, []
    if path.is_dir():
        if not (path / "pack.yaml").is_file():
            errors.add("E007", f"{display_path(path)} is not a pack: it has no pack.yaml", Span(display_path(path), 1, 1))
            return None, []
        return load_pack(path, errors), []
    if path.name == "pack.yaml":
        return load_pack(path.parent, errors), []
    probe = ErrorBag()
    doc = load_file(path, probe, display_path(path))
    if doc is None:
        errors.extend(probe)
        return None, []
    kind = kind_of(doc)
    if kind == "pack":  # a manifest under another name: a pack of its own
        return load_pack(path.parent, errors, path), []
    if kind == "overlay":
        pack_dir = _overlay_target(doc, path, errors)
        if pack_dir is None:
            return None, []
        return load_pack(pack_dir, errors), [path]
    # a single content file: check it inside the pack it belongs to (or the bundled one)
    pack_dir = find_pack_dir(path) or default_pack()
    source = load_pack(pack_dir, errors)
    if source is None:
        return None, []
    resolved = path.resolve()
    if any(Path(d.path).resolve() == resolved for d in source.documents):
        return source, []
    probe_kinds = read_kinds(source, ErrorBag()) or BUILTIN
    if kind in probe_kinds.list_kinds or kind is None:
        source.documents.append(doc)
    else:  # a singleton kind replaces the pack's file of that kind
        source.documents = [d for d in source.documents if kind_of(d) != kind] + [doc]
    return source, []


def _overlay_target(doc: Document, path: Path, errors: ErrorBag) -> Path | None:
    node = doc.root.get("extends") if isinstance(doc.root, Mapping) else None
    if not isinstance(node, Scalar) or not isinstance(node.value, str):
        errors.add("E201", "an overlay needs `extends:` naming the pack it edits", (node or doc.root).span)
        return None
    candidate = (path.parent / node.value).resolve()
    if (candidate / "pack.yaml").is_file():
        return candidate
    found = find_pack_dir(path)
    if found is not None and _pack_id(found) == node.value:
        return found
    bundled = bundled_pack(node.value)
    if bundled is not None:
        return bundled
    errors.add("E007", f"cannot find the pack '{node.value}' this overlay extends", node.span)
    return None


def _pack_id(pack_dir: Path) -> str | None:
    doc = load_file(pack_dir / "pack.yaml", ErrorBag())
    node = doc.root.get("id") if doc and isinstance(doc.root, Mapping) else None
    return node.value if isinstance(node, Scalar) else None


def _check_overlay(doc: Document, source: PackSource, errors: ErrorBag) -> bool:
    if kind_of(doc) != "overlay":
        node = doc.root.get("kind") if isinstance(doc.root, Mapping) else None
        errors.add("E208", "a variant must be an overlay file (`kind: overlay`)", (node or doc.root).span if doc.root else Span(doc.path, 1, 1))
        return False
    before = len(errors)
    model = check_document(doc, errors)
    if model is None:
        return len(errors) == before
    pack_id = _pack_id(source.root)
    target = (Path(doc.path).parent / model.extends).resolve()
    if model.extends != pack_id and target != source.root.resolve():
        node = doc.root.get("extends")
        errors.add("E208", f"this overlay extends '{model.extends}', but the pack is '{pack_id}'", node.span)
        return False
    return True


def _check_kinds(source: PackSource, pairs, errors: ErrorBag) -> None:
    seen: dict[str, Document] = {}
    for doc, m in pairs:
        if m.kind == "overlay":
            errors.add("E205", "an overlay cannot be included in a pack; pass it with --variant", doc.root.get("kind").span)
        elif m.kind not in source.kinds.list_kinds:
            if m.kind in seen:
                errors.add("E205", f"the pack already has a '{m.kind}' file ({seen[m.kind].path}); a pack holds one", doc.root.get("kind").span)
            seen[m.kind] = doc
    if not any(m.kind == "pack" for _, m in pairs) and kind_of(source.manifest) != "pack":
        node = source.manifest.root.get("kind") if isinstance(source.manifest.root, Mapping) else None
        errors.add("E205", "pack.yaml must have `kind: pack`", node.span if node else Span(source.manifest.path, 1, 1))


def _scope_for(model, path: tuple, kinds: KindTable, record_of: dict) -> Scope:
    kind = model.kind
    if len(path) >= 2 and (kind, path[0]) in record_of and isinstance(path[1], int):
        return Scope(this_kinds=(record_of[(kind, path[0])],))
    if kind == "pack" and len(path) >= 3 and path[0] == "tile_kinds" and isinstance(path[1], int):
        # a tile kind's placement effects run on the tile just placed
        return Scope(this_kinds=(model.tile_kinds[path[1]].id,))
    if kind == "pack" and path and path[0] == "icons":
        # an icon's effect runs on the tile that carries it
        return Scope(this_kinds=tuple(n for n in kinds.records if kinds.record_fields(n, "name", "icon")))
    return Scope()


def _syntax_check_raw(doc: Document, errors: ErrorBag, kinds: KindTable) -> None:
    """Parse the DSL texts of a file that failed the schema, reporting syntax errors only."""
    for _, node, start in raw_dsl_nodes(doc, kinds.files):
        if node.style == ">":
            continue  # already reported (E008)
        try:
            parse(node.value, start)
        except DslSyntaxError as exc:
            errors.add(exc.code, exc.message, _scalar_span(node, exc.start, exc.end))


def _parse_fields(pairs, errors: ErrorBag, kinds: KindTable) -> list[DslField]:
    fields: list[DslField] = []
    record_of = kinds.record_of()
    pack = next((m for _, m in pairs if m.kind == "pack"), None)
    for doc, model in pairs:
        for path, start, text in iter_dsl(model):
            node, _ = walk(doc.root, path)
            try:
                tree = parse(text, start)
            except DslSyntaxError as exc:
                errors.add(exc.code, exc.message, _scalar_span(node, exc.start, exc.end))
                continue
            scope = flow_scope(model, path, pack, kinds) if model.kind == "flow" else _scope_for(model, path, kinds, record_of)
            fields.append(DslField(model.kind, path, start, text, _record_id(model, path), _key_path(model, path, record_of),
                                   node, tree, scope))
    return fields


def _key_path(model: BaseModel, path: tuple, record_of: dict) -> tuple[str, ...]:
    """The path with every list index of an item that has an id replaced by that id."""
    out, obj = [], model
    for seg in path:
        obj = obj[seg] if isinstance(seg, int) else getattr(obj, seg)
        rid = getattr(obj, "id", None) if isinstance(seg, int) else None
        if rid is not None and len(out) == 1 and (model.kind, out[0]) in record_of:
            out[0] = rid  # a record: `walls/tiles/3` -> `walls/wall_i_01`
        else:
            out.append(rid if rid is not None else str(seg))
    return tuple(out)


def _record_id(model: BaseModel, path: tuple) -> str | None:
    found, obj = None, model
    for seg in path[:-1]:
        obj = obj[seg] if isinstance(seg, int) else getattr(obj, seg)
        found = getattr(obj, "id", None) or found
    return found


def _scalar_span(node, start: int, end: int) -> Span:
    if isinstance(node, Scalar) and isinstance(node.value, str):
        line, col = node.position_of(start)
        end_line, end_col = node.position_of(max(start, end - 1))
        return Span(node.span.path, line, col, end_line, end_col + 1)
    return node.span


def _compile(compiler: Compiler, f: DslField):
    if f.start == "program":
        return compiler.program(f.ast, f.text)
    if f.start == "amounts":
        return compiler.amounts(f.ast)
    if f.start == "condition":
        return compiler.cond(f.ast, False)
    return compiler.expr(f.ast, False)
