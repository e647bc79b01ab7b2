"""Saved games: the one reader and writer the terminal (`caput play`) and the web server share.

A save is the engine's ``Game.to_json()`` -- a header (``pack``, ``players``, ``variants``) and the
``state`` -- plus two fields the front ends add: ``seed`` (the state's seed, repeated in the header)
and ``seats`` (who plays each seat that is not the rulebook's automatic dummy: ``human`` or a bot,
as ``make_bot`` names it, e.g. ``greedy`` or ``mcts:200``). A front end may add a section of its own.

Loading checks the file before a game is built from it, and says in plain words what is wrong: a
missing or unreadable file, text that is not JSON, a value of the wrong type anywhere in the state, a
header that disagrees with the state (player count, pack, seed, variants), a log that does not lead
to the state saved. The last check replays the log from the seed on the save's rules, so a state
that loads is one the engine reached: it can be played on. ``SaveError`` never names a Python
exception; the game a front end has in progress is not touched by a load that fails.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from pathlib import Path
from typing import Any, Callable

from interpreter.errors import IllegalActionError, RulesError
from interpreter.mechanisms import market_rows
from interpreter.runtime.state import GameState
from interpreter.runtime.menu import picks_key

HUMAN = "human"


class SaveError(ValueError):
    """A file that is not a game this ruleset can go on with. ``kind``: missing | unreadable | invalid."""

    def __init__(self, reason: str, kind: str = "invalid"):
        super().__init__(reason)
        self.reason = reason
        self.kind = kind

    def describe(self, where: str) -> str:
        """One line for a person: where the save is and what is wrong with it."""
        if self.kind == "missing":
            return f"{where}: no such file"
        if self.kind == "unreadable":
            return f"cannot read {where}: {self.reason}"
        return f"{where} is not a saved caput game: {self.reason}"


# --------------------------------------------------------------------------- writing


def dumps(game, seats: list[str] | None = None, extra: dict | None = None) -> str:
    """The save of a game: the engine's JSON, its seed in the header, and who plays each seat."""
    data = json.loads(game.to_json())
    seed = game.state.table.get("seed")
    if seed is not None:
        data["seed"] = seed
    if seats is not None:
        data["seats"] = list(seats)
    data.update(extra or {})
    return json.dumps(data, sort_keys=True)


# --------------------------------------------------------------------------- reading


def read(path: Path | str) -> str:
    """The text of a save file; SaveError when it is missing or cannot be read."""
    path = Path(path)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError("no such file", "missing") from None
    except IsADirectoryError:
        raise SaveError("it is a folder, not a file", "unreadable") from None
    except UnicodeDecodeError:
        raise SaveError("the file is not UTF-8 text") from None
    except OSError as exc:
        raise SaveError(exc.strerror or "the file cannot be read", "unreadable") from None


