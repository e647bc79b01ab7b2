"""Lay out the parts of a drawn table as the pack's `table` file says (content/model/table.py): a part is a
widget, parts side by side (`across`) or parts one under another (`down`).

A widget is drawn by a ``Widget``: it draws at (x, y) in the width it is given (or at a width of its own:
the map, the market rows), at least ``min_height`` high where it can stretch, and says the size it used. A
part is measured by drawing it into a group that is then thrown away (once per part and width), so a widget
is written once and the layout needs nothing else from it. A widget whose content the game lacks draws
nothing (size 0, 0) and takes no gap."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import drawsvg as dw

from interpreter.content.model.table import TablePart

ACROSS_GAP, DOWN_GAP, BAND_GAP = 16, 10, 16  # between parts side by side, in a column, of the top level


@dataclass(frozen=True)
class Size:
    width: float
    height: float


@dataclass(frozen=True)
class Widget:
    draw: Callable[[dw.Group, float, float, float, float], Size]
    """(group, x, y, width, min_height) -> the size drawn."""
    own_width: bool = False
    """True: drawn at a width of its own whatever it is given (a map at its hex size)."""


def draw_parts(parts: list[TablePart], widgets: dict[str, Widget], g: dw.Group, x: float, y: float,
               width: float) -> float:
    """The parts one under another from (x, y), each the whole width (the top level of a layout), then each
    widget they leave out in a band of its own, so a layout hides nothing; the height used, gaps included."""
    named = {w for part in parts for w in _named(part)}
    parts = [*parts, *(TablePart(widget=w) for w in widgets if w not in named)]
    return _Layout(widgets).down(parts, g, x, y, width, 0, BAND_GAP).height


def _named(part: TablePart):
    if part.widget is not None:
        yield part.widget
    for p in (*part.across, *part.down):
        yield from _named(p)


class _Layout:
    def __init__(self, widgets: dict[str, Widget]):
        self.widgets = widgets
        self.sizes: dict[tuple[int, float | None], Size] = {}

    def place(self, part: TablePart, g: dw.Group, x: float, y: float, width: float, min_height: float = 0) -> Size:
        """Draw one part at (x, y) in ``width``, at least ``min_height`` high where it stretches; its size."""
        if part.widget is not None:
            return self.widgets[part.widget].draw(g, x, y, width, min_height)
        if part.across:
            return self.across(part.across, g, x, y, width, min_height)
        return self.down(part.down, g, x, y, width, min_height, DOWN_GAP)

    def measure(self, part: TablePart, width: float) -> Size:
        """The size a part takes at ``width`` when nothing stretches it: a widget's by drawing it aside (once per
        width), a row's or a column's from its parts'."""
        if part.widget is None:
            parts = part.across or part.down
            if part.across:
                widths = self.widths(parts, width)
                sizes = [self.measure(p, w) for p, w in zip(parts, widths)]
                shown = [max(s.width, w) for s, w in zip(sizes, widths) if s.width or s.height]
                return Size(sum(shown) + ACROSS_GAP * max(len(shown) - 1, 0), max((s.height for s in sizes), default=0))
            sizes = [s for s in (self.measure(p, width) for p in parts) if s.height]
            return Size(max((s.width for s in sizes), default=0),
                        sum(s.height for s in sizes) + DOWN_GAP * max(len(sizes) - 1, 0))
        key = (id(part), None if self.own_width(part) else round(width, 3))
        if key not in self.sizes:
            self.sizes[key] = self.place(part, dw.Group(), 0, 0, width)
        return self.sizes[key]

    def own_width(self, part: TablePart) -> bool:
        return part.widget is not None and self.widgets[part.widget].own_width

    def widths(self, parts: list[TablePart], width: float) -> list[float]:
        """Each part's width across: its `width`, its own, or an equal share of what is left to the parts that
        draw something."""
        given: dict[int, float] = {}
        for i, p in enumerate(parts):
            if p.width is not None:
                given[i] = p.width
            elif self.own_width(p):
                given[i] = self.measure(p, 0).width
        shared = [i for i, p in enumerate(parts) if i not in given and self.measure(p, width) != Size(0, 0)]
        fixed = [w for i, w in given.items() if w > 0 and self.measure(parts[i], w) != Size(0, 0)]
        gaps = ACROSS_GAP * max(len(fixed) + len(shared) - 1, 0)
        share = max(width - sum(fixed) - gaps, 0) / max(len(shared), 1)
        return [given.get(i, share) for i in range(len(parts))]

    def across(self, parts, g, x, y, width, min_height) -> Size:
        widths = self.widths(parts, width)
        sizes = [self.measure(p, w) for p, w in zip(parts, widths)]
        tallest = max([s.height for s in sizes] + [min_height])
        cx = x
        for p, w, size in zip(parts, widths, sizes):
            if size.width == 0 and size.height == 0:
                continue  # nothing to draw: no gap either
            used = self.place(p, g, cx, y, w, tallest)
            cx += max(used.width, w) + ACROSS_GAP
        return Size(max(cx - ACROSS_GAP - x, 0), tallest)

    def down(self, parts, g, x, y, width, min_height, gap) -> Size:
        sizes = [self.measure(p, width) for p in parts]
        drawn = [i for i, s in enumerate(sizes) if s.height > 0]
        needed = sum(sizes[i].height for i in drawn) + gap * max(len(drawn) - 1, 0)
        spare = max(min_height - needed, 0)
        cy, widest = y, 0.0
        for k, i in enumerate(drawn):
            used = self.place(parts[i], g, x, cy, width, sizes[i].height + (spare if k == 0 else 0))
            cy += used.height + gap
            widest = max(widest, used.width)
        return Size(widest, max(cy - gap - y, 0))
