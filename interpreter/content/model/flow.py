"""flow.yaml: how a game runs, for a pack on the generic core (docs/core.md §4–7).

The game is set up by a program, then played as rounds of phases. A phase is automatic (a program
runs), or turns in an order until every seat had its turns or passed, each turn picking entries of
the phase's menu. Pieces go on declared spaces; dice are chance nodes.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from interpreter.content.model.base import Amounts, Condition, ContentFile, Effect, Expr, Id, Model, PlayerCount, Record
from interpreter.content.turn_offers import AUTOMATIC_TURNS, TURN_END_STEPS, TURN_OFFERS

TurnOffer = Literal[tuple(TURN_OFFERS)]
TurnEndStep = Literal[tuple(TURN_END_STEPS)]
AutomaticTurn = Literal[tuple(AUTOMATIC_TURNS)]


class Die(Record):
    """A die: a chance node rolled by `roll <die>`; `die(<id>)` reads the value it shows."""

    faces: int | None = Field(default=None, ge=2)
    """A fair die numbered 1..faces."""
    outcomes: list[int] = []
    """The faces' values, when they are not 1..faces (e.g. [0, 0, 1, 1, 2, 3])."""


class Space(Record):
    """A space pieces are put on by a menu entry (`from: spaces`): a worker space, an action space, or
    (with `on:`) one space on each record of a shared zone, such as the cards of a row laid out in play."""

    on: Id | None = None
    """A shared zone: every record it holds is such a space, named by the record's id; `this` in
    `requires`, `cost` and `effect` is that record."""

    capacity: int | None = Field(default=1, ge=1)
    """How many pieces it holds; null: any number."""
    occupancy: Literal["any", "one_per_player", "one_coloured_per_player_in_group"] = "any"
    """Who may add a piece: anyone; a player without a piece there yet; a player without a coloured piece in the space's group."""
    group: Id | None = None
    """Spaces of a group share the `one_coloured_per_player_in_group` rule (e.g. the floors of one column)."""
    release: str = Field(default="round_end", pattern=r"^[a-z][a-z0-9_]*$")
    """When the pieces on it go back to their owners: `round_end`, `phase_end` (the end of every phase),
    `never`, or the id of a phase (at the end of that phase, e.g. once the cards they stand on have acted)."""
    requires: Condition | None = None
    """Must hold for the acting player to put a piece on it."""
    cost: Amounts | None = None
    """Paid to put a piece on it."""
    effect: Effect | None = None
    """Runs for the piece's owner when a piece is put on it."""
    min_value: int | None = Field(default=None, ge=0)
    """The least value a piece must be worth to go on it (its piece's `value`, plus a `boost` and the
    space's `value_bonus`): `min_value: 3` is `requires: value >= 3`, said in the space's own words."""
    value_bonus: Expr | None = None
    """Added to the value of a piece put on it, read for the acting player before it goes there: a
    permanent modifier the content keeps as a number the player holds (`green_bonus`)."""
    occupied_cost: Amounts | None = None
    """Paid besides `cost` when a piece goes on it while its `group` already holds a piece, anyone's
    (without a group: while the space itself holds one), e.g. `3 coin` to enter an occupied group."""
    enter_when_full: Condition | None = None
    """While it holds for the acting player, a piece may go on the space although it is full (its
    `capacity` does not bind that player; the occupancy rule still does): a card that lets its owner
    into occupied spaces."""


