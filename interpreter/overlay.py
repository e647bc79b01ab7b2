"""Apply overlay files (variants, house rules) onto a pack's node trees.

Overlays edit the YAML node trees before validation, so every value they
bring keeps its own position: an error in a record an overlay adds or
replaces points into the overlay file.
"""

from __future__ import annotations

import copy
import difflib

from .errors import ErrorBag
from .model import RECORD_FILE_KINDS, RECORD_KINDS
from .pack import PackSource, kind_of
from .source import Document, Mapping, Node, Scalar, Sequence

_LIST_FIELD = {rk.file_kind: rk.field for rk in RECORD_KINDS.values()}


def apply_overlay(pack: PackSource, overlay: Document, errors: ErrorBag) -> None:
    root = overlay.root
    assert isinstance(root, Mapping)
    for op in ("remove", "replace", "add", "set"):
        node = root.get(op)
        if node is None:
            continue
        if not isinstance(node, Mapping):
            errors.add("E208", f"`{op}:` must be a mapping", node.span)
            continue
        for key, value in node.items:
            getattr(_Ops(pack, errors), op)(key, value)


class _Ops:
    def __init__(self, pack: PackSource, errors: ErrorBag):
        self.pack, self.errors = pack, errors

    # ------------------------------------------------------------ records by id
    def _records(self, kind_key: Scalar) -> list[Sequence] | None:
        kind = kind_key.value
        if kind not in RECORD_FILE_KINDS:
            self.errors.add("E208", f"'{kind}' is not a kind of records; records can be added to: {', '.join(sorted(RECORD_FILE_KINDS))}", kind_key.span)
            return None
        lists = []
        for doc in self.pack.of_kind(kind):
            seq = doc.root.get(_LIST_FIELD[kind])
            if isinstance(seq, Sequence):
                lists.append(seq)
        if not lists:
            self.errors.add("E208", f"the pack has no '{kind}' file", kind_key.span)
            return None
        return lists

    def _find(self, lists: list[Sequence], rid) -> tuple[Sequence, int] | None:
        for seq in lists:
            for i, item in enumerate(seq.items):
                if isinstance(item, Mapping):
                    node = item.get("id")
                    if isinstance(node, Scalar) and node.value == rid:
                        return seq, i
        return None

    def remove(self, key: Scalar, value: Node) -> None:
        lists = self._records(key)
        if lists is None or not self._is_seq(value, "remove"):
            return
        for item in value.items:
            found = self._find(lists, item.value if isinstance(item, Scalar) else None)
            if found is None:
                self.errors.add("E208", f"cannot remove '{_text(item)}': no {key.value} record has that id", item.span)
                continue
            seq, i = found
            del seq.items[i]

    def replace(self, key: Scalar, value: Node) -> None:
        lists = self._records(key)
        if lists is None or not self._is_seq(value, "replace"):
            return
        for item in value.items:
            rid = _record_id(item)
            found = self._find(lists, rid) if rid is not None else None
            if found is None:
                self.errors.add("E208", f"cannot replace '{rid}': no {key.value} record has that id (use `add:` for new records)", _id_span(item))
                continue
            seq, i = found
            seq.items[i] = copy.deepcopy(item)

    def add(self, key: Scalar, value: Node) -> None:
        lists = self._records(key)
        if lists is None or not self._is_seq(value, "add"):
            return
        for item in value.items:
            rid = _record_id(item)
            if rid is not None and self._find(lists, rid) is not None:
                self.errors.add("E208", f"cannot add '{rid}': a {key.value} record with that id exists (use `replace:`)", _id_span(item))
                continue
            lists[-1].items.append(copy.deepcopy(item))

    # ------------------------------------------------------------ parameters by path
    def set(self, key: Scalar, value: Node) -> None:
        path = str(key.value).split(".")
        docs = self.pack.of_kind(path[0]) if path[0] != "pack" else [self.pack.manifest]
        if not docs:
            kinds = sorted({k for d in self.pack.all() if (k := kind_of(d))} | {"pack"})
            close = difflib.get_close_matches(path[0], kinds, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else f"; the pack has: {', '.join(kinds)}"
            self.errors.add("E208", f"`set:` path '{key.value}' starts with '{path[0]}', which is no kind in this pack{hint}", key.span)
            return
        if len(path) < 2:
            self.errors.add("E208", f"`set:` path '{key.value}' must name a field: <kind>.<field>", key.span)
            return
        for doc in docs:
            if self._set_in(doc.root, path[1:], value, key):
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
            for item in node.items:
                if _record_id(item) == head:
                    return bool(rest) and self._set_in(item, rest, value, key)
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


def _record_id(node: Node):
    if isinstance(node, Mapping):
        rid = node.get("id")
        if isinstance(rid, Scalar):
            return rid.value
    return None


def _id_span(node: Node):
    rid = node.get("id") if isinstance(node, Mapping) else None
    return rid.span if rid is not None else node.span


def _text(node: Node) -> str:
    return str(node.value) if isinstance(node, Scalar) else "?"
