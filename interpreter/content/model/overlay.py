"""Overlay files: a variant or house rule as a pure content edit of a pack."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import Discriminator, Field, Tag

from interpreter.content.model.base import ContentFile, Id, Model, Provenance


class Placed(Model):
    """Records added at a place in their list: before or after the record with the given id."""

    before: Id | None = None
    """Insert the records just before the record with this id."""
    after: Id | None = None
    """Insert the records just after the record with this id."""
    records: list[dict[str, Any]] = Field(min_length=1)
    """The records to add, in order."""


def _added_form(value: Any) -> str:
    return "placement" if isinstance(value, dict) else "list"


# A list of records, or a mapping that places them; a value that is neither is checked as a list.
Added = Annotated[
    Union[Annotated[list[dict[str, Any]], Tag("list")], Annotated[Placed, Tag("placement")]],
    Discriminator(_added_form),
]


class OverlayFile(ContentFile):
    """Applied onto a pack before validation; errors point into the overlay file."""

    kind: Literal["overlay"]
    extends: str
    """The pack this overlay edits: its id, or a path to its directory relative to this file."""
    name: str
    """Display name of the variant or house rule."""
    description: str | None = None
    """What the overlay changes, in a sentence or two for players."""
    provenance: Provenance
    """exact: an official variant as printed; partial or reconstructed: a house rule or a guess."""
    source: str
    """Where the rule comes from: a RULES.md id, a rulebook page, or who proposed the house rule."""
    set: dict[str, Any] = {}
    """Parameter by path: `<kind>.<field or record id>...: value`."""
    replace: dict[str, list[dict[str, Any]]] = {}
    """Records by kind that replace the pack's records of the same id."""
    add: dict[str, Added] = {}
    """New records by kind, appended to their list; or `{before: <id>, records: [...]}` (or `after:`) to place them."""
    remove: dict[str, list[Id]] = Field(default_factory=dict)
    """Record ids by kind to delete."""
