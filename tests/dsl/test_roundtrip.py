"""Property tests: programs generated from effect.lark survive parse -> to_text -> parse.

``hypothesis.extra.lark.from_lark`` walks a grammar and draws each terminal
from a strategy. Two practical problems with feeding it effect.lark directly:

* it does not insert the ignored whitespace, so tokens would run together:
  every terminal gets an explicit strategy that pads it with blanks; NAME is
  drawn from words that are not keywords, NUMBER is a small integer and _SEP
  is `;` or a line break in several spellings;
* the expression and condition rules recurse with a branching factor above
  one, so most draws hit Hypothesis' depth limit and the test is slow. The
  generator therefore uses a depth-bounded copy of the grammar: every rule is
  unrolled into one copy per depth, and a copy keeps only the alternatives that
  can still finish within the bound. The bounded language is a subset of the
  real one and still uses every rule alternative (checked below).

Generated text is parsed by the real parser (interpreter.dsl.parse).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark
from lark.lexer import PatternStr

from interpreter.dsl.english import to_english
from interpreter.dsl.parse import START_RULES, grammar_text, parse
from interpreter.dsl.printer import to_text

GRAMMAR = Lark(grammar_text(), parser="lalr", lexer="basic", start=list(START_RULES))

KEYWORDS = frozenset(
    t.pattern.value for t in GRAMMAR.terminals if isinstance(t.pattern, PatternStr) and t.pattern.value.isalpha()
)

# --------------------------------------------------------------------------- the bounded grammar

# Regex terminals get simple patterns here: their text always comes from EXPLICIT below.
_PLACEHOLDER = {"NAME": "/[a-z]+/", "NUMBER": "/[0-9]+/", "CMP": "/==|!=|<=|>=|<|>/", "_SEP": '";"'}


def _alternatives() -> dict[str, list]:
    rules: dict[str, list] = defaultdict(list)
    for r in GRAMMAR.rules:  # EBNF already expanded: one entry per alternative
        rules[r.origin.name].append(r.expansion)
    return rules


def _min_heights(rules) -> dict[str, float]:
    """The smallest derivation height of every rule (terminals count 0)."""
    height = dict.fromkeys(rules, float("inf"))
    changed = True
    while changed:
        changed = False
        for name, alts in rules.items():
            for alt in alts:
                h = 1 + max((height[s.name] for s in alt if not s.is_term), default=0)
                if h < height[name]:
                    height[name], changed = h, True
    return height


def _copy_name(rule: str, depth: int) -> str:
    return f"g{depth}_{rule.strip('_')}"


@lru_cache(maxsize=None)
def bounded_grammar(start: str, depth: int) -> tuple[str, str, frozenset[str], frozenset[tuple]]:
    """(grammar text, start rule, terminals used, alternatives used) of the depth-bounded copy."""
    rules = _alternatives()
    height = _min_heights(rules)
    lines, todo, seen, terms, used = [], [(start, 0)], set(), set(), set()
    while todo:
        rule, d = todo.pop()
        if (rule, d) in seen:
            continue
        seen.add((rule, d))
        alts = []
        for alt in rules[rule]:
            if any(not s.is_term and d + 1 + height[s.name] > depth + 1 for s in alt):
                continue  # cannot finish within the bound
            used.add((rule, tuple(s.name for s in alt)))
            parts = []
            for s in alt:
                if s.is_term:
                    terms.add(s.name)
                    parts.append(s.name)
                else:
                    parts.append(_copy_name(s.name, d + 1))
                    todo.append((s.name, d + 1))
            alts.append(" ".join(parts))
        assert alts, f"{rule} cannot finish within depth {depth}"
        lines.append(f"{_copy_name(rule, d)}: " + "\n    | ".join(alts))
    for t in GRAMMAR.terminals:
        if t.name in terms:
            pattern = json.dumps(t.pattern.value) if isinstance(t.pattern, PatternStr) else _PLACEHOLDER[t.name]
            lines.append(f"{t.name}: {pattern}")
    return "\n".join(lines), _copy_name(start, 0), frozenset(terms), frozenset(used)


# --------------------------------------------------------------------------- terminal strategies

_WORDS = ["gold", "stone", "egg", "wall", "upgrade", "plaza", "era", "up", "sideways", "turn", "x", "a_b", "t2", "_y",
          "owner", "occupant", "one"]  # the words `as` and `choose ... in` take (the parser checks them, not the grammar)


def _pad(s: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(st.sampled_from([" ", "  ", "\t"]), s, st.sampled_from([" ", " \t"])).map("".join)


def _terminal_strategies() -> dict[str, st.SearchStrategy[str]]:
    out = {t.name: _pad(st.just(t.pattern.value)) for t in GRAMMAR.terminals if isinstance(t.pattern, PatternStr)}
    names = st.one_of(
        st.sampled_from(_WORDS),
        st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True).filter(lambda w: w not in KEYWORDS),
    )
    out["NAME"] = _pad(names)
    out["NUMBER"] = _pad(st.integers(0, 30).map(str))
    out["CMP"] = _pad(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]))
    out["_SEP"] = st.sampled_from([" ; ", "\n", " ;\n ", "\r\n  ", "\n\n", ";;"])
    return out


TERMINALS = _terminal_strategies()
DEPTH = {"program": 16, "condition": 13, "expr": 17, "amounts": 12}


def programs(start: str) -> st.SearchStrategy[str]:
    text, root, terms, _ = bounded_grammar(start, DEPTH[start])
    lark = Lark(text, parser="earley", start=root)
    return from_lark(lark, start=root, explicit={k: v for k, v in TERMINALS.items() if k in terms})


SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


# The grammar lets trigger options repeat; the parser then rejects a second `once per` or
# `from next` (it would silently override the first). Generated texts avoid that case.
_REPEATED_OPTION = re.compile(r"\bonce\s+per\b.*\bonce\s+per\b|\bfrom\s+next\b.*\bfrom\s+next\b", re.S)
# `as <word>:` and `choose <word> in` are words the parser checks (owner or occupant; one).
_OTHER_WORD = re.compile(r"\bas\s+(?!owner\s|occupant\s)\w+\s+:|\bchoose\s+(?!one\s)\w+\s+in\b")


def _check(text: str, start: str) -> None:
    assume(not _REPEATED_OPTION.search(text) and not _OTHER_WORD.search(text))
    tree = parse(text, start)
    printed = to_text(tree)
    again = parse(printed, start)
    assert again == tree, f"{text!r} printed as {printed!r}"
    assert to_text(again) == printed
    assert to_english(tree).strip()


# --------------------------------------------------------------------------- tests


def test_terminal_strategies_cover_the_grammar():
    # every terminal has an explicit strategy (WS is ignored, never generated)
    assert {t.name for t in GRAMMAR.terminals} - {"WS"} == set(TERMINALS)
    assert {"any", "free", "this", "count"} <= KEYWORDS and "gold" not in KEYWORDS


def test_bounded_grammar_keeps_every_alternative():
    every = {(r.origin.name, tuple(s.name for s in r.expansion)) for r in GRAMMAR.rules}
    used = set().union(*(bounded_grammar(s, DEPTH[s])[3] for s in START_RULES))
    assert every - used == set()


@SETTINGS
@given(programs("program"))
def test_program_roundtrip(text):
    _check(text, "program")


@settings(SETTINGS, max_examples=60)
@given(programs("condition"))
def test_condition_roundtrip(text):
    _check(text, "condition")


@settings(SETTINGS, max_examples=60)
@given(programs("expr"))
def test_expr_roundtrip(text):
    _check(text, "expr")


@settings(SETTINGS, max_examples=30)
@given(programs("amounts"))
def test_amounts_roundtrip(text):
    _check(text, "amounts")


# --------------------------------------------------------------------------- canonical text, case by case

CANONICAL = [
    ("gain 1 gold and 2 stone", "gain 1 gold, 2 stone"),
    ("gain (1+2) gold", "gain (1 + 2) gold"),
    ("gain (3) gold", "gain 3 gold"),
    ("gain 1 gold\n\nscore 2;", "gain 1 gold; score 2"),
    ("{\n gain 1 gold\n score 1\n}", "{ gain 1 gold; score 1 }"),
    ("choose {\n gain 1 gold\n |\n score 2 ; score 3\n}", "choose { gain 1 gold | score 2; score 3 }"),
    ("score (1 +\n 2) * 3", "score (1 + 2) * 3"),
    ("score 1 - (2 - 3)", "score 1 - (2 - 3)"),
    ("score (1 - 2) - 3", "score 1 - 2 - 3"),
    ("score 8 / (4 / 2)", "score 8 / (4 / 2)"),
    ("score (2 * 3) / 4", "score 2 * 3 / 4"),
    ("score 2 * (3 / 4)", "score 2 * (3 / 4)"),
    ("score -(1 + 2)", "score -(1 + 2)"),
    ("score - - 1", "score --1"),
    ("score 1 - -1", "score 1 - -1"),
    ("score ((gold))", "score gold"),
    ("score min( gold ,stone )", "score min(gold, stone)"),
    ("score count( all building where plaza==this.plaza )", "score count(all building where plaza == this.plaza)"),
    ("if (a or b) and c: score 1", "if (a or b) and c: score 1"),
    ("if a or (b and c): score 1", "if a or b and c: score 1"),
    ("if a and (b and c): score 1", "if a and (b and c): score 1"),
    ("if (a or b) or c: score 1", "if a or b or c: score 1"),
    ("if not (a or b): score 1", "if not (a or b): score 1"),
    ("if not (a): score 1", "if not a: score 1"),
    ("if (1 + 2) > 3: score 1", "if 1 + 2 > 3: score 1"),
    # an `if` without else inside the then-branch of an if-else must keep its braces
    ("if a: { if b: score 1 } else: score 2", "if a: { if b: score 1 } else: score 2"),
    ("if a: { may pay 1 gold: if b: score 1 } else: score 2", "if a: { may pay 1 gold: if b: score 1 } else: score 2"),
    ("if a: { grant x or if b: score 1 } else: score 2", "if a: { grant x or if b: score 1 } else: score 2"),
    ("if a: { later: if b: score 1 } else: score 2", "if a: { later: if b: score 1 } else: score 2"),
    ("later:\n  { score 1\n score 2 }", "later: { score 1; score 2 }"),
    # ... but a grant without `or`, or an if with its own else, needs none
    ("if a: { grant x } else: score 2", "if a: { grant x } else: score 2"),
    ("if a: grant x else: score 2", "if a: grant x else: score 2"),
    ("if a: if b: score 1 else: score 3 else: score 2", "if a: if b: score 1 else: score 3 else: score 2"),
    ("on x(y)  if a  while b  once per turn  from next turn : { score 1 ; score 2 }",
     "on x(y) if a while b once per turn from next turn: { score 1; score 2 }"),
    ("perform any\nscore 1", "perform any; score 1"),
    ("move cathedral up free(cube) free", "move cathedral up free(cube) free"),
    ("draw  all from pile\n to hand", "draw all from pile to hand"),
    ("move this to row\n  at second", "move this to row at second"),
    ("move all from hand\n to discard at end; shuffle  pile;;refill row", "move all from hand to discard at end; shuffle pile; refill row"),
]


@pytest.mark.parametrize("text, canonical", CANONICAL, ids=[repr(t)[:50] for t, _ in CANONICAL])
def test_canonical_text(text, canonical):
    tree = parse(text)
    assert to_text(tree) == canonical
    assert parse(canonical) == tree


@pytest.mark.parametrize("text, start, canonical", [
    ("2 gold and 1 stone", "amounts", "2 gold, 1 stone"),
    ("(gold) egg", "amounts", "(gold) egg"),
    ("a and (b or c)", "condition", "a and (b or c)"),
    ("(1 + 2) * 3", "expr", "(1 + 2) * 3"),
])
def test_canonical_text_other_start_rules(text, start, canonical):
    tree = parse(text, start)
    assert to_text(tree) == canonical
    assert parse(canonical, start) == tree
