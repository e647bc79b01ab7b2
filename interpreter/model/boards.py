"""Boards: the crane, the project grids, the city map, the action board and the bridge."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Amounts, Axial, ContentFile, Effect, Id, Model, PlayerCount, Record


# ---------------------------------------------------------------- crane

class CranePosition(Model):
    zone: Id
    cost: Amounts | None = None
    """Paid to take a tile from this position."""
    points: int | None = Field(default=None, ge=0)
    """Scored when taking a tile from this position."""
    overflow_target: bool = False
    """An overflowing tile goes to the first empty position marked so."""
    rest: bool = True
    """False for positions where a tile never rests (it overflows instead)."""


class WheelSlot(Model):
    box: bool = False
    """The box slot: never holds a tile."""
    bonus: Effect | None = None


class ActionTileSide(Model):
    actions: list[Id] = Field(min_length=2, max_length=2)


class ActionTile(Record):
    a: ActionTileSide
    b: ActionTileSide


class Rotation(Model):
    players: PlayerCount
    box_at: int = Field(ge=0)
    """Frame position of the box slot at setup."""


class CraneFile(ContentFile):
    kind: Literal["crane"]
    provenance: Literal["exact", "partial", "reconstructed"]
    source: str
    positions: list[CranePosition] = Field(min_length=3)
    """Frame positions clockwise from the entry (position 0)."""
    wheel: list[WheelSlot] = Field(min_length=3)
    """Wheel slots clockwise starting at the box."""
    rotations: list[Rotation]
    overflow_points: int = Field(ge=0)
    """Points carried by an overflowed tile (the 5-point token)."""
    side: Literal["a", "b"] = "a"
    """Which side of the action tiles is used (variant parameter)."""
    tiles: list[ActionTile] = Field(min_length=1)
    first_game_order: list[Id]
    """Order of the action tiles from the entry, for the first game."""


# ---------------------------------------------------------------- project grids

class Square(Model):
    col: int = Field(ge=1)
    effect: Effect


class GridRow(Model):
    value: int
    """Points for ending in this row."""
    cols: list[int] = Field(min_length=1)
    """Columns present in this row."""
    squares: list[Square] = []


class Tier(Model):
    rows: list[GridRow] = Field(min_length=1)
    """Bottom to top."""
    enter_cost: Amounts | None = None
    """Extra cost to move up into this tier."""


class TierSet(Record):
    tiers: list[Tier] = Field(min_length=1)


class Grid(Record):
    sideways: Literal["left", "right"]
    start: list[int] = Field(min_length=2, max_length=2)
    """[row, col] of the starting square, rows and columns from 1."""
    up_cost: Amounts
    multiplies: Id
    """Resource counted by the column value in final scoring."""
    columns: list[int] = Field(min_length=1)
    """Column head values, from column 1."""
    tier_sets: list[TierSet] = Field(min_length=1)
    tier_set: Id
    """Which tier set is in play (variant parameter)."""


class ProjectsFile(ContentFile):
    kind: Literal["projects"]
    grids: list[Grid]


# ---------------------------------------------------------------- city map

class Premium(Model):
    cost: Amounts
    points: int = Field(ge=0)


class CityHex(Record):
    at: Axial
    type: Literal["site", "plaza", "road", "river", "river_house", "countryside", "walled", "bridge"]
    premium: Premium | None = None
    """Old Town surcharge and points (sites only)."""
    marks: list[PlayerCount] = []
    """Plaza hexes: player counts the plaza is used for (empty: always)."""
    pre_filled: list[PlayerCount] = []
    """Sites: player counts for which a neutral building starts here."""
    road_space: int | None = None


class PrintedCorner(Model):
    at: Axial
    corner: int = Field(ge=0, le=5)
    colour: Id


class CityFile(ContentFile):
    kind: Literal["city"]
    provenance: Literal["exact", "partial", "reconstructed"]
    source: str
    hexes: list[CityHex]
    corners: list[PrintedCorner] = []


# ---------------------------------------------------------------- action board

class ActionHex(Model):
    action: Id
    at: Axial


class ActionBoardFile(ContentFile):
    kind: Literal["action_board"]
    provenance: Literal["exact", "partial", "reconstructed"]
    source: str
    centre: Axial
    action_hexes: list[ActionHex] = Field(min_length=1)
    ring_size: int = Field(ge=0)
    """Number of hexes around the board where walls go (checked against the geometry)."""


# ---------------------------------------------------------------- bridge

class Plank(Record):
    bonuses: list[Effect] = []
    """Printed bonuses this plank space covers."""


class BridgeTile(Record):
    stack: Id
    effect: Effect | None = None
    """Gained when the tile is kept."""
    scoring: Effect | None = None
    """Applied in final scoring."""


class BridgeFile(ContentFile):
    kind: Literal["bridge"]
    complete_at: int = Field(ge=1)
    planks: list[Plank]
    tiles: list[BridgeTile]
