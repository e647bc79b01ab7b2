"""Checks of the counts that are no player's own or that stand in for others (content/model/pack.py):
shared resources (`shared: true`), resources that pay for others (`substitutes:`) and the marks
records keep (`marks:`), resources whose gains another reduces (`reduced_by:`), against each other, the record kinds' fields and the runtime attributes."""

from __future__ import annotations

from interpreter.dsl.vocabulary import RUNTIME_ATTRIBUTES


def problems(pack, kinds, uses_offers: bool) -> list[tuple[tuple, str, str]]:
    """(path in pack.yaml, code, message) of every problem."""
    out = []
    resources = {r.id: r for r in pack.resources}
    for i, r in enumerate(pack.resources):
        for j, paid in enumerate(r.substitutes):
            at = ("resources", i, "substitutes", j)
            if paid not in resources:
                out.append((at, "E302", f"unknown resource '{paid}': `substitutes` names the resources '{r.id}' pays for"))
            elif paid == r.id:
                out.append((at, "E209", f"'{r.id}' cannot stand in for itself"))
            elif resources[paid].shared or r.shared:
                out.append((at, "E209", f"'{r.id}' and '{paid}': a shared resource is no payment's, so it neither "
                                        "stands in for another nor is stood in for"))
        if r.substitutes and uses_offers:
            out.append((("resources", i, "substitutes"), "E209", f"'{r.id}' stands in for others, which the turn "
                        "offers of the mechanisms library do not price (their prices are checked resource by "
                        "resource): use it in a pack whose menus are content entries"))
        if r.reduced_by is not None:
            at = ("resources", i, "reduced_by")
            if r.reduced_by not in resources:
                out.append((at, "E302", f"unknown resource '{r.reduced_by}': `reduced_by` names the resource whose "
                                        f"count is taken off each gain of '{r.id}'"))
            elif r.shared or resources[r.reduced_by].shared:
                out.append((at, "E209", f"'{r.id}' and '{r.reduced_by}': a gain is reduced by a number the gaining "
                                        "player holds, and a shared resource is the table's"))
            elif uses_offers:
                out.append((at, "E209", f"'{r.id}' is reduced by '{r.reduced_by}', which the turn offers of the "
                            "mechanisms library do not apply: use it in a pack whose menus are content entries"))
    fields = {name: kind for kind, rk in kinds.records.items() for name, _ in rk.fields}
    for i, m in enumerate(pack.marks):
        at = ("marks", i, "id")
        if m.id in resources:
            out.append((at, "E206", f"'{m.id}' is a resource too: a record keeps counts of resources without "
                                    "declaring them as marks"))
        elif m.id in RUNTIME_ATTRIBUTES:
            out.append((at, "E209", f"'{m.id}' is an attribute every record has (`this.{m.id}`); name the mark otherwise"))
        elif m.id in fields:
            out.append((at, "E209", f"'{m.id}' is a field of the kind '{fields[m.id]}', which `this.{m.id}` would "
                                    "read instead; name the mark otherwise"))
    return out
