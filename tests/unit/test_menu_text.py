"""The terminal's menu, grouped and folded (issue 18): interpreter/ui/menu_text.py on invented action lists."""

from __future__ import annotations

from interpreter.ui import menu_text as M

PLACES = [f"place tile_a at {q},{r} rot {rot}" for q, r in ((0, 1), (1, 0), (-1, 2), (2, 2), (3, 0)) for rot in range(6)]
TAKES = [f"take offer_{n}" for n in range(1, 5)]
SWAPS = [f"swap {row} {pair} pay {p}" for row in ("north", "south") for pair in ("1,2", "1,3", "2,3", "1,4") for p in (1, 2)]


def plain(action: str) -> str:
    return action.upper() if action.startswith("take") else action


def test_the_pattern_keeps_shared_words_and_names_what_varies():
    assert M.pattern(PLACES) == "place tile_a at <5 choices> rot <0..5>"
    assert M.pattern(SWAPS) == "swap <north|south> <4 choices> pay <1..2>"
    assert M.pattern(["go a", "go b x"]) == "go <a|b> ..."
    assert M.pattern(["n 1", "n 3"]) == "n <1|3>"


def test_a_short_menu_is_listed_in_full_with_words_only_where_they_add():
    lines = M.lines(TAKES + ["end"], plain)
    assert len(lines) == 5
    assert lines[0].split() == ["1.", "take", "offer_1", "TAKE", "OFFER_1"]
    assert lines[-1].split() == ["5.", "end"]


def test_a_long_menu_folds_its_largest_groups_and_keeps_the_numbers_of_the_whole_list():
    legal = SWAPS + TAKES + PLACES  # 16 + 4 + 30
    lines = M.lines(legal, plain)
    assert len(lines) == 21  # the 30 places folded, the rest fits
    assert lines[-1].split()[0] == "21-50." and "type `place`" in lines[-1]
    assert [ln.split()[0] for ln in lines[16:20]] == ["17.", "18.", "19.", "20."]
    legal = SWAPS + TAKES + PLACES + [f"drop item_{n}" for n in range(10)]  # 60: the swaps fold too
    lines = M.lines(legal, plain)
    assert lines[0].split()[:2] == ["1-16.", "swap"] and "type `swap`" in lines[0]
    assert len(lines) == 1 + 4 + 1 + 10


def test_typed_words_open_a_group_one_level_down():
    legal = SWAPS + TAKES + PLACES
    swaps = M.lines(legal, plain, "swap")
    assert len(swaps) == 16 and swaps[0].split()[0] == "1."  # 16 fit on a screen: listed in full
    places = M.lines(legal, plain, "place")
    # one tile: its hexes are the groups, each folded to its rotations (groups of one size fold together)
    assert [ln.split()[0] for ln in places] == ["21-26.", "27-32.", "33-38.", "39-44.", "45-50."]
    assert "type `place tile_a at 1,0`" in places[1]
    assert len(M.lines(legal, plain, "place tile_a at 1,0")) == 6
    assert M.under(legal, "place tile_a at 9,9") == []


def test_groups_follow_a_prefix_every_option_shares():
    found = M.groups(M.under(PLACES, "place"), "place")
    assert [g.words for g in found][:3] == ["place tile_a at 0,1", "place tile_a at 1,0", "place tile_a at -1,2"]
    assert all(len(g.options) == 6 for g in found)
