"""Runtime game state: plain data, cheap to copy, JSON round-trippable, never re-validated.

Nothing here knows a game: resources, tracks, zones and kinds are the ids the
content declares. Mutation happens only through the effect machine and the
engine, which work on a copy (``clone``) so an illegal action leaves the
original untouched.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from interpreter.runtime.flow import FlowCursor
from interpreter.runtime.menu import MenuLog
from interpreter.runtime.spaces import Placement


class ReadOnlyDict(dict):
    """A mapping of the state that its copies share until one of them changes it (a player's rarely
    changed fields; the owners, spaces, dice, shared counts and marks): it is replaced then
    (``d.with_entry(key, value)``), never changed in place, which its type enforces. Reads are a dict's."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("this mapping is shared by copies of the state: replace it, do not change it in place")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse

    def with_entry(self, key, value) -> "ReadOnlyDict":
        """A copy with one entry set (the state then holds the copy)."""
        return ReadOnlyDict({**self, key: value})

    def merged(self, entries: dict) -> "ReadOnlyDict":
        """A copy with these entries set."""
        return ReadOnlyDict({**self, **entries})

    def __reduce__(self):
        return ReadOnlyDict, (dict(self),)  # rebuilt whole, not item by item (pickle, copy)


@dataclass(slots=True)
class PlayerState:
    """A player's part of the state. The first fields change in most actions and a copy of the player
    copies them; the ones from ``grids`` on change in few, so they are read-only (``ReadOnlyDict`` and
    tuples), replaced when they change, and shared by copies (``_copy_player``)."""

    seat: int
    holdings: dict[str, int] = field(default_factory=dict)
    score: int = 0
    breakdown: dict[str, int] = field(default_factory=dict)  # source (a rule or content id) -> points
    tracks: dict[str, int] = field(default_factory=dict)  # track id -> marker position
    grids: ReadOnlyDict[str, list[int]] = field(default_factory=ReadOnlyDict)  # grid id -> [row, col] of the marker
    track_tokens: ReadOnlyDict[str, list[str]] = field(default_factory=ReadOnlyDict)  # track id -> records kept on it
    owned: ReadOnlyDict[str, list[str]] = field(default_factory=ReadOnlyDict)  # record kind -> ids, in order gained
    acquired: ReadOnlyDict[str, int] = field(default_factory=ReadOnlyDict)  # "kind:id" -> turn it was gained
    milestones: tuple[str, ...] = ()  # one-time bonuses already taken
    pieces_free: ReadOnlyDict[str, int] = field(default_factory=ReadOnlyDict)
    permits: tuple[str, ...] = ()  # rights granted this turn
    area: ReadOnlyDict[str, list[list]] = field(default_factory=ReadOnlyDict)  # personal hex "q,r" -> [[tile, rotation], ...], top last
    used: tuple[str, ...] = ()  # connection ends that have paid (R-CONN-1)

    def __post_init__(self) -> None:
        _make_read_only(self, _SHARED_MAPS, _SHARED_SEQUENCES)

    def add_points(self, points: int, source: str) -> None:
        self.score += points
        self.breakdown[source] = self.breakdown.get(source, 0) + points


@dataclass(slots=True)
class Frame:
    """A program being run: which compiled block, where in it, for whom and on whose behalf."""

    key: str  # DslField key of the program
    addr: list[int]  # path to the block: step index, sub-block index, ... (see machine.block_at)
    pc: int
    player: int
    source: str  # what the points scored here are attributed to
    this: list[str] | None = None  # [kind, id] of the record that owns the effect
    event: dict[str, Any] | None = None  # event parameters inside a trigger body
    trigger: int | None = None  # index of the trigger whose body this is (None: the program's steps)
    remaining: int | None = None  # repetitions left, for the body of a counted `repeat`


@dataclass(slots=True)
class Decision:
    """A choice the machine waits for: answered by the index of one option."""

    player: int
    kind: str  # choose | may | may_pay | repeat | keep
    options: list[str]
    data: dict[str, Any] = field(default_factory=dict)


def combined_dict(obj) -> None:
    """Give an object whose class has cached properties a plain dict of its own: Python 3.11 keeps
    such an instance's attributes in a dict that shares its keys with the class (a cached property
    writes there), and does not specialize reading any attribute of it, which the rules and the
    layout, read many times per action, cannot afford."""
    object.__setattr__(obj, "__dict__", dict(obj.__dict__))


def without(items: tuple, item) -> tuple:
    """A read-only sequence of a player with the first ``item`` taken out (as list.remove does)."""
    i = items.index(item)
    return items[:i] + items[i + 1:]


def _make_read_only(obj, maps: tuple[str, ...], sequences: tuple[str, ...]) -> None:
    """The read-only fields of a player or a state given as plain data (a save, a test): made
    ReadOnlyDicts and tuples."""
    for name in maps:
        if type(getattr(obj, name)) is not ReadOnlyDict:
            setattr(obj, name, ReadOnlyDict(getattr(obj, name)))
    for name in sequences:
        if type(getattr(obj, name)) is not tuple:
            setattr(obj, name, tuple(getattr(obj, name)))


