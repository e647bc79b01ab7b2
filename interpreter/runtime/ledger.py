"""What each payment and gain of a step was, and on whose behalf: recorded only while a caller asks for it
(``recording``), for a log that tells a price and a bonus of the same resource apart where the step's net
change is nothing. A context variable, so games played at once in other threads (the server's) record
nothing here, and a game played without a recorder (bots, simulations) pays one lookup per payment or gain."""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    state: int  # id() of the state it was made on: the rules also try actions on copies, which are not the step's
    seat: int
    resource: str
    amount: int  # gained (> 0) or paid (< 0)
    source: str  # what it was paid for or gained from (a frame's source: a record, a board position...)


_ENTRIES: ContextVar[list[Entry] | None] = ContextVar("ledger", default=None)


def note(state, seat: int, resource: str, amount: int, source: str) -> None:
    entries = _ENTRIES.get()
    if entries is not None and amount:
        entries.append(Entry(id(state), seat, resource, amount, source))


@contextmanager
def recording():
    """The payments and gains made inside the block, in order."""
    entries: list[Entry] = []
    token = _ENTRIES.set(entries)
    try:
        yield entries
    finally:
        _ENTRIES.reset(token)
