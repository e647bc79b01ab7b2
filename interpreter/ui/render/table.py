"""The whole table: the header, the shared parts, the score breakdown, the players' panels and the legend."""

from __future__ import annotations

import drawsvg as dw

from interpreter.ui.kinds import MAP_KIND
from interpreter.ui.render.draw import INK, SOFT, colour_of, hex_fill, hexagon, label, seat_colour
from interpreter.ui.render.panel import draw_panel
from interpreter.ui.render.pieces import Table
from interpreter.ui.render.shared_map import draw_map
from interpreter.ui.render.supply import draw_claims, draw_grid, draw_rows, draw_slots, draw_stacks
from interpreter.ui.render.tracks import draw_route
from interpreter.ui.render.wheel import draw_wheel


def draw_table(game) -> dw.Drawing:
    """The whole table of ``game`` as a drawsvg drawing."""
    t = Table(game)
    W, M, GAP = 2800, 16, 16
    S_MAP, S_TILE, S_AREA = 50, 54, 54
    parts = dw.Group(id="table")
    y = 56
    # row 1: the shared map (left); the wheel, the score breakdown, the pawn track and the plank spaces (right)
    cw, ch = draw_map(t, parts, M + 10, y, S_MAP)
    rx = M + cw + GAP
    wheel_w = 780
    right_w = W - M - rx
    top_h = max(draw_wheel(t, dw.Group(), rx, y, wheel_w), ch - 2 * (92 + 10))  # measured first
    draw_wheel(t, parts, rx, y, wheel_w, top_h)
    bx = rx + wheel_w + GAP
    draw_breakdown(t, parts, bx, y, W - M - bx, top_h)
    ky = y + top_h + 10
    kh = draw_route(t, parts, rx, ky, right_w)
    bh = draw_slots(t, parts, rx, ky + kh + 10, right_w)
    y2 = max(y + ch, ky + kh + 10 + bh) + GAP
    # row 2: rows, grids, claimable records and stacks
    rw, rh = draw_rows(t, parts, M, y2, S_TILE)
    x = M + rw + GAP
    heights = [rh]
    projects = t.rs.single("projects")
    for model in projects.grids if projects else ():
        w_, h_ = draw_grid(t, parts, x, y2, model)
        x += w_ + GAP
        heights.append(h_)
    rest = W - M - x
    heights.append(draw_claims(t, parts, x, y2, rest / 2 - GAP / 2))
    heights.append(draw_stacks(t, parts, x + rest / 2 + GAP / 2, y2, rest / 2 - GAP / 2))
    y3 = y2 + max(heights) + GAP
    # row 3: the players' panels, four to a line
    per = min(max(t.n, 1), 4)
    pw = (W - 2 * M - GAP * (per - 1)) / per
    line_h, y_line = 0, y3
    for i, p in enumerate(t.s.players):
        if i and i % 4 == 0:
            y_line += line_h + GAP
            line_h = 0
        line_h = max(line_h, draw_panel(t, parts, M + (i % 4) * (pw + GAP), y_line, pw, p, S_AREA))
    H = y_line + line_h + 40
    d = dw.Drawing(W, H)
    d.append(dw.Rectangle(0, 0, W, H, fill="#f3eee3"))
    draw_header(t, d, W)
    d.append(parts)
    draw_legend(t, d, M, H - 14)
    return d


def draw_header(t, d, W):
    """The pack's name, the turn, who is to play or who won, and the scores."""
    s = t.s
    turn = f"turn {s.turn}" + (f" · era {s.table.get('era')}" if "era" in s.table else "")
    d.append(label(20, 34, f"{t.pack.name or t.pack.id}", 26, "start", weight="bold"))
    if t.g.is_terminal():
        win = t.g.winner()
        who = f"game over · winner: seat {win}" if win else "game over"
        status = f"{turn} · {who}"
    else:
        status = f"{turn} · seat {s.current + 1} to play"
        tile = s.turn_info.get("tile")
        if tile:
            status += f" (holds {tile})"
        if s.decision is not None:
            status += f" · seat {s.decision.player + 1} must {s.decision.kind}"
    d.append(label(420, 34, status, 18, "start"))
    scores = "   ".join(f"seat {p.seat + 1}: {p.score}" for p in s.players)
    d.append(label(W - 20, 34, scores, 18, "end"))


