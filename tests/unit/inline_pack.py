"""Shared by the unit tests that write a small invented pack inline: writing its files, and running
one DSL text on it as a program (compiled as the loader would, with the pack's names)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from interpreter.dsl.compile import Compiler
from interpreter.dsl.parse import parse
from interpreter.dsl.resolve import Scope, resolve
from interpreter.runtime.machine import Machine
from interpreter.runtime.state import GameState


def write_pack(root: Path, files: dict[str, str]) -> Path:
    """The pack's files (file name -> text) under ``root``, made if need be."""
    root.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (root / name).write_text(text)
    return root


def compiled(ruleset, text: str, this_kind: str | None = None):
    """A DSL text compiled against the pack's names; ``this_kind``: the kind `this` is in it."""
    node = parse(text)
    res = resolve(node, ruleset.symbols, Scope(this_kinds=(this_kind,)) if this_kind else Scope())
    assert res.errors == [], [e.message for e in res.errors]
    sym = ruleset.symbols
    return Compiler(sym.members("resource"), sym.members("group"), res.constants, res.attributes, res.zone_counts,
                    sym.members("shared")).program(node, text)


def machine_for(ruleset, tables, text: str, this_kind: str | None = None) -> Machine:
    """A machine whose program "test" is the text."""
    return Machine(dataclasses.replace(tables, programs={**tables.programs, "test": compiled(ruleset, text, this_kind)}))


def run(ruleset, tables, state: GameState, text: str, player: int = 0, this: tuple[str, str] | None = None) -> GameState:
    """Run one text for ``player`` to its end (as the effect of the record ``this``, (kind, id), when given)."""
    machine = machine_for(ruleset, tables, text, this[0] if this else None)
    machine.start(state, "test", player, "test", this)
    machine.run(state)
    assert state.decision is None and not state.frames
    return state
