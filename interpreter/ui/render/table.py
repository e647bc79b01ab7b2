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
from interpreter.content.model.table import TablePart
from interpreter.ui.render.layout import ACROSS_GAP as GAP, Size, Widget, draw_parts


# The layout of a pack without a `table` file: the shared map beside the wheel and the scores over the route and
# the slot row; the market, the grids, the claims and the stacks; the seats.
DEFAULT_LAYOUT = [
    TablePart(across=[TablePart(widget="hex_map"), TablePart(down=[
        TablePart(across=[TablePart(widget="wheel", width=780), TablePart(widget="scores")]),
        TablePart(widget="route"), TablePart(widget="slot_row")])]),
    TablePart(across=[TablePart(widget=w) for w in ("market", "grids", "claims", "stacks")]),
    TablePart(widget="seats"),
]
W, M = 2800, 16
S_MAP, S_TILE, S_AREA = 50, 54, 54  # hex sizes: the map, the market rows, a seat's board


def draw_table(game) -> dw.Drawing:
    """The whole table of ``game`` as a drawsvg drawing, laid out as the pack's `table` file says."""
    t = Table(game)
    spec = t.rs.single("table")
    width = spec.width if spec is not None and spec.width else W
    parts = dw.Group(id="table")
    height = draw_parts(spec.layout if spec is not None and spec.layout else DEFAULT_LAYOUT, widgets(t), parts, M,
                        56, width - 2 * M)
    H = 56 + height + 40
    d = dw.Drawing(width, H)
    d.append(dw.Rectangle(0, 0, width, H, fill="#f3eee3"))
    draw_header(t, d, width)
    d.append(parts)
    draw_legend(t, d, M, H - 14)
    return d


def widgets(t) -> dict[str, Widget]:
    """The parts of the picture of a pack whose turns are offers, each drawn from content and the state."""

    def fills(draw):  # a widget drawn in the width it is given: its height measured by drawing it
        return Widget(lambda g, x, y, w, h: Size(w, draw(g, x, y, w, h)))

    def grids(g, x, y, w, h):
        projects = t.rs.single("projects")
        cx, tallest = x, 0
        for model in projects.grids if projects else ():
            gw, gh = draw_grid(t, g, cx, y, model)
            cx, tallest = cx + gw + GAP, max(tallest, gh)
        return Size(max(cx - GAP - x, 0), tallest)

    def sized(w, h):
        return Size(w, h) if h else Size(0, 0)

    def wheel(g, x, y, w, h):
        need = draw_wheel(t, g, x, y, w, h)  # the frame is drawn at least h high
        return Size(w, max(need, h)) if need else Size(0, 0)

    return {
        "hex_map": Widget(lambda g, x, y, w, h: Size(*draw_map(t, g, x + 10, y, S_MAP)), own_width=True),
        "wheel": Widget(wheel),
        "scores": fills(lambda g, x, y, w, h: draw_breakdown(t, g, x, y, w, max(h, _breakdown_height(t)))),
        "route": Widget(lambda g, x, y, w, h: sized(w, draw_route(t, g, x, y, w))),
        "slot_row": Widget(lambda g, x, y, w, h: sized(w, draw_slots(t, g, x, y, w))),
        "market": Widget(lambda g, x, y, w, h: Size(*draw_rows(t, g, x, y, S_TILE)) if t.tables.layout.rows else Size(0, 0),
                         own_width=True),
        "grids": Widget(grids, own_width=True),
        "claims": Widget(lambda g, x, y, w, h: sized(w, draw_claims(t, g, x, y, w))),
        "stacks": Widget(lambda g, x, y, w, h: sized(w, draw_stacks(t, g, x, y, w))),
        "seats": fills(lambda g, x, y, w, h: _seats(t, g, x, y, w)),
    }


def _seats(t, g, x, y, w) -> float:
    """The players' panels, four to a line; the height used."""
    per = min(max(t.n, 1), 4)
    pw = (w - GAP * (per - 1)) / per
    line_h, y_line = 0, y
    for i, p in enumerate(t.s.players):
        if i and i % 4 == 0:
            y_line += line_h + GAP
            line_h = 0
        line_h = max(line_h, draw_panel(t, g, x + (i % 4) * (pw + GAP), y_line, pw, p, S_AREA))
    return y_line + line_h - y


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


def _breakdown_height(t) -> float:
    """The height the score breakdown needs for its sources (a dozen at most before it folds the rest)."""
    sources = {src for p in t.s.players for src in p.breakdown}
    return 92 + 14 * min(len(sources), 12)


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
