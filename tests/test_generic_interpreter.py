"""Game facts live in content: the interpreter names no component of any bundled pack.

Two checks. The first is a plain word list of Praga's resources, tracks and projects, which no
line under interpreter/ may contain (comments included). The second is structural: it collects
every name the bundled packs declare (the id of every record, kind, resource, track, event,
board...) and splits them into words; an identifier or a string (not a docstring) in the
interpreter's code that uses one of these words names a game. Words the interpreter owns (its
generic vocabulary: tile, track, bonus, ...) and plain English or programming words that
happen to be part of an id (pairs, house, book, red) are listed below with their reason.

The interpreter is being moved onto a generic core step by step (issue 14), so the structural
check is a ratchet: tests/generic_baseline.txt records how many such uses each module still has;
a module may only go down, never up, and a module not listed may have none. When a count goes
down, lower the baseline with `python tools/genericity_census.py --write`; the goal is an empty file.
"""

import ast
import re
from collections import Counter
from pathlib import Path

from ruamel.yaml import YAML

from interpreter.content.model import KINDS

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / "tests" / "generic_baseline.txt"
# Names of Praga's resources, tracks, projects and pieces of content, and of the other packs' (comments too).
GAME_WORDS = re.compile(
    r"\b(gold|stone|eggs?|silver|windows?|hunger|cathedral|university|quarr(y|ies)|mines?|praga|prague|crown|"
    r"vltava|bridge_iv|bridge_v|kings_road|"
    # and of Lorenzo il Magnifico's
    r"towers?|faith|military|servants?|excommunicat\w*|vatican|harvests?|lorenzo)\b",
    re.IGNORECASE,
)
# Content-kind names (the file kinds of the models, e.g. `kings_road`) are part of the content
# schema and may be named; a kind is not a game fact such as a resource or a track.
KIND_NAMES = set(KINDS)

# Words of declared ids that are the interpreter's own generic vocabulary: DSL words, the
# registry of events, mechanisms and state terms that every pack shares.
INTERPRETER_WORDS = set(
    "action any advanced board bonus bonuses bots corner corners cube default free gained main marker moved "
    "open overlay pack performed placed point points produce production projects resource resources reward "
    "right scored scoring setup sideways special tile token tokens track tracks wheel site income solo "
    "record records kind kinds hex map route slot row".split()
    # the verbs of a free-order turn (a flow's menu entries and phase), the notation's plain words
    + "turn take act extra buy refresh use resolve do discard end".split()
    + ["flow"]  # the generic core's own file kind
    + ["automatic"]  # a kind of phase (flow.yaml `kind: automatic`) and of seat
    + ["tableau"]  # a kind of zone (runtime/zones.py): a player's records in play
    + ["market"]  # a market row (the mechanisms library's market_rows)
    + "place placement round start first next value cost".split())  # the flow's and the placing's own words
# Plain English or programming words that also occur inside an id.
ENGLISH_WORDS = {
    "pairs": "dict.items() pairs, key-value pairs",
    "book": "a price book (a table of prices)",
    "builder": "a builder object",
    "house": "house rules",
    "mine": "the pronoun",
    "red": "a terminal colour",
    "blue": "a terminal colour",
    "cheap": "cheap to copy",
    "original": "the original object",
    "plain": "plain data",
    "the": "the article", "and": "the conjunction", "single": "one", "large": "big", "late": "after the time",
    "skip": "to pass over", "cut": "to make smaller", "report": "a report of results", "basic": "simple",
    "box": "a box drawn on screen", "pool": "a pool of workers or options", "member": "a member of a set",
    "tiles": "hex tiles", "cards": "cards of any game", "character": "a character of text",
    "characters": "characters of text", "coins": "coins of any game", "deck": "a deck of cards",
    "neutral": "belonging to nobody", "hub": "the centre of a wheel",
    "white": "a terminal colour", "black": "a terminal colour", "green": "a terminal colour",
    "yellow": "a terminal colour", "orange": "a colour", "purple": "a colour",
    "entry": "a menu entry", "choose": "the DSL's choose", "choice": "a choice of a decision", "copy": "a copy of the state",
    "used": "used up", "play": "to play a game", "played": "a game played", "pick": "to pick an option",
    "deal": "to deal records", "occupied": "a space holding a piece", "card": "a card of any game",
    "fixed": "not changing", "six": "the number", "hand": "a hand of cards",
    "tuned": "weights tuned by self-play (a bots.yaml evaluation id, not a component)",
}


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


def declared_names() -> set[str]:
    """Every id and kind written in a bundled pack's YAML (variants included)."""
    names: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k in ("id", "kind") and isinstance(v, str):
                    names.add(v)
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    yaml = YAML(typ="safe")
    for path in sorted((ROOT / "content").rglob("*.yaml")):
        walk(yaml.load(path.read_text(encoding="utf-8")))
    return names


def component_words() -> set[str]:
    words = set()
    for name in declared_names():
        for w in name.lower().split("_"):
            if len(w) >= 3 and not re.fullmatch(r"[ivx]*\d*", w):
                words.add(w)
    return words - INTERPRETER_WORDS - set(ENGLISH_WORDS) - KIND_NAMES  # the built-in file kinds are the schema's


def _words(text: str):
    # snake_case, CamelCase and UPPER_CASE alike: "PlazaCount", "plaza_count", "PLAZA_COUNT"
    for part in re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+", text):
        yield part.lower()


def uses(words: set[str]) -> dict[str, list[str]]:
    """module -> ['line: word in `text`'] for identifiers and non-docstring strings using a word."""
    out: dict[str, list[str]] = {}
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # docstrings: of modules, classes and functions, and the attribute docstrings under fields
        # (a string standing alone as a statement)
        docstrings = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
        found = []
        for n in ast.walk(tree):
            if isinstance(n, ast.Name):
                text = n.id
            elif isinstance(n, ast.Attribute):
                text = n.attr
            elif isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
                text = n.name
            elif isinstance(n, ast.arg):
                text = n.arg
            elif isinstance(n, ast.keyword) and n.arg:
                text = n.arg
            elif isinstance(n, ast.alias):
                text = n.asname or n.name
            elif isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings:
                text = n.value
            else:
                continue
            found += [f"{getattr(n, 'lineno', '?')}: {w} in {text[:60]!r}" for w in _words(text) if w in words]
        if found:
            out[str(path.relative_to(ROOT))] = found
    return out


def read_baseline() -> Counter:
    counts = Counter()
    for line in BASELINE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            count, module = line.split()
            counts[module] = int(count)
    return counts


def test_the_word_list_holds_the_packs_components():
    words = component_words()
    # a sample of what each kind of declaration contributes: a resource, a track, a kind, a board
    assert {"gold", "university", "wall", "crane", "plaza", "seal"} <= words
    assert not words & INTERPRETER_WORDS


def test_no_module_names_more_game_words_than_its_baseline():
    baseline = read_baseline()
    now = uses(component_words())
    worse = {m: f"{len(found)} > {baseline.get(m, 0)}: " + "; ".join(found[:8])
             for m, found in now.items() if len(found) > baseline.get(m, 0)}
    assert worse == {}, "new game words in the interpreter (name the thing generically, or take it from content)"
    better = {m: f"{len(now.get(m, []))} < {n}" for m, n in baseline.items() if len(now.get(m, [])) < n}
    assert better == {}, "fewer game words than the baseline: lower it with `python tools/genericity_census.py --write`"
