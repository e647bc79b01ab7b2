"""Parse DSL text into the typed AST (grammar -> Lark LALR tree -> Transformer -> AST).

Syntax errors become ``DslSyntaxError`` with a code, a message in a
designer's words (chosen with Lark's ``match_examples``) and the character
offset where the problem is.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from interpreter.dsl import ast as A
from interpreter.dsl.lexing import MAX_DEPTH, MAX_TOKENS, DslSyntaxError, _Separators  # noqa: F401  (names of this module too)

START_RULES = ("program", "amounts", "expr", "condition")



# --------------------------------------------------------------------------- parser


@lru_cache(maxsize=1)
def grammar_text() -> str:
    return resources.files(__package__).joinpath("effect.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def _parser(start: str) -> Lark:
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="basic",  # the postlexer buffers separators, so the lexer must not depend on parser state
        start=start,
        postlex=_Separators(),
        propagate_positions=True,
        maybe_placeholders=False,
        cache=True,  # the parse tables are kept in the temp folder: a later process loads them instead of building them
    )


def _pos(meta) -> A.Pos:
    if getattr(meta, "empty", True):
        return A.NOPOS
    return (meta.start_pos, meta.end_pos)


def _name(tok: Token) -> A.Name:
    return A.Name(str(tok), (tok.start_pos, tok.end_pos))


def as_cond(x) -> A.Cond:
    if isinstance(x, (A.Compare, A.Truth, A.And, A.Or, A.Not)):
        return x
    return A.Truth(x, x.pos)


def _mods(items) -> tuple:
    return tuple(i for i in items if isinstance(i, (A.Free, A.Discount, A.With)))


@v_args(meta=True)
class _ToAst(Transformer):
    # programs and triggers
    def program(self, meta, items):
        return A.Program(tuple(items), _pos(meta))

    def trigger(self, meta, ch):
        event = _name(ch[0])
        arg = None
        conds, whiles, once, from_next = [], [], None, None
        for c in ch[1:-1]:
            tag, value = c
            if tag == "arg":
                arg = value
            elif tag == "if":
                conds.append(value)
            elif tag == "while":
                whiles.append(value)
            elif tag == "once":
                if once is not None:
                    raise DslSyntaxError("E101", "`once per` is given twice in this trigger", *value.pos)
                once = value
            elif tag == "from":
                if from_next is not None:
                    raise DslSyntaxError("E101", "`from next` is given twice in this trigger", *value.pos)
                from_next = value
        return A.Trigger(event, arg, tuple(conds), tuple(whiles), once, from_next, ch[-1], _pos(meta))

    def event_arg(self, meta, ch):
        return ("arg", _name(ch[0]))

    def trig_if(self, meta, ch):
        return ("if", as_cond(ch[0]))

    def trig_while(self, meta, ch):
        return ("while", as_cond(ch[0]))

    def trig_once(self, meta, ch):
        return ("once", _name(ch[0]))

    def trig_from(self, meta, ch):
        return ("from", _name(ch[0]))

    # statements
    def block(self, meta, ch):
        return A.Block(tuple(ch), _pos(meta))

    option = block

    def gain(self, meta, ch):
        return A.Gain(ch[0], _pos(meta))

    def pay(self, meta, ch):
        return A.Pay(ch[0], _pos(meta))

    def score(self, meta, ch):
        return A.Score(ch[0], _pos(meta))

    def advance(self, meta, ch):
        return A.Advance(_name(ch[0]), ch[1] if len(ch) > 1 else None, _pos(meta))

    def produce(self, meta, ch):
        return A.Produce(_name(ch[0]), _pos(meta))

    def move(self, meta, ch):
        steps = next((c for c in ch[2:] if not isinstance(c, (A.Free, A.Discount, A.With))), None)
        return A.Move(_name(ch[0]), _name(ch[1]), steps, _mods(ch[2:]), _pos(meta))

    def perform(self, meta, ch):
        return A.Perform(_name(ch[0]), _mods(ch[1:]), _pos(meta))

    def perform_any(self, meta, ch):
        return A.Perform(_name(ch[0]), _mods(ch[1:]), _pos(meta))

    def build(self, meta, ch):
        return A.Build(_name(ch[0]), _mods(ch[1:]), _pos(meta))

    def choose(self, meta, ch):
        return A.Choose(tuple(ch), _pos(meta))

    def may(self, meta, ch):
        return A.May(ch[0], _pos(meta))

    def may_pay(self, meta, ch):
        return A.MayPay(ch[0], ch[1], _pos(meta))

    def if_stmt(self, meta, ch):
        return A.If(as_cond(ch[0]), ch[1], ch[2] if len(ch) > 2 else None, _pos(meta))

    def repeat(self, meta, ch):
        if len(ch) == 2:
            return A.Repeat(ch[0], ch[1], _pos(meta))
        return A.Repeat(None, ch[0], _pos(meta))

    def grant(self, meta, ch):
        return A.Grant(_name(ch[0]), ch[1] if len(ch) > 1 else None, _pos(meta))

    def later(self, meta, ch):
        return A.Later(ch[0], _pos(meta))

    def draw(self, meta, ch):
        count, stack, keep = ch[0][1], _name(ch[1]), ch[2]
        to = _name(ch[3]) if len(ch) > 3 else None
        return A.Draw(count, stack, keep, to, _pos(meta))

    def count(self, meta, ch):
        return ("count", ch[0])

    def count_all(self, meta, ch):
        return ("count", None)

    def use(self, meta, ch):
        q = next(i for i, c in enumerate(ch) if not isinstance(c, Token))  # the quantifier
        where = as_cond(ch[q + 2]) if len(ch) > q + 2 else None
        return A.Use(tuple(_name(t) for t in ch[:q]), ch[q], _name(ch[q + 1]), where, _pos(meta))

    def q_any(self, meta, ch):
        return "any"

    def q_each(self, meta, ch):
        return "each"

    def q_all(self, meta, ch):
        return "all"

    def place(self, meta, ch):
        return A.Place(_name(ch[0]), ch[1], _pos(meta))

    def target(self, meta, ch):
        return ch[0]

    def for_each(self, meta, ch):
        return A.ForEach(False, ch[0], _pos(meta))

    def for_each_other(self, meta, ch):
        return A.ForEach(True, ch[0], _pos(meta))

    def as_owner(self, meta, ch):
        role = ch[0]
        if role == "owner":
            return A.AsOwner(ch[1], _pos(meta))
        if role == "occupant":
            return A.AsOccupant(ch[1], _pos(meta))
        raise DslSyntaxError("E101", f"expected `as owner:` or `as occupant:`, not `as {role}:`", role.start_pos, role.end_pos)

    def roll(self, meta, ch):
        return A.Roll(_name(ch[0]), _pos(meta))
    # moving records between zones
    def zone_draw(self, meta, ch):
        return A.ZoneDraw(ch[0][1], _name(ch[1]), _name(ch[2]), _pos(meta))

    def zone_move(self, meta, ch):
        return A.ZoneMove(ch[0], None, _name(ch[1]), ch[2] if len(ch) > 2 else None, _pos(meta))

    def zone_move_all(self, meta, ch):
        return A.ZoneMove(None, _name(ch[0]), _name(ch[1]), ch[2] if len(ch) > 2 else None, _pos(meta))

    def at(self, meta, ch):
        return _name(ch[0])

    def shuffle(self, meta, ch):
        return A.Shuffle(_name(ch[0]), _pos(meta))

    def refill(self, meta, ch):
        return A.Refill(_name(ch[0]), _pos(meta))

    # the records of a zone, one after another
    def for_each_record(self, meta, ch):
        where = as_cond(ch[1]) if len(ch) > 2 else None
        return A.ForEachRecord(_name(ch[0]), where, ch[-1], _pos(meta))

    def join_order(self, meta, ch):
        return A.JoinOrder(_name(ch[0]), _pos(meta))

    # a record's effect field, run
    def run(self, meta, ch):
        return A.Run(_name(ch[0]), None, _pos(meta))

    def run_record(self, meta, ch):
        return A.Run(_name(ch[0]), _name(ch[1]), _pos(meta))

    # a record picked, counts kept on records
    def choose_record(self, meta, ch):
        one = ch[0]
        if one.type == "NUMBER":
            count = int(one)
            if count < 1:
                raise DslSyntaxError("E101", "`choose N in <zone>` picks 1 or more records", one.start_pos, one.end_pos)
        elif one == "one":
            count = 1
        else:
            raise DslSyntaxError("E101", f"expected `choose one in <zone>: ...`, `choose N in <zone>: ...` or "
                                 f"`choose {{ ... | ... }}`, not `choose {one}`", one.start_pos, one.end_pos)
        where = as_cond(ch[2]) if len(ch) > 3 else None
        return A.ChooseRecord(_name(ch[1]), where, ch[-1], _pos(meta), count)

    def require(self, meta, ch):
        return A.Require(as_cond(ch[0]), _pos(meta))

    def at_once(self, meta, ch):
        return A.AtOnce(ch[-1], _pos(meta))

    def visit(self, meta, ch):
        return A.Visit(tuple(_name(c) for c in ch[:-1]), ch[-1], _pos(meta))

    def multiply(self, meta, ch):
        return A.Multiply(tuple(_name(c) for c in ch[:-2]), ch[-2], ch[-1], _pos(meta))

    def put(self, meta, ch):
        return A.Put(ch[0], ch[1], _pos(meta))

    def take(self, meta, ch):
        return A.Take(ch[0], ch[1], _pos(meta))

    def mod_free(self, meta, ch):
        return A.Free(_pos(meta))

    def mod_discount(self, meta, ch):
        return A.Discount(ch[0], _pos(meta))

    def mod_with(self, meta, ch):
        return A.With(_name(ch[0]), _pos(meta))

    # amounts
    def amounts(self, meta, ch):
        return tuple(ch)

    def amount(self, meta, ch):
        return A.Amount(ch[0], _name(ch[1]), _pos(meta))

    # expressions
    def number(self, meta, ch):
        tok = ch[0]
        if isinstance(tok, Token):
            return A.Num(int(tok), (tok.start_pos, tok.end_pos))
        return tok  # "(" expr ")" inside an amount

    def ref(self, meta, ch):
        return A.Ref(tuple(_name(t) for t in ch), _pos(meta))

    def this_ref(self, meta, ch):
        return A.This(tuple(_name(t) for t in ch), _pos(meta))

    def call(self, meta, ch):
        return A.Call(_name(ch[0]), tuple(ch[1:]), _pos(meta))

    def count_call(self, meta, ch):
        quant = ch[0] if isinstance(ch[0], str) and not isinstance(ch[0], Token) else None
        rest = ch[1:] if quant else ch
        where = as_cond(rest[1]) if len(rest) > 1 else None
        return A.Count(quant, _name(rest[0]), where, _pos(meta))

    def _bin(op):
        def f(self, meta, ch):
            return A.BinOp(op, ch[0], ch[1], _pos(meta))

        return f

    add, sub, mul, div = _bin("+"), _bin("-"), _bin("*"), _bin("/")

    def neg(self, meta, ch):
        return A.Neg(ch[0], _pos(meta))

    # conditions
    def compare(self, meta, ch):
        return A.Compare(str(ch[1]), ch[0], ch[2], _pos(meta))

    def or_(self, meta, ch):
        return A.Or(as_cond(ch[0]), as_cond(ch[1]), _pos(meta))

    def and_(self, meta, ch):
        return A.And(as_cond(ch[0]), as_cond(ch[1]), _pos(meta))

    def not_(self, meta, ch):
        return A.Not(as_cond(ch[0]), _pos(meta))


_TRANSFORMER = _ToAst()


def parse(text: str, start: str = "program"):
    """Parse ``text`` from grammar rule ``start``; raise DslSyntaxError on bad input."""
    if start not in START_RULES:
        raise ValueError(start)
    if not text.strip():
        raise DslSyntaxError("E102", "the effect is empty", 0, max(1, len(text)))
    try:
        tree = _parser(start).parse(text)  # LALR: iterative, whatever the nesting
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, start) from None
    _check_depth(tree, text)
    try:
        result = _TRANSFORMER.transform(tree)
    except VisitError as exc:  # a DslSyntaxError raised by the transformer, or a bug in it
        raise exc.orig_exc from None
    if start == "condition":
        result = as_cond(result)
    return result


def _check_depth(tree: Tree, text: str) -> None:
    """Refuse a parse tree deeper than MAX_DEPTH (walked with a stack: no recursion) at its first
    node too deep, before any recursive pass sees it."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            start = node.meta.start_pos
            word = re.match(r"[a-z0-9_]+", text[start:])
            raise DslSyntaxError("E111", f"the effect is nested too deeply: more than {MAX_DEPTH} levels of "
                                 "statements, blocks and terms inside one another (each term of a sum or product "
                                 "is one level); write it flatter or split it", start,
                                 start + (word.end() if word else 1))
        stack.extend((c, depth + 1) for c in reversed(node.children) if isinstance(c, Tree))


