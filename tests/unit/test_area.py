"""The personal area: geometry from the hex graph, and what a new tile connects to (R-ADJ, R-CORNER, R-CONN)."""

from __future__ import annotations

from interpreter.mechanisms.hex_area import build_area, connect
from interpreter.mechanisms.hexes import neighbour

CENTRE = (0, 0)
ACTIONS = {"a": (1, 0), "b": (0, 1), "c": (-1, 1), "d": (-1, 0), "e": (0, -1), "f": (1, -1)}
GEO = build_area(CENTRE, ACTIONS)
PAYING = {"book", "window"}

# tiles: local edges and corners ("none" blank)
EDGES = {
    "x": ("book", "none", "none", "none", "none", "none"),
    "y": ("none", "none", "none", "window", "none", "none"),
    "z": ("none", "none", "none", "cap", "none", "none"),  # a reminder symbol that never pays
}
CORNERS = {
    "x": ("red", "none", "none", "none", "none", "none"),
    "y": ("none", "none", "red", "none", "none", "none"),
    "z": ("none", "none", "red", "none", "none", "none"),
}


def run(at, tile, rot, tops, used=()):
    return connect(GEO, at, tile, rot, tops, EDGES.__getitem__, CORNERS.__getitem__, PAYING, {"red"}, set(used))


def test_the_ring_has_twelve_hexes_and_the_centre_holds_no_tile():
    assert len(GEO.ring) == 12 and CENTRE not in GEO.sides
    assert set(GEO.sides) == set(ACTIONS.values()) | set(GEO.ring)
    for h, sides in GEO.sides.items():
        for s, other in enumerate(sides):
            assert other is None or other == neighbour(h, s)


def test_facing_symbols_pay_both_and_mark_both_ends_used():
    # y at (2,0) faces west (side 3) towards x at (1,0), whose side 0 shows a book
    out = run((2, 0), "y", 0, {(1, 0): ("x", 0)})
    assert out.symbols == ["window", "book"]
    assert out.used[:2] == ["y|e3|1,0", "x|e0|2,0"]


def test_a_blank_or_reminder_edge_pays_nothing_and_rotation_matters():
    assert run((2, 0), "z", 0, {(1, 0): ("x", 0)}).symbols == []  # the reminder does not pay (R-ADJ-4)
    assert run((2, 0), "y", 1, {(1, 0): ("x", 0)}).symbols == []  # turned away


def test_used_ends_never_pay_again():
    assert run((2, 0), "y", 0, {(1, 0): ("x", 0)}, used=["x|e0|2,0"]).symbols == []


def test_corner_icons_meeting_pay_one_token_each():
    # corner 0 of (1,0) is corner 2 of (2,0) (the hex across side 0)
    out = run((2, 0), "y", 0, {(1, 0): ("x", 0)})
    assert out.corners == 1
    # already used between these two tiles: nothing more
    assert run((2, 0), "y", 0, {(1, 0): ("x", 0)}, used=out.used).corners == 0
