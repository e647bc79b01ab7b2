"""Player tracks and the King's Road: spaces with values, production bonuses and reach effects."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Amounts, ContentFile, Effect, Id, Model, Record


class TrackSpace(Model):
    n: int = Field(ge=0)
    """Space number as printed."""
    value: int = 0
    """The number printed for this space (e.g. capacity, multiplier)."""
    label: str | None = None
    production: Effect | None = None
    """Bonus gained on producing when the marker is right of this space."""
    on_reach: Effect | None = None
    """Runs when the marker arrives on this space."""
    enter_cost: Amounts | None = None
    """Must be paid to move onto this space."""


class Track(Record):
    start: int = Field(ge=0)
    produces: Id | None = None
    """Resource gained by `produce` (the value of the marker's space)."""
    beyond_top: Effect | None = None
    """Runs instead of moving when the marker is on the last space."""
    spaces: list[TrackSpace] = Field(min_length=2)


class TracksFile(ContentFile):
    kind: Literal["tracks"]
    tracks: list[Track]


class RoadEffect(Record):
    effect: Effect


class RoadSpace(Model):
    n: int = Field(ge=0)
    label: str
    enter_cost: Amounts | None = None
    effects: list[RoadEffect] = []
    """Resolved independently, each at most once per arrival, at any moment of the turn."""


class ReplacementTile(Record):
    """One face of a physical replacement tile."""

    tile: Id
    """The physical tile this face is printed on; two faces of one tile are never in use together."""
    face: Literal["a", "b"] = "a"
    replaces: Id
    """The road effect id whose text this face covers."""
    effect: Effect


class KingsRoadFile(ContentFile):
    kind: Literal["kings_road"]
    track: Id
    """Track id of the road, usable in `position(...)`."""
    spaces: list[RoadSpace] = Field(min_length=2)
    replacement_tiles: list[ReplacementTile] = []
    replacement_tiles_in_use: list[Id] = []
    """Variant parameter: faces laid over the printed effects."""
