"""Content models: one file model per content kind, and the registry of record kinds."""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from typing import Annotated, Any, Iterator

from pydantic import BaseModel

from interpreter.content.model.base import ContentFile, Dsl, Model, Record
from interpreter.content.model.bots import BotsFile
from interpreter.content.model.boards import ActionBoardFile, BridgeFile, BridgeTile, CityFile, CraneFile, ProjectsFile
from interpreter.content.model.cards import (
    Plaza, PlazasFile, ProductionToken, ProductionTokensFile, Seal, SealsFile, Technology,
    TechnologiesFile, WealthBonus, WealthBonusesFile,
)
from interpreter.content.model.overlay import OverlayFile
from interpreter.content.model.pack import PackFile
from interpreter.content.model.rules import ScoringFile, SetupFile, SoloFile
from interpreter.content.model.tiles import BuildingsFile, BuildingTile, UpgradesFile, UpgradeTile, WallsFile, WallTile
from interpreter.content.model.tracks import KingsRoadFile, TracksFile

# kind name -> file model. A pack holds one file of each singleton kind and any
# number of files of a list kind (their records are concatenated).
KINDS: dict[str, type[ContentFile]] = {
    "pack": PackFile,
    "crane": CraneFile,
    "tracks": TracksFile,
    "wealth_bonuses": WealthBonusesFile,
    "production_tokens": ProductionTokensFile,
    "projects": ProjectsFile,
    "city": CityFile,
    "action_board": ActionBoardFile,
    "upgrades": UpgradesFile,
    "walls": WallsFile,
    "buildings": BuildingsFile,
    "technologies": TechnologiesFile,
    "bridge": BridgeFile,
    "kings_road": KingsRoadFile,
    "plazas": PlazasFile,
    "seals": SealsFile,
    "scoring": ScoringFile,
    "setup": SetupFile,
    "solo": SoloFile,
    "bots": BotsFile,
    "overlay": OverlayFile,
}


@dataclass(frozen=True)
class RecordKind:
    """A kind of record effects can count, test and use (`count(wall)`, `use upper of any plaza`)."""

    name: str
    file_kind: str
    field: str
    model: type[Record]


RECORD_KINDS: dict[str, RecordKind] = {
    rk.name: rk
    for rk in (
        RecordKind("upgrade", "upgrades", "tiles", UpgradeTile),
        RecordKind("wall", "walls", "tiles", WallTile),
        RecordKind("building", "buildings", "tiles", BuildingTile),
        RecordKind("technology", "technologies", "technologies", Technology),
        RecordKind("plaza", "plazas", "plazas", Plaza),
        RecordKind("seal", "seals", "seals", Seal),
        RecordKind("bridge_tile", "bridge", "tiles", BridgeTile),
        RecordKind("production_token", "production_tokens", "tokens", ProductionToken),
        RecordKind("wealth_bonus", "wealth_bonuses", "bonuses", WealthBonus),
    )
}
# Kinds whose files merge when a pack has several (lists of records); the others are singletons.
# Kinds whose files hold records by id (overlays can replace, add and remove them).
RECORD_FILE_KINDS = {rk.file_kind for rk in RECORD_KINDS.values()}
# Only files that hold nothing but their record list can be split; e.g. the bridge also holds its
# plank spaces and is a singleton.
LIST_KINDS = {rk.file_kind for rk in RECORD_KINDS.values() if set(KINDS[rk.file_kind].model_fields) == {"kind", rk.field}}


def dsl_start(annotation: Any, metadata: list | tuple = ()) -> str | None:
    """The DSL start rule of a field annotation, looking through Optional/list/Annotated."""
    for m in metadata:
        if isinstance(m, Dsl):
            return m.start
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return dsl_start(typing.get_args(annotation)[0], annotation.__metadata__)
    if origin in (typing.Union, types.UnionType, list, tuple):
        for arg in typing.get_args(annotation):
            found = dsl_start(arg)
            if found:
                return found
    return None


def iter_dsl(model: BaseModel, path: tuple = ()) -> Iterator[tuple[tuple, str, str]]:
    """Every DSL string in a validated model: (path, start rule, text)."""
    for name, info in type(model).model_fields.items():
        value = getattr(model, name)
        start = dsl_start(info.annotation, info.metadata)
        yield from _iter_value(value, start, path + (name,))


def _iter_value(value, start, path):
    if value is None:
        return
    if isinstance(value, str):
        if start:
            yield path, start, value
    elif isinstance(value, BaseModel):
        yield from iter_dsl(value, path)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from _iter_value(v, start, path + (i,))


def effect_fields(model: type[BaseModel]) -> frozenset[str]:
    return frozenset(n for n, f in model.model_fields.items() if dsl_start(f.annotation, f.metadata) == "program")


__all__ = ["KINDS", "RECORD_KINDS", "RECORD_FILE_KINDS", "LIST_KINDS", "RecordKind", "iter_dsl", "dsl_start", "effect_fields", "Model", "Record", "ContentFile"]
