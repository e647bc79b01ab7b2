"""The pack manifest: which files make the pack and the names everything else refers to."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from interpreter.content.model.base import ContentFile, Effect, Expr, Id, Model, PlayerCount, Record

ParamType = Literal["resource", "action", "track", "grid", "kind", "record", "direction", "colour", "number", "symbol",
                    "zone"]


class PlayerRange(Model):
    min: PlayerCount
    """Fewest players."""
    max: PlayerCount
    """Most players."""


class Resource(Record):
    """Something a player holds a count of."""

    cap: int | None = Field(default=None, ge=1)
    """Most a player may hold; gains above it are lost. None: no limit."""
    group: Id | None = None
    """Optional group name (e.g. all worker kinds), usable in conditions as a sum."""
    plural: str | None = None
    """Plural display name for English text; none for mass nouns ("2 clay", "2 ore")."""
    shared: bool = False
    """true: one count for the whole table, not one per player (a marker's place on a road, what was offered
    this phase): `gain N r` and `pay N r` change it whoever acts, and `r` in an expression reads it. It may
    not be part of a cost or a payment."""
    substitutes: list[Id] = []
    """Resources this one stands in for in a payment, one for one: when a player pays one of them and lacks
    it, this resource pays the rest, automatically (a wild resource that stands in for any basic one)."""
    reduced_by: Id | None = None
    """A resource whose count the player holds is taken off each gain of this one (each amount of a `gain`
    statement, a source, gives that many fewer, not below 0): a lasting penalty kept as a number."""


class Mark(Record):
    """A count a record keeps while it is in play (a building turned residential, a token on a card): `put N
    <mark> on this` adds to it, `take N <mark> from this` removes from it, `this.<mark>` reads it (0 unless
    put). Resources may lie on records the same way, without a declaration."""


class Piece(Record):
    """Player pieces placed on records (claims, markers)."""

    per_player: int = Field(ge=1)
    """How many of this piece each player owns."""
    value: Expr | None = None
    """On a pack with a flow file: what one of these pieces is worth when it is put on a space, an
    expression read for its owner then (`die(red)`, `0`, `die(blue) - malus`); none: 0. The space's
    programs read the placed piece's value as `value` (with a menu entry's `boost` and the space's
    `value_bonus` added)."""
    coloured: bool = True
    """false: a neutral piece, which a space's `one_coloured_per_player_in_group` rule ignores."""


class Action(Record):
    """An action a player may perform; its effect says what performing it does."""

    effect: Effect
    """What performing the action does."""


class EventParam(Model):
    name: Id
    """Parameter name, read in a trigger as `event.<name>`."""
    type: ParamType
    """What the parameter holds: a name of a category (resource, action, track, grid, kind, direction, colour, symbol, zone), a placed `record`, or a `number`."""


class Event(Record):
    """A past-tense event the engine emits and triggers can listen to."""

    key: Id | None = None
    """The parameter matched by `on event(X)`."""
    params: list[EventParam] = []
    """The event's parameters, usable in a trigger's conditions and body as `event.<name>`."""


class Permit(Record):
    """A temporary right granted by an effect (e.g. access to a restricted row position)."""

    main_action_only: bool = False
    """The right can be used only by the main action of the turn, never by an extra or granted one."""


class EdgeSymbol(Record):
    """An adjacency symbol on a hex edge; `reward` is what it pays when matched (none: a reminder only)."""

    reward: Effect | None = None
    """Gained when the symbol is matched; none for a reminder only."""


class Icon(Record):
    """An icon printed on tiles; `effect` runs when a tile with it is placed."""

    effect: Effect | None = None
    """Runs when a tile carrying the icon is placed; `this` is that tile."""
    requires: list[Id] = []
    """Icons that must be on the same tile."""
    excludes: list[Id] = []
    """Icons that must not be on the same tile."""


class Attribute(Model):
    name: Id
    """Attribute name, usable in `where` conditions and as `this.<name>`."""
    type: ParamType
    """What the attribute holds (the same types as event parameters)."""


class TileKind(Record):
    """A kind of hex tile: which corner colours it may carry, and what it gains where it is placed."""

    corner_colours: list[Id]
    """Corner colours tiles of this kind may carry."""
    attributes: list[Attribute] = []
    """Attributes a placed tile takes from its site (usable in `where` and `this.`)."""
    placed_on: Literal["action_hex", "ring", "site"] | None = None
    """Where a built tile goes: the player's action hex of the tile's `action`, an empty hex of the ring around
    the player's action board, or an empty site of the shared map."""
    on_place: Effect | None = None
    """Runs when a tile of this kind is placed; `this` is the tile."""
    corner_reward: Effect | None = None
    """Gained once per corner match when a tile of this kind is placed."""
    fill: str | None = None
    """The colour tiles of this kind are drawn in (a CSS colour such as `"#e3f0d5"`; white if none)."""


