"""Hex tiles: upgrades, walls and buildings (six edges, six corners, icons)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from interpreter.content.model.base import Amounts, ContentFile, Effect, Id, Record

Six = Annotated[list[Id], Field(min_length=6, max_length=6, json_schema_extra={"$comment": "six entries, side or corner 0..5 clockwise; `none` for blank"})]


class HexTile(Record):
    era: int = Field(ge=1, le=9)
    """Era the tile belongs to (1 for I, 2 for II)."""
    special: bool = False
    """True for a special tile (it goes to a row's special position)."""
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
    """Paid when the tile is taken."""
    reward: Effect
    """Gained right after the cost is paid."""
    icons: list[Id] = []
    """Icons printed on the tile (declared under `icons:` in pack.yaml)."""


class BuildingTile(HexTile):
    cost: Amounts
    """Paid when the tile is taken."""
    reward: Effect
    """Gained right after the cost is paid."""
    icons: list[Id] = []
    """Icons printed on the tile (declared under `icons:` in pack.yaml)."""


class UpgradesFile(ContentFile):
    """Upgrade tiles: hex tiles placed on the action board hex of the action they upgrade."""

    kind: Literal["upgrades"]
    tiles: list[UpgradeTile]
    """Every upgrade tile."""


class WallsFile(ContentFile):
    """Wall tiles: hex tiles placed on the ring of hexes around the action board."""

    kind: Literal["walls"]
    tiles: list[WallTile]
    """Every wall tile."""


class BuildingsFile(ContentFile):
    """Building tiles: hex tiles built on the sites of the city map."""

    kind: Literal["buildings"]
    tiles: list[BuildingTile]
    """Every building tile."""
