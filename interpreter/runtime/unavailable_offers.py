"""Why a turn offer of the mechanisms library (content/turn_offers.py) offers nothing now: the reasons of
unavailable.py for a pack whose turns are offers. Each offer's reasons are the tests its maker makes
(legal.py), said in words: the entry's limit and condition, the turn record's keys it needs or that block it
(an offer of the wheel taken, the main action done, an extra action bought), then what it would have to pay
for (its prices in the content's English) or have (a claim right)."""

from __future__ import annotations

import re

from interpreter.content.turn_offers import TURN_OFFERS
from interpreter.runtime import menu as M

# a key of the turn record -> why an offer that needs it set offers nothing, and why one it blocks does not
_NEEDS = {"tile": "take an offer of the wheel first", "bonus_key": "the slot of the tile taken has no bonus",
          "extras": "buy an extra action first", "later": "nothing waits to be resolved",
          "discarding": "only at the end of a turn over the carry limit"}
_BLOCKS = {"tile": "an offer of the wheel is taken this turn", "main_done": "the main action is done",
           "bonus_used": "the bonus is used"}


# how an offer whose entry has no `name:` is called when its argument is left out
_CALLED = {"main_action": "perform the main action", "extra_action": "perform the extra action",
           "resolve_waiting": "resolve a waiting effect now", "anytime": "an any-time action",
           "use_once": "use a single-use record", "take_offer": "take an offer of the wheel"}
# the turn record's keys an offer's maker also needs, tested before its own gate
_ALSO_NEEDS = {"offer_bonus": "tile"}


def entry_name(entry) -> str:
    """The entry's `name:`, else the offer's own words without their argument ("buy the extra action")."""
    if entry.name:
        return entry.name
    if entry.offer in _CALLED:
        return _CALLED[entry.offer]
    said = TURN_OFFERS.get(entry.offer, ("", "", entry.verb))[2]
    return re.sub(r"\s*\([^()]*\{arg\}[^()]*\)|\s*\{arg\}", "", said).strip() or entry.verb


def reason(rules, state, entry, words) -> str:
    """Why ``entry`` (rules.OfferEntry) offers nothing in ``state``; ``words(key)``: a program in English."""
    from interpreter.runtime.legal import offer_maker
    from interpreter.runtime.turn import condition_holds

    info, seat = state.turn_info, state.current
    if entry.limit is not None:
        limit = entry.limit.limit
        done = (info.get(M.picks_key(entry.verb), 0) if entry.limit.per == "turn"
                else (state.menu or M.MenuLog()).count(entry.verb, entry.limit.per, seat))
        if done >= limit:
            return f"done already: {'once' if limit == 1 else f'{limit} times'} a {entry.limit.per}"
    _, needs, blocks = offer_maker(entry.offer)
    also = _ALSO_NEEDS.get(entry.offer)
    if also is not None and not info.get(also):
        return _NEEDS[also]
    if needs is not None and not info.get(needs):
        return _NEEDS.get(needs, f"only after {needs.replace('_', ' ')}")
    if blocks is not None and info.get(blocks):
        return _BLOCKS.get(blocks, f"not after {blocks.replace('_', ' ')}")
    if entry.condition is not None and not condition_holds(rules, state, entry.condition):
        return f"it needs {words(entry.condition)}"
    if entry.offer in _FIXED:
        return _FIXED[entry.offer]
    return _OFFER_REASONS.get(entry.offer, _nothing)(rules, state, words)


def _nothing(rules, state, words) -> str:
    return "none of its choices can be carried out now"


def _prices(keys, words) -> str:
    return " or ".join(dict.fromkeys(words(k) for k in keys))  # each price once


def _extra(rules, state, words) -> str:
    keys = [f"setup/extra_action_costs/{i}" for i in range(len(rules.setup.extra_action_costs))]
    return f"you cannot pay {_prices(keys, words)}" if keys else "no action can be performed as the extra action now"


def _refresh(rules, state, words) -> str:
    keys = [f"setup/rows/{ri}/refresh_cost/{n}" for ri, row in enumerate(rules.setup.rows)
            for n in range(len(row.refresh_cost))]
    return f"you cannot pay {_prices(keys, words)}" if keys else _nothing(rules, state, words)


def _claim(rules, state, words) -> str:
    right, kind = rules.claim_right, rules.setup.claim_kind
    names = rules.ruleset.names
    if right is None or state.players[state.current].holdings.get(right, 0) < 1:
        return f"you have no {names.of(right or 'claim right')}"
    claimed = set(state.table.get("claimed", {}).values())
    if all(rid in claimed for (k, rid) in rules.tables.records if k == kind):
        return f"every {names.of(kind)} is claimed"
    return f"you cannot pay the cost of any {names.of(kind)} left"


# an offer -> why it offers nothing once its gates are passed: the same whatever the state, or worked out
_FIXED = {"take_offer": "no offer of the wheel can be paid for and then used",
          "main_action": "no action the tile taken shows can be performed now",
          "offer_bonus": "the bonus cannot be paid for now",
          "anytime": "none can be paid for and carried out now",
          "use_once": "you own no single-use record that can be used now",
          "end_turn": "the main action comes first: one the tile taken shows can be performed"}
_OFFER_REASONS = {"buy_extra_action": _extra, "refresh_row": _refresh, "claim": _claim}