class MenuEntry(Record):
    """An action a player may pick during a turn: its verb in the notation, its argument, when it is
    offered, what it costs and does, and how often it may be picked."""

    verb: str | None = Field(default=None, pattern=r"^[a-z][a-z0-9_]*( [a-z][a-z0-9_]*)*$")
    """The notation's first word or words (`place`, `buy extra`); none: the id with spaces for underscores."""
    from_: str | None = Field(default=None, alias="from", pattern=r"^[a-z][a-z0-9_]*$")
    """Where the argument comes from: a zone (a record of it; the acting player's own when the zone
    is per player), `spaces` (a space the entry's piece may go on), or a record kind (any record of
    it). None: the entry takes no argument."""
    piece: Id | None = None
    """With `from: spaces`: the piece put on the chosen space (the acting player needs a free one)."""
    condition: Condition | None = None
    """Must hold for the entry to be offered; `this` is the argument."""
    cost: Amounts | None = None
    """Paid before the effect."""
    payments: list[Amounts] = []
    """Alternative costs, one of which the player names (`<verb> <n>` or `<verb> <arg> pay <n>`)."""
    effect: Effect | None = None
    """What picking it does; `this` is the argument."""
    limit: int | None = Field(default=None, ge=1)
    """How many times it may be picked per `per`."""
    per: Literal["turn", "round", "game"] = "turn"
    """The span `limit` counts over: a turn, a round or the whole game."""
    needs: list[str] = []
    """Verbs that must have been picked earlier this turn."""
    not_while: list[str] = []
    """Verbs that, while on offer, hide this entry (a required step comes first)."""
    ends_turn: bool = False
    """Picking it ends the turn."""
    passes: bool = False
    """Picking it passes: the player takes no more turns this phase (it ends the turn too)."""
    offers: TurnOffer | None = None
    """A turn offer of the mechanisms library (the guide lists them): it makes the entry's actions from
    the pack's equipment and carries them out, with the entry's verb as the notation's first words. Such
    an entry takes no `from`, `piece`, `cost`, `payments`, `effect`, `needs`, `not_while`, `ends_turn`,
    `passes` or `boost` (the offer has its own rules); its `condition`, when given, must hold for it to
    offer anything, and its `limit` (per `per`) caps how often its actions may be picked, on top of the
    offer's own rules (e.g. a refresh or buying the extra action `limit: 1`, once a turn; without a
    limit, as often as the offer makes actions)."""
    steps: list[TurnEndStep] = []
    """With `offers: end_turn` only: what ending the turn does, in order, as steps of the mechanisms
    library (the guide lists them), e.g. `[resolve_waiting_effects, turn_wheel]`."""
    boost: Amounts | None = None
    """With `from: spaces`: what adding 1 to the placed piece's value costs. `<verb> <space> boost <n>`
    pays it n times and adds n (`place red floor_3 boost 2`); without `boost <n>` nothing is added."""

    @property
    def word(self) -> str:
        """The verb of the notation."""
        return self.verb or self.id.replace("_", " ")


class Menu(Record):
    """The entries offered during a phase's turns."""

    entries: list[MenuEntry] = Field(min_length=1)
    """The entries, each with its own verb; `needs` and `not_while` name verbs of the same menu."""


class Seating(Model):
    """The seats of a game for one player count."""

    players: PlayerCount
    """The player count this entry is for."""
    seats: int = Field(ge=1)
    """Seats at the table; the seats past the players' are automatic (they take `automatic_turn`)."""


class EraChange(Model):
    players: PlayerCount
    """The player count this entry is for."""
    after_turn: int = Field(ge=1)
    """The era changes after this turn, counting every seat's turns from 1 (the market rows deal the next era's stacks)."""


