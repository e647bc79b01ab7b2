"""The games a server keeps: the pack's variants and rulesets, sessions (a game, who plays each seat, the bots,
the undo points and the replay cache), the store of sessions in memory, and saved games.

Hidden information: undo is refused once an action since the undo point changed a face-down stack (a tile or
card was drawn, or a row refilled) or drew to keep from one.
"""

from __future__ import annotations

import os
import random
import re
import secrets
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

from fastapi import HTTPException

from interpreter.errors import ContentErrors, IllegalActionError, RulesError
from interpreter.paths import default_pack
from interpreter.play import savefile
from interpreter.play.bots import make_bot
from interpreter.runtime.game import Game, new_game
from interpreter.runtime.state import GameState

SEAT_KINDS = ("human", "random", "greedy", "planner", "best", "mcts", "dummy")
BOT_KINDS = SEAT_KINDS[1:]
AUTOMATIC = "automatic"  # the rulebook's solo dummy seat, moved by the engine itself
SAVE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
MAX_GAMES = 64  # games kept in memory; the least recently used goes first
SAVE_FORMAT = 1


# --------------------------------------------------------------------------- content


@cache
def pack_variants() -> dict[str, dict]:
    """The pack's own variants: name -> {name, title, description, path} (read with the project's loader)."""
    from interpreter.errors import ErrorBag
    from interpreter.content.source import Mapping, Scalar, load_file

    folder = Path(default_pack()) / "variants"
    out = {}
    for path in sorted(folder.glob("*.yaml")):
        doc = load_file(path, ErrorBag())  # a broken variant file is reported when it is used, not here
        root = doc.root if doc is not None and isinstance(doc.root, Mapping) else None

        def text(key: str, default: str, root=root) -> str:
            node = root.get(key) if root is not None else None
            return str(node.value) if isinstance(node, Scalar) and node.value else default

        out[path.stem] = {"name": path.stem, "title": text("name", path.stem), "description": text("description", ""),
                          "path": str(path)}
    return out


def check_variants(names) -> tuple[str, ...]:
    """Variant names a request may use: only the pack's own (a request never names a file)."""
    known = pack_variants()
    out = []
    for name in names:
        if not isinstance(name, str) or name not in known:
            raise HTTPException(400, f"unknown variant {name!r}; known: {', '.join(known) or 'none'}")
        if name not in out:
            out.append(name)
    return tuple(out)


def variant_names_of_save(data: dict) -> tuple[str, ...]:
    """The variants of a saved game: the server's own record, else the pack variants its paths name."""
    server = data.get("server")
    if isinstance(server, dict) and isinstance(server.get("variants"), list):
        return check_variants(server["variants"])
    names = []
    for v in savefile.header_variants(data):
        stem = Path(str(v)).stem
        if stem not in pack_variants():
            raise savefile.SaveError(f"the save uses the variant {v!r}, which is not one of the pack's own variants")
        names.append(stem)
    return tuple(names)


_RULESET_LOCK = threading.Lock()


@lru_cache(maxsize=32)
def _ruleset_cached(variants: tuple[str, ...]):
    from interpreter.content.ruleset import load_ruleset

    known = pack_variants()
    return load_ruleset(None, tuple(known[v]["path"] for v in variants))


def ruleset(variants: tuple[str, ...]):
    with _RULESET_LOCK:
        try:
            return _ruleset_cached(variants)
        except ContentErrors as exc:
            raise HTTPException(400, "the content does not load with these variants: "
                                + "; ".join(e.format() for e in exc.errors[:5])) from None


# --------------------------------------------------------------------------- sessions


@dataclass
class UndoPoint:
    state: GameState  # the state before a human action
    rng_state: tuple  # the bots' random generator then
    actors: int  # length of the log then
    revealed: str | None = None  # set when a later action revealed hidden information


