"""Phase 2: check every document against its kind's pydantic model.

pydantic reports a ``loc`` path; we walk the YAML node tree along it to the
nearest node that exists, so each error lands at ``file:line:col``: on the
offending value, on the key of an unknown field, or on the mapping that
lacks a required field.
"""

from __future__ import annotations

import difflib

from pydantic import BaseModel, ValidationError

from .errors import ErrorBag
from .model import KINDS, dsl_start
from .source import Document, Mapping, Scalar, walk

_TYPE_ERRORS = {
    "model_type", "model_attributes_type", "dict_type", "list_type", "tuple_type", "string_type", "int_type",
    "int_parsing", "int_from_float", "bool_type", "bool_parsing", "float_type", "float_parsing", "none_required",
    "str_type", "mapping_type", "iterable_type",
}


def check_document(doc: Document, errors: ErrorBag) -> BaseModel | None:
    """Validate one document; return its model, or None after reporting errors."""
    root = doc.root
    if not isinstance(root, Mapping):
        span = root.span if root is not None else None
        errors.add("E205", "a content file is a mapping that starts with `kind:`", span or _file_span(doc))
        return None
    kind_node = root.get("kind")
    if not isinstance(kind_node, Scalar) or kind_node.value not in KINDS:
        known = ", ".join(sorted(KINDS))
        if kind_node is None:
            errors.add("E205", f"the file has no `kind:`; it must be one of: {known}", root.span)
        else:
            hint = difflib.get_close_matches(str(kind_node.value), KINDS, n=1)
            extra = f"; did you mean '{hint[0]}'?" if hint else f"; it must be one of: {known}"
            errors.add("E205", f"unknown kind '{kind_node.value}'{extra}", kind_node.span)
        return None
    model_cls = KINDS[kind_node.value]
    before = len(errors)
    _check_folded(model_cls, root, (), errors)
    try:
        model = model_cls.model_validate(doc.data())
    except ValidationError as exc:
        for err in exc.errors(include_url=False):
            _report(doc, err, errors)
        return None
    return model if len(errors) == before else None


def _file_span(doc: Document):
    from .errors import Span

    return Span(doc.path, 1, 1)


def _report(doc: Document, err: dict, errors: ErrorBag) -> None:
    loc = tuple(err["loc"])
    etype = err["type"]
    node, depth = walk(doc.root, loc)
    field = _field_name(loc)
    where = ".".join(str(x) for x in loc[:depth]) or "the file"
    if etype == "missing":
        errors.add("E201", f"missing field '{loc[-1]}' in {_where(loc[:-1])}", node.span)
    elif etype == "extra_forbidden":
        key = node_key(doc.root, loc)
        allowed = _allowed_fields(doc, loc)
        hint = difflib.get_close_matches(str(loc[-1]), allowed, n=1)
        extra = f"; did you mean '{hint[0]}'?" if hint else (f"; allowed: {', '.join(allowed)}" if allowed else "")
        errors.add("E202", f"unknown field '{loc[-1]}'{extra}", key.span if key else node.span)
    elif etype in ("too_short", "too_long") and isinstance(err.get("input"), list):
        errors.add("E207", f"{field}: {_lower(err['msg'])}", node.span)
    elif etype in _TYPE_ERRORS:
        errors.add("E203", f"{field}: {_lower(err['msg'])}", node.span)
    else:
        errors.add("E204", f"{field}: {_lower(err['msg'])}", node.span)
    del where


def _field_name(loc: tuple) -> str:
    names = [str(x) for x in loc if isinstance(x, str)]
    return names[-1] if names else "value"


def _where(loc: tuple) -> str:
    if not loc:
        return "the file"
    out = ""
    for seg in loc:
        out += f"[{seg}]" if isinstance(seg, int) else (f".{seg}" if out else str(seg))
    return out


def _lower(msg: str) -> str:
    return msg[:1].lower() + msg[1:]


def node_key(root, loc: tuple) -> Scalar | None:
    """The key node of the last path segment, when it names a mapping entry."""
    parent, depth = walk(root, loc[:-1])
    if isinstance(parent, Mapping) and isinstance(loc[-1], str):
        return parent.key_node(loc[-1])
    return None


def _allowed_fields(doc: Document, loc: tuple) -> list[str]:
    model = KINDS.get(doc.root.get("kind").value) if isinstance(doc.root, Mapping) else None
    for seg in loc[:-1]:
        if model is None:
            return []
        if isinstance(seg, int):
            continue
        info = model.model_fields.get(seg)
        if info is None:
            return []
        model = _model_in(info.annotation)
    return sorted(model.model_fields) if model is not None else []


def _model_in(annotation):
    import typing

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def _check_folded(model_cls, node, path, errors: ErrorBag) -> None:
    """Reject `>` folded scalars in DSL fields: folding would shift error columns and join lines."""
    if not isinstance(node, Mapping) or model_cls is None:
        return
    for key, value in node.items:
        info = model_cls.model_fields.get(key.value)
        if info is None:
            continue
        start = dsl_start(info.annotation, info.metadata)
        sub = _model_in(info.annotation)
        for item in (value.items if hasattr(value, "items") and not isinstance(value, Mapping) else [value]):
            if start and isinstance(item, Scalar) and item.style == ">":
                errors.add("E008", f"'{key.value}' holds DSL text: use a literal block `|` instead of a folded `>`", item.span)
            elif sub is not None:
                _check_folded(sub, item, path + (key.value,), errors)
