"""Why an entry of the turn menu offers nothing now: what a player asks when an action they expected is not
in the list. Each entry of the phase's menu with no legal action gets the first reason that holds, tested in
the order the rules test them (core_game.candidates): its limit, what it needs done first, an entry it must
not precede while that is on offer, its argument (no free piece, no open space, an empty zone), its
condition, its cost; else none of its choices can be carried out to its end (a decision it leads to cannot
be answered, say). The turn offers of a pack whose turns are offers have their own (unavailable_offers.py).
Conditions and costs are said in English from the content (dsl.english)."""

from __future__ import annotations

from dataclasses import dataclass

from interpreter.dsl.english import to_english
from interpreter.runtime import menu as M
from interpreter.runtime.core_game import arguments, menu_entries, this_of
from interpreter.runtime.state import Frame
from interpreter.runtime.view import View


@dataclass(frozen=True)
class Unavailable:
    """A menu entry offering nothing now, and why, in words."""

    verb: str
    name: str
    reason: str


def unavailable(game, legal: list[str]) -> list[Unavailable]:
    """The entries of the current menu that none of the ``legal`` actions (the game's, now) starts with,
    each with its reason; empty while a decision is pending or the game is over."""
    s, rules = game.state, game.rules
    if s.decision is not None or game.is_terminal():
        return []
    if rules.uses_offers:
        return _offers(rules, s, legal)
    entries = menu_entries(rules, s)
    offered = {e.spec.verb for e in entries if any(a == e.spec.verb or a.startswith(e.spec.verb + " ") for a in legal)}
    names = {e.spec.verb: _name(rules, e) for e in entries}
    out = []
    for entry in entries:
        if entry.spec.verb not in offered:
            out.append(Unavailable(entry.spec.verb, names[entry.spec.verb], _reason(rules, s, entry, offered, names)))
    return out


def _offers(rules, s, legal: list[str]) -> list[Unavailable]:
    """The turn offers of the menu none of the legal actions starts with (the carry-limit discard, offered
    only at the end of a turn, is not one a player looks for)."""
    from interpreter.runtime import unavailable_offers as O

    if s.turn_info.get("discarding"):
        return []
    out = []
    for entry in rules.turn_menu:
        if entry.offer == "discard_over_limit" or any(a == entry.verb or a.startswith(entry.verb + " ") for a in legal):
            continue
        out.append(Unavailable(entry.verb, O.entry_name(entry), O.reason(rules, s, entry, lambda k: _words(rules, k))))
    return out


def _name(rules, entry) -> str:
    for menu in rules.model.menus:
        for e in menu.entries:
            if e.id == entry.id and e.name:
                return e.name
    return entry.spec.verb


def _words(rules, key: str) -> str:
    field = next((f for f in rules.ruleset.fields if f.key == key), None)
    return to_english(field.ast, rules.ruleset.names) if field is not None else key


def _reason(rules, s, entry, offered: set[str], names: dict[str, str]) -> str:
    spec, seat = entry.spec, s.current
    log = s.menu or M.MenuLog()
    if spec.limit is not None and log.count(spec.verb, spec.per, seat) >= spec.limit:
        times = "once" if spec.limit == 1 else f"{spec.limit} times"
        return f"done already: {times} a {spec.per}"
    missing = [names.get(v, v) for v in spec.needs if not log.count(v)]
    if missing:
        return f"only after: {', '.join(missing)}"
    before = [names.get(v, v) for v in spec.not_while if v in offered]
    if before:
        return f"not while you can still: {', '.join(before)}"
    choices = arguments(rules, s, entry, seat)
    if not choices:
        return _no_argument(rules, s, entry, seat)
    views = [View(rules.tables, s, seat, Frame("", [], 0, seat, entry.id, this_of(rules, entry, a))) for a in choices]
    if entry.condition:
        condition = rules.tables.programs[entry.condition]
        views = [v for v in views if condition(v, None)]
        if not views:
            return f"it needs {_words(rules, entry.condition)}"
    if entry.cost and not any(rules.machine._can_pay(v, rules.tables.programs[entry.cost]) for v in views):
        return f"you cannot pay {_words(rules, entry.cost)}"
    if entry.payments and not any(rules.machine._can_pay(v, rules.tables.programs[k]) for v in views for k in entry.payments):
        return "you cannot make any of its payments: " + " or ".join(_words(rules, k) for k in entry.payments)
    return "none of its choices can be carried out to its end now"


def _no_argument(rules, s, entry, seat: int) -> str:
    names = rules.ruleset.names
    if entry.source == "spaces":
        piece = names.of(entry.piece)
        if s.players[seat].pieces_free.get(entry.piece, 0) < 1:
            return f"you have no {piece} left to place"
        return f"no space is open to your {piece}"
    return f"there is nothing to choose from: {names.of(entry.source)} is empty"
