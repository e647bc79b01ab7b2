"""Bot settings: the evaluation weights bots play by, kept in content so designers can tune them."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from interpreter.content.model.base import ContentFile, Id, Record


class Evaluation(Record):
    """A linear evaluation of a player's position: points plus weighted holdings, track positions, rows on
    grids, owned records and free pieces, less `opponents` times the best other player's value."""

    points: float = 1.0
    """Weight of a point already scored."""
    holdings: dict[Id, float] = {}
    """Resource id -> value of one held."""
    tracks: dict[Id, float] = {}
    """Track id -> value of each space the marker has advanced."""
    grids: dict[Id, float] = {}
    """Grid id -> value of each row the marker has climbed."""
    owned: dict[Id, float] = {}
    """Record kind -> value of each record owned."""
    pieces_free: dict[Id, float] = {}
    """Piece id -> value of each free piece."""
    zones: dict[Id, float] = {}
    """Zone id -> value of each of the player's records in it: in their own zone of a zone declared
    `per: player` (cards in hand), in a shared zone those they own (their buildings laid on a road)."""
    opponents: float = Field(default=1.0, ge=0)
    """How much the best opponent's value counts against the player's own (0: play for oneself)."""


class BotsFile(ContentFile):
    """Settings of the bundled bots: evaluations by id and which one each bot uses by default."""

    kind: Literal["bots"]
    evaluations: list[Evaluation] = Field(min_length=1)
    """The evaluations bots can play by."""
    greedy: Id
    """The evaluation the greedy bot uses by default."""
    mcts: Id
    """The evaluation MCTS uses to score the end of a shortened playout."""
