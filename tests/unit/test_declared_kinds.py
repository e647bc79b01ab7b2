"""Record kinds a pack declares: validated, turned into strict models, schemas and overlay targets.

The pack under tests/packs/cards declares a `card` kind of its own; nothing of it is known to the
interpreter beforehand.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from interpreter.content.ruleset import load_ruleset, run_pipeline
from interpreter.content.schema_export import check_schemas, write_schemas
from interpreter.content.model import KINDS

PACK = Path(__file__).resolve().parents[1] / "packs" / "cards"


@pytest.fixture
def pack(tmp_path) -> Path:
    target = tmp_path / "content" / "cards"
    shutil.copytree(PACK, target)
    return target


def _errors(path) -> list[tuple[str, int, int, str]]:
    return [(Path(e.span.path).name, e.span.line, e.span.col, e.code) for e in run_pipeline(path).errors]


def _at(path: Path, token: str, line: int | None = None) -> tuple[str, int, int]:
    """(file name, line, column) of ``token`` in a file (on ``line`` when given)."""
    for n, text in enumerate(path.read_text().splitlines(), 1):
        if token in text and line in (None, n):
            return path.name, n, text.index(token) + 1
    raise AssertionError(token)


def test_a_declared_kind_loads_as_records_with_its_fields():
    rs = load_ruleset(PACK)
    assert set(rs.record_kinds) == {"card"}
    assert rs.kinds.list_kinds == {"cards"}
    cards = rs.records("card")
    assert [c.id for c in cards] == ["cup_1", "coin_2"]
    assert (cards[1].value, cards[1].suit, cards[1].marks, cards[1].hint) == (2, "coins", ["gold"], None)
    assert cards[0].marks == [] and cards[0].provenance == "exact"
    assert "cards/cup_1/effect" in rs.programs  # its effect is parsed and compiled
    kind = rs.symbols.kinds["card"]
    assert kind.effect_fields == frozenset({"effect"})
    assert kind.attributes == {"value": "number", "stack": "zone"}
    # the interpreter's own kinds are the built-in ones; the card kind comes from the pack only
    assert "cards" not in KINDS and "cards" in rs.kinds.files


def test_the_generated_model_is_frozen_strict_and_closed():
    model = load_ruleset(PACK).record_kinds["card"].model
    good = {"id": "c", "cost": "1 coin", "effect": "gain 1 coin", "value": 3, "suit": "cups", "stack": "market",
            "provenance": "exact", "source": "t"}
    card = model.model_validate(good)
    with pytest.raises(ValidationError):
        card.value = 4
    for wrong in ({"value": "3"}, {"value": 10}, {"suit": "swords"}, {"colour": "red"}, {"id": "Card"}):
        with pytest.raises(ValidationError):
            model.model_validate({**good, **wrong})
    assert model.model_fields["cost"].description == "Paid to buy the card."


def test_a_broken_record_of_a_declared_kind_is_reported_where_it_is(pack):
    text = (pack / "cards.yaml").read_text()
    (pack / "cards.yaml").write_text(text.replace("value: 1,", 'value: "1",').replace("suit: coins", "suit: swords")
                                     .replace("stack: market, marks", "stack: markte, marks"))
    f = pack / "cards.yaml"
    assert _errors(pack) == [(*_at(f, '"1"'), "E203"), (*_at(f, "swords"), "E204")]
    f.write_text(text.replace("stack: market, marks", "stack: markte, marks"))
    assert _errors(pack) == [(*_at(f, "markte"), "E320")]  # an unknown zone


def test_a_broken_declaration_is_reported_at_its_line_and_column(pack):
    text = (pack / "kinds.yaml").read_text()
    (pack / "kinds.yaml").write_text(text.replace("type: integer, min: 0", "type: integr, min: 0")
                                     .replace("type: text, required", "type: text, of: zone, required"))
    f = pack / "kinds.yaml"
    assert _errors(pack) == [(*_at(f, "integr"), "E211"), (*_at(f, "zone", 15), "E213")]


def test_an_overlay_adds_and_removes_records_of_a_declared_kind():
    rs = load_ruleset(PACK, ["cheap"])
    assert [c.id for c in rs.records("card")] == ["cup_1", "cup_0"]


def test_an_overlay_cannot_change_the_declarations(tmp_path):
    overlay = tmp_path / "o.yaml"
    overlay.write_text(f"kind: overlay\nextends: {PACK}\nname: x\nprovenance: reconstructed\nsource: t\n"
                       "set:\n  record_kinds.kinds: []\n")
    assert [(e.span.line, e.code) for e in run_pipeline(overlay).errors] == [(7, "E208")]


def test_schemas_are_generated_per_pack_from_the_declarations(pack, tmp_path):
    schemas = tmp_path / "schemas"
    written = write_schemas(schemas, pack.parent)
    assert schemas / "cards" / "cards.schema.json" in written
    assert check_schemas(schemas, pack.parent) == []
    schema = json.loads((schemas / "cards" / "cards.schema.json").read_text())
    card = schema["$defs"]["Card"]
    assert card["additionalProperties"] is False
    assert card["properties"]["value"] == {"description": "Points the card scores.", "maximum": 9, "minimum": 0,
                                           "title": "Value", "type": "integer"}
    assert card["properties"]["effect"]["x-caput-dsl"] == "program"
    assert set(card["required"]) == {"id", "provenance", "source", "cost", "effect", "value", "suit", "stack"}
    overlay = json.loads((schemas / "cards" / "overlay.schema.json").read_text())
    assert overlay["properties"]["replace"]["properties"]["cards"]["items"] == {"$ref": "cards.schema.json#/$defs/Card"}
