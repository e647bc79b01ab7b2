"""A pack's table layout (content kind `table`, interpreter/content/model/table.py): checked at its
file:line:col, and followed when the table is drawn (interpreter/ui/render/core_table.py), with nothing it
does not hide left out. On the invented harvest_fair pack."""

from __future__ import annotations

import random
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from interpreter.content.labels import Labels
from interpreter.content.ruleset import run_pipeline
from interpreter.runtime.game import new_game
from interpreter.ui.render import render_svg
from interpreter.ui.render.core_table import plan

PACK = Path(__file__).resolve().parents[1] / "packs" / "harvest_fair"

GOOD = """\
kind: table
sections:
  - title: The orders on offer
    zones: [market]
    width: full
  - title: The farm
    spaces: [field, pasture]
    widget: rows
seat_zones: [fulfilled]
hidden: [discard]
"""


def pack_with(tmp_path, table: str) -> Path:
    root = tmp_path / "harvest_fair"
    shutil.copytree(PACK, root)
    text = (root / "pack.yaml").read_text()
    (root / "pack.yaml").write_text(text.replace("include:\n", "include:\n  - table.yaml\n", 1))
    (root / "table.yaml").write_text(table)
    return root


def test_a_layout_names_what_the_pack_declares_or_is_refused_where_it_does_not(tmp_path):
    bad = GOOD.replace("zones: [market]", "zones: [markt, fulfilled]").replace("spaces: [field, pasture]",
                                                                           "spaces: [field, meadow]")
    bad = bad.replace("hidden: [discard]", "hidden: [trash]")
    errors = run_pipeline(pack_with(tmp_path, bad)).errors
    found = sorted((Path(e.span.path).name, e.span.line, e.code, e.message) for e in errors)
    assert [(f, line, code) for f, line, code, _ in found] == [
        ("table.yaml", 4, "E320"), ("table.yaml", 4, "E320"), ("table.yaml", 7, "E314"), ("table.yaml", 10, "E320")]
    messages = " | ".join(m for *_, m in found)
    assert "unknown shared zone 'markt'; did you mean 'market'?" in messages
    assert "unknown shared zone 'fulfilled'" in messages  # a zone per player is not a section's
    assert "unknown space of the flow 'meadow'" in messages and "unknown zone 'trash'" in messages


def test_the_drawing_follows_the_layout_and_leaves_nothing_out_it_does_not_hide(tmp_path):
    outcome = run_pipeline(pack_with(tmp_path, GOOD))
    assert not outcome.errors, [e.format() for e in outcome.errors]
    rs = outcome.ruleset
    game = new_game(rs, 2, seed=3)
    obs = game.observation(-1)
    shared = {z: v for z, v in obs["zones"].items() if "@" not in z and z != "discard"}
    free = [sp.id for sp in rs.single("flow").spaces]  # none is on a zone's records in this pack
    sections = plan(rs.single("table"), shared, free, Labels.of(rs))
    assert [(s.title, s.zones, s.spaces, s.width) for s in sections] == [
        ("The orders on offer", ("market",), (), "full"),
        ("The farm", (), ("field", "pasture"), "half"),
        ("Deck", ("deck",), (), "half"),  # named by no section: drawn after them, under its own name
        ("Spaces", (), tuple(s for s in free if s not in ("field", "pasture")), "full")]
    rng = random.Random(3)
    while not game.is_terminal() and not game.state.zones.get("discard"):
        game.apply(rng.choice(game.legal_actions()))
    root = ET.fromstring(render_svg(game))
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    assert "zone-market" in ids and "zone-deck" in ids and "zone-discard" not in ids  # hidden
    assert {f"space-{s}" for s in free} <= ids


def test_columns_put_a_zone_s_first_record_at_the_bottom(tmp_path):
    columns = GOOD.replace("    zones: [market]\n    width: full", "    zones: [market]\n    widget: columns")
    rs = run_pipeline(pack_with(tmp_path, columns)).ruleset
    game = new_game(rs, 2, seed=3)
    market = [r for r in game.observation(-1)["zones"]["market"] if r]
    assert len(market) >= 2
    root = ET.fromstring(render_svg(game))

    def top(rid: str) -> float:
        card = next(e for e in root.iter() if e.get("id") == f"record-{rid}")
        return float(next(e for e in card.iter() if e.tag.endswith("rect")).get("y"))

    assert top(market[0]) > top(market[1])  # the first record below the second


def _top(root, ident: str) -> float:
    """The highest y any rectangle of the element ``ident`` is drawn at."""
    element = next(e for e in root.iter() if e.get("id") == ident)
    return min(float(e.get("y")) for e in element.iter() if e.tag.endswith("rect"))


def test_a_layout_puts_the_parts_where_it_says(tmp_path):
    seats_first = GOOD + "width: 1200\nlayout:\n  - widget: seats\n  - widget: sections\n"
    game = new_game(run_pipeline(pack_with(tmp_path, seats_first)).ruleset, 2, seed=3)
    root = ET.fromstring(render_svg(game))
    assert root.get("width") == "1200"
    assert _top(root, "board-0") < _top(root, "zone-market")  # the seats above the sections now
    seats_only = GOOD + "layout:\n  - widget: seats\n"  # the sections it leaves out are drawn after it
    root = ET.fromstring(render_svg(new_game(run_pipeline(pack_with(tmp_path / "s", seats_only)).ruleset, 2, seed=3)))
    assert _top(root, "board-0") < _top(root, "zone-market")
    default = ET.fromstring(render_svg(new_game(run_pipeline(pack_with(tmp_path / "d", GOOD)).ruleset, 2, seed=3)))
    assert default.get("width") == "1600" and _top(default, "board-0") > _top(default, "zone-market")


def test_a_layout_part_the_pack_cannot_draw_is_refused_at_its_line(tmp_path):
    bad = GOOD + ("layout:\n"
                  "  - across:\n"
                  "      - widget: wheel\n"          # line 13: a pack on the generic core has no wheel
                  "      - widget: sections\n"
                  "  - widget: sections\n"           # line 15: drawn twice
                  "  - widget: stacks\n")            # line 16: nor stacks
    errors = run_pipeline(pack_with(tmp_path, bad)).errors
    found = sorted((e.span.line, e.code, e.message) for e in errors)
    assert [(line, code) for line, code, _ in found] == [(13, "E323"), (15, "E323"), (16, "E323")]
    text = " | ".join(m for *_, m in found)
    assert "`wheel` is not drawn for a pack on the generic core; its parts are seats, sections" in text
    assert "the layout draws `sections` twice" in text


def test_a_part_is_one_of_a_widget_a_row_or_a_column(tmp_path):
    bad = GOOD + "layout:\n  - widget: seats\n    down: [{widget: sections}]\n"
    errors = run_pipeline(pack_with(tmp_path, bad)).errors
    assert [(Path(e.span.path).name, e.span.line) for e in errors] == [("table.yaml", 12)]
    assert "exactly one of widget, across or down (found widget, down)" in errors[0].message
