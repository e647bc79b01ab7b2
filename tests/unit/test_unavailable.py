"""interpreter/runtime/unavailable.py: each entry of the menu that offers nothing now, with the first reason
that holds, in English from the content. On the invented harvest_fair pack."""

from __future__ import annotations

from pathlib import Path

from interpreter.content.ruleset import load_ruleset
from interpreter.runtime.game import new_game
from interpreter.runtime.unavailable import unavailable

PACK = Path(__file__).resolve().parents[1] / "packs" / "harvest_fair"


def why(game) -> dict[str, str]:
    return {u.verb: u.reason for u in unavailable(game, game.legal_actions())}


def test_a_condition_and_a_cost_are_said_in_english():
    game = new_game(load_ruleset(PACK), 2, seed=4)
    assert game.state.players[0].holdings["coin"] == 1
    assert why(game) == {
        "fulfil": "it needs your grain is at least this tile's grain and your wool is at least this tile's wool",
        "trade": "you cannot pay 2 coins"}
    assert not any(a.startswith(("fulfil", "trade")) for a in game.legal_actions())


def test_a_limit_reached_and_no_space_left_open():
    game = new_game(load_ruleset(PACK), 2, seed=4)
    game.apply("place field")  # seat 1's turn: 2 coins, so it may trade, once a turn
    assert "trade" not in why(game)
    game.apply("trade")
    game.apply("choose 1")
    assert why(game)["trade"] == "done already: once a turn"
    while "place" not in why(game):  # workers placed, turn after turn
        assert not game.is_terminal()
        game.apply(next((a for a in game.legal_actions() if a.startswith("place ")), "pass"))
    assert game.state.players[game.current_player].pieces_free["worker"] == 1  # a worker, and every space taken
    assert why(game)["place"] == "no space is open to your worker"


def test_nothing_is_said_while_a_decision_is_pending():
    game = new_game(load_ruleset(PACK), 2, seed=4)
    game.apply("place field")
    game.apply("trade")
    assert game.state.decision is not None and why(game) == {}
