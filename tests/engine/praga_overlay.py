"""Praga with an overlay written for a test: the `set:` lines given, as a variant file on disk."""

from __future__ import annotations

from interpreter import load_ruleset


def variant(tmp_path, name: str, body: str):
    """The ruleset of Praga with an overlay `name` whose `set:` block is ``body`` (indented lines)."""
    path = tmp_path / f"{name}.yaml"
    path.write_text("kind: overlay\nextends: praga\nname: " + name + "\nprovenance: reconstructed\n"
                    "source: test\nset:\n" + body, encoding="utf-8")
    return load_ruleset(variants=[str(path)])
