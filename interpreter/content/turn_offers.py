"""The turn offers of the mechanisms library: what a menu entry with `offers:` may name.

A turn offer makes a menu entry's actions from the pack's equipment (the wheel of offers, the market
rows, the single-use records, ...) and carries them out; the entry gives the verb, so the notation's
words are the pack's. The runtime implements each name (runtime/offer_turn.py); a test checks that
both lists agree. Argument words below are placeholders for the notation of the guide.
"""

from __future__ import annotations

# name -> (the argument after the verb, what the action does)
TURN_OFFERS: dict[str, tuple[str, str]] = {
    "take_offer": ("<tile>", "take an offer of the wheel, paying its position's cost first; the turn's main "
                             "action is one the taken tile shows"),
    "main_action": ("<action>", "perform an action the taken tile shows, as the turn's main action"),
    "offer_bonus": ("", "use the bonus of the wheel slot the taken tile came from, now"),
    "buy_extra_action": ("<n>", "buy the extra action with payment option n of the setup's "
                                "`extra_action_costs` (once a turn)"),
    "extra_action": ("<action>", "perform the bought extra action: any action a program can perform"),
    "refresh_row": ("<kind> <i>,<j> pay <n>", "refresh a market row once a turn: the tiles at positions i "
                                              "and j go back and new ones are dealt, for payment option n"),
    "claim": ("<record>", "claim a record of the claimable kind with a claim right (its cost paid)"),
    "use_once": ("<record>", "use a single-use record the player owns; it is used up"),
    "resolve_waiting": ("<item>", "resolve now an effect that may wait until the end of the turn (`later:`)"),
    "anytime": ("<action>", "an any-time action of the setup, as often as it can be paid for"),
    "discard_over_limit": ("<resource>", "at the end of the turn, discard one item of the carry group "
                                         "while over the carry limit"),
    "end_turn": ("", "end the turn (the wheel turns, the next seat plays)"),
}

# name -> what an automatic seat (a seat past the players') does in its turn
AUTOMATIC_TURNS: dict[str, str] = {
    "return_farthest_offer": "take the wheel's tile farthest ahead and return it at once (no action, no cost)",
}

# The offer whose action ends the turn (a phase with turns needs one that ends them).
ENDS_TURN = "end_turn"

# The offers a turn cannot do without: a tile to take, the end of the turn, and the discard the end
# of the turn may wait for.
REQUIRED = ("take_offer", "end_turn", "discard_over_limit")
