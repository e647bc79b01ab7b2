"""What every part of the picture shares: the game being drawn and the pieces drawn everywhere
(a hex tile with its edge symbols and corner icons, a section frame, pawns)."""

from __future__ import annotations

import drawsvg as dw

from interpreter.ui.render.draw import (
    COST, GAIN, INK, SOFT, SQRT3, SYMBOL_COLOURS, block, colour_of, corner_px, hexagon, label, seat_colour,
    side_px,
)
from interpreter.ui.render.text import short, wrap


class Table:
    """One game to draw: its state, its content and the pieces the parts of the picture share."""

    def __init__(self, game):
        self.g = game
        self.s = game.state
        self.rs = game.rules.ruleset
        self.tables = game.rules.tables
        pack = self.rs.single("pack")
        self.pack = pack
        self.action_names = {a.id: a.name or a.id for a in pack.actions}
        self.kind_fill = {k.id: k.fill for k in pack.tile_kinds if k.fill}
        self.symbols = {e.id: i for i, e in enumerate(pack.edge_symbols)}
        self.resources = [r.id for r in pack.resources]
        self.groups = {r.id: r.group for r in pack.resources}
        self.n = len(self.s.players)
        shared_map = self.rs.single("hex_map")
        self.site_kind = shared_map.site_kind if shared_map is not None else None

    def record(self, rid):
        kind = self.tables.kind_of.get(rid)
        return kind, self.tables.records.get((kind, rid))

    def track_name(self, track: str) -> str:
        """The display name of a track: its own in the tracks file, else that of the action of the same id
        (a track of its own content file, advanced by that action), else its id."""
        tracks = self.rs.single("tracks")
        for t in tracks.tracks if tracks else ():
            if t.id == track:
                return t.name or t.id
        return self.action_names.get(track, track)

    def symbol_badge(self, g, x, y, sym, r):
        i = self.symbols.get(sym, len(self.symbols))
        g.append(dw.Circle(x, y, r, fill=SYMBOL_COLOURS[i % len(SYMBOL_COLOURS)], stroke="white", stroke_width=0.8))
        abbr = "".join(p[0] for p in sym.split("_")).upper()
        g.append(label(x, y + r * 0.45, abbr, r * 1.15, fill="white", weight="bold"))

    def tile(self, cx, cy, s, rid, rot=0, fill=None, stroke="#555555", stroke_width=1.2, klass=None,
             ident=None, text=True, **attrs):
        """A hex tile: edge symbols and corner icons turned by ``rot``, then id, cost and reward."""
        kind, rec = self.record(rid)
        g = dw.Group(class_=klass, id=ident, data_tile=rid, data_rot=rot, **attrs) if klass or ident else dw.Group()
        g.append(hexagon(cx, cy, s * 0.97, fill=fill or self.kind_fill.get(kind) or "#ffffff", stroke=stroke,
                         stroke_width=stroke_width))
        if rec is None:
            g.append(block(cx, cy, [rid], s * 0.17))
            return g
        r = max(4.5, s * 0.12)
        for k, sym in enumerate(getattr(rec, "edges", ()) or ()):
            if sym != "none":
                x, y = side_px(cx, cy, s, (k + rot) % 6, 1 - 1.05 * r / (s * SQRT3 / 2))
                self.symbol_badge(g, x, y, sym, r)
        for k, col in enumerate(getattr(rec, "corners", ()) or ()):
            if col != "none":
                w = (k + rot) % 6
                tip = corner_px(cx, cy, s * 0.97, w, 0.97)
                a1 = corner_px(cx, cy, s * 0.97, w, 0.72)
                b = side_px(cx, cy, s * 0.97, w, 0.86)
                c = side_px(cx, cy, s * 0.97, w + 1, 0.86)
                m1 = ((tip[0] + b[0]) / 2, (tip[1] + b[1]) / 2)
                m2 = ((tip[0] + c[0]) / 2, (tip[1] + c[1]) / 2)
                g.append(dw.Lines(*tip, *m1, *a1, *m2, close=True, fill=colour_of(col), stroke="white", stroke_width=0.5))
        if text:
            fs = max(6.5, s * 0.17)
            width = s * 1.24
            lines = [(rid, INK)]
            if getattr(rec, "action", None):
                lines += [(ln, SOFT) for ln in wrap(rec.action.replace("_", " "), width, fs, 1)]
            cost = getattr(rec, "cost", None)
            if cost:
                lines += [(ln, COST) for ln in wrap("−" + short(cost).replace(", ", " "), width, fs, 2)]
            gain = getattr(rec, "reward", None) or getattr(rec, "bonus", None)
            if gain:
                lines += [(ln, GAIN) for ln in wrap(short(gain), width, fs, 2)]
            icons = getattr(rec, "icons", None)
            if icons:
                lines += [(ln, SOFT) for ln in wrap(" ".join(icons), width, fs, 1)]
            g.append(block(cx, cy, lines, fs, weight="bold"))
        return g

    def section(self, d, x, y, w, h, title):
        d.append(dw.Rectangle(x, y, w, h, rx=8, fill="#fbf8f1", stroke="#c8bfa8", stroke_width=1.2))
        d.append(label(x + 12, y + 22, title, 16, "start", weight="bold"))

    def pawns(self, g, x, y, seats, r):
        seats = list(seats)
        for i, seat in enumerate(seats):
            dx = (i - (len(seats) - 1) / 2) * r * 2.1
            g.append(dw.Circle(x + dx, y, r, fill=seat_colour(seat), stroke="black", stroke_width=0.8, class_="pawn"))