def draw_breakdown(t, d, x0, y0, w, h):
    """Points per source and seat, biggest sources first."""
    players = t.s.players
    total: dict[str, int] = {}
    for p in players:
        for src, pts in p.breakdown.items():
            total[src] = total.get(src, 0) + pts
    t.section(d, x0, y0, w, h, "Score breakdown")
    g = dw.Group(id="breakdown")
    col = min(70, (w - 220) / max(len(players), 1))
    right = x0 + w - 12
    for i, p in enumerate(players):
        x = right - (len(players) - 1 - i) * col
        g.append(label(x, y0 + 44, f"seat {p.seat + 1}", 11, "end", fill=seat_colour(p.seat), weight="bold"))
    rows = sorted(total, key=lambda s: (-total[s], s))
    fit = max(1, int((h - 80) // 14))
    if len(rows) > fit:
        rows = rows[: fit - 1] + ["(other)"]
    for j, src in enumerate(rows):
        y = y0 + 62 + j * 14
        if j % 2 == 0:
            g.append(dw.Rectangle(x0 + 8, y - 10.5, w - 16, 14, fill="#f1eadb"))
        g.append(label(x0 + 14, y, src, 10.5, "start"))
        for i, p in enumerate(players):
            if src == "(other)":
                pts = p.score - sum(p.breakdown.get(s, 0) for s in rows[:-1])
            else:
                pts = p.breakdown.get(src, 0)
            x = right - (len(players) - 1 - i) * col
            g.append(label(x, y, pts or "·", 10.5, "end", fill=INK if pts else SOFT))
    y = y0 + 62 + len(rows) * 14 + 4
    g.append(dw.Line(x0 + 10, y - 10, x0 + w - 10, y - 10, stroke="#8b7b5c"))
    g.append(label(x0 + 14, y + 4, "total", 11, "start", weight="bold"))
    for i, p in enumerate(players):
        x = right - (len(players) - 1 - i) * col
        g.append(label(x, y + 4, p.score, 11, "end", weight="bold"))
    d.append(g)
    return h


def draw_legend(t, d, x, y):
    """What the map's fills, the edge symbols, the corner colours and the seat colours mean."""
    g = dw.Group(id="legend")
    board = t.rs.single(MAP_KIND)

    def hex_mark(col):
        return lambda cx: g.append(hexagon(cx + 7, y - 4, 7, fill=col, stroke="#6f6452", stroke_width=0.6))

    def badge(sym):
        return lambda cx: t.symbol_badge(g, cx + 6, y - 4, sym, 6)

    def dot(fill):
        return lambda cx: g.append(dw.Circle(cx + 5, y - 4, 5, fill=fill))

    sections = [
        ("Map:", 40, [(hex_mark(hex_fill(board, ty)), ty, 17, 26 + len(ty) * 5.6) for ty in (board.hex_types if board else ())]),
        ("Edge symbols:", 86, [(badge(sym), sym, 15, 24 + len(sym) * 5.6) for sym in t.symbols]),
        ("Corners:", 54, [(dot(colour_of(col)), col, 13, 22 + len(col) * 5.6) for col in t.pack.corner_colours]),
        ("Seats:", 40, [(dot(seat_colour(p.seat)), f"{p.seat + 1}", 13, 28) for p in t.s.players]),
    ]
    cx = x
    for title, title_width, entries in sections:  # a title, then each entry's mark and its text
        g.append(label(cx, y, title, 11, "start", weight="bold"))
        cx += title_width
        for mark, text, text_at, advance in entries:
            mark(cx)
            g.append(label(cx + text_at, y, text, 11, "start"))
            cx += advance
        cx += 10
    d.append(g)
