"""Setup, era schedule, scoring tables, final scoring order and solo."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from interpreter.content.model.base import Amounts, ContentFile, Count, Effect, Id, Model, PlayerCount, Record


class Row(Model):
    kind: Id
    """Tile kind shown in this row."""
    regular: int = Field(ge=0)
    """Number of regular positions."""
    special: int = Field(ge=0)
    """Number of special positions (to the right of the regular ones); a row has at least one position."""
    refresh_cost: list[Amounts] = []
    """Alternative costs of refreshing the row (pay one)."""
    special_permit: Id | None = None
    """A permit (declared in pack.yaml) needed to take a tile from a special position; none: anyone may."""


class AnytimeAction(Record):
    """Something the active player may do at any moment of their turn, as often as they can pay for it."""

    effect: Effect
    """What doing it does (costs included)."""


class TrackStart(Model):
    track: Id
    at: int = Field(ge=0)


class SetupFile(ContentFile):
    """The equipment of a pack played with the mechanisms library: start holdings, tile rows, carry limit and the extra action (its schedule is the flow file's)."""

    kind: Literal["setup"]
    provenance: Literal["exact", "partial", "reconstructed"]
    """How exact the values of this file are: exact, partial or reconstructed."""
    source: str
    """Where the values of this file come from: a RULES.md id or a COMPONENTS.md section."""
    start_holdings: Amounts
    """What every player holds at the start."""
    rows: list[Row]
    """The tile rows (face-up displays) and their sizes."""
    carry_limit: int = Field(ge=0)
    """Most resources of the carry group a player keeps at the end of their turn."""
    carry_group: Id
    """The resource group limited by `carry_limit`."""
    claim_kind: Id | None = None
    """The record kind players claim (each record once, for its `cost`), if any."""
    claim_right: Id | None = None
    """Resource spent, one per claim, to claim a record of the claim kind (on top of the record's cost)."""
    free_pieces: dict[Id, Count] = {}
    """Pieces each player has free after setup, by piece id (the others mark tracks and bonuses)."""
    extra_action_costs: list[Amounts] = Field(min_length=1)
    """Alternative payments for buying an extra action (how often a turn: the `limit` of the menu entry
    offering `buy_extra_action`)."""
    anytime_actions: list[AnytimeAction] = []
    """Actions on every turn's menu, usable any number of times (e.g. buying a move on a grid)."""


class Step(Model):
    min: int = Field(ge=0)
    """The smallest count this step applies to."""
    points: int
    """Points for a count in this step."""


class Table(Record):
    steps: list[Step] = Field(min_length=1)
    """Points for counts of at least `min` (the highest matching step applies)."""


class FinalStep(Record):
    effect: Effect
    """What this step does for each player."""


class ScoringFile(ContentFile):
    """Scoring tables, and the steps of final scoring in order."""

    kind: Literal["scoring"]
    tables: list[Table] = []
    """Scoring tables, usable in effects as `table(<id>, <count>)`."""
    final: list[FinalStep] = Field(min_length=1)
    """Final scoring steps, in order; every player completes a step before the next. The choices a step
    leads to (optional conversions) are made for the most points of the player who makes them."""


class Rank(Model):
    min: int = Field(ge=0)
    """The lowest score that earns this title."""
    title: str
    """The title."""


class SoloFile(ContentFile):
    """The solo game: the setup it borrows, which tile the dummy seat takes, and the score ladder."""

    kind: Literal["solo"]
    provenance: Literal["exact", "partial", "reconstructed"]
    """How exact the values of this file are: exact, partial or reconstructed."""
    source: str
    """Where the values of this file come from: a RULES.md id or a COMPONENTS.md section."""
    setup_as: PlayerCount
    """The player count whose setup solo uses."""
    dummy_takes: Literal["highest_position", "lowest_position"]
    """Which action tile the dummy seat takes: the one in the highest or the lowest frame position."""
    good_score: int = Field(ge=0)
    """The score the rulebook calls good."""
    ladder: list[Rank] = []
    """Titles by score, for reporting a solo result."""
