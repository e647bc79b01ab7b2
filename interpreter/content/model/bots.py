"""Bot settings: the evaluation weights bots play by, kept in content so designers can tune them."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from interpreter.content.model.base import ContentFile, Id, Model, Record


class Weights(Model):
    """Values per unit of what a player has: the terms of an evaluation."""

    holdings: dict[Id, float] = {}
    """Resource id -> value of one held."""
    tracks: dict[Id, float] = {}
    """Track id -> value of each space the marker has advanced."""
    track_values: dict[Id, float] = {}
    """Track id -> value of each unit of the number printed on the marker's space (a track's `value`: what
    a producing track yields, a multiplier)."""
    grids: dict[Id, float] = {}
    """Grid id -> value of each row the marker has climbed."""
    owned: dict[Id, float] = {}
    """Record kind -> value of each record owned."""
    pieces_free: dict[Id, float] = {}
    """Piece id -> value of each free piece."""
    zones: dict[Id, float] = {}
    """Zone id -> value of each of the player's records in it: in their own zone of a zone declared
    `per: player` (cards in hand), in a shared zone those they own (their buildings laid on a road)."""
    records: dict[Id, float] = {}
    """Record id -> value of owning that record: for the components of one kind that are not worth alike
    (one permanent ability triggers far more often than another), beyond `owned`'s value per record of
    the kind. `tools/bench_bots.py worth` measures what each record's triggers gain in self-play."""


class Evaluation(Weights, Record):
    """A linear evaluation of a player's position: points, the points final scoring would add if the game
    ended now, and weighted holdings, track positions, rows on grids, owned records and free pieces, less
    `opponents` times the best other player's value. The `early` weights are added in proportion to the
    share of the game still to play (all of them at the start, none at the end): what a holding is worth
    for what it can still do, such as a track's production over the turns left."""

    points: float = 1.0
    """Weight of a point already scored."""
    final: float = 0.0
    """Weight of the points final scoring would add if the game ended now (tables, multipliers and
    conversions valued exactly, by running the scoring file's final steps on a copy). What a phase of the
    flow still to come scores (a report at the end of each period) is not among them: weight what it
    scores (the holding it converts) among the plain weights, which count to the end."""
    steps: float = Field(default=0.0, ge=0)
    """With `final`: how much of the way toward the next step of a stepped scoring table (or of a track's
    printed value) counts, times the share of the game left (at most all of it). 5 sets of a table that
    pays 10 for 4 and 18 for 6, halfway, count 10 with 0, and 10 + 8 x 1/2 x 1/2 = 12 with 1 at the middle
    of the game. The next step is worth working toward while there is time to reach it."""
    rewards_ahead: float = Field(default=0.0, ge=0)
    """How much the way toward the next reward printed on a track (a space's `on_reach`) counts, times the
    share of the game left: a marker 4 of the 5 spaces from a reward that gains a resource is worth 4/5 of
    that resource's weight (plus its `early` weight times the game left). The reward is priced by these
    weights from its text: resources gained, points scored and track advances with numbers written out;
    what else it does (a card drawn) counts for nothing."""
    bonuses: float = Field(default=0.0, ge=0)
    """How much the bonuses the player's actions carry count, times the share of the game left: the record
    on top of an action's hex gives its `bonus` every time that action is performed, so a bonus is worth
    its gains about as many times as the action will still be performed. Each bonus is priced by these
    weights from its text as `rewards_ahead` prices a reward (and its `early` weights times the game
    left); 8 counts it 8 times at the start, 4 at the middle of the game (8 x 1/2), none at the end."""
    occupying: float = Field(default=0.0, ge=0)
    """How much what the player's pieces on records' spaces will gain counts: a piece placed on a record
    (a worker on a building) is worth what the record's `occupying_program` gains its occupant when a
    later phase runs it, priced by these weights from its text as `rewards_ahead` prices a reward (and
    its `early` weights times the game left). Below 1 when the program may not run (a phase that runs
    only some of the records occupied); 0 counts a placed piece for nothing until its program has run."""
    occupying_program: Id | None = None
    """With `occupying`: the name of the records' program that pays their occupant (e.g. `primary`)."""
    bonus_prices: dict[Id, float] = {}
    """Resource id -> the price of one gained by a bonus, instead of its weights: a resource spent within
    the turn it is gained (one that pays for another action) weighs little held, yet one gained on every
    performance buys actions all game."""
    early: Weights = Weights()
    """Weights added in proportion to the share of the game left."""
    rounds: int | None = Field(default=None, ge=1)
    """How many rounds a game is expected to last, for the share of the game left when the flow ends on
    a condition rather than after a number of rounds."""
    opponents: float = Field(default=1.0, ge=0)
    """How much the best opponent's value counts against the player's own (0: play for oneself)."""

    @model_validator(mode="after")
    def _occupying_names_its_program(self):
        if self.occupying and not self.occupying_program:
            raise ValueError("occupying counts what a program of the occupied records gains: name it in occupying_program")
        return self


class BotsFile(ContentFile):
    """Settings of the bundled bots: evaluations by id and which one each bot uses by default."""

    kind: Literal["bots"]
    evaluations: list[Evaluation] = Field(min_length=1)
    """The evaluations bots can play by."""
    greedy: Id
    """The evaluation the greedy bot uses by default."""
    mcts: Id
    """The evaluation MCTS uses to score the end of a shortened playout."""
    planner: Id | None = None
    """The evaluation the planner bot (a search over the steps of the player's whole turn) uses by
    default; the greedy bot's when not given."""
    best: str | None = None
    """The bot spec `best` stands for in this pack: its strongest configuration, e.g. `planner:tuned`
    or `planner:tuned:8` (see `caput simulate --help`); `planner` when not given."""
