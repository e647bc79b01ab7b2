"""The authoring guide's part on declared record kinds: the declaration format and the field types."""

from __future__ import annotations

from interpreter.content.model.kinds import FIELD_TYPES

_DECLARATION_EXAMPLE = """\
kind: record_kinds
kinds:
  - id: card
    doc: A card of the market.
    file: cards            # the file kind holding the records ...
    list: cards            # ... and its list field
    fields:
      cost: {type: amounts, doc: Paid to buy the card.}
      effect: {type: effect, doc: Gained when the card is bought.}
      value: {type: integer, min: 0, max: 9, doc: Points the card scores.}
      suit: {type: choice, values: [cups, coins], doc: The card's suit.}
      stack: {type: name, of: zone, attribute: true, doc: The stack (zone) the card starts in (shuffled at setup).}
      marks: {type: list, item: {type: name, of: icon}, default: [], doc: Icons printed on the card.}
      hint: {type: text, required: false, doc: A line of advice printed on the card.}
"""


def render_declared_kinds() -> str:
    """How a pack declares its record kinds: the example and the field types."""
    return "\n".join([
        "A pack declares its record kinds in a `record_kinds` file (see [`record_kinds`](#record_kinds)): for each "
        "kind its id, the file kind and list field holding its records, a `doc:`, and its fields. Every record "
        "also has `id`, `name`, `provenance`, `source` and `notes`. A field has a `type:` and a `doc:` (its "
        "description here and in the JSON Schema, so editors show it); it is required unless it has a "
        "`default:` or `required: false` (then it is none when left out). Numbers and yes/no fields, and "
        "fields marked `attribute: true`, can be tested in `where` and read as `this.<field>`. `extends:` "
        "takes the fields of a kind declared earlier (a kind without `file:` is only such a template); "
        "`file_fields:` adds fields to the file itself. Files of a declared file kind are checked against "
        "models generated from the declarations, exactly like the built-in kinds.",
        "", "```yaml", _DECLARATION_EXAMPLE.rstrip("\n"), "```", "",
        "| Field type | Holds |\n|---|---|\n" + "\n".join(f"| `{t}` | {words} |" for t, words in FIELD_TYPES.items()),
    ])
