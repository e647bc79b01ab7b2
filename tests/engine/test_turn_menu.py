"""Praga's turn is its flow's menu of turn offers: verbs, conditions and the entries themselves are
content, so a variant renames, restricts or drops a part of the turn without code."""

import random

import pytest

from interpreter import IllegalActionError, load_ruleset, new_game
from interpreter.content.turn_offers import AUTOMATIC_TURNS, TURN_OFFERS
from interpreter.runtime import legal, turn


def overlay(tmp_path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text("kind: overlay\nextends: praga\nname: " + name + "\nprovenance: reconstructed\n"
                    "source: test\nset:\n" + body, encoding="utf-8")
    return str(path)


def entry_index(rs, offer: str) -> int:
    return next(i for i, e in enumerate(rs.single("flow").menus[0].entries) if e.offers == offer)


def first_words(game) -> set[str]:
    return {a.split()[0] for a in game.legal_actions()}


@pytest.fixture(scope="module")
def rs():
    return load_ruleset()


def test_every_turn_offer_the_content_may_name_has_its_actions_and_its_effect():
    assert set(TURN_OFFERS) == set(legal._OFFER_ACTIONS) == set(turn._OFFERS)
    assert set(AUTOMATIC_TURNS) == set(turn._AUTOMATIC_TURNS)


def test_the_verbs_of_the_notation_are_the_menu_entries_ids(rs):
    words = {e.word: e.offers for e in rs.single("flow").menus[0].entries}
    assert words["buy extra"] == "buy_extra_action" and words["seal"] == "claim" and words["end"] == "end_turn"
    assert len(words) == 12


def test_a_renamed_verb_is_offered_and_applied_under_its_new_name(rs, tmp_path):
    refresh = entry_index(rs, "refresh_row")
    renamed = load_ruleset(variants=[overlay(tmp_path, "renew", f"  flow.menus.0.entries.{refresh}.verb: renew\n")])
    base, game = new_game(rs, 2, seed=4), new_game(renamed, 2, seed=4)
    old = [a for a in base.legal_actions() if a.startswith("refresh ")]
    new = [a for a in game.legal_actions() if a.startswith("renew ")]
    assert old and new == ["renew " + a.removeprefix("refresh ") for a in old]
    with pytest.raises(IllegalActionError):
        game.apply(old[0])  # the old verb is no action any more
    game.apply(new[0])
    base.apply(old[0])
    assert game.state.zones == base.state.zones and game.state.players == base.state.players


def test_a_condition_on_an_entry_keeps_it_off_the_menu_until_it_holds(rs, tmp_path):
    refresh = entry_index(rs, "refresh_row")
    strict = load_ruleset(variants=[overlay(tmp_path, "rich", f"  flow.menus.0.entries.{refresh}.condition: gold >= 3\n")])
    game = new_game(strict, 2, seed=4)
    assert game.state.players[0].holdings["gold"] == 2 and "refresh" not in first_words(game)
    assert "refresh" in first_words(new_game(rs, 2, seed=4))
    base_refresh = next(a for a in new_game(rs, 2, seed=4).legal_actions() if a.startswith("refresh "))
    with pytest.raises(IllegalActionError, match="condition"):
        game.apply(base_refresh)


def test_a_variant_without_refresh_and_extra_action_plays_to_the_end(rs, tmp_path):
    entries = rs.single("flow").menus[0].entries
    kept = [e for e in entries if e.offers not in ("refresh_row", "buy_extra_action", "extra_action")]
    body = "  flow.menus.0.entries:\n" + "".join(
        f"    - {{id: {e.id}, offers: {e.offers}, steps: [{', '.join(e.steps)}], provenance: exact, source: test}}\n"
        for e in kept)
    lean = load_ruleset(variants=[overlay(tmp_path, "lean", body)])
    game, rng, words = new_game(lean, 3, seed=2), random.Random(2), set()
    while not game.is_terminal():
        actions = game.legal_actions()
        assert actions == sorted(actions)
        words |= {a.split()[0] for a in actions}
        game.apply(rng.choice(actions))
    assert "take" in words and "end" in words
    assert not words & {"refresh", "buy", "extra"}
    assert len(game.scores()) == 3


def test_the_automatic_seat_plays_the_flows_automatic_turn(rs):
    solo = new_game(rs, 1, seed=3)
    assert solo.is_dummy(1) and not solo.is_dummy(0)
    wheel_before = solo.state.table["crane"]
    solo.apply(next(a for a in solo.legal_actions() if a.startswith("take ")))
    while "end" not in solo.legal_actions():
        solo.apply(next(a for a in solo.legal_actions() if not a.startswith("refresh ")))
    assert solo.state.turn == 1
    solo.apply("end")
    # the dummy's turn ran at once: it is the player's turn again, two turns on
    assert solo.state.current == 0 and solo.state.turn == 3 and solo.state.table["crane"] != wheel_before


def play_preferring(ruleset, prefixes: tuple[str, ...], seed: int) -> list[tuple[int, int, str]]:
    """A 2-player game that picks an action starting with one of ``prefixes`` whenever it can: the
    (seat, turn, verb) of each such pick."""
    rng, picks, game = random.Random(seed), [], new_game(ruleset, 2, seed=seed)
    while not game.is_terminal():
        seat, turn, actions = game.current_player, game.state.turn, game.legal_actions()
        action = next((a for a in actions if a.startswith(prefixes)), rng.choice(actions))
        game.apply(action)
        if action.startswith(prefixes):
            picks.append((seat, turn, action.split()[0]))
    return picks


def test_a_limit_on_an_entry_caps_it_per_turn_or_per_game(rs, tmp_path):
    refresh, resolve = entry_index(rs, "refresh_row"), entry_index(rs, "resolve_waiting")
    capped = load_ruleset(variants=[overlay(tmp_path, "capped", (
        f"  flow.menus.0.entries.{refresh}.limit: 1\n  flow.menus.0.entries.{refresh}.per: game\n"
        f"  flow.menus.0.entries.{resolve}.limit: 1\n"))])
    prefer = ("resolve ", "refresh ")
    free, held = play_preferring(rs, prefer, 5), play_preferring(capped, prefer, 5)
    resolves = [(seat, turn) for seat, turn, verb in held if verb == "resolve"]
    assert resolves and len(resolves) == len(set(resolves))  # at most once a turn
    assert len({(s, t) for s, t, v in free if v == "resolve"}) < sum(v == "resolve" for _, _, v in free)  # else twice
    assert sorted(seat for seat, _, verb in held if verb == "refresh") == [0, 1]  # once a game, each seat
    assert sum(v == "refresh" for _, _, v in free) > 2


def test_the_end_of_a_turn_is_the_steps_its_entry_lists(rs, tmp_path):
    """Without `enforce_carry_limit`, ending a turn over the carry limit keeps everything, where the
    base game asks for discards first; every other part of the two games is the same."""
    end = entry_index(rs, "end_turn")
    steps = list(rs.single("flow").menus[0].entries[end].steps)
    assert steps == ["apply_unused_bonus", "resolve_waiting_effects", "expire_permits", "enforce_carry_limit", "turn_wheel"]
    kept = [s for s in steps if s != "enforce_carry_limit"]
    free = load_ruleset(variants=[overlay(tmp_path, "no_limit", f"  flow.menus.0.entries.{end}.steps: [{', '.join(kept)}]\n")])
    for seed in range(1, 60):
        base, game, rng = new_game(rs, 2, seed), new_game(free, 2, seed), random.Random(seed)
        while not base.is_terminal() and not base.state.turn_info.get("discarding"):
            action = rng.choice(base.legal_actions())
            base.apply(action)
            game.apply(action)
        if base.state.turn_info.get("discarding"):
            break
    else:
        pytest.fail("no random game ended a turn over the carry limit")
    seat, setup = base.state.current, rs.single("setup")
    carried = lambda g: sum(g.state.players[seat].holdings.get(r, 0) for r in g.rules.tables.groups[setup.carry_group])
    assert {a.split()[0] for a in base.legal_actions()} == {"discard"} and carried(base) > setup.carry_limit
    assert game.state.turn == base.state.turn + 1 and game.state.current != seat  # the turn is over
    assert carried(game) == carried(base) > setup.carry_limit  # nothing was discarded
    assert not any(a.startswith("discard ") for a in game.legal_actions())
