"""The authoring guide (content/README.md): up to date, complete, and every example in it works."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from lark import Tree
from ruamel.yaml import YAML

from interpreter.dsl.parse import _parser, parse
from interpreter.dsl.resolve import DIRECTIONS, FUNCTIONS, PERIODS, RUNTIME_ATTRIBUTES
from interpreter.errors import CODES
from interpreter.authoring.guide import (
    BEGIN, END, FENCE_STARTS, SECTIONS, GuideError, dsl_blocks, generated, keywords, model_tree, splice, update_guide,
)
from interpreter.content.ruleset import load_ruleset, run_pipeline

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "content" / "README.md"
PACK = ROOT / "content" / "praga"


@pytest.fixture(scope="module")
def text() -> str:
    return GUIDE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset(PACK)


def test_guide_is_up_to_date():
    assert update_guide(GUIDE, write=False) is False, "content/README.md is stale: run `caput guide`"


@pytest.mark.parametrize("seed", ["1", "2"])
def test_guide_check_passes_whatever_the_hash_seed(seed):
    """`caput guide --check` exits 0, and generation does not depend on set or dict hash order."""
    env = {**os.environ, "PYTHONHASHSEED": seed}
    env.pop("CAPUT_PACK", None)
    result = subprocess.run([sys.executable, "-m", "interpreter", "guide", "--check"], cwd=ROOT, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_generated_section_exists_once_and_in_order(text):
    positions = []
    for name in SECTIONS:
        assert text.count(BEGIN.format(name)) == 1, name
        assert text.count(END.format(name)) == 1, name
        begin, end = text.index(BEGIN.format(name)), text.index(END.format(name))
        assert begin < end
        assert generated(text, name).strip(), name
        positions.append(begin)
    assert positions == sorted(positions)


def _kind_part(text: str, kind: str) -> str:
    part = generated(text, "kinds")
    start = part.index(f"### `{kind}`\n")
    nxt = part.find("\n### `", start + 1)
    return part[start:nxt if nxt != -1 else len(part)]


def test_every_kind_and_every_field_is_documented(text):
    for kind, model in load_ruleset(ROOT / "content" / "praga").kinds.files.items():
        part = _kind_part(text, kind)
        for m, _paths in model_tree(model):
            for name, info in m.model_fields.items():
                shown = info.alias or name  # a field is written, and documented, under its alias (`from`)
                assert re.search(rf"^\| `{shown}` \|", part, re.MULTILINE), f"{kind}: {m.__name__}.{name} is missing"


def test_every_declared_field_is_documented_by_its_doc(text):
    """A declared kind's fields are documented by the `doc:` of their declaration (required there)."""
    rs = load_ruleset(ROOT / "content" / "praga")
    assert rs.record_kinds
    for name, rk in rs.record_kinds.items():
        part = _kind_part(text, rk.file_kind)
        assert rk.decl.doc in part, name
        for field, spec in [*rk.fields, *rk.decl.file_fields.items()]:
            row = re.search(rf"^\| `{field}` \|.*\|$", part, re.MULTILINE)
            assert row and spec.doc.strip() in row.group(0).replace("\\|", "|"), f"{name}.{field}"


def test_every_field_has_a_description(text):
    part = generated(text, "kinds")
    missing = [line for line in part.splitlines() if "(no description yet)" in line]
    assert missing == [], "add a docstring under these fields in interpreter/content/model/:\n" + "\n".join(missing)


def test_every_error_code_is_documented(text):
    part = generated(text, "errors")
    for code, (title, fix) in CODES.items():
        assert f"**{code}**" in part, code
        assert title in part.replace("\\|", "|") and fix in part.replace("\\|", "|"), code


def test_every_event_is_documented(text, ruleset):
    part = generated(text, "events")
    for event in ruleset.single("pack").events:
        assert f"`{event.id}`" in part, event.id
        if event.key:
            assert f"`on {event.id}(<{event.key}>)`" in part, event.id
        for p in event.params:
            assert f"`{p.name}` ({p.type})" in part, (event.id, p.name)