# --------------------------------------------------------------------------- errors

# Broken examples, grouped by the message a designer should see (Lark's match_examples).
ERROR_EXAMPLES: dict[str, list[str]] = {
    "E104": [
        "gain 2", "pay 2", "gain 2;", "gain 1 brick, 2", "gain 1 brick and 2", "may pay 2: score 1",
        "perform x discount 2", "gain 2 }", "choose { gain 2 | score 1 }", "gain (1)", "pay 1 brick, 2;",
    ],
    "E105": [
        "choose { gain 1 brick }", "choose { score 1 }", "choose { advance x }", "choose { advance x 2 }",
        "choose { perform x }", "choose { produce x }", "choose { gain 1 brick; score 1 }", "choose { move x up }",
        "choose { grant x }", "choose { build x }", "choose { pay 1 brick }", "choose { score count(x) }",
    ],
    "E106": [
        "choose { gain 1 brick | gain 1 clay", "score count(x", "score (1 + 2", "{ gain 1 brick",
        "score position(x", "gain 1 brick; { score 1", "score count(x where a == 1", "choose { score 1 | score 2",
        "score f(1, 2", "{ score 1; score 2",
    ],
    "E107": [
        "may pay 1 brick score 4", "may pay 1 brick gain 1 ore", "on x score 1", "on x(y) score 1",
        "if brick > 1 score 1", "repeat 2 score 1", "on x once per turn score 1", "repeat score 1",
        "on x if y score 1", "on x while y score 1", "on x from next turn score 1", "if x score 1",
        "may pay 1 brick, 1 clay score 3", "on x gain 1 brick", "if x == 1 gain 1 brick", "later score 1",
        "later gain 1 brick", "later 1 brick",
        "for each player score 1", "for each other player gain 1 brick", "as owner score 1", "as owner gain 1 brick",
        "for each in x score 1", "for each in x where y score 1", "for each in x where y == 1 gain 1 brick",
    ],
    "E108": [
        "draw from x keep 1", "draw 3 from x keep", "gain brick", "pay clay", "score", "gain", "pay",
        "score +", "score 1 +", "score 2 *", "repeat :", "gain 1 brick, brick", "may pay brick: score 2",
    ],
    "E109": [
        "brick", "1 brick", "gain 1 brick; 2 clay", "gain 1 brick; brick", "score 1; 3", "choose { 1 | 2 }",
        "may 1", "may brick", "on x: brick", "if x: 2", "{ brick }", "choose { brick | score 1 }", "later: brick",
        "later: 1",
        "for each player: brick", "for each other player: 1", "as owner: brick",
        "for each in x: brick", "for each in x where y: 1",
    ],
}

