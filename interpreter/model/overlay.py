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
    description: str | None = None
    provenance: Provenance
    source: str
    set: dict[str, Any] = {}
    """Parameter by path: `<kind>.<field or record id>...: value`."""
    replace: dict[str, list[dict[str, Any]]] = {}
    """Records by kind that replace the pack's records of the same id."""
    add: dict[str, list[dict[str, Any]]] = {}
    """New records by kind."""
    remove: dict[str, list[Id]] = Field(default_factory=dict)
    """Record ids by kind to delete."""
