"""What a log line says a step did (interpreter/ui/log_text.py), on made-up snapshots."""

from __future__ import annotations

from interpreter.dsl.english import Names
from interpreter.ui.log_text import Holdings, changes, step_text

NAMES = Names({"resource:coin": "silver coin", "track:piety": "path of piety"}, {"coin": "silver coins"})


def test_changes_say_points_by_source_holdings_and_tracks():
    before = Holdings(3, {"coin": 2, "grain": 1}, {"piety": 1}, {"fair": 3})
    after = Holdings(6, {"coin": 5, "grain": 0}, {"piety": 2}, {"fair": 4, "piety:2": 2})
    assert changes(before, after, NAMES, str.upper) == [
        "+3 points (FAIR, PIETY:2)", "+3 silver coins", "-1 grain", "path of piety +1"]
    assert changes(before, Holdings(4, {"coin": 2, "grain": 1}, {"piety": 1}, {"fair": 4}), NAMES) == ["+1 point (fair)"]
    assert changes(before, before, NAMES) == []


def test_a_step_says_the_actor_first_then_the_others():
    a = [Holdings(0, {"coin": 1}, {}, {}), Holdings(0, {"coin": 1}, {}, {})]
    b = [Holdings(0, {"coin": 0}, {}, {}), Holdings(0, {"coin": 2}, {}, {})]
    assert step_text("pay a toll", 0, a, b, NAMES) == "pay a toll (-1 silver coin; seat 2: +1 silver coin)"
    assert step_text("rest", 1, a, a, NAMES) == "rest"


def test_payments_and_gains_are_told_by_what_they_were_for_even_when_they_cancel_out():
    from interpreter.runtime.ledger import Entry

    before = [Holdings(0, {"coin": 2, "grain": 0, "wool": 0}, {}, {}), Holdings(0, {"coin": 0}, {}, {})]
    after = [Holdings(0, {"coin": 2, "grain": 1, "wool": 0}, {}, {}), Holdings(0, {"coin": 1}, {}, {})]
    entries = [Entry(7, 0, "coin", -1, ""),            # the price: said without a source
               Entry(7, 0, "coin", 1, "bonus"),        # a bonus of the same coin: the net is nothing
               Entry(7, 0, "wool", 2, "stall"),        # gained and given back to the same source: nothing to tell
               Entry(7, 0, "wool", -2, "stall"),
               Entry(7, 0, "grain", 1, "field"),       # the action's words name the field already
               Entry(7, 1, "coin", 1, "toll")]
    assert step_text("work the field", 0, before, after, NAMES, str.title, entries) == (
        "work the field (-1 silver coin, +1 silver coin (Bonus), +1 grain; seat 2: +1 silver coin (Toll))")
    # a change no entry tells is still said, as the net change
    assert step_text("work the field", 0, before, after, NAMES, str.title, entries[:2]) == (
        "work the field (-1 silver coin, +1 silver coin (Bonus), +1 grain; seat 2: +1 silver coin)")


def test_a_recorded_step_counts_only_what_it_did_not_what_the_rules_tried_on_copies():
    from pathlib import Path

    from interpreter.content.ruleset import load_ruleset
    from interpreter.runtime.game import new_game

    game = new_game(load_ruleset(Path(__file__).resolve().parents[1] / "packs" / "harvest_fair"), 2, seed=4)
    # placing ends the turn, and the rules then try the next seat's actions (its field's 2 grain) on copies
    entries = game.apply_recorded("place fair")
    assert [(e.seat, e.resource, e.amount, e.source) for e in entries] == [(0, "coin", 1, "fair")]
    assert game.state.log == ["place fair"] and game.state.players[0].holdings["coin"] == 2
