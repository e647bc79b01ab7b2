"""Game facts live in content: the interpreter names no resource, track, project or game."""

import re
from pathlib import Path

from interpreter.content.model import KINDS

ROOT = Path(__file__).resolve().parents[1]
# Names of Praga's resources, tracks, projects and pieces of content.
GAME_WORDS = re.compile(
    r"\b(gold|stone|eggs?|silver|windows?|hunger|cathedral|university|quarr(y|ies)|mines?|praga|prague|crown|"
    r"vltava|bridge_iv|bridge_v|kings_road)\b",
    re.IGNORECASE,
)
# Content-kind names (the file kinds of the models, e.g. `kings_road`) are part of the content
# schema and may be named; a kind is not a game fact such as a resource or a track.
KIND_NAMES = set(KINDS)


def test_interpreter_code_names_no_game_facts():
    hits = []
    for path in sorted((ROOT / "interpreter").rglob("*")):
        if path.suffix not in {".py", ".lark"}:
            continue
        rel = path.relative_to(ROOT / "interpreter")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in GAME_WORDS.finditer(line):
                if m.group(0).lower() in KIND_NAMES:
                    continue
                hits.append(f"{rel}:{n}: {line.strip()}")
    assert hits == []