def parse(text: str) -> dict:
    """The JSON object of a save; SaveError when the text is not JSON or holds no game state."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"the file is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except (ValueError, RecursionError):
        raise SaveError("the file is not valid JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("state"), dict):
        raise SaveError("the file holds no game state (no `state` object)")
    return data


def header_variants(data: dict) -> tuple[str, ...]:
    """The variants the save's header names (overlay files or the pack's own variant names)."""
    variants = data.get("variants")
    if variants is None:
        return ()
    if not isinstance(variants, list) or not all(isinstance(v, str) and v for v in variants):
        raise SaveError("`variants` is not a list of variant names")
    return tuple(variants)


def saved_seats(data: dict) -> list[str] | None:
    """Who plays each seat, as the save records it (None when it does not); SaveError when malformed."""
    seats = data.get("seats")
    if seats is None:
        server = data.get("server")  # saves of the web server before `seats` was in the header
        seats = server.get("seats") if isinstance(server, dict) else None
        if seats is None:
            return None
    if not isinstance(seats, list) or not all(isinstance(s, str) and s for s in seats):
        raise SaveError("`seats` is not a list of seat kinds (human or a bot name)")
    return list(seats)


def check_seats(seats: list[str], game) -> list[str]:
    """The seats of a save, checked against the game: one per seat that is not the automatic dummy,
    each `human` or a bot that can be made."""
    from interpreter.play.bots import BOTS, make_bot

    playing = sum(1 for i in range(len(game.state.players)) if not game.is_dummy(i))
    if len(seats) != playing:
        raise SaveError(f"`seats` names {len(seats)} seat(s), the game has {playing}")
    for n, spec in enumerate(seats, 1):
        if spec == HUMAN:
            continue
        if spec.partition(":")[0] not in BOTS:
            raise SaveError(f"seat {n} is played by {spec!r}, which is neither {HUMAN} nor a bot ({', '.join(BOTS)})")
        try:
            make_bot(spec, game.rules)
        except Exception:  # noqa: BLE001 - a bad option (mcts:x) or an evaluation the pack does not have
            raise SaveError(f"seat {n} is played by {spec!r}, a bot that cannot be made with this pack") from None
    return list(seats)


def load(path: Path | str, ruleset_for: Callable[[tuple[str, ...]], Any]):
    """(game, seats) from a save file. ``ruleset_for(variants)`` gives the ruleset to play the save's
    variants with (raising SaveError when they do not load); ``seats`` is None when the save has none."""
    return load_text(read(path), ruleset_for)


def load_text(text: str, ruleset_for: Callable[[tuple[str, ...]], Any]):
    """(game, seats) from the text of a save; see ``load``."""
    data = parse(text)
    ruleset = ruleset_for(header_variants(data))
    game = game_from_data(data, ruleset)
    seats = saved_seats(data)
    return game, (check_seats(seats, game) if seats is not None else None)


def game_from_data(data: dict, ruleset) -> "Game":  # noqa: F821
    """The game of a parsed save, played with ``ruleset``; SaveError when the save is not one it can go on with."""
    try:
        return _game_from_data(data, ruleset)
    except SaveError:
        raise
    except (RulesError, IllegalActionError) as exc:  # the engine's own words are for people
        raise SaveError(f"the engine cannot go on from this state: {exc}") from None
    except Exception:  # noqa: BLE001 - whatever the checks above missed: refused, never a crash
        raise SaveError("the engine cannot go on from this state") from None


def _game_from_data(data: dict, ruleset):
    from interpreter.runtime.game import Game, rules_for

    pack = data.get("pack")
    if pack is not None and pack != ruleset.pack_id:
        raise SaveError(f"the save is for the pack {_show(pack)}, this is the pack {ruleset.pack_id!r}")
    model = ruleset.single("pack")
    players = data.get("players")
    if type(players) is not int:
        raise SaveError(f"`players` should be a number of players, not {_show(players)}")
    if not model.players.min <= players <= model.players.max:
        raise SaveError(f"the save is for {players} players; this pack is for {model.players.min}..{model.players.max}")
    old_form = _from_old_form(data["state"])
    _rows_as_zones(data["state"])
    _slots_as_zone(data["state"], ruleset.single("slot_row"))
    _check_shape(data["state"], GameState, "state")
    state = GameState.from_json(json.dumps(data["state"]))
    rules = rules_for(ruleset, players)
    seats = rules.seats
    if len(state.players) != seats:
        raise SaveError(f"the header says {players} player(s), which play on {seats} seat(s), "
                        f"but the state holds {len(state.players)} seats")
    for i, p in enumerate(state.players):
        if p.seat != i:
            raise SaveError(f"the state's player {i + 1} says it sits on seat {p.seat + 1}")
    if not 0 <= state.current < seats:
        raise SaveError(f"the state's current seat {state.current + 1} is not one of its {seats} seats")
    seed = state.table.get("seed")
    if type(seed) is not int:
        raise SaveError(f"the state's seed should be a whole number, not {_show(seed)}")
    if "seed" in data and data["seed"] != seed:
        raise SaveError(f"the header's seed {_show(data['seed'])} is not the state's seed {seed}")
    server = data.get("server")
    if isinstance(server, dict) and "variants" in server:  # a front end's own record of the variants
        named = server["variants"]
        if not isinstance(named, list) or [Path(str(v)).stem for v in named] != [Path(v).stem for v in header_variants(data)]:
            raise SaveError(f"the header's variants {list(header_variants(data))} are not the ones "
                            f"the save records elsewhere ({_show(named)})")
    game = Game(rules, state)
    _check_log(game, ruleset, players, seed, data, old_form)
    if not game.is_terminal():
        game.legal_actions()
    return game


def _from_old_form(state) -> bool:
    """A state saved before the stacks were zones (``stacks``: id -> records, the rows' stacks under
    ``tiles:<kind>:<era>:<quality>``) is read in today's form: each stack in ``zones`` under its zone id.
    True when it was in the old form (the log then says what the zones hold: see _check_log)."""
    if not isinstance(state, dict) or "stacks" not in state:
        return False
    stacks = state.pop("stacks")
    if not isinstance(stacks, dict) or state.get("zones"):
        raise SaveError("state.stacks is from a save made before the stacks were zones, but beside `zones`"
                        if isinstance(stacks, dict) else f"state.stacks should be an object, not {_show(stacks)}")
    state["zones"] = {market_rows.zone_of_old_key(k) or k: v for k, v in stacks.items()}
    return True


def _rows_as_zones(state) -> None:
    """A state saved before the market rows were zones (``table.rows``: kind -> ``{"regular": [...],
    "special": [...]}``) is read in today's form: each row in ``zones`` under ``<kind>_row``, its
    regular positions first. Nothing else differs, so the log check is the usual one."""
    table = state.get("table") if isinstance(state, dict) else None
    if not isinstance(table, dict) or "rows" not in table:
        return
    rows = table.pop("rows")
    if not isinstance(rows, dict) or not all(
            isinstance(r, dict) and all(isinstance(r.get(q, []), list) for q in market_rows.QUALITIES) for r in rows.values()):
        raise SaveError(f"state.table.rows (a save made before the rows were zones) should map each row's kind "
                        f"to its regular and special positions, not {_show(rows)}")
    zones = state.setdefault("zones", {})
    if isinstance(zones, dict):  # otherwise the shape check says what is wrong with it
        for kind, row in rows.items():
            zones[market_rows.row_zone(kind)] = list(market_rows.contents_of_old_row(row))


def _slots_as_zone(state, row) -> None:
    """A state saved before the slot row was a zone (``table.<row id>``: slot -> record, absent while
    no record was laid) is read in today's form: the slot row's zone holds each record in its slot."""
    table = state.get("table") if isinstance(state, dict) else None
    zones = state.get("zones") if isinstance(state, dict) else None
    if row is None or not isinstance(table, dict) or (row.id not in table and isinstance(zones, dict) and row.id in zones):
        return
    laid, slots = table.pop(row.id, {}), [p.id for p in row.slots]
    if not isinstance(laid, dict) or not set(laid) <= set(slots) or not all(isinstance(r, str) for r in laid.values()):
        raise SaveError(f"state.table.{row.id} (a save made before the slot row was a zone) should map some of "
                        f"the slots {', '.join(slots)} to records, not {_show(laid)}")
    zones = state.setdefault("zones", {})
    if isinstance(zones, dict):  # otherwise the shape check says what is wrong with it
        zones[row.id] = [laid.get(slot) for slot in slots]


def _check_log(game, ruleset, players: int, seed: int, data: dict, old_form: bool = False) -> None:
    """The log, replayed from the seed with the save's rules, must lead to the state saved (a save made
    before the state kept its flow cursor takes the replayed state, equal to it but for the cursor; one
    made before the stacks were zones, equal to it but for the zones that were left out then because
    they were empty; one made before gained records lay in owned zones, equal to it but for those)."""
    from interpreter.runtime.game import new_game

    variants = ", ".join(header_variants(data)) or "no variants"
    where = f"(seed {seed}, {players} player(s), {variants})"
    replay = new_game(ruleset, players, seed)
    for step, action in enumerate(game.state.log, 1):
        try:
            replay.apply(action)
        except IllegalActionError as exc:
            raise SaveError(f"the log does not replay {where}: step {step} ({action}) is illegal: {_cut(exc.reason)}") from None
    saved, replayed = json.loads(game.state.to_json()), json.loads(replay.state.to_json())
    lenient = False
    if "flow" not in saved:  # saved before the state kept where the flow stands: the log says it
        replayed.pop("flow", None)
        lenient = True
    if old_form:  # saved before the stacks were zones: an empty stack was left out then
        for s in (saved, replayed):
            s["zones"] = {k: v for k, v in s.get("zones", {}).items() if v}
        lenient = True
    if _before_owned_zones(saved, replayed, game.rules.tables):
        lenient = True
    if lenient:
        if saved == replayed:
            game.state = replay.state
            return
    if game.rules.uses_offers and _limit_counts(replayed) and not _limit_counts(saved):
        _as_before_offer_limits(replayed, game.rules)  # saved before the turn offers' limits were content
        if saved == replayed:
            game.state = replay.state
            return
    if saved != replayed:
        raise SaveError(f"the state is not the one its log leads to {where}: {_first_difference(saved, replayed)} differs")


def _before_owned_zones(saved: dict, replayed: dict, tables) -> bool:
    """A save made before the records players gain lay in their owned zones has none of those zones: it
    is compared without them (nor the owners they gave the records, used up ones included), and True
    says so."""
    owned = {k for k in replayed.get("zones", {}) if tables.zones[k.partition("@")[0]].owned}
    if not owned or owned & set(saved.get("zones", {})):
        return False
    replayed["zones"] = {k: v for k, v in replayed["zones"].items() if k not in owned}
    old_owners, kind_of = saved.get("owners", {}), tables.kind_of
    owners = {r: seat for r, seat in replayed.get("owners", {}).items()
              if r in old_owners or tables.owned_zone(kind_of.get(r)) is None}
    if owners or "owners" in saved:
        replayed["owners"] = owners
    else:  # a state without owners leaves the field out
        replayed.pop("owners", None)
    return True


def _limit_counts(state: dict) -> list[str]:
    """The keys of a state's turn record that count what the turn menu's limits allow (picks of a
    limited entry, menu.picks_key; extra actions bought and not yet taken)."""
    return [k for k in state["turn_info"] if k.startswith(picks_key("")) or k == "extras"]


def _as_before_offer_limits(state: dict, rules) -> None:
    """A replayed state (JSON) as a save made before the turn offers' once-a-turn limits were their menu
    entries' `limit:` held it: the turn record marked a refresh (`refreshed`), the extra action bought
    (`extra_bought`) and taken (`extra_done`) instead of counting picks and the extra actions left."""
    info = state["turn_info"]
    refresh = rules.verb_of.get("refresh_row")
    if refresh is not None and info.get(picks_key(refresh)):
        info["refreshed"] = True
    for key in _limit_counts(state):
        if key != "extras":
            del info[key]
    if "extras" in info:
        info["extra_bought"] = True
        if info.pop("extras") == 0:
            info["extra_done"] = True


def _first_difference(a, b, here: str = "state") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k, _MISSING) != b.get(k, _MISSING):
                return _first_difference(a.get(k), b.get(k), f"{here}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{here}[{i}]")
    return here


_MISSING = object()


def _cut(text: str, most: int = 160) -> str:
    return text if len(text) <= most else text[:most - 3] + "..."


def _show(value) -> str:
    text = json.dumps(value) if not isinstance(value, float) or value == value else "NaN"
    return text if len(text) <= 40 else text[:37] + "..."


# --------------------------------------------------------------------------- the shape of the state


def _check_shape(value, kind, where: str) -> None:
    """SaveError naming the place when the JSON ``value`` is not of the type ``kind`` (a field's annotation)."""
    if kind is Any:
        return
    kind = getattr(kind, "json_shape", kind)  # a runtime type saved as plain data (the action log: a list)
    if dataclasses.is_dataclass(kind):
        if not isinstance(value, dict):
            raise SaveError(f"{where} should be an object, not {_show(value)}")
        hints = _hints(kind)
        for f in dataclasses.fields(kind):
            if f.name not in value:
                required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
                if required or (kind is GameState and f.name in ("frames", "decision")):
                    raise SaveError(f"{where} has no `{f.name}`")
                continue
            _check_shape(value[f.name], hints[f.name], f"{where}.{f.name}")
        extra = sorted(set(value) - {f.name for f in dataclasses.fields(kind)}, key=str)
        if extra:
            raise SaveError(f"{where} has an unknown field `{extra[0]}`")
        return
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return
        kind = next(a for a in args if a is not type(None))
        return _check_shape(value, kind, where)
    base = origin or kind
    if base is int:
        if type(value) is not int:
            raise SaveError(f"{where} should be a whole number, not {_show(value)}")
    elif base is str:
        if not isinstance(value, str):
            raise SaveError(f"{where} should be a text, not {_show(value)}")
    elif base is list or base is tuple:  # a tuple is saved as a list
        if not isinstance(value, list):
            raise SaveError(f"{where} should be a list, not {_show(value)}")
        if args:
            for i, item in enumerate(value):
                _check_shape(item, args[0], f"{where}[{i}]")
    elif isinstance(base, type) and issubclass(base, dict):
        if not isinstance(value, dict):
            raise SaveError(f"{where} should be an object, not {_show(value)}")
        if args:
            for k, item in value.items():
                _check_shape(item, args[1], f"{where}.{k}")


_HINTS: dict = {}


def _hints(kind) -> dict:
    if kind not in _HINTS:
        _HINTS[kind] = typing.get_type_hints(kind)
    return _HINTS[kind]

