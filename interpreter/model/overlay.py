"""Overlay files: a variant or house rule as a pure content edit of a pack."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .base import ContentFile, Id, Provenance


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
    add: dict[str, list[dict[str, Any]]] = {}
    """New records by kind."""
    remove: dict[str, list[Id]] = Field(default_factory=dict)
    """Record ids by kind to delete."""
