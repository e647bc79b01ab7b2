"""The YAML loader's limits and positions: deep nesting, document markers, line breaks, non-ASCII text."""

import pytest

from interpreter.errors import ErrorBag
from interpreter.content.source import MAX_DEPTH, load_file, load_text


def load(text):
    errors = ErrorBag()
    doc = load_text(text, "f.yaml", errors)
    return doc, errors


def where(errors):
    return [(e.span.line, e.span.col, e.code) for e in errors.sorted()]


# --------------------------------------------------------------------------- nesting depth


@pytest.mark.parametrize("opener", ["[", "{", "[{", "{a: "])
def test_deep_flow_nesting_is_refused_once_at_the_opening_too_deep(opener):
    # the root mapping is level 1: the opening that makes level MAX_DEPTH + 1 is refused
    text = "kind: walls\ntiles: " + opener * 1500
    doc, errors = load(text)
    assert doc is None
    assert len(errors) == 1, [e.message for e in errors.errors]
    e = errors.errors[0]
    assert e.code == "E001" and "nested more than" in e.message
    line_text = text.splitlines()[e.span.line - 1]
    prefix = line_text[: e.span.col - 1]
    # every `[`/`{` before the caret opened one level; the caret is on the one past the limit
    assert line_text[e.span.col - 1] in "[{"
    assert prefix.count("[") + prefix.count("{") == MAX_DEPTH - 1


def test_deep_block_nesting_is_refused_once_at_the_key_too_deep():
    text = "a:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(3000))
    doc, errors = load(text)
    assert doc is None
    assert where(errors) == [(MAX_DEPTH + 1, MAX_DEPTH + 1, "E001")]  # level n opens at line n, column n


def test_brackets_in_quotes_comments_and_block_scalars_do_not_count_as_nesting():
    deep = "[" * (2 * MAX_DEPTH)
    text = (f"a: '{deep}'\nb: \"{deep}\"\nc: x{deep}\n# {deep}\nd: |\n  {deep}\n"
            + "e: " + "[" * (MAX_DEPTH - 2) + "1" + "]" * (MAX_DEPTH - 2) + "\n")
    doc, errors = load(text)
    assert where(errors) == []
    assert doc.data()["c"] == "x" + deep


# --------------------------------------------------------------------------- document markers


def test_junk_after_a_document_end_marker_is_named_for_what_it_is():
    doc, errors = load("kind: walls\ntiles: []\n...\njunk: 1\n")
    assert doc is None
    assert where(errors) == [(4, 1, "E001")]
    message = errors.errors[0].message
    assert "`...`" in message and "---" not in message


def test_text_after_a_document_end_marker_on_its_line_is_named_for_what_it_is():
    doc, errors = load("kind: walls\n... junk\n")
    assert where(errors) == [(2, 5, "E001")]
    assert "`...`" in errors.errors[0].message and "('<scalar>',)" not in errors.errors[0].message


def test_a_second_document_after_a_separator_still_names_the_separator():
    doc, errors = load("kind: walls\n---\nkind: seals\n")
    assert where(errors) == [(2, 1, "E001")]
    assert "`---`" in errors.errors[0].message


def test_a_document_end_marker_alone_is_fine():
    doc, errors = load("kind: walls\ntiles: []\n...\n")
    assert where(errors) == [] and doc.data() == {"kind": "walls", "tiles": []}


# --------------------------------------------------------------------------- line breaks


BREAKS = {"lf": "\n", "crlf": "\r\n", "cr": "\r"}


@pytest.mark.parametrize("nl", sorted(BREAKS))
def test_positions_inside_block_scalars_follow_every_kind_of_line_break(nl):
    text = "a: 1\nb: |\n  gain 1 gold\n  score 2\n    build x\nc: |-\n  one\n\n  two\n".replace("\n", BREAKS[nl])
    doc, errors = load(text)
    assert where(errors) == []
    b, c = doc.root.get("b"), doc.root.get("c")
    assert b.value == "gain 1 gold\nscore 2\n  build x\n"
    assert b.position_of(b.value.index("score")) == (4, 3)
    assert b.position_of(b.value.index("build")) == (5, 5)
    assert b.position_of(b.value.index("gold")) == (3, 10)
    assert c.position_of(c.value.index("two")) == (9, 3)


@pytest.mark.parametrize("nl", sorted(BREAKS))
def test_invalid_utf8_is_placed_by_yaml_line_breaks(tmp_path, nl):
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"a: 1\nb: 2\nc: caf\xe9\n".replace(b"\n", BREAKS[nl].encode()))
    errors = ErrorBag()
    assert load_file(bad, errors) is None
    assert where(errors) == [(3, 7, "E005")]


# --------------------------------------------------------------------------- non-ASCII text

# Columns count characters (code points): not UTF-8 bytes, not UTF-16 units.
WIDE = ["é", "Č", "а", "—", "💥"]


@pytest.mark.parametrize("ch", WIDE)
def test_yaml_errors_count_columns_in_characters(ch):
    _, errors = load(f"a: {ch}{ch} x\nb: \"{ch}{ch}\" junk\n")
    assert [(e.span.line, e.span.col) for e in errors.errors] == [(2, 9)]
    _, errors = load(f"a: {ch}{ch}\nb: {ch}{ch}\na: 1\n")
    assert where(errors) == [(3, 1, "E003")]
    _, errors = load(f"a: {ch}{ch}\n{ch}: !tag 1\n")
    assert where(errors) == [(2, 4, "E002")]


@pytest.mark.parametrize("ch", WIDE)
def test_invalid_utf8_after_non_ascii_text_counts_characters(tmp_path, ch):
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(f"a: {ch}{ch}".encode() + b"\xe9\n")
    errors = ErrorBag()
    load_file(bad, errors)
    assert where(errors) == [(1, 6, "E005")]


@pytest.mark.parametrize("ch", WIDE)
def test_string_positions_count_characters(ch):
    doc, _ = load(f"a: {ch}{ch} gain\nb: \"{ch}\\t{ch} gain\"\nc: |\n  {ch}{ch} gain\n")
    for key, line, col in (("a", 1, 7), ("b", 2, 10), ("c", 4, 6)):
        node = doc.root.get(key)
        assert node.position_of(node.value.index("gain")) == (line, col), key