@dataclass
class Session:
    id: str
    game: Game
    kinds: list[str]  # per seat of the state: human | random | greedy | mcts | dummy | automatic
    variants: tuple[str, ...]
    rng: random.Random
    actors: list[int | None] = field(default_factory=list)  # seat index that took each action of the log
    history: list[UndoPoint] = field(default_factory=list)
    replay: list[GameState] = field(default_factory=list)  # replay[k] = the state after k actions
    lock: threading.RLock = field(default_factory=threading.RLock)
    bots: dict[int, object] = field(default_factory=dict)
    stepwise: bool = False  # the bots move one at a time, when asked (`step_bot`), so a page can show each move
    notes: list[str | None] = field(default_factory=list)  # each step of the log in words (None: not known)

    def __post_init__(self):
        for seat, kind in enumerate(self.kinds):
            if kind in BOT_KINDS:
                self.bots[seat] = make_bot(kind, self.game.rules)

    # ------------------------------------------------------------ moving
    def human_to_act(self) -> bool:
        g = self.game
        return not g.is_terminal() and self.kinds[g.current_player] == "human"

    def apply(self, action: str, seat: int) -> None:
        """Apply one action (raises IllegalActionError, changing nothing); note what it revealed, and what it
        did in words for the log."""
        from interpreter.ui import log_text

        g = self.game
        before = hidden_fingerprint(g)
        note = log_text.apply_noted(g, action, seat)
        del self.notes[len(self.actors):]  # notes of steps undone
        self.notes += [None] * (len(self.actors) - len(self.notes))
        self.notes.append(note)
        self.actors.append(seat)
        reason = revealed(g, before, seat, action, len(g.state.log))
        if reason:
            for point in self.history:
                point.revealed = point.revealed or reason

    def run_bots(self) -> None:
        """The bots move until a person is to act or the game is over (not when stepwise: see ``step_bot``)."""
        if self.stepwise:
            return
        while self.step_bot():
            pass

    def step_bot(self) -> bool:
        """One move of the bot to act; False when no bot is to act (a person is, or the game is over)."""
        g = self.game
        if g.is_terminal() or self.kinds[g.current_player] == "human":
            return False
        seat = g.current_player
        bot = self.bots.get(seat)
        if bot is None:  # a seat nobody moves (cannot happen for a valid game): stop, do not spin
            return False
        self.apply(bot.choose(g, self.rng), seat)
        return True

    def undo_blocker(self) -> str | None:
        """Why undo is impossible now, or None when it is possible."""
        if not self.history:
            return "nothing to undo: no human action since the game started or was loaded"
        point = self.history[-1]
        if point.revealed:
            return point.revealed
        before = hidden_fingerprint(type(self.game)(self.game.rules, point.state))
        after = hidden_fingerprint(self.game)
        for sid in sorted(set(before) | set(after)):
            if before.get(sid) != after.get(sid):
                return f"the {_hidden_what(self.game, sid)} {sid} changed since then"
        return None

    # ------------------------------------------------------------ replay
    def replayed(self, step: int) -> Game:
        """The game after `step` actions of the log, replayed on a new game with the same seed and variants."""
        log = self.game.state.log
        if not 0 <= step <= len(log):
            raise HTTPException(404, f"step {step} is out of range: this game has steps 0..{len(log)}")
        cached = self.replay
        # keep only the cached states that are a prefix of the current log (undo may have cut it)
        keep = 0
        while keep < len(cached) and cached[keep].log == log[:len(cached[keep].log)]:
            keep += 1
        del cached[keep:]
        if not cached:
            seed = self.game.state.table.get("seed")
            if not isinstance(seed, int):
                raise HTTPException(409, "this game cannot be replayed: its seed is unknown")
            try:
                cached.append(new_game(self.game.rules.ruleset, self.game.rules.players, seed).state)
            except RulesError as exc:
                raise HTTPException(409, f"this game cannot be replayed: {exc}") from None
        g = type(self.game)(self.game.rules, cached[-1].clone())
        while len(cached) <= step:
            action = log[len(cached) - 1]
            try:
                g.apply(action)
            except IllegalActionError as exc:
                raise HTTPException(409, f"the log does not replay at step {len(cached)} ({action}): {exc.reason}") from None
            cached.append(g.state.clone())
        return type(self.game)(self.game.rules, cached[step].clone())


def hidden_fingerprint(game: Game) -> dict[str, tuple]:
    """The contents of every zone a spectator may not see (a face-down stack, a player's hand)."""
    from interpreter.runtime import zones

    specs = game.rules.tables.zones
    return {key: contents for key, contents in game.state.zones.items()
            if not zones.visible(specs[key.partition("@")[0]], key, None)}


def _hidden_what(game: Game, zone_key: str) -> str:
    spec = game.rules.tables.zones.get(zone_key.partition("@")[0])
    return "face-down stack" if spec is not None and spec.visibility == "hidden" and not spec.per_player else "hidden zone"


def revealed(game: Game, before: dict, seat: int, action: str, step: int) -> str | None:
    """What an action just applied revealed of the hidden information, if anything."""
    after = hidden_fingerprint(game)
    changed = sorted(sid for sid in set(before) | set(after) if before.get(sid) != after.get(sid))
    who = f"step {step} ({action}, seat {seat + 1})"
    if changed:
        return f"{who} revealed hidden information: the {_hidden_what(game, changed[0])} {changed[0]} changed"
    d = game.state.decision
    if d is not None and d.kind == "keep" and d.data.get("stack") not in game.rules.face_up:
        return f"{who} revealed hidden information: a draw from the face-down stack {d.data.get('stack')}"
    return None


