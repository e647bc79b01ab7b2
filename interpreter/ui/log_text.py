"""What a step of a game did, in words, for a log: the action said with the records' names (a decision's
choice by the option it chose), and what changed for the players (points, holdings, tracks)."""

from __future__ import annotations

from dataclasses import dataclass

from interpreter.runtime.notation import describe


@dataclass(frozen=True)
class Holdings:
    """What a log compares of a player before and after a step."""

    score: int
    holdings: dict
    tracks: dict
    breakdown: dict  # points by source


def snapshot(game) -> list[Holdings]:
    return [Holdings(p.score, dict(p.holdings), dict(p.tracks), dict(p.breakdown)) for p in game.state.players]


def changes(before: Holdings, after: Holdings, names, source=str, entries=(), said: str = "") -> list[str]:
    """A player's gains and losses between two snapshots, in words: "+2 points (<source>)", "+1 coin",
    "<track> +1"; ``source`` names a source of points (labels.Labels.source). With the step's payments and gains
    (``entries``, ledger.Entry of this player), each resource is said by what it was paid for or gained from
    ("-1 coin, +1 coin (<the bonus's name>)"), so a cost and a bonus that cancel out are both told; a source the
    action's words (``said``) already name is not repeated."""
    out = []
    if after.score != before.score:
        gained = {k: after.breakdown.get(k, 0) - before.breakdown.get(k, 0) for k in after.breakdown}
        whence = [source(k) for k, d in gained.items() if d]
        d = after.score - before.score
        out.append(f"{d:+d} point{'' if abs(d) == 1 else 's'}" + (f" ({', '.join(whence)})" if whence else ""))
    by_source: dict[tuple[str, str], int] = {}  # (resource, source) -> the net amount, in the order made
    for e in entries:
        by_source[(e.resource, e.source)] = by_source.get((e.resource, e.source), 0) + e.amount
    told: dict[str, int] = {}
    for (r, src), d in by_source.items():
        told[r] = told.get(r, 0) + d
        if d:
            whence = source(src) if src else ""
            shown = f" ({whence})" if whence and whence.lower() not in said.lower() else ""
            out.append(f"{'+' if d > 0 else '-'}{names.count(abs(d), r)}{shown}")
    for r in sorted(set(before.holdings) | set(after.holdings)):
        d = after.holdings.get(r, 0) - before.holdings.get(r, 0) - told.get(r, 0)  # what no entry tells
        if d:
            out.append(f"{'+' if d > 0 else '-'}{names.count(abs(d), r)}")
    for t in sorted(set(before.tracks) | set(after.tracks)):
        d = after.tracks.get(t, 0) - before.tracks.get(t, 0)
        if d:
            out.append(f"{names.of(t, 'track')} {d:+d}")
    return out


def step_text(said: str, seat: int, before: list[Holdings], after: list[Holdings], names, source=str,
              entries=()) -> str:
    """The action as said, then what it changed: the acting seat's gains first, then any other seat's
    (``entries``: the step's payments and gains, ledger.Entry)."""
    parts = []

    def of(i):
        return changes(before[i], after[i], names, source, [e for e in entries if e.seat == i], said)

    own = of(seat) if seat < len(before) else []
    if own:
        parts.append(", ".join(own))
    for i in range(min(len(before), len(after))):
        if i != seat:
            theirs = of(i)
            if theirs:
                parts.append(f"seat {i + 1}: " + ", ".join(theirs))
    return said + (f" ({'; '.join(parts)})" if parts else "")


def words_for(action: str, options, phrases, name=None) -> str:
    """notation.describe, or the notation itself when the options it reads do not fit the action."""
    try:
        return describe(action, options, phrases, name)
    except (ValueError, IndexError, TypeError):
        return action


def said(game, action: str, name) -> str:
    """The action in words, in the position it is about to be played in (a decision's options are read now)."""
    options = game.state.decision.options if game.state.decision else None
    return words_for(action, options, game.action_phrases(), name)


def apply_noted(game, action: str, seat: int) -> str:
    """Apply the action to the game (raises IllegalActionError, changing nothing) and say what it did."""
    from interpreter.content.labels import Labels

    labels = Labels.of(game.rules.ruleset)
    words = said(game, action, labels.name)
    held = snapshot(game)
    entries = game.apply_recorded(action)
    return step_text(words, seat, held, snapshot(game), game.rules.ruleset.names, labels.source, entries)
