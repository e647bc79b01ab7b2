"""Declared record kinds: the declaration models, the field type vocabulary, and the record models
generated from a pack's declarations.

A pack declares its record kinds in a `record_kinds` file: each kind names the file kind and list
field that hold its records, and its fields, each with a type from the vocabulary below. The
loader validates the declarations, then builds one frozen, strict pydantic model per kind
(`pydantic.create_model`) on top of the common `Record` base, and one file model per file kind
that holds records. The rest of the pipeline reads the generated models like hand-written ones.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Optional

from pydantic import Field, create_model

from interpreter.content.model.base import Amounts, Condition, ContentFile, Effect, Expr, Id, Model, Record

# ---------------------------------------------------------------- the declaration models


class FieldSpec(Model):
    """The type of a field or of a list's items."""

    type: Id
    """One of the field types (see the authoring guide): integer, boolean, text, name, choice, effect,
    amounts, expression, condition, hex_sides, hex_corners, list."""
    min: Optional[int] = None
    """integer: the smallest value allowed."""
    max: Optional[int] = None
    """integer: the largest value allowed."""
    values: Optional[list[Id]] = None
    """choice: the values allowed."""
    of: Optional[Id] = None
    """name, hex_sides, hex_corners: the category the names belong to (e.g. `zone`, `action`, `icon`,
    `symbol`, `colour`, `piece`); checked against the pack's declarations."""
    item: Optional["FieldSpec"] = None
    """list: the type of the list's items."""


class FieldDecl(FieldSpec):
    """One field of a declared record kind."""

    doc: str = Field(min_length=1)
    """What the field means; it becomes the field's description in the schema and the guide."""
    required: bool = True
    """False: the field may be left out (it is then none, unless a `default:` is given)."""
    default: Any = None
    """The value of a field left out (implies `required: false`); none when not given."""
    attribute: Optional[bool] = None
    """Usable in `where` filters and as `this.<field>` (counted and compared in effects and scoring);
    integers and booleans are attributes unless set to false, other fields only when set to true."""


class KindDecl(Model):
    """A declared record kind."""

    id: Id
    """The kind's name, used in effects (`count(<kind>)`, `use <field> of any <kind>`)."""
    doc: str = Field(min_length=1)
    """What the records of this kind are."""
    file: Optional[Id] = None
    """The file kind that holds the records (none: a template other kinds extend)."""
    list: Optional[Id] = None
    """The list field of that file holding the records."""
    file_doc: Optional[str] = None
    """What a file of this kind holds (defaults to the kind's doc)."""
    extends: Optional[Id] = None
    """A kind declared earlier whose fields come first."""
    fields: dict[str, FieldDecl] = {}
    """The kind's fields beside id, name, provenance, source and notes, in order."""
    file_fields: dict[str, FieldDecl] = {}
    """Fields of the file itself, beside its record list (e.g. the pool its records lie in)."""


class RecordKindsFile(Model):
    """The record kinds a pack declares: what each kind's records hold, and which file holds them."""

    kind: Literal["record_kinds"]
    """The content kind of the file: `record_kinds`."""
    kinds: list[KindDecl] = Field(min_length=1)
    """The pack's record kinds, in order."""


# ---------------------------------------------------------------- the vocabulary

FIELD_TYPES: dict[str, str] = {
    "integer": "a whole number; `min:` and `max:` bound it",
    "boolean": "true or false",
    "text": "free text",
    "name": "a snake_case name; `of:` says what it names (a zone, an action, an icon, ...)",
    "choice": "one of the names listed in `values:`",
    "effect": "an effect program in the DSL (a reward, a bonus, triggers)",
    "amounts": "amounts in the DSL, e.g. `2 brick, 1 clay` (a cost)",
    "expression": "an expression in the DSL, e.g. `count(hut)`",
    "condition": "a condition in the DSL, e.g. `brick >= 6`",
    "hex_sides": "six names, one per side 0..5 of a hex clockwise (`none` for a blank side); `of:` their category",
    "hex_corners": "six names, one per corner 0..5 of a hex clockwise (`none` for no icon); `of:` their category",
    "list": "a list of values of the type given in `item:`",
}
DSL_TYPES = {"effect": Effect, "amounts": Amounts, "expression": Expr, "condition": Condition}
# the options each type takes (beside doc, required, default, attribute)
OPTIONS = {"integer": {"min", "max"}, "choice": {"values"}, "name": {"of"}, "hex_sides": {"of"},
           "hex_corners": {"of"}, "list": {"item"}}
COMMON_FIELDS = tuple(Record.model_fields)

_SIX = {"min_length": 6, "max_length": 6}


def annotation(spec: FieldSpec):
    """The pydantic annotation of a (validated) field type."""
    t = spec.type
    if t == "integer":
        bounds = {k: v for k, v in (("ge", spec.min), ("le", spec.max)) if v is not None}
        return Annotated[int, Field(**bounds)] if bounds else int
    if t == "boolean":
        return bool
    if t == "text":
        return str
    if t == "name":
        return Id
    if t == "choice":
        return Literal[tuple(spec.values or ())]
    if t in DSL_TYPES:
        return DSL_TYPES[t]
    if t in ("hex_sides", "hex_corners"):
        what = "side" if t == "hex_sides" else "corner"
        return Annotated[list[Id], Field(**_SIX, json_schema_extra={"$comment": f"six entries, {what} 0..5 clockwise; `none` for blank"})]
    if t == "list":
        return list[annotation(spec.item)]
    raise ValueError(f"unknown field type {t!r}")


