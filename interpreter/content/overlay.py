"""Apply overlay files (variants, house rules) onto a pack's node trees.

Overlays edit the YAML node trees before validation, so every value they
bring keeps its own position: an error in a record an overlay adds or
replaces points into the overlay file.

Every operation of an overlay is one `Edit` (a `set:` path, or one record of
`add:`/`replace:`/`remove:`); `apply_overlay` returns them, so the pipeline can
report an error that an edit causes in the pack's own files at the edit.
"""

from __future__ import annotations

import copy
import difflib
import typing
from dataclasses import dataclass
from typing import Callable

from interpreter.errors import ErrorBag, Span
from interpreter.content.model import KindTable, Record
from interpreter.content.pack import PackSource, kind_of
from interpreter.content.source import Document, Mapping, Node, Scalar, Sequence

OPERATIONS = ("remove", "replace", "add", "set")


def record_lists(kinds: KindTable) -> dict[str, tuple[str, str, type[Record]]]:
    """Lists of records by id that `add:`, `replace:` and `remove:` edit, by the key an overlay names them with.

    A kind of records is named by its file kind (`walls`); any other list of
    records with ids by `<kind>.<field>` (a pack's declarations, the steps of
    final scoring, ...).
    """
    found = _LISTS.get(id(kinds))
    if found is not None and found[0] is kinds:
        return found[1]
    by_file = {(rk.file_kind, rk.field) for rk in kinds.records.values()}
    out: dict[str, tuple[str, str, type[Record]]] = {}
    for kind, model in kinds.files.items():
        if kind in ("overlay", "record_kinds"):
            continue
        for name, info in model.model_fields.items():
            if typing.get_origin(info.annotation) is not list:
                continue
            (item,) = typing.get_args(info.annotation)
            if isinstance(item, type) and issubclass(item, Record):
                out[kind if (kind, name) in by_file else f"{kind}.{name}"] = (kind, name, item)
    _LISTS[id(kinds)] = (kinds, out)
    return out


_LISTS: dict[int, tuple[KindTable, dict]] = {}
# Fields read before any overlay applies: changing them would not do what it says.
_FIXED = {
    "kind": "a file's `kind` selects how all of its records are read; an overlay cannot change it "
            "(add the records to a file of the other kind with `add:`, and `remove:` them here)",
}
_FIXED_IN_MANIFEST = {
    "include": "the pack's files are loaded before an overlay applies; an overlay cannot change `include:` "
               "(bring new records with `add:`)",
}


@dataclass(frozen=True)
class Edit:
    """One operation of an overlay, where it is written and which of the pack's files it changed."""

    op: str  # remove, replace, add or set
    target: str  # the `set:` path, or the record list's key
    record: str | None  # the record id, for add, replace and remove
    span: Span  # in the overlay
    files: frozenset[str]  # paths of the pack's documents the edit changed
    number: int = 0  # its place among the overlay's edits, counting from 0 in the order they apply

    def describe(self) -> str:
        if self.op == "set":
            return f"`set: {self.target}`"
        return f"`{self.op}:` of {self.target} '{self.record}'"


Select = Callable[[int], bool]


def apply_overlay(pack: PackSource, overlay: Document, errors: ErrorBag, select: Select | None = None) -> list[Edit]:
    """Apply the overlay's operations in order; returns the edits applied.

    ``select`` (given the number of an edit in the overlay, counting from 0 in
    the order they apply) applies only some of them, to find out what one edit
    does on its own.
    """
    root = overlay.root
    assert isinstance(root, Mapping)
    ops = _Ops(pack, errors, select)
    for op in OPERATIONS:
        node = root.get(op)
        if node is None:
            continue
        if not isinstance(node, Mapping):
            errors.add("E208", f"`{op}:` must be a mapping", node.span)
            continue
        for key, value in node.items:
            getattr(ops, op)(key, value)
    return ops.edits


