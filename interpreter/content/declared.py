"""Read a pack's record kind declarations (its `record_kinds` files) and build its kind table.

Runs right after the pack's files are loaded, before overlays and the schema phase: every other
file of the pack is validated against the models generated from these declarations. A broken
declaration is reported at its file:line:col and stops the load (the files of the kinds it
declares could not be read).
"""

from __future__ import annotations

import difflib

from pydantic import TypeAdapter, ValidationError

from interpreter.errors import ErrorBag
from interpreter.content.model import KINDS
from interpreter.content.model.kinds import COMMON_FIELDS, DSL_TYPES, FIELD_TYPES, OPTIONS, FieldDecl, FieldSpec, KindDecl, KindTable, annotation, build_kinds
from interpreter.content.pack import PackSource, kind_of
from interpreter.content.schema import check_document, node_key
from interpreter.content.source import Document, walk

DECLARATIONS = "record_kinds"
# what a `name` field's `of:` may name beside the declared kinds: the pack manifest's categories
CATEGORIES = ("resource", "group", "action", "zone", "piece", "permit", "symbol", "icon", "colour", "track", "grid")
# built-in file kinds that cannot hold declared records
_CLOSED = ("pack", "overlay", DECLARATIONS)


def read_kinds(source: PackSource, errors: ErrorBag) -> KindTable | None:
    """The pack's kind table; None after reporting errors in its declarations."""
    docs = [d for d in source.all() if kind_of(d) == DECLARATIONS]
    before = len(errors)
    decls: list[tuple[Document, int, KindDecl]] = []
    for doc in docs:
        model = check_document(doc, errors)
        if model is not None:
            decls += [(doc, i, k) for i, k in enumerate(model.kinds)]
    if len(errors) > before:
        return None
    _Checker(decls, errors).run()
    if len(errors) > before:
        return None
    return build_kinds(KINDS, [k for _, _, k in decls])


