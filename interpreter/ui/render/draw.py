"""Drawing primitives: colours, lines and blocks of text, and pointy-top hex geometry.

Hexes are pointy-top with sides 0..5 clockwise from east and corner k between side k and side k+1
(see the content's board models).
"""

from __future__ import annotations

import math

import drawsvg as dw

FONT = "DejaVu Sans Condensed"
SQRT3 = math.sqrt(3)

# Seat colours (seat 0 first); more seats than colours wrap around.
PALETTE = ("#2f6fd6", "#e8890c", "#2f9e44", "#a03cc0", "#d6336c", "#0c9ea6")
# Fill of a map hex by the role of its type, when the map's `hex_types` give the type no `fill`.
ROLE_FILL = {"site": "#f4ecda", "area": "#cdb78c", "route": "#b48f5a", "crossing": "#7d6550", "plain": "#dddddd"}


def hex_fill(board, hex_type: str) -> str:
    """The fill of a hex type of a map file: its own `fill`, else its role's."""
    ht = board.hex_types.get(hex_type)
    if ht is None:
        return "#dddddd"
    return ht.fill or ROLE_FILL[ht.role]


def route_fill(board) -> str:
    """The fill of the map's route hexes (the pawn track is drawn in it)."""
    for name, ht in (board.hex_types.items() if board is not None else ()):
        if ht.role == "route":
            return hex_fill(board, name)
    return ROLE_FILL["route"]
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


def kind_title(kind: str) -> str:
    """The title of a section drawing a content kind: `city` -> City."""
    return kind.replace("_", " ").capitalize()


# --------------------------------------------------------------------------- text


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


def span(points, s):
    """The box (min x, min y, max x, max y) around hexes of size s centred on ``points``."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs) - s, min(ys) - s, max(xs) + s, max(ys) + s