_MESSAGES = {
    "E104": "a number must be followed by what it counts, e.g. `2 brick`",
    "E105": "`choose` needs at least two options separated by `|`",
    "E106": "a bracket is opened here but never closed",
    "E107": "a colon `:` is missing before the effect",
    "E108": "a number or expression is missing here",
    "E109": "a statement must start with a verb such as gain, pay, score, advance, perform or choose",
}

_WORDS = {
    "NAME": "a name", "NUMBER": "a number", "LBRACE": "`{`", "RBRACE": "`}`", "LPAR": "`(`", "RPAR": "`)`",
    "COLON": "`:`", "COMMA": "`,`", "VBAR": "`|`", "_SEP": "`;` or a new line", "$END": "the end of the effect",
    "CMP": "a comparison", "PLUS": "`+`", "MINUS": "`-`", "STAR": "`*`", "SLASH": "`/`", "DOT": "`.`",
}


def _word(term: str) -> str:
    if term in _WORDS:
        return _WORDS[term]
    return f"`{term.lower()}`" if term.isalpha() else term


def _bad_character(text: str, pos: int) -> DslSyntaxError:
    """E103 for the character at ``pos``, which starts no token."""
    ch = text[pos]
    if ch.isascii() and ch.isalpha() and ch.isupper():
        end = pos
        while end < len(text) and text[end].isascii() and (text[end].isalnum() or text[end] == "_"):
            end += 1
        word = text[pos:end]
        return DslSyntaxError("E103", f"names are written in lower case: write `{word.lower()}`, not `{word}`", pos, end)
    if ch == "=":
        return DslSyntaxError("E103", "a single `=` is not allowed: write `==` to compare", pos, pos + 1)
    if not ch.isascii():  # name the code point: a look-alike letter (Cyrillic `а`, Greek `ο`) hides in plain sight
        hint = "; names are written with the Latin letters a-z" if ch.isalpha() else ""
        return DslSyntaxError("E103", f"character {ch!r} (U+{ord(ch):04X}) is not allowed in an effect{hint}", pos, pos + 1)
    return DslSyntaxError("E103", f"character {ch!r} is not allowed in an effect", pos, pos + 1)


