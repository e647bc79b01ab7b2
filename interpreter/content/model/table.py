"""How a pack's table is laid out when it is drawn (`caput render`, the web page): sections of shared zones
and spaces with the widget each is drawn with, the order of a seat's own zones, and zones left undrawn.

A pack on the generic core without this file is drawn zone by zone in the order its pack file declares
them; with it, in these sections first. A zone or space no section names is still drawn, after them, so a
layout never hides anything it does not say to hide."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from interpreter.content.model.base import ContentFile, Id, Model


class TableSection(Model):
    """A part of the table: a title, the shared zones and the spaces drawn in it."""

    title: str
    """The heading drawn over the section."""
    zones: list[Id] = []
    """Shared zones (declared under `zones:` in pack.yaml, not `per: player`), in the order they are drawn."""
    spaces: list[Id] = []
    """Spaces of the flow (not those `on:` a zone's records: they are drawn on the records), drawn after the
    zones as boxes with the pieces on them."""
    widget: Literal["rows", "columns"] = "rows"
    """rows: each zone a row of cards, its first record at the left (a road, a market, a display);
    columns: the zones side by side, each a column whose first record is at the bottom (floors stacked one above another)."""
    width: Literal["half", "full"] = "half"
    """half: the section takes one of two columns of the table; full: the whole width."""


class TableFile(ContentFile):
    """The layout of the drawn table of a pack on the generic core."""

    kind: Literal["table"]
    sections: list[TableSection] = Field(min_length=1)
    """The sections, in order: a full-width one across the table, half-width ones filling two columns."""
    seat_zones: list[Id] = []
    """The zones declared `per: player` in the order a seat's panel draws them (the others after them)."""
    hidden: list[Id] = []
    """Zones not drawn at all (the box of records out of play, say)."""
