"""Shared pydantic configuration and field types for content models.

Models describe content only: they are frozen, reject unknown fields, never
coerce a value to another type (strict), and are never used at run time. Fields holding DSL text are marked with ``Dsl`` so
the pipeline can find them, parse them and report errors inside the string.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

ID_PATTERN = r"^[a-z][a-z0-9_]*$"

# Shared types carry no `description`: it would override the attribute docstring of every field using them.
Id = Annotated[str, StringConstraints(pattern=ID_PATTERN)]
Provenance = Literal["exact", "partial", "reconstructed"]


@dataclass(frozen=True)
class Dsl:
    """Marks a string field as DSL text of the given grammar start rule."""

    start: str  # "program" | "amounts" | "expr" | "condition"


_DSL_DOCS = {
    "program": "Effect in the caput effect DSL (see content/README.md).",
    "amounts": "Amounts in the effect DSL, e.g. `2 brick, 1 clay`.",
    "expr": "Expression in the effect DSL, e.g. `count(hut)`.",
    "condition": "Condition in the effect DSL, e.g. `brick >= 6`.",
}


def _dsl(start: str):
    return Annotated[
        str,
        Dsl(start),
        Field(min_length=1, json_schema_extra={"x-caput-dsl": start, "$comment": _DSL_DOCS[start]}),
    ]


Effect = _dsl("program")
Amounts = _dsl("amounts")
Expr = _dsl("expr")
Condition = _dsl("condition")

Axial = Annotated[list[int], Field(min_length=2, max_length=2, json_schema_extra={"$comment": "axial hex coordinate [q, r]"})]
PlayerCount = Annotated[int, Field(ge=1, le=8)]
Count = Annotated[int, Field(ge=0)]  # how many of something: never negative
Ordinal = Annotated[int, Field(ge=1)]  # a row or column number, counted from 1


class Model(BaseModel):
    # strict: no coercion, so `era: true` is no era 1, `special: 1` no yes, `count: 2.5` no 2
    # (an int is still a valid float)
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, populate_by_name=False,
                              use_attribute_docstrings=True)


class Record(Model):
    """A content record: a stable id and an honest provenance."""

    id: Id
    """Stable snake_case id, unique within its kind."""
    name: str | None = None
    """Display name."""
    provenance: Provenance
    """exact: stated by the rules; partial: partly stated or derived; reconstructed: a placeholder to correct."""
    source: str
    """Where the value comes from: a RULES.md id (R-…, EX-n, OPEN-n) or a COMPONENTS.md section."""
    notes: str | None = None
    """Free text for designers."""


class ContentFile(Model):
    """Common header of every content file."""

    kind: str
    """The content kind of the file; it selects the file's model and schema."""