def _first_bad_character(text: str, start: str) -> int | None:
    """Where the lexer meets a character that starts no token, if anywhere."""
    try:
        for _ in _parser(start).lex(text):
            pass
    except UnexpectedCharacters as exc:
        return exc.pos_in_stream
    return None


def _syntax_error(exc: UnexpectedInput, text: str, start: str) -> DslSyntaxError:
    if isinstance(exc, UnexpectedCharacters):
        return _bad_character(text, exc.pos_in_stream)

    assert isinstance(exc, UnexpectedToken)
    tok = exc.token
    at_end = tok.type == "$END"
    # a character the lexer cannot read cuts a word short (a Cyrillic `а` in `gаin`): the parser
    # stumbles on the fragment before it (`g`), but the mistake is the character itself
    if not at_end and tok.end_pos is not None and _first_bad_character(text, start) == tok.end_pos:
        return _bad_character(text, tok.end_pos)
    # at the end, point just after the last token (trailing separators are not tokens)
    begin = len(text.rstrip(" \t\r\n;")) if at_end else tok.start_pos
    end = begin + 1 if at_end else tok.end_pos
    found = "the end of the effect" if at_end else f"`{tok}`" if tok.type != "_SEP" else "a line break" if "\n" in str(tok) else "`;`"

    expected_terms = set(exc.accepts or exc.expected)
    before = text[:begin].rstrip()
    if tok.type in _STATEMENT_KEYWORDS and before.endswith(","):
        return DslSyntaxError("E101", "a comma joins amounts (`1 brick, 1 clay`); separate statements with `;` "
                              "and the options of `choose` with `|`", begin, end)
    if "NAME" in expected_terms and expected_terms <= {"NAME", "ANY"} and not at_end and str(tok).isalpha() and tok.type == str(tok).upper():
        return DslSyntaxError("E101", f"`{tok}` is a keyword of the effect language and cannot be used as a name here", begin, end)

    label = None
    if start == "program":
        # match_examples compares whole parser states, stack depth included; we
        # compare the LALR state alone so an example also matches when nested.
        exc.state = _top_state(exc.state)
        label = exc.match_examples(_parse_for_examples, ERROR_EXAMPLES, use_accepts=True)
    if label is None and "NUMBER" in expected_terms and expected_terms <= _EXPRESSION_START:
        label = "E108"
    elif label is None and expected_terms == {"NAME"} and before[-1:].isdigit():
        label = "E104"
    if label == "E106":
        begin, end = _unclosed(text)
    elif label == "E105":
        choose = text.rfind("choose", 0, begin)
        begin, end = (choose, choose + len("choose")) if choose >= 0 else (begin, end)
    if label:
        return DslSyntaxError(label, f"{_MESSAGES[label]} (found {found})", begin, end)
    expected = sorted(_word(t) for t in (exc.accepts or exc.expected) if not t.startswith("__"))
    wanted = ", ".join(expected[:8]) + (" ..." if len(expected) > 8 else "")
    if at_end:
        return DslSyntaxError("E102", f"the effect ends too early; expected {wanted}", begin, end)
    return DslSyntaxError("E101", f"unexpected {found}; expected {wanted}", begin, end)


_STATEMENT_KEYWORDS = {"GAIN", "PAY", "SCORE", "ADVANCE", "PRODUCE", "MOVE", "PERFORM", "BUILD", "CHOOSE", "MAY",
                       "IF", "REPEAT", "GRANT", "LATER", "DRAW", "USE", "PLACE",
                       "FOR", "AS", "ROLL", "SHUFFLE", "REFILL", "JOIN", "RUN"}
# Terminals an expression (or an amount's number) may start with: expecting only these means a number is missing.
_EXPRESSION_START = {"NUMBER", "LPAR", "MINUS", "NAME", "THIS", "COUNT", "FREE"}


def _top_state(state):
    return getattr(state, "position", state)


def _parse_for_examples(text: str):
    try:
        return _parser("program").parse(text)
    except UnexpectedInput as exc:
        exc.state = _top_state(exc.state)
        raise


def _unclosed(text: str) -> tuple[int, int]:
    """Offset of the innermost bracket left open at the end of ``text``."""
    stack = []
    for i, ch in enumerate(text):
        if ch in "({":
            stack.append(i)
        elif ch in ")}" and stack:
            stack.pop()
    if stack:
        return stack[-1], stack[-1] + 1
    return len(text), len(text) + 1
