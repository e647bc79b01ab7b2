"""Market rows (interpreter/mechanisms/market_rows.py): slotted zones refilled from stacks; a refresh
takes exactly the pairs ``refresh_choices`` lists."""

from __future__ import annotations

import random

import pytest

from interpreter.mechanisms import market_rows as rows
from interpreter.errors import RulesError


def test_a_refresh_accepts_exactly_the_listed_pairs():
    rng = random.Random(1)
    for _ in range(2000):
        row = rows.RowSpec("k", rng.randint(0, 4), rng.randint(0, 2))
        contents = tuple(rng.choice([None, "a", "b"]) for _ in range(row.regular)) + tuple(
            rng.choice([None, "s"]) for _ in range(row.special))
        listed = set(rows.refresh_choices(row, contents))
        size = row.regular + row.special
        for a in range(-1, size + 2):
            for b in range(-1, size + 2):
                assert rows._refreshable(row, contents, (a, b)) == ((a, b) in listed), (contents, a, b)


def test_a_row_is_a_zone_with_regular_then_special_slots():
    row = rows.RowSpec("wall", 3, 1)
    assert row.zone == "wall_row" and rows.row_slots(row) == ("regular_1", "regular_2", "regular_3", "special_1")
    assert [rows.quality_of(row, i) for i in range(4)] == ["regular", "regular", "regular", "special"]
    assert rows.positions(row, ("a", None, "b", "s")) == {"regular": ["a", None, "b"], "special": ["s"]}
    assert rows.is_special(row, ("a", None, "b", "s"), "s") and not rows.is_special(row, ("a", None, "b", "s"), "a")


def test_deal_and_take_refill_from_the_era_and_quality_stack():
    row = rows.RowSpec("k", 2, 1)
    zones = {"k_1_regular": ("a", "b", "c"), "k_1_special": ("s",), "k_2_regular": ("x",)}
    rows.deal(zones, [row], 1)
    assert zones["k_row"] == ("a", "b", "s") and zones["k_1_regular"] == ("c",) and zones["k_1_special"] == ()
    shared = dict(zones)  # a copy of the state shares the tuples
    rows.take(zones, row, "a", 1)
    assert zones["k_row"] == ("c", "b", "s") and zones["k_1_regular"] == ()
    rows.take(zones, row, "s", 1)  # its stack is empty: the slot stays empty (OPEN-25)
    assert zones["k_row"] == ("c", "b", None)
    assert shared["k_row"] == ("a", "b", "s") and shared["k_1_regular"] == ("c",)
    with pytest.raises(RulesError, match="not in the k row"):
        rows.take(zones, row, "x", 1)
    rows.deal(zones, [row], 2)  # the next era: one regular tile left, the rest empty
    assert zones["k_row"] == ("x", None, None)


def test_a_refresh_of_an_unlisted_pair_changes_nothing():
    row = rows.RowSpec("k", 3, 1)
    zones = {"k_row": ("a", None, "b", "s"), "k_1_regular": ("c",), "k_1_special": ("t",)}
    before = dict(zones)
    with pytest.raises(RulesError, match="not a legal refresh"):
        rows.refresh(zones, row, (1, 2), 1)  # position 2 is empty
    assert zones == before
    rows.refresh(zones, row, (1, 4), 1)  # a regular tile and the special one
    assert zones["k_row"] == ("c", None, "b", "t")
    assert zones["k_1_regular"] == ("a",) and zones["k_1_special"] == ("s",)  # under their own stacks, then drawn
    assert before["k_row"] == ("a", None, "b", "s")  # new contents; the old tuple is shared
