"""What every command shares: the consoles, the error listing, and the pipeline's outcome read once per command."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape

from interpreter.errors import ContentError, note_lines, source_line, source_excerpt

out = Console(highlight=False, soft_wrap=True, emoji=False)  # source lines are shown as written
err = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)

OUTCOMES: dict = {}  # (pack, variants) -> the pipeline's outcome, once per command (a `load` reuses it)


def internal(exc: BaseException) -> None:
    err.print(f"[bold red]internal error[/]: {escape(type(exc).__name__)}: {escape(str(exc))}")
    err.print("This is a bug in caput, not in your content. Please report it with the command you ran.")
    raise typer.Exit(3)


def print_errors(errors: list[ContentError]) -> None:
    cache: dict = {}
    for e in errors:
        span = e.span
        where = f"[bold]{escape(str(span))}[/]: " if span else ""
        out.print(f"{where}[bold red]error[{e.code}][/]: {escape(e.message)}")
        line = source_line(span, cache)
        if line is not None and span is not None:
            text, pad, caret = source_excerpt(line, span)
            out.print(f"  [blue]{span.line:>4} |[/] {escape(text)}")
            out.print(f"       [blue]|[/] {' ' * pad}[bold red]{'^' * caret}[/]")
        for note in note_lines(e):
            out.print(f"[blue]{escape(note)}[/]")


def pipeline_outcome(pack: Optional[Path], variants):
    from interpreter.content.ruleset import run_pipeline

    key = (str(pack) if pack is not None else None, tuple(str(v) for v in variants or ()))
    if key not in OUTCOMES:
        OUTCOMES[key] = run_pipeline(pack, variants or ())
    return OUTCOMES[key]


def ruleset_or_exit(pack: Optional[Path], variant) -> "object":
    """The ruleset of the pack with the variants; its errors listed and exit status 1 when it has any."""
    outcome = pipeline_outcome(pack, variant)
    if outcome.errors:
        print_errors(outcome.errors)
        out.print(f"[bold red]{len(outcome.errors)} error(s)[/]; fix them first (`caput validate`).")
        raise typer.Exit(1)
    return outcome.ruleset


def print_page(pack, variant, as_json: bool, build, render) -> None:
    """Build a page's data from the pack; print it as JSON or as text."""
    data = build(ruleset_or_exit(pack, variant))
    if as_json:
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
    else:
        out.print(render(data), markup=False)
