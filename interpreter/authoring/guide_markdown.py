"""What the parts of the authoring guide share: its error, the words for the DSL's start rules, and Markdown helpers."""

from __future__ import annotations

import re

# Words for the grammar start rules, as the guide and its fenced blocks (```caput <word>) name them.
DSL_WORDS = {"program": "effect", "amounts": "amounts", "expr": "expression", "condition": "condition"}
FENCE_STARTS = {"caput": "program", **{f"caput {w}": s for s, w in DSL_WORDS.items()}}


class GuideError(Exception):
    """The guide cannot be generated: malformed markers, or a DSL example that is wrong."""


def cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def prose(text: str) -> str:
    """Generated English, escaped so Markdown shows it as written."""
    return re.sub(r"([\\`*_<>\[\]|])", r"\\\1", text)


def code(text: str) -> str:
    return f"`{text}`"


def table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)