def test_every_function_direction_period_and_runtime_attribute_is_documented(text):
    part = generated(text, "dsl-tables")
    for fn in FUNCTIONS:
        assert f"`{fn}(" in part, fn
    for name in (*DIRECTIONS, *PERIODS, *RUNTIME_ATTRIBUTES):
        assert f"| `{name}` |" in part, name
    assert "no description yet" not in part


def test_every_file_of_the_bundled_pack_is_described(text, ruleset):
    prose = text.split(BEGIN.format(SECTIONS[0]))[0]
    manifest = YAML(typ="safe").load((PACK / "pack.yaml").read_text(encoding="utf-8"))
    for name in ["pack.yaml", *manifest["include"]]:
        assert name in prose, name


def test_every_dsl_example_in_the_guide_parses(text):
    blocks = dsl_blocks(text)
    assert len(blocks) >= 60
    starts = {start for _, start, _ in blocks}
    assert starts == set(FENCE_STARTS.values())
    for line, start, code in blocks:
        try:
            parse(code, start)
        except Exception as exc:  # noqa: BLE001 - report which block
            pytest.fail(f"content/README.md:{line}: ```caput block does not parse as {start}: {exc}")


def test_fences_the_guide_does_not_know_are_not_used(text):
    fences = {m.group(1).strip() for m in re.finditer(r"^```(caput[^\n]*)$", text, re.MULTILINE)}
    assert fences <= set(FENCE_STARTS)


def _rule_names(tree) -> set[str]:
    return {t.data for t in tree.iter_subtrees()} if isinstance(tree, Tree) else set()


def test_the_examples_cover_every_grammar_rule_and_keyword(text):
    seen_rules: set[str] = set()
    seen_words: set[str] = set()
    for _, start, code in dsl_blocks(text):
        seen_rules |= _rule_names(_parser(start).parse(code))
        seen_words |= set(re.findall(r"[a-z_]+", code))
    parser = _parser("program")
    expected = set()
    for rule in parser.rules:
        name = rule.alias or rule.origin.name
        name = getattr(name, "value", name)
        if rule.alias or not (rule.options.expand1 or str(name).startswith("_")):
            expected.add(str(name))
    expected -= {"start"}
    assert expected - seen_rules == set(), "add examples for these grammar rules in interpreter/authoring/guide_examples.py"
    assert keywords() - seen_words == set(), "add examples using these keywords in interpreter/authoring/guide_examples.py"


def test_every_yaml_block_in_the_guide_is_valid_yaml(text):
    for m in re.finditer(r"^```yaml\n(.*?)^```$", text, re.MULTILINE | re.DOTALL):
        body = m.group(1)
        if "  - ...\n" in body:  # an abridged sketch
            body = body.replace("  - ...\n", "")
        YAML(typ="safe").load(body)


