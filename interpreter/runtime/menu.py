"""The turn menu (docs/core.md §6): the entries a player may pick during a turn, their limits, what
each needs done first, and their notation.

An entry's condition, cost and effect are content programs the machine evaluates; this module
keeps the bookkeeping every pack shares: how often an entry was picked this turn, round and game
(``MenuLog``, a frozen value kept in the state), whether its limits and needs allow it, and the one
notation of an action: ``verb [argument] [payment]``, where the payment option is written ``<n>``
after a verb without argument (``buy extra 2``) and ``pay <n>`` after an argument
(``refresh row 1,2 pay 1``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, NamedTuple

from interpreter.errors import IllegalActionError, RulesError

SCOPES = ("turn", "round", "game")


@dataclass(frozen=True, slots=True)
class MenuEntry:
    verb: str  # the notation's first word or words
    argument: str | None = None  # where the argument comes from (a zone, a mechanism's offers); None: none
    payments: int = 0  # numbered payment options (the notation names the one used); 0: none to choose
    limit: int | None = None  # times it may be picked per `per`; None: no limit
    per: str = "turn"
    needs: tuple[str, ...] = ()  # verbs picked earlier this turn
    not_while: tuple[str, ...] = ()  # verbs that, while offered, hide this one (a required step first)
    ends_turn: bool = False
    passes: bool = False  # ends the player's part in the phase (implies ends_turn)
    boost: bool = False  # the argument may be followed by `boost <n>` (n >= 1: what is added to a placed piece)

    def __post_init__(self):
        if not self.verb or self.verb != self.verb.strip() or "  " in self.verb:
            raise ValueError(f"menu verb {self.verb!r} must be words separated by single spaces")
        if self.per not in SCOPES:
            raise ValueError(f"menu entry {self.verb!r}: per must be one of {SCOPES}")
        if self.limit is not None and self.limit < 1:
            raise ValueError(f"menu entry {self.verb!r}: a limit is at least 1")


class Choice(NamedTuple):
    """A parsed action: the entry, its argument and its payment option (1-based), if any."""

    entry: MenuEntry
    argument: str | None
    payment: int | None
    boost: int = 0  # `boost <n>` after the argument; 0 without


@dataclass(frozen=True, slots=True)
class MenuLog:
    """How often each verb was picked this turn (by the seat whose turn it is), and by each seat this
    round and this game (keys ``"<seat>:<verb>"``): a limit per round or per game is every player's own."""

    turn: tuple[tuple[str, int], ...] = ()
    round: tuple[tuple[str, int], ...] = ()
    game: tuple[tuple[str, int], ...] = ()

    def count(self, verb: str, per: str = "turn", seat: int = 0) -> int:
        return dict(getattr(self, per)).get(verb if per == "turn" else f"{seat}:{verb}", 0)


def check_menu(entries: Iterable[MenuEntry]) -> dict[str, MenuEntry]:
    """The entries by verb. Two entries with one verb would make the notation ambiguous, and a need
    or a wait naming no entry could never be met; both are refused. (A verb that begins another,
    `extra` and `buy extra`, is fine: `parse` takes the longest verb that starts the action.)"""
    by_verb: dict[str, MenuEntry] = {}
    for e in entries:
        if e.verb in by_verb:
            raise ValueError(f"two menu entries have the verb {e.verb!r}")
        by_verb[e.verb] = e
    for e in by_verb.values():
        for other in (*e.needs, *e.not_while):
            if other not in by_verb:
                raise ValueError(f"menu entry {e.verb!r} names an unknown verb {other!r}")
    return by_verb


def notation(entry: MenuEntry, argument: str | None = None, payment: int | None = None, boost: int = 0) -> str:
    if (argument is None) != (entry.argument is None):
        raise RulesError(f"{entry.verb!r} takes {'an argument' if entry.argument else 'no argument'}")
    if (payment is None) != (entry.payments == 0):
        raise RulesError(f"{entry.verb!r} has {entry.payments} payment options")
    text = entry.verb if argument is None else f"{entry.verb} {argument}"
    if boost:
        if not entry.boost or argument is None:
            raise RulesError(f"{entry.verb!r} takes no boost")
        text += f" boost {boost}"
    if payment is not None:
        text += f" pay {payment}" if argument is not None else f" {payment}"
    return text


def parse(by_verb: Mapping[str, MenuEntry], action: str) -> Choice:
    """Read an action in the notation; the longest verb that starts it wins."""
    words = action.split()
    for n in range(len(words), 0, -1):
        entry = by_verb.get(" ".join(words[:n]))
        if entry is None:
            continue
        rest = words[n:]
        payment = None
        if entry.payments:
            if entry.argument is not None and len(rest) >= 2 and rest[-2] == "pay":
                payment, rest = rest[-1], rest[:-2]
            elif entry.argument is None and len(rest) == 1:
                payment, rest = rest[0], []
            if payment is None or not payment.isdigit() or not 1 <= int(payment) <= entry.payments:
                raise IllegalActionError(action, f"name a payment option 1..{entry.payments}")
            payment = int(payment)
        boost = 0
        if entry.boost and len(rest) >= 3 and rest[-2] == "boost":  # `<argument> boost <n>`
            if not rest[-1].isdigit() or int(rest[-1]) < 1 or rest[-1] != str(int(rest[-1])):
                raise IllegalActionError(action, "boost by a number from 1")
            boost, rest = int(rest[-1]), rest[:-2]
        if (entry.argument is None) != (not rest):
            raise IllegalActionError(action, f"{entry.verb!r} takes {'an argument' if entry.argument else 'no argument'}")
        return Choice(entry, " ".join(rest) or None, payment, boost)
    raise IllegalActionError(action, "no menu entry starts with this")


def allowed(entry: MenuEntry, log: MenuLog, seat: int = 0) -> bool:
    """Whether the entry's limit and needs let the seat pick it now (its condition and cost aside)."""
    if entry.limit is not None and log.count(entry.verb, entry.per, seat) >= entry.limit:
        return False
    return all(log.count(v) for v in entry.needs)


def hidden(entry: MenuEntry, offered_verbs: set[str]) -> bool:
    """An entry waits while a verb it must not precede is on offer (e.g. ending before the required action)."""
    return any(v in offered_verbs for v in entry.not_while)


def record(log: MenuLog, entry: MenuEntry, seat: int = 0) -> MenuLog:
    def bump(counts, key):  # the counts stay sorted by key
        for i, (k, n) in enumerate(counts):
            if k == key:
                return (*counts[:i], (k, n + 1), *counts[i + 1:])
        return tuple(sorted((*counts, (key, 1))))

    seats_own = f"{seat}:{entry.verb}"
    return MenuLog(bump(log.turn, entry.verb), bump(log.round, seats_own), bump(log.game, seats_own))


def picks_key(verb: str) -> str:
    """Where a game whose turn is a record of its own (a turn of offers, runtime/turn.py) counts a
    limited entry's picks this turn: that record goes with the turn, so a limit per turn costs one
    look-up and nothing to reset; limits per round or game are counted in the menu log."""
    return "picks:" + verb


def new_turn(log: MenuLog) -> MenuLog:
    return MenuLog((), log.round, log.game) if log.turn else log  # at every turn: no dataclasses.replace


def new_round(log: MenuLog) -> MenuLog:
    return MenuLog((), (), log.game) if log.turn or log.round else log
