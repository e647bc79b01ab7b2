"""Scenarios: a game set up, driven by actions in the notation, and checked against expected state.

A scenario is one YAML file (loaded by ``source.load_file``: no tags, no anchors, positions kept)::

    title: Producing brick on a long track           # optional, shown in reports
    pack: ../../content/mypack                      # optional; default: the bundled pack
    variants: [some_variant]                        # overlay files, or names in <pack>/variants/
    players: 2
    seed: 0                                         # default 0
    setup:                                          # state overrides, applied after new_game
      players.0.holdings.brick: 3
      players.0.tracks.forest: 7
      turn: 15
    steps:
      - do: take tile_x                             # one action in the engine's notation
      - do: act y
        expect:                                     # checked after the action
          decision.options: [first option, second option]
          legal: [choose 1, choose 2]
      - do: choose 2
        expect: {players.0.holdings.brick: 8, players.0.score: 4}
      - do: act y
        error: not among the legal actions          # must be illegal; the state must not change
      - set: {players.0.holdings.brick: 1}           # change the state between actions
      - expect: {turn: 15, legal_excludes: [end]}   # a check without an action
    known_failure: why it fails now                 # optional, see below

Paths are dotted: attribute names of the state objects, dictionary keys and list indices
(``players.0.holdings.brick``, ``table.era``, ``decision.options``, ``zones.some_stack``).
A dictionary key the state does not hold reads as absent; ``null`` matches absent and None.
Expected mappings must match exactly (every key); a difference is reported per key.
A ``set`` or ``setup`` path replaces the value there (deeper paths change a single entry);
intermediate dictionaries are created; a value must keep the kind it replaces (number,
text, list, mapping). A slotted zone's slots are named in its path (``zones.wall_row.special_1``);
the zone is set or expected whole (one entry per slot) or some slots at a time by a mapping
(``zones.wall_row: {regular_1: wall_i_03}``). The paths themselves: ``state_paths.py``.

Besides state paths, ``expect`` knows the game API: ``legal`` (the legal actions, any
order), ``legal_includes`` / ``legal_excludes`` (actions that must / must not be legal),
``terminal``, ``current_player``, ``scores`` and ``winners`` (the seats from 1 that won, once the game is
over: several when tied players share the win).

A step runs ``set``, then ``do``, then ``expect``. ``do`` without ``error`` must be legal;
with ``error`` it must raise ``IllegalActionError`` whose reason contains that text, and
the state must be unchanged. ``known_failure`` marks a scenario that documents behaviour
the engine does not have yet: it reports XFAIL while it fails and fails once it passes.

``run_scenario(path)`` returns a ``ScenarioResult``; ``run_scenarios(paths)`` prints one
line per scenario with the details of failures and returns the exit status: 0 all pass,
1 a scenario failed, 2 a scenario file does not load (errors in the project's format).
"""

from __future__ import annotations

import difflib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from interpreter.errors import (
    ContentError,
    ContentErrors,
    ErrorBag,
    IllegalActionError,
    RulesError,
    Span,
    format_errors,
)
from interpreter.paths import default_pack, display_path
from interpreter.content.source import Document, Mapping, load_file, walk
from interpreter.play.state_paths import (  # noqa: F401  (ABSENT, write_path: the runner's API, used by tests)
    ABSENT,
    Mismatch,
    PathError,
    RawText,
    diff,
    plain,
    read_path,
    slotted_zone,
    write_path,
    write_state,
    zone_slot_path,
)

# --------------------------------------------------------------------------- the format


