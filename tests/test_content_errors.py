"""Broken content: every error code, at the right place, through the pipeline and the CLI.

* The fixtures of tests/content_errors/ (see its README.md) are validated the way a
  user validates them, and their `# expect: LINE:COL CODE` lines are compared exactly.
* Through `python -m interpreter validate` in a subprocess: exit status 1, no
  traceback, every error printed with its source line and a caret, and `--json`
  printing one JSON list and nothing else.
* YAML tags never run code; the CLI's exit statuses; `schema --check`.
* Randomly mutated copies of every bundled content file never make the pipeline raise.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

import pytest

from interpreter.dsl.parse import MAX_DEPTH, MAX_TOKENS
from interpreter.errors import CODES, ELLIPSIS, SOURCE_WIDTH, format_errors
from interpreter.content.ruleset import run_pipeline
from interpreter.content.source import MAX_FILE_BYTES

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "content_errors"
PACK = ROOT / "content" / "praga"
EXPECT = re.compile(r"^# expect: (\d+):(\d+) (E\d{3})$")
# Codes whose fixture the tests generate instead of committing (a file over 5 MB).
GENERATED = {"E006"}
# How the CLI prints one error: header, source line, caret line.
HEADER = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>E\d{3})\]: (?P<message>.+)$")
SOURCE = re.compile(r"^ +(?P<line>\d+) \| (?P<text>.*)$")
CARET = re.compile(r"^ +\| (?P<pad> *)(?P<caret>\^+)$")
# Where YAML breaks lines (str.splitlines also breaks at \v, \f and \x1c-\x1e).
YAML_LINES = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


def _fixtures() -> list[Path]:
    files = sorted(FIXTURES.glob("*.yaml"))
    packs = sorted(p for p in FIXTURES.iterdir() if p.is_dir() and (p / "pack.yaml").is_file())
    return files + packs


FIXTURE_LIST = _fixtures()


def _name(fixture: Path) -> str:
    return fixture.name


def _files(fixture: Path) -> list[Path]:
    return sorted(fixture.glob("*.yaml")) if fixture.is_dir() else [fixture]


def _lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        return YAML_LINES.split(f.read())


@lru_cache(maxsize=None)
def expected(fixture: Path) -> tuple[tuple[str, int, int, str], ...]:
    """(file name, line, col, code) from the `# expect:` lines that open each file."""
    out = []
    for path in _files(fixture):
        lines = _lines(path)
        heads = [i for i, line in enumerate(lines) if re.match(r"#\s*expect", line)]
        assert heads == list(range(len(heads))), f"{path.name}: `# expect:` lines must be the first lines"
        for i in heads:
            m = EXPECT.match(lines[i])
            assert m, f"{path.name}:{i + 1}: write `# expect: LINE:COL CODE`, not {lines[i]!r}"
            out.append((path.name, int(m[1]), int(m[2]), m[3]))
    return tuple(sorted(out))


def reported(fixture: Path, outcome) -> list[tuple[str, int, int, str]]:
    """The pipeline's errors as (file name, line, col, code); a path outside the fixture stays whole."""
    names = {p.resolve(): p.name for p in _files(fixture)}
    out = []
    for e in outcome.errors:
        assert e.span is not None, f"an error without a position: {e}"
        out.append((names.get(Path(e.span.path).resolve(), e.span.path), e.span.line, e.span.col, e.code))
    return sorted(out)


@pytest.fixture(autouse=True)
def _bundled_pack_by_default(monkeypatch):
    monkeypatch.delenv("CAPUT_PACK", raising=False)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CAPUT_PACK"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return env


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=cwd, env=_env(),
                          capture_output=True, text=True, encoding="utf-8", errors="replace", timeout=300)


# --------------------------------------------------------------------------- fixtures, in process


@pytest.mark.parametrize("fixture", FIXTURE_LIST, ids=_name)
def test_fixture_reports_exactly_the_expected_errors(fixture, cli_runs):
    # (cli_runs is requested only to start the CLI subprocesses now, alongside these checks)
    want = expected(fixture)
    assert want, f"{fixture.name} expects no error; a fixture is broken content"
    outcome = run_pipeline(fixture)
    got = reported(fixture, outcome)
    assert got == list(want), "\n" + format_errors(outcome.errors)
    inside = {p.resolve() for p in _files(fixture)}
    for e in outcome.errors:
        assert e.message.strip(), e
        # an overlay edit's consequences are notes of its E210, in the pack's own files
        assert bool(e.notes) == (e.code == "E210"), e
        assert all(n.span is not None and Path(n.span.path).resolve() not in inside for n in e.notes), e


