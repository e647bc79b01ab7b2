"""The turn offers of the mechanisms library: what a menu entry with `offers:` may name.

A turn offer makes a menu entry's actions from the pack's equipment (the wheel of offers, the market
rows, the single-use records, ...) and carries them out; the entry gives the verb, so the notation's
words are the pack's. The runtime implements each name (runtime/offer_turn.py); a test checks that
both lists agree. Argument words below are placeholders for the notation of the guide.
"""

from __future__ import annotations

# name -> (the argument after the verb, what the action does, how a log or menu says it: `{arg}` is
# the argument in words; an entry's `name:` says it instead, followed by the argument)
TURN_OFFERS: dict[str, tuple[str, str, str]] = {
    "take_offer": ("<tile>", "take an offer of the wheel, paying its position's cost first; the turn's main "
                             "action is one the taken tile shows",
        "take the tile {arg}"),
    "main_action": ("<action>", "perform an action the taken tile shows, as the turn's main action",
        "perform {arg} as the main action"),
    "offer_bonus": ("", "use the bonus of the wheel slot the taken tile came from, now",
        "use the wheel bonus"),
    "buy_extra_action": ("<n>", "buy an extra action with payment option n of the setup's "
                                "`extra_action_costs` (how often: the entry's `limit:`)",
        "buy the extra action (payment option {arg})"),
    "extra_action": ("<action>", "perform a bought extra action, one for each bought this turn and not yet "
                                 "taken: any action a program can perform",
        "perform {arg} as the extra action"),
    "refresh_row": ("<kind> <i>,<j> pay <n>", "refresh a market row: the tiles at positions i and j go back "
                                              "and new ones are dealt, for payment option n (how often: the "
                                              "entry's `limit:`)",
        "refresh {arg}"),
    "claim": ("<record>", "claim a record of the claimable kind with a claim right (its cost paid)",
        "claim {arg}"),
    "use_once": ("<record>", "use a single-use record the player owns; it is used up",
        "use {arg}"),
    "resolve_waiting": ("<item>", "resolve now an effect that may wait until the end of the turn (`later:`)",
        "resolve {arg} now"),
    "anytime": ("<action>", "an any-time action of the setup, as often as it can be paid for",
        "{arg}"),
    "discard_over_limit": ("<resource>", "at the end of the turn, discard one item of the carry group "
                                         "while over the carry limit",
        "discard one {arg}"),
    "end_turn": ("", "end the turn (the wheel turns, the next seat plays)",
        "end the turn"),
}

# name -> what an automatic seat (a seat past the players') does in its turn
AUTOMATIC_TURNS: dict[str, str] = {
    "return_farthest_offer": "take the wheel's tile farthest ahead and return it at once (no action, no cost)",
}

# name -> what a step of the end of a turn does (the `steps:` of the entry offering `end_turn`, in
# the order listed; a step that waits for a decision or a discard resumes there, and the steps before
# it, already done, do nothing when the end of the turn goes on)
TURN_END_STEPS: dict[str, str] = {
    "apply_unused_bonus": "the taken offer's wheel bonus, if unused: its free gains and rights apply now, and an "
                          "optional purchase lapses",
    "resolve_waiting_effects": "the effects left for later (`later:`) that nobody resolved are resolved now, in order",
    "expire_permits": "the rights granted this turn and not used expire (an `or` fallback, e.g. points, applies)",
    "enforce_carry_limit": "over the setup's carry limit, the player discards down to it, one `discard_over_limit` "
                           "action at a time",
    "turn_wheel": "the wheel turns and the taken offer goes back on it (needed with `take_offer`: the wheel would "
                  "run out of offers)",
}

# The offer whose action ends the turn (a phase with turns needs one that ends them).
ENDS_TURN = "end_turn"

# The offers a turn cannot do without: a tile to take, the end of the turn, and the discard the end
# of the turn may wait for.
REQUIRED = ("take_offer", "end_turn", "discard_over_limit")
