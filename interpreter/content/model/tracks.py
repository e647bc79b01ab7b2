"""Player tracks and routes: spaces with values, production bonuses and reach effects."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from interpreter.content.model.base import Amounts, ContentFile, Effect, Id, Model, Record


class TrackSpace(Model):
    n: int = Field(ge=0)
    """Space number as printed."""
    value: int = 0
    """The number printed for this space (e.g. capacity, multiplier)."""
    label: str | None = None
    """Printed label of the space (e.g. a numeral), for display."""
    production: Effect | None = None
    """Bonus gained on producing when the marker is right of this space."""
    on_reach: Effect | None = None
    """Runs when the marker arrives on this space."""
    enter_cost: Amounts | None = None
    """Must be paid to move onto this space."""


class Track(Record):
    start: int = Field(ge=0)
    """Space number where the marker starts."""
    produces: Id | None = None
    """Resource gained by `produce` (the value of the marker's space)."""
    beyond_top: Effect | None = None
    """Runs instead of moving when the marker is on the last space."""
    spaces: list[TrackSpace] = Field(min_length=2)
    """The spaces, first to last; numbers count up by one."""


class TracksFile(ContentFile):
    """Player-board tracks: spaces with printed values, production bonuses and effects on reaching them."""

    kind: Literal["tracks"]
    tracks: list[Track]
    """The tracks of the player board."""


class RouteEffect(Record):
    effect: Effect
    """The printed effect."""


class RouteSpace(Model):
    n: int = Field(ge=0)
    """Space number (0 is the start)."""
    label: str
    """Printed label of the space (e.g. a numeral)."""
    enter_cost: Amounts | None = None
    """Must be paid to move onto this space."""
    effects: list[RouteEffect] = []
    """Resolved independently, each at most once per arrival, at any moment of the turn."""


class ReplacementTile(Record):
    """One face of a physical replacement tile."""

    tile: Id
    """The physical tile this face is printed on; two faces of one tile are never in use together."""
    face: Literal["a", "b"] = "a"
    """Which face of the physical tile this is."""
    replaces: Id
    """The route effect id whose text this face covers."""
    effect: Effect
    """The effect printed on this face; it runs instead of the covered one."""


class RouteFile(ContentFile):
    """A route: a track whose spaces have entry costs and effects on arrival, plus replacement tiles (a variant)."""

    kind: Literal["route"]
    track: Id
    """Track id of the route, usable in `position(...)`."""
    spaces: list[RouteSpace] = Field(min_length=2)
    """The route's spaces from the start; its track advances through them."""
    replacement_tiles: list[ReplacementTile] = []
    """Faces that may be laid over printed route effects (a variant)."""
    replacement_tiles_in_use: list[Id] = []
    """Variant parameter: faces laid over the printed effects."""
