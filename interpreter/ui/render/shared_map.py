"""The shared map: every hex of the map file at its axial coordinate, the tiles built on its sites, the
area tiles on its area hexes and the pawns on the route hexes."""

from __future__ import annotations

import drawsvg as dw

from interpreter.ui.render.draw import (
    GAIN, INK, SOFT, axial_px, block, colour_of, corner_px, hex_fill, hexagon, kind_title, label, lighten, seat_colour,
    span,
)
from interpreter.ui.kinds import MAP_KIND, ROUTE_KIND, table_key
from interpreter.ui.render.text import short, wrap

# Roles of the map's hex types: an area hex holds an area tile (upper and lower effect), a crossing hex its name.
AREA_HEX, CROSSING_HEX, SITE_HEX, ROUTE_HEX = "area", "crossing", "site", "route"


def draw_map(t, d, x0, y0, S):
    """The shared map at hex size S from (x0, y0); returns the width and height it used."""
    board = t.rs.single(MAP_KIND)
    if board is None:
        return 0, 0
    pos = {h.id: axial_px(h.at[0], h.at[1], S) for h in board.hexes}
    minx, miny, maxx, maxy = span(list(pos.values()), S)
    ox, oy = x0 - minx, y0 - miny + 30
    W, H = maxx - minx, maxy - miny + 30
    key = table_key(t.rs, MAP_KIND)
    t.section(d, x0 - 10, y0, W + 20, H + 40, kind_title(key))
    g = dw.Group(id=key)
    areas = t.s.table.get(t.tables.layout.areas_key, {})
    placed = t.s.table.get(key, {})
    role = {name: ht.role for name, ht in board.hex_types.items()}
    route = t.rs.single(ROUTE_KIND)
    labels = {sp.n: sp.label for sp in route.spaces} if route else {}
    pawns = {}
    if route:
        for p in t.s.players:
            pawns.setdefault(p.tracks.get(route.track), []).append(p.seat)
    for h in board.hexes:
        cx, cy = pos[h.id][0] + ox, pos[h.id][1] + oy
        off = role.get(h.type) == AREA_HEX and h.id not in areas
        g.append(hexagon(cx, cy, S, fill="#e2dccd" if off else hex_fill(board, h.type), stroke="#6f6452",
                         stroke_width=1, class_="map-hex", id=f"hex-{h.id}", data_type=h.type))
    for pc in board.corners:  # printed corner icons
        cx, cy = axial_px(pc.at[0], pc.at[1], S)
        x, y = corner_px(cx + ox, cy + oy, S, pc.corner, 0.78)
        g.append(dw.Circle(x, y, S * 0.09, fill=colour_of(pc.colour), stroke="white", stroke_width=0.8))
    fs = max(6.5, S * 0.16)
    for h in board.hexes:
        cx, cy = pos[h.id][0] + ox, pos[h.id][1] + oy
        if role.get(h.type) == AREA_HEX:
            tile = areas.get(h.id)
            if tile is None:
                marks = "/".join(str(m) for m in h.marks)
                g.append(block(cx, cy, [h.id, f"({marks} players)"], fs, SOFT))
            else:
                _, rec = t.record(tile)
                lines = [(tile, INK)]
                if rec is not None:
                    lines += [(ln, GAIN) for ln in wrap("▲ " + short(rec.upper), S * 1.45, fs, 2)]
                    lines += [(ln, "#5a3d00") for ln in wrap("▼ " + short(rec.lower), S * 1.45, fs, 1)]
                g.append(block(cx, cy, lines, fs))
        elif role.get(h.type) == SITE_HEX and h.id not in placed:
            lines = [(h.id.replace("site_", ""), SOFT)]
            if h.premium is not None:
                lines.append((f"{short(h.premium.cost)} → {h.premium.points}VP", "#8a6d1d"))
            g.append(block(cx, cy, lines, fs * 0.95))
        elif role.get(h.type) == ROUTE_HEX and h.route_space is not None:
            g.append(label(cx, cy - S * 0.35, labels.get(h.route_space, h.route_space), S * 0.3, fill="white",
                           weight="bold"))
            t.pawns(g, cx, cy + S * 0.2, pawns.get(h.route_space, ()), S * 0.14)
        elif role.get(h.type) == CROSSING_HEX:
            g.append(block(cx, cy, [h.type], fs, "white"))
    for site, e in sorted(placed.items()):
        if site not in pos:
            continue
        cx, cy = pos[site][0] + ox, pos[site][1] + oy
        owner = e.get("owner")
        fill = "#ffffff" if owner is None else lighten(seat_colour(owner), 0.72)
        stroke = "#777777" if owner is None else seat_colour(owner)
        b = t.tile(cx, cy, S * 0.94, e["tile"], e.get("rot", 0), fill, stroke, 2.4 if owner is not None else 1,
                      klass=t.site_kind, ident=f"{t.site_kind}-{site}", data_site=site,
                      data_owner="" if owner is None else owner)
        piece = e.get("piece")
        if piece:
            px, py = corner_px(cx, cy, S, 4, 0.66)
            c = S * 0.11
            b.append(dw.Rectangle(px - c, py - c, 2 * c, 2 * c, fill=seat_colour(piece[1]), stroke="black",
                                  stroke_width=0.8, class_="cube"))
        g.append(b)
    d.append(g)
    return W + 20, H + 40