_SHARED_MAPS = ("grids", "track_tokens", "owned", "acquired", "pieces_free", "area")
_SHARED_SEQUENCES = ("milestones", "permits", "used")


def _data(x):
    """Copy JSON-like data: dicts and lists are copied, everything else is immutable.
    (Leaves are tested inline: most values are strings and numbers, and a call per leaf doubles the cost.)"""
    t = type(x)
    if t is dict:
        return {k: (_data(v) if type(v) in _CONTAINERS else v) for k, v in x.items()}
    if t is list:
        return [(_data(v) if type(v) in _CONTAINERS else v) for v in x]
    return x


_CONTAINERS = (dict, list)


_new = object.__new__


def _copy_player(p: PlayerState) -> PlayerState:
    # Built field by field: the dataclass __init__ costs as much again (tests/unit/test_state.py checks
    # that every field is copied or shared). The read-only fields are shared: they are replaced when
    # they change.
    c = _new(PlayerState)
    c.seat, c.score = p.seat, p.score
    c.holdings, c.breakdown, c.tracks = p.holdings.copy(), p.breakdown.copy(), p.tracks.copy()
    c.grids, c.track_tokens, c.owned, c.acquired = p.grids, p.track_tokens, p.owned, p.acquired
    c.milestones, c.pieces_free, c.permits, c.area, c.used = p.milestones, p.pieces_free, p.permits, p.area, p.used
    return c


class ActionLog:
    """The actions applied so far, oldest first, as a persistent list: each entry is linked to the one
    before it, so a copy of a state shares the whole log (``copy`` is two assignments) and an append
    touches no older entry. A copy is made for every action tried, and copying a list of a few
    hundred actions, each a separate string object, touched as many objects again.
    Reads (iteration, indexing, ``len``, ``==`` with a list) see a plain list of the actions."""

    __slots__ = ("_last", "_len")
    json_shape = list[str]  # how a save holds it (play/savefile.py checks a save against this)

    def __init__(self, actions=()):
        self._last, self._len = None, 0
        for action in actions:
            self.append(action)

    def append(self, action: str) -> None:
        self._last = (self._last, action)
        self._len += 1

    def copy(self) -> "ActionLog":
        other = _new(ActionLog)
        other._last, other._len = self._last, self._len
        return other

    def to_list(self) -> list[str]:
        out, node = [None] * self._len, self._last
        for i in range(self._len - 1, -1, -1):
            node, out[i] = node
        return out

    def __len__(self) -> int:
        return self._len

    def __iter__(self):
        return iter(self.to_list())

    def __getitem__(self, index):
        return self.to_list()[index]

    def count(self, action: str) -> int:
        return self.to_list().count(action)

    def index(self, action: str) -> int:
        return self.to_list().index(action)

    def __eq__(self, other) -> bool:
        if isinstance(other, ActionLog):
            return self._len == other._len and (self._last is other._last or self.to_list() == other.to_list())
        return isinstance(other, list) and self.to_list() == other

    __hash__ = None  # a changing sequence, like a list

    def __repr__(self) -> str:
        return repr(self.to_list())

    def __deepcopy__(self, memo) -> "ActionLog":
        return self.copy()  # its entries are immutable (dataclasses.asdict deep-copies the fields)

    def __reduce__(self):
        return ActionLog, (self.to_list(),)  # pickled flat: a long game's chain would nest too deep


