"""Resolve checks of some statements, kept beside resolve.py's ``Resolver``, which they are a part of
(``StatementChecks`` is one of its bases; resolve.py is at its size limit).

- ``for each in Z [where C]: <body>`` and ``choose one in Z [where C]: <body>``: Z is a zone; inside C
  bare names are the attributes of the record tested, of the kind Z ``holds:`` (of any kind when it
  holds no one kind), its runtime attributes and the pack's marks (as in the ``where`` of ``count``:
  ``this`` there is still the effect's record); inside the body ``this`` is that record.
- ``as occupant: <body>``: ``this`` is available (E311), as for ``as owner``.
- ``put N M on this`` / ``take N M from this``: ``this`` itself (E308), M a mark the pack declares or a
  player resource (E302: not a shared one).
- ``join order``: the word is ``order``, and the pack's flow has a phase declared ``order: recorded``
  (the category ``recorded_order``: the ids of those phases).
- ``run F of this`` / ``run F of R``: ``this`` is available (E311), R is a record of the pack (E301),
  and F is an effect field of its kind (of at least one kind ``this`` can be; E308).
- ``gains of R [, R2 ...] times E: <body>``: each R a player resource of the pack (E302: unknown, or
  shared, whose gains are the table's), E a count (E319 when always negative).
"""

from __future__ import annotations

from dataclasses import replace

from interpreter.dsl import ast as A
from interpreter.dsl.vocabulary import ANY_KIND


class StatementChecks:
    """Methods of the resolver (``self`` is a ``resolve.Resolver``)."""

    def s_foreachrecord(self, s: A.ForEachRecord, scope) -> None:
        sig = self.zone(s.zone)
        holds = sig.holds if sig is not None else None
        kinds = (holds,) if holds is not None else tuple(self.sym.kinds)
        if s.where is not None:
            self.cond(s.where, replace(scope, where_kind=holds or ANY_KIND))
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

    def s_asoccupant(self, s: A.AsOccupant, scope) -> None:
        if not scope.this_kinds:
            self.error("E311", "`as occupant` is only available in effects that belong to a record (the owner of the "
                       "piece on its space acts)", (s.pos[0], s.pos[0] + len("as occupant")))
        self.stmt(s.body, scope)

    def s_chooserecord(self, s: A.ChooseRecord, scope) -> None:
        sig = self.zone(s.zone)
        holds = sig.holds if sig is not None else None
        if s.where is not None:
            self.cond(s.where, replace(scope, where_kind=holds or ANY_KIND))
        kinds = (holds,) if holds is not None else tuple(self.sym.kinds)
        self.stmt(s.body, replace(scope, this_kinds=kinds, where_kind=None))

    def s_put(self, s: A.Put, scope) -> None:
        self._kept_counts(s, scope, "put")

    def s_take(self, s: A.Take, scope) -> None:
        self._kept_counts(s, scope, "take")

    def _kept_counts(self, s, scope, verb: str) -> None:
        """`put`/`take`: counts of marks the pack declares or of player resources, on the record `this`."""
        if s.target.parts:
            self.error("E308", f"`{verb}` works on the record itself: write `this`, without an attribute",
                       s.target.parts[0].pos)
        else:
            self.this(s.target, scope)
        markable = self.markable()
        for a in s.amounts:
            self.count(a.value, scope)
            if a.name.text not in markable:
                from interpreter.dsl.resolve import _suggest
                shared = a.name.text in self.sym.members("shared")
                why = "is shared (the table's count)" if shared else "is no mark nor resource of the pack"
                self.error("E302", f"'{a.name.text}' {why}: a record keeps counts of the pack's `marks:` and of its "
                           f"player resources{'' if shared else _suggest(a.name.text, markable)}", a.name.pos)

    def s_require(self, s: A.Require, scope) -> None:
        self.cond(s.cond, scope)

    def s_atonce(self, s: A.AtOnce, scope) -> None:
        self.stmt(s.body, scope)

    def s_visit(self, s: A.Visit, scope) -> None:
        spaces = self.sym.members("space")
        if not spaces:
            self.error("E311", "`visit` runs a space's programs, and the pack's flow declares no spaces", s.pos)
        else:
            for name in s.spaces:
                if name.text not in spaces:
                    from interpreter.dsl.resolve import _suggest
                    self.error("E301", f"unknown space '{name.text}'{_suggest(name.text, spaces)}", name.pos)
        self.expr(s.value, scope)

    def s_multiply(self, s: A.Multiply, scope) -> None:
        shared = self.sym.members("shared")
        for name in s.resources:
            if self.member(name, "resource") and name.text in shared:
                self.error("E302", f"'{name.text}' is shared (the table's count): `gains of` multiplies what a "
                           "player gains", name.pos)
        self.count(s.factor, scope)
        self.stmt(s.body, scope)