class ZoneRefill(Model):
    zone: Id
    """The zone whose records refill this one when a draw finds it empty (the same player's, if it is per player)."""
    shuffle: bool = False
    """Shuffle them on the way (a chance node)."""


class ZoneDeal(Model):
    from_: Id = Field(alias="from")
    """The zone this one is dealt from at setup, after the shuffles: this zone takes `count` records from its top."""
    count: int = Field(ge=1)
    """How many records it takes."""


class Zone(Record):
    """A container of records: a deck, a hand, a discard pile, a market row, a tableau, a line of cards in play."""

    holds: Id | None = None
    """The record kind it holds; none: records of any kind."""
    per: Literal["player", "shared"] = "shared"
    """player: one zone per player (a hand, a pile); shared: one zone for the table."""
    ordered: bool = True
    """true: the order matters (a pile top first, a line of cards in the order laid); false: a set (a tableau)."""
    visibility: Literal["public", "owner", "hidden"] = "public"
    """Who sees its records: everyone; only its owner (the others see its size); nobody (only its size)."""
    slots: list[Id] = []
    """Named positions that hold at most one record each (a row of offers, the floors of a column); none: a pile."""
    capacity: int | None = Field(default=None, ge=1)
    """At most this many records (for a zone without slots)."""
    refill: ZoneRefill | None = None
    """Where an empty pile refills from when drawn."""
    start: Literal["empty", "all", "copies"] = "empty"
    """What the zone holds when a game on the generic core begins: nothing; `all` (a shared zone):
    every record of its `holds` kind in content order (the setup program may then shuffle it);
    `copies` (a zone `per: player`): each player's zone holds a copy of every record of its `holds`
    kind, in content order, owned by that player. A copy's id is the record's id, `~` and the
    player's number (`farm~2` is player 2's farm); it reads as the record: its kind, fields and effects."""
    deal: ZoneDeal | None = None
    """On a pack whose turns are offers of the mechanisms library: at setup this zone is dealt records
    from the top of another (e.g. half of a shuffled set set aside elsewhere)."""
    run_on_keep: Id | None = None
    """Effect field of a record kept from this zone (`draw N from <zone> keep K`) that runs at once
    (e.g. a tile's immediate bonus); every record that starts in the zone has it."""
    owned: bool = False
    """true (a zone `per: player` only): its records belong to its player as the records a player
    holds do, from the moment they enter it until they leave it: their triggers fire for the player,
    and `count(<kind>)` and `use ... of each <kind>` include them (a tableau of cards in play)."""


class PackFile(ContentFile):
    """pack.yaml: the manifest of a content pack."""

    kind: Literal["pack"]
    id: Id
    """Pack id; overlays name it in `extends:`."""
    name: str
    """Display name of the game."""
    version: str
    """Version of this content pack."""
    players: PlayerRange
    """The player counts the pack supports."""
    include: list[str] = Field(min_length=1)
    """Content files of the pack, relative to this file."""
    resources: list[Resource]
    """Everything a player holds a count of; effects gain, pay and test them by id."""
    marks: list[Mark] = []
    """Counts records keep in play (`put 1 <mark> on this`, `this.<mark>`), besides the resources lying on them."""
    pieces: list[Piece] = []
    """Player pieces placed on records (claims, markers)."""
    actions: list[Action]
    """The actions players perform; effects name them in `perform <id>`."""
    events: list[Event] = []
    """Events the engine emits and triggers (`on <event>: ...`) listen to."""
    permits: list[Permit] = []
    """Temporary rights that `grant` gives and `with` uses."""
    edge_symbols: list[EdgeSymbol] = []
    """Symbols printed on hex tile edges, with what a match pays."""
    icons: list[Icon] = []
    """Icons printed on tiles, with what placing such a tile does."""
    corner_colours: list[Id] = []
    """Colours of corner icons on tiles and boards."""
    tile_kinds: list[TileKind] = []
    """Kinds of hex tile that `build` places, with their corner colours and site attributes."""
    zones: list[Zone] = []
    """Containers of records, shared or per player, with who sees them, slots or a capacity, and a refill.
    Effects move records between them: `draw N from Z to Z2`, `move this to Z`, `move all from Z to Z2`, `shuffle Z`,
    `refill Z`; `count(Z)` counts a zone's records. A shared zone without slots is also a stack that
    `draw N from Z keep K` looks at. On a pack whose turns are offers of the mechanisms library, a record
    whose attribute `name of: zone` names a zone starts in it, and setup shuffles every `hidden` shared
    zone (in zone id order) before it deals the zones that have a `deal`."""
