"""Phase 2: check every document against its kind's pydantic model.

pydantic reports a ``loc`` path; we walk the YAML node tree along it to the
nearest node that exists, so each error lands at ``file:line:col``: on the
offending value, on the key of an unknown field, or on the mapping that
lacks a required field.
"""

from __future__ import annotations

import difflib

from pydantic import BaseModel, ValidationError

from interpreter.errors import ErrorBag
from interpreter.content.model import KINDS, dsl_start
from interpreter.content.source import Document, Mapping, Scalar, Sequence, walk

_TYPE_ERRORS = {
    "model_type", "model_attributes_type", "dict_type", "list_type", "tuple_type", "string_type", "int_type",
    "int_parsing", "int_from_float", "bool_type", "bool_parsing", "float_type", "float_parsing", "none_required",
    "str_type", "mapping_type", "iterable_type",
}


def check_document(doc: Document, errors: ErrorBag, files: dict | None = None) -> BaseModel | None:
    """Validate one document against its kind's model in ``files`` (file kind -> model; the built-in
    kinds when not given); return its model, or None after reporting errors."""
    files = KINDS if files is None else files
    root = doc.root
    if not isinstance(root, Mapping):
        span = root.span if root is not None else None
        errors.add("E205", "a content file is a mapping that starts with `kind:`", span or _file_span(doc))
        return None
    kind_node = root.get("kind")
    if not isinstance(kind_node, Scalar) or kind_node.value not in files:
        known = ", ".join(sorted(files))
        if kind_node is None:
            errors.add("E205", f"the file has no `kind:`; it must be one of: {known}", root.span)
        elif not isinstance(kind_node, Scalar):
            errors.add("E205", f"`kind:` is a single word, one of: {known}", kind_node.span)
        else:
            hint = difflib.get_close_matches(str(kind_node.value), files, n=1)
            extra = f"; did you mean '{hint[0]}'?" if hint else f"; it must be one of: {known}"
            errors.add("E205", f"unknown kind '{kind_node.value}'{extra}", kind_node.span)
        return None
    model_cls = files[kind_node.value]
    before = len(errors)
    _check_folded(doc, errors, files)
    try:
        model = model_cls.model_validate(doc.data())
    except ValidationError as exc:
        found = exc.errors(include_url=False)
        hinted = _misspelt(doc, found)
        for err in found:
            loc = tuple(err["loc"])
            if err["type"] == "missing" and (loc[:-1], loc[-1]) in hinted:
                continue  # the unknown field's "did you mean" already names it
            _report(doc, err, errors, hinted, files)
        return None
    return model if len(errors) == before else None


def _file_span(doc: Document):
    from interpreter.errors import Span

    return Span(doc.path, 1, 1)


def _misspelt(doc: Document, found: list[dict]) -> set[tuple]:
    """(mapping loc, field) of missing fields that an unknown field of the same mapping misspells."""
    missing = {(tuple(e["loc"])[:-1], e["loc"][-1]) for e in found if e["type"] == "missing"}
    out = set()
    for e in found:
        loc = tuple(e["loc"])
        if e["type"] == "extra_forbidden":
            fields = [f for (parent, f) in missing if parent == loc[:-1]]
            hint = difflib.get_close_matches(str(loc[-1]), fields, n=1)
            if hint:
                out.add((loc[:-1], hint[0]))
    return out


def _report(doc: Document, err: dict, errors: ErrorBag, hinted: set[tuple] = frozenset(), files: dict = KINDS) -> None:
    loc = tuple(err["loc"])
    etype = err["type"]
    node, depth = walk(doc.root, loc)
    field = _field_name(loc)
    if etype == "missing":
        errors.add("E201", f"missing field '{loc[-1]}' in {_where(loc[:-1])}{_record_of(node)}", node.span)
    elif etype == "extra_forbidden":
        key = node_key(doc.root, loc)
        allowed = _allowed_fields(doc, loc, files)
        missing = [f for (parent, f) in hinted if parent == loc[:-1]]
        hint = difflib.get_close_matches(str(loc[-1]), missing, n=1) or difflib.get_close_matches(str(loc[-1]), allowed, n=1)
        extra = f"; did you mean '{hint[0]}'?" if hint else (f"; allowed: {', '.join(allowed)}" if allowed else "")
        if hint and hint[0] in missing:
            extra += f" ('{hint[0]}' is missing)"
        if not hint and _split_value(key, node):
            extra = ("; it looks like the end of the value before it: a `,` inside `{...}` or `[...]` "
                     "ends a value, so quote text that contains commas")
        errors.add("E202", f"unknown field '{loc[-1]}'{extra}", key.span if key else node.span)
    elif etype in ("too_short", "too_long") and isinstance(err.get("input"), list):
        errors.add("E207", f"{field}: {_length_message(doc, loc, err, files)}", node.span)
    elif etype in _TYPE_ERRORS:
        empty = "the value is empty; " if err.get("input", "") is None else ""
        errors.add("E203", f"{field}: {empty}{_lower(err['msg'])}", node.span)
    else:
        errors.add("E204", f"{field}: {_lower(err['msg'])}", node.span)