@dataclass
class GameState:
    players: list[PlayerState]
    turn: int = 1
    current: int = 0
    frames: list[Frame] = field(default_factory=list)
    decision: Decision | None = None
    flags: tuple[str, ...] = ()  # once-per-turn/round/game trigger marks
    expiring: tuple[dict, ...] = ()  # granted permits and where their `or` fallback is (entries replaced, never changed)
    # The engine's shared boards (crane, era, rows, city, claims, ...). Their values are replaced, never changed
    # in place, so copies of the state share them (a copy costs one dict instead of the whole city).
    table: dict[str, Any] = field(default_factory=dict)
    turn_info: dict[str, Any] = field(default_factory=dict)  # what this turn has done (values replaced, not changed)
    rng: list = field(default_factory=list)  # random.Random state, so chance is part of the state
    log: ActionLog = field(default_factory=ActionLog)
    # The generic core's parts (docs/core.md); a pack that does not use one leaves it empty. Values are
    # immutable (tuples, frozen dataclasses) or replaced, never changed in place, so copies share them.
    zones: dict[str, tuple] = field(default_factory=dict)  # zone key ("id" or "id@seat") -> contents (zones.py)
    owners: ReadOnlyDict[str, int] = field(default_factory=ReadOnlyDict)  # record id -> seat that owns it (kept when it moves to a shared zone)
    spaces: ReadOnlyDict[str, tuple] = field(default_factory=ReadOnlyDict)  # space id -> occupants, Placement tuples (spaces.py)
    dice: ReadOnlyDict[str, int] = field(default_factory=ReadOnlyDict)  # die id -> the value it showed when last rolled
    shared: ReadOnlyDict[str, int] = field(default_factory=ReadOnlyDict)  # shared resource -> the table's count
    marks: ReadOnlyDict[str, ReadOnlyDict] = field(default_factory=ReadOnlyDict)  # record id -> mark or resource -> count it keeps
    flow: Any = None  # FlowCursor (flow.py) of a pack that declares a flow
    menu: Any = None  # MenuLog (menu.py) of a pack that declares a flow

    def __post_init__(self) -> None:
        if not isinstance(self.log, ActionLog):
            self.log = ActionLog(self.log)  # given as a list
        _make_read_only(self, ("owners", "spaces", "dice", "shared", "marks"), ("flags", "expiring"))
        if any(type(kept) is not ReadOnlyDict for kept in self.marks.values()):
            self.marks = ReadOnlyDict({rid: ReadOnlyDict(kept) for rid, kept in self.marks.items()})
        self._own = -1  # bit i: players[i] belongs to this state alone and may be changed in place
        self._own_frames = 0  # frames[i] for i >= this belong to this state alone (see top_frame)
        self._steps = 0  # steps the effect machine took during the action being applied (Machine.run)

    def player(self, i: int) -> PlayerState:
        """Player i, to read or change: a player shared with a copy of the state is copied first."""
        if not self._own >> i & 1:
            self.players[i] = _copy_player(self.players[i])
            self._own |= 1 << i
        return self.players[i]

    def top_frame(self) -> Frame:
        """The frame on top of the stack, to run or change: one shared with a copy of the state is copied
        first. Only the top frame is ever changed (its pc, a native's event), and frames pushed since the
        copy are this state's own, so the shared ones are those below the height the stack had then."""
        frames = self.frames
        i = len(frames) - 1
        if i < self._own_frames:
            f = frames[i]
            # A program frame changes only its pc; its addr, this and event are read (a sub-block's frame
            # is a new one). A native frame (key "@...") keeps its working data in its event and changes it.
            event = _data(f.event) if f.key[:1] == "@" else f.event
            frames[i] = Frame(f.key, f.addr, f.pc, f.player, f.source, f.this, event, f.trigger, f.remaining)
            self._own_frames = i
        return frames[i]

    def clone(self) -> "GameState":
        """A copy as deep as the engine needs; hand-written because the state is plain JSON-like data
        (deepcopy is ~10x slower). Players are shared until one side changes them (``player``): an
        action changes one or two of them, and a copy is made for every action tried."""
        self._own = 0
        self._own_frames = len(self.frames)
        copy = _new(GameState)  # field by field, as _copy_player (the dataclass __init__ doubles the cost)
        copy.players = self.players.copy()
        copy.turn, copy.current = self.turn, self.current
        copy.frames = self.frames.copy()  # shared until changed (top_frame)
        copy.decision = self.decision  # replaced, never changed in place
        copy.flags, copy.expiring = self.flags, self.expiring  # tuples
        copy.table = self.table.copy()
        copy.turn_info = self.turn_info.copy()  # its values are replaced, never changed in place
        copy.rng = self.rng  # replaced, never mutated, after setup
        copy.log = self.log.copy()
        copy.zones = self.zones.copy()
        copy.owners, copy.spaces, copy.dice = self.owners, self.spaces, self.dice  # read-only, replaced when they change
        copy.shared, copy.marks = self.shared, self.marks
        copy.flow, copy.menu = self.flow, self.menu  # frozen values
        copy._own = 0
        copy._own_frames = self._own_frames
        copy._steps = 0  # a copy is made for each action, and the step budget is per action
        return copy

    def to_json(self) -> str:
        data = asdict(self)
        data["log"] = self.log.to_list()
        for name in CORE_PARTS:
            if not data[name]:
                del data[name]  # a part the pack does not use is left out: such a state's text is as before
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    @staticmethod
    def from_json(text: str) -> "GameState":
        data = json.loads(text)
        players = [PlayerState(**p) for p in data.pop("players")]
        frames = [Frame(**f) for f in data.pop("frames")]
        decision = data.pop("decision")
        data["log"] = ActionLog(data.get("log", ()))
        data["zones"] = {k: tuple(v) for k, v in data.get("zones", {}).items()}
        data["spaces"] = {k: tuple(Placement(*p) for p in v) for k, v in data.get("spaces", {}).items()}
        if data.get("flow"):
            data["flow"] = FlowCursor(**{k: tuple(v) if isinstance(v, list) else v for k, v in data["flow"].items()})
        if data.get("menu"):
            data["menu"] = MenuLog(**{k: tuple((verb, n) for verb, n in v) for k, v in data["menu"].items()})
        return GameState(players=players, frames=frames, decision=Decision(**decision) if decision else None, **data)


CORE_PARTS = ("zones", "owners", "spaces", "dice", "shared", "marks", "flow", "menu")
