"""Zones (interpreter/runtime/zones.py), with zones of an invented card game: no pack needed."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, strategies as st

from interpreter.runtime import zones as Z

PILE = Z.ZoneSpec("pile", holds="card", per_player=True, visibility="hidden", refill_from="discard", refill_shuffle=True)
DISCARD = Z.ZoneSpec("discard", holds="card", per_player=True)
HAND = Z.ZoneSpec("hand", holds="card", per_player=True, visibility="owner", capacity=3)
MARKET = Z.ZoneSpec("market", holds="card", slots=("left", "middle", "right"))
DECK = Z.ZoneSpec("deck", holds="card", visibility="hidden")
SPECS = {s.id: s for s in (PILE, DISCARD, HAND, MARKET, DECK)}


def test_every_zone_starts_empty_with_one_per_player_where_declared():
    zones = Z.empty(SPECS.values(), players=2)
    assert set(zones) == {"pile@0", "pile@1", "discard@0", "discard@1", "hand@0", "hand@1", "market", "deck"}
    assert zones["market"] == (None, None, None) and zones["pile@1"] == ()


def test_a_player_zone_needs_its_owner():
    with pytest.raises(Z.ZoneError, match="belongs to a player"):
        Z.key(HAND)
    assert Z.key(HAND, 1) == "hand@1" and Z.owner_of("hand@1") == 1 and Z.owner_of("market") is None


def test_put_on_top_or_bottom_and_capacity():
    hand = Z.put(HAND, (), "a")
    hand = Z.put(HAND, hand, "b")
    hand = Z.put(HAND, hand, "c", where="bottom")
    assert hand == ("b", "a", "c")
    with pytest.raises(Z.ZoneError, match="full"):
        Z.put(HAND, hand, "d")


def test_slots_take_one_record_each_and_keep_their_place_when_emptied():
    market = Z.put(MARKET, (None, None, None), "x", where="middle")
    market = Z.put(MARKET, market, "y", where="slot")  # the first free slot
    assert market == ("y", "x", None) and Z.free_slots(MARKET, market) == ("right",)
    with pytest.raises(Z.ZoneError, match="already holds"):
        Z.put(MARKET, market, "z", where="middle")
    with pytest.raises(Z.ZoneError, match="no slot"):
        Z.put(MARKET, market, "z", where="centre")
    market = Z.remove(MARKET, market, "y")
    assert market == (None, "x", None) and Z.slot_of(MARKET, market, "x") == "middle" and Z.top(market) == "x"
    with pytest.raises(Z.ZoneError, match="does not hold"):
        Z.remove(MARKET, market, "y")


def test_a_draw_refills_from_the_discard_once_and_shuffles_it():
    zones = {"pile@0": ("a",), "discard@0": ("b", "c", "d"), "hand@0": ()}
    changed, drawn = Z.draw(SPECS, zones, "pile@0", 3, random.Random(4))
    assert drawn[0] == "a" and len(drawn) == 3 and set(drawn[1:]) < {"b", "c", "d"}
    assert changed["discard@0"] == () and len(changed["pile@0"]) == 1
    assert sorted(drawn + changed["pile@0"]) == ["a", "b", "c", "d"]
    # the same seed shuffles the same way: chance is a function of the state's generator
    again, drawn_again = Z.draw(SPECS, zones, "pile@0", 3, random.Random(4))
    assert (again, drawn_again) == (changed, drawn)
    assert zones == {"pile@0": ("a",), "discard@0": ("b", "c", "d"), "hand@0": ()}  # nothing changed in place


def test_a_draw_from_an_exhausted_pile_without_refill_gives_what_there_is():
    changed, drawn = Z.draw(SPECS, {"deck": ("a", "b")}, "deck", 5, random.Random(0))
    assert drawn == ("a", "b") and changed == {"deck": ()}


def test_a_shuffle_uses_the_generator_as_random_shuffle_does():
    cards = tuple("abcdefgh")
    expected = list(cards)
    random.Random(9).shuffle(expected)
    assert Z.shuffle(cards, random.Random(9)) == tuple(expected)


def test_fill_slots_deals_into_the_empty_ones_in_order():
    market, rest = Z.fill_slots(MARKET, ("q", None, None), ("a", "b", "c"))
    assert market == ("q", "a", "b") and rest == ("c",)
    market, rest = Z.fill_slots(MARKET, (None, None, None), ("a",))
    assert market == ("a", None, None) and rest == ()


def test_what_each_player_sees():
    zones = {"hand@0": ("a", "b"), "hand@1": ("c",), "deck": ("d", "e", "f"), "market": ("x", None, "y")}
    seen = Z.observe(SPECS, zones, 0)
    assert seen == {"hand@0": ["a", "b"], "hand@1": {"size": 1}, "deck": {"size": 3}, "market": ["x", None, "y"]}
    assert Z.observe(SPECS, zones, None)["hand@0"] == {"size": 2}


def test_a_spec_refuses_an_unknown_visibility_and_a_slot_named_twice():
    with pytest.raises(ValueError, match="visibility"):
        Z.ZoneSpec("z", visibility="secret")
    with pytest.raises(ValueError, match="twice"):
        Z.ZoneSpec("z", slots=("a", "a"))


@given(st.lists(st.sampled_from("abcdefghij"), unique=True), st.lists(st.sampled_from("klmnopqrst"), unique=True),
       st.integers(0, 25), st.integers(0, 1000))
def test_a_draw_neither_loses_nor_invents_a_record(pile, discard, n, seed):
    zones = {"pile@0": tuple(pile), "discard@0": tuple(discard)}
    changed, drawn = Z.draw(SPECS, zones, "pile@0", n, random.Random(seed))
    after = {**zones, **changed}
    assert len(drawn) == min(n, len(pile) + (len(discard) if n > len(pile) else 0))
    assert sorted(drawn + after["pile@0"] + after["discard@0"]) == sorted(pile + discard)
    assert drawn[: min(n, len(pile))] == tuple(pile[:n])  # the pile's own records come first, in order


def test_zones_declared_in_content_compile_to_specs(tmp_path):
    """A pack declares zones in its manifest (here added by an overlay to those of the bundled pack,
    its stacks)."""
    from interpreter import default_pack, load_ruleset

    overlay = tmp_path / "zones.yaml"
    overlay.write_text(
        "kind: overlay\nextends: praga\nname: Zones\nprovenance: reconstructed\nsource: test\nadd:\n"
        "  pack.zones:\n"
        "    - {id: pile, per: player, visibility: hidden, refill: {zone: discard, shuffle: true}, provenance: reconstructed, source: test}\n"
        "    - {id: discard, per: player, provenance: reconstructed, source: test}\n"
        "    - {id: offers, holds: technology, slots: [first, second], provenance: reconstructed, source: test}\n",
        encoding="utf-8")
    stacks = {z.id for z in load_ruleset(default_pack()).single("pack").zones}
    specs = Z.specs_of(load_ruleset(default_pack(), (str(overlay),)).single("pack").zones)
    assert set(specs) == stacks | {"pile", "discard", "offers"}
    specs = {zid: spec for zid, spec in specs.items() if zid not in stacks}
    assert specs["pile"] == Z.ZoneSpec("pile", per_player=True, visibility="hidden", refill_from="discard", refill_shuffle=True)
    assert specs["offers"].slots == ("first", "second") and specs["offers"].limit == 2 and specs["offers"].holds == "technology"
    assert Z.empty(specs.values(), 2) == {"pile@0": (), "pile@1": (), "discard@0": (), "discard@1": (), "offers": (None, None)}
