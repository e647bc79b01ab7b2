"""Build the symbol table the resolve pass checks names against, from validated models."""

from __future__ import annotations

import typing
from collections import defaultdict

from pydantic import BaseModel

from .dsl.english import Names
from .dsl.resolve import BOOL, NUMBER, EventSig, KindSig, Symbols
from .model import RECORD_KINDS, effect_fields

# Record fields that name something of a category usable in comparisons.
_FIELD_CATEGORY = {"action": "action", "stack": "stack", "colour": "colour", "use": None}


def records(models: dict[str, list[BaseModel]], file_kind: str, field: str) -> list:
    out = []
    for m in models.get(file_kind, []):
        out.extend(getattr(m, field))
    return out


def _attributes(model_cls: type[BaseModel], icons: list[str]) -> dict[str, str]:
    attrs: dict[str, str] = {}
    for name, info in model_cls.model_fields.items():
        ann = info.annotation
        base = typing.get_args(ann)[0] if typing.get_origin(ann) is typing.Annotated else ann
        if base is bool:
            attrs[name] = BOOL
        elif base is int:
            attrs[name] = NUMBER
        elif name in _FIELD_CATEGORY and _FIELD_CATEGORY[name]:
            attrs[name] = _FIELD_CATEGORY[name]
    if "icons" in model_cls.model_fields:
        for icon in icons:
            attrs.setdefault(icon, BOOL)
    return attrs


def build_symbols(models: dict[str, list[BaseModel]]) -> Symbols:
    pack = models["pack"][0]
    cats: dict[str, set[str]] = defaultdict(set)
    cats["resource"] = {r.id for r in pack.resources}
    cats["group"] = {r.group for r in pack.resources if r.group}
    cats["piece"] = {p.id for p in pack.pieces}
    cats["action"] = {a.id for a in pack.actions}
    cats["stack"] = {s.id for s in pack.stacks}
    cats["permit"] = {p.id for p in pack.permits}
    cats["symbol"] = {s.id for s in pack.edge_symbols}
    cats["icon"] = {i.id for i in pack.icons}
    cats["colour"] = set(pack.corner_colours)
    producing = set()
    for t in records(models, "tracks", "tracks"):
        cats["track"].add(t.id)
        if t.produces:
            producing.add(t.id)
    for road in models.get("kings_road", []):
        cats["track"].add(road.track)
    for g in records(models, "projects", "grids"):
        cats["grid"].add(g.id)
    for t in records(models, "scoring", "tables"):
        cats["table"].add(t.id)

    icons = sorted(cats["icon"])
    tile_kinds = {k.id: k for k in pack.tile_kinds}
    kinds: dict[str, KindSig] = {}
    for name, rk in RECORD_KINDS.items():
        attrs = _attributes(rk.model, icons)
        if name in tile_kinds:
            for a in tile_kinds[name].attributes:
                attrs[a.name] = a.type
        kinds[name] = KindSig(attrs, effect_fields(rk.model), buildable=name in tile_kinds)

    events = {
        e.id: EventSig(e.key, {p.name: p.type for p in e.params})
        for e in pack.events
    }
    return Symbols({k: frozenset(v) for k, v in cats.items()}, events, kinds, frozenset(producing))


def build_names(models: dict[str, list[BaseModel]]) -> Names:
    """Display names for English rendering, from every declaration that has a `name`."""
    pack = models["pack"][0]
    display, plural = {}, {}
    for group in (pack.resources, pack.actions, pack.events, pack.stacks, pack.permits, pack.pieces):
        for item in group:
            if item.name:
                display[item.id] = item.name
    for r in pack.resources:
        if r.plural:
            plural[r.id] = r.plural
    for t in records(models, "tracks", "tracks"):
        if t.name:
            display[t.id] = t.name
    for g in records(models, "projects", "grids"):
        if g.name:
            display[g.id] = g.name
    for k in pack.tile_kinds:
        if k.name:
            display[k.id] = k.name
    return Names(display, plural)
