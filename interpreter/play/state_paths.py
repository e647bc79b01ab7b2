"""Dotted paths into a game state, for scenarios: read a value, write one (copying what the path goes
through, since copies of a state share their parts), name a slot of a zone, and compare what a
scenario expects with what the state holds (``diff``: a mismatch per differing key)."""

from __future__ import annotations

import copy
import difflib
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from interpreter.runtime.state import ActionLog, ReadOnlyDict


class _Absent:
    def __repr__(self) -> str:
        return "<absent>"


ABSENT = _Absent()


class PathError(Exception):
    """A dotted path that names nothing the state can have (a scenario error, not a failure)."""


@dataclass(frozen=True)
class Mismatch:
    path: str
    expected: Any
    got: Any

    def __str__(self) -> str:
        return f"{self.path}: expected {_show(self.expected)}, got {_show(self.got)}"


def write_state(game, path: str, value: Any) -> None:
    """``write_path`` on a game's state, where a path may name a zone's slot (``zone_slot_path``); a
    slotted zone is set whole with one entry per slot, or some of its slots by a mapping of slot
    names (``zones.wall_row: {regular_1: wall_i_03}``)."""
    segs = path.split(".")
    if len(segs) in (3, 4) and segs[0] == "players" and segs[1].isdigit() and segs[2] == "owned":
        _write_owned(game, int(segs[1]), segs[3] if len(segs) == 4 else None, value)
        return
    specs = game.rules.tables.zones
    spec = slotted_zone(specs, path)
    if spec is not None and isinstance(value, dict):
        for slot, record in value.items():
            write_state(game, f"{path}.{slot}", record)
        return
    path = zone_slot_path(specs, path)
    segs = path.split(".")
    if spec is not None and isinstance(value, list) and len(value) != len(spec.slots):
        raise PathError(f"zone '{segs[1]}' has {len(spec.slots)} slots ({', '.join(spec.slots)}): give one "
                        f"entry per slot, null for an empty one, not {len(value)}")
    write_path(game.state, path, value)


def _write_owned(game, seat: int, kind: str | None, value: Any) -> None:
    """``players.N.owned.<kind>: [ids]`` (or ``players.N.owned: {kind: [ids]}``): the player's owned records
    of that kind lie in their owned zone for it (zone_effects.hold), so both are set together."""
    from interpreter.runtime import zone_effects

    if not 0 <= seat < len(game.state.players):
        raise PathError(f"'players.{seat}' is not a seat of this game (it has {len(game.state.players)})")
    entries = {kind: value} if kind is not None else value
    if not isinstance(entries, dict):
        raise PathError(f"'players.{seat}.owned' maps record kinds to lists of record ids, not {_kind(entries)}")
    tables = game.rules.tables
    for k, ids in entries.items():
        if not isinstance(ids, list) or not all(isinstance(r, str) for r in ids):
            raise PathError(f"'players.{seat}.owned.{k}' holds a list of record ids, not {_kind(ids)}")
        wrong = [r for r in ids if tables.kind_of.get(r) != k]
        if wrong:
            raise PathError(f"'players.{seat}.owned.{k}': {', '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} not {k} records")
        try:
            zone_effects.hold(tables, game.state, seat, k, ids)
        except zone_effects.ZoneError as exc:  # no owned zone holds the kind
            raise PathError(f"'players.{seat}.owned.{k}': {exc}") from None


def slotted_zone(specs: dict, path: str):
    """The spec of the slotted zone a path names whole (``zones.<zone key>``), else None."""
    segs = path.split(".")
    spec = specs.get(segs[1].partition("@")[0]) if len(segs) == 2 and segs[0] == "zones" else None
    return spec if spec is not None and spec.slots else None


def zone_slot_path(specs: dict, path: str) -> str:
    """A path into a slotted zone may name its slot (``zones.wall_row.special_1``): the path with the
    slot's index in its place. Other paths come back as they are."""
    segs = path.split(".")
    if len(segs) != 3 or segs[0] != "zones" or segs[2].isdigit():
        return path
    spec = specs.get(segs[1].partition("@")[0])
    if spec is None or not spec.slots:
        return path
    if segs[2] not in spec.slots:
        raise PathError(f"zone '{segs[1]}' has no slot '{segs[2]}'; its slots: {', '.join(spec.slots)}")
    return f"zones.{segs[1]}.{spec.slots.index(segs[2])}"


def read_path(root: Any, path: str) -> Any:
    """The value at a dotted path; ABSENT where a dictionary or list has no such entry."""
    obj, done = root, []
    for seg in path.split("."):
        if obj is None or obj is ABSENT:
            return ABSENT
        obj = _child(obj, seg, ".".join(done), write=False)
        done.append(seg)
    return obj