def test_there_are_at_least_30_fixtures():
    assert len(FIXTURE_LIST) >= 30


def test_every_error_code_has_a_fixture():
    covered = {code for fx in FIXTURE_LIST for (*_, code) in expected(fx)}
    assert covered <= set(CODES), f"fixtures expect unknown codes: {sorted(covered - set(CODES))}"
    missing = set(CODES) - covered - GENERATED
    assert not missing, f"no fixture in tests/content_errors/ covers {sorted(missing)}"


def test_the_utf8_fixture_still_holds_its_raw_byte():
    data = (FIXTURES / "e005_cp1250_byte.yaml").read_bytes()
    assert b"Hrad\xe8any" in data
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")


def _oversized(tmp_path: Path) -> Path:
    path = tmp_path / "walls_export.yaml"
    head = "kind: walls\ntiles: []\n"
    filler = "# an export pasted into a content file, over and over\n"
    path.write_text(head + filler * (MAX_FILE_BYTES // len(filler) + 1), encoding="utf-8")
    assert path.stat().st_size > MAX_FILE_BYTES
    return path


def test_a_file_over_5_mb_is_rejected(tmp_path):
    path = _oversized(tmp_path)
    outcome = run_pipeline(path)
    assert [(e.span.line, e.span.col, e.code) for e in outcome.errors] == [(1, 1, "E006")]
    assert Path(outcome.errors[0].span.path).resolve() == path.resolve()


# Effects far beyond the DSL's limits, generated (the files would be huge): each must be one E111 at its
# place, never a RecursionError from a recursive pass. Text -> offset of the error in it (None: at the
# first token past the DSL's token limit).
HUGE_EFFECTS = {
    "sum_of_50000_terms": ("score " + " + ".join(["1"] * 50_000), None),
    "5000_nested_may_pay": ("may pay 1 gold: { " * 5000 + "score 1" + " }" * 5000, None),
    "5000_nested_may": ("may " * 5000 + "score 1", None),
    "5000_nested_if": ("if gold > 1: " * 5000 + "score 1", None),
    # few tokens, deep: program > score > 99 negations, the 99th past the depth limit
    "900_negations": ("score " + "-" * 900 + "1", len("score ") + MAX_DEPTH - 2),
}


def _huge_effect(tmp_path: Path, name: str) -> tuple[Path, int, int]:
    text, offset = HUGE_EFFECTS[name]
    if offset is None:
        offset = list(re.finditer(r"\w+|\S", text))[MAX_TOKENS].start()
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"kind: walls\ntiles:\n  - id: wall_draft_huge\n    era: 1\n    cost: 2 stone\n"
                    f"    reward: \"{text}\"\n    edges: [none, none, none, none, none, none]\n"
                    f"    corners: [none, none, none, red, none, none]\n    provenance: reconstructed\n"
                    f"    source: OPEN-23\n", encoding="utf-8")
    return path, 6, len('    reward: "') + offset + 1


@pytest.mark.parametrize("name", sorted(HUGE_EFFECTS))
def test_a_huge_effect_is_an_error_at_its_place(tmp_path, name):
    path, line, col = _huge_effect(tmp_path, name)
    outcome = run_pipeline(path)
    assert [(e.span.line, e.span.col, e.code) for e in outcome.errors] == [(line, col, "E111")], outcome.errors[:3]


def test_cli_reports_huge_effects(tmp_path):
    for name in ("sum_of_50000_terms", "5000_nested_may_pay"):
        path, line, col = _huge_effect(tmp_path, name)
        check_text_output(cli("validate", str(path)), [(path.name, line, col, "E111")], {path.name: path})


def test_the_lone_cr_fixture_still_breaks_its_lines_with_cr_only():
    data = (FIXTURES / "e106_lone_cr_line_breaks.yaml").read_bytes()
    assert b"\n" not in data and data.count(b"\r") > 10


LINE_ENDINGS = {"cr": b"\r", "crlf": b"\r\n"}


@pytest.mark.parametrize("ending", sorted(LINE_ENDINGS))
@pytest.mark.parametrize("fixture", [fx for fx in FIXTURE_LIST if fx.is_file()], ids=_name)
def test_fixture_errors_keep_their_places_with_other_line_breaks(fixture, ending, tmp_path):
    """YAML breaks lines at \\r\\n and at a lone \\r as at \\n: every position stays put."""
    copy = tmp_path / fixture.name
    copy.write_bytes(re_break(fixture.read_bytes(), LINE_ENDINGS[ending]))
    outcome = run_pipeline(copy)
    assert reported(copy, outcome) == list(expected(fixture)), "\n" + format_errors(outcome.errors)


def re_break(data: bytes, ending: bytes) -> bytes:
    return re.sub(rb"\r\n|\r|\n", lambda _: ending, data)


def test_a_file_of_200_kb_of_brackets_is_refused_without_hanging(tmp_path):
    # the YAML scanner slows down with every open flow level: the loader must stop at the limit
    path = tmp_path / "brackets.yaml"
    path.write_text("kind: walls\ntiles: " + "[" * 200_000 + "\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "interpreter", "validate", str(path)], cwd=ROOT, env=_env(),
                            capture_output=True, text=True, encoding="utf-8", errors="replace", timeout=60)
    # the root mapping is level 1, so the 100th `[` (column 8 + 99) opens level 101
    check_text_output(result, [(path.name, 2, 107, "E001")], {path.name: path})
    assert "nested more than 100 levels" in result.stdout


# --------------------------------------------------------------------------- fixtures, through the CLI


@pytest.fixture(scope="module")
def cli_runs():
    """`validate FIXTURE` for every fixture, and one `validate --json` of them all, as futures.

    One text run per fixture checks each exit status; the JSON run shares one
    process (each run loads the whole bundled pack, so this halves the time).
    The in-process tests request this fixture too, so the subprocesses run
    while they do.
    """
    pool = ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2))
    futures = {"json": pool.submit(cli, "validate", "--json", *(str(fx) for fx in FIXTURE_LIST))}
    futures.update({fx: pool.submit(cli, "validate", str(fx)) for fx in FIXTURE_LIST})
    yield futures
    pool.shutdown(wait=True, cancel_futures=True)


