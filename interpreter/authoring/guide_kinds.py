"""The guide's reference of content kinds: every file model, its nested models and their fields, with the
types, defaults and attribute docstrings."""

from __future__ import annotations

import ast as pyast
import inspect
import textwrap
import types
import typing
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from interpreter.authoring.guide_markdown import DSL_WORDS, code, table
from interpreter.authoring.declared_kinds import render_declared_kinds
from interpreter.content.model import KindTable
from interpreter.content.model.base import ID_PATTERN, Dsl


def attribute_docs(cls: type) -> dict[str, str]:
    """Attribute docstrings of a model class and its bases (the nearest class that has one wins).

    pydantic fills ``FieldInfo.description`` from these, except when the field's type already
    carries a description (``Id``, the DSL types, ``Axial``): that generic text then wins. The
    guide wants the field's own words, so it reads the docstrings itself.
    """
    return dict(_attribute_docs(cls))


@lru_cache(maxsize=None)
def _attribute_docs(cls: type) -> dict[str, str]:
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if klass is BaseModel or not (isinstance(klass, type) and issubclass(klass, BaseModel)):
            continue
        try:
            source = textwrap.dedent(inspect.getsource(klass))
        except (OSError, TypeError):
            continue
        body = pyast.parse(source).body[0].body
        for stmt, nxt in zip(body, body[1:]):
            if (isinstance(stmt, pyast.AnnAssign) and isinstance(stmt.target, pyast.Name)
                    and isinstance(nxt, pyast.Expr) and isinstance(nxt.value, pyast.Constant)
                    and isinstance(nxt.value.value, str)):
                docs[stmt.target.id] = inspect.cleandoc(nxt.value.value)
    return docs


def field_doc(model: type[BaseModel], name: str) -> str:
    """What the guide says a field is: its docstring, else the description its type carries."""
    return attribute_docs(model).get(name) or model.model_fields[name].description or ""


def _constraint(meta, name: str):
    """The value of a constraint (``ge``, ``le``, ``min_length``, ...) among a field's metadata."""
    return next((getattr(m, name) for m in meta if getattr(m, name, None) is not None), None)


def _bounds(meta) -> str:
    lo, hi = _constraint(meta, "ge"), _constraint(meta, "le")
    if lo is not None and hi is not None:
        return f" {lo} to {hi}"
    if lo is not None:
        return f" ≥ {lo}"
    if hi is not None:
        return f" ≤ {hi}"
    return ""


def _length(meta) -> str:
    lo, hi = _constraint(meta, "min_length"), _constraint(meta, "max_length")
    if lo is not None and lo == hi:
        return f"exactly {lo}"
    if lo and hi is not None:
        return f"{lo} to {hi}"
    if lo:
        return f"at least {lo}"
    if hi is not None:
        return f"at most {hi}"
    return ""


def _flatten(annotation, meta=()) -> tuple[Any, list]:
    """Strip Annotated layers, collecting their metadata (FieldInfo metadata included)."""
    meta = list(meta)
    while typing.get_origin(annotation) is Annotated:
        args = typing.get_args(annotation)
        annotation = args[0]
        for extra in args[1:]:
            meta += extra.metadata if isinstance(extra, FieldInfo) else [extra]
    return annotation, meta


_PLURAL = {"text": "texts", "id": "ids", "true or false": "true/false values", "any value": "any values"}


def type_words(annotation, meta=(), plural: bool = False) -> str:
    """A field's type in plain words: `list of ids (exactly 6)`, `DSL effect`, `whole number 1 to 8`."""
    annotation, meta = _flatten(annotation, meta)
    dsl = next((m for m in meta if isinstance(m, Dsl)), None)
    origin = typing.get_origin(annotation)
    if dsl is not None:
        word = f"DSL {DSL_WORDS[dsl.start]}"
        return word + ("s" if plural and not word.endswith("s") else "")
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return " or ".join(type_words(a, meta if len(args) == 1 else (), plural) for a in args)
    if origin is Literal:
        values = [code(str(v).lower() if isinstance(v, bool) else str(v)) for v in typing.get_args(annotation)]
        return values[0] if len(values) == 1 else "one of " + ", ".join(values)
    if origin is list:
        (item,) = typing.get_args(annotation)
        length = _length(meta)
        return "list of " + type_words(item, (), True) + (f" ({length})" if length else "")
    if origin is dict:
        key, value = typing.get_args(annotation)
        return f"mapping of {type_words(key, (), True)} to {type_words(value, (), True)}"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return f"`{annotation.__name__}` object" + ("s" if plural else "")
    if annotation is int:
        return ("whole numbers" if plural else "whole number") + _bounds(meta)
    if annotation is str:
        is_id = any(getattr(m, "pattern", None) == ID_PATTERN for m in meta)
        word = "id" if is_id else "text"
        return _PLURAL[word] if plural else word
    if annotation is bool:
        return _PLURAL["true or false"] if plural else "true or false"
    if annotation is Any:
        return _PLURAL["any value"] if plural else "any value"
    return getattr(annotation, "__name__", str(annotation))


