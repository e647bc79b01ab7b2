"""The turn menu's bookkeeping and notation (interpreter/runtime/menu.py)."""

from __future__ import annotations

import pytest

from interpreter.errors import IllegalActionError, RulesError
from interpreter.runtime import menu as M

# A free-order turn: take an offer, act once (required before ending), buy an extra step with one
# of two payments, refresh a row with a payment option, and end.
ENTRIES = M.check_menu([
    M.MenuEntry("take", argument="offers", limit=1),
    M.MenuEntry("act", argument="actions", limit=1, needs=("take",)),
    M.MenuEntry("buy extra", payments=2, limit=1),
    M.MenuEntry("extra", argument="actions", limit=1, needs=("buy extra",)),
    M.MenuEntry("refresh", argument="rows", payments=2, limit=1),
    M.MenuEntry("end", needs=("take",), not_while=("act",), ends_turn=True),
    M.MenuEntry("pass", passes=True, limit=1, per="round"),
])


def test_the_notation_of_every_form():
    assert M.notation(ENTRIES["take"], "offer_3") == "take offer_3"
    assert M.notation(ENTRIES["buy extra"], payment=2) == "buy extra 2"
    assert M.notation(ENTRIES["refresh"], "row 1,2", payment=1) == "refresh row 1,2 pay 1"
    assert M.notation(ENTRIES["end"]) == "end"
    with pytest.raises(RulesError, match="payment options"):
        M.notation(ENTRIES["buy extra"])
    with pytest.raises(RulesError, match="an argument"):
        M.notation(ENTRIES["take"])


@pytest.mark.parametrize("action,verb,argument,payment", [
    ("take offer_3", "take", "offer_3", None),
    ("buy extra 2", "buy extra", None, 2),
    ("extra build", "extra", "build", None),  # not "buy extra": the verb must start the action
    ("refresh row 1,2 pay 1", "refresh", "row 1,2", 1),
    ("end", "end", None, None),
])
def test_parse_reads_back_what_notation_writes(action, verb, argument, payment):
    choice = M.parse(ENTRIES, action)
    assert (choice.entry.verb, choice.argument, choice.payment) == (verb, argument, payment)
    assert M.notation(choice.entry, choice.argument, choice.payment) == action


@pytest.mark.parametrize("action,reason", [
    ("fly away", "no menu entry"), ("buy extra", "payment option"), ("buy extra 3", "payment option"),
    ("refresh row 1,2", "payment option"), ("end now", "no argument"), ("take", "an argument"),
])
def test_parse_refuses_with_a_reason(action, reason):
    with pytest.raises(IllegalActionError, match=reason):
        M.parse(ENTRIES, action)


def test_limits_and_needs_over_a_turn_and_a_round():
    log = M.MenuLog()
    assert M.allowed(ENTRIES["take"], log) and not M.allowed(ENTRIES["act"], log) and not M.allowed(ENTRIES["end"], log)
    log = M.record(log, ENTRIES["take"])
    assert not M.allowed(ENTRIES["take"], log) and M.allowed(ENTRIES["act"], log)
    # while an act is on offer the turn cannot end; once none is, it can
    assert M.hidden(ENTRIES["end"], {"act", "end"}) and not M.hidden(ENTRIES["end"], {"end"})
    log = M.record(M.record(log, ENTRIES["act"]), ENTRIES["pass"])
    assert log.count("take") == 1 and log.count("take", "game") == 1
    log = M.new_turn(log)
    assert M.allowed(ENTRIES["take"], log) and not M.allowed(ENTRIES["pass"], log)  # once per round
    log = M.new_round(log)
    assert M.allowed(ENTRIES["pass"], log) and log.count("pass", "game") == 1


def test_round_and_game_limits_are_each_seats_own():
    log = M.record(M.MenuLog(), ENTRIES["pass"], seat=0)  # `pass`: once per round
    assert not M.allowed(ENTRIES["pass"], log, seat=0) and M.allowed(ENTRIES["pass"], log, seat=1)
    assert log.count("pass", "round", 0) == 1 and log.count("pass", "round", 1) == 0


def test_menu_declarations_are_checked():
    with pytest.raises(ValueError, match="two menu entries"):
        M.check_menu([M.MenuEntry("end"), M.MenuEntry("end")])
    with pytest.raises(ValueError, match="unknown verb"):
        M.check_menu([M.MenuEntry("end", needs=("take",))])
    with pytest.raises(ValueError, match="single spaces"):
        M.MenuEntry("buy  extra")
    with pytest.raises(ValueError, match="per"):
        M.MenuEntry("x", per="week")


def test_the_notation_carries_every_turn_action_of_the_recorded_games():
    """Every turn action in the behaviour corpus (tests/corpus) reads and writes back unchanged with
    a menu of the verbs the recorded pack's turn offers, so that turn can become a content menu."""
    from pathlib import Path

    turn = M.check_menu([
        M.MenuEntry("take", argument="offers"), M.MenuEntry("act", argument="actions"), M.MenuEntry("bonus"),
        M.MenuEntry("buy extra", payments=2), M.MenuEntry("extra", argument="actions"),
        M.MenuEntry("refresh", argument="rows", payments=2), M.MenuEntry("seal", argument="records"),
        M.MenuEntry("use", argument="records"), M.MenuEntry("resolve", argument="later"),
        M.MenuEntry("do", argument="actions"), M.MenuEntry("end"),
    ])
    decisions = ("choose", "pick", "place", "plank", "discard")
    seen = set()
    for path in sorted((Path(__file__).parents[1] / "corpus").glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            parts = line.split(" ", 3)
            if line.startswith(("#", " ", "score", "winner", "turns", "solo")) or len(parts) < 4:
                continue
            action = parts[3]
            if action.startswith(decisions):
                continue
            choice = M.parse(turn, action)
            assert M.notation(choice.entry, choice.argument, choice.payment) == action
            seen.add(choice.entry.verb)
    assert {"take", "act", "buy extra", "refresh", "end"} <= seen
