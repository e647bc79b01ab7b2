"""The checks of a flow file (interpreter/content/flow_checks.py), on small edits of tests/packs/flow_min.

Each test edits a copy of the pack (text replacements in its files) and asserts the exact errors:
code, message and line:col.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset, run_pipeline
from interpreter.content.schema_export import write_schemas

PACK = Path(__file__).resolve().parents[1] / "packs" / "flow_min"

KINDS = """kind: record_kinds
kinds:
  - id: card
    doc: A card.
    file: cards
    list: cards
    fields:
      value: {type: integer, min: 0, doc: Points.}
"""
CARDS = """kind: cards
cards:
  - {id: card_1, value: 2, provenance: exact, source: test}
"""


def pack_copy(tmp_path: Path, flow: tuple = (), pack: tuple = (), files: dict | None = None) -> Path:
    """A copy of flow_min with each (old, new) of ``flow`` and ``pack`` replaced once in flow.yaml and pack.yaml."""
    target = tmp_path / "flow_min"
    shutil.copytree(PACK, target)
    for name, edits in (("flow.yaml", flow), ("pack.yaml", pack)):
        path = target / name
        text = path.read_text(encoding="utf-8")
        for old, new in edits:
            assert text.count(old) >= 1, old
            text = text.replace(old, new, 1)
        path.write_text(text, encoding="utf-8")
    for name, text in (files or {}).items():
        (target / name).write_text(text, encoding="utf-8")
    return target


def errors(path: Path) -> list[tuple[str, str, str]]:
    """(code, message, "file:line:col") of every error of the pack."""
    return [(e.code, e.message, f"{Path(e.span.path).name}:{e.span.line}:{e.span.col}") for e in run_pipeline(path).errors]


def flow_errors(tmp_path, *edits) -> list[tuple[str, str, str]]:
    return errors(pack_copy(tmp_path, flow=edits))


WITH_CARDS = (("  - flow.yaml\n", "  - flow.yaml\n  - kinds.yaml\n  - cards.yaml\n"),
              ("  - {id: supply,", "  - {id: deck, holds: card, provenance: reconstructed, source: test}\n  - {id: supply,"))
TAKE = """      - id: take
        from: {source}
        provenance: reconstructed
        source: test
        condition: {condition}
        effect: gain 1 coin
