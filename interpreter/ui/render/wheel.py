"""The wheel: the fixed frame positions around the turning wheel of slots, the offers on it and their flags."""

from __future__ import annotations

import math

import drawsvg as dw

from interpreter.mechanisms import wheel
from interpreter.ui.kinds import WHEEL_KIND, table_key
from interpreter.ui.render.draw import SOFT, block, colour_of, kind_title, label, lighten
from interpreter.ui.render.text import short, wrap



def draw_wheel(t, d, x0, y0, w, min_h=0):
    """The wheel in a section of width w (at least min_h high); returns the height it needs."""
    model = t.rs.single(WHEEL_KIND)
    key = table_key(t.rs, WHEEL_KIND)
    if model is None or key not in t.s.table:
        return 0
    geo = t.g.rules.geometry
    cs = wheel.from_json(t.s.table[key])
    N = geo.size
    bw, bh = 132, 62
    rx = (w - bw - 24) / 2
    ry = rx * 0.8
    h = 2 * ry + bh + 56
    t.section(d, x0, y0, w, max(h, min_h), kind_title(key))
    cx, cy = x0 + w / 2, y0 + 36 + bh / 2 + ry
    g = dw.Group(id=key)
    hub = min(rx, ry) - bh / 2 - 18
    g.append(dw.Circle(cx, cy, hub, fill="#efe6d3", stroke="#8b7b5c", stroke_width=1.5))
    tiles = dict(wheel.tiles_by_position(cs))
    side = model.side
    actions = {t.id: getattr(t, side).actions for t in model.tiles}
    taken = t.s.turn_info.get("tile")
    for p in range(N):
        a = math.radians(-90 + 360 * p / N)
        ca, sa = math.cos(a), math.sin(a)
        slot = (p - cs.rotation) % N
        # the wheel slot (turns with the wheel) and its bonus
        g.append(dw.Line(cx, cy, cx + hub * ca, cy + hub * sa, stroke="#d8ccb0"))
        wx, wy = cx + (hub - 46) * ca, cy + (hub - 46) * sa
        if slot == 0:
            g.append(dw.Rectangle(wx - 24, wy - 11, 48, 22, rx=4, fill="#5b4a32", class_=f"{key}-box"))
            g.append(label(wx, wy + 4, "box", 11, fill="white", weight="bold"))
        else:
            g.append(block(wx, wy, wrap(short(geo.bonuses[slot]), 80, 10, 3), 10, "#4a3c22"))
        # the frame position (fixed): zone, cost or points, and the tile on it
        px, py = cx + rx * ca, cy + ry * sa
        zone = colour_of(geo.zones[p])
        rest = geo.rest[p]
        g.append(dw.Rectangle(px - bw / 2, py - bh / 2, bw, bh, rx=6, fill=lighten(zone, 0.78), stroke=zone,
                              stroke_width=2, stroke_dasharray=None if rest else "5,3", class_=f"{key}-position",
                              id=f"{key}-pos-{p}"))
        bits = [f"{p}"]
        if geo.costs[p]:
            bits.append(short(geo.costs[p]))
        if geo.points[p]:
            bits.append(f"+{geo.points[p]}VP")
        if p in geo.overflow_targets:
            bits.append("overflow")
        if not rest:
            bits.append("no rest")
        if p == 0:
            bits.append("entry")
        g.append(label(px - bw / 2 + 5, py - bh / 2 + 13, " · ".join(bits), 10.5, "start", weight="bold"))
        tile = tiles.get(p)
        if tile:
            g.append(dw.Rectangle(px - bw / 2 + 4, py - bh / 2 + 18, bw - 8, bh - 22, rx=4, fill="white",
                                  stroke="#444444", class_="action-tile", id=f"{key}-tile-{tile}"))
            g.append(label(px, py + 3, tile, 10, weight="bold"))
            g.append(label(px, py + 16, " / ".join(x.replace("_", " ") for x in actions.get(tile, ())), 10,
                           fill=SOFT))
            if tile in cs.flagged:
                fx, fy = px + bw / 2 - 4, py - bh / 2 + 4
                g.append(dw.Circle(fx, fy, 11, fill="#ffd43b", stroke="#a07800", stroke_width=1.5, class_="flag"))
                g.append(label(fx, fy + 4, f"+{geo.overflow_points}", 10, weight="bold"))
    g.append(label(cx, cy - 8, f"side {side.upper()} · box at {cs.rotation}", 11, fill=SOFT))
    g.append(label(cx, cy + 8, "positions clockwise", 11, fill=SOFT))
    if taken:
        g.append(label(cx, cy + 26, f"taken: {taken}", 11, weight="bold"))
    d.append(g)
    return h