class _Checker:
    def __init__(self, decls, errors: ErrorBag):
        self.decls, self.errors = decls, errors

    def err(self, doc: Document, path: tuple, code: str, message: str, at_key: bool = False) -> None:
        node, _ = walk(doc.root, path)
        key = node_key(doc.root, path) if at_key else None
        self.errors.add(code, message, (key or node).span)

    def run(self) -> None:
        seen: dict[str, KindDecl] = {}
        lists: dict[tuple[str, str], str] = {}
        fields_of: dict[str, set[str]] = {}
        ids = {k.id for _, _, k in self.decls}
        for doc, i, k in self.decls:
            at = ("kinds", i)
            if k.id in seen:
                self.err(doc, at + ("id",), "E206", f"the record kind '{k.id}' is declared twice")
            seen[k.id] = k
            inherited: set[str] = set()
            if k.extends is not None:
                if k.extends not in fields_of:
                    later = " (it is declared later: declare it first)" if k.extends in ids else ""
                    self.err(doc, at + ("extends",), "E215", f"'{k.extends}' is no record kind declared before '{k.id}'{later}")
                else:
                    inherited = fields_of[k.extends]
            self._structure(doc, at, k, lists)
            own = set()
            for name, spec in k.fields.items():
                path = at + ("fields", name)
                if name in COMMON_FIELDS:
                    self.err(doc, path, "E212", f"'{name}' is a field of every record already "
                             f"({', '.join(COMMON_FIELDS)}); declare only the kind's own fields", at_key=True)
                elif name in inherited:
                    self.err(doc, path, "E212", f"'{name}' is a field of '{k.extends}' already, which '{k.id}' extends", at_key=True)
                self._field(doc, path, spec, ids)
                own.add(name)
            for name, spec in k.file_fields.items():
                path = at + ("file_fields", name)
                if name in ("kind", k.list):
                    self.err(doc, path, "E212", f"'{name}' is a field of every {k.file} file already", at_key=True)
                self._field(doc, path, spec, ids)
            fields_of[k.id] = inherited | own

    def _structure(self, doc, at, k: KindDecl, lists) -> None:
        if (k.file is None) != (k.list is None):
            missing = "list" if k.list is None else "file"
            self.err(doc, at, "E215", f"the record kind '{k.id}' names {'a file' if k.file else 'a list'} but no `{missing}:`; "
                     "give both (the file kind and its list field), or neither for a template other kinds extend")
            return
        if k.file is None:
            if k.file_fields:
                self.err(doc, at + ("file_fields",), "E215", f"'{k.id}' is a template (no `file:`), so it has no file fields")
            return
        if k.file in _CLOSED:
            self.err(doc, at + ("file",), "E215", f"a '{k.file}' file cannot hold records; name a file kind of the pack's own")
            return
        built_in = KINDS.get(k.file)
        if built_in is not None:
            if k.list in built_in.model_fields:
                self.err(doc, at + ("list",), "E215", f"a {k.file} file has a field '{k.list}' already; name another list")
            if k.file_fields:
                self.err(doc, at + ("file_fields",), "E215", f"a {k.file} file has its fields declared by the interpreter")
        other = lists.get((k.file, k.list))
        if other is not None:
            self.err(doc, at + ("list",), "E215", f"'{k.file}' › '{k.list}' holds the records of '{other}' already")
        lists[(k.file, k.list)] = k.id

    def _field(self, doc, path: tuple, spec: FieldSpec, ids: set[str], in_list: bool = False) -> bool:
        if spec.type not in FIELD_TYPES:
            hint = difflib.get_close_matches(spec.type, FIELD_TYPES, n=1)
            extra = f"; did you mean '{hint[0]}'?" if hint else f"; the types are: {', '.join(FIELD_TYPES)}"
            self.err(doc, path + ("type",), "E211", f"unknown field type '{spec.type}'{extra}")
            return False
        ok = True
        takes = OPTIONS.get(spec.type, set())
        for option in ("min", "max", "values", "of", "item"):
            if getattr(spec, option) is not None and option not in takes:
                self.err(doc, path + (option,), "E213", f"a {spec.type} field takes no `{option}:`"
                         + (f" (it takes {', '.join(f'`{o}:`' for o in sorted(takes))})" if takes else ""))
                ok = False
        if spec.type in DSL_TYPES and isinstance(spec, FieldDecl) and "default" in spec.model_fields_set:
            self.err(doc, path + ("default",), "E213", f"a field of type {spec.type} takes no default: leave it out (none), or write it in every record")
            ok = False
        if spec.type == "choice" and not spec.values:
            self.err(doc, path, "E213", "a choice field needs `values:`, the names it may take")
            ok = False
        if spec.type == "integer" and spec.min is not None and spec.max is not None and spec.min > spec.max:
            self.err(doc, path + ("max",), "E213", f"`max: {spec.max}` is below `min: {spec.min}`")
            ok = False
        if spec.of is not None and spec.of not in CATEGORIES and spec.of not in ids:
            hint = difflib.get_close_matches(spec.of, [*CATEGORIES, *sorted(ids)], n=1)
            extra = f"; did you mean '{hint[0]}'?" if hint else f"; it names one of: {', '.join(CATEGORIES)}, or a record kind"
            self.err(doc, path + ("of",), "E213", f"unknown category '{spec.of}'{extra}")
            ok = False
        if spec.type == "list":
            if spec.item is None:
                self.err(doc, path, "E213", "a list field needs `item:`, the type of its entries")
                return False
            if spec.item.type == "list":
                self.err(doc, path + ("item", "type"), "E213", "a list's items cannot be lists")
                return False
            ok = self._field(doc, path + ("item",), spec.item, ids, True) and ok
        if ok and isinstance(spec, FieldDecl) and "default" in spec.model_fields_set and spec.default is not None:
            try:
                TypeAdapter(annotation(spec)).validate_python(spec.default, strict=True)
            except ValidationError as exc:
                msg = exc.errors(include_url=False)[0]["msg"]
                self.err(doc, path + ("default",), "E214", f"the default does not fit the field's type ({spec.type}): {msg[:1].lower() + msg[1:]}")
                ok = False
        return ok