def _default_words(info: FieldInfo) -> str:
    if info.is_required():
        return "**required**"
    value = info.get_default(call_default_factory=True)
    if value is None or value == [] or value == {}:
        return "optional"
    if isinstance(value, bool):
        return f"default `{str(value).lower()}`"
    return f"default `{value}`"


def _nested(annotation) -> list[type[BaseModel]]:
    annotation, _ = _flatten(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    out: list[type[BaseModel]] = []
    for arg in typing.get_args(annotation):
        for m in _nested(arg):
            if m not in out:
                out.append(m)
    return out


def _is_list(annotation) -> bool:
    annotation, _ = _flatten(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return any(_is_list(a) for a in typing.get_args(annotation))
    return typing.get_origin(annotation) is list


def model_tree(model: type[BaseModel]) -> list[tuple[type[BaseModel], list[str]]]:
    """The file model, then every nested model (depth first, each once) with the paths it sits at."""
    order: list[type[BaseModel]] = [model]
    paths: dict[type[BaseModel], list[str]] = {model: []}

    def visit(m: type[BaseModel], prefix: str) -> None:
        for name, info in m.model_fields.items():
            path = f"{prefix}{info.alias or name}" + ("[]" if _is_list(info.annotation) else "")
            for sub in _nested(info.annotation):
                if sub not in paths:
                    paths[sub] = [path]
                    order.append(sub)
                    visit(sub, path + ".")
                elif path not in paths[sub]:
                    paths[sub].append(path)

    visit(model, "")
    return [(m, paths[m]) for m in order]


def _class_doc(model: type) -> str:
    doc = model.__dict__.get("__doc__")
    return inspect.cleandoc(doc) if doc else ""


def _field_rows(model: type[BaseModel]) -> list[tuple[str, ...]]:
    return [
        (code(info.alias or name), type_words(info.annotation, info.metadata), _default_words(info),
         field_doc(model, name) or "*(no description yet)*")
        for name, info in model.model_fields.items()
    ]


def render_kinds(kinds: KindTable) -> str:
    records_of = {rk.file_kind: rk for rk in kinds.records.values()}
    KINDS = kinds.files
    parts = [render_declared_kinds(), "",
        "Every content file starts with `kind:`, which selects one of the kinds below. A kind marked "
        "*one per pack* appears in one file of a pack; a *record* kind may be split over several files "
        "(their records are concatenated) and its records can be counted and used in effects by the "
        "record-kind name shown. Types: *id* is a snake_case name (`[a-z][a-z0-9_]*`); *DSL effect*, "
        "*DSL amounts*, *DSL expression* and *DSL condition* are text in the effect DSL, parsed from "
        "that grammar rule (see the DSL reference).",
        "",
        table(("Kind", "Files", "What it holds"), [
            (f"[`{k}`](#{k})", "records, one or more files" if k in kinds.list_kinds else ("overlay file" if k == "overlay" else "one per pack"),
             _class_doc(KINDS[k]).split("\n\n")[0])
            for k in sorted(KINDS)
        ]),
    ]
    for kind in sorted(KINDS):
        model = KINDS[kind]
        parts += ["", f"### `{kind}`", ""]
        doc = _class_doc(model)
        if doc:
            parts += [doc, ""]
        rk = records_of.get(kind)
        if rk is not None:
            several = "; several files of this kind may be included" if kind in kinds.list_kinds else ""
            parts += [f"Records: the `{rk.field}` list{several}. In effects these records are the kind "
                      f"`{rk.name}` (e.g. `count({rk.name})`), declared by the pack: {rk.decl.doc}", ""]
        elif kind == "overlay":
            parts += ["Not included by a pack: pass it with `--variant` (see *Variants and house rules*).", ""]
        else:
            parts += ["One file of this kind per pack.", ""]
        for m, paths in model_tree(model):
            if paths:
                where = ", ".join(code(p) for p in paths)
                doc = _class_doc(m)
                parts += ["", f"**{where}**: `{m.__name__}`" + (f". {doc}" if doc else ""), ""]
            parts.append(table(("Field", "Type", "Required", "Description"), _field_rows(m)))
    return "\n".join(parts)
