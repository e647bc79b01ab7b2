"""Checks of a pack's table layout (content kind `table`): the zones and spaces its sections name, and the
parts its layout places."""

from __future__ import annotations

from interpreter.content.flow_checks import uses_offers

_OFFER_WIDGETS = {"hex_map", "wheel", "route", "slot_row", "market", "grids", "claims", "stacks", "scores"}
_CORE_WIDGETS = {"sections"}


def check_table(c, doc, m) -> None:
    """A table layout names shared zones in its sections, zones per player in `seat_zones`, declared zones in
    `hidden`, and spaces of the flow that no zone's records carry; each part of its layout is one the pack's
    engine draws, placed once. A part whose content the pack lacks (no claims after a variant removed them)
    draws nothing, so a variant's edit never breaks the layout; one the layout leaves out is drawn after it."""
    zones = {z.id: z for z in c.pack.zones}
    shared = {z for z, spec in zones.items() if spec.per != "player"}
    own = set(zones) - shared
    spaces = {s.id for _, fm in c.by_kind.get("flow", []) for s in fm.spaces if s.on is None}
    for i, section in enumerate(m.sections):
        for j, zone in enumerate(section.zones):
            c.ref(doc, ("sections", i, "zones", j), zone, shared, "E320", "shared zone")
        for j, space in enumerate(section.spaces):
            c.ref(doc, ("sections", i, "spaces", j), space, spaces, "E314", "space of the flow")
    for j, zone in enumerate(m.seat_zones):
        c.ref(doc, ("seat_zones", j), zone, own, "E320", "zone per player")
    for j, zone in enumerate(m.hidden):
        c.ref(doc, ("hidden", j), zone, set(zones), "E320", "zone")
    _check_layout(c, doc, m)


def _widgets(parts, path):
    """(path, widget) of every widget in the parts, depth first."""
    for i, part in enumerate(parts):
        if part.widget:
            yield (*path, i, "widget"), part.widget
        for side in ("across", "down"):
            yield from _widgets(getattr(part, side), (*path, i, side))


def _check_layout(c, doc, m) -> None:
    # a setup file goes with a flow of offers (E205 refuses it beside any other flow: no second error here)
    offers = bool(c.by_kind.get("setup")) or any(uses_offers(fm) for _, fm in c.by_kind.get("flow", []))
    seen: set[str] = set()
    for path, widget in _widgets(m.layout, ("layout",)):
        if widget in seen:
            c.err(doc, path, "E323", f"the layout draws `{widget}` twice; a part is placed once")
        seen.add(widget)
        if widget in (_CORE_WIDGETS if offers else _OFFER_WIDGETS):
            engine = "whose turns are offers" if offers else "on the generic core"
            c.err(doc, path, "E323", f"`{widget}` is not drawn for a pack {engine}; its parts are "
                  f"{', '.join(sorted((_OFFER_WIDGETS if offers else _CORE_WIDGETS) | {'seats'}))}")