def is_attribute(spec: FieldDecl) -> bool:
    if spec.attribute is not None:
        return spec.attribute
    return spec.type in ("integer", "boolean")


# ---------------------------------------------------------------- the generated models


@dataclass(frozen=True)
class RecordKind:
    """A kind of record effects can count, test and use (`count(<kind>)`, `use <field> of any <kind>`)."""

    name: str
    file_kind: str
    field: str
    model: type[Record]
    decl: KindDecl = None  # the declaration, for the guide and the reference checks
    fields: tuple = ()  # (name, FieldDecl) of the kind's declared fields, inherited ones first


@dataclass(frozen=True)
class KindTable:
    """The file kinds of one pack: the built-in ones and those its record kinds declare."""

    files: dict[str, type[ContentFile]]  # file kind -> file model
    records: dict[str, RecordKind] = field(default_factory=dict)  # record kind -> its declaration
    declared_files: frozenset[str] = frozenset()  # file kinds generated from declarations

    @property
    def record_file_kinds(self) -> set[str]:
        """File kinds that hold records by id (overlays can replace, add and remove them)."""
        return {rk.file_kind for rk in self.records.values()}

    @property
    def list_kinds(self) -> set[str]:
        """File kinds a pack may split over several files (they hold nothing but their record list)."""
        return {rk.file_kind for rk in self.records.values()
                if set(self.files[rk.file_kind].model_fields) == {"kind", rk.field}}

    def record_of(self) -> dict[tuple[str, str], str]:
        """(file kind, list field) -> record kind."""
        return {(rk.file_kind, rk.field): rk.name for rk in self.records.values()}

    def record_fields(self, kind: str, type_: str | None = None, of: str | None = None) -> list[str]:
        """Declared fields of a record kind, optionally only those of a type and/or a category
        (a list field counts by its items)."""
        out = []
        for name, spec in self.records[kind].fields:
            inner = spec.item if spec.type == "list" and spec.item is not None else spec
            if (type_ is None or inner.type == type_) and (of is None or inner.of == of):
                out.append(name)
        return out


def _camel(name: str) -> str:
    return "".join(p.capitalize() for p in name.split("_"))


def _model_field(spec: FieldDecl):
    ann = annotation(spec)
    info = {"description": spec.doc}
    if "default" in spec.model_fields_set and spec.default is not None:
        return Annotated[ann, Field(**info)], spec.default
    if not spec.required:
        return Annotated[Optional[ann], Field(**info)], None
    return Annotated[ann, Field(**info)], ...


def _fields_of(decl: KindDecl, by_id: dict[str, KindDecl]) -> list[tuple[str, FieldDecl]]:
    out = _fields_of(by_id[decl.extends], by_id) if decl.extends in by_id else []
    return out + list(decl.fields.items())


_CACHE: dict[str, KindTable] = {}  # the declarations (and the built-in kinds) -> their table


def build_kinds(builtin: dict[str, type[ContentFile]], decls: list[KindDecl]) -> KindTable:
    """The kind table of a pack from its (checked) declarations; built once per distinct declaration."""
    key = json.dumps([id(builtin), *(d.model_dump(exclude_unset=True) for d in decls)], sort_keys=True, default=str)
    found = _CACHE.get(key)
    if found is not None:
        return found
    by_id = {d.id: d for d in decls}
    records: dict[str, RecordKind] = {}
    files = dict(builtin)
    lists: dict[str, list[tuple[str, KindDecl, type[Record]]]] = {}
    for d in decls:
        if d.file is None:
            continue
        fields = _fields_of(d, by_id)
        model = create_model(_camel(d.id), __base__=Record, __doc__=d.doc,
                             **{name: _model_field(spec) for name, spec in fields})
        records[d.id] = RecordKind(d.id, d.file, d.list, model, d, tuple(fields))
        lists.setdefault(d.file, []).append((d.list, d, model))
    for file_kind, entries in lists.items():
        base = builtin.get(file_kind, ContentFile)
        extra: dict[str, Any] = {}
        if file_kind not in builtin:
            extra["kind"] = (Annotated[Literal[file_kind], Field(description=ContentFile.model_fields["kind"].description)], ...)
        for list_field, d, model in entries:
            for name, spec in d.file_fields.items():
                extra[name] = _model_field(spec)
            extra[list_field] = (Annotated[list[model], Field(description=f"Every {d.id.replace('_', ' ')} record.")], ...)
        doc = entries[0][1].file_doc or entries[0][1].doc
        files[file_kind] = create_model(_camel(file_kind) + "File", __base__=base, __doc__=base.__doc__ if base is not ContentFile else doc,
                                        **extra)
    table = KindTable(files, records, frozenset(lists))
    _CACHE[key] = table
    return table
