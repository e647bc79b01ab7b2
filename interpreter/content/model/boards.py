"""Boards: the wheel of offers, the project grids, the hex map, the action board and the slot row."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from interpreter.content.model.base import Amounts, Axial, ContentFile, Count, Effect, Id, Model, Ordinal, PlayerCount, Record


# ---------------------------------------------------------------- wheel

class WheelPosition(Model):
    zone: Id
    """Zone of the frame this position belongs to (a free name such as red, green or blue, used in reports and variants)."""
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
    """Gained (now or later in the turn) by the player who takes the action tile resting in this slot; none for the box."""


class ActionTileSide(Model):
    actions: list[Id] = Field(min_length=2, max_length=2)
    """The two actions shown on this side; the player who takes the tile performs one of them."""


class ActionTile(Record):
    a: ActionTileSide
    """Side a of the tile (used when the wheel's `side` is `a`)."""
    b: ActionTileSide
    """Side b of the tile (used when the wheel's `side` is `b`)."""


class Rotation(Model):
    players: PlayerCount
    """The player count this starting rotation is for."""
    box_at: int = Field(ge=0)
    """Frame position of the box slot at setup."""


class WheelFile(ContentFile):
    """The wheel of offers: frame positions and their zones, the rotating wheel of slots with bonuses, and the double-sided action tiles."""

    kind: Literal["wheel"]
    id: Id
    """The pack's name for this wheel: the key of its state and the source of the points it gives (`<id>:position`)."""
    provenance: Literal["exact", "partial", "reconstructed"]
    """How exact the values of this file are: exact, partial or reconstructed."""
    source: str
    """Where the values of this file come from: a RULES.md id or a COMPONENTS.md section."""
    positions: list[WheelPosition] = Field(min_length=3)
    """Frame positions clockwise from the entry (position 0)."""
    wheel: list[WheelSlot] = Field(min_length=3)
    """Wheel slots clockwise starting at the box."""
    rotations: list[Rotation]
    """The wheel's starting rotation, one entry per player count."""
    overflow_points: int = Field(ge=0)
    """Points carried by an overflowed tile (the 5-point token)."""
    side: Literal["a", "b"] = "a"
    """Which side of the action tiles is used (variant parameter)."""
    tiles: list[ActionTile] = Field(min_length=1)
    """The double-sided action tiles that move around the wheel."""
    first_game_order: list[Id]
    """Order of the action tiles from the entry, for the first game."""


# ---------------------------------------------------------------- project grids

class Square(Model):
    col: int = Field(ge=1)
    """Column of the square, from 1."""
    effect: Effect
    """Runs when a marker arrives on this square."""


class GridRow(Model):
    value: int
    """Points for ending in this row."""
    cols: list[Ordinal] = Field(min_length=1)
    """Columns present in this row."""
    squares: list[Square] = []
    """The squares of this row that carry an effect (the others are plain)."""


class Tier(Model):
    rows: list[GridRow] = Field(min_length=1)
    """Bottom to top."""
    enter_cost: Amounts | None = None
    """Extra cost to move up into this tier."""
    on_enter: Effect | None = None
    """Runs when a player's marker first enters this tier."""


class TierSet(Record):
    tiers: list[Tier] = Field(min_length=1)
    """The tiers of this set, bottom to top."""


class Grid(Record):
    sideways: Literal["left", "right"]
    """The direction a `sideways` move takes on this grid."""
    start: list[Ordinal] = Field(min_length=2, max_length=2)
    """[row, col] of the starting square, rows and columns from 1."""
    up_cost: Amounts
    """Paid for each move up (one row, same column) unless the move is `free` or discounted."""
    multiplies: Id
    """Resource counted by the column value in final scoring."""
    columns: list[int] = Field(min_length=1)
    """Column head values, from column 1."""
    tier_sets: list[TierSet] = Field(min_length=1)
    """Alternative sets of tiers; `tier_set` names the one in play."""
    tier_set: Id
    """Which tier set is in play (variant parameter)."""


class ProjectsFile(ContentFile):
    """Project grids players move up: rows grouped in tiers, squares with effects, row and column values."""

    kind: Literal["projects"]
    grids: list[Grid]
    """The project grids players move up."""


# ---------------------------------------------------------------- hex map

class Premium(Model):
    cost: Amounts
    """Extra cost paid to build on this site."""
    points: int = Field(ge=0)
    """Points scored for placing a tile on this site."""


class HexType(Model):
    role: Literal["site", "area", "route", "crossing", "plain"]
    """What hexes of this type do: a `site` takes a tile of the map's `site_kind`; an `area` holds an area
    tile and gathers the sites around it (every site touches exactly one area hex); a `route` hex shows a
    space of the route track (`route_space`); a `crossing` hex is labelled with its type; a `plain` hex
    is only terrain."""
    fill: str | None = None
    """The colour hexes of this type are drawn in (a CSS colour such as `"#86c0e6"`)."""


class MapHex(Record):
    at: Axial
    """Axial coordinate [q, r] of the hex."""
    type: Id
    """What the hex is: one of the map's `hex_types`, whose role says what the hex does."""
    premium: Premium | None = None
    """Surcharge and points of placing a tile here (sites only)."""
    marks: list[PlayerCount] = []
    """Area hexes: player counts the area is used for (empty: always)."""
    pre_filled: list[PlayerCount] = []
    """Sites: player counts for which a neutral tile starts here."""
    route_space: Count | None = None
    """Route hexes: the number of the route track's space shown on this hex."""


class PrintedCorner(Model):
    at: Axial
    """Axial coordinate [q, r] of the hex whose corner carries the icon."""
    corner: int = Field(ge=0, le=5)
    """Corner index 0..5, clockwise."""
    colour: Id
    """Colour of the printed corner icon (one of the pack's `corner_colours`)."""


class HexMapFile(ContentFile):
    """The shared map: every hex with its type, the roles the types play, sites with their premiums, area hexes, and corner icons printed on the map."""

    kind: Literal["hex_map"]
    id: Id
    """The pack's name for the map: the key of its state (site -> tile) and its title."""
    provenance: Literal["exact", "partial", "reconstructed"]
    """How exact the values of this file are: exact, partial or reconstructed."""
    source: str
    """Where the values of this file come from: a RULES.md id or a COMPONENTS.md section."""
    hex_types: dict[Id, HexType] = Field(min_length=1)
    """The pack's hex types (its own names), each with the role it plays and how it is drawn."""
    site_kind: Id
    """The tile kind built on sites; a pre-filled site starts with the top regular tile of its first era."""
    area_tiles: Id
    """The record kind dealt face up onto the area hexes in play at setup (one per hex, shuffled)."""
    area_rewards: list[Id] = Field(min_length=1)
    """Effect fields of those records: on enclosure the majority gains all of them in order, every other
    claimant one of its choice."""
    hexes: list[MapHex]
    """Every hex of the map."""
    corners: list[PrintedCorner] = []
    """Corner icons printed on the map itself (matched like tile corners)."""


# ---------------------------------------------------------------- action board

class ActionHex(Model):
    action: Id
    """The action this hex belongs to; tiles that improve that action are placed here."""
    at: Axial
    """Axial coordinate [q, r] of the hex."""


class ActionBoardFile(ContentFile):
    """Each player's action board: the centre hex and one hex per action; the ring of hexes around it takes tiles too."""

    kind: Literal["action_board"]
    provenance: Literal["exact", "partial", "reconstructed"]
    """How exact the values of this file are: exact, partial or reconstructed."""
    source: str
    """Where the values of this file come from: a RULES.md id or a COMPONENTS.md section."""
    centre: Axial
    """Axial coordinate [q, r] of the centre hex, which never holds a tile."""
    action_hexes: list[ActionHex] = Field(min_length=1)
    """One hex per action declared in pack.yaml."""
    ring_size: int = Field(ge=0)
    """Number of hexes around the board that take tiles (checked against the geometry)."""


# ---------------------------------------------------------------- slot row

class Slot(Record):
    bonuses: list[Effect] = []
    """Printed bonuses this slot covers."""


class SlotRowFile(ContentFile):
    """A row of slots with the bonuses printed on them, which kept tiles are laid on until the row is complete; its tiles are a declared record kind."""

    kind: Literal["slot_row"]
    id: Id
    """The pack's name for the row: the id of the slotted zone holding the laid tiles (its slots in order) and the source of the bonuses its slots give (`<id>:<slot>`)."""
    name: str | None = None
    """Display name of the row."""
    verb: Id
    """The verb of the action that lays a kept tile on a free slot (`<verb> <slot>`)."""
    complete_at: int = Field(ge=1)
    """Number of laid tiles that complete the row; it must not exceed the number of slots."""
    slot_stacks: list[Id] = []
    """Stacks whose kept tiles are laid on a slot (the player picks a free one) while the row is not complete."""
    discard_when_complete: list[Id] = []
    """Stacks whose kept tiles, once the row is complete, give their effect and are then discarded (not kept)."""
    slots: list[Slot]
    """The slots, in order, with the printed bonuses each covers."""
