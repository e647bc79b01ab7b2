"""The turn schedule: seats, rounds, the era change and the last turn (R-ROUND-1..2, R-ERA-1, R-END-1).

Turns are numbered 1..total over the whole game, every seat's turns counted, dummy seats
included (R-SOLO-3). Seats are numbered from 1 (the starting seat); a round is one turn of every
seat in seat order. Seats after the first `players` ones are dummy seats.
"""

from __future__ import annotations

from dataclasses import dataclass

from interpreter.errors import RulesError


@dataclass(frozen=True, slots=True)
class Schedule:
    players: int
    seats: int
    turns_per_seat: int
    era_change: int | None  # the era changes after this turn; None: a single era


def build_schedule(model, players: int) -> Schedule:
    """The schedule of a game for a player count, from a validated flow content model (`FlowFile`):
    its rounds of one phase of turns, its seatings (one seat per player when it has none) and eras."""
    seating = next((s for s in model.seatings if s.players == players), None)
    if seating is None and model.seatings:
        raise RulesError(f"the flow has no seating for {players} players")
    if model.rounds is None:
        raise RulesError("a schedule of turns needs the flow's number of rounds")
    turns_each = sum(p.turns_each for p in model.phases if p.kind == "turns")
    change = next((e.after_turn for e in model.era_changes if e.players == players), None)
    schedule = Schedule(players, seating.seats if seating else players, model.rounds * turns_each, change)
    # A change after the last turn would never happen: a content error worth stopping for.
    if change is not None and change >= total_turns(schedule):
        raise RulesError(f"{players} players: the era change after turn {change} is not before the last turn")
    return schedule


def total_turns(schedule: Schedule) -> int:
    return schedule.seats * schedule.turns_per_seat


def seat_of(schedule: Schedule, turn: int) -> int:
    return (_checked(schedule, turn) - 1) % schedule.seats + 1


def round_of(schedule: Schedule, turn: int) -> int:
    return (_checked(schedule, turn) - 1) // schedule.seats + 1


def era_of(schedule: Schedule, turn: int) -> int:
    """Era 1 up to and including the era-change turn, era 2 after it."""
    _checked(schedule, turn)
    return 1 if schedule.era_change is None or turn <= schedule.era_change else 2


def is_era_change(schedule: Schedule, turn: int) -> bool:
    """The era changes at the end of this turn (R-EOT-4: after the crane, before the game-end check)."""
    return _checked(schedule, turn) == schedule.era_change


def is_last_turn(schedule: Schedule, turn: int) -> bool:
    return _checked(schedule, turn) == total_turns(schedule)


def is_dummy_seat(schedule: Schedule, seat: int) -> bool:
    return seat > schedule.players


def turns_left(schedule: Schedule, seat: int, after_turn: int) -> int:
    """Turns the seat still takes once `after_turn` has ended (0 <= after_turn <= total)."""
    if not 0 <= after_turn <= total_turns(schedule) or not 1 <= seat <= schedule.seats:
        raise RulesError(f"no seat {seat} or turn {after_turn} in a {schedule.seats}-seat game")
    taken = after_turn // schedule.seats + (1 if seat <= after_turn % schedule.seats else 0)
    return schedule.turns_per_seat - taken


def _checked(schedule: Schedule, turn: int) -> int:
    if not 1 <= turn <= total_turns(schedule):
        raise RulesError(f"turn {turn} is outside 1..{total_turns(schedule)}")
    return turn
