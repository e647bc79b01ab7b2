"""The pack manifest: which files make the pack and the names everything else refers to."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import ContentFile, Effect, Id, Model, PlayerCount, Record

ParamType = Literal["resource", "action", "track", "grid", "kind", "record", "direction", "colour", "number", "stack", "symbol"]


class PlayerRange(Model):
    min: PlayerCount
    max: PlayerCount


class Resource(Record):
    """Something a player holds a count of."""

    cap: int | None = Field(default=None, ge=1)
    """Most a player may hold; gains above it are lost. None: no limit."""
    group: Id | None = None
    """Optional group name (e.g. all worker kinds), usable in conditions as a sum."""
    plural: str | None = None
    """Plural display name for English text; none for mass nouns ("2 wood", "2 clay")."""


class Piece(Record):
    """Player pieces placed on records (claims, markers)."""

    per_player: int = Field(ge=1)


class Action(Record):
    """An action a player may perform; its effect says what performing it does."""

    effect: Effect


class EventParam(Model):
    name: Id
    type: ParamType


class Event(Record):
    """A past-tense event the engine emits and triggers can listen to."""

    key: Id | None = None
    """The parameter matched by `on event(X)`."""
    params: list[EventParam] = []


class Stack(Record):
    """A face-down stack, a face-up pool or a deck that effects draw from."""

    face: Literal["down", "up"] = "down"


class Permit(Record):
    """A temporary right granted by an effect (e.g. access to a restricted row position)."""


class EdgeSymbol(Record):
    """An adjacency symbol on a hex edge; `reward` is what it pays when matched (none: a reminder only)."""

    reward: Effect | None = None


class Icon(Record):
    """An icon printed on tiles; `effect` runs when a tile with it is placed."""

    effect: Effect | None = None
    requires: list[Id] = []
    """Icons that must be on the same tile."""
    excludes: list[Id] = []
    """Icons that must not be on the same tile."""


class Attribute(Model):
    name: Id
    type: ParamType


class TileKind(Record):
    """A kind of hex tile: which corner colours it may carry, and what it gains where it is placed."""

    corner_colours: list[Id]
    attributes: list[Attribute] = []
    """Attributes a placed tile takes from its site (usable in `where` and `this.`)."""


class PackFile(ContentFile):
    """pack.yaml: the manifest of a content pack."""

    kind: Literal["pack"]
    id: Id
    name: str
    version: str
    players: PlayerRange
    include: list[str] = Field(min_length=1)
    """Content files of the pack, relative to this file."""
    resources: list[Resource]
    pieces: list[Piece] = []
    actions: list[Action]
    events: list[Event] = []
    stacks: list[Stack] = []
    permits: list[Permit] = []
    edge_symbols: list[EdgeSymbol] = []
    icons: list[Icon] = []
    corner_colours: list[Id] = []
    tile_kinds: list[TileKind] = []
