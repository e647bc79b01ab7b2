"""A player's panel: their action board and the ring around it with the tiles of their area, what they hold
and own, and their tracks."""

from __future__ import annotations

import drawsvg as dw

from interpreter.mechanisms.hexes import ring as hex_ring
from interpreter.ui.render.draw import INK, SOFT, axial_px, block, corner_px, hexagon, label, lighten, seat_colour, span
from interpreter.ui.render.text import wrap
from interpreter.ui.render.tracks import draw_player_tracks, player_track_rows, player_tracks_height


def draw_panel(t, d, x0, y0, w, p, S):
    """Player p's panel of width w at hex size S; returns its height."""
    board = t.rs.single("action_board")
    seat = p.seat
    colour = seat_colour(seat)
    dummy = t.g.is_dummy(seat)
    g = dw.Group(class_="player-board", id=f"board-{seat}", data_seat=seat)
    hexes: dict[tuple[int, int], str] = {}
    if board is not None:
        centre = tuple(board.centre)
        actions = {tuple(a.at): a.action for a in board.action_hexes}
        hexes[centre] = "centre"
        hexes.update({h: "action" for h in actions})
        hexes.update({h: "ring" for h in hex_ring({centre, *actions})})
    else:
        actions = {}
    area = {tuple(int(v) for v in k.split(",")): stack for k, stack in p.area.items()}
    for h in area:
        hexes.setdefault(h, "ring")
    pts = {h: axial_px(h[0], h[1], S) for h in hexes}
    minx, miny, maxx, maxy = span(list(pts.values()) or [(0, 0)], S)
    aw, ah = maxx - minx, maxy - miny
    info_x = x0 + aw + 24
    track_rows = player_track_rows(t)
    h_tracks = player_tracks_height(track_rows)
    body = max(ah + 10, 330)
    h = 40 + body + h_tracks + 10
    g.append(dw.Rectangle(x0, y0, w, h, rx=8, fill=lighten(colour, 0.9), stroke=colour, stroke_width=3))
    g.append(dw.Rectangle(x0, y0, w, 32, rx=8, fill=colour))
    title = f"Seat {seat + 1}" + (" (dummy)" if dummy else "")
    if not t.g.is_terminal() and t.s.current == seat:
        title += "  ▶ to play"
    g.append(label(x0 + 12, y0 + 22, title, 16, "start", fill="white", weight="bold"))
    g.append(label(x0 + w - 12, y0 + 23, f"{p.score} points", 17, "end", fill="white", weight="bold"))
    # the action board and its ring
    ox, oy = x0 + 10 - minx, y0 + 40 - miny
    for hx, role in sorted(hexes.items()):
        cx, cy = pts[hx][0] + ox, pts[hx][1] + oy
        cell = {"id": f"cell-{seat}-{hx[0]}_{hx[1]}"}  # where a tile of this seat may go (a page clicks it)
        if role == "centre":
            g.append(hexagon(cx, cy, S * 0.97, fill=colour, stroke="#444444"))
            g.append(block(cx, cy, [f"seat {seat + 1}"], 11, "white", weight="bold"))
        elif role == "action":
            g.append(hexagon(cx, cy, S * 0.97, fill="#fffdf7", stroke="#444444", stroke_width=1.2, **cell))
            g.append(block(cx, cy, wrap(t.action_names.get(actions[hx], actions[hx]), S * 1.4, 10.5, 2), 10.5,
                           SOFT, weight="bold", all_weight=True))
        else:
            g.append(hexagon(cx, cy, S * 0.97, fill="#ffffff", fill_opacity=0.01, stroke="#9a9a9a",
                             stroke_dasharray="3,3", **cell))
    for hx, stack in sorted(area.items()):
        cx, cy = pts[hx][0] + ox, pts[hx][1] + oy
        for depth, (tid, rot) in enumerate(stack):
            top = depth == len(stack) - 1
            attrs = {"data_top": "1"} if top else {}
            g.append(t.tile(cx, cy, S, tid, rot, klass="area-tile", ident=f"area-{seat}-{hx[0]}_{hx[1]}-{depth}",
                               text=top, data_depth=depth, data_hex=f"{hx[0]},{hx[1]}", **attrs))
        if len(stack) > 1:
            bx, by = corner_px(cx, cy, S, 1, 0.62)
            g.append(dw.Circle(bx, by, 9, fill="#333333"))
            g.append(label(bx, by + 3.5, f"×{len(stack)}", 9, fill="white", weight="bold"))
    # holdings and owned things
    iw = x0 + w - info_x - 8
    lines: list[tuple[str, str, str | None]] = [("holdings", INK, "bold")]
    plain = [r for r in t.resources if not t.groups.get(r)]
    lines += [(f"  {r}: {p.holdings.get(r, 0)}", INK, None) for r in plain]
    for grp in sorted({gr for gr in t.groups.values() if gr}):
        members = [r for r in t.resources if t.groups.get(r) == grp]
        lines.append((f"{grp}s", INK, "bold"))
        lines += [(f"  {r}: {p.holdings.get(r, 0)}", INK, None) for r in members]
    extra = {r: n for r, n in p.holdings.items() if r not in t.groups}
    if extra:
        lines += [(ln, INK, None) for ln in wrap(", ".join(f"{r} {n}" for r, n in extra.items()), iw, 10.5, 2)]
    if p.pieces_free:
        lines.append(("free: " + ", ".join(f"{k} {v}" for k, v in p.pieces_free.items()), SOFT, None))
    levelled = _levelled_kinds(t.rs.record_kinds)
    for kind in levelled:  # records with a level: listed one a line with the level in roman numerals
        ids = p.owned.get(kind, [])
        lines.append((f"{t.rs.record_kinds[kind].file_kind} ({len(ids)})", INK, "bold"))
        for rid in ids:
            _, rec = t.record(rid)
            level = getattr(rec, "level", None)
            numeral = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")[level - 1] if level else ""
            name = getattr(rec, "name", None) or rid
            lines += [(ln, "#3b2f80", None) for ln in wrap(f"  {numeral} {name}", iw, 10.5, 2)]
    on_board = {k.id for k in t.pack.tile_kinds if k.placed_on in ("action_hex", "ring")}  # drawn in the area
    for kind, ids in p.owned.items():
        if kind in levelled or kind in on_board or not ids:
            continue
        text = f"{kind}s: " + (str(len(ids)) if kind == t.site_kind else ", ".join(ids))
        lines += [(ln, INK, None) for ln in wrap(text, iw, 10.5, 3)]
    for tr, toks in p.track_tokens.items():
        if toks:
            lines += [(ln, SOFT, None) for ln in wrap(f"on {tr}: " + ", ".join(toks), iw, 10.5, 2)]
    if p.milestones:
        lines += [(ln, SOFT, None) for ln in wrap("bonuses: " + ", ".join(p.milestones), iw, 10.5, 2)]
    fit = int((body - 16) // 13)
    if len(lines) > fit:
        lines = lines[: fit - 1] + [("…", SOFT, None)]
    for i, (text, col, weight) in enumerate(lines):
        g.append(label(info_x, y0 + 52 + i * 13, text, 10.5, "start", fill=col, weight=weight))
    draw_player_tracks(g, x0, y0 + 40 + body, w, p, colour, track_rows)
    d.append(g)
    return h


def _levelled_kinds(record_kinds) -> list[str]:
    """The record kinds whose records have a level (shown with it in a player's panel)."""
    return [name for name, rk in record_kinds.items() if "level" in rk.model.model_fields]
