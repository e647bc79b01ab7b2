"""Build the symbol table the resolve pass checks names against, from validated models."""

from __future__ import annotations

from collections import defaultdict

from pydantic import BaseModel

from interpreter.dsl.english import Names
from interpreter.dsl.resolve import BOOL, NUMBER, EventSig, KindSig, Symbols, ZoneSig
from interpreter.content.derived_zones import derived_zones
from interpreter.content.model import KindTable, RecordKind, effect_fields
from interpreter.content.model.kinds import is_attribute

def records(models: dict[str, list[BaseModel]], file_kind: str, field: str) -> list:
    out = []
    for m in models.get(file_kind, []):
        out.extend(getattr(m, field))
    return out


def _attributes(rk: RecordKind, icons: list[str]) -> dict[str, str]:
    """What `where` filters and `this.<field>` read of a record kind: its integer and boolean fields
    (numbers and yes/no), the name fields declared as attributes (of their category), and, when it
    carries a list of icons, each icon as a yes/no."""
    attrs: dict[str, str] = {}
    for name, spec in rk.fields:
        if not is_attribute(spec):
            continue
        if spec.type == "boolean":
            attrs[name] = BOOL
        elif spec.type == "integer":
            attrs[name] = NUMBER
        elif spec.type == "name" and spec.of:
            attrs[name] = spec.of
    if any(spec.type == "list" and spec.item is not None and spec.item.of == "icon" for _, spec in rk.fields):
        for icon in icons:
            attrs.setdefault(icon, BOOL)
    return attrs


def piles(pack) -> list:
    """The shared zones without slots: the stacks, pools and decks a draw to keep looks at."""
    return [z for z in pack.zones if z.per == "shared" and not z.slots]


def build_symbols(models: dict[str, list[BaseModel]], kinds: KindTable) -> Symbols:
    pack = models["pack"][0]
    cats: dict[str, set[str]] = defaultdict(set)
    cats["resource"] = {r.id for r in pack.resources}
    cats["shared"] = {r.id for r in pack.resources if r.shared}  # the table's counts (only `gain` and `pay` change them)
    cats["mark"] = {m.id for m in pack.marks}  # counts records keep (`put`, `take`, `this.<mark>`)
    cats["group"] = {r.group for r in pack.resources if r.group}
    cats["piece"] = {p.id for p in pack.pieces}
    cats["action"] = {a.id for a in pack.actions}
    cats["stack"] = {z.id for z in piles(pack)}  # what `draw N from S keep K` looks at
    cats["permit"] = {p.id for p in pack.permits}
    cats["symbol"] = {s.id for s in pack.edge_symbols}
    cats["icon"] = {i.id for i in pack.icons}
    cats["colour"] = set(pack.corner_colours)
    cats["zone"] = {z.id for z in pack.zones}
    derived = derived_zones(models, kinds.records)  # the rows' stacks and rows, the slot row (E216 keeps the ids apart)
    cats["stack"] |= {z.id for z in derived if not z.slots}
    producing = set()
    for t in records(models, "tracks", "tracks"):
        cats["track"].add(t.id)
        if t.produces:
            producing.add(t.id)
    for route in models.get("route", []):
        cats["track"].add(route.track)
    for g in records(models, "projects", "grids"):
        cats["grid"].add(g.id)
    for t in records(models, "scoring", "tables"):
        cats["table"].add(t.id)
    cats["die"] = {d.id for d in records(models, "flow", "dice")}  # `roll <die>`, `die(<die>)`
    cats["space"] = {s.id for s in records(models, "flow", "spaces")}  # `visit <space>`
    cats["recorded_order"] = {p.id for p in records(models, "flow", "phases") if p.order == "recorded"}  # `join order`

    icons = sorted(cats["icon"])
    tile_kinds = {k.id: k for k in pack.tile_kinds}
    sigs: dict[str, KindSig] = {}
    for name, rk in kinds.records.items():
        attrs = _attributes(rk, icons)
        if name in tile_kinds:
            for a in tile_kinds[name].attributes:
                attrs[a.name] = a.type
        sigs[name] = KindSig(attrs, effect_fields(rk.model), buildable=name in tile_kinds)

    events = {
        e.id: EventSig(e.key, {p.name: p.type for p in e.params})
        for e in pack.events
    }
    record_kinds = {rec.id: name for name, rk in kinds.records.items() for rec in records(models, rk.file_kind, rk.field)}
    return Symbols({k: frozenset(v) for k, v in cats.items()}, events, sigs, frozenset(producing),
                   {**{z.id: ZoneSig(z.holds, False, z.slots) for z in derived},
                    **{z.id: ZoneSig(z.holds, z.per == "player", tuple(z.slots), z.refill is not None) for z in pack.zones}},
                   record_kinds)


def build_names(models: dict[str, list[BaseModel]]) -> Names:
    """Display names for English rendering, by category, from every declaration with a `name`."""
    from interpreter.dsl.resolve import RUNTIME_ATTRIBUTES

    pack = models["pack"][0]
    display: dict[str, str] = {f"state:{a}": a for a in RUNTIME_ATTRIBUTES}
    plural: dict[str, str] = {}
    groups = [
        ("resource", pack.resources), ("action", pack.actions), ("event", pack.events), ("stack", piles(pack)),
        ("permit", pack.permits), ("piece", pack.pieces), ("icon", pack.icons), ("symbol", pack.edge_symbols),
        ("kind", pack.tile_kinds), ("zone", pack.zones), ("track", records(models, "tracks", "tracks")), ("grid", records(models, "projects", "grids")),
        ("die", records(models, "flow", "dice")),
    ]
    for category, items in groups:
        for item in items:
            name = item.name or item.id.replace("_", " ")
            display[f"{category}:{item.id}"] = name
            display.setdefault(item.id, name)  # a bare id shows the first category's name
    for route in models.get("route", []):
        display.setdefault(f"track:{route.track}", display.get(route.track, route.track.replace("_", " ")))
    for e in pack.events:  # what `on event(X)` names: the category of the event's key
        key_type = next((p.type for p in e.params if p.name == e.key), None)
        if key_type:
            display[f"eventarg:{e.id}"] = key_type
    for r in pack.resources:
        if r.plural:
            plural[r.id] = r.plural
    return Names(display, plural)
