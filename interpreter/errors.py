"""One error format for every phase.

Codes: E0xx YAML and files, E1xx DSL syntax, E2xx schema and structure,
E3xx names and types (E4xx is reserved for the engine's runtime errors). Every content error carries a Span so it
prints as ``path:line:col: error[CODE]: message`` followed by the source line
and a caret.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Code -> (title, likely fix). The authoring guide is generated from this table.
CODES: dict[str, tuple[str, str]] = {
    "E001": ("YAML syntax error", "Check indentation, colons and closing quotes or brackets near the caret."),
    "E002": ("YAML tag not allowed", "Remove the `!tag`; content is plain data and tags are never interpreted."),
    "E003": ("duplicate key", "A mapping may name each key once; delete or rename one of them."),
    "E004": ("anchor or alias not allowed", "Write the value out, or use an overlay to share records."),
    "E005": ("file is not valid UTF-8", "Save the file as UTF-8."),
    "E006": ("file too large", "Content files are limited to 5 MB; split the file with `include:`."),
    "E007": ("file not found", "Check the path in `include:`, `extends:` or on the command line; paths are relative to the including file."),
    "E008": ("folded scalar in an effect", "Use a literal block `|` (or a plain string) for effect text; `>` folds lines and would move error positions."),
    "E009": ("mapping key is not a string", "Use plain words as keys."),
    "E010": ("file outside the pack", "A pack includes only files inside its own folder: move the file into the pack and include it by a path relative to pack.yaml (no absolute paths, no `..` out of the folder, no links to elsewhere)."),
    "E101": ("unexpected text in effect", "Read the message: it names what the DSL expected at the caret."),
    "E102": ("effect ends too early", "The effect stops in the middle of a statement; complete it."),
    "E103": ("character not allowed in effect", "Effects use words, numbers and `; , : ( ) { } | + - * / == != < <= > >= .` only."),
    "E104": ("amount without a name", "Write what is gained or paid after the number, e.g. `gain 2 brick`."),
    "E105": ("`choose` needs two options", "Separate options with `|`, e.g. `choose { gain 1 brick | gain 1 clay }`."),
    "E106": ("unclosed bracket", "Close every `{` with `}` and every `(` with `)`."),
    "E107": ("missing colon", "Optional payments and triggers need a colon: `may pay 1 brick: score 4`."),
    "E108": ("number expected", "Give a count, e.g. `advance research 2`."),
    "E109": ("statement keyword expected", "Start each statement with a verb: gain, pay, score, advance, produce, move, perform, build, choose, may, if, repeat, grant, draw, use, place."),
    "E110": ("statement after a trigger", "A trigger's body is one statement; wrap several in braces: `on event: { gain 1 brick; score 1 }`."),
    "E111": ("effect too long or nested too deeply", "An effect holds at most 1000 words, numbers and symbols and nests at most 100 levels deep; split it into shorter effects or write it flatter."),
    "E201": ("missing field", "Add the field named in the message."),
    "E202": ("unknown field", "The field is not part of this kind; check its spelling in content/README.md."),
    "E203": ("wrong type", "The value has the wrong shape (text, number, list or mapping); see the kind's reference."),
    "E204": ("invalid value", "The value is outside what this field allows; the message names the allowed values."),
    "E205": ("unknown or missing kind", "Start the file with `kind:` naming one of the content kinds."),
    "E206": ("duplicate id", "Every record id is unique within its kind; rename one of them."),
    "E207": ("wrong number of entries", "The list must have exactly the number of entries named in the message."),
    "E208": ("bad overlay", "Check the overlay's operation: `set:` paths, and ids in `replace:`/`remove:` must exist; ids in `add:` must not."),
    "E209": ("inconsistent record", "The record breaks a rule of its kind; the message says which."),
    "E210": ("overlay edit breaks the pack", "The edit is valid itself but leaves the pack's own files inconsistent; the errors it causes there are listed after it. Undo the edit, or also edit the records that depend on what it changed (`replace:`/`remove:`)."),
    "E211": ("unknown field type", "A declared field's `type:` is one of the field types listed in content/README.md (integer, boolean, text, name, choice, effect, amounts, expression, condition, hex_sides, hex_corners, list)."),
    "E212": ("field declared twice", "A record kind names each field once, and never the fields every record has (id, name, provenance, source, notes) nor those of the kind it extends; rename or delete one."),
    "E213": ("option not for this field type", "Each field type takes its own options (`min:`/`max:` for integer, `values:` for choice, `of:` for name and hex fields, `item:` for list); remove the option, change the type, or add the option the type needs."),
    "E214": ("default does not fit its field", "A field's `default:` must be a value of the field's type; fix it, or remove it to make the field required."),
    "E215": ("bad record kind declaration", "A record kind names both the file kind and the list field holding its records (or neither, for a template), one kind per list, a kind declared earlier in `extends:`, and a file kind that can hold records."),
    "E216": ("derived zone id taken", "The market rows name a zone per row (`<kind>_row`) and per (era, quality) stack, and the slot row's zone takes the row's id (content/README.md); rename the declared zone or record that has that id."),
    "E220": ("event nothing emits", "Declare only events the interpreter emits (content/README.md lists them with their parameters); a trigger on any other event would never fire."),
    "E230": ("effects can run each other forever", "A program performs, uses or fires (through a trigger) a program that leads back to it: limit a trigger with `once per turn`, or break the cycle."),
    "E231": ("count beyond what a game can use", "Counts are limited (repeat 100, advance and move 100, amounts 1000) and a payment cannot exceed the resource's cap; use a smaller number."),
    "E301": ("unknown name", "The name is not declared by the pack; check spelling or declare it."),
    "E302": ("unknown resource", "Declare the resource under `resources:` in pack.yaml or fix the spelling."),
    "E303": ("unknown track", "Use the id of a track the pack declares (in its tracks file, or a route's `track:`)."),
    "E304": ("unknown grid", "Use a grid id from projects.yaml."),
    "E305": ("unknown action", "Use an action id from pack.yaml `actions:`."),
    "E306": ("unknown event", "Triggers may use the events listed under `events:` in pack.yaml."),
    "E307": ("unknown kind of record", "Use a record kind the pack declares (in its record_kinds files) or one of its tile kinds; `count(...)` also counts the records of a zone, declared or derived (content/README.md)."),
    "E308": ("unknown attribute", "The attribute does not exist on that record or event; the message lists those that do."),
    "E309": ("type mismatch", "Both sides of a comparison, and every argument, must be of the expected type."),
    "E310": ("wrong arguments", "The function takes the arguments named in the message."),
    "E311": ("not available here", "`this` needs a record that owns the effect and `event` needs a trigger; `join order` needs a flow phase with `order: recorded`."),
    "E312": ("open-ended repeat", "`repeat:` without a count must repeat an optional statement (`repeat: may pay 1 brick: score 2`)."),
    "E313": ("name declared twice", "A name may be declared once across the whole pack; rename one."),
    "E314": ("unknown reference", "The id does not name a record of the expected kind."),
    "E315": ("unknown direction", "Directions are up, down, left, right and sideways."),
    "E317": ("unknown stack", "Use a shared zone without slots declared under `zones:` in pack.yaml (a stack, a pool or a deck)."),
    "E318": ("reserved word used as a name", "DSL keywords cannot be content names; rename the record or declaration."),
    "E319": ("negative amount", "Amounts and counts are never below zero: to take resources away, `pay` them. A computed amount that comes out below zero counts as nothing."),
    "E320": ("unknown zone", "Use a zone id declared under `zones:` in pack.yaml; a shared pile is also a stack that `draw N from Z keep K` looks at."),
    "E321": ("zone does not fit the statement", "`refill Z` needs a zone that declares `refill:`; `at P` names top, end, or a slot of the slotted zone the record goes to."),
    "E322": ("no owned zone for a gained record", "A record a player keeps from a stack, places or claims goes to the bottom of their zone declared `owned: true` that holds its kind (else one that holds any kind): declare one, `per: player`, without slots or a capacity."),
    "E323": ("a layout part the pack cannot draw", "Each part of a table layout is one the pack's engine draws, placed once: `sections` for a pack on the generic core; `hex_map`, `wheel`, `route`, `slot_row`, `market`, `grids`, `claims`, `stacks`, `scores` for a pack whose turns are offers; `seats` for both."),
}


@dataclass(frozen=True, slots=True)
class Span:
    """A position in a source file: 1-based line and column, plus an optional end."""

    path: str
    line: int
    col: int
    end_line: int | None = None
    end_col: int | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


@dataclass(frozen=True, slots=True)
class ContentError:
    code: str
    message: str
    span: Span | None = None
    notes: tuple["ContentError", ...] = ()
    """Errors this one caused elsewhere (an overlay edit's consequences in the pack's own files)."""

    def format(self, source_line: str | None = None) -> str:
        where = f"{self.span}: " if self.span else ""
        text = f"{where}error[{self.code}]: {self.message}"
        if source_line is not None and self.span is not None:
            line, pad, caret_len = source_excerpt(source_line, self.span)
            text += f"\n  {self.span.line:>4} | {line}\n       | {' ' * pad}{'^' * caret_len}"
        for note in note_lines(self):
            text += f"\n{note}"
        return text

    def to_json(self) -> dict:
        span = self.span
        return {
            "code": self.code,
            "message": self.message,
            "path": span.path if span else None,
            "line": span.line if span else None,
            "col": span.col if span else None,
            "end_line": span.end_line if span else None,
            "end_col": span.end_col if span else None,
            **({"caused": [n.to_json() for n in self.notes]} if self.notes else {}),
        }


@dataclass
class ErrorBag:
    """Collects every error of a phase; a phase that found any stops the pipeline."""

    errors: list[ContentError] = field(default_factory=list)

    def add(self, code: str, message: str, span: Span | None = None) -> None:
        assert code in CODES, code
        self.errors.append(ContentError(code, message, span))

    def extend(self, other: "ErrorBag | list[ContentError]") -> None:
        self.errors.extend(other.errors if isinstance(other, ErrorBag) else other)

    def __bool__(self) -> bool:
        return bool(self.errors)

    def __len__(self) -> int:
        return len(self.errors)

    def sorted(self) -> list[ContentError]:
        def key(e: ContentError):
            s = e.span
            return (s.path if s else "", s.line if s else 0, s.col if s else 0, e.code, e.message)

        unique = {(e.code, e.message, e.span): e for e in self.errors}
        return sorted(unique.values(), key=key)


SOURCE_WIDTH = 160  # of a longer source line, only the part around the caret is shown, cut with ELLIPSIS
ELLIPSIS = "..."


def source_excerpt(source_line: str, span: "Span") -> tuple[str, int, int]:
    """How an error shows its source line: (text, caret offset in it, caret length). A line too long to
    read (a generated file, a line of 200,000 brackets) is cut to the part around the caret."""
    line = source_line.rstrip("\n").expandtabs(1)
    pad, caret_len = span.col - 1, 1
    if span.end_line == span.line and span.end_col:
        caret_len = max(1, span.end_col - span.col)
    if len(line) <= SOURCE_WIDTH:
        return line, pad, caret_len
    caret_len = min(caret_len, SOURCE_WIDTH // 2)
    start = max(0, pad - SOURCE_WIDTH // 3)
    end = min(len(line), start + SOURCE_WIDTH)
    start = max(0, min(start, end - SOURCE_WIDTH))
    head = ELLIPSIS if start > 0 else ""
    tail = ELLIPSIS if end < len(line) else ""
    return head + line[start:end] + tail, pad - start + len(head), caret_len


class ContentErrors(Exception):
    """Raised by a loading entry point when a phase reported errors."""

    def __init__(self, errors: list[ContentError]):
        super().__init__(f"{len(errors)} content error(s)")
        self.errors = errors


class IllegalActionError(Exception):
    """An action that is not legal in the current state; the state is unchanged."""

    def __init__(self, action: str, reason: str):
        super().__init__(f"illegal action {action!r}: {reason}")
        self.action = action
        self.reason = reason

    def __reduce__(self):  # picklable, e.g. raised in a worker process of a simulation
        return (type(self), (self.action, self.reason))


class RulesError(Exception):
    """An inconsistency found while running the rules (a bug in content or engine)."""


class RunawayError(RulesError):
    """Effects ran past the machine's step budget for one action (content that loops): never a mere
    illegal choice, so searches for legal actions let it through."""


def source_line(span: Span | None, cache: dict[str, list[str]] | None = None) -> str | None:
    """The text of the line a span points at, or None when the file cannot be read."""
    if span is None:
        return None
    cache = {} if cache is None else cache
    lines = cache.get(span.path)
    if lines is None:
        try:
            # split where YAML breaks lines (str.splitlines also splits at \v, \f, \x1c..\x1e)
            with open(span.path, encoding="utf-8", errors="replace", newline="") as f:
                lines = re.split("\r\n|[\n\r\x85\u2028\u2029]", f.read())
        except OSError:
            lines = []
        cache[span.path] = lines
    if 1 <= span.line <= len(lines):
        return lines[span.line - 1]
    return None


NOTES_SHOWN = 3


def note_lines(error: ContentError, shown: int = NOTES_SHOWN) -> list[str]:
    """The errors an error caused, collapsed: the first few, then how many more in how many files."""
    lines = []
    for n in error.notes[:shown]:
        lines.append(f"    = caused {n.span}: {n.code}: {n.message}" if n.span else f"    = caused: {n.code}: {n.message}")
    rest = error.notes[shown:]
    if rest:
        files = len({n.span.path for n in rest if n.span})
        lines.append(f"    = and {len(rest)} more error(s) in {files} file(s) caused by this edit")
    return lines


def format_errors(errors: list[ContentError]) -> str:
    cache: dict[str, list[str]] = {}
    return "\n".join(e.format(source_line(e.span, cache)) for e in errors)
