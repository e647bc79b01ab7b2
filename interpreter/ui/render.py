"""Draw the whole table of a game as SVG (drawsvg) or PNG (cairosvg): `caput render STATE.json -o FILE`.

Everything drawn is read from content and state; nothing about the board's shape is written here.
The city map, the personal action board and its ring come from axial coordinates in content
(pointy-top, sides 0..5 clockwise from east, corner k between side k and side k+1, see board.py);
the crane, the rows, the grids, the tracks, the bridge and the seals from their content files and
the state's ``table``. Effect texts are shown shortened (``short``), so a tile stays legible.

Elements that tests and tools count carry stable classes and ids:
``city-hex`` (one per content hex, id ``hex-<hex id>``), ``building`` (one per entry of
``table["city"]``), ``grid-marker`` (one per player per grid), ``player-board`` (one per seat) and
``area-tile`` (one per tile in a player's area, covered ones included; ``data-depth`` is 0 for the
bottom tile of a stack and the top tile has ``data-top="1"``).
"""

from __future__ import annotations

import json
import math
import re
from html import escape
from pathlib import Path

import drawsvg as dw

from interpreter.runtime.mechanisms import wheel as crane_mod
from interpreter.runtime.mechanisms.hexes import ring as hex_ring

FONT = "DejaVu Sans Condensed"
SQRT3 = math.sqrt(3)
CHAR_W = 0.48  # average glyph width of FONT, in font sizes (for wrapping)

# Seat colours (seat 0 first); more seats than colours wrap around.
PALETTE = ("#2f6fd6", "#e8890c", "#2f9e44", "#a03cc0", "#d6336c", "#0c9ea6")
HEX_FILL = {
    "site": "#f4ecda", "plaza": "#cdb78c", "road": "#b48f5a", "river": "#86c0e6",
    "river_house": "#b7cfdc", "countryside": "#b6d795", "walled": "#9d9d9d", "bridge": "#7d6550",
}
KIND_FILL = {"upgrade": "#e3f0d5", "wall": "#e6dccb", "building": "#ffffff"}
NICE = {"red": "#d63031", "blue": "#1e66d0", "green": "#2f9e44", "yellow": "#e0b400", "black": "#333333",
        "white": "#ffffff", "orange": "#e8890c", "purple": "#8e44ad", "grey": "#9aa4ad"}
SYMBOL_COLOURS = ("#7d8a96", "#7b4f2c", "#c9a227", "#3d3d8f", "#b03a78", "#2a8a8a")
INK, SOFT, COST, GAIN = "#222222", "#666666", "#a11d1d", "#1d6b2a"


def seat_colour(seat: int) -> str:
    return PALETTE[seat % len(PALETTE)]


def colour_of(name: str | None, default: str = "#bbbbbb") -> str:
    """A CSS colour for a content colour or zone name (`red`, `green_single` -> green)."""
    if not name:
        return default
    return NICE.get(name) or NICE.get(name.split("_")[0]) or default


