"""The shared supply: the market rows, the project grids, the claimable records, the plank spaces and the stacks."""

from __future__ import annotations

import drawsvg as dw

from interpreter.mechanisms import market_rows
from interpreter.ui.kinds import SLOTS_KIND, claim_kind, laid_on_slots, table_key
from interpreter.ui.render.draw import COST, GAIN, INK, SOFT, SQRT3, block, hexagon, kind_title, label, seat_colour
from interpreter.ui.render.text import short, wrap


def draw_rows(t, d, x0, y0, S):
    """The market rows, regular then special places, at hex size S; returns the width and height used."""
    specs = t.g.rules.tables.layout.rows
    rows = {kind: market_rows.positions(spec, t.s.zones[spec.zone]) for kind, spec in specs.items()}
    kinds = list(specs)
    n = max((spec.regular + spec.special for spec in specs.values()), default=0)
    step = S * SQRT3 + 8
    w = 110 + n * step + 10
    rh = 2 * S + 14
    h = 40 + len(kinds) * rh
    t.section(d, x0, y0, w, h, "Rows")
    g = dw.Group(id="rows")
    for i, kind in enumerate(kinds):
        cy = y0 + 38 + i * rh + rh / 2
        g.append(label(x0 + 12, cy + 4, kind, 13, "start", weight="bold"))
        j = 0
        for quality in ("regular", "special"):
            for k, tid in enumerate(rows[kind][quality]):
                cx = x0 + 110 + S * SQRT3 / 2 + j * step
                j += 1
                special = quality == "special"
                if tid is None:
                    g.append(hexagon(cx, cy, S * 0.97, fill="none", stroke="#999999", stroke_dasharray="4,3"))
                    g.append(label(cx, cy + 3, "empty", 9, fill=SOFT))
                    continue
                g.append(t.tile(cx, cy, S, tid, 0, None, "#c9a227" if special else "#555555",
                                   2.6 if special else 1.2, klass="row-tile", ident=f"row-{kind}-{quality}-{k}"))
    d.append(g)
    return w, h


