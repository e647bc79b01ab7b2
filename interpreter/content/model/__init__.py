"""Content models: one file model per content kind, and the registry of record kinds."""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from typing import Annotated, Any, Iterator

from pydantic import BaseModel

from interpreter.content.model.base import ContentFile, Dsl, Model, Record
from interpreter.content.model.bots import BotsFile
from interpreter.content.model.flow import FlowFile
from interpreter.content.model.boards import ActionBoardFile, SlotRowFile, HexMapFile, WheelFile, ProjectsFile
from interpreter.content.model.kinds import KindTable, RecordKind, RecordKindsFile
from interpreter.content.model.overlay import OverlayFile
from interpreter.content.model.pack import PackFile
from interpreter.content.model.rules import ScoringFile, SetupFile, SoloFile
from interpreter.content.model.table import TableFile
from interpreter.content.model.tracks import RouteFile, TracksFile

# The built-in file kinds: kind name -> file model. A pack's record kinds are declared in its
# `record_kinds` files (model/kinds.py); the kind table of a pack (`KindTable.files`) adds the file
# kinds they declare and the record lists they give the built-in ones.
KINDS: dict[str, type[ContentFile]] = {
    "pack": PackFile,
    "record_kinds": RecordKindsFile,
    "wheel": WheelFile,
    "tracks": TracksFile,
    "projects": ProjectsFile,
    "hex_map": HexMapFile,
    "action_board": ActionBoardFile,
    "slot_row": SlotRowFile,
    "route": RouteFile,
    "scoring": ScoringFile,
    "setup": SetupFile,
    "solo": SoloFile,
    "bots": BotsFile,
    "flow": FlowFile,
    "table": TableFile,
    "overlay": OverlayFile,
}
# A pack without declarations: the built-in kinds only.
BUILTIN = KindTable(KINDS)


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


__all__ = ["KINDS", "BUILTIN", "KindTable", "RecordKind", "iter_dsl", "dsl_start", "effect_fields", "Model", "Record", "ContentFile"]
