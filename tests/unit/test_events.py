"""The one registry of lifecycle events (interpreter/content/events.py) and what emits them.

The runtime's emitters name their events as literals; reading its code finds every one, so an
event the runtime starts emitting without a registry entry (or a registry entry nothing emits any
more) fails here rather than as a trigger that silently never fires.
"""

from __future__ import annotations

import ast
from pathlib import Path

import interpreter
from interpreter import load_ruleset
from interpreter.content import events

RUNTIME = Path(interpreter.__file__).parent / "runtime"


def _emitted_literals() -> set[str]:
    found = set()
    for path in RUNTIME.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            # m.emit(state, player, "event", params)
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "emit" and len(node.args) >= 3:
                if isinstance(node.args[2], ast.Constant):
                    found.add(node.args[2].value)
            # the flow's lifecycle events, fired for every seat by runtime/core_flow.py
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "FlowEvent" and node.args:
                if isinstance(node.args[0], ast.Constant):
                    found.add(node.args[0].value)
            # a deferred emission: a frame carrying {"event": "name", "params": {...}}
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values):
                    if isinstance(k, ast.Constant) and k.value == "event" and isinstance(v, ast.Constant) and isinstance(v.value, str):
                        found.add(v.value)
    return found


def test_every_event_the_runtime_emits_is_in_the_registry_and_back():
    emitted = _emitted_literals()
    assert emitted, "the scan found no emitter: the runtime's emit calls changed shape"
    assert emitted == set(events.EVENTS)


def test_the_bundled_pack_declares_only_registry_events_with_their_signatures():
    pack = load_ruleset().single("pack")
    for e in pack.events:
        assert events.declaration_problems(e) == [], e.id
        known = events.EVENTS[e.id]
        assert tuple((p.name, p.type) for p in e.params) == tuple((p.name, p.type) for p in known.params)


def test_a_declared_event_nothing_emits_is_named_with_what_is_emitted():
    class Declared:
        id, key, params = "market_day", None, ()

    ((path, message),) = events.declaration_problems(Declared)
    assert path == ("id",) and "market_day" in message and "resource_gained" in message
