"""Tile rows (interpreter/mechanisms/market_rows.py): a refresh takes exactly the pairs ``refresh_choices`` lists."""

from __future__ import annotations

import random

import pytest

from interpreter.mechanisms import market_rows as rows
from interpreter.errors import RulesError


def test_a_refresh_accepts_exactly_the_listed_pairs():
    rng = random.Random(1)
    for _ in range(2000):
        n, m = rng.randint(0, 4), rng.randint(0, 2)
        row = {"regular": [rng.choice([None, "a", "b"]) for _ in range(n)],
               "special": [rng.choice([None, "s"]) for _ in range(m)]}
        listed = set(rows.refresh_choices({"k": row}, "k"))
        for a in range(-1, n + m + 2):
            for b in range(-1, n + m + 2):
                assert rows._refreshable(row, (a, b)) == ((a, b) in listed), (row, a, b)


def test_a_refresh_of_an_unlisted_pair_changes_nothing():
    table = {"k": {"regular": ["a", None, "b"], "special": ["s"]}}
    stacks = {rows.stack_zone("k", 1, "regular"): ["c"], rows.stack_zone("k", 1, "special"): ["t"]}
    with pytest.raises(RulesError, match="not a legal refresh"):
        rows.refresh(table, stacks, "k", (1, 2), 1)  # position 2 is empty
    assert table == {"k": {"regular": ["a", None, "b"], "special": ["s"]}}
    after = rows.refresh(table, stacks, "k", (1, 4), 1)  # a regular tile and the special one
    assert after["k"] == {"regular": ["c", None, "b"], "special": ["t"]}
    assert table["k"] == {"regular": ["a", None, "b"], "special": ["s"]}  # a new row; the old one is shared
