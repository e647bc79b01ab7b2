"""Records that carry effects: technologies, plazas, seals, production tokens, wealth bonuses."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from interpreter.content.model.base import Amounts, Condition, ContentFile, Effect, Id, Record


class Technology(Record):
    level: int = Field(ge=1, le=9)
    """Level of the tile (1 for I, 2 for II, ...)."""
    stack: Id
    """The stack this tile is shuffled into."""
    use: Literal["permanent", "one_shot"]
    """permanent: its triggers act from the owner's next turn; one_shot: used once in any own turn, then discarded."""
    effect: Effect
    """What the tile does: usually triggers for a permanent tile, an immediate effect for a one-shot tile."""


class TechnologiesFile(ContentFile):
    """Technology tiles, drawn from stacks by level; each is permanent or one-shot."""

    kind: Literal["technologies"]
    technologies: list[Technology]
    """Every technology tile."""


class Plaza(Record):
    upper: Effect
    """The upper half's reward (it may offer a choice, e.g. a sideways move on either project)."""
    lower: Effect
    """The lower half's reward. On enclosure the majority gains both halves and every other claimant
    one half of their choice; at game end every claimant of a plaza still open gains the lower half."""
    colour: Id | None = None
    """Optional colour of the plaza tile, usable in conditions as a colour name; none when it has no colour."""


class PlazasFile(ContentFile):
    """Plaza tiles: upper rewards for claimants when the plaza is enclosed, a lower reward for claimants of a plaza still open at game end."""

    kind: Literal["plazas"]
    plazas: list[Plaza]
    """Every plaza tile."""


class Seal(Record):
    cost: Amounts | None = None
    """Paid when claiming the seal; none when nothing is printed."""
    scoring: Effect
    """Applied in final scoring."""


class SealsFile(ContentFile):
    """Seals: claimed during the game, scored at game end."""

    kind: Literal["seals"]
    seals: list[Seal]
    """Every seal."""


class ProductionToken(Record):
    bonus: Effect
    """Gained every time its track produces."""
    from_players: int = Field(ge=1, le=8)
    """The token is in play for this player count and above."""


class ProductionTokensFile(ContentFile):
    """Production tokens: taken from a pool onto a track; each pays its bonus whenever that track produces."""

    kind: Literal["production_tokens"]
    pool: Id
    """The stack (pool) the tokens lie in."""
    tokens: list[ProductionToken]
    """Every production token."""


class WealthBonus(Record):
    when: Condition
    """Reached the first time this holds after a gain."""
    reward: Effect
    """Gained when the bonus is reached."""
    piece: Id | None = None
    """Piece marking the bonus; it becomes free when the bonus is taken."""


class WealthBonusesFile(ContentFile):
    """One-time bonuses a player gains the first time a condition on their holdings holds."""

    kind: Literal["wealth_bonuses"]
    bonuses: list[WealthBonus]
    """The one-time wealth bonuses every player has."""