def write_path(root: Any, path: str, value: Any) -> None:
    """Replace the value at a dotted path (creating intermediate dictionaries). Every container on the way is
    replaced by a copy first: copies of a game state share the parts neither changes (state.py), and the
    engine remembers some results by the identity of such parts (a row of tiles), so none is changed in place."""
    segs = path.split(".")
    parent = read_path(root, ".".join(segs[:-1])) if len(segs) > 1 else None
    if isinstance(parent, tuple):  # an entry of a zone (a slot): the zone gets new contents
        _child(parent, segs[-1], ".".join(segs[:-1]), write=True)
        if value is not None and not isinstance(value, str):
            raise PathError(f"'{path}' holds a record id or null, not {_kind(value)}")
        i = int(segs[-1])
        write_path(root, ".".join(segs[:-1]), [*parent[:i], value, *parent[i + 1:]])
        return
    obj, frozen = root, []  # frozen: the read-only mappings on the way, written as dicts and then made read-only again
    for i, seg in enumerate(segs[:-1]):
        nxt = _child(obj, seg, ".".join(segs[:i]), write=True)
        if nxt is ABSENT and isinstance(obj, dict):
            nxt = obj[seg] = {}
        if nxt is None or nxt is ABSENT:
            raise PathError(f"'{'.'.join(segs[: i + 1])}' is empty: nothing to set inside it")
        if isinstance(nxt, ReadOnlyDict):
            nxt = dict(nxt)
            frozen.append((obj, seg, nxt))
        else:
            nxt = copy.copy(nxt)
        _put(obj, seg, nxt)
        obj = nxt
    last, where = segs[-1], ".".join(segs[:-1])
    old = _child(obj, last, where, write=True)
    if old is not None and old is not ABSENT and _kind(old) != _kind(value):
        raise PathError(f"'{path}' holds {_kind(old)}, not {_kind(value)}")
    if is_dataclass(old) or (is_dataclass(obj) and old is None and isinstance(value, (dict, list))):
        raise PathError(f"'{path}' is a structure; set its fields one by one, or reach it through actions")
    value = copy.deepcopy(value)
    if isinstance(value, list) and (isinstance(old, tuple) or (len(segs) == 2 and segs[0] == "zones")):
        value = tuple(value)  # a zone's contents (and any tuple) stay a tuple: they are shared, never changed
    elif isinstance(old, ActionLog):
        value = ActionLog(value)
    elif isinstance(old, ReadOnlyDict):
        value = ReadOnlyDict(value)
    _put(obj, last, value)
    for holder, seg, mapping in reversed(frozen):
        _put(holder, seg, ReadOnlyDict(mapping))


def _put(obj: Any, seg: str, value: Any) -> None:
    if is_dataclass(obj):
        if getattr(obj, "__dataclass_params__").frozen:
            raise PathError(f"'{seg}' of {type(obj).__name__} cannot be set: it is kept consistent by the engine "
                            "(reach it through actions)")
        setattr(obj, seg, value)
    elif isinstance(obj, dict):
        obj[seg] = value
    else:
        obj[int(seg)] = value


def _child(obj: Any, seg: str, where: str, write: bool) -> Any:
    here = f"'{where}'" if where else "the state"
    if is_dataclass(obj):
        names = [f.name for f in fields(obj)]
        if seg not in names:
            hint = difflib.get_close_matches(seg, names, n=1)
            extra = f"; did you mean '{hint[0]}'?" if hint else f"; it has: {', '.join(names)}"
            raise PathError(f"{here} has no field '{seg}'{extra}")
        return getattr(obj, seg)
    if isinstance(obj, dict):
        return obj.get(seg, ABSENT)
    if isinstance(obj, (list, tuple)):
        if not seg.isdigit():
            raise PathError(f"{here} is a list: '{seg}' must be an index (0, 1, ...)")
        if int(seg) < len(obj):
            return obj[int(seg)]
        if write:
            raise PathError(f"{here} has {len(obj)} entries: no index {seg}")
        return ABSENT
    raise PathError(f"{here} is {_kind(obj)}: it has no '{seg}'")


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a truth value"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (list, tuple, ActionLog)):
        return "a list"
    if isinstance(value, dict) or is_dataclass(value):
        return "a mapping"
    return "nothing" if value is None else type(value).__name__


def plain(value: Any) -> Any:
    """State values as YAML-comparable data: dataclasses to dicts, tuples (and the action log) to lists."""
    if isinstance(value, ActionLog):
        return value.to_list()
    if is_dataclass(value):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def diff(path: str, expected: Any, got: Any) -> list[Mismatch]:
    if expected is None and got in (None, ABSENT):
        return []
    if isinstance(expected, dict) and isinstance(got, dict):
        out = []
        for k in list(expected) + [k for k in got if k not in expected]:
            out += diff(f"{path}.{k}", expected.get(k, ABSENT), got.get(k, ABSENT))
        return out
    if _same(expected, got):
        return []
    return [Mismatch(path, expected, got)]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return not diff("", a, b)
    return a == b


class RawText(str):
    """Text shown as it is in a mismatch (a description, not a value)."""


def _show(value: Any) -> str:
    if isinstance(value, RawText):
        return str(value)
    if value is ABSENT:
        return "<absent>"
    if isinstance(value, str):
        return repr(value)
    return str(value)