def check_source_window(shown: str, pad: int, full: str, col: int) -> None:
    """The source line as printed: whole, or for a line too long to read a window of it around the caret
    (cut with `...`), with the caret under the same character."""
    if len(full) <= SOURCE_WIDTH:
        assert (shown, pad) == (full, col)
        return
    head = ELLIPSIS if shown.startswith(ELLIPSIS) else ""
    core = shown[len(head):].removesuffix(ELLIPSIS)
    start = col - (pad - len(head))  # where the window starts in the full line
    assert full[start:start + len(core)] == core and 0 <= pad - len(head) < len(core), (shown[:80], pad, col)
    assert len(core) <= SOURCE_WIDTH and (start > 0) == bool(head) and (start + len(core) < len(full)) == shown.endswith(ELLIPSIS)


def check_text_output(result: subprocess.CompletedProcess, want: list[tuple[str, int, int, str]], files: dict[str, Path]):
    both = result.stdout + result.stderr
    assert "Traceback" not in both and "internal error" not in both, both
    assert result.returncode == 1, both
    lines = result.stdout.splitlines()
    blocks = []
    for i, line in enumerate(lines):
        m = HEADER.match(line)
        if not m:
            continue
        blocks.append((Path(m["path"]).name, int(m["line"]), int(m["col"]), m["code"]))
        assert i + 2 < len(lines), f"no source line and caret after {line!r}"
        src, caret = SOURCE.match(lines[i + 1]), CARET.match(lines[i + 2])
        assert src and caret, f"expected the source line and a caret after {line!r}:\n" + "\n".join(lines[i:i + 3])
        assert int(src["line"]) == int(m["line"])
        path = files.get(Path(m["path"]).name)
        if path is not None:
            full = _lines(path)[int(m["line"]) - 1].expandtabs(1).rstrip("\n")
            check_source_window(src["text"], len(caret["pad"]), full, int(m["col"]) - 1)
        else:
            assert len(caret["pad"]) == int(m["col"]) - 1, "\n".join(lines[i:i + 3])
    assert sorted(blocks) == want, result.stdout


@pytest.mark.parametrize("fixture", FIXTURE_LIST, ids=_name)
def test_cli_prints_each_error_with_its_source_line_and_a_caret(fixture, cli_runs):
    check_text_output(cli_runs[fixture].result(), list(expected(fixture)), {p.name: p for p in _files(fixture)})


@pytest.fixture(scope="module")
def cli_json(cli_runs):
    result = cli_runs["json"].result()
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr
    assert result.returncode == 1, result.stdout + result.stderr
    data = json.loads(result.stdout)  # the whole of stdout: one JSON document, nothing else
    assert isinstance(data, list)
    for item in data:
        keys = {"code", "message", "path", "line", "col", "end_line", "end_col"}
        assert set(item) == keys | ({"caused"} if item["code"] == "E210" else set())
        assert item["code"] in CODES and item["message"]
        for note in item.get("caused", []):
            assert set(note) == keys and note["code"] in CODES
    return data


