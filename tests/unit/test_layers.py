"""The folders of interpreter/ are layers, and imports point down them only (DESIGN.md §2).

ui -> play -> runtime -> content -> dsl, with authoring beside play (it documents content and
uses no game runtime) and the pure mechanism libraries beside the DSL (the content checks and the
runtime both use them). The top-level modules (errors, paths) are below everything; the package
root only names the public API, resolved lazily. Imports inside functions count too: a lazy
import up the layers is still a dependency up the layers.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import interpreter

ROOT = Path(interpreter.__file__).parent
RANK = {"errors": 0, "paths": 0, "dsl": 1, "mechanisms": 1, "content": 2, "runtime": 3, "play": 4, "authoring": 4, "ui": 5}
MAX_LINES = 600


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _modules():
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        name = ".".join(p for p in rel.parts if p != "__init__")
        yield path, name


def _imports(path: Path, name: str):
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield node.lineno, target


def test_every_module_lives_in_a_layer():
    top = sorted(n for p, n in _modules() if n.count(".") == 1 and p.name != "__init__.py")
    assert set(_layer(n) for n in top) <= {"errors", "paths", "__main__"}, top
    assert len(top) + 1 <= 6, top  # with the package root: at most six modules at the top
    stray = [n for _, n in _modules() if n.count(".") >= 1 and _layer(n) not in RANK and _layer(n) != "__main__"]
    assert stray == []


@pytest.mark.parametrize("path,name", list(_modules()), ids=lambda v: v if isinstance(v, str) else "")
def test_imports_point_down_the_layers(path, name):
    if name == "interpreter" or name == "interpreter.__main__":
        return  # the root's lazy exports and `python -m interpreter` sit above every layer
    own = _layer(name)
    bad = []
    for line, target in _imports(path, name):
        if not target.startswith("interpreter.") or _layer(target) == own:
            continue
        theirs = _layer(target)
        if RANK.get(theirs, 0) > RANK[own] or (RANK.get(theirs) == RANK[own] and theirs != own):
            bad.append(f"{path.relative_to(ROOT.parent)}:{line}: {own} imports {target}")
    assert bad == []


def test_no_module_is_over_the_size_limit():
    big = {str(p.relative_to(ROOT.parent)): n for p, _ in _modules()
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert big == {}
