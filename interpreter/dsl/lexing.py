"""The DSL's syntax errors, its size limits and its postlexer, which turns line breaks and semicolons into
exactly the statement separators the grammar needs (dsl/parse.py builds the parser with it)."""

from __future__ import annotations

from dataclasses import dataclass

from lark import Token

# Limits of one DSL text (E111), far above any real effect (the bundled pack's longest has 28 tokens and
# nests 9 levels deep). Every pass after the parser (transformer, resolve, compile, printer, English, the
# engine) walks the tree recursively, so the tree's depth must stay well below Python's recursion limit;
# the token cap bounds the work on a pasted export before any tree is built.
MAX_TOKENS = 1000
MAX_DEPTH = 100


@dataclass
class DslSyntaxError(Exception):
    code: str
    message: str
    start: int
    end: int

    def __str__(self) -> str:
        return f"{self.code} at {self.start}: {self.message}"


# --------------------------------------------------------------------------- postlexer

# Token types after which a statement may end; a line break elsewhere is a continuation.
_ENDERS = {"NAME", "NUMBER", "RPAR", "RBRACE", "FREE", "THIS"}
# Token types before which a separator is never meaningful.
_NO_SEP_BEFORE = {
    "RBRACE", "VBAR", "RPAR", "ELSE", "COLON", "COMMA", "AND", "OR", "KEEP", "FROM", "TO",
    "WHERE", "OF", "WITH", "DISCOUNT", "FREE", "PLUS", "MINUS", "STAR", "SLASH", "CMP", "DOT",
    "WHILE", "ONCE",  # trigger options that cannot start a statement
    "AT",  # `move ... to Z at P`
    "TIMES",  # `gains of R times E: ...`
}


def _can_end(prev: Token | None, before: Token | None) -> bool:
    """True when a statement may end with ``prev`` (``before`` is the token ahead of it)."""
    if prev is None:
        return False
    # `any` ends `perform any`, but not `use ... of any` or `count(any ...`
    return prev.type in _ENDERS or (prev.type == "ANY" and before is not None and before.type == "PERFORM")


class _Separators:
    """Turns line breaks and semicolons into exactly the separators the grammar needs."""

    always_accept = ("_SEP",)

    def process(self, stream):
        depth = 0
        count = 0
        pending: Token | None = None
        prev: Token | None = None
        before: Token | None = None  # the token before prev
        for tok in stream:
            if tok.type == "_SEP":
                if depth == 0 and pending is None:
                    pending = tok
                continue
            count += 1
            if count > MAX_TOKENS:
                raise DslSyntaxError("E111", f"the effect is too long: it has more than {MAX_TOKENS} words, numbers "
                                     "and symbols; split it into shorter effects", tok.start_pos, tok.end_pos)
            if tok.type == "LPAR":
                depth += 1
            elif tok.type == "RPAR":
                depth = max(0, depth - 1)
            if pending is not None:
                if _can_end(prev, before) and tok.type not in _NO_SEP_BEFORE:
                    yield pending
                pending = None
            yield tok
            before, prev = prev, tok


