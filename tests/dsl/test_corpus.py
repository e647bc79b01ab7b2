"""The effect corpus (corpus.txt): every effect of RULES.md §20 and COMPONENTS.md in the DSL.

Each line must parse, resolve against the bundled pack with no error, compile,
print canonically (re-parsing to an equal AST, the printed text a fixed point)
and render to English a designer can read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from interpreter.dsl import ast as A
from interpreter.dsl.compile import Compiler, Program
from interpreter.dsl.english import to_english
from interpreter.dsl.parse import START_RULES, parse
from interpreter.dsl.printer import to_text
from interpreter.dsl.resolve import Scope, resolve

HERE = Path(__file__).parent
CORPUS = HERE / "corpus.txt"
RULES = Path("/work/shared/RULES.md")
if not RULES.exists():  # a checkout next to the shared notes
    RULES = HERE.parents[2] / "shared" / "RULES.md"

# The effect ids of RULES.md §20 (used when RULES.md is not at hand, and checked against it when it is).
SECTION_20_IDS = (
    [f"ICON-{i}" for i in range(1, 7)] + [f"SEAL-{i}" for i in range(1, 6)] + [f"KR-{i}" for i in range(1, 5)]
    + [f"KRT-{i}" for i in range(1, 5)] + [f"BR4-{i}" for i in range(1, 4)] + [f"BR5-{i}" for i in range(1, 7)]
    + ["PLZ-1"] + [f"T-I-{i}" for i in range(1, 5)] + [f"T-II-{i}" for i in range(1, 6)]
    + [f"T-III-{i}" for i in range(1, 7)] + [f"T-IV-{i}" for i in range(1, 7)]
)

_LINE = re.compile(r"^(?P<id>[A-Za-z0-9][\w.\-/]*)(?P<marks>(?:\s+\[[a-z_]+=[a-z_,]+\])*)\s+::\s+(?P<text>\S.*)$")
_MARK = re.compile(r"\[([a-z_]+)=([a-z_,]+)\]")


@dataclass(frozen=True)
class Entry:
    id: str
    text: str
    start: str
    this_kinds: tuple[str, ...]
    line: int

    @property
    def base_id(self) -> str:
        return self.id.split("/", 1)[0]

    @property
    def scope(self) -> Scope:
        return Scope(this_kinds=self.this_kinds)


def read_corpus(path: Path = CORPUS) -> tuple[list[Entry], list[tuple[int, str]]]:
    """Entries, and lines that are neither comments nor well-formed entries."""
    entries, bad = [], []
    for no, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _LINE.match(line)
        if m is None:
            bad.append((no, raw))
            continue
        marks = dict(_MARK.findall(m["marks"]))
        unknown = set(marks) - {"this", "start"}
        if unknown or marks.get("start", "program") not in START_RULES:
            bad.append((no, raw))
            continue
        this_kinds = tuple(marks["this"].split(",")) if "this" in marks else ()
        entries.append(Entry(m["id"], m["text"], marks.get("start", "program"), this_kinds, no))
    return entries, bad


ENTRIES, BAD_LINES = read_corpus()


def test_corpus_lines_are_well_formed():
    assert ENTRIES, "the corpus is empty"
    assert not BAD_LINES, f"malformed corpus lines: {BAD_LINES}"


def test_corpus_ids_are_unique():
    seen = {}
    for e in ENTRIES:
        assert e.id not in seen, f"{e.id} on lines {seen[e.id]} and {e.line}"
        seen[e.id] = e.line


def test_corpus_reader_rejects_malformed_lines(tmp_path):
    f = tmp_path / "c.txt"
    f.write_text("# c\n\nOK-1 :: score 1\nno separator\nX [that=wall] :: score 1\nY [start=statement] :: score 1\n"
                 "Z [this=building] [start=amounts] :: 2 gold\n", encoding="utf-8")
    entries, bad = read_corpus(f)
    assert [(e.id, e.start, e.this_kinds) for e in entries] == [("OK-1", "program", ()), ("Z", "amounts", ("building",))]
    assert [no for no, _ in bad] == [4, 5, 6]


def _section_20_ids_in_rules() -> list[str]:
    text = RULES.read_text(encoding="utf-8")
    start = text.index("## 20. Icon appendix")
    end = text.index("\n## 21.", start)
    return re.findall(r"^- \*\*((?:ICON|SEAL|KR|KRT|BR4|BR5|PLZ|T-I|T-II|T-III|T-IV)-\d+)\b", text[start:end], re.M)


@pytest.mark.skipif(not RULES.exists(), reason="RULES.md is not available")
def test_section_20_id_list_matches_rules():
    found = _section_20_ids_in_rules()
    assert len(found) == len(set(found))
    assert found == SECTION_20_IDS


def test_corpus_covers_every_section_20_effect():
    ids = _section_20_ids_in_rules() if RULES.exists() else SECTION_20_IDS
    covered = {e.base_id for e in ENTRIES if e.start == "program"}
    missing = [i for i in ids if i not in covered]
    assert not missing, f"no corpus effect for {missing}"


def _compile(ruleset, entry: Entry, node, constants):
    compiler = Compiler(ruleset.symbols.members("resource"), ruleset.symbols.members("group"), constants)
    if entry.start == "program":
        return compiler.program(node, entry.text)
    if entry.start == "amounts":
        return compiler.amounts(node)
    if entry.start == "condition":
        return compiler.cond(node, False)
    return compiler.expr(node, False)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.id for e in ENTRIES])
def test_corpus_entry(ruleset, entry):
    node = parse(entry.text, entry.start)

    res = resolve(node, ruleset.symbols, entry.scope)
    assert res.errors == [], [f"{e.code} at {e.start}: {e.message}" for e in res.errors]

    compiled = _compile(ruleset, entry, node, res.constants)
    if entry.start == "program":
        assert isinstance(compiled, Program)
        assert len(compiled.steps) + len(compiled.triggers) == len(node.items)
        assert compiled.source == entry.text
    elif entry.start == "amounts":
        assert [name for name, _ in compiled] == [a.name.text for a in node]
    else:
        assert callable(compiled)

    text = to_text(node)
    again = parse(text, entry.start)
    assert again == node, text
    assert to_text(again) == text

    english = to_english(node, ruleset.names)
    assert english.strip()
    assert "_" not in english, english


# Content records whose `source` is a §20 id: their effect must be one the corpus gives for that id,
# so the corpus and content/praga/ say the same thing.
_CONTENT_FIELDS = {"technology": ("effect",), "bridge_tile": ("effect", "scoring"), "seal": ("scoring",)}


def test_corpus_agrees_with_content(ruleset):
    by_id: dict[str, list] = {}
    for e in ENTRIES:
        if e.start == "program":
            by_id.setdefault(e.base_id, []).append(parse(e.text))
    checked = 0
    for kind, fields in _CONTENT_FIELDS.items():
        for rec in ruleset.records(kind):
            source = rec.source.split()[0].rstrip(",")
            if source not in SECTION_20_IDS:
                continue
            for f in fields:
                text = getattr(rec, f, None)
                if text:
                    assert parse(text) in by_id.get(source, []), f"{rec.id}.{f} ({source}): {text!r} is not in the corpus"
                    checked += 1
    assert checked >= 30


def test_scoped_entries_need_their_scope(ruleset):
    """The `[this=...]` marker matters: without it `this` is an error."""
    scoped = [e for e in ENTRIES if e.this_kinds]
    assert scoped
    for e in scoped:
        errors = resolve(parse(e.text, e.start), ruleset.symbols, Scope()).errors
        assert [x.code for x in errors] == ["E311"] * len(errors) and errors, e.id


def test_corpus_uses_every_statement_kind():
    kinds = {type(n).__name__ for e in ENTRIES if e.start == "program" for n in A.walk(parse(e.text))}
    assert {"Gain", "Pay", "Score", "Advance", "Produce", "Move", "Perform", "Choose", "May", "MayPay", "Repeat",
            "Grant", "Later", "Draw", "Use", "Place", "Trigger", "Block", "Count", "Call", "This"} <= kinds