"""


def with_take(tmp_path, source: str, condition: str) -> Path:
    """flow_min with card records, a `deck` zone of cards, and a menu entry `take` before `pass`."""
    return pack_copy(tmp_path, flow=(("      - id: pass\n", TAKE.format(source=source, condition=condition) + "      - id: pass\n"),),
                     pack=WITH_CARDS, files={"kinds.yaml": KINDS, "cards.yaml": CARDS})


# --------------------------------------------------------------------------- the valid pack


def test_the_cli_accepts_the_minimal_flow_pack():
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), *filter(None, [os.environ.get("PYTHONPATH")])])}
    result = subprocess.run([sys.executable, "-m", "interpreter", "validate", str(PACK)], cwd=root, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "pack 'flow_min', 2 files, 4 DSL texts" in result.stdout


def test_the_minimal_flow_pack_is_valid_and_loads():
    assert errors(PACK) == []
    rs = load_ruleset(PACK)
    flow = rs.single("flow")
    assert [p.id for p in flow.phases] == ["income", "actions"] and flow.rounds == 2
    assert [e.word for e in flow.menus[0].entries] == ["work", "pass"]
    assert rs.single("setup") is None
    assert {"flow/setup", "flow/phases/income/run", "flow/menus/turn/entries/work/effect"} <= set(rs.programs)


# --------------------------------------------------------------------------- phases


def test_phase_ids_are_unique(tmp_path):
    assert flow_errors(tmp_path, ("- id: actions", "- id: income")) == [
        ("E206", "'income' appears twice in phases (first at entry 1)", "flow.yaml:10:9")]


def test_a_phase_with_turns_needs_a_declared_menu(tmp_path):
    assert flow_errors(tmp_path, ("    menu: turn\n", "")) == [
        ("E201", "phase 'actions' takes turns and needs a `menu`", "flow.yaml:10:5")]
    assert flow_errors(tmp_path / "b", ("menu: turn", "menu: turns")) == [
        ("E314", "unknown menu 'turns'; did you mean 'turn'?", "flow.yaml:11:11")]


def test_a_phase_with_turns_runs_no_program(tmp_path):
    assert flow_errors(tmp_path, ("    until: all_passed\n", "    until: all_passed\n    run: gain 1 coin\n")) == [
        ("E209", "phase 'actions' takes turns, so no `run`; make it `kind: automatic`, or run the program in `on_begin`",
         "flow.yaml:13:10")]


def test_an_automatic_phase_needs_run_and_takes_no_turn_fields(tmp_path):
    assert flow_errors(tmp_path, ("    run: gain 1 coin\n", "")) == [
        ("E201", "automatic phase 'income' needs `run`: the program it runs", "flow.yaml:7:5")]
    extra = "    run: gain 1 coin\n    menu: turn\n    order: seats\n    until: all_passed\n    turns_each: 2\n"
    assert flow_errors(tmp_path / "b", ("    run: gain 1 coin\n", extra)) == [
        ("E209", "automatic phase 'income' takes no turns: drop `menu`", "flow.yaml:10:11"),
        ("E209", "automatic phase 'income' takes no turns: drop `order`", "flow.yaml:11:12"),
        ("E209", "automatic phase 'income' takes no turns: drop `until`", "flow.yaml:12:12"),
        ("E209", "automatic phase 'income' takes no turns: drop `turns_each`", "flow.yaml:13:17")]


def test_a_phase_runs_only_in_rounds_the_game_has(tmp_path):
    assert flow_errors(tmp_path, ("    run: gain 1 coin\n", "    run: gain 1 coin\n    rounds: [0, 2, 3]\n")) == [
        ("E204", "phase 'income' runs in round 0, but the rounds are 1..2", "flow.yaml:10:14"),
        ("E204", "phase 'income' runs in round 3, but the rounds are 1..2", "flow.yaml:10:20")]


def test_a_flow_without_rounds_needs_an_end(tmp_path):
    assert flow_errors(tmp_path, ("rounds: 2\n", "")) == [
        ("E201", "the flow has no `rounds` and no `end`: the game would never end; give the number of rounds or "
                 "the condition that ends it", "flow.yaml:6:3")]
    assert flow_errors(tmp_path / "b", ("rounds: 2\n", "end: coin >= 10\n")) == []


def test_a_flow_without_rounds_needs_a_phase_every_round(tmp_path):
    edits = (("rounds: 2\n", "end: coin >= 10\n"), ("    run: gain 1 coin\n", "    run: gain 1 coin\n    rounds: [1]\n"),
             ("    until: all_passed\n", "    until: all_passed\n    rounds: [2, 5]\n"))
    assert flow_errors(tmp_path, *edits) == [
        ("E209", "the flow has no `rounds`, so it needs a phase that runs every round (one without `rounds:`); "
                 "else the rounds after the last listed are empty", "flow.yaml:7:3")]


def test_all_passed_needs_an_entry_that_passes(tmp_path):
    assert flow_errors(tmp_path, ("passes: true", "ends_turn: true")) == [
        ("E209", "phase 'actions' goes on until every seat passed, but no entry of menu 'turn' has `passes: true`; "
                 "it would never end", "flow.yaml:12:12")]


def test_turns_each_needs_an_entry_that_ends_the_turn(tmp_path):
    edits = (("    until: all_passed\n", ""), ("        ends_turn: true\n", ""), ("passes: true", "limit: 1"))
    assert flow_errors(tmp_path, *edits) == [
        ("E209", "no entry of menu 'turn' has `ends_turn` or `passes`, so a turn of phase 'actions' would never end",
         "flow.yaml:11:11")]
    # an entry that passes ends the turn too
    assert flow_errors(tmp_path / "b", ("    until: all_passed\n", "    until: turns_each\n    turns_each: 2\n"),
                       ("        ends_turn: true\n", "")) == []


# --------------------------------------------------------------------------- menus


MENU_TWO = """  - id: turn
    provenance: reconstructed
    source: test
    entries:
      - {id: other, ends_turn: true, provenance: reconstructed, source: test}
