"""What a record with a trigger (a permanent ability) gains its owner, measured by games, for the `records`
weights of an evaluation (bots.Evaluation).

An evaluation prices what a player holds by kind: every technology held alike. Yet one permanent ability
fires on an event its owner makes every turn and another on a rare one; when a player keeps one of the
records drawn, the kind's weight cannot tell them apart. Here each record whose program has triggers is
measured in the records of simulated games (simulate.play_game): the points it scored its owner (the
score's breakdown by source) and the resources its programs gained and paid them (the game's ledger, by
source), per whole game held (over the share of the game from the turn it was gained to the end), priced
by the evaluation's weights (a point by `points`; a resource by its `holdings` weight, and its `early` one
at the middle of the time held). That is the value of holding it the whole game: the `early` weight of the
record, counted times the share of the game left.

Records dealt into one zone are offered together (drawn from one stack), so what tells them apart is their
worth less the mean of their zone (`relative`): those weights change which record is kept and leave what
drawing one is worth to the kind's weights, which were tuned with the rest.

What is measured is what the record's own programs scored and gained, not what the game gained by it: the
steps that set it off might have scored otherwise. In the bundled solo game, weights made from it raised
the technologies' points from 9.6 to 13.8 a game, and not the scores (README, Bots and simulation).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from interpreter.runtime import zones as Z


@dataclass(frozen=True)
class RecordWorth:
    record: str
    zone: str  # the zone it is dealt into at the start of a game ("" if none): the records offered with it
    games: int  # games in which a seat held it
    share_held: float  # the mean share of those games it was held
    points: float  # points it scored its owner, per whole game held
    gains: dict[str, float]  # resource -> net amount its programs gained its owner, per whole game held
    worth: float  # their value by the evaluation's weights: the value of holding it the whole game
    relative: float  # worth less the mean worth of the measured records of its zone


def dealt_from(state) -> dict[str, str]:
    """Record id -> the zone it lies in at the start of a game (``state`` a new game's)."""
    return {rid: zone for zone, held in state.zones.items() for rid in Z.records(held)}


def record_worths(records: list[dict], tables, evaluation, zones: dict[str, str]) -> list[RecordWorth]:
    """The worth of each record with triggers that some seat held in ``records`` (simulated games: their
    `breakdown`, `gains` and `acquired`), by ``evaluation``'s weights; ``zones`` from ``dealt_from``."""
    listening = {rid for _, rid in tables.triggers}
    shares: dict[str, list[float]] = {}
    points: dict[str, int] = {}
    gains: dict[str, dict[str, int]] = {}
    for r in records:
        turns = max(r["turns"], 1)
        for seat, gained in enumerate(r["acquired"]):
            for owned, turn in gained.items():
                rid = owned.split(":", 1)[1]
                if rid not in listening:
                    continue
                shares.setdefault(rid, []).append(max(0, turns - turn) / turns)
                points[rid] = points.get(rid, 0) + r["breakdown"][seat].get(rid, 0)
                total = gains.setdefault(rid, {})
                for resource, n in r["gains"][seat].get(rid, {}).items():
                    total[resource] = total.get(resource, 0) + n
    plain, later = evaluation.holdings, evaluation.early.get("holdings", {})
    measured = []
    for rid, held in shares.items():
        whole = sum(held) or 1.0  # whole games held, in all (a record gained at the very end: its gains as they are)
        share = sum(held) / len(held)
        per_game = {resource: n / whole for resource, n in gains[rid].items()}
        scored = points[rid] / whole
        worth = evaluation.points * scored + sum(
            n * (plain.get(resource, 0.0) + share / 2 * later.get(resource, 0.0)) for resource, n in per_game.items())
        measured.append(RecordWorth(rid, zones.get(rid, ""), len(held), share, scored, per_game, worth, 0.0))
    in_zone: dict[str, list[float]] = {}
    for w in measured:
        in_zone.setdefault(w.zone, []).append(w.worth)
    rows = [replace(w, relative=w.worth - sum(in_zone[w.zone]) / len(in_zone[w.zone])) for w in measured]
    return sorted(rows, key=lambda w: (w.zone, -w.worth))