class Phase(Model):
    """A part of a round: an automatic program, or turns seats take picking entries of a menu."""

    id: Id
    """The phase's name, in events (`phase_started`) and the notation of its turns' log."""
    kind: Literal["turns", "automatic"] = "turns"
    """turns: seats take turns picking menu entries; automatic: `run` runs, nobody takes a turn."""
    order: Literal["seats", "reverse_seats", "pass_order", "recorded"] = "seats"
    """seats: from the round's first seat; reverse_seats: the same backwards, from the round's last seat; pass_order: the order seats passed in the last phase with passing;
    recorded: the seats that ran `join order` since the last such phase, in the order they did, then the
    others in the order that phase had (seat order before any); with nobody joining, that order again."""
    until: Literal["turns_each", "all_passed"] = "turns_each"
    """turns_each: every seat takes `turns_each` turns; all_passed: turns go round until every seat passed."""
    turns_each: int = Field(default=1, ge=1)
    """With `until: turns_each`: how many turns each seat takes in the phase."""
    menu: Id | None = None
    """The menu of the phase's turns."""
    rounds: list[int] = []
    """The rounds it runs in; none: every round."""
    run: Effect | None = None
    """An automatic phase's program (for the first seat of the round; `for each player` reaches all)."""
    on_begin: Effect | None = None
    """Runs when the phase begins, for the first seat of the round."""
    on_end: Effect | None = None
    """Runs when the phase ends, for the first seat of the round."""
    simultaneous: bool = False
    """true (a phase `until: turns_each` whose entries all end the turn): every seat chooses its action
    without seeing the others' choices (another seat's pending action is hidden in observations); the
    choices apply once every seat has chosen, in the order made. A choice that can no longer be carried
    out then (a space taken by an earlier one) stops where it fails, and the others still apply."""


class FlowFile(ContentFile):
    """flow.yaml: the setup, the rounds and phases, the menus, spaces and dice of a pack on the generic core.

    A pack with a flow file has no setup file. Checked at load: a phase with turns names a menu
    of the file and an automatic one has `run` (and no `menu`, `order`, `until`, `turns_each`); a phase
    runs in rounds 1..`rounds`; a game without `rounds` has an `end` and a phase that runs every round;
    `until: all_passed` needs an entry that `passes`, `until: turns_each` one that `ends_turn` or
    `passes`. In a menu, verbs are unique and `needs`/`not_while` name its verbs; `from:` names a zone,
    `spaces` or a record kind, and `this` in the entry is the record picked (of the zone's kind, or of
    the kind named); `piece:` comes with `from: spaces` only, and always; `cost` and `payments` are
    not both given. A die has `faces` or `outcomes`; `tie_break` is a resource.
    """

    kind: Literal["flow"]
    provenance: Literal["exact", "partial", "reconstructed"]
    """How exact the values of this file are: exact, partial or reconstructed."""
    source: str
    """Where the values of this file come from: a RULES.md id or a COMPONENTS.md section."""
    setup: Effect | None = None
    """Runs once before the first round, for the first seat (`for each player` reaches every seat)."""
    rounds: int | None = Field(default=None, ge=1)
    """How many rounds the game has; none: until `end` holds."""
    end: Condition | None = None
    """Checked at the end of every round, for the first seat: when it holds, the game ends."""
    first_seat_moves: int = Field(default=0, ge=0)
    """Seats the first seat moves on by at the end of each round (0: it stays)."""
    phases: list[Phase] = Field(min_length=1)
    """The phases of a round, in order; a phase with `rounds:` runs only in those rounds."""
    menus: list[Menu] = []
    """The menus phases take turns in (a phase's `menu`)."""
    spaces: list[Space] = []
    """The spaces menu entries with `from: spaces` put pieces on."""
    dice: list[Die] = []
    """The dice effects roll (`roll <die>`) and read (`die(<die>)`)."""
    ties: Literal["shared", "last_seat", "first_seat"] = "shared"
    """Who wins a tie for the most points: every tied seat shares the win; the latest or the earliest in seat order."""
    tie_break: str | None = None
    """A resource whose most breaks a tie for the most points before `ties` applies."""
    seatings: list[Seating] = []
    """Seats per player count, one entry per supported player count; none: one seat per player."""
    automatic_turn: AutomaticTurn | None = None
    """The turn an automatic seat takes (a seat past the players', see `seatings`): one of the mechanisms library."""
    era_changes: list[EraChange] = []
    """When the era changes, one entry per player count that has one; none: a single era."""
    final_choices: Literal["players", "most_points"] = "players"
    """Who answers the choices final scoring offers (optional conversions): each player, or the game
    for each player, so that the player scores the most (every split between conversions weighed)."""
