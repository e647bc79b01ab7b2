"""Records that carry effects: technologies, plazas, seals, production tokens, wealth bonuses."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Amounts, Condition, ContentFile, Effect, Id, Record


class Technology(Record):
    level: int = Field(ge=1, le=9)
    stack: Id
    """The stack this tile is shuffled into."""
    use: Literal["permanent", "one_shot"]
    """permanent: its triggers act from the owner's next turn; one_shot: used once in any own turn, then discarded."""
    effect: Effect


class TechnologiesFile(ContentFile):
    kind: Literal["technologies"]
    technologies: list[Technology]


class Plaza(Record):
    upper: list[Effect] = Field(min_length=2, max_length=2)
    """The two upper rewards: the majority gains both, other claimants one of their choice."""
    lower: Effect
    """The lower reward, gained by every claimant of a plaza still open at game end."""
    colour: Id | None = None


class PlazasFile(ContentFile):
    kind: Literal["plazas"]
    plazas: list[Plaza]


class Seal(Record):
    cost: Amounts | None = None
    """Paid when claiming the seal; none when nothing is printed."""
    scoring: Effect
    """Applied in final scoring."""


class SealsFile(ContentFile):
    kind: Literal["seals"]
    seals: list[Seal]


class ProductionToken(Record):
    bonus: Effect
    """Gained every time its track produces."""
    from_players: int = Field(ge=1, le=8)
    """The token is in play for this player count and above."""


class ProductionTokensFile(ContentFile):
    kind: Literal["production_tokens"]
    pool: Id
    """The stack (pool) the tokens lie in."""
    tokens: list[ProductionToken]


class WealthBonus(Record):
    when: Condition
    """Reached the first time this holds after a gain."""
    reward: Effect
    piece: Id | None = None
    """Piece marking the bonus; it becomes free when the bonus is taken."""


class WealthBonusesFile(ContentFile):
    kind: Literal["wealth_bonuses"]
    bonuses: list[WealthBonus]
