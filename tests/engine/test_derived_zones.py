"""The zones Praga's boards derive (content/derived_zones.py: the market rows' stacks and rows, the
slot row's zone) are zones to the effect language as they are to the runtime: counted, filtered by
their records' fields, suggested when misspelt."""

from __future__ import annotations

import pytest

from interpreter import load_ruleset, new_game
from interpreter.errors import ContentErrors
from interpreter.runtime import zones as Z

from tests.engine.praga_overlay import variant


def test_an_effect_counts_a_row_a_face_down_stack_and_the_slot_row(tmp_path):
    rs = variant(tmp_path, "counted", '  flow.setup: "for each player: score count(wall_row where special) * 100'
                                      ' + count(upgrade_1_regular) * 10 + count(bridge)"\n')
    game = new_game(rs, 2, seed=3)
    zones = game.state.zones
    specials = sum(1 for t in zones["wall_row"] if t is not None and game.rules.tables.records[("wall", t)].special)
    assert specials == 1 and len(zones["upgrade_1_regular"]) > 0 and Z.count(zones["bridge"]) == 0
    expected = specials * 100 + len(zones["upgrade_1_regular"]) * 10
    assert [p.score for p in game.state.players] == [expected, expected]


def test_a_misspelt_derived_zone_is_refused_with_a_suggestion(tmp_path):
    with pytest.raises(ContentErrors) as caught:
        variant(tmp_path, "misspelt", '  flow.setup: "for each player: score count(wall_rows)"\n')
    assert [(e.code, e.message) for e in caught.value.errors] == [
        ("E307", "unknown kind or zone 'wall_rows'; did you mean 'wall_row', 'wall'?")]


def test_the_resolver_and_the_runtime_know_the_same_derived_zones():
    rs = load_ruleset()
    runtime = new_game(rs, 2, seed=1).rules.tables.zones
    declared = {z.id for z in rs.single("pack").zones}
    assert {zid for zid in rs.symbols.zones if zid not in declared} == {zid for zid in runtime if zid not in declared}
    for zid, sig in rs.symbols.zones.items():
        assert (sig.holds, sig.slots) == (runtime[zid].holds, runtime[zid].slots), zid
