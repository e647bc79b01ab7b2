"""How often a turn offer may be picked is its menu entry's `limit:` (content/praga/flow.yaml): Praga
refreshes a row once a turn (R-ROW-5) and buys the extra action once a turn (R-EXTRA-1) by `limit: 1`,
and a variant changes or drops the limit. The extra action itself is offered while an extra action
bought this turn is not yet taken, so buying two (with `limit: 2`) gives two."""

import random

import pytest

from interpreter import IllegalActionError, load_ruleset, new_game
from praga_overlay import variant


def entry(rs, offer: str):
    entries = rs.single("flow").menus[0].entries
    return next((i, e) for i, e in enumerate(entries) if e.offers == offer)


def with_limit(rs, tmp_path, offer: str, limit: int | None):
    i, _ = entry(rs, offer)
    return variant(tmp_path, f"{offer}_{limit}", f"  flow.menus.0.entries.{i}.limit: {'null' if limit is None else limit}\n")


def rich_game(rs, seed: int = 4):
    """A 2-player game whose first player can pay for many refreshes and extra actions."""
    game = new_game(rs, 2, seed=seed)
    p = game.state.player(0)
    p.holdings = {**p.holdings, "gold": 9, "stone": 9, "gold_window": 8, "silver_window": 0}
    return game


def verbs_now(game, verb: str) -> list[str]:
    return [a for a in game.legal_actions() if a.startswith(verb + " ")]


def settle(game) -> None:
    """Answer any pending decision with its first legal answer."""
    while game.state.decision is not None:
        game.apply(game.legal_actions()[0])


def refresh_each_time(game, times: int) -> None:
    for _ in range(times):
        game.apply(verbs_now(game, "refresh")[0])


@pytest.fixture(scope="module")
def rs():
    return load_ruleset()


def test_praga_says_its_once_a_turn_limits_in_content(rs):
    assert entry(rs, "refresh_row")[1].limit == 1 and entry(rs, "buy_extra_action")[1].limit == 1
    assert entry(rs, "extra_action")[1].limit is None  # it is offered while a bought one is left
    game = rich_game(rs)
    refresh_each_time(game, 1)
    assert verbs_now(game, "refresh") == []
    with pytest.raises(IllegalActionError, match="may be picked 1 time"):
        game.apply("refresh wall 1,2 pay 1")


def test_a_limit_of_two_allows_a_second_refresh_in_a_turn_and_not_a_third(rs, tmp_path):
    game = rich_game(with_limit(rs, tmp_path, "refresh_row", 2))
    refresh_each_time(game, 2)
    assert game.state.players[0].holdings["gold"] + game.state.players[0].holdings["stone"] == 16
    assert verbs_now(game, "refresh") == []
    with pytest.raises(IllegalActionError, match="may be picked 2 time"):
        game.apply("refresh wall 1,2 pay 1")
    game.apply(verbs_now(game, "take")[0])
    while "end" not in game.legal_actions():
        game.apply(next(a for a in game.legal_actions() if a.split()[0] in ("act", "choose", "place", "pick")))
    game.apply("end")
    while game.state.current == 0:  # a discard down to the carry limit, then the next seat plays
        game.apply(game.legal_actions()[0])
    assert game.state.current == 1 and verbs_now(game, "refresh")  # a turn's count starts again


def test_without_a_limit_a_row_is_refreshed_as_often_as_it_is_paid_for(rs, tmp_path):
    free = with_limit(rs, tmp_path, "refresh_row", None)
    assert entry(free, "refresh_row")[1].limit is None
    game = rich_game(free)
    refresh_each_time(game, 5)
    assert verbs_now(game, "refresh")  # nothing caps it but the payment
    p = game.state.player(0)
    p.holdings = {**p.holdings, "gold": 0, "stone": 0}
    game._legal = None  # the state was changed by hand
    assert verbs_now(game, "refresh") == []


def test_without_a_limit_on_refresh_random_games_play_to_the_end(rs, tmp_path):
    """What validates must play: each refresh costs a payment, so an unlimited refresh cannot hold a
    game up; the players refresh more than once in some turns."""
    free = with_limit(rs, tmp_path, "refresh_row", None)
    game, rng, per_turn = new_game(free, 2, seed=6), random.Random(6), {}
    while not game.is_terminal():
        actions = game.legal_actions()
        refreshes = [a for a in actions if a.startswith("refresh ")]
        action = refreshes[0] if refreshes and rng.random() < 0.5 else rng.choice(actions)
        if action in refreshes:
            per_turn[game.state.turn] = per_turn.get(game.state.turn, 0) + 1
        game.apply(action)
    assert max(per_turn.values()) >= 2 and len(game.scores()) == 2


def test_an_unlimited_free_refresh_still_lets_random_games_end(rs, tmp_path):
    """Even a refresh that costs nothing and has no limit validates and plays: a bot that picks at
    random (as the greedy and tree-search bots do among equal choices) ends its turns."""
    i, _ = entry(rs, "refresh_row")
    free = variant(tmp_path, "free_refresh", f"  setup.rows.0.refresh_cost: [0 gold]\n  flow.menus.0.entries.{i}.limit: null\n")
    game, rng, refreshes = new_game(free, 2, seed=1), random.Random(1), 0
    while not game.is_terminal():
        action = rng.choice(game.legal_actions())
        refreshes += action.startswith("refresh ")
        game.apply(action)
    assert refreshes > 16 * 2 and len(game.scores()) == 2  # more than one a turn


def test_the_extra_action_is_bought_once_a_turn_and_taken_once(rs):
    game = rich_game(rs)
    game.apply("buy extra 1")
    assert verbs_now(game, "buy extra") == [] and verbs_now(game, "extra")
    with pytest.raises(IllegalActionError, match="may be picked 1 time"):
        game.apply("buy extra 1")
    game.apply(verbs_now(game, "extra")[0])
    settle(game)
    assert verbs_now(game, "extra") == [] and verbs_now(game, "buy extra") == []


def test_with_a_limit_of_two_two_extra_actions_are_bought_and_taken(rs, tmp_path):
    game = rich_game(with_limit(rs, tmp_path, "buy_extra_action", 2))
    assert verbs_now(game, "extra") == []  # none bought yet
    game.apply("buy extra 1")
    game.apply("buy extra 1")
    assert verbs_now(game, "buy extra") == [] and game.state.players[0].holdings["gold_window"] == 4
    game.apply(verbs_now(game, "extra")[0])
    settle(game)
    assert verbs_now(game, "extra")  # a second one is left
    game.apply(verbs_now(game, "extra")[0])
    settle(game)
    assert verbs_now(game, "extra") == []


def test_with_a_limit_of_two_an_extra_action_may_come_between_the_purchases(rs, tmp_path):
    game = rich_game(with_limit(rs, tmp_path, "buy_extra_action", 2))
    for _ in range(2):
        game.apply("buy extra 1")
        assert not verbs_now(game, "buy extra") or verbs_now(game, "extra")
        game.apply(verbs_now(game, "extra")[0])
        settle(game)
        assert verbs_now(game, "extra") == []  # as many taken as bought
    assert verbs_now(game, "buy extra") == []
