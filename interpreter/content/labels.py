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
        found: list[BaseModel] = []
        for models in ruleset.models.values():
            for model in models:
                _named(model, found)
        for model in found:  # records, and files with an id (a wheel, a row of slots): their names first
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


def _named(model, into: list[BaseModel]) -> None:
    """Every model with an id and a name inside a content model (records, and files with an id), depth first."""
    if isinstance(getattr(model, "id", None), str) and isinstance(getattr(model, "name", None), str):
        into.append(model)
    if isinstance(model, BaseModel):
        for field in type(model).model_fields:
            value = getattr(model, field)
            if isinstance(value, (list, tuple)):
                for item in value:
                    _named(item, into)
            elif isinstance(value, BaseModel):
                _named(value, into)
