"""A letter the DSL cannot read (a Cyrillic look-alike, an accent) is reported where it stands."""

import pytest

from interpreter.dsl.parse import DslSyntaxError, parse

EFFECTS = ["gain 1 gold_window", "advance research 2; score 1", "may pay 1 stone: score 4"]


@pytest.mark.parametrize("letter", ["а", "о", "é", "ſ"])  # Cyrillic a, Cyrillic o, e acute, long s
@pytest.mark.parametrize("effect", EFFECTS)
def test_a_foreign_letter_anywhere_is_an_e103_on_that_letter(effect, letter):
    for i in range(len(effect) + 1):
        text = effect[:i] + letter + effect[i:]
        with pytest.raises(DslSyntaxError) as info:
            parse(text)
        assert (info.value.code, info.value.start, info.value.end) == ("E103", i, i + 1), text
        assert f"U+{ord(letter):04X}" in info.value.message


def test_a_capital_foreign_letter_is_not_told_to_be_written_in_lower_case():
    with pytest.raises(DslSyntaxError) as info:
        parse("gain 1 gold; Ѕcore 2")  # Cyrillic capital dze, looks like S
    assert info.value.code == "E103" and info.value.start == 13
    assert "lower case" not in info.value.message
