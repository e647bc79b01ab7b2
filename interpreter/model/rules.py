"""Setup, era schedule, scoring tables, final scoring order and solo."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Amounts, ContentFile, Effect, Expr, Id, Model, PlayerCount, Record


class Row(Model):
    kind: Id
    """Tile kind shown in this row."""
    regular: int = Field(ge=0)
    special: int = Field(ge=0)
    refresh_cost: list[Amounts] = []
    """Alternative costs of refreshing the row (pay one)."""


class EraChange(Model):
    players: PlayerCount
    after_turn: int = Field(ge=1)


class PlayerSetup(Model):
    players: PlayerCount
    seats: int = Field(ge=1)
    dummy: bool = False
    """A non-scoring automatic seat fills the table (solo)."""


class TrackStart(Model):
    track: Id
    at: int = Field(ge=0)


class SetupFile(ContentFile):
    kind: Literal["setup"]
    provenance: Literal["exact", "partial", "reconstructed"]
    source: str
    turns_per_seat: int = Field(ge=1)
    seatings: list[PlayerSetup]
    start_holdings: Amounts
    era_changes: list[EraChange]
    rows: list[Row]
    carry_limit: int = Field(ge=0)
    """Most resources of the carry group a player keeps at the end of their turn."""
    carry_group: Id
    extra_action_costs: list[Amounts] = Field(min_length=1)
    """Alternative payments for the one extra action per turn."""


class Step(Model):
    min: int = Field(ge=0)
    points: int


class Table(Record):
    steps: list[Step] = Field(min_length=1)
    """Points for counts of at least `min` (the highest matching step applies)."""


class FinalStep(Record):
    effect: Effect


class ScoringFile(ContentFile):
    kind: Literal["scoring"]
    tables: list[Table]
    final: list[FinalStep] = Field(min_length=1)
    """Final scoring steps, in order; every player completes a step before the next."""


class Rank(Model):
    min: int = Field(ge=0)
    title: str


class SoloFile(ContentFile):
    kind: Literal["solo"]
    provenance: Literal["exact", "partial", "reconstructed"]
    source: str
    setup_as: PlayerCount
    """The player count whose setup solo uses."""
    dummy_takes: Literal["highest_position", "lowest_position"]
    good_score: int = Field(ge=0)
    ladder: list[Rank] = []