class StepModel(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    do: StrictStr | None = None
    error: StrictStr | None = None
    set: dict[str, Any] | None = None
    expect: dict[str, Any] | None = None
    note: StrictStr | None = None

    @model_validator(mode="after")
    def _shape(self) -> StepModel:
        if self.error is not None and self.do is None:
            raise ValueError("`error` names why the step's `do` is illegal; add `do`")
        if self.do is None and self.set is None and self.expect is None:
            raise ValueError("a step needs `do`, `set` or `expect`")
        if self.set is not None and self.do is not None:
            raise ValueError("a step either sets state or does an action; split it in two")
        return self


class ScenarioModel(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    title: StrictStr | None = None
    pack: StrictStr | None = None
    variants: list[StrictStr] = []
    players: StrictInt = Field(ge=1)
    seed: StrictInt = 0
    setup: dict[str, Any] = {}
    steps: list[StepModel] = Field(min_length=1)
    known_failure: StrictStr | None = None


API_KEYS = ("legal", "legal_includes", "legal_excludes", "terminal", "current_player", "scores", "winners")


# --------------------------------------------------------------------------- results


@dataclass
class ScenarioResult:
    path: str
    name: str
    status: str  # pass | fail | error (the file does not load or names impossible paths) | xfail
    step: int | None = None  # 1-based index of the step that failed
    line: int | None = None
    action: str | None = None
    message: str = ""
    mismatches: list[Mismatch] = field(default_factory=list)
    errors: list[ContentError] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.status in ("pass", "xfail")

    def report(self) -> str:
        """The readable account of a failure or error (empty for a pass)."""
        if self.status == "error":
            return format_errors(self.errors)
        if self.status == "pass":
            return ""
        lines = []
        if self.step is not None:
            where = f"{self.path}:{self.line}" if self.line else self.path
            lines.append(f"step {self.step} ({where})" + (f": {self.action}" if self.action else ""))
        if self.message:
            lines.append(self.message)
        lines += [f"  {m}" for m in self.mismatches]
        return "\n".join(lines)


# --------------------------------------------------------------------------- loading


def load_scenario(path: Path, errors: ErrorBag) -> tuple[Document | None, ScenarioModel | None]:
    doc = load_file(path, errors, display_path(path))
    if doc is None or errors:
        return doc, None
    if not isinstance(doc.root, Mapping):
        errors.add("E203", "a scenario file is a mapping (players, setup, steps, ...)",
                   doc.root.span if doc.root is not None else Span(doc.path, 1, 1))
        return doc, None
    try:
        return doc, ScenarioModel.model_validate(doc.data())
    except ValidationError as exc:
        for err in exc.errors(include_url=False):
            _report(doc, err, errors)
        return doc, None


def _report(doc: Document, err: dict, errors: ErrorBag) -> None:
    loc = tuple(err["loc"])
    node, _ = walk(doc.root, loc)
    etype, msg = err["type"], err["msg"]
    name = next((str(s) for s in reversed(loc) if isinstance(s, str)), "scenario")
    if etype == "missing":
        errors.add("E201", f"missing field '{loc[-1]}'", node.span)
    elif etype == "extra_forbidden":
        owner = StepModel if len(loc) >= 3 and loc[0] == "steps" else ScenarioModel
        allowed = sorted(owner.model_fields)
        hint = difflib.get_close_matches(str(loc[-1]), allowed, n=1)
        extra = f"; did you mean '{hint[0]}'?" if hint else f"; allowed: {', '.join(allowed)}"
        parent, _ = walk(doc.root, loc[:-1])
        key = parent.key_node(loc[-1]) if isinstance(parent, Mapping) else None
        errors.add("E202", f"unknown field '{loc[-1]}'{extra}", (key or node).span)
    elif etype.endswith(("_type", "_parsing")):
        errors.add("E203", f"{name}: {msg[:1].lower()}{msg[1:]}", node.span)
    elif etype == "value_error":
        errors.add("E209", msg.removeprefix("Value error, "), node.span)
    else:
        errors.add("E204", f"{name}: {msg[:1].lower()}{msg[1:]}", node.span)


_RULESETS: dict[tuple, Any] = {}


def _ruleset(doc: Document, model: ScenarioModel, errors: ErrorBag):
    from interpreter.content.ruleset import load_ruleset

    base = Path(doc.path).parent
    pack = (base / model.pack) if model.pack else None
    if pack is not None and not pack.exists():
        errors.add("E007", f"pack not found: {display_path(pack)}", _span(doc, ("pack",)))
        return None
    pack_dir = pack or default_pack()
    pack_dir = pack_dir.parent if pack_dir.is_file() else pack_dir
    variants = []
    for i, v in enumerate(model.variants):
        named = "/" not in v and not v.endswith((".yaml", ".yml"))
        path = pack_dir / "variants" / f"{v}.yaml" if named else base / v
        if not path.is_file():
            errors.add("E007", f"variant not found: {display_path(path)}", _span(doc, ("variants", i)))
        variants.append(path.resolve())
    if errors:
        return None
    key = (pack.resolve() if pack else None, tuple(variants))
    if key not in _RULESETS:
        try:
            _RULESETS[key] = load_ruleset(pack, variants)
        except ContentErrors as exc:
            errors.extend(exc.errors)
            return None
    return _RULESETS[key]


def _span(doc: Document, loc: tuple, key: bool = False) -> Span:
    """The position of a node, or of the key that names it (key=True)."""
    if key:
        parent, depth = walk(doc.root, loc[:-1])
        if depth == len(loc) - 1 and isinstance(parent, Mapping) and parent.key_node(loc[-1]) is not None:
            return parent.key_node(loc[-1]).span
    node, _ = walk(doc.root, loc)
    return node.span if node is not None else Span(doc.path, 1, 1)


# --------------------------------------------------------------------------- running


class _Failed(Exception):
    def __init__(self, message: str = "", mismatches=()):
        super().__init__(message)
        self.message, self.mismatches = message, list(mismatches)


def run_scenario(path: str | Path) -> ScenarioResult:
    path = Path(path)
    shown = display_path(path)
    errors = ErrorBag()
    doc, model = load_scenario(path, errors)
    result = ScenarioResult(shown, path.stem, "error")
    game = _start(doc, model, errors) if model is not None else None
    if game is None:
        result.errors = errors.sorted()
        return result
    if model.title:
        result.name = f"{path.stem} ({model.title})"
    for i, step in enumerate(model.steps):
        loc = ("steps", i)
        try:
            _run_step(game, step, doc, loc)
        except PathError as exc:
            result.errors = [ContentError("E301", str(exc), getattr(exc, "span", _span(doc, loc)))]
            return result
        except _Failed as exc:
            result.status, result.step, result.line, result.action = "fail", i + 1, _span(doc, loc).line, step.do
            result.message = (exc.message + (f" ({step.note})" if step.note else "")).strip()
            result.mismatches = exc.mismatches
            break
    else:
        result.status = "pass"
    if model.known_failure:
        if result.status == "pass":
            result.status, result.message = "fail", (
                f"marked known_failure ({model.known_failure}) but it passes now: remove known_failure")
        elif result.status == "fail":
            result.status = "xfail"
    return result


def _start(doc: Document, model: ScenarioModel, errors: ErrorBag):
    from interpreter.runtime.game import new_game
    from interpreter.errors import RulesError

    ruleset = _ruleset(doc, model, errors)
    if ruleset is None:
        return None
    try:
        game = new_game(ruleset, model.players, seed=model.seed)
    except RulesError as exc:
        errors.add("E204", f"players: {exc}", _span(doc, ("players",)))
        return None
    for key, value in model.setup.items():
        try:
            write_state(game, key, value)
        except PathError as exc:
            errors.add("E301", f"setup: {exc}", _span(doc, ("setup", key), key=True))
    if not errors:
        try:
            _stand_at_turn(game, model.setup)
        except RulesError as exc:
            errors.add("E301", f"setup: {exc}", _span(doc, ("setup", "turn"), key=True))
    game.invalidate()
    return None if errors else game


def _stand_at_turn(game, written: dict) -> None:
    """A turn number set by hand moves the flow there too, so that the next seat, the era change and
    the end follow from it; a seat set by hand then acts, whoever's turn it is."""
    if "turn" not in written:
        return
    game.seek_turn(game.state.turn)
    if "current" in written:
        game.state.current = written["current"]


def _run_step(game, step: StepModel, doc: Document, loc: tuple) -> None:
    for key, value in (step.set or {}).items():
        try:
            write_state(game, key, value)
        except PathError as exc:
            exc.span = _span(doc, (*loc, "set", key), key=True)
            raise
    try:
        _stand_at_turn(game, step.set or {})
    except RulesError as exc:
        err = PathError(str(exc))
        err.span = _span(doc, (*loc, "set", "turn"), key=True)
        raise err from None
    game.invalidate()
    if step.do is not None:
        _do(game, step)
    mismatches = []
    for key, want in (step.expect or {}).items():
        try:
            mismatches += _expect(game, key, want)
        except PathError as exc:
            exc.span = _span(doc, (*loc, "expect", key), key=True)
            raise
    if mismatches:
        raise _Failed("", mismatches)


def _do(game, step: StepModel) -> None:
    before = game.state.to_json()
    try:
        game.apply(step.do)
    except IllegalActionError as exc:
        if step.error is None:
            raise _Failed(f"illegal action: {exc.reason}") from None
        if step.error not in exc.reason:
            raise _Failed("the action is illegal for another reason", [Mismatch("error", step.error, exc.reason)]) from None
        if game.state.to_json() != before:
            raise _Failed("the illegal action changed the state") from None
    except Exception as exc:  # noqa: BLE001 - an engine crash fails this scenario, not the runner
        raise _Failed(f"the engine raised {type(exc).__name__}: {exc}") from None
    else:
        if step.error is not None:
            raise _Failed(f"expected an illegal action ({step.error!r}), but it was applied")


def _expect(game, key: str, want: Any) -> list[Mismatch]:
    if key not in API_KEYS:
        specs = game.rules.tables.zones
        if isinstance(want, dict) and slotted_zone(specs, key) is not None:  # some slots of the zone, by name
            return [m for slot, record in want.items() for m in _expect(game, f"{key}.{slot}", record)]
        return diff(key, want, plain(read_path(game.state, zone_slot_path(specs, key))))
    if key.startswith("legal"):
        if not isinstance(want, list):
            raise PathError(f"`{key}` takes a list of actions")
        legal = game.legal_actions()
        if key == "legal":
            return [] if sorted(want, key=str) == legal else [Mismatch(key, sorted(want, key=str), legal)]
        wrong = [a for a in want if (a in legal) != (key == "legal_includes")]
        if not wrong:
            return []
        legal_now = key == "legal_excludes"
        return [Mismatch(key, RawText(f"{wrong} {'not ' if legal_now else ''}legal"),
                         RawText(f"{'legal' if legal_now else 'not legal'}; legal now: {legal}"))]
    got = {"terminal": game.is_terminal, "current_player": lambda: game.current_player, "scores": game.scores,
           "winners": lambda: game.winners() if game.is_terminal() else []}[key]()
    return diff(key, want, plain(got))


# --------------------------------------------------------------------------- many scenarios


def scenario_files(paths) -> list[Path]:
    """Files named, and the YAML files of directories named (sorted)."""
    out = []
    for p in map(Path, paths):
        out += sorted(q for q in p.iterdir() if q.suffix in (".yaml", ".yml")) if p.is_dir() else [p]
    return out


def run_scenarios(paths, out=None) -> int:
    """Run scenarios, print one line each (details below failures); return the exit status."""
    out = out or sys.stdout
    counts = {"pass": 0, "xfail": 0, "fail": 0, "error": 0}
    for path in scenario_files(paths):
        result = run_scenario(path)
        counts[result.status] += 1
        label = {"pass": "PASS", "xfail": "XFAIL", "fail": "FAIL", "error": "ERROR"}[result.status]
        print(f"{label} {result.name}", file=out)
        if result.status != "pass":
            print("\n".join("    " + line for line in result.report().splitlines()), file=out)
    print(", ".join(f"{n} {k}" for k, n in counts.items() if n) or "no scenarios", file=out)
    return 2 if counts["error"] else 1 if counts["fail"] else 0


def main(argv=None) -> int:
    return run_scenarios(argv if argv is not None else sys.argv[1:] or ["tests/scenarios"])


if __name__ == "__main__":
    sys.exit(main())