@pytest.mark.parametrize("fixture", FIXTURE_LIST, ids=_name)
def test_cli_json_lists_the_errors_of_each_fixture(fixture, cli_json):
    names = {p.resolve(): p.name for p in _files(fixture)}
    inside = [d for d in cli_json if Path(d["path"]).resolve() in names]
    got = sorted((names[Path(d["path"]).resolve()], d["line"], d["col"], d["code"]) for d in inside)
    assert got == list(expected(fixture))


def test_cli_json_of_one_fixture_is_only_a_json_list():
    fixture = FIXTURES / "e003_duplicate_key.yaml"
    result = cli("validate", str(fixture), "--json")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert sorted((Path(d["path"]).name, d["line"], d["col"], d["code"]) for d in data) == list(expected(fixture))


def test_cli_reports_a_file_over_5_mb(tmp_path):
    path = _oversized(tmp_path)
    check_text_output(cli("validate", str(path)), [(path.name, 1, 1, "E006")], {path.name: path})


# --------------------------------------------------------------------------- YAML tags never run code

TAGGED = {
    "python_object_apply": 'scoring: !!python/object/apply:os.system ["touch {marker}"]',
    "python_name": "scoring: !!python/name:os.system",
    "local_tag": 'scoring: !custom "touch {marker}"',
    "tag_on_a_mapping": 'scoring: !!python/object/apply:os.system {{args: ["touch {marker}"]}}',
    "tag_on_a_sequence": 'scoring: !!python/tuple ["touch {marker}"]',
    "tag_directive": 'scoring: !e!os.system ["touch {marker}"]',
}


def _tagged_file(tmp_path: Path, name: str) -> tuple[Path, Path, int, int]:
    marker = tmp_path / f"{name}.marker"
    line = TAGGED[name].format(marker=marker)
    prefix = "%TAG !e! tag:yaml.org,2002:python/object/apply:\n---\n" if name == "tag_directive" else ""
    text = (f"{prefix}kind: seals\nseals:\n  - id: seal_draft_tagged\n    cost: 1 silver_window\n"
            f"    {line}\n    provenance: reconstructed\n    source: OPEN-11\n")
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    row = text.splitlines().index(f"    {line}") + 1
    return path, marker, row, line.index("!") + 5


@pytest.mark.parametrize("name", sorted(TAGGED))
def test_a_yaml_tag_is_rejected_and_never_constructed(tmp_path, name):
    path, marker, row, col = _tagged_file(tmp_path, name)
    outcome = run_pipeline(path)
    assert [(e.span.line, e.span.col, e.code) for e in outcome.errors] == [(row, col, "E002")]
    assert not marker.exists()


def test_tags_are_rejected_through_the_cli_as_a_file_and_as_a_variant(tmp_path):
    made = [_tagged_file(tmp_path, name) for name in sorted(TAGGED)]
    result = cli("validate", *(str(p) for p, *_ in made))
    assert result.returncode == 1 and "Traceback" not in result.stdout + result.stderr
    assert result.stdout.count("error[E002]") == len(made)
    overlay = tmp_path / "house_rule.yaml"
    marker = tmp_path / "variant.marker"
    overlay.write_text("kind: overlay\nextends: praga\nname: x\nprovenance: exact\nsource: x\n"
                       f'set:\n  setup.carry_limit: !!python/object/apply:os.system ["touch {marker}"]\n', encoding="utf-8")
    result = cli("validate", str(PACK), "--variant", str(overlay), "--json")
    assert result.returncode == 1
    assert [(d["line"], d["col"], d["code"]) for d in json.loads(result.stdout)] == [(7, 22, "E002")]
    assert not any(m.exists() for _, m, _, _ in made) and not marker.exists()


# --------------------------------------------------------------------------- exit statuses


def test_validate_exits_0_on_the_bundled_pack():
    for args in (["validate"], ["validate", "content/praga"]):
        result = cli(*args)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "ok" in result.stdout


def test_validate_exits_1_on_content_errors():
    result = cli("validate", str(FIXTURES / "e302_unknown_resource.yaml"))
    assert result.returncode == 1


def test_validate_exits_2_on_a_usage_error():
    result = cli("validate", "--no-such-option")
    assert result.returncode == 2
    assert "Traceback" not in result.stdout + result.stderr


def test_schema_check_passes_on_the_committed_schemas():
    result = cli("schema", "--check")
    assert result.returncode == 0, result.stdout + result.stderr


