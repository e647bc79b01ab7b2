"""Limits of one DSL text (E111): how long an effect may be and how deeply it may nest.

Every pass after the parser (transformer, resolve, compile, printer, English,
the compiled program itself) walks the tree recursively. The parser refuses a
text over the limits with E111 at its place, so that no later pass can exhaust
Python's stack: the deepest text of every nesting form the parser accepts must
go through all of them, and one level more is E111.
"""

from __future__ import annotations

import pytest

from interpreter.dsl.compile import Compiler
from interpreter.dsl.english import to_english
from interpreter.dsl.parse import MAX_DEPTH, MAX_TOKENS, DslSyntaxError, parse
from interpreter.dsl.printer import to_text
from interpreter.dsl.resolve import resolve
from interpreter.errors import CODES

# Every way the grammar nests, as a text of n levels.
FORMS = {
    "may pay blocks": lambda n: "may pay 1 gold: { " * n + "score 1" + " }" * n,
    "may": lambda n: "may " * n + "score 1",
    "blocks": lambda n: "{ " * n + "score 1" + " }" * n,
    "if": lambda n: "if gold > 1: " * n + "score 1",
    "else": lambda n: "if gold > 1: score 1 else: " * n + "score 2",
    "repeat": lambda n: "repeat 2: " * n + "score 1",
    "later": lambda n: "later: " * n + "score 1",
    "grant or": lambda n: "grant special_tile or " * n + "score 1",
    "choose": lambda n: "choose { score 1 | " * n + "score 2" + " }" * n,
    "sum": lambda n: "score " + " + ".join(["1"] * n),
    "difference": lambda n: "score " + " - ".join(["1"] * n),
    "product": lambda n: "score " + " * ".join(["1"] * n),
    "negation": lambda n: "score " + "-" * n + "1",
    "parentheses": lambda n: "score " + "(" * n + "1 + 1" + ")" * n,
    "not": lambda n: "if " + "not " * n + "gold > 1: score 1",
    "and": lambda n: "if " + " and ".join(["gold > 1"] * n) + ": score 1",
    "or": lambda n: "if " + " or ".join(["gold > 1"] * n) + ": score 1",
    "min": lambda n: "score " + "min(1, " * n + "1" + ")" * n,
    "count where": lambda n: "score " + "count(wall where era > count(wall where " * n + "era > 1" + "))" * n,
    "amounts": lambda n: "gain " + ", ".join(["(1 + 1) gold"] * n),
}
ARITHMETIC = {"sum", "difference", "product", "negation", "parentheses", "min"}


def _parses(text: str) -> bool:
    try:
        parse(text)
    except DslSyntaxError as exc:
        assert exc.code == "E111", (exc.code, exc.message)
        return False
    return True


def _deepest(form) -> int:
    """The largest n the parser accepts (the limits always refuse some n below 2 * MAX_TOKENS)."""
    lo, hi = 1, 2 * MAX_TOKENS
    assert _parses(form(lo)) and not _parses(form(hi))
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if _parses(form(mid)) else (lo, mid)
    return lo


@pytest.mark.parametrize("name", sorted(FORMS))
def test_the_deepest_accepted_text_goes_through_every_pass(symbols, name):
    form = FORMS[name]
    n = _deepest(form)
    text = form(n)
    ast = parse(text)
    printed = to_text(ast)
    assert parse(printed) == ast
    assert to_english(ast)
    res = resolve(ast, symbols)
    compiler = Compiler(symbols.members("resource"), symbols.members("group"), res.constants, res.attributes)
    program = compiler.program(ast, text)
    step = program.steps[0]
    if name in ARITHMETIC:  # a constant expression: run it
        assert isinstance(step.points(None, None), int)
    with pytest.raises(DslSyntaxError) as info:
        parse(form(n + 1))
    assert info.value.code == "E111"


@pytest.mark.parametrize("text, start", [
    ("score " + "-" * 200 + "1", len("score ") + MAX_DEPTH - 2),  # program > score > the 99th `-`
    ("may " * 150 + "score 1", 4 * (MAX_DEPTH - 1)),  # program > the 100th `may`
    ("score " + " + ".join(["1"] * MAX_TOKENS), len("score ") + 2 * (MAX_TOKENS - 1)),  # token 1001
])
def test_too_deep_or_too_long_is_e111_at_its_place(text, start):
    with pytest.raises(DslSyntaxError) as info:
        parse(text)
    err = info.value
    assert (err.code, err.start) == ("E111", start), err.message
    assert err.end > err.start and err.message


@pytest.mark.parametrize("start", ["amounts", "expr", "condition"])
def test_every_start_rule_has_the_limits(start):
    text = {"amounts": "(" + "-" * 300 + "1) gold", "expr": "-" * 300 + "1",
            "condition": "not " * 300 + "gold > 1"}[start]
    with pytest.raises(DslSyntaxError) as info:
        parse(text, start)
    assert info.value.code == "E111"


def test_huge_texts_are_refused_not_crashed_on():
    for text in ("score " + " + ".join(["1"] * 50_000), "may pay 1 gold: { " * 5000 + "score 1" + " }" * 5000,
                 "{ " * 20_000 + "score 1" + " }" * 20_000, "score " + "(" * 20_000 + "1" + ")" * 20_000):
        with pytest.raises(DslSyntaxError) as info:
            parse(text)
        assert info.value.code == "E111"


def test_the_limits_are_far_above_the_bundled_pack(ruleset):
    deepest = max(_depth(parse(f.text, f.start)) for f in ruleset.fields)
    longest = max(len(f.text.split()) for f in ruleset.fields)
    assert 5 * deepest < MAX_DEPTH and 10 * longest < MAX_TOKENS


def test_the_error_code_names_the_limits():
    title, fix = CODES["E111"]
    assert str(MAX_TOKENS) in fix and str(MAX_DEPTH) in fix


def _depth(node) -> int:
    """Depth of an AST (its nodes are dataclasses and tuples)."""
    if isinstance(node, tuple):
        return max((_depth(x) for x in node), default=0)
    fields = getattr(node, "__dataclass_fields__", None)
    if not fields:
        return 0
    return 1 + max((_depth(getattr(node, f)) for f in fields if f != "pos"), default=0)