def test_the_overlay_examples_validate_against_the_bundled_pack(text, tmp_path):
    overlays = [m.group(1) for m in re.finditer(r"^```yaml\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)
                if re.search(r"^kind: overlay$", m.group(1), re.MULTILINE) and not QUOTED.match(m.group(1))]
    assert len(overlays) >= 2
    assert any(all(f"\n{op}:" in o for op in ("set", "replace", "add", "remove")) for o in overlays)
    for i, body in enumerate(overlays):
        path = tmp_path / f"overlay_{i}.yaml"
        path.write_text(body, encoding="utf-8")
        outcome = run_pipeline(path)
        assert outcome.errors == [], [e.format() for e in outcome.errors]


# ---------------------------------------------------------------- excerpts quoted from the packs

QUOTED = re.compile(r"# from (\S+)\n")  # the first line of a YAML block quoted verbatim from a file


def quoted_excerpts(text: str) -> list[tuple[int, str, str]]:
    """Every ```yaml block of the guide that opens with `# from <path>`: (line, path, the excerpt)."""
    out = []
    for m in re.finditer(r"^```yaml\n(.*?)^```$", text, re.MULTILINE | re.DOTALL):
        head = QUOTED.match(m.group(1))
        if head:
            out.append((text.count("\n", 0, m.start()) + 1, head.group(1), m.group(1)[head.end():]))
    return out


def test_the_quoted_excerpts_match_the_files_they_quote(text):
    """A block headed `# from <file>` is a run of whole consecutive lines of that file, as they are now
    (so the walk-through of Harvest Fair and the mechanisms' examples cannot drift from the packs)."""
    excerpts = quoted_excerpts(text)
    files = {path for _, path, _ in excerpts}
    assert {"tests/packs/harvest_fair/flow.yaml", "tests/packs/harvest_fair/pack.yaml",
            "tests/packs/harvest_fair/variants/long_fair.yaml", "content/praga/crane.yaml"} <= files
    for line, path, excerpt in excerpts:
        source = ROOT / path
        assert source.is_file(), f"content/README.md:{line}: quotes {path}, which does not exist"
        lines = source.read_text(encoding="utf-8").splitlines()
        quoted = excerpt.splitlines()
        assert quoted, f"content/README.md:{line}: an empty excerpt of {path}"
        starts = [i for i in range(len(lines) - len(quoted) + 1) if lines[i:i + len(quoted)] == quoted]
        assert starts, f"content/README.md:{line}: the excerpt is not a run of lines of {path} (any more): copy it again"


def test_a_changed_excerpt_is_caught():
    guide = "```yaml\n# from tests/packs/harvest_fair/flow.yaml\nrounds: 5\n```\n"
    (_, path, excerpt), = quoted_excerpts(guide)
    assert path == "tests/packs/harvest_fair/flow.yaml" and excerpt == "rounds: 5\n"
    lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
    assert "rounds: 4" in lines and "rounds: 5" not in lines


# ---------------------------------------------------------------- the splicing itself

SECTIONS_TOY = {name: f"generated {name}" for name in SECTIONS}


def _toy(*names: str, inner: str = "old") -> str:
    body = "".join(f"## {n}\nprose about {n}\n{BEGIN.format(n)}\n{inner}\n{END.format(n)}\nmore prose\n" for n in names)
    return "# Title\n\n" + body


def test_splice_replaces_only_what_is_between_markers():
    text = _toy(*SECTIONS)
    out = splice(text, SECTIONS_TOY)
    for name in SECTIONS:
        assert f"prose about {name}" in out
        assert f"generated {name}" in out
    assert "old" not in out
    assert out.count("more prose") == len(SECTIONS)
    assert splice(out, SECTIONS_TOY) == out  # idempotent


def test_splice_appends_missing_sections():
    out = splice(_toy(SECTIONS[0]), SECTIONS_TOY)
    for name in SECTIONS:
        assert generated(out, name).strip().endswith(f"generated {name}")


@pytest.mark.parametrize("broken", [
    f"{BEGIN.format('kinds')}\n",
    f"{END.format('kinds')}\n",
    f"{BEGIN.format('kinds')}\n{BEGIN.format('dsl')}\n{END.format('dsl')}\n{END.format('kinds')}\n",
    f"{BEGIN.format('nope')}\n{END.format('nope')}\n",
    f"{BEGIN.format('kinds')}\n{END.format('kinds')}\n{BEGIN.format('kinds')}\n{END.format('kinds')}\n",
])
def test_splice_rejects_broken_markers(broken):
    with pytest.raises(GuideError):
        splice(broken, SECTIONS_TOY)


def test_update_guide_writes_only_when_asked(tmp_path):
    target = tmp_path / "README.md"
    target.write_text(_toy("kinds"), encoding="utf-8")
    before = target.read_text(encoding="utf-8")
    assert update_guide(target, write=False) is True
    assert target.read_text(encoding="utf-8") == before
    assert update_guide(target) is True
    assert update_guide(target, write=False) is False
    assert "prose about kinds" in target.read_text(encoding="utf-8")


def test_examples_fall_back_to_neutral_names_when_the_pack_lacks_them(ruleset):
    """Every template still parses with stand-in names (a pack without permits, grids, events, ...)."""
    from interpreter.authoring.guide_dsl import Examples as _Examples
    from interpreter.authoring.guide_examples import DSL_GROUPS

    ex = _Examples(ruleset)
    ex.values = {}
    for _, constructs in DSL_GROUPS:
        for c in constructs:
            for template in c.examples:
                text, complete = ex.fill(template)
                assert complete == ("{" not in template)
                ex.example(template, c.start, c.this)  # parses; names are not resolved