def _record_of(node) -> str:
    rid = node.get("id") if isinstance(node, Mapping) else None
    return f" (id '{rid.value}')" if isinstance(rid, Scalar) and isinstance(rid.value, str) else ""


def _split_value(key: Scalar | None, value) -> bool:
    """A key with no value that is no identifier: the tail of a value split at a comma."""
    return (key is not None and isinstance(value, Scalar) and value.value is None and value.raw == ""
            and not str(key.value).replace("_", "").isalnum())


def _length_message(doc: Document, loc: tuple, err: dict, files: dict) -> str:
    actual = err.get("ctx", {}).get("actual_length", len(err["input"]))
    low = high = None
    info = _field_info(doc, loc, files)
    for m in info.metadata if info is not None else ():
        low = getattr(m, "min_length", low)
        high = getattr(m, "max_length", high)
    if low is not None and low == high:
        return f"needs exactly {low} entries, found {actual}"
    if err["type"] == "too_short":
        return f"needs at least {err['ctx']['min_length']} entries, found {actual}"
    return f"takes at most {err['ctx']['max_length']} entries, found {actual}"


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


def _owner_model(doc: Document, loc: tuple, files: dict):
    """The model class that declares the last field of ``loc`` (None when unknown)."""
    model = files.get(doc.root.get("kind").value) if isinstance(doc.root, Mapping) else None
    for seg in loc[:-1]:
        if model is None:
            return None
        if isinstance(seg, int):
            continue
        info = model.model_fields.get(seg)
        if info is None:
            return None
        model = _model_in(info.annotation)
    return model


def _allowed_fields(doc: Document, loc: tuple, files: dict) -> list[str]:
    model = _owner_model(doc, loc, files)
    return sorted(model.model_fields) if model is not None else []


def _field_info(doc: Document, loc: tuple, files: dict):
    """The pydantic FieldInfo of the last named field of ``loc`` (None when unknown)."""
    named = [i for i, seg in enumerate(loc) if isinstance(seg, str)]
    if not named:
        return None
    cut = named[-1]
    model = _owner_model(doc, loc[: cut + 1], files)
    return model.model_fields.get(loc[cut]) if model is not None else None


def _model_in(annotation):
    import typing

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def raw_dsl_nodes(doc: Document, files: dict | None = None):
    """Every string scalar of the YAML tree that sits where the kind's models expect DSL text.

    Read from the node tree, not the model, so it also works on a file that failed validation:
    its effects still get their syntax checked in the same run. Yields (field name, node, start rule).
    """
    root = doc.root
    kind = root.get("kind") if isinstance(root, Mapping) else None
    files = KINDS if files is None else files
    model_cls = files.get(kind.value) if isinstance(kind, Scalar) and isinstance(kind.value, str) else None
    yield from _dsl_in(model_cls, root)


def _dsl_in(model_cls, node):
    if not isinstance(node, Mapping) or model_cls is None:
        return
    for key, value in node.items:
        info = model_cls.model_fields.get(key.value)
        if info is None:
            continue
        start = dsl_start(info.annotation, info.metadata)
        sub = _model_in(info.annotation)
        for item in (value.items if isinstance(value, Sequence) else [value]):
            if start and isinstance(item, Scalar) and isinstance(item.value, str):
                yield key.value, item, start
            elif sub is not None:
                yield from _dsl_in(sub, item)


def _check_folded(doc: Document, errors: ErrorBag, files: dict) -> None:
    """Reject `>` folded scalars in DSL fields: folding would shift error columns and join lines."""
    for name, node, _ in raw_dsl_nodes(doc, files):
        if node.style == ">":
            errors.add("E008", f"'{name}' holds DSL text: use a literal block `|` instead of a folded `>`", node.span)