"""


def test_menu_ids_and_entry_ids_are_unique(tmp_path):
    assert flow_errors(tmp_path, ("\n      - id: pass", "\n      - id: work")) == [
        ("E206", "'work' appears twice in entries (first at entry 1)", "flow.yaml:24:13")]
    path = pack_copy(tmp_path / "b")
    (path / "flow.yaml").write_text((path / "flow.yaml").read_text() + MENU_TWO)
    assert errors(path) == [("E206", "'turn' appears twice in menus (first at entry 1)", "flow.yaml:28:9")]


def test_verbs_are_unique_within_a_menu_and_a_verb_may_begin_another(tmp_path):
    assert flow_errors(tmp_path, ("      - id: pass\n", "      - id: pass\n        verb: work\n")) == [
        ("E206", "entries 'work' and 'pass' of menu 'turn' share the verb 'work'", "flow.yaml:25:15")]
    assert flow_errors(tmp_path / "b", ("      - id: pass\n", "      - id: work_hard\n        verb: work\n")) == [
        ("E206", "entries 'work' and 'work_hard' of menu 'turn' share the verb 'work'", "flow.yaml:25:15")]
    # the id with spaces for underscores is the verb: `work more` begins with `work`, and that is fine
    assert flow_errors(tmp_path / "c", ("      - id: pass\n", "      - id: work_more\n        ends_turn: true\n"
                                        "        provenance: exact\n        source: test\n      - id: pass\n")) == []


def test_needs_and_not_while_name_verbs_of_the_same_menu(tmp_path):
    assert flow_errors(tmp_path, ("        passes: true\n", "        passes: true\n        needs: [wrk]\n"
                                  "        not_while: [work, pass]\n")) == [
        ("E314", "unknown verb 'wrk'; did you mean 'work'?", "flow.yaml:28:17"),
        ("E209", "'pass' is the verb of entry 'pass' itself", "flow.yaml:29:27")]
    assert flow_errors(tmp_path / "b", ("        passes: true\n", "        passes: true\n        needs: [work]\n")) == []


def test_from_names_a_zone_spaces_or_a_record_kind(tmp_path):
    assert flow_errors(tmp_path, ("      - id: pass\n", "      - id: pass\n        from: suply\n")) == [
        ("E301", "unknown zone, `spaces` or record kind 'suply'; did you mean 'supply'?", "flow.yaml:25:15")]
    for source in ("supply", "deck", "card"):
        assert errors(with_take(tmp_path / source, source, "coin >= 0")) == []


def test_a_piece_goes_on_a_space(tmp_path):
    space = "spaces:\n  - {id: field, provenance: reconstructed, source: test}\n"
    entry = "      - id: pass\n        from: {from}\n{piece}"

    def edit(source, piece, spaces=space):
        return (("      - id: pass\n", entry.format(**{"from": source}, piece=piece)), ("menus:\n", spaces + "menus:\n"))

    assert flow_errors(tmp_path, *edit("spaces", "        piece: worker\n")) == []
    assert flow_errors(tmp_path / "b", *edit("spaces", "")) == [
        ("E201", "entry 'pass' puts a piece on a space and needs `piece:`, the piece it puts", "flow.yaml:27:15")]
    assert flow_errors(tmp_path / "c", *edit("spaces", "        piece: wroker\n")) == [
        ("E301", "unknown piece 'wroker'; did you mean 'worker'?", "flow.yaml:28:16")]
    assert flow_errors(tmp_path / "d", *edit("supply", "        piece: worker\n")) == [
        ("E209", "entry 'pass' puts a piece only with `from: spaces`", "flow.yaml:28:16")]
    assert flow_errors(tmp_path / "e", *edit("spaces", "        piece: worker\n", "")) == [
        ("E209", "entry 'pass' picks a space, but the flow declares no `spaces`", "flow.yaml:25:15")]


def test_cost_and_payments_are_not_both_given(tmp_path):
    assert flow_errors(tmp_path, ("        cost: 1 coin\n", "        cost: 1 coin\n        payments: [2 coin]\n")) == [
        ("E209", "entry 'work' has both `cost` and `payments`; make the cost one of the payments", "flow.yaml:22:19")]
    assert flow_errors(tmp_path / "b", ("        cost: 1 coin\n", "        payments: [1 coin, 2 coin]\n")) == []


# --------------------------------------------------------------------------- spaces, dice, ties


def test_space_and_die_ids_are_unique(tmp_path):
    more = ("spaces:\n  - {id: s, provenance: exact, source: test}\n  - {id: s, provenance: exact, source: test}\n"
            "dice:\n  - {id: d, faces: 6, provenance: exact, source: test}\n  - {id: d, faces: 4, provenance: exact, source: test}\n")
    assert flow_errors(tmp_path, ("menus:\n", more + "menus:\n")) == [
        ("E206", "'s' appears twice in spaces (first at entry 1)", "flow.yaml:15:10"),
        ("E206", "'d' appears twice in dice (first at entry 1)", "flow.yaml:18:10")]


def test_a_die_has_faces_or_outcomes(tmp_path):
    def die(fields):
        return ("menus:\n", "dice:\n  - {id: d, " + fields + "provenance: exact, source: test}\nmenus:\n")

    assert flow_errors(tmp_path, die("")) == [
        ("E201", "die 'd' needs `faces` (1..faces) or a non-empty list of `outcomes`", "flow.yaml:14:5")]
    assert flow_errors(tmp_path / "b", die("outcomes: [], ")) == [
        ("E201", "die 'd' needs `faces` (1..faces) or a non-empty list of `outcomes`", "flow.yaml:14:5")]
    assert flow_errors(tmp_path / "c", die("faces: 6, outcomes: [0, 1], ")) == [
        ("E209", "die 'd' has both `faces` and `outcomes`; give one of them", "flow.yaml:14:33")]
    assert flow_errors(tmp_path / "d", die("faces: 6, ")) == []
    assert flow_errors(tmp_path / "e", die("outcomes: [0, 0, 1], ")) == []


def test_a_grouped_space_needs_its_group(tmp_path):
    space = "spaces:\n  - {id: s, occupancy: one_coloured_per_player_in_group, provenance: exact, source: test}\nmenus:\n"
    assert flow_errors(tmp_path, ("menus:\n", space)) == [
        ("E201", "space 's' is one coloured piece per player in its group and needs a `group`", "flow.yaml:14:24")]


def test_tie_break_names_a_resource(tmp_path):
    assert flow_errors(tmp_path, ("rounds: 2\n", "rounds: 2\ntie_break: coins\n")) == [
        ("E302", "unknown resource 'coins'; did you mean 'coin'?", "flow.yaml:6:12")]
    assert flow_errors(tmp_path / "b", ("rounds: 2\n", "rounds: 2\ntie_break: coin\n")) == []


# --------------------------------------------------------------------------- this, files, schemas


def test_this_is_the_record_an_entry_picks(tmp_path):
    # a zone that holds cards, and the record kind itself: `this` is a card
    assert errors(with_take(tmp_path / "deck", "deck", "this.value >= 1")) == []
    assert errors(with_take(tmp_path / "card", "card", "this.value >= 1")) == []
    # a zone of any kind: any record (the card kind has a value)
    assert errors(with_take(tmp_path / "supply", "supply", "this.value >= 1")) == []
    assert errors(with_take(tmp_path / "wrong", "deck", "this.worth >= 1")) == [
        ("E308", "card has no attribute 'worth'", "flow.yaml:28:25")]
    # a space (no record kind), no argument, a phase's program: no `this`
    assert errors(with_take(tmp_path / "space", "spaces\n        piece: worker", "this.value >= 1")) == [
        ("E209", "entry 'take' picks a space, but the flow declares no `spaces`", "flow.yaml:25:15"),
        ("E311", "`this` is only available in effects that belong to a record", "flow.yaml:29:20")]
    assert flow_errors(tmp_path / "run", ("run: gain 1 coin", "run: gain (this.value) coin")) == [
        ("E311", "`this` is only available in effects that belong to a record", "flow.yaml:9:16")]
    assert flow_errors(tmp_path / "cond", ("ends_turn: true", "ends_turn: true\n        condition: this.value >= 1")) == [
        ("E311", "`this` is only available in effects that belong to a record", "flow.yaml:24:20")]


def test_a_pack_has_a_flow_or_a_setup_file_not_both(tmp_path):
    # a flow file on its own is checked inside the bundled pack, which has a setup file
    flow = tmp_path / "flow.yaml"
    text = (PACK / "flow.yaml").read_text(encoding="utf-8").replace("coin", "gold")
    flow.write_text(text, encoding="utf-8")
    assert [(c, m[:60], at) for c, m, at in errors(flow)] == [
        ("E205", "a pack with a flow file is played by its flow and cannot als", "flow.yaml:1:7")]


def test_a_flow_pack_gets_a_flow_schema_with_from_under_its_name(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(PACK, content / "flow_min")
    written = write_schemas(tmp_path / "schemas", content)
    path = tmp_path / "schemas" / "flow_min" / "flow.schema.json"
    assert path in written
    entry = json.loads(path.read_text())["$defs"]["MenuEntry"]["properties"]
    assert "from" in entry and "from_" not in entry


def test_the_guide_documents_the_flow_kind_under_the_names_files_use():
    from interpreter.authoring.guide_kinds import render_kinds
    from interpreter.content.model import BUILTIN

    text = render_kinds(BUILTIN)
    flow = text[text.index("### `flow`"):]
    flow = flow[:flow.index("\n### ", 1)]
    assert "**`menus[].entries[]`**: `MenuEntry`" in flow
    assert "| `from` | id | optional | Where the argument comes from" in flow and "from_" not in flow
    assert "| `payments` | list of DSL amounts | optional |" in flow
    assert "*(no description yet)*" not in flow


def test_automatic_seats_and_eras_belong_to_a_flow_of_turn_offers(tmp_path):
    """A flow of content entries has no automatic seat's turn nor an era change to play: refused, so that
    nothing that validates fails or is ignored in play."""
    seated = flow_errors(tmp_path, ("rounds: 2\n", "rounds: 2\nseatings:\n  - {players: 2, seats: 3}\n  - {players: 3, seats: 3}\n"
                                                  "  - {players: 4, seats: 4}\nautomatic_turn: return_farthest_offer\n"
                                                  "era_changes:\n  - {players: 2, after_turn: 2}\n"))
    assert [(code, where) for code, _, where in seated] == [("E209", "flow.yaml:10:17"), ("E209", "flow.yaml:12:3")]
    assert "an automatic seat's turn is played by the mechanisms library" in seated[0][1]
    assert "drop `era_changes`" in seated[1][1]
