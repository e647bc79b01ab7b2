"""What a game shows people instead of ids: the display name of every record, and of every source points
come from (a score breakdown's keys), built once per ruleset from the content's `name` fields.

A breakdown's key is the id of what scored: a record (a tile, a card, a technology), a final scoring
step, a declared thing (an icon, an action), or `<owner>:<part>`: a track's space (`<track>:<n>`), a
slot of a row (`<row>:<slot>`), a wheel's position or overflow token, a site's premium. A record with
no `name` is shown by its id in words (`wall_ii_10` -> "Wall II 10").
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel


ROMAN = {"i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"}
# the parts the engine itself names in a source (runtime/turn.py, runtime/natives/building.py)
ENGINE_PARTS = {"position": "points of the position taken", "overflow": "the overflow token"}
ENGINE_OWNERS = {"site": "site premium"}


def words(ident: str) -> str:
    """An id in words, capitalised: `wall_ii_10` -> "Wall II 10", `open_plazas` -> "Open plazas"."""
    parts = [p.upper() if p in ROMAN else p for p in ident.split("_") if p]
    text = " ".join(parts)
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Labels:
    names: dict[str, str]  # id -> display name: every record with an id, and the pack's declared things
    tracks: frozenset[str]

    @classmethod
    def of(cls, ruleset) -> "Labels":
        """The ruleset's labels (built once, kept with the ruleset)."""
        hit = ruleset.memo.get("labels")
        if hit is None:
            hit = ruleset.memo["labels"] = cls._build(ruleset)
        return hit

    @classmethod
    def _build(cls, ruleset) -> "Labels":
        names: dict[str, str] = {}
        scoring = ruleset.single("scoring")
        for step in scoring.final if scoring is not None else ():  # a breakdown's key is a step's id before anything's
            if step.name:
                names[step.id] = step.name
        # the records of the pack's files first, then what the pack file declares (an icon may share a grid's id)
        for _, models in sorted(ruleset.models.items(), key=lambda kv: kv[0] == "pack"):
            for model in (m for top in models for m in _nested(top)):
                # records, and files with an id (a wheel, a row of slots): their names first
                if isinstance(getattr(model, "id", None), str) and isinstance(getattr(model, "name", None), str):
                    names.setdefault(model.id, model.name)
        for ident, name in ruleset.names.display.items():  # then declared things, bare ids only
            if ":" not in ident and name != ident.replace("_", " "):
                names.setdefault(ident, name)
        tracks = frozenset(k.partition(":")[2] for k in ruleset.names.display if k.startswith("track:"))
        return cls(names, tracks)

    def name(self, ident: str, capital: bool = True) -> str:
        """The display name of a record or declared thing; its id in words when it has none (then in lower
        case inside a phrase, unless ``capital``: a name as the content writes it keeps its capitals)."""
        found = self.names.get(ident)
        if found:
            return found[:1].upper() + found[1:] if capital else found
        plain = words(ident)
        return plain if capital else plain[:1].lower() + plain[1:]

    def source(self, key: str) -> str:
        """What a breakdown's key names, in words: `<track>:3` -> "<the track's name>, space 3"."""
        if key in self.names:
            return self.name(key)
        owner, sep, part = key.partition(":")
        if not sep:
            return words(key)
        if owner in self.tracks:
            return f"{self.name(owner)}, space {part}"
        if owner in ENGINE_OWNERS and owner not in self.names:
            return f"{ENGINE_OWNERS[owner][:1].upper()}{ENGINE_OWNERS[owner][1:]}: {self.name(part, False)}"
        return f"{self.name(owner)}: {ENGINE_PARTS.get(part) or self.name(part, False)}"

    def shown(self, sources=()) -> dict[str, str]:
        """Every named id's display name, and the words for these breakdown keys: what a page shows by id."""
        out = {ident: self.name(ident) for ident in self.names}
        out.update((key, self.source(key)) for key in sources)
        return out

    def breakdown(self, breakdown: dict[str, int]) -> dict[str, int]:
        """A breakdown by display names (sources that read the same are added together), largest first."""
        out: dict[str, int] = {}
        for key, points in breakdown.items():
            label = self.source(key)
            out[label] = out.get(label, 0) + points
        return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))


def _nested(model):
    """Every content model inside a model, itself first, depth first."""
    if isinstance(model, BaseModel):
        yield model
        for field in type(model).model_fields:
            value = getattr(model, field)
            for item in value if isinstance(value, (list, tuple)) else (value,):
                yield from _nested(item)


HIDDEN_FIELDS = {"id", "name", "provenance", "source", "notes"}


def record_help(ruleset, ident: str) -> list[str] | None:
    """A record in words, for `help <record>` and a page's tooltips: its name and kind, each effect and cost
    in English (as `caput content report` writes them), its other printed values; None when no record has
    this id or name."""
    from interpreter.dsl.english import to_english

    index = _records_by_id(ruleset)
    model = index.get(ident) or index.get(ident.lower())
    if model is None:
        return None
    labels = Labels.of(ruleset)
    kind = ruleset.symbols.record_kinds.get(model.id)
    head = labels.name(model.id) + (f" ({model.id})" if labels.name(model.id) != words(model.id) else "")
    out = [head + (f", {ruleset.names.of(kind, 'kind')}" if kind else "")]
    effects = [f for f in ruleset.fields if f.record == model.id]
    said = set()
    for f in effects:
        field = next((p for p in reversed(f.path) if isinstance(p, str)), "")
        said.add(field)
        out.append(f"  {field.replace('_', ' ')}: {to_english(f.ast, ruleset.names)}")
    for field in type(model).model_fields:
        value = getattr(model, field)
        if field in HIDDEN_FIELDS or field in said or value in (None, [], (), 0, False, ""):
            continue  # (a zero, a no: nothing printed on the record)
        if value is True:
            out.append(f"  {field.replace('_', ' ')}")
        elif isinstance(value, (str, int, float)):
            out.append(f"  {field.replace('_', ' ')}: {value}")
        elif isinstance(value, (list, tuple)) and all(isinstance(v, (str, int)) for v in value):
            out.append(f"  {field.replace('_', ' ')}: {', '.join(str(v) for v in value)}")
    if getattr(model, "notes", None):
        out.append(f"  notes: {model.notes}")
    return out


def _records_by_id(ruleset) -> dict[str, BaseModel]:
    """Every record of the pack by its id (and by its name in lower case), built once per ruleset."""
    index = ruleset.memo.get("records_by_id")
    if index is None:
        found = [m for models in ruleset.models.values() for top in models for m in _nested(top)
                 if isinstance(getattr(m, "id", None), str) and hasattr(m, "provenance")]
        index = ruleset.memo["records_by_id"] = {}
        for model in found:
            index.setdefault(model.id, model)
        for model in found:
            if getattr(model, "name", None):
                index.setdefault(model.name.lower(), model)
    return index


def is_record(ruleset, ident: str) -> bool:
    """Whether a record of the pack has this id (what `record_help` can say)."""
    model = _records_by_id(ruleset).get(ident)
    return model is not None and model.id == ident