class Store:
    """The games in memory, least recently used first."""

    def __init__(self):
        self._games: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session: Session) -> None:
        with self._lock:
            self._games[session.id] = session
            while len(self._games) > MAX_GAMES:
                self._games.popitem(last=False)

    def get(self, game_id: str) -> Session:
        with self._lock:
            session = self._games.get(game_id)
            if session is None:
                raise HTTPException(404, f"no game with id {game_id!r} (games live in memory until the server stops)")
            self._games.move_to_end(game_id)
            return session


def seat_kinds(game: Game, seats: list[str] | None) -> list[str]:
    """Seat kinds for every seat of the state: the rulebook dummy seats are `automatic`."""
    playing = [i for i in range(len(game.state.players)) if not game.is_dummy(i)]
    if seats is None:
        seats = ["human"] + ["greedy"] * (len(playing) - 1)
    if len(seats) != len(playing):
        raise HTTPException(400, f"give one seat kind per player: {len(playing)} expected, {len(seats)} given")
    kinds = [AUTOMATIC] * len(game.state.players)
    for i, kind in zip(playing, seats):
        if kind not in SEAT_KINDS:
            raise HTTPException(400, f"unknown seat kind {kind!r}; known: {', '.join(SEAT_KINDS)}")
        kinds[i] = kind
    return kinds


# --------------------------------------------------------------------------- saving


def save_path(save_dir: Path, name: str) -> Path:
    """<save_dir>/<name>.json for a valid name; 400 for anything else (no request path leaves save_dir)."""
    if not isinstance(name, str) or not SAVE_NAME.fullmatch(name):
        raise HTTPException(400, "a save name is 1 to 64 letters, digits, '_' or '-' (no dots, slashes or spaces)")
    root = save_dir.resolve()
    path = (root / f"{name}.json").resolve()
    if path.parent != root:  # cannot happen with the pattern above; a second lock on the door
        raise HTTPException(400, "the save name leads outside the save folder")
    return path


def write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".saving-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def save_text(session: Session) -> str:
    """The engine's own format with who plays each seat (`caput play --load` reads it too), and the server's record."""
    return savefile.dumps(session.game, [k for k in session.kinds if k != AUTOMATIC],
                          {"server": {"format": SAVE_FORMAT, "variants": list(session.variants),
                                      "actors": list(session.actors)}})


def game_from_save(text: str, seats: list[str] | None, name: str) -> Session:
    """A session from a saved game, checked by interpreter/play/savefile.py as `caput play` checks it: SaveError
    (or an HTTPException for variants the server does not offer) when the file is not one to go on with."""
    data = savefile.parse(text)
    variants = variant_names_of_save(data)
    rs = ruleset(variants)
    game = savefile.game_from_data(data, rs)
    if seats is None:
        saved = savefile.saved_seats(data)
        if saved is not None:  # a terminal save may name a bot with its options (mcts:200): the kind is before `:`
            seats = [kind.partition(":")[0] for kind in saved]
    if seats is None:
        seats = ["human"] * sum(1 for i in range(len(game.state.players)) if not game.is_dummy(i))
    kinds = seat_kinds(game, list(seats))
    server = data.get("server") if isinstance(data.get("server"), dict) else {}
    actors = server.get("actors")
    if not (isinstance(actors, list) and len(actors) == len(game.state.log)
            and all(a is None or (type(a) is int and 0 <= a < len(kinds)) for a in actors)):
        actors = [None] * len(game.state.log)
    seed = game.state.table.get("seed")
    session = Session(secrets.token_urlsafe(9), game, kinds, variants,
                       random.Random(f"{seed}:{name}:{len(game.state.log)}"), actors=list(actors))
    if any(a is None for a in session.actors) and session.actors:
        try:  # who took each action: replay the log from the seed
            for k in range(len(game.state.log)):
                session.actors[k] = session.replayed(k).current_player
        except HTTPException:
            pass
    session.notes = _notes_by_replay(session)
    return session


def _notes_by_replay(session: Session) -> list[str | None]:
    """What each step of a loaded game did, in words, by replaying its log from the seed (None where the
    replay cannot say)."""
    from interpreter.ui import log_text

    log, notes = session.game.state.log, []
    try:
        g = session.replayed(0)
        for k, action in enumerate(log):
            seat = session.actors[k] if k < len(session.actors) and session.actors[k] is not None else g.current_player
            notes.append(log_text.apply_noted(g, action, seat))
    except (HTTPException, IllegalActionError):
        pass
    return notes + [None] * (len(log) - len(notes))
