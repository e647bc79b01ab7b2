"""Resolve checks of some statements, kept beside resolve.py's ``Resolver``, which they are a part of
(``StatementChecks`` is one of its bases; resolve.py is at its size limit).

- ``for each in Z [where C]: <body>``: Z is a zone; inside C bare names are the attributes of the
  record tested, of the kind Z ``holds:`` (as in the ``where`` of ``count``: ``this`` there is still
  the effect's record); inside the body ``this`` is that record (any kind when Z holds no one kind).
- ``join order``: the word is ``order``, and the pack's flow has a phase declared ``order: recorded``
  (the category ``recorded_order``: the ids of those phases).
- ``run F of this`` / ``run F of R``: ``this`` is available (E311), R is a record of the pack (E301),
  and F is an effect field of its kind (of at least one kind ``this`` can be; E308).
"""

from __future__ import annotations

from dataclasses import replace

from interpreter.dsl import ast as A


class StatementChecks:
    """Methods of the resolver (``self`` is a ``resolve.Resolver``)."""

    def s_foreachrecord(self, s: A.ForEachRecord, scope) -> None:
        sig = self.zone(s.zone)
        holds = sig.holds if sig is not None else None
        kinds = (holds,) if holds is not None else tuple(self.sym.kinds)
        if s.where is not None:
            self.cond(s.where, replace(scope, where_kind=holds))
        self.stmt(s.body, replace(scope, this_kinds=kinds, where_kind=None))

    def s_joinorder(self, s: A.JoinOrder, scope) -> None:
        if s.what.text != "order":
            self.error("E301", f"expected `join order`, not `join {s.what.text}`", s.what.pos)
        elif not self.sym.categories.get("recorded_order"):
            self.error("E311", "`join order` sets the order of a phase declared `order: recorded`, and the pack's "
                       "flow has none", s.pos)

    def s_run(self, s: A.Run, scope) -> None:
        if s.record is None:
            if not scope.this_kinds:
                self.error("E311", "`run ... of this` is only available in effects that belong to a record", s.pos)
                return
            kinds = scope.this_kinds
        else:
            kind = self.sym.record_kinds.get(s.record.text)
            if kind is None:
                from interpreter.dsl.resolve import _suggest
                self.error("E301", f"unknown record '{s.record.text}'{_suggest(s.record.text, self.sym.record_kinds)}",
                           s.record.pos)
                return
            kinds = (kind,)
        sigs = [(k, self.sym.kinds[k]) for k in kinds if k in self.sym.kinds]
        if sigs and not any(s.field.text in sig.effect_fields for _, sig in sigs):
            fields = sorted({f for _, sig in sigs for f in sig.effect_fields})
            what = f"'{sigs[0][0]}'" if len(sigs) == 1 else "no kind `this` can be"
            self.error("E308", f"{what} has no effect field '{s.field.text}'; it has: {', '.join(fields) or 'none'}",
                       s.field.pos)
