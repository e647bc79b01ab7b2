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
