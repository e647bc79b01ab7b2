"""interpreter/ui/render/layout.py: parts across share the width left by those of a width of their own or a
given one and stretch to the tallest; a column gives its spare height to its first part; a part with nothing
to draw takes no room. On made-up widgets that record where they were drawn."""

from __future__ import annotations

import drawsvg as dw

from interpreter.content.model.table import TablePart
from interpreter.ui.render.layout import ACROSS_GAP, BAND_GAP, DOWN_GAP, Size, Widget, draw_parts


def layout(drawn: dict, widths: dict, heights: dict, parts: list[dict], width: float = 1000) -> float:
    """Lay the parts out with widgets that draw a rectangle (``heights`` high at least, ``widths`` wide if
    given, else as wide as they are given) and note in ``drawn`` the (x, y, width, height) of their drawing in
    the picture itself (measuring draws them into groups thrown away)."""
    picture = dw.Group()

    def widget(name):
        def draw(g, x, y, w, h):
            if name not in heights:
                return Size(0, 0)  # nothing of this in the game
            size = Size(widths.get(name, w), max(heights[name], h))
            g.append(dw.Rectangle(x, y, size.width, size.height))
            if g is picture:
                drawn[name] = (x, y, size.width, size.height)
            return size
        return Widget(draw, own_width=name in widths)

    widgets = {name: widget(name) for name in ("hex_map", "wheel", "scores", "route", "seats", "claims")}
    return draw_parts([TablePart.model_validate(p) for p in parts], widgets, picture, 0, 0, width)


def test_parts_across_share_what_the_map_and_a_fixed_width_leave():
    drawn = {}
    parts = [{"across": [{"widget": "hex_map"}, {"widget": "wheel", "width": 300}, {"widget": "scores"},
                         {"widget": "route"}]}]
    height = layout(drawn, {"hex_map": 200}, {"hex_map": 500, "wheel": 100, "scores": 50, "route": 80}, parts)
    share = (1000 - 200 - 300 - 3 * ACROSS_GAP) / 2
    assert drawn["hex_map"] == (0, 0, 200, 500)
    assert drawn["wheel"] == (200 + ACROSS_GAP, 0, 300, 500)  # stretched to the tallest
    assert drawn["scores"] == (200 + 300 + 2 * ACROSS_GAP, 0, share, 500)
    assert drawn["route"][0] == 200 + 300 + share + 3 * ACROSS_GAP
    assert height == 500


def test_a_column_beside_a_taller_part_gives_its_first_part_the_spare_height():
    drawn = {}
    parts = [{"across": [{"widget": "hex_map"}, {"down": [{"widget": "wheel"}, {"widget": "route"}]}]},
             {"widget": "seats"}]
    height = layout(drawn, {"hex_map": 400}, {"hex_map": 500, "wheel": 100, "route": 80, "seats": 60}, parts)
    assert drawn["wheel"][3] == 500 - 80 - DOWN_GAP  # the column ends level with the map
    assert drawn["route"][1] == 500 - 80
    assert drawn["seats"][1] == 500 + BAND_GAP
    assert height == 500 + BAND_GAP + 60


def test_a_part_with_nothing_to_draw_takes_no_room():
    drawn = {}
    parts = [{"across": [{"widget": "claims"}, {"widget": "wheel", "width": 100}, {"widget": "scores"}]},
             {"widget": "claims"}, {"widget": "route"}]
    height = layout(drawn, {}, {"wheel": 100, "scores": 40, "route": 30}, parts)
    assert drawn["wheel"][0] == 0  # no gap left for the absent part before it
    assert drawn["scores"] == (100 + ACROSS_GAP, 0, 1000 - 100 - ACROSS_GAP, 100)
    assert drawn["route"][1] == 100 + BAND_GAP  # one gap between the two bands drawn
    assert height == 100 + BAND_GAP + 30
