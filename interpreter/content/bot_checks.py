"""Checks of a pack's bots file (model/bots.py): the evaluations each bot plays by exist, every weight
names a resource, track, grid, record kind, piece, zone or record of the pack, `occupying_program` an effect
field of a record kind, and `best` names a bundled bot
(content/bot_specs.py) with an evaluation of the file where it takes one."""

from __future__ import annotations

from interpreter.content.bot_specs import SpecError, parse_spec
from interpreter.content.model import effect_fields


def check_bots(c, doc, m) -> None:
    """Every check of the bots file ``m`` (in ``doc``); ``c`` is the references Checker (err, ref, pack names)."""
    ids = {e.id for e in m.evaluations}
    for field in ("greedy", "mcts", "planner"):
        if getattr(m, field) is not None:
            c.ref(doc, (field,), getattr(m, field), ids, "E314", "evaluation")
    if m.best is not None:
        best_bot(c, doc, m.best, ids)
    tracks = {t.id for _, tm in c.by_kind.get("tracks", []) for t in tm.tracks}
    tracks |= {rm.track for _, rm in c.by_kind.get("route", [])}
    grids = {g.id for _, pm in c.by_kind.get("projects", []) for g in pm.grids}
    names = {"holdings": (c.resources, "E302", "resource"), "tracks": (tracks, "E303", "track"),
             "grids": (grids, "E304", "grid"), "owned": (set(c.record_kinds), "E307", "record kind"),
             "pieces_free": (c.pieces, "E301", "piece"), "zones": (c.zone_ids, "E320", "zone")}
    names["track_values"] = names["tracks"]
    names["records"] = (set().union(*map(c.record_ids, c.record_kinds)), "E314", "record")
    programs = set().union(*(effect_fields(rk.model) for rk in c.record_kinds.values()))
    for i, e in enumerate(m.evaluations):
        if e.occupying_program is not None:
            c.ref(doc, ("evaluations", i, "occupying_program"), e.occupying_program, programs, "E308",
                  "effect field of a record kind")
        for field, (known, code, what) in names.items():
            for key in getattr(e, field):
                c.ref(doc, ("evaluations", i, field, key), key, known, code, what)
            for key in getattr(e.early, field):
                c.ref(doc, ("evaluations", i, "early", field, key), key, known, code, what)


def best_bot(c, doc, spec: str, evaluations: set[str]) -> None:
    """`best` names a bundled bot (not itself), with an evaluation of this file where it takes one."""
    try:
        parsed = parse_spec(spec)
    except SpecError as exc:
        c.err(doc, ("best",), "E314", str(exc))
        return
    if parsed.name == "best":
        c.err(doc, ("best",), "E314", "`best` must name another bot, not itself")
    elif parsed.evaluation is not None and parsed.evaluation not in evaluations:
        c.ref(doc, ("best",), parsed.evaluation, evaluations, "E314", "evaluation")
