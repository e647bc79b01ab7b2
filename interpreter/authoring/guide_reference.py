"""The guide's reference of the pack and the engine: the events triggers listen to, the names the pack
declares by category, and the error codes."""

from __future__ import annotations

from interpreter.authoring.guide_dsl import Examples
from interpreter.authoring.guide_markdown import code, table
from interpreter.content.turn_offers import AUTOMATIC_TURNS, REQUIRED, TURN_END_STEPS, TURN_OFFERS
from interpreter.errors import CODES


_SERIES = {"E0": "YAML and files", "E1": "Effect syntax", "E2": "Schema and structure", "E3": "Names and types", "E4": "Runtime"}


def render_events(rs) -> str:
    pack = rs.single("pack")
    rows = []
    for e in sorted(pack.events, key=lambda e: e.id):
        trigger = f"`on {e.id}(<{e.key}>)`" if e.key else f"`on {e.id}`"
        params = ", ".join(f"`{p.name}` ({p.type})" for p in e.params) or "—"
        rows.append((code(e.id), e.name or "", trigger, params))
    intro = (f"The events the bundled pack (`{rs.pack_id}`) declares under `events:` in pack.yaml. "
             "`on <event>(<value>)` matches only when the event's key parameter has that value; every "
             "parameter can be read as `event.<parameter>` in the trigger's conditions and body.")
    return intro + "\n\n" + table(("Event", "Reads as", "Trigger", "Parameters (type)"), rows)


def render_names(rs, ex: Examples) -> str:
    labels = {
        "resource": "Resources (`gain`, `pay`, holdings in expressions)",
        "group": "Resource groups (sums in expressions)",
        "piece": "Pieces (`place`, `free(...)`)",
        "action": "Actions (`perform`)",
        "track": "Tracks (`advance`, `produce`, `position(...)`, `value(...)`)",
        "grid": "Grids (`move`, `row(...)`, `column(...)`)",
        "stack": "Stacks and pools (`draw`)",
        "permit": "Permits (`grant`, `with`)",
        "table": "Scoring tables (`table(...)`)",
        "colour": "Corner colours",
        "symbol": "Edge symbols",
        "icon": "Icons (yes/no attributes of the tiles that carry them)",
    }
    rows = [(label, ", ".join(code(m) for m in sorted(ex.declared.get(cat, ()))) or "—") for cat, label in labels.items()]
    return (f"Every name the bundled pack (`{rs.pack_id}`) declares, by what it can be used for.\n\n"
            + table(("Category", "Names"), rows))


def render_errors() -> str:
    parts = ["Every error prints as `path:line:col: error[CODE]: message`, then the source line and a caret "
             "under the problem. The codes:"]
    series = sorted({c[:2] for c in CODES})
    for s in series:
        parts += ["", f"### {s}xx: {_SERIES.get(s, 'Other')}", ""]
        parts.append(table(("Code", "Problem", "Likely fix"), [
            (f"**{c}**", title, fix) for c, (title, fix) in sorted(CODES.items()) if c.startswith(s)]))
    return "\n".join(parts)


def render_turn_offers() -> str:
    """The turn offers a menu entry may name (`offers:`) and the automatic seats' turns."""
    rows = [(code(name), f"`<verb> {arg}`" if arg else "`<verb>`", what,
             "yes" if name in REQUIRED else "")
            for name, (arg, what, _) in sorted(TURN_OFFERS.items())]
    autos = [(code(name), what) for name, what in sorted(AUTOMATIC_TURNS.items())]
    ends = [(code(name), what) for name, what in TURN_END_STEPS.items()]
    return (table(("Offer", "Action", "What it does", "Required"), rows)
            + "\n\nThe steps of the end of a turn (`steps:` of the entry offering `end_turn`, run in the order "
              "listed):\n\n" + table(("Step", "What it does"), ends)
            + "\n\nAn automatic seat's turn (`automatic_turn:`):\n\n" + table(("Turn", "What it does"), autos))