def test_schema_check_fails_on_an_altered_schema(tmp_path):
    copy = tmp_path / "schemas"
    shutil.copytree(ROOT / "schemas", copy)
    assert cli("schema", "--out", str(copy), "--check").returncode == 0
    target = copy / "praga" / "walls.schema.json"
    data = json.loads(target.read_text(encoding="utf-8"))
    data["title"] += " (edited by hand)"
    target.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    result = cli("schema", "--out", str(copy), "--check")
    assert result.returncode == 1
    assert "walls.schema.json" in result.stdout


# --------------------------------------------------------------------------- robustness

SPECIAL = [*':{}[]|>&*!"\'', "é", "Č", "—", "\u00a0", "\u2028", "\x85", "\ufeff", "\t", "💥"]
SEED = 20240611
RUNS_PER_FILE = int(os.environ.get("CAPUT_MUTATION_RUNS", "3"))
MUTATION_SECONDS = float(os.environ.get("CAPUT_MUTATION_SECONDS", "12"))


def mutate(rng: random.Random, data: bytes) -> bytes:
    """One random edit of the kind a slip of the keyboard (or an editor) makes."""
    text = data.decode("utf-8", errors="surrogateescape")
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    op = rng.randrange(10)
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[i])
    elif op == 2:
        return data[: rng.randrange(len(data) + 1)]  # may cut a UTF-8 sequence in two
    elif op == 3 and text:
        j = rng.randrange(len(text))
        text = text[:j] + rng.choice(SPECIAL) + text[j + 1 :]
        return text.encode("utf-8", errors="surrogateescape")
    elif op == 4:
        lines[i] = " " * rng.randint(1, 4) + lines[i]
    elif op == 5:
        lines[i] = lines[i][rng.randint(1, 4):] if lines[i].startswith(" ") else "\t" + lines[i]
    elif op == 6 and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif op == 7:
        j = rng.randrange(len(data) + 1)
        return data[:j] + rng.choice([b"\xff", b"\xe8", b"\xc3"]) + data[j:]
    elif op >= 8:  # a typo in a word (a name, a verb, a field): reaches the later phases
        words = list(re.finditer(r"[a-z_]{3,}", text))
        if words:
            w = rng.choice(words)
            k = rng.randrange(w.start(), w.end())
            text = text[:k] + (text[k + 1 :] if op == 8 else text[k] + text[k:])
            return text.encode("utf-8", errors="surrogateescape")
    return "\n".join(lines).encode("utf-8", errors="surrogateescape")


def test_mutated_content_never_makes_the_pipeline_raise(tmp_path):
    """Every bundled content file (the pack and its variants), mutated at random in a copy
    of the pack: the pipeline returns errors (at positions inside the file), never raises.

    Rounds go over every file; later rounds stop once the time budget is spent
    (CAPUT_MUTATION_RUNS and CAPUT_MUTATION_SECONDS raise both for a longer hunt).
    Each mutated text depends only on the seed, the file and the round.
    """
    pack = tmp_path / "praga"
    shutil.copytree(PACK, pack)
    files = sorted(pack.rglob("*.yaml"))
    assert len(files) >= 20
    originals = {path: path.read_bytes() for path in files}
    deadline = time.monotonic() + MUTATION_SECONDS
    seen: set[str] = set()
    for round_ in range(RUNS_PER_FILE):
        if round_ and time.monotonic() > deadline:
            break
        for path in files:
            rng = random.Random(f"{SEED}:{path.relative_to(pack)}:{round_}")
            data = originals[path]
            for _ in range(rng.choice((1, 1, 2, 3))):
                data = mutate(rng, data)
            path.write_bytes(data)
            try:
                outcome = run_pipeline(path)
                format_errors(outcome.errors)
            except Exception as exc:  # pragma: no cover - the failure report
                keep = Path(tempfile.gettempdir()) / f"caput_crash_{path.name}"
                keep.write_bytes(data)
                pytest.fail(f"run_pipeline raised {type(exc).__name__}: {exc} on a mutated {path.name} (kept in {keep})")
            finally:
                path.write_bytes(originals[path])
            lines = len(YAML_LINES.split(data.decode("utf-8", errors="replace")))
            for e in outcome.errors:
                assert e.code in CODES and e.message and e.span is not None, e
                assert e.span.line >= 1 and e.span.col >= 1, e
                if Path(e.span.path).resolve() == path.resolve():
                    assert e.span.line <= lines, (e, lines)
                seen.add(e.code)
            assert outcome.errors or outcome.ruleset is not None
    # the mutations reach several phases, not only the YAML parser
    assert "E001" in seen and seen & {"E201", "E202", "E203", "E204", "E205"}
