"""What validates must play: mutants of the bundled pack either get content errors or play to the end.

Hypothesis draws a mutation of one content file of the bundled pack: a value replaced by another of
the same or another type (a number changed to another most often: the likeliest to validate), a
string swapped for another of the same file, a mapping key or list item deleted, a list item duplicated. The mutant is
written into a copy of the pack and run through the pipeline. Either the pipeline reports content
errors (each at a file:line:col of the pack), or two games with random bots and player counts play to
the end. Never a Python exception, never a hang: every game is bounded in actions and the whole case
in time.
"""

from __future__ import annotations

import io
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from interpreter.runtime.game import new_game
from interpreter.errors import ContentError
from interpreter.paths import default_pack
from interpreter.content.ruleset import run_pipeline

PACK = Path(default_pack())
FILES = sorted(p.name for p in PACK.glob("*.yaml"))
MAX_ACTIONS = 6000  # a random game of the bundled pack takes 100 to 500 actions; more means it does not end
CASE_SECONDS = 60  # one mutant: the pipeline and two games (well under a second when nothing hangs)

NUMBERS = [0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 20, 50, 100, -1]
# Replacement values: the edge cases of each type, and values of other types.
SCALARS = [0, 1, -1, 2, 3, 7, 100, 10**9, -(10**9), True, False, None, 1.5, "", "x", "free", "gain", "any",
           "score 1", "gain 1 gold", "repeat 1000000000: score 1", [], {}, ["x"], {"id": "x"}]


def _yaml() -> YAML:
    y = YAML(typ="safe", pure=True)
    y.default_flow_style = False
    return y


def _load(name: str):
    return _yaml().load((PACK / name).read_text(encoding="utf-8"))


def _paths(node, here=()):
    """Every path to a node of a loaded document (the root excluded)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield (*here, k)
            yield from _paths(v, (*here, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield (*here, i)
            yield from _paths(v, (*here, i))


def _ids(node) -> list[str]:
    """Strings that already occur in the document: ids and names to swap in."""
    out = []
    for path in _paths(node):
        v = _at(node, path)
        if isinstance(v, str) and len(v) < 40:
            out.append(v)
    return out


def _at(node, path):
    for p in path:
        node = node[p]
    return node


@st.composite
def mutants(draw):
    name = draw(st.sampled_from(FILES))
    doc = _load(name)
    paths = list(_paths(doc))
    how = draw(st.sampled_from(["number", "number", "swap", "swap", "replace", "delete", "duplicate"]))
    numbers = [p for p in paths if type(_at(doc, p)) is int]
    if how == "number" and not numbers:
        how = "replace"
    path = draw(st.sampled_from(numbers if how == "number" else paths))
    parent, last = _at(doc, path[:-1]), path[-1]
    if how == "number":  # the likeliest to validate: a number changed to another
        parent[last] = draw(st.sampled_from(NUMBERS))
    elif how == "replace":
        parent[last] = draw(st.sampled_from(SCALARS))
    elif how == "swap":
        parent[last] = draw(st.sampled_from(_ids(doc) or ["x"]))
    elif how == "delete":
        del parent[last]
    elif isinstance(parent, list):
        parent.insert(last, parent[last])
    else:  # a mapping: its value twice, as a one-item list in its place
        parent[last] = [parent[last], parent[last]]
    out = io.StringIO()
    _yaml().dump(doc, out)
    return name, f"{how} {'.'.join(map(str, path))}", out.getvalue()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("mutants")


# No shrinking: a failing mutant is reported as drawn (shrinking a pack-sized document takes minutes).
@settings(max_examples=250, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck),
          phases=[Phase.explicit, Phase.generate])
@given(case=mutants(), seed=st.integers(0, 10**6))
def test_a_mutant_either_gets_content_errors_or_plays_to_the_end(workdir, time_limit, case, seed):
    name, what, text = case
    pack = workdir / "pack"
    if pack.exists():
        shutil.rmtree(pack)
    shutil.copytree(PACK, pack, ignore=shutil.ignore_patterns("variants"))
    (pack / name).write_text(text, encoding="utf-8")
    label = f"{name}: {what}"
    with time_limit(CASE_SECONDS):
        outcome = run_pipeline(pack)
        if outcome.errors:
            for e in outcome.errors:
                assert isinstance(e, ContentError), label
                assert e.code[0] == "E" and e.code[1:].isdigit(), (label, e)
                assert e.span is not None and e.span.line >= 1, (label, e)
            return
        rng = random.Random(seed)
        allowed = outcome.ruleset.single("pack").players
        counts = list(range(allowed.min, allowed.max + 1))
        assert counts, f"{label}: validated with no player count"
        for _ in range(2):
            players = rng.choice(counts)
            game = new_game(outcome.ruleset, players, seed=rng.randrange(10**6))
            for _ in range(MAX_ACTIONS):
                if game.is_terminal():
                    break
                legal = game.legal_actions()
                assert legal, f"{label}: no legal action in a game that is not over"
                game.apply(rng.choice(legal))
            assert game.is_terminal(), f"{label}: {players} players, no end after {MAX_ACTIONS} actions"