def lighten(colour: str, amount: float = 0.65) -> str:
    c = colour.lstrip("#")
    rgb = [int(c[i:i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(v + (255 - v) * amount):02x}" for v in rgb)


# --------------------------------------------------------------------------- loading


def load_game(path, pack=None):
    """A saved game (the JSON of ``Game.to_json()``), rebuilt on the pack it was played with.

    ``pack`` is the content pack path (None: the default pack); the saved variants are applied.
    """
    from interpreter.runtime.game import Game
    from interpreter.content.ruleset import load_ruleset

    text = Path(path).read_text(encoding="utf-8")
    data = json.loads(text)
    ruleset = load_ruleset(pack, tuple(data.get("variants") or ()))
    return Game.from_json(ruleset, text)


# --------------------------------------------------------------------------- text


_ID = re.compile(r"\b([a-z]+)((?:_[a-z]+)+)\b")


def _abbrev(m: re.Match) -> str:
    parts = m.group(0).split("_")
    if len(m.group(0)) <= 9 or len(parts[-1]) < 4:
        return m.group(0)
    return ".".join(p[0] for p in parts[:-1]) + "." + parts[-1]


def short(text: str | None, compact: bool = True) -> str:
    """An effect or amounts text shortened for a small space: `gain 2 clay_brick; score 2` ->
    `+2 c.brick · 2VP`. The verbs are the effect language's; names stay the content's own
    (abbreviated when ``compact``)."""
    if not text:
        return ""
    t = " ".join(str(text).split())
    t = re.sub(r"\bfrom next turn\b", "", t)
    t = re.sub(r"\bonce per (\w+)", r"1/\1", t)
    t = re.sub(r"\blater:\s*", "", t)
    t = re.sub(r"\brepeat:\s*", "repeat: ", t)
    t = re.sub(r"\bmay pay ([^:]+):\s*", r"\1 → ", t)
    t = re.sub(r"\bpay ([^:;]+)", r"−\1", t)
    t = re.sub(r"\bmay\s+", "", t)
    t = re.sub(r"\bgain (\d+) ", r"+\1 ", t)
    t = re.sub(r"\bscore (\d+)\b(?!\s*[*/+-])", r"\1VP", t)
    t = re.sub(r"\bscore\s+", "VP ", t)
    t = re.sub(r"\badvance (\w+) (\d+)\b", r"\1 +\2", t)
    t = re.sub(r"\badvance (\w+) this\.(\w+)", r"\1 +\2", t)
    t = re.sub(r"\badvance (\w+)", r"\1 +1", t)
    t = re.sub(r"\bmove (\w+) up\b", r"\1 ↑", t)
    t = re.sub(r"\bmove (\w+) sideways\b", r"\1 ↔", t)
    t = re.sub(r"\bdiscount ([^;|}]+)", r"(−\1)", t)
    t = re.sub(r"\bgrant (\w+) or\b", r"\1 or", t)
    t = re.sub(r"\bdraw (\w+) from (\w+) keep (\w+)", r"draw \1 \2 keep \3", t)
    t = re.sub(r"\bchoose\s*\{", "", t)
    t = t.replace("{", "").replace("}", "").replace(" | ", " / ")
    t = re.sub(r"\s*;\s*", " · ", t)
    if compact:
        t = _ID.sub(_abbrev, t)
    return " ".join(t.split()).strip(" ·")


def wrap(text: str, width: float, size: float, lines: int = 2) -> list[str]:
    """Greedy word wrap to ``width`` pixels at font ``size``; the last line ends in … when cut."""
    if not text:
        return []
    per = max(3, int(width / (size * CHAR_W)))
    out: list[str] = []
    cur = ""
    for word in text.split():
        while len(word) > per:
            if cur:
                out.append(cur)
                cur = ""
            out.append(word[:per])
            word = word[per:]
        if not cur:
            cur = word
        elif len(cur) + 1 + len(word) <= per:
            cur += " " + word
        else:
            out.append(cur)
            cur = word
    if cur:
        out.append(cur)
    if len(out) > lines:
        out = out[:lines]
        last = out[-1]
        out[-1] = (last[: per - 1] if len(last) >= per else last) + "…"
    return out


def label(x, y, text, size=10, anchor="middle", fill=INK, weight=None, **kw):
    """One line of text whose baseline is at y (drawsvg)."""
    args = {"font_family": FONT, "text_anchor": anchor, "fill": fill, **kw}
    if weight:
        args["font_weight"] = weight
    return dw.Text(str(text), size, x, y, **args)


def block(x, y, lines, size=8, fill=INK, anchor="middle", weight=None, gap=1.15, all_weight=False):
    """Lines of text centred vertically on y, each a (text, colour) pair or a plain string;
    ``weight`` applies to the first line only unless ``all_weight``."""
    g = dw.Group()
    lines = [ln if isinstance(ln, tuple) else (ln, fill) for ln in lines if ln]
    top = y - (len(lines) - 1) * size * gap / 2 + size * 0.35
    for i, (text, colour) in enumerate(lines):
        g.append(label(x, top + i * size * gap, text, size, anchor, colour, weight if i == 0 or all_weight else None))
    return g


# --------------------------------------------------------------------------- hex geometry


def axial_px(q: int, r: int, s: float) -> tuple[float, float]:
    """Centre of a pointy-top hex of size s (centre to corner)."""
    return s * SQRT3 * (q + r / 2), s * 1.5 * r


def corner_px(cx, cy, s, k, f=1.0):
    """Corner k (between side k and k+1, clockwise from east), ``f`` of the way from the centre."""
    a = math.radians(60 * k + 30)
    return cx + f * s * math.cos(a), cy + f * s * math.sin(a)


def side_px(cx, cy, s, k, f=1.0):
    """Midpoint of side k, ``f`` of the way from the centre."""
    a = math.radians(60 * k)
    d = f * s * SQRT3 / 2
    return cx + d * math.cos(a), cy + d * math.sin(a)


def hexagon(cx, cy, s, **kw):
    pts = [c for k in range(6) for c in corner_px(cx, cy, s, k)]
    return dw.Lines(*pts, close=True, **kw)


def _span(points, s):
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs) - s, min(ys) - s, max(xs) + s, max(ys) + s


# --------------------------------------------------------------------------- the painter


class _Table:
    """Draws one game; each section method returns the height it used."""

    def __init__(self, game):
        self.g = game
        self.s = game.state
        self.rs = game.rules.ruleset
        self.tables = game.rules.tables
        pack = self.rs.single("pack")
        self.pack = pack
        self.action_names = {a.id: a.name or a.id for a in pack.actions}
        self.symbols = {e.id: i for i, e in enumerate(pack.edge_symbols)}
        self.resources = [r.id for r in pack.resources]
        self.groups = {r.id: r.group for r in pack.resources}
        self.n = len(self.s.players)
        city = self.rs.single("city")
        self.site_kind = city.site_kind if city is not None else None

    # ------------------------------------------------------------ shared pieces

    def record(self, rid):
        kind = self.tables.kind_of.get(rid)
        return kind, self.tables.records.get((kind, rid))

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
        g.append(hexagon(cx, cy, s * 0.97, fill=fill or KIND_FILL.get(kind, "#ffffff"), stroke=stroke,
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

    # ------------------------------------------------------------ the header

    def header(self, d, W):
        s = self.s
        turn = f"turn {s.turn}" + (f" · era {s.table.get('era')}" if "era" in s.table else "")
        d.append(label(20, 34, f"{self.pack.name or self.pack.id}", 26, "start", weight="bold"))
        if self.g.is_terminal():
            win = self.g.winner()
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

    # ------------------------------------------------------------ the city map

    def city(self, d, x0, y0, S):
        city = self.rs.single("city")
        if city is None:
            return 0, 0
        pos = {h.id: axial_px(h.at[0], h.at[1], S) for h in city.hexes}
        minx, miny, maxx, maxy = _span(list(pos.values()), S)
        ox, oy = x0 - minx, y0 - miny + 30
        W, H = maxx - minx, maxy - miny + 30
        self.section(d, x0 - 10, y0, W + 20, H + 40, "City")
        g = dw.Group(id="city")
        plazas = self.s.table.get("plazas", {})
        placed = self.s.table.get("city", {})
        road = self.rs.single("kings_road")
        labels = {sp.n: sp.label for sp in road.spaces} if road else {}
        pawns = {}
        if road:
            for p in self.s.players:
                pawns.setdefault(p.tracks.get(road.track), []).append(p.seat)
        for h in city.hexes:
            cx, cy = pos[h.id][0] + ox, pos[h.id][1] + oy
            off = h.type == "plaza" and h.id not in plazas
            g.append(hexagon(cx, cy, S, fill="#e2dccd" if off else HEX_FILL.get(h.type, "#dddddd"), stroke="#6f6452",
                             stroke_width=1, class_="city-hex", id=f"hex-{h.id}", data_type=h.type))
        for pc in city.corners:  # printed corner icons
            cx, cy = axial_px(pc.at[0], pc.at[1], S)
            x, y = corner_px(cx + ox, cy + oy, S, pc.corner, 0.78)
            g.append(dw.Circle(x, y, S * 0.09, fill=colour_of(pc.colour), stroke="white", stroke_width=0.8))
        fs = max(6.5, S * 0.16)
        for h in city.hexes:
            cx, cy = pos[h.id][0] + ox, pos[h.id][1] + oy
            if h.type == "plaza":
                tile = plazas.get(h.id)
                if tile is None:
                    marks = "/".join(str(m) for m in h.marks)
                    g.append(block(cx, cy, [h.id, f"({marks} players)"], fs, SOFT))
                else:
                    _, rec = self.record(tile)
                    lines = [(tile, INK)]
                    if rec is not None:
                        lines += [(ln, GAIN) for ln in wrap("▲ " + short(rec.upper), S * 1.45, fs, 2)]
                        lines += [(ln, "#5a3d00") for ln in wrap("▼ " + short(rec.lower), S * 1.45, fs, 1)]
                    g.append(block(cx, cy, lines, fs))
            elif h.type == "site" and h.id not in placed:
                lines = [(h.id.replace("site_", ""), SOFT)]
                if h.premium is not None:
                    lines.append((f"{short(h.premium.cost)} → {h.premium.points}VP", "#8a6d1d"))
                g.append(block(cx, cy, lines, fs * 0.95))
            elif h.type == "road" and h.road_space is not None:
                g.append(label(cx, cy - S * 0.35, labels.get(h.road_space, h.road_space), S * 0.3, fill="white",
                               weight="bold"))
                self.pawns(g, cx, cy + S * 0.2, pawns.get(h.road_space, ()), S * 0.14)
            elif h.type == "bridge":
                g.append(block(cx, cy, ["bridge"], fs, "white"))
        for site, e in sorted(placed.items()):
            if site not in pos:
                continue
            cx, cy = pos[site][0] + ox, pos[site][1] + oy
            owner = e.get("owner")
            fill = "#ffffff" if owner is None else lighten(seat_colour(owner), 0.72)
            stroke = "#777777" if owner is None else seat_colour(owner)
            b = self.tile(cx, cy, S * 0.94, e["tile"], e.get("rot", 0), fill, stroke, 2.4 if owner is not None else 1,
                          klass="building", ident=f"building-{site}", data_site=site,
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

    def pawns(self, g, x, y, seats, r):
        seats = list(seats)
        for i, seat in enumerate(seats):
            dx = (i - (len(seats) - 1) / 2) * r * 2.1
            g.append(dw.Circle(x + dx, y, r, fill=seat_colour(seat), stroke="black", stroke_width=0.8, class_="pawn"))

    def legend(self, d, x, y):
        g = dw.Group(id="legend")

        def hex_mark(col):
            return lambda cx: g.append(hexagon(cx + 7, y - 4, 7, fill=col, stroke="#6f6452", stroke_width=0.6))

        def badge(sym):
            return lambda cx: self.symbol_badge(g, cx + 6, y - 4, sym, 6)

        def dot(fill):
            return lambda cx: g.append(dw.Circle(cx + 5, y - 4, 5, fill=fill))

        sections = [
            ("Map:", 40, [(hex_mark(col), t, 17, 26 + len(t) * 5.6) for t, col in HEX_FILL.items()]),
            ("Edge symbols:", 86, [(badge(sym), sym, 15, 24 + len(sym) * 5.6) for sym in self.symbols]),
            ("Corners:", 54, [(dot(colour_of(col)), col, 13, 22 + len(col) * 5.6) for col in self.pack.corner_colours]),
            ("Seats:", 40, [(dot(seat_colour(p.seat)), f"{p.seat + 1}", 13, 28) for p in self.s.players]),
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

    # ------------------------------------------------------------ King's Road and bridge

    def kings_road(self, d, x0, y0, w):
        road = self.rs.single("kings_road")
        if road is None:
            return 0
        faces = {t.replaces: t for t in road.replacement_tiles if t.id in road.replacement_tiles_in_use}
        h = 92
        self.section(d, x0, y0, w, h, "King's Road")
        g = dw.Group(id="kings-road")
        n = len(road.spaces)
        cw = (w - 150) / n
        for i, sp in enumerate(road.spaces):
            x = x0 + 140 + i * cw
            g.append(dw.Rectangle(x, y0 + 8, cw - 6, h - 16, rx=5, fill=HEX_FILL["road"], fill_opacity=0.35,
                                  stroke="#8a6a3c"))
            head = sp.label + (f" (enter: {short(sp.enter_cost)})" if sp.enter_cost else "")
            g.append(label(x + 5, y0 + 22, head, 11, "start", weight="bold"))
            texts = [short(faces[e.id].effect if e.id in faces else e.effect) for e in sp.effects]
            lines = [ln for t in texts for ln in wrap(t, cw - 14, 9, 2)]
            for j, ln in enumerate(lines[:4]):
                g.append(label(x + 5, y0 + 36 + j * 10.5, ln, 9, "start", fill=GAIN))
            here = [p.seat for p in self.s.players if p.tracks.get(road.track) == sp.n]
            self.pawns(g, x + cw - 16 - (len(here) - 1) * 7, y0 + 19, here, 6)
        d.append(g)
        return h

    def bridge(self, d, x0, y0, w):
        bridge = self.rs.single("bridge")
        if bridge is None:
            return 0
        laid = self.s.table.get("bridge", {})
        h = 92
        self.section(d, x0, y0, w, h, "Charles Bridge")
        g = dw.Group(id="bridge")
        g.append(label(x0 + 12, y0 + 40, f"{len(laid)}/{bridge.complete_at} planks", 11, "start"))
        n = len(bridge.planks)
        cw = (w - 150) / max(n, 1)
        for i, pl in enumerate(bridge.planks):
            x = x0 + 140 + i * cw
            tile = laid.get(pl.id)
            g.append(dw.Rectangle(x, y0 + 8, cw - 6, h - 16, rx=5, fill="#e9dcc6" if tile else "#f7f1e6",
                                  stroke="#7d6550", stroke_width=1.8 if tile else 1, class_="plank", id=f"plank-{pl.id}"))
            g.append(label(x + 5, y0 + 22, pl.id, 11, "start", weight="bold"))
            g.append(label(x + 5, y0 + 35, " · ".join(short(b) for b in pl.bonuses), 9, "start", fill=GAIN))
            if tile:
                _, rec = self.record(tile)
                g.append(label(x + 5, y0 + 52, tile, 10, "start", weight="bold"))
                text = short(getattr(rec, "effect", None) or getattr(rec, "scoring", None) or "")
                for j, ln in enumerate(wrap(text, cw - 14, 9, 2)):
                    g.append(label(x + 5, y0 + 64 + j * 10.5, ln, 9, "start", fill=SOFT))
            else:
                g.append(label(x + 5, y0 + 56, "(empty)", 9, "start", fill=SOFT))
        d.append(g)
        return h

    # ------------------------------------------------------------ the crane

    def crane(self, d, x0, y0, w, min_h=0):
        model = self.rs.single("crane")
        if model is None or "crane" not in self.s.table:
            return 0
        geo = self.g.rules.geometry
        cs = crane_mod.from_json(self.s.table["crane"])
        N = geo.size
        bw, bh = 132, 62
        rx = (w - bw - 24) / 2
        ry = rx * 0.8
        h = 2 * ry + bh + 56
        self.section(d, x0, y0, w, max(h, min_h), "Crane")
        cx, cy = x0 + w / 2, y0 + 36 + bh / 2 + ry
        g = dw.Group(id="crane")
        wheel = min(rx, ry) - bh / 2 - 18
        g.append(dw.Circle(cx, cy, wheel, fill="#efe6d3", stroke="#8b7b5c", stroke_width=1.5))
        tiles = dict(crane_mod.tiles_by_position(cs))
        side = model.side
        actions = {t.id: getattr(t, side).actions for t in model.tiles}
        taken = self.s.turn_info.get("tile")
        for p in range(N):
            a = math.radians(-90 + 360 * p / N)
            ca, sa = math.cos(a), math.sin(a)
            slot = (p - cs.rotation) % N
            # the wheel slot (turns with the wheel) and its bonus
            g.append(dw.Line(cx, cy, cx + wheel * ca, cy + wheel * sa, stroke="#d8ccb0"))
            wx, wy = cx + (wheel - 46) * ca, cy + (wheel - 46) * sa
            if slot == 0:
                g.append(dw.Rectangle(wx - 24, wy - 11, 48, 22, rx=4, fill="#5b4a32", class_="crane-box"))
                g.append(label(wx, wy + 4, "box", 11, fill="white", weight="bold"))
            else:
                g.append(block(wx, wy, wrap(short(geo.bonuses[slot]), 80, 10, 3), 10, "#4a3c22"))
            # the frame position (fixed): zone, cost or points, and the tile on it
            px, py = cx + rx * ca, cy + ry * sa
            zone = colour_of(geo.zones[p])
            rest = geo.rest[p]
            g.append(dw.Rectangle(px - bw / 2, py - bh / 2, bw, bh, rx=6, fill=lighten(zone, 0.78), stroke=zone,
                                  stroke_width=2, stroke_dasharray=None if rest else "5,3", class_="crane-position",
                                  id=f"crane-pos-{p}"))
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
                                      stroke="#444444", class_="action-tile", id=f"crane-tile-{tile}"))
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

    def breakdown(self, d, x0, y0, w, h):
        """Points per source and seat, biggest sources first."""
        players = self.s.players
        total: dict[str, int] = {}
        for p in players:
            for src, pts in p.breakdown.items():
                total[src] = total.get(src, 0) + pts
        self.section(d, x0, y0, w, h, "Score breakdown")
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

    # ------------------------------------------------------------ rows, seals, stacks

    def rows(self, d, x0, y0, S):
        rows = self.s.table.get("rows", {})
        setup = self.rs.single("setup")
        kinds = [r.kind for r in setup.rows] if setup else list(rows)
        n = max((len(rows[k]["regular"]) + len(rows[k]["special"]) for k in kinds if k in rows), default=0)
        step = S * SQRT3 + 8
        w = 110 + n * step + 10
        rh = 2 * S + 14
        h = 40 + len(kinds) * rh
        self.section(d, x0, y0, w, h, "Rows")
        g = dw.Group(id="rows")
        for i, kind in enumerate(kinds):
            if kind not in rows:
                continue
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
                    g.append(self.tile(cx, cy, S, tid, 0, None, "#c9a227" if special else "#555555",
                                       2.6 if special else 1.2, klass="row-tile", ident=f"row-{kind}-{quality}-{k}"))
        d.append(g)
        return w, h

    def seals(self, d, x0, y0, w):
        seals = self.rs.records("seal")
        claimed = {}
        for key, sid in self.s.table.get("claimed", {}).items():
            claimed.setdefault(sid, []).append(int(str(key).split(":")[0]))
        for p in self.s.players:
            for sid in p.owned.get("seal", ()):
                claimed.setdefault(sid, [])
                if p.seat not in claimed[sid]:
                    claimed[sid].append(p.seat)
        h = 40 + 30 * len(seals)
        self.section(d, x0, y0, w, h, "Seals")
        g = dw.Group(id="seals")
        for i, seal in enumerate(seals):
            y = y0 + 36 + i * 30
            who = claimed.get(seal.id, [])
            g.append(dw.Rectangle(x0 + 10, y, w - 20, 26, rx=4, fill="#fff6d8" if who else "white", stroke="#b59b4a",
                                  class_="seal", id=f"seal-{seal.id}"))
            cost = f" · cost {short(seal.cost)}" if seal.cost else ""
            g.append(label(x0 + 16, y + 11, f"{seal.name or seal.id}{cost}", 10, "start", weight="bold"))
            g.append(label(x0 + 16, y + 22, short(seal.scoring), 9, "start", fill=GAIN))
            self.pawns(g, x0 + w - 24 - (len(who) - 1) * 7, y + 13, who, 6)
        d.append(g)
        return h

    def stacks(self, d, x0, y0, w):
        face_up = self.g.rules.face_up
        rowkeys = {k for k in self.s.stacks if k.startswith("tiles:")}
        lines = []
        for sid in sorted(self.s.stacks):
            stack = self.s.stacks[sid]
            if sid in rowkeys:
                continue
            if sid in face_up:
                shown = ", ".join(f"{t} ({short(getattr(self.record(t)[1], 'bonus', '') or '')})" for t in stack)
                lines += [(ln, INK) for ln in wrap(f"{sid} (face up): {shown or '—'}", w - 30, 10, 4)]
            else:
                lines.append((f"{sid}: {len(stack)} face down", INK))
        era = self.s.table.get("era")
        rows = [f"{k.split(':')[1]} {k.split(':')[3]} era {k.split(':')[2]}: {len(v)}"
                for k, v in sorted(self.s.stacks.items()) if k in rowkeys and (era is None or k.split(":")[2] == str(era))]
        if rows:
            lines += [(ln, SOFT) for ln in wrap("tile stacks: " + "; ".join(rows), w - 30, 10, 3)]
        h = 44 + 13 * len(lines)
        self.section(d, x0, y0, w, h, "Stacks")
        g = dw.Group(id="stacks")
        for i, (text, colour) in enumerate(lines):
            g.append(label(x0 + 14, y0 + 44 + i * 13, text, 10, "start", fill=colour))
        d.append(g)
        return h

    # ------------------------------------------------------------ grids

    def grid(self, d, x0, y0, model):
        ts = next(t for t in model.tier_sets if t.id == model.tier_set)
        rows = [(ti, t, r) for ti, t in enumerate(ts.tiers) for r in t.rows]
        ncol = max(len(model.columns), max(c for _, _, r in rows for c in r.cols))
        cw, ch = 62, 44
        w = 70 + ncol * cw + 110
        h = 64 + len(rows) * ch + 40
        self.section(d, x0, y0, w, h, f"{model.name or model.id} · tiers {model.tier_set}")
        g = dw.Group(id=f"grid-{model.id}")
        gx, top = x0 + 60, y0 + 56
        for c in range(1, ncol + 1):
            value = model.columns[c - 1] if c <= len(model.columns) else ""
            g.append(label(gx + (c - 0.5) * cw, top - 6, f"×{value}", 11, weight="bold", fill="#5a3d00"))
        markers: dict[tuple[int, int], list[int]] = {}
        for p in self.s.players:
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

    # ------------------------------------------------------------ player boards

    def player_board(self, d, x0, y0, w, p, S):
        board = self.rs.single("action_board")
        seat = p.seat
        colour = seat_colour(seat)
        dummy = self.g.is_dummy(seat)
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
        minx, miny, maxx, maxy = _span(list(pts.values()) or [(0, 0)], S)
        aw, ah = maxx - minx, maxy - miny
        info_x = x0 + aw + 24
        tracks = self.rs.single("tracks")
        track_list = list(tracks.tracks) if tracks else []
        road = self.rs.single("kings_road")
        h_tracks = 24 + 34 * (len(track_list) + (1 if road else 0))
        body = max(ah + 10, 330)
        h = 40 + body + h_tracks + 10
        g.append(dw.Rectangle(x0, y0, w, h, rx=8, fill=lighten(colour, 0.9), stroke=colour, stroke_width=3))
        g.append(dw.Rectangle(x0, y0, w, 32, rx=8, fill=colour))
        title = f"Seat {seat + 1}" + (" (dummy)" if dummy else "")
        if not self.g.is_terminal() and self.s.current == seat:
            title += "  ▶ to play"
        g.append(label(x0 + 12, y0 + 22, title, 16, "start", fill="white", weight="bold"))
        g.append(label(x0 + w - 12, y0 + 23, f"{p.score} points", 17, "end", fill="white", weight="bold"))
        # the action board and its ring
        ox, oy = x0 + 10 - minx, y0 + 40 - miny
        for hx, role in sorted(hexes.items()):
            cx, cy = pts[hx][0] + ox, pts[hx][1] + oy
            if role == "centre":
                g.append(hexagon(cx, cy, S * 0.97, fill=colour, stroke="#444444"))
                g.append(block(cx, cy, [f"seat {seat + 1}"], 11, "white", weight="bold"))
            elif role == "action":
                g.append(hexagon(cx, cy, S * 0.97, fill="#fffdf7", stroke="#444444", stroke_width=1.2))
                g.append(block(cx, cy, wrap(self.action_names.get(actions[hx], actions[hx]), S * 1.4, 10.5, 2), 10.5,
                               SOFT, weight="bold", all_weight=True))
            else:
                g.append(hexagon(cx, cy, S * 0.97, fill="none", stroke="#9a9a9a", stroke_dasharray="3,3"))
        for hx, stack in sorted(area.items()):
            cx, cy = pts[hx][0] + ox, pts[hx][1] + oy
            for depth, (tid, rot) in enumerate(stack):
                top = depth == len(stack) - 1
                attrs = {"data_top": "1"} if top else {}
                g.append(self.tile(cx, cy, S, tid, rot, klass="area-tile", ident=f"area-{seat}-{hx[0]}_{hx[1]}-{depth}",
                                   text=top, data_depth=depth, data_hex=f"{hx[0]},{hx[1]}", **attrs))
            if len(stack) > 1:
                bx, by = corner_px(cx, cy, S, 1, 0.62)
                g.append(dw.Circle(bx, by, 9, fill="#333333"))
                g.append(label(bx, by + 3.5, f"×{len(stack)}", 9, fill="white", weight="bold"))
        # holdings and owned things
        iw = x0 + w - info_x - 8
        lines: list[tuple[str, str, str | None]] = [("holdings", INK, "bold")]
        plain = [r for r in self.resources if not self.groups.get(r)]
        lines += [(f"  {r}: {p.holdings.get(r, 0)}", INK, None) for r in plain]
        for grp in sorted({gr for gr in self.groups.values() if gr}):
            members = [r for r in self.resources if self.groups.get(r) == grp]
            lines.append((f"{grp}s", INK, "bold"))
            lines += [(f"  {r}: {p.holdings.get(r, 0)}", INK, None) for r in members]
        extra = {r: n for r, n in p.holdings.items() if r not in self.groups}
        if extra:
            lines += [(ln, INK, None) for ln in wrap(", ".join(f"{r} {n}" for r, n in extra.items()), iw, 10.5, 2)]
        if p.pieces_free:
            lines.append(("free: " + ", ".join(f"{k} {v}" for k, v in p.pieces_free.items()), SOFT, None))
        techs = p.owned.get("technology", [])
        lines.append((f"technologies ({len(techs)})", INK, "bold"))
        for t in techs:
            _, rec = self.record(t)
            level = getattr(rec, "level", None)
            numeral = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")[level - 1] if level else ""
            name = getattr(rec, "name", None) or t
            lines += [(ln, "#3b2f80", None) for ln in wrap(f"  {numeral} {name}", iw, 10.5, 2)]
        for kind, ids in p.owned.items():
            if kind in ("technology", "upgrade", "wall") or not ids:
                continue
            text = f"{kind}s: " + (str(len(ids)) if kind == self.site_kind else ", ".join(ids))
            lines += [(ln, INK, None) for ln in wrap(text, iw, 10.5, 3)]
        for tr, toks in p.track_tokens.items():
            if toks:
                lines += [(ln, SOFT, None) for ln in wrap(f"on {tr}: " + ", ".join(toks), iw, 10.5, 2)]
        if p.milestones:
            lines += [(ln, SOFT, None) for ln in wrap("wealth: " + ", ".join(p.milestones), iw, 10.5, 2)]
        fit = int((body - 16) // 13)
        if len(lines) > fit:
            lines = lines[: fit - 1] + [("…", SOFT, None)]
        for i, (text, col, weight) in enumerate(lines):
            g.append(label(info_x, y0 + 52 + i * 13, text, 10.5, "start", fill=col, weight=weight))
        # tracks
        ty = y0 + 40 + body
        g.append(label(x0 + 12, ty + 14, "tracks", 11, "start", weight="bold"))
        rows = [(t.id, t.name or t.id, [(sp.n, sp.label or str(sp.n), sp.value) for sp in t.spaces]) for t in track_list]
        if road:
            rows.append((road.track, "King's Road", [(sp.n, sp.label, None) for sp in road.spaces]))
        for i, (tid, name, spaces) in enumerate(rows):
            y = ty + 22 + i * 34
            g.append(label(x0 + 12, y + 19, name, 10.5, "start"))
            cw = min(40, (w - 120) / max(len(spaces), 1))
            at = p.tracks.get(tid)
            for j, (n, lab, value) in enumerate(spaces):
                x = x0 + 108 + j * cw
                here = n == at
                g.append(dw.Rectangle(x, y + 2, cw - 3, 28, rx=3, fill=colour if here else "white",
                                      stroke="#888888", stroke_width=0.8, class_="track-space" + (" marker" if here else "")))
                g.append(label(x + (cw - 3) / 2, y + 14, lab, 10, fill="white" if here else INK, weight="bold"))
                if value:
                    g.append(label(x + (cw - 3) / 2, y + 26, f"{value}", 8.5, fill="white" if here else SOFT))
        d.append(g)
        return h

    # ------------------------------------------------------------ all together

    def draw(self) -> dw.Drawing:
        W, M, GAP = 2800, 16, 16
        S_MAP, S_TILE, S_AREA = 50, 54, 54
        parts = dw.Group(id="table")
        y = 56
        # row 1: the city (left); the crane, the score breakdown, King's Road and the bridge (right)
        cw, ch = self.city(parts, M + 10, y, S_MAP)
        rx = M + cw + GAP
        crane_w = 780
        right_w = W - M - rx
        top_h = max(self.crane(dw.Group(), rx, y, crane_w), ch - 2 * (92 + 10))  # measured first
        self.crane(parts, rx, y, crane_w, top_h)
        bx = rx + crane_w + GAP
        self.breakdown(parts, bx, y, W - M - bx, top_h)
        ky = y + top_h + 10
        kh = self.kings_road(parts, rx, ky, right_w)
        bh = self.bridge(parts, rx, ky + kh + 10, right_w)
        y2 = max(y + ch, ky + kh + 10 + bh) + GAP
        # row 2: rows, grids, seals and stacks
        rw, rh = self.rows(parts, M, y2, S_TILE)
        x = M + rw + GAP
        heights = [rh]
        projects = self.rs.single("projects")
        for model in projects.grids if projects else ():
            w_, h_ = self.grid(parts, x, y2, model)
            x += w_ + GAP
            heights.append(h_)
        rest = W - M - x
        heights.append(self.seals(parts, x, y2, rest / 2 - GAP / 2))
        heights.append(self.stacks(parts, x + rest / 2 + GAP / 2, y2, rest / 2 - GAP / 2))
        y3 = y2 + max(heights) + GAP
        # row 3: the player boards, four to a line
        per = min(max(self.n, 1), 4)
        pw = (W - 2 * M - GAP * (per - 1)) / per
        line_h, y_line = 0, y3
        for i, p in enumerate(self.s.players):
            if i and i % 4 == 0:
                y_line += line_h + GAP
                line_h = 0
            line_h = max(line_h, self.player_board(parts, M + (i % 4) * (pw + GAP), y_line, pw, p, S_AREA))
        H = y_line + line_h + 40
        d = dw.Drawing(W, H)
        d.append(dw.Rectangle(0, 0, W, H, fill="#f3eee3"))
        self.header(d, W)
        d.append(parts)
        self.legend(d, M, H - 14)
        return d


# --------------------------------------------------------------------------- API


def render_svg(game, actions: list[str] | None = None) -> str:
    """The whole table of ``game`` as SVG text. With ``actions`` (the legal ones), the pieces they act on
    carry a ``data-action`` attribute so a page can play by clicking the board: a crane tile (take), a row
    tile (pick), a city site (place, first rotation), a plank space and a seal."""
    svg = _Table(game).draw().as_svg()
    return _clickable(svg, game, actions) if actions else svg


def _clickable(svg: str, game, actions: list[str]) -> str:
    legal = set(actions)
    marks: dict[str, str] = {}
    for a in actions:
        verb, _, arg = a.partition(" ")
        if verb == "take":
            marks.setdefault(f"crane-tile-{arg}", a)
        elif verb in ("plank", "seal"):
            marks.setdefault(f"{verb}-{arg}", a)
        elif verb == "place" and " at " in arg:
            marks.setdefault(f"hex-{arg.split(' at ')[1].split(' rot ')[0]}", a)
    for kind, row in game.state.table.get("rows", {}).items():
        for quality in ("regular", "special"):
            for k, tile in enumerate(row.get(quality, ())):
                if tile and f"pick {tile}" in legal:
                    marks[f"row-{kind}-{quality}-{k}"] = f"pick {tile}"
    for ident, action in marks.items():
        svg = svg.replace(f'id="{ident}"', f'id="{ident}" data-action="{escape(action, quote=True)}"', 1)
    return svg


def render_png(game, scale: float = 1.0) -> bytes:
    """The whole table as PNG bytes (cairosvg; needs the system cairo library)."""
    import cairosvg

    return cairosvg.svg2png(bytestring=render_svg(game).encode("utf-8"), scale=scale)
