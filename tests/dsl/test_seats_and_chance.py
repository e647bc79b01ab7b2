"""The statements and queries for other players, a record's owner and chance (docs/core.md §7):
`for each [other] player`, `as owner`, `roll`, `die()`, `rank()`, `most()`, `seat`, `players`, `round`,
`passed`: what resolve accepts and refuses (with the exact span), how they print and read in English.
Parsing is in test_cases.py's tables; running them is in tests/unit/test_cross_player.py."""

from __future__ import annotations

import dataclasses

import pytest

from interpreter.dsl.english import Names, to_english
from interpreter.dsl.parse import parse
from interpreter.dsl.printer import to_text
from interpreter.dsl.resolve import Scope, resolve

BUILDING = Scope(this_kinds=("building",))


@pytest.fixture(scope="module")
def dice_symbols(symbols):
    """The bundled pack's names with two dice declared (the pack itself declares none)."""
    return dataclasses.replace(symbols, categories={**symbols.categories, "die": frozenset({"white", "black"})})


@pytest.mark.parametrize("text, scope", [
    ("for each player: gain 1 gold", None),
    ("for each other player: { pay 1 gold; score 2 }", None),
    ("for each player: if rank(gold + stone) == 1: score 5", None),
    ("for each player: if most(count(wall)): score 3", None),
    ("as owner: gain 1 gold", BUILDING),
    ("as owner: for each other player: score 1", BUILDING),
    ("roll white; if die(white) > 3: gain 1 gold", None),
    ("score seat + players + round + passed", None),
    ("if passed == players - 1: score 1", None),
    ("score count(upgrade where era <= round)", None),  # no upgrade attribute is named `round`
    ("on action_tile_scored: for each player: score rank(gold)", None),
])
def test_resolves_cleanly(dice_symbols, text, scope):
    assert resolve(parse(text), dice_symbols, scope or Scope()).errors == []


@pytest.mark.parametrize("text, scope, expected", [
    # (code, start, end) of each error, in report order
    ("as owner: score 1", None, [("E311", 0, 8)]),  # `as owner` needs a record that owns the effect
    ("for each player: as owner: gain 1 gould", None, [("E311", 17, 25), ("E302", 34, 39)]),
    ("roll whit", None, [("E301", 5, 9)]),
    ("score die(blak)", None, [("E301", 10, 14)]),
    ("score die(1)", None, [("E310", 10, 11)]),
    ("score die(white, black)", None, [("E310", 6, 23)]),
    ("score rank(gold, 1)", None, [("E310", 6, 19)]),
    ("score rank(gould)", None, [("E301", 11, 16)]),
    ("if most(red): score 1", None, [("E301", 8, 11)]),
    ("score sea + playrs", None, [("E301", 6, 9), ("E301", 12, 18)]),
    # a query's name is no member of a category: compared with a direction it is an unknown direction
    ("on marker_moved if event.direction == round: score 1", None, [("E315", 38, 43)]),
    ("for each other player: { roll green; score die(green) }", None, [("E301", 30, 35), ("E301", 47, 52)]),
])
def test_resolve_errors(dice_symbols, text, scope, expected):
    errors = resolve(parse(text), dice_symbols, scope or Scope()).errors
    assert [(e.code, e.start, e.end) for e in errors] == expected, [e.message for e in errors]


def test_an_unknown_die_is_named_with_the_declared_ones_or_their_absence(symbols, dice_symbols):
    (err,) = resolve(parse("roll whit"), dice_symbols).errors
    assert err.message == "unknown die 'whit'; did you mean 'white'?"
    (err,) = resolve(parse("roll d6"), symbols).errors  # the bundled pack declares no dice
    assert "unknown die 'd6'" in err.message and "declares no dice" in err.message and "`dice:`" in err.message
    (err,) = resolve(parse("as owner: score 1"), symbols).errors
    assert "belong to a record" in err.message


@pytest.mark.parametrize("text, canonical", [
    ("for each  player :\n  score 1", "for each player: score 1"),
    ("for each other player:{ gain 1 gold\n score 1 }", "for each other player: { gain 1 gold; score 1 }"),
    ("as owner :\n { gain 1 gold ; score 1 }", "as owner: { gain 1 gold; score 1 }"),
    ("roll  white\nscore die( white )", "roll white; score die(white)"),
    ("score rank( gold+1 )", "score rank(gold + 1)"),
    # an `if` without else inside the body keeps its braces before an outer else
    ("if a: { for each player: if b: score 1 } else: score 2", "if a: { for each player: if b: score 1 } else: score 2"),
    ("if a: { as owner: if b: score 1 } else: score 2", "if a: { as owner: if b: score 1 } else: score 2"),
    ("if a: { roll white } else: score 2", "if a: { roll white } else: score 2"),
    ("if a: roll white else: score 2", "if a: roll white else: score 2"),
])
def test_canonical_text(text, canonical):
    tree = parse(text)
    assert to_text(tree) == canonical
    assert parse(canonical) == tree


NAMES = Names({"resource:gold": "gold", "gold": "gold", "die:white": "white die"}, {"gold": "gold"})


@pytest.mark.parametrize("text, english", [
    ("for each player: gain 1 gold",
     "For each player, in turn order from the round's first player: gain 1 gold."),
    ("for each other player: score 1",
     "For each other player, in turn order from the round's first player: score 1 point."),
    ("as owner: gain 1 gold", "This tile's owner (if it has one): gain 1 gold."),
    ("roll white; score die(white)", "Roll the white die. Score points equal to the value the white die shows."),
    ("if rank(gold) == 1: score 5", "If your rank by gold (1 for the most) is 1, score 5 points."),
    ("if most(gold): score 5", "If no player has more gold than you, score 5 points."),
    ("if not most(gold): score 1", "If another player has more gold than you, score 1 point."),
    ("score seat * players", "Score points equal to your seat number × the number of players."),
    ("if round > passed: score 1", "If the round number is more than the number of players who passed, score 1 point."),
])
def test_english(text, english):
    assert to_english(parse(text), NAMES) == english