def draw_grid(t, d, x0, y0, model):
    """One project grid with the seats' markers; returns the width and height used."""
    ts = next(t for t in model.tier_sets if t.id == model.tier_set)
    rows = [(ti, t, r) for ti, t in enumerate(ts.tiers) for r in t.rows]
    ncol = max(len(model.columns), max(c for _, _, r in rows for c in r.cols))
    cw, ch = 62, 44
    w = 70 + ncol * cw + 110
    h = 64 + len(rows) * ch + 40
    t.section(d, x0, y0, w, h, f"{model.name or model.id} · tiers {model.tier_set}")
    g = dw.Group(id=f"grid-{model.id}")
    gx, top = x0 + 60, y0 + 56
    for c in range(1, ncol + 1):
        value = model.columns[c - 1] if c <= len(model.columns) else ""
        g.append(label(gx + (c - 0.5) * cw, top - 6, f"×{value}", 11, weight="bold", fill="#5a3d00"))
    markers: dict[tuple[int, int], list[int]] = {}
    for p in t.s.players:
        at = p.grids.get(model.id)
        if at:
            markers.setdefault((at[0], at[1]), []).append(p.seat)
    nrows = len(rows)
    for i, (ti, tier, row) in enumerate(rows):
        rn = i + 1  # rows from 1, bottom first
        y = top + (nrows - rn) * ch
        g.append(label(gx - 8, y + ch / 2 + 4, f"{row.value}", 12, "end", weight="bold"))
        squares = {sq.col: sq.effect for sq in row.squares}
        fill = ("#efe7d6", "#e6dcc6", "#dccfb3", "#d2c29f")[ti % 4]
        for c in range(1, ncol + 1):
            x = gx + (c - 1) * cw
            if c not in row.cols:
                continue
            g.append(dw.Rectangle(x, y, cw, ch, fill="#fff3c4" if c in squares else fill, stroke="#8b7b5c",
                                  stroke_width=0.8))
            if c in squares:
                g.append(block(x + cw / 2, y + ch / 2 - 6, wrap(short(squares[c]), cw - 6, 8, 2), 8, GAIN))
        if i == 0 or rows[i - 1][0] != ti:  # the first row of a tier: its entry cost
            g.append(dw.Line(gx, y + ch, gx + ncol * cw, y + ch, stroke="#5b4a32", stroke_width=2.5))
            notes = []
            if tier.enter_cost:
                notes.append(f"enter: {short(tier.enter_cost)}")
            if tier.on_enter:
                notes.append(short(tier.on_enter))
            note = wrap(" · ".join(notes), 100, 9, 3)
            for j, ln in enumerate(note):
                g.append(label(gx + ncol * cw + 8, y + ch - 4 - (len(note) - 1 - j) * 10, ln, 9, "start", fill=COST))
    for (rn, col), seats in markers.items():
        y = top + (nrows - rn) * ch
        x = gx + (col - 1) * cw
        for k, seat in enumerate(seats):
            mx = x + 9 + (k % 4) * 14.5
            my = y + ch - 8 - (k // 4) * 14
            g.append(dw.Circle(mx, my, 6.5, fill=seat_colour(seat), stroke="black", stroke_width=1,
                               class_="grid-marker", id=f"marker-{model.id}-{seat}", data_seat=seat))
    foot = y0 + h - 14
    g.append(label(x0 + 12, foot, f"up: {short(model.up_cost)} · sideways: {model.sideways} · "
                                  f"score row value + column value × {model.multiplies}", 10, "start", fill=SOFT))
    d.append(g)
    return w, h


def draw_claims(t, d, x0, y0, w):
    """The records players claim, each with its cost, its scoring and who claimed it; returns the height used."""
    kind = claim_kind(t.rs)
    if kind is None:
        return 0
    records = t.rs.records(kind)
    claimed = {}
    for key, sid in t.s.table.get("claimed", {}).items():
        claimed.setdefault(sid, []).append(int(str(key).split(":")[0]))
    for p in t.s.players:
        for sid in p.owned.get(kind, ()):
            claimed.setdefault(sid, [])
            if p.seat not in claimed[sid]:
                claimed[sid].append(p.seat)
    h = 40 + 30 * len(records)
    t.section(d, x0, y0, w, h, kind_title(t.rs.record_kinds[kind].file_kind))
    g = dw.Group(id=t.rs.record_kinds[kind].file_kind)
    for i, rec in enumerate(records):
        y = y0 + 36 + i * 30
        who = claimed.get(rec.id, [])
        g.append(dw.Rectangle(x0 + 10, y, w - 20, 26, rx=4, fill="#fff6d8" if who else "white", stroke="#b59b4a",
                              class_=kind, id=f"{kind}-{rec.id}"))
        cost = f" · cost {short(rec.cost)}" if rec.cost else ""
        g.append(label(x0 + 16, y + 11, f"{rec.name or rec.id}{cost}", 10, "start", weight="bold"))
        g.append(label(x0 + 16, y + 22, short(rec.scoring), 9, "start", fill=GAIN))
        t.pawns(g, x0 + w - 24 - (len(who) - 1) * 7, y + 13, who, 6)
    d.append(g)
    return h


def draw_slots(t, d, x0, y0, w):
    """The slots of the slot row with their bonuses and the tiles laid on them; returns the height used."""
    row = t.rs.single(SLOTS_KIND)
    if row is None:
        return 0
    key = table_key(t.rs, SLOTS_KIND)
    laid = laid_on_slots(t.g.rules, t.s.zones)
    h = 92
    t.section(d, x0, y0, w, h, row.name or kind_title(key))
    g = dw.Group(id=key)
    g.append(label(x0 + 12, y0 + 40, f"{len(laid)}/{row.complete_at} {row.verb}s", 11, "start"))
    n = len(row.slots)
    cw = (w - 150) / max(n, 1)
    for i, pl in enumerate(row.slots):
        x = x0 + 140 + i * cw
        tile = laid.get(pl.id)
        g.append(dw.Rectangle(x, y0 + 8, cw - 6, h - 16, rx=5, fill="#e9dcc6" if tile else "#f7f1e6",
                              stroke="#7d6550", stroke_width=1.8 if tile else 1, class_=row.verb, id=f"{row.verb}-{pl.id}"))
        g.append(label(x + 5, y0 + 22, pl.id, 11, "start", weight="bold"))
        g.append(label(x + 5, y0 + 35, " · ".join(short(b) for b in pl.bonuses), 9, "start", fill=GAIN))
        if tile:
            _, rec = t.record(tile)
            g.append(label(x + 5, y0 + 52, tile, 10, "start", weight="bold"))
            text = short(getattr(rec, "effect", None) or getattr(rec, "scoring", None) or "")
            for j, ln in enumerate(wrap(text, cw - 14, 9, 2)):
                g.append(label(x + 5, y0 + 64 + j * 10.5, ln, 9, "start", fill=SOFT))
        else:
            g.append(label(x + 5, y0 + 56, "(empty)", 9, "start", fill=SOFT))
    d.append(g)
    return h


def draw_stacks(t, d, x0, y0, w):
    """What every stack (a shared zone without slots) holds: face-up ones by record, face-down ones by
    count; returns the height used."""
    face_up = t.g.rules.face_up
    specs = t.g.rules.tables.zones
    rowkeys = set(t.g.rules.stack_plan.row_stacks)
    lines = []
    for sid in sorted(t.s.zones):
        stack = t.s.zones[sid]
        spec = specs.get(sid.partition("@")[0])
        if sid in rowkeys or spec is None or not spec.pile:
            continue
        if sid in face_up:
            shown = ", ".join(f"{rid} ({short(getattr(t.record(rid)[1], 'bonus', '') or '')})" for rid in stack)
            lines += [(ln, INK) for ln in wrap(f"{sid} (face up): {shown or '—'}", w - 30, 10, 4)]
        else:
            lines.append((f"{sid}: {len(stack)} face down", INK))
    era = t.s.table.get("era")
    parts = {k: k.rsplit("_", 2) for k in rowkeys}  # market_rows.stack_zone: <kind>_<era>_<quality>
    rows = [f"{parts[k][0]} {parts[k][2]} era {parts[k][1]}: {len(v)}"
            for k, v in sorted(t.s.zones.items()) if k in rowkeys and (era is None or parts[k][1] == str(era))]
    if rows:
        lines += [(ln, SOFT) for ln in wrap("tile stacks: " + "; ".join(rows), w - 30, 10, 3)]
    h = 44 + 13 * len(lines)
    t.section(d, x0, y0, w, h, "Stacks")
    g = dw.Group(id="stacks")
    for i, (text, colour) in enumerate(lines):
        g.append(label(x0 + 14, y0 + 44 + i * 13, text, 10, "start", fill=colour))
    d.append(g)
    return h
