"""Hex tiles: upgrades, walls and buildings (six edges, six corners, icons)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .base import Amounts, ContentFile, Effect, Id, Record

Six = Annotated[list[Id], Field(min_length=6, max_length=6, description="six entries, side or corner 0..5 clockwise; `none` for blank")]


class HexTile(Record):
    era: int = Field(ge=1, le=9)
    special: bool = False
    edges: Six
    """Edge symbol per side 0..5 (`none` for a blank edge)."""
    corners: Six
    """Corner colour per corner 0..5 (`none` for no icon)."""


class UpgradeTile(HexTile):
    action: Id
    """The action this tile upgrades (the action printed in its centre)."""
    bonus: Effect
    """Central bonus gained each time that action is performed."""


class WallTile(HexTile):
    cost: Amounts
    reward: Effect
    icons: list[Id] = []


class BuildingTile(HexTile):
    cost: Amounts
    reward: Effect
    icons: list[Id] = []


class UpgradesFile(ContentFile):
    kind: Literal["upgrades"]
    tiles: list[UpgradeTile]


class WallsFile(ContentFile):
    kind: Literal["walls"]
    tiles: list[WallTile]


class BuildingsFile(ContentFile):
    kind: Literal["buildings"]
    tiles: list[BuildingTile]
