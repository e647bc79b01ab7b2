"""The YAML loader: positions, scalar typing, and what content may not contain."""

import pytest

from interpreter.errors import ErrorBag
from interpreter.content.source import Mapping, Scalar, Sequence, load_text, to_data, walk


def load(text):
    errors = ErrorBag()
    doc = load_text(text, "f.yaml", errors)
    return doc, [(e.span.line, e.span.col, e.code) for e in errors.sorted()]


def test_positions_of_keys_and_values():
    doc, errs = load("kind: walls\ntiles:\n  - id: w1\n    cost: 2 stone\n")
    assert errs == []
    tiles = doc.root.get("tiles")
    assert isinstance(tiles, Sequence)
    rec = tiles.items[0]
    assert isinstance(rec, Mapping)
    assert (rec.key_node("cost").span.line, rec.key_node("cost").span.col) == (4, 5)
    cost = rec.get("cost")
    assert (cost.span.line, cost.span.col, cost.span.end_col) == (4, 11, 18)


@pytest.mark.parametrize(
    "text, value",
    [
        ("a: 12", 12), ("a: -3", -3), ("a: 0x1f", 31), ("a: 0o17", 15), ("a: 1.5", 1.5), ("a: true", True),
        ("a: False", False), ("a: null", None), ("a: ~", None), ("a:", None), ("a: '12'", "12"),
        ('a: "true"', "true"), ("a: yes", "yes"), ("a: 1 gold", "1 gold"), ("a: 08", 8),
    ],
)
def test_plain_scalars_follow_the_yaml_1_2_core_schema(text, value):
    doc, errs = load(text)
    assert errs == []
    assert to_data(doc.root) == {"a": value}


def test_walk_skips_segments_without_a_node():
    doc, _ = load("tiles:\n  - id: a\n    era: x\n")
    node, depth = walk(doc.root, ("tiles", 0, "function-after[check]", "era"))
    assert isinstance(node, Scalar) and node.value == "x" and depth == 4


def test_character_positions_inside_plain_quoted_and_block_scalars():
    doc, _ = load('a: gain 1 gold\nb: "gain 1 gold"\nc: |\n  gain 1 gold\n    score 2\n')
    a, b, c = (doc.root.get(k) for k in "abc")
    assert a.position_of(5) == (1, 9)  # the "1"
    assert b.position_of(5) == (2, 10)
    text = c.value
    assert c.position_of(text.index("score")) == (5, 5)
    assert c.position_of(text.index("gold")) == (4, 10)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("a: 1\na: 2\n", [(2, 1, "E003")]),
        ("a: !!python/object/apply:os.system ['ls']\n", [(1, 4, "E002")]),
        ("a: !local 3\n", [(1, 4, "E002")]),
        ("a: &x 1\nb: *x\n", [(1, 4, "E004"), (2, 4, "E004")]),
        ("a: [1, 2\n", [(1, 4, "E001")]),  # at the `[` that is never closed
        ("a: 1\n---\nb: 2\n", [(2, 1, "E001")]),
        ("? [1, 2]\n: x\n", [(1, 3, "E009")]),
        ("1: x\n", [(1, 1, "E009")]),
        ("a: \x07\n", [(1, 4, "E001")]),
    ],
)
def test_rejections_are_reported_at_their_position(text, expected):
    doc, errs = load(text)
    assert errs == expected
    assert doc is None


def test_the_tag_text_is_quoted_in_the_message():
    errors = ErrorBag()
    load_text("a: !!python/name:os.system x\n", "f.yaml", errors)
    assert "!!python/name:os.system" in errors.errors[0].message


def test_invalid_utf8_and_oversized_files(tmp_path):
    from interpreter.content.source import MAX_FILE_BYTES, load_file

    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"a: 1\nb: caf\xe9\n")
    errors = ErrorBag()
    assert load_file(bad, errors) is None
    assert [(e.span.line, e.span.col, e.code) for e in errors.errors] == [(2, 7, "E005")]

    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    errors = ErrorBag()
    assert load_file(big, errors) is None
    assert errors.errors[0].code == "E006"
