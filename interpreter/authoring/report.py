"""Pack summaries and the proofreading report (every effect in plain English)."""

from __future__ import annotations

import dataclasses

from collections import Counter, defaultdict

from pydantic import BaseModel

from interpreter.dsl.english import to_english
from interpreter.dsl.printer import to_text

PROVENANCES = ("exact", "partial", "reconstructed")
_SPLIT_BY = ("type", "zone")


def _provenanced(model: BaseModel, kind: str, path: tuple = ()):
    """Every object with a provenance in a file model: (kind, path, object)."""
    if getattr(model, "provenance", None) in PROVENANCES:
        yield kind, path, model
    for name in type(model).model_fields:
        value = getattr(model, name)
        items = value if isinstance(value, (list, tuple)) else [value]
        for i, item in enumerate(items):
            if isinstance(item, BaseModel):
                yield from _provenanced(item, kind, path + (name, i))


def summary(rs) -> dict:
    counts = {}
    for name, rk in rs.record_kinds.items():
        recs = rs.records(name)
        if not recs:
            continue
        entry = {"total": len(recs)}
        if "era" in rk.model.model_fields:
            by_era = defaultdict(Counter)
            for r in recs:
                by_era[f"era {r.era}"]["special" if r.special else "regular"] += 1
            entry["by_era"] = {k: dict(v) for k, v in sorted(by_era.items())}
        if "level" in rk.model.model_fields:
            entry["by_level"] = dict(sorted(Counter(f"level {r.level}" for r in recs).items()))
        counts[name] = entry
    # the other lists of every file (crane positions, city hexes, road spaces, ...), split by
    # the first field that classifies their entries
    parts: dict[str, dict] = {}
    record_fields = {(rk.file_kind, rk.field) for rk in rs.record_kinds.values()}
    for kind, models in rs.models.items():
        for m in models:
            for name in type(m).model_fields:
                value = getattr(m, name)
                if not isinstance(value, (list, tuple)) or not value or (kind, name) in record_fields:
                    continue
                if not isinstance(value[0], BaseModel):  # plain lists (coordinates, id lists)
                    continue
                entry = parts.setdefault(f"{kind}.{name}", {"total": 0})
                entry["total"] += len(value)
                for item in value:
                    split = next((f for f in _SPLIT_BY if isinstance(item, BaseModel) and f in type(item).model_fields), None)
                    if split is not None:
                        by = entry.setdefault("by_" + split, {})
                        key = str(getattr(item, split))
                        by[key] = by.get(key, 0) + 1
    prov = Counter()
    prov_by_kind: dict[str, Counter] = defaultdict(Counter)
    for kind, models in rs.models.items():
        for m in models:
            for k, _, obj in _provenanced(m, kind):
                prov[obj.provenance] += 1
                prov_by_kind[k][obj.provenance] += 1
    return {
        "pack": rs.pack_id,
        "variants": list(rs.variants),
        "records": counts,
        "components": dict(sorted(parts.items())),
        "provenance": {p: prov[p] for p in PROVENANCES},
        "provenance_by_kind": {k: {p: v[p] for p in PROVENANCES} for k, v in sorted(prov_by_kind.items())},
        "dsl_texts": len(rs.fields),
    }


def summary_text(data: dict) -> str:
    lines = [f"Pack '{data['pack']}'" + (f" with {', '.join(data['variants'])}" if data["variants"] else "")]
    lines.append("")
    lines.append(f"{'records':<18} {'total':>5}  detail")
    for name, entry in data["records"].items():
        detail = ""
        if "by_era" in entry:
            detail = "; ".join(f"{era}: {v.get('regular', 0)} regular + {v.get('special', 0)} special" for era, v in entry["by_era"].items())
        elif "by_level" in entry:
            detail = ", ".join(f"{lvl}: {n}" for lvl, n in entry["by_level"].items())
        lines.append(f"{name:<18} {entry['total']:>5}  {detail}")
    lines.append("")
    lines.append(f"{'other components':<30} {'total':>5}  detail")
    for name, entry in data["components"].items():
        detail = "; ".join(", ".join(f"{k}: {v}" for k, v in sorted(by.items())) for f, by in entry.items() if f.startswith("by_"))
        lines.append(f"{name:<30} {entry['total']:>5}  {detail}")
    p = data["provenance"]
    total = sum(p.values())
    lines.append("")
    lines.append(f"provenance of {total} records: " + ", ".join(f"{k} {v}" for k, v in p.items()))
    lines.append(f"{'':<18} {'exact':>7} {'partial':>8} {'reconstr.':>10}")
    for kind, v in data["provenance_by_kind"].items():
        lines.append(f"{kind:<18} {v['exact']:>7} {v['partial']:>8} {v['reconstructed']:>10}")
    lines.append("")
    lines.append(f"{data['dsl_texts']} DSL texts parsed, resolved and compiled")
    return "\n".join(lines)


def _names_for(rs, f):
    """The pack's names, with `this` called by the kind of record the effect belongs to, when it has one."""
    kinds = f.scope.this_kinds
    if len(kinds) != 1:
        return rs.names
    return dataclasses.replace(rs.names, this=rs.names.of(kinds[0], "kind"))


def report(rs) -> dict:
    data = summary(rs)
    entries = []
    for f in rs.fields:
        if f.start != "program":
            continue
        entries.append({
            "kind": f.kind,
            "where": f.record or ".".join(str(p) for p in f.path[:-1]) or f.kind,
            "field": str(next((p for p in reversed(f.path) if isinstance(p, str)), "")),
            "text": to_text(f.ast),  # canonical, on one line (a block scalar's lines joined as the DSL reads them)
            "english": to_english(f.ast, _names_for(rs, f)),
            "file": f.span.path,
            "line": f.span.line,
        })
    data["effects"] = entries
    return data


def report_text(data: dict) -> str:
    lines = [summary_text(data), "", "Effects, in plain English:"]
    current = None
    for e in data["effects"]:
        if e["kind"] != current:
            current = e["kind"]
            lines.append("")
            lines.append(f"== {current} ==")
        lines.append(f"  {e['where']}.{e['field']}: {e['english']}")
        lines.append(f"      {e['text']}    [{e['file']}:{e['line']}]")
    return "\n".join(lines)
