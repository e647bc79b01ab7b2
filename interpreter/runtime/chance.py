"""Chance nodes (DESIGN.md §4, OpenSpiel style): declared outcomes with probabilities, resolved from
the state's seeded generator.

A ``Die`` is a chance node with equally likely faces (or weighted outcomes); ``roll`` draws one
outcome from a ``random.Random`` in one call, so a game stays a pure function of its seed and a
replay draws the same outcomes. ``distribution`` gives bots the outcomes and their probabilities,
so a search can sample or enumerate them instead of trusting the generator.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Die:
    id: str
    outcomes: tuple[int, ...]  # the faces' values, e.g. (1, 2, 3, 4, 5, 6)
    weights: tuple[int, ...] = ()  # one per outcome; (): equally likely

    def __post_init__(self):
        if not self.outcomes:
            raise ValueError(f"die {self.id!r} has no faces")
        if self.weights and (len(self.weights) != len(self.outcomes) or min(self.weights) < 1):
            raise ValueError(f"die {self.id!r}: one positive weight per face")

    @staticmethod
    def faces(die_id: str, n: int) -> "Die":
        """A fair die numbered 1..n."""
        return Die(die_id, tuple(range(1, n + 1)))


def distribution(die: Die) -> tuple[tuple[int, Fraction], ...]:
    """Every outcome with its exact probability; the same outcome on two faces is summed."""
    weights = die.weights or (1,) * len(die.outcomes)
    total = sum(weights)
    merged: dict[int, int] = {}
    for value, w in zip(die.outcomes, weights):
        merged[value] = merged.get(value, 0) + w
    return tuple((value, Fraction(w, total)) for value, w in merged.items())


def roll(die: Die, rng: random.Random) -> int:
    """One outcome, drawn with one call to the generator."""
    if not die.weights:
        return die.outcomes[rng.randrange(len(die.outcomes))]
    return rng.choices(die.outcomes, weights=die.weights, k=1)[0]


def roll_all(dice: tuple[Die, ...], rng: random.Random) -> dict[str, int]:
    """Several dice at once, in their declared order (the order fixes which draw each gets)."""
    return {d.id: roll(d, rng) for d in dice}


def generator(saved: list) -> random.Random:
    """The generator a state saved (``GameState.rng``, as ``saved_state`` writes it); a state that saved
    none (one built without the setup) draws as seed 0 does, so it is still a pure function of itself."""
    rng = random.Random(0)
    if saved:
        version, internal, gauss = saved
        rng.setstate((version, tuple(internal), gauss))
    return rng


def saved_state(rng: random.Random) -> list:
    """The generator's state as plain data (JSON-friendly), for ``GameState.rng``."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def shuffle(items: list, rng: random.Random) -> None:
    """``rng.shuffle(items)``: the same order from the same draws (Fisher-Yates from the end, each
    index drawn as ``random.Random._randbelow`` draws it), without a Python call per item; a search
    reshuffles every hidden zone at every determinization. Any other generator (a subclass, which may
    draw otherwise) shuffles itself."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]

