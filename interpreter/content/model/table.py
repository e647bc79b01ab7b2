"""How a pack's table is laid out when it is drawn (`caput render`, the web page): the parts of the picture
and where each goes (`layout`), the sections of shared zones and spaces with the widget each is drawn with,
the order of a seat's own zones, and zones left undrawn.

A pack without this file is drawn in a default layout (content/README.md shows it); with it, as it says. A
part its layout leaves out is drawn after the parts it places, and a zone or space no section names after the
sections, so a layout never hides anything but the zones it says to hide."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from interpreter.content.model.base import ContentFile, Id, Model

Widget = Literal["hex_map", "wheel", "route", "slot_row", "market", "grids", "claims", "stacks", "scores",
                 "sections", "seats"]


class TablePart(Model):
    """A part of the picture: a widget, or parts side by side (`across`), or parts one under another (`down`)."""

    widget: Widget | None = None
    """What this part draws. For a pack whose turns are offers: hex_map, the shared map with what is built on it
    (the `hex_map` file); wheel, the wheel of offers; route, the pawn track and its spaces; slot_row, the slots and
    what is laid on them; market, the market rows (the setup's `rows`); grids, the project grids side by side;
    claims, the records players claim (the setup's `claim_kind`); stacks, what the shared stacks hold; scores,
    the points per source and seat. For a pack on the generic core: sections, the `sections` below in two
    columns. For both: seats, each seat's panel. Each is placed once; one whose content the pack lacks draws
    nothing, one the layout leaves out is drawn after it in a band of its own, so a layout never hides a part
    of the game."""
    across: list[TablePart] = []
    """Parts side by side: those of a width of their own (the map, the market, the grids) take it, one with a
    `width` that many pixels, the others share the rest equally; each is stretched to the tallest."""
    down: list[TablePart] = []
    """Parts one under another, each the whole width; the first takes any height to spare, so a column beside
    a taller part ends level with it."""
    width: int | None = Field(default=None, gt=0)
    """The width in pixels of a part placed across (none: its own width, or a share of what is left)."""

    @model_validator(mode="after")
    def _one_of(self):
        given = [name for name in ("widget", "across", "down") if getattr(self, name)]
        if len(given) != 1:
            raise ValueError(f"a part is exactly one of widget, across or down (found {', '.join(given) or 'none'})")
        return self


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
    """The layout of the drawn table of a pack."""

    kind: Literal["table"]
    width: int | None = Field(default=None, ge=800, le=6000)
    """The picture's width in pixels (none: 2800 for a pack whose turns are offers, 1600 for one on the generic
    core)."""
    layout: list[TablePart] = []
    """The picture's parts one under another below its heading, each the picture's width. None: for a pack
    whose turns are offers, the map beside a column of the wheel and the scores (across) over the route and the
    slot row; then the market, the grids, the claims and the stacks across; then the seats. For a pack on the
    generic core, the sections, then the seats."""
    sections: list[TableSection] = []
    """The sections the `sections` part draws, in order: a full-width one across the table, half-width ones
    filling two columns."""
    seat_zones: list[Id] = []
    """The zones declared `per: player` in the order a seat's panel draws them (the others after them)."""
    hidden: list[Id] = []
    """Zones not drawn at all (the box of records out of play, say)."""