class _Ops:
    def __init__(self, pack: PackSource, errors: ErrorBag, select: Select | None):
        self.pack, self.errors, self.select = pack, errors, select
        self.lists = record_lists(pack.kinds)
        self.edits: list[Edit] = []
        self.count = self.current = 0

    def _take(self) -> bool:
        """Number the next edit; whether to apply it."""
        n, self.count = self.count, self.count + 1
        self.current = n
        return self.select is None or self.select(n)

    def _done(self, op: str, target: str, record, span: Span, *docs: Document) -> None:
        self.edits.append(Edit(op, target, record, span, frozenset(d.path for d in docs), self.current))

    # ------------------------------------------------------------ records by id
    def _records(self, kind_key: Scalar, create: bool = False) -> list[tuple[Document, Sequence]] | None:
        """The lists of records an edit of `kind_key` works on. With `create` (an `add:`), a list the
        pack's file leaves out (an optional list, empty by default) is started in that file."""
        key = kind_key.value
        known = self.lists
        if key not in known and "." in str(key):
            nested = self._nested_lists(str(key))
            if nested:
                return nested
        if key not in known:
            own = sorted(k for k in known if k.startswith(f"{key}."))
            close = difflib.get_close_matches(str(key), list(known), n=1)
            if own:
                hint = f"name one of its lists: {', '.join(own)}; "
            else:
                hint = f"did you mean '{close[0]}'? " if close else ""
            kinds = sorted(k for k in known if "." not in k)
            self.errors.add("E208", f"'{key}' is not a list of records; {hint}records can be edited in: "
                            f"{', '.join(kinds)}, lists of records in one file as `<kind>.<field>` "
                            f"(e.g. {', '.join(sorted(k for k in known if '.' in k)[:3])}, ...), and a list inside "
                            "a record by its path (`<kind>.<list>.<record id>.<field>`)", kind_key.span)
            return None
        kind, field, _ = known[key]
        lists = []
        for doc in self.pack.of_kind(kind):
            seq = doc.root.get(field)
            if isinstance(seq, Sequence):
                lists.append((doc, seq))
        files = self.pack.of_kind(kind)
        if not lists and create and len(files) == 1 and isinstance(files[0].root, Mapping) and files[0].root.get(field) is None:
            seq = Sequence(kind_key.span, [])
            files[0].root.items.append((Scalar(kind_key.span, field, None), seq))
            lists.append((files[0], seq))
        if not lists:
            self.errors.add("E208", f"the pack has no '{key}' list to edit", kind_key.span)
            return None
        return lists

    def _nested_lists(self, key: str) -> list[tuple[Document, Sequence]]:
        """A list inside a record, named by its path (`flow.menus.work.entries`: the entries of the menu
        `work`): the path's steps are fields, or record ids in the list they stand in."""
        path = key.split(".")
        docs = self.pack.of_kind(path[0]) if path[0] != "pack" else [self.pack.manifest]
        found = []
        for doc in docs:
            node = _walk(doc.root, path[1:])
            if isinstance(node, Sequence):
                found.append((doc, node))
        return found

    def _find(self, lists: list[tuple[Document, Sequence]], rid) -> tuple[Document, Sequence, int] | None:
        for doc, seq in lists:
            for i, item in enumerate(seq.items):
                if rid is not None and _record_id(item) == rid:
                    return doc, seq, i
        return None

    def remove(self, key: Scalar, value: Node) -> None:
        lists = self._records(key)
        if lists is None or not self._is_seq(value, "remove"):
            return
        for item in value.items:
            if not self._take():
                continue
            rid = item.value if isinstance(item, Scalar) else None
            found = self._find(lists, rid)
            if found is None:
                self.errors.add("E208", f"cannot remove '{_text(item)}': no record of {key.value} has that id{_close(lists, rid)}", item.span)
                continue
            doc, seq, i = found
            del seq.items[i]
            self._done("remove", key.value, rid, item.span, doc)

    def replace(self, key: Scalar, value: Node) -> None:
        lists = self._records(key)
        if lists is None or not self._is_seq(value, "replace"):
            return
        for item in value.items:
            if not self._take():
                continue
            rid = _record_id(item)
            found = self._find(lists, rid)
            if found is None:
                self.errors.add("E208", f"cannot replace '{rid}': no record of {key.value} has that id{_close(lists, rid)} "
                                "(use `add:` for new records)", _id_span(item))
                continue
            doc, seq, i = found
            seq.items[i] = copy.deepcopy(item)
            self._done("replace", key.value, rid, _id_span(item), doc)

    def add(self, key: Scalar, value: Node) -> None:
        lists = self._records(key, create=True)
        if lists is None:
            return
        at = None  # (document, list, index) to insert at; None: append to the kind's last list
        if isinstance(value, Mapping):  # {before: <id>, records: [...]} or {after: <id>, ...}
            places = [(k, v) for k, v in value.items if k.value in ("before", "after")]
            if len(places) > 1:
                self.errors.add("E208", "`add:` places records `before:` or `after:` one record, not both", places[1][0].span)
                return
            if places:
                side, anchor = places[0]
                rid = anchor.value if isinstance(anchor, Scalar) else None
                found = self._find(lists, rid)
                if found is None:
                    self.errors.add("E208", f"cannot add {side.value} '{_text(anchor)}': no record of {key.value} has that id"
                                    f"{_close(lists, rid)}", anchor.span)
                    return
                doc, seq, i = found
                at = (doc, seq, i + (side.value == "after"))
            value = value.get("records")
            if value is None:
                return  # the schema phase reports the missing `records:`
        if not self._is_seq(value, "add"):
            return
        for item in value.items:
            if not self._take():
                continue
            rid = _record_id(item)
            if rid is not None and self._find(lists, rid) is not None:
                self.errors.add("E208", f"cannot add '{rid}': a record of {key.value} with that id exists (use `replace:`)", _id_span(item))
                continue
            if at is None:
                doc, seq = lists[-1]
                seq.items.append(copy.deepcopy(item))
            else:
                doc, seq, i = at
                seq.items.insert(i, copy.deepcopy(item))
                at = (doc, seq, i + 1)
            self._done("add", key.value, rid if rid is not None else "?", _id_span(item), doc)

    # ------------------------------------------------------------ parameters by path
    def set(self, key: Scalar, value: Node) -> None:
        if not self._take():
            return
        path = str(key.value).split(".")
        docs = self.pack.of_kind(path[0]) if path[0] != "pack" else [self.pack.manifest]
        if path[0] == "record_kinds":
            self.errors.add("E208", f"`set:` path '{key.value}': the pack's record kinds are read before an overlay "
                            "applies; an overlay cannot change them", key.span)
            return
        if not docs:
            kinds = sorted({k for d in self.pack.all() if (k := kind_of(d))} | {"pack"})
            close = difflib.get_close_matches(path[0], kinds, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else f"; the pack has: {', '.join(kinds)}"
            self.errors.add("E208", f"`set:` path '{key.value}' starts with '{path[0]}', which is no kind in this pack{hint}", key.span)
            return
        if len(path) < 2:
            self.errors.add("E208", f"`set:` path '{key.value}' must name a field: <kind>.<field>", key.span)
            return
        if len(path) == 2:
            fixed = _FIXED.get(path[1]) or (_FIXED_IN_MANIFEST.get(path[1]) if path[0] == "pack" else None)
            if fixed:
                self.errors.add("E208", f"`set:` path '{key.value}': {fixed}", key.span)
                return
        for doc in docs:
            if self._set_in(doc.root, path[1:], value, key):
                self._done("set", key.value, None, key.span, doc)
                return
        self.errors.add("E208", f"`set:` path '{key.value}' does not name a field or record of the pack", key.span)

    def _set_in(self, node: Node, path: list[str], value: Node, key: Scalar) -> bool:
        head, rest = path[0], path[1:]
        if isinstance(node, Mapping):
            for i, (k, v) in enumerate(node.items):
                if k.value == head:
                    if not rest:
                        node.items[i] = (k, copy.deepcopy(value))
                        return True
                    return self._set_in(v, rest, value, key)
            if rest:
                # shorthand: `<kind>.<record id>...` finds the record in the file's record list
                for _, v in node.items:
                    if isinstance(v, Sequence) and any(_record_id(i) == head for i in v.items):
                        return self._set_in(v, path, value, key)
                return False
            # a field the file leaves at its default: add it; the schema phase
            # checks the name and reports a wrong one at the overlay's key
            node.items.append((Scalar(key.span, head, None, head), copy.deepcopy(value)))
            return True
        if isinstance(node, Sequence):
            for idx, item in enumerate(node.items):
                if _record_id(item) == head:
                    if not rest:  # a whole record, by id
                        node.items[idx] = copy.deepcopy(value)
                        return True
                    return self._set_in(item, rest, value, key)
            if head.isdigit() and int(head) < len(node.items):
                idx = int(head)
                if not rest:
                    node.items[idx] = copy.deepcopy(value)
                    return True
                return self._set_in(node.items[idx], rest, value, key)
        return False

    def _is_seq(self, value: Node, op: str) -> bool:
        if isinstance(value, Sequence):
            return True
        self.errors.add("E208", f"`{op}:` takes a list under each kind", value.span)
        return False


def _walk(node: Node | None, path: list[str]) -> Node | None:
    """The node a path names under `node` (a field, or a record by id in a list; a record's id also
    finds it in its file's record list, as `set:` paths do), or None."""
    for head in path:
        if isinstance(node, Mapping):
            step = node.get(head)
            if step is None:
                step = next((item for _, v in node.items if isinstance(v, Sequence)
                             for item in v.items if _record_id(item) == head), None)
            node = step
        elif isinstance(node, Sequence):
            node = next((item for item in node.items if _record_id(item) == head), None)
        else:
            return None
    return node


def _record_id(node: Node):
    if isinstance(node, Mapping):
        rid = node.get("id")
        if isinstance(rid, Scalar):
            return rid.value
    return None


def _close(lists, rid) -> str:
    ids = [str(r) for _, seq in lists for item in seq.items if (r := _record_id(item)) is not None]
    close = difflib.get_close_matches(str(rid), ids, n=1) if rid is not None else []
    return f"; did you mean '{close[0]}'?" if close else ""


def _id_span(node: Node):
    rid = node.get("id") if isinstance(node, Mapping) else None
    return rid.span if rid is not None else node.span


def _text(node: Node) -> str:
    return str(node.value) if isinstance(node, Scalar) else "?"
