"""The value of a piece put on a space, for a pack on the generic core (docs/core.md §4).

A piece may declare a value (pack.yaml `pieces: [{id: ..., value: <expression>}]`, read for its
owner when it is put on a space: a die's value, a number); a menu entry that puts pieces may declare
a `boost` (what adding 1 costs: the notation's `boost <n>` pays it n times and adds n); a space may
add a `value_bonus` (an expression: a permanent modifier the content keeps as a number the player
holds) and require a `min_value`. The sum is the placed piece's value, which the space's programs
(`requires`, `cost`, `occupied_cost`, `effect`) read as the name `value`: it travels in their frames'
event parameters under ``PLACED_VALUE``, so the bodies those programs start (`for each`, `as owner`,
`if`, `choose`) read it too. Elsewhere `value` is 0.
"""

from __future__ import annotations

from interpreter.errors import RulesError
from interpreter.runtime import spaces as SP
from interpreter.runtime.state import Frame
from interpreter.runtime.view import PLACED_VALUE, View

__all__ = ["PLACED_VALUE", "boosts", "placement", "value_of", "check_value", "pay_boost"]


def _pieces(rules) -> dict[str, tuple[str | None, bool]]:
    """Piece id -> (the program key of its value, or None; whether it is coloured)."""
    def make():
        keys = rules.keys
        return {p.id: (f"pack/pieces/{p.id}/value" if f"pack/pieces/{p.id}/value" in keys else None, p.coloured)
                for p in rules.ruleset.single("pack").pieces}
    return rules.tables.once(("placing", "pieces"), make)


def placement(rules, seat: int, piece: str) -> SP.Placement:
    """The seat's piece as it sits on a space (a neutral piece is not coloured)."""
    return SP.Placement(seat, piece, _pieces(rules).get(piece, (None, True))[1])


def boosts(rules, state, entry, seat: int) -> range | tuple[int]:
    """The boosts the seat may name with the entry: 0 (none), then 1 up to as many as its holdings
    pay for (the other costs of the action are checked when it is tried)."""
    if entry.boost is None:
        return (0,)
    view = View(rules.tables, state, seat, Frame("", [], 0, seat, entry.id))
    most = None
    for resource, fn in rules.tables.programs[entry.boost]:
        n = fn(view, None)
        if n > 0:
            times = view.holding(resource) // n
            most = times if most is None else min(most, times)
    return range(0, (most or 0) + 1)


def value_of(rules, state, seat: int, piece: str | None, space: str, this, programs, boost: int) -> int:
    """What the seat's piece is worth on the space: its own value (read now, for the seat; no piece, as a
    visit has: 0), the boost and the space's bonus."""
    view = View(rules.tables, state, seat, Frame("", [], 0, seat, space, this))
    key = _pieces(rules).get(piece, (None, True))[0]
    value = rules.tables.programs[key](view, None) if key else 0
    if programs.value_bonus:
        value += rules.tables.programs[programs.value_bonus](view, None)
    return value + boost


def check_value(programs, space: str, value: int) -> None:
    if programs.min_value is not None and value < programs.min_value:
        raise RulesError(f"space {space!r} needs a piece worth {programs.min_value}; this one is worth {value}")


def pay_boost(rules, state, acting: Frame, entry, boost: int) -> None:
    """Pay the entry's boost ``boost`` times, for the acting frame's player."""
    if boost and entry.boost is None:
        raise RulesError(f"{entry.spec.verb!r} takes no boost")
    amounts = rules.tables.programs[entry.boost] if boost else None
    for _ in range(boost):
        rules.machine._pay(state, acting, amounts)
