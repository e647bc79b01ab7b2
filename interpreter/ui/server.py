"""A local web server to play caput in a browser: a JSON API over the engine, and a plain page.

``create_app(save_dir)`` builds the FastAPI application; ``serve(...)`` runs it with uvicorn on
127.0.0.1 unless told otherwise. Several games live in memory at once, each under a random id.

API (every body and answer is JSON; a game is answered with its *view*, see ``_view``):

  GET  /api/pack                         the pack's id, name and player counts
  GET  /api/variants                     the pack's own variants (name, title, description)
  POST /api/games                        {players, seats, variants, seed} -> a new game; bots move first
  GET  /api/games/{id}                   the view
  POST /api/games/{id}/actions           {action} -> a human action, then the bots until a human must act
  POST /api/games/{id}/undo              back to before the last human action (never across hidden information)
  POST /api/games/{id}/save              {name} -> <save_dir>/<name>.json
  GET  /api/saves                        the saved games
  POST /api/load                         {name} -> a new game from a save
  GET  /api/games/{id}/replay/{step}     the view after `step` actions, replayed from the seed
  GET  /api/games/{id}/board.svg         the board picture (interpreter.ui.render.render_svg), ?step=N to replay

Hidden information: the view never shows the contents of face-down stacks, nor the options of a
`keep` decision that is not a human's; undo is refused once an action since the undo point changed
a face-down stack (a tile or card was drawn, or a row refilled) or drew to keep from one.
"""

from __future__ import annotations

import importlib
import ipaddress
import json
import os
import random
import re
import secrets
import tempfile
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

from fastapi import FastAPI, HTTPException, Query
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from interpreter.runtime.mechanisms import wheel as crane
from interpreter.play import savefile
from interpreter.runtime import schedule
from interpreter.play.bots import make_bot
from interpreter.runtime.game import Game, new_game
from interpreter.errors import ContentErrors, IllegalActionError, RulesError
from interpreter.runtime.notation import describe, normalise
from interpreter.paths import default_pack
from interpreter.runtime.state import GameState

WEB_DIR = Path(__file__).resolve().parent / "web"
SEAT_KINDS = ("human", "random", "greedy", "mcts", "dummy")
BOT_KINDS = SEAT_KINDS[1:]
AUTOMATIC = "automatic"  # the rulebook's solo dummy seat, moved by the engine itself
SAVE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
MAX_GAMES = 64  # games kept in memory; the least recently used goes first
SAVE_FORMAT = 1

SeatKind = Literal["human", "random", "greedy", "mcts", "dummy"]


# --------------------------------------------------------------------------- request bodies


class NewGameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    players: int = Field(2, ge=1, le=4, description="number of players (1 = solo against the rulebook dummy)")
    seats: list[SeatKind] | None = Field(None, description="who plays each seat; default: seat 1 human, the others greedy")
    variants: list[str] = Field(default_factory=list, max_length=32, description="names of the pack's variants")
    seed: int | None = Field(None, ge=0, le=2**63 - 1, description="seed of the game (default: a random one)")


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: str = Field(..., min_length=1, max_length=300)


class SaveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(..., max_length=1000)  # checked against SAVE_NAME in the handler: a bad name is a 400


class LoadIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(..., max_length=1000)
    seats: list[SeatKind] | None = None  # overrides the seats recorded in the save


# --------------------------------------------------------------------------- content


@cache
def _pack_variants() -> dict[str, dict]:
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


def _check_variants(names) -> tuple[str, ...]:
    """Variant names a request may use: only the pack's own (a request never names a file)."""
    known = _pack_variants()
    out = []
    for name in names:
        if not isinstance(name, str) or name not in known:
            raise HTTPException(400, f"unknown variant {name!r}; known: {', '.join(known) or 'none'}")
        if name not in out:
            out.append(name)
    return tuple(out)


def _variant_names_of_save(data: dict) -> tuple[str, ...]:
    """The variants of a saved game: the server's own record, else the pack variants its paths name."""
    server = data.get("server")
    if isinstance(server, dict) and isinstance(server.get("variants"), list):
        return _check_variants(server["variants"])
    names = []
    for v in savefile.header_variants(data):
        stem = Path(str(v)).stem
        if stem not in _pack_variants():
            raise savefile.SaveError(f"the save uses the variant {v!r}, which is not one of the pack's own variants")
        names.append(stem)
    return tuple(names)


_RULESET_LOCK = threading.Lock()


@lru_cache(maxsize=32)
def _ruleset_cached(variants: tuple[str, ...]):
    from interpreter.content.ruleset import load_ruleset

    known = _pack_variants()
    return load_ruleset(None, tuple(known[v]["path"] for v in variants))


def _ruleset(variants: tuple[str, ...]):
    with _RULESET_LOCK:
        try:
            return _ruleset_cached(variants)
        except ContentErrors as exc:
            raise HTTPException(400, "the content does not load with these variants: "
                                + "; ".join(e.format() for e in exc.errors[:5])) from None


# --------------------------------------------------------------------------- sessions


@dataclass
class _UndoPoint:
    state: GameState  # the state before a human action
    rng_state: tuple  # the bots' random generator then
    actors: int  # length of the log then
    revealed: str | None = None  # set when a later action revealed hidden information


@dataclass
class _Session:
    id: str
    game: Game
    kinds: list[str]  # per seat of the state: human | random | greedy | mcts | dummy | automatic
    variants: tuple[str, ...]
    rng: random.Random
    actors: list[int | None] = field(default_factory=list)  # seat index that took each action of the log
    history: list[_UndoPoint] = field(default_factory=list)
    replay: list[GameState] = field(default_factory=list)  # replay[k] = the state after k actions
    lock: threading.RLock = field(default_factory=threading.RLock)
    bots: dict[int, object] = field(default_factory=dict)

    def __post_init__(self):
        for seat, kind in enumerate(self.kinds):
            if kind in BOT_KINDS:
                self.bots[seat] = make_bot(kind, self.game.rules)

    # ------------------------------------------------------------ moving
    def human_to_act(self) -> bool:
        g = self.game
        return not g.is_terminal() and self.kinds[g.current_player] == "human"

    def apply(self, action: str, seat: int) -> None:
        """Apply one action (raises IllegalActionError, changing nothing); note what it revealed."""
        g = self.game
        before = _hidden_fingerprint(g)
        g.apply(action)
        self.actors.append(seat)
        reason = _revealed(g, before, seat, action, len(g.state.log))
        if reason:
            for point in self.history:
                point.revealed = point.revealed or reason

    def run_bots(self) -> None:
        g = self.game
        while not g.is_terminal() and self.kinds[g.current_player] != "human":
            seat = g.current_player
            bot = self.bots.get(seat)
            if bot is None:  # a seat nobody moves (cannot happen for a valid game): stop, do not spin
                break
            self.apply(bot.choose(g, self.rng), seat)

    def undo_blocker(self) -> str | None:
        """Why undo is impossible now, or None when it is possible."""
        if not self.history:
            return "nothing to undo: no human action since the game started or was loaded"
        point = self.history[-1]
        if point.revealed:
            return point.revealed
        before = _hidden_fingerprint(Game(self.game.rules, point.state))
        after = _hidden_fingerprint(self.game)
        for sid in sorted(set(before) | set(after)):
            if before.get(sid) != after.get(sid):
                return f"the face-down stack {sid} changed since then"
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
        g = Game(self.game.rules, cached[-1].clone())
        while len(cached) <= step:
            action = log[len(cached) - 1]
            try:
                g.apply(action)
            except IllegalActionError as exc:
                raise HTTPException(409, f"the log does not replay at step {len(cached)} ({action}): {exc.reason}") from None
            cached.append(g.state.clone())
        return Game(self.game.rules, cached[step].clone())


def _hidden_fingerprint(game: Game) -> dict[str, tuple]:
    """The contents of every face-down stack."""
    face_up = game.rules.face_up
    return {sid: tuple(stack) for sid, stack in game.state.stacks.items() if sid not in face_up}


def _revealed(game: Game, before: dict, seat: int, action: str, step: int) -> str | None:
    """What an action just applied revealed of the hidden information, if anything."""
    after = _hidden_fingerprint(game)
    changed = sorted(sid for sid in set(before) | set(after) if before.get(sid) != after.get(sid))
    who = f"step {step} ({action}, seat {seat + 1})"
    if changed:
        return f"{who} revealed hidden information: the face-down stack {changed[0]} changed"
    d = game.state.decision
    if d is not None and d.kind == "keep" and d.data.get("stack") not in game.rules.face_up:
        return f"{who} revealed hidden information: a draw from the face-down stack {d.data.get('stack')}"
    return None


class _Store:
    """The games in memory, least recently used first."""

    def __init__(self):
        self._games: OrderedDict[str, _Session] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session: _Session) -> None:
        with self._lock:
            self._games[session.id] = session
            while len(self._games) > MAX_GAMES:
                self._games.popitem(last=False)

    def get(self, game_id: str) -> _Session:
        with self._lock:
            session = self._games.get(game_id)
            if session is None:
                raise HTTPException(404, f"no game with id {game_id!r} (games live in memory until the server stops)")
            self._games.move_to_end(game_id)
            return session


def _seat_kinds(game: Game, seats: list[str] | None) -> list[str]:
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


# --------------------------------------------------------------------------- the view


def _describe(action: str, options) -> str:
    try:
        return describe(action, options)
    except (ValueError, IndexError, TypeError):
        return action


def _view(session: _Session, game: Game, replay_step: int | None = None) -> dict:
    s, rules = game.state, game.rules
    sched = rules.schedule
    over = game.is_terminal()
    cp = game.current_player
    human_now = not over and cp >= 0 and session.kinds[cp] == "human"
    live = replay_step is None

    # what may be seen goes through the observation: of the human to act (hotseat: the screen is theirs),
    # else of nobody in particular (a bot's draw to keep from a face-down stack stays hidden)
    obs = game.observation(cp if human_now else -1)
    seats = []
    for p in obs["players"]:
        seats.append({
            "seat": p["seat"] + 1, "kind": session.kinds[p["seat"]], "dummy": p["dummy"],
            "current": p["seat"] == cp, "score": p["score"], "breakdown": dict(sorted(p["breakdown"].items())),
            "holdings": dict(sorted(p["holdings"].items())), "tracks": dict(sorted(p["tracks"].items())),
            "grids": dict(sorted(p["grids"].items())), "owned": {k: list(v) for k, v in sorted(p["owned"].items())},
            "track_tokens": {k: list(v) for k, v in sorted(p["track_tokens"].items())},
            "pieces_free": dict(sorted(p["pieces_free"].items())),
            "area": {h: stack[-1][0] for h, stack in sorted(p["area"].items()) if stack},
        })

    shared = obs["table"]
    cs = crane.from_json(shared["crane"]) if "crane" in shared else None
    crane_view = []
    if cs is not None:
        zones = rules.geometry.zones
        crane_view = [{"position": pos, "tile": tile, "zone": zones[pos] if pos < len(zones) else None,
                       "flagged": tile in cs.flagged} for pos, tile in crane.tiles_by_position(cs)]
    table = {
        "crane": crane_view,
        "rows": shared.get("rows", {}),
        "city": {site: {"tile": e.get("tile"), "owner": None if e.get("owner") is None else e["owner"] + 1}
                 for site, e in sorted(shared.get("city", {}).items())},
        "plazas": shared.get("plazas", {}),
        "bridge": shared.get("bridge", {}),
        "stacks": obs["stacks"],
        "later": obs["turn_info"]["later"],
        "taken_tile": obs["turn_info"].get("tile"),
    }

    decision = None
    d = obs["decision"]
    if d is not None:
        decision = {"seat": d["player"] + 1, "kind": d["kind"], "count": d["count"], "options": d["options"]}

    legal = []
    if live and human_now:
        options = d["options"] if d is not None else None
        legal = [{"action": a, "text": _describe(a, options)} for a in obs["legal"]]

    log = []
    for i, action in enumerate(s.log):
        seat = session.actors[i] if i < len(session.actors) else None
        log.append({"step": i + 1, "seat": None if seat is None else seat + 1, "action": action})

    final = None
    if over:
        final = {"scores": game.scores(), "winner": game.winner(), "solo": game.solo_verdict()}

    blocker = session.undo_blocker() if live else "a replay view cannot be undone"
    total = len(session.game.state.log)
    try:
        turn_round = schedule.round_of(sched, s.turn)
    except RulesError:
        turn_round = None
    return {
        "id": session.id,
        "pack": rules.ruleset.pack_id,
        "players": rules.players,
        "variants": list(session.variants),
        "seed": s.table.get("seed"),
        "turn": s.turn,
        "total_turns": schedule.total_turns(sched),
        "round": turn_round,
        "era": s.table.get("era", 1),
        "current_seat": None if over else cp + 1,
        "to_act": None if over else ("human" if human_now else session.kinds[cp]),
        "over": over,
        "seats": seats,
        "table": table,
        "decision": decision,
        "legal": legal,
        "log": log,
        "undo": {"possible": blocker is None, "reason": blocker},
        "final": final,
        "replay": None if live else {"step": replay_step, "total": total},
        "steps": total,
    }


# --------------------------------------------------------------------------- saving


def _save_path(save_dir: Path, name: str) -> Path:
    """<save_dir>/<name>.json for a valid name; 400 for anything else (no request path leaves save_dir)."""
    if not isinstance(name, str) or not SAVE_NAME.fullmatch(name):
        raise HTTPException(400, "a save name is 1 to 64 letters, digits, '_' or '-' (no dots, slashes or spaces)")
    root = save_dir.resolve()
    path = (root / f"{name}.json").resolve()
    if path.parent != root:  # cannot happen with the pattern above; a second lock on the door
        raise HTTPException(400, "the save name leads outside the save folder")
    return path


def _write_atomic(path: Path, text: str) -> None:
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


def _save_text(session: _Session) -> str:
    """The engine's own format with who plays each seat (`caput play --load` reads it too), and the server's record."""
    return savefile.dumps(session.game, [k for k in session.kinds if k != AUTOMATIC],
                          {"server": {"format": SAVE_FORMAT, "variants": list(session.variants),
                                      "actors": list(session.actors)}})


def _game_from_save(text: str, seats: list[str] | None, name: str) -> _Session:
    """A session from a saved game, checked by interpreter/play/savefile.py as `caput play` checks it: SaveError
    (or an HTTPException for variants the server does not offer) when the file is not one to go on with."""
    data = savefile.parse(text)
    variants = _variant_names_of_save(data)
    rs = _ruleset(variants)
    game = savefile.game_from_data(data, rs)
    if seats is None:
        saved = savefile.saved_seats(data)
        if saved is not None:  # a terminal save may name a bot with its options (mcts:200): the kind is before `:`
            seats = [kind.partition(":")[0] for kind in saved]
    if seats is None:
        seats = ["human"] * sum(1 for i in range(len(game.state.players)) if not game.is_dummy(i))
    kinds = _seat_kinds(game, list(seats))
    server = data.get("server") if isinstance(data.get("server"), dict) else {}
    actors = server.get("actors")
    if not (isinstance(actors, list) and len(actors) == len(game.state.log)
            and all(a is None or (type(a) is int and 0 <= a < len(kinds)) for a in actors)):
        actors = [None] * len(game.state.log)
    seed = game.state.table.get("seed")
    session = _Session(secrets.token_urlsafe(9), game, kinds, variants,
                       random.Random(f"{seed}:{name}:{len(game.state.log)}"), actors=list(actors))
    if any(a is None for a in session.actors) and session.actors:
        try:  # who took each action: replay the log from the seed
            for k in range(len(game.state.log)):
                session.actors[k] = session.replayed(k).current_player
        except HTTPException:
            pass
    return session


# --------------------------------------------------------------------------- the Host header


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


def _host_of(header: str | None) -> str | None:
    """The host name of a Host header, lower case and without its port; None when it is not a host[:port]."""
    if not header:
        return None
    value = header.strip().lower()
    if value.startswith("["):  # an IPv6 address: [::1] or [::1]:8000
        end = value.find("]")
        name, rest = value[1:end], value[end + 1:]
        if end < 0 or (rest and not (rest[:1] == ":" and rest[1:].isdigit())):
            return None
        try:
            return str(ipaddress.IPv6Address(name))
        except ValueError:
            return None
    name, colon, port = value.partition(":")
    if (colon and not port.isdigit()) or not name or not re.fullmatch(r"[a-z0-9._-]+", name):
        return None
    return name[:-1] if name.endswith(".") else name


def _host_name(host: str) -> str | None:
    """A host to serve on as a Host header names it: `mybox.lan`, `192.168.1.5`, `fe80::1` or `[fe80::1]`."""
    try:
        return str(ipaddress.IPv6Address(host.strip()))
    except ValueError:
        return _host_of(host)


def _is_loopback(name: str) -> bool:
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class _HostCheck:
    """Refuses (403) every request whose Host header does not name this machine's loopback interface or one
    of ``hosts``: a page of another site that points its own name at 127.0.0.1 (DNS rebinding) sends that
    name, and so cannot read or play the games here."""

    def __init__(self, app, hosts=()):
        self.app = app
        self.hosts = frozenset(h for h in (_host_name(x) for x in hosts) if h and not _is_loopback(h))

    def allowed(self, header: str | None) -> bool:
        name = _host_of(header)
        return name is not None and (_is_loopback(name) or name in self.hosts)

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        header = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"host"), None)
        if self.allowed(header):
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":
            return await send({"type": "websocket.close", "code": 1008})
        shown = ", ".join(LOOPBACK_NAMES + tuple(sorted(self.hosts)))
        detail = (f"this caput server answers only requests addressed to {shown} (any port); the Host header "
                  f"here is {header!r}. A page of another site cannot reach the games on this machine. "
                  "To serve on another name, start the server with --host NAME.")
        body = json.dumps({"detail": detail}).encode("utf-8")
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


# --------------------------------------------------------------------------- the application


def create_app(save_dir: Path, hosts=()) -> FastAPI:
    """The application; it answers requests addressed to a loopback name (localhost, 127.0.0.1, [::1]) and
    to the names in ``hosts`` only (see ``_HostCheck``)."""
    save_dir = Path(save_dir)
    save_dir.mkdir(parents=True, exist_ok=True)
    store = _Store()
    app = FastAPI(title="caput", description="Play a content pack in the browser with the caput rules engine.")
    app.state.store = store
    app.state.save_dir = save_dir
    app.add_middleware(_HostCheck, hosts=tuple(hosts))

    @app.get("/api/pack")
    def pack() -> dict:
        model = _ruleset(()).single("pack")
        return {"id": model.id, "name": getattr(model, "name", None) or model.id,
                "players": {"min": model.players.min, "max": model.players.max}}

    @app.get("/api/variants")
    def variants() -> list[dict]:
        return [{k: v for k, v in var.items() if k != "path"} for var in _pack_variants().values()]

    @app.get("/api/seat-kinds")
    def seat_kinds() -> list[str]:
        return list(SEAT_KINDS)

    @app.post("/api/games")
    def create_game(body: NewGameIn) -> dict:
        names = _check_variants(body.variants)
        rs = _ruleset(names)
        seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
        try:
            game = new_game(rs, body.players, seed)
        except RulesError as exc:
            raise HTTPException(400, str(exc)) from None
        kinds = _seat_kinds(game, list(body.seats) if body.seats is not None else None)
        session = _Session(secrets.token_urlsafe(9), game, kinds, names, random.Random(seed))
        with session.lock:
            session.run_bots()
            store.add(session)
            return _view(session, session.game)

    @app.get("/api/games/{game_id}")
    def get_game(game_id: str) -> dict:
        session = store.get(game_id)
        with session.lock:
            return _view(session, session.game)

    @app.post("/api/games/{game_id}/actions")
    def post_action(game_id: str, body: ActionIn) -> dict:
        session = store.get(game_id)
        with session.lock:
            g = session.game
            if g.is_terminal():
                raise HTTPException(409, "the game is over")
            if not session.human_to_act():
                raise HTTPException(409, f"seat {g.current_player + 1} is a bot; no human is to act")
            action = normalise(body.action)
            # the undo point goes first, so that what this very action reveals is marked on it too
            session.history.append(_UndoPoint(g.state.clone(), session.rng.getstate(), len(session.actors)))
            try:
                session.apply(action, g.current_player)
            except IllegalActionError as exc:
                session.history.pop()
                raise HTTPException(400, f"illegal action {action!r}: {exc.reason}") from None
            session.run_bots()
            return _view(session, session.game)

    @app.post("/api/games/{game_id}/undo")
    def undo(game_id: str) -> dict:
        session = store.get(game_id)
        with session.lock:
            blocker = session.undo_blocker()
            if blocker is not None:
                if session.history:
                    blocker = ("cannot undo across hidden information: " + blocker
                               + "; undoing now would let a choice be made again knowing it")
                raise HTTPException(409, blocker)
            point = session.history.pop()
            session.game = Game(session.game.rules, point.state.clone())
            session.rng.setstate(point.rng_state)
            del session.actors[point.actors:]
            return _view(session, session.game)

    @app.post("/api/games/{game_id}/save")
    def save(game_id: str, body: SaveIn) -> dict:
        session = store.get(game_id)
        path = _save_path(save_dir, body.name)
        with session.lock:
            text = _save_text(session)
        save_dir.mkdir(parents=True, exist_ok=True)
        replaced = path.exists()
        _write_atomic(path, text)
        return {"name": body.name, "file": path.name, "steps": len(session.game.state.log), "replaced": replaced}

    @app.get("/api/saves")
    def saves() -> list[dict]:
        out = []
        for path in sorted(save_dir.glob("*.json")):
            if not SAVE_NAME.fullmatch(path.stem):
                continue
            try:
                st = path.stat()
            except OSError:
                continue
            out.append({"name": path.stem, "size": st.st_size,
                        "saved": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(st.st_mtime))})
        return out

    @app.post("/api/load")
    def load(body: LoadIn) -> dict:
        path = _save_path(save_dir, body.name)
        if not path.is_file():
            raise HTTPException(404, f"no saved game named {body.name!r}")
        try:
            text = savefile.read(path)
            session = _game_from_save(text, list(body.seats) if body.seats is not None else None, body.name)
            with session.lock:
                session.run_bots()
        except HTTPException as exc:
            raise HTTPException(400, f"{body.name}.json cannot be loaded: {exc.detail}") from None
        except savefile.SaveError as exc:
            raise HTTPException(400, exc.describe(f"{body.name}.json")) from None
        except (RulesError, IllegalActionError) as exc:  # a bot could not move: the engine's words
            raise HTTPException(400, f"{body.name}.json cannot be played on: {exc}") from None
        store.add(session)
        with session.lock:
            return _view(session, session.game)

    @app.get("/api/games/{game_id}/replay/{step}")
    def replay(game_id: str, step: int = PathParam(..., ge=0)) -> dict:
        session = store.get(game_id)
        with session.lock:
            return _view(session, session.replayed(step), replay_step=step)

    @app.get("/api/games/{game_id}/board.svg")
    def board(game_id: str, step: int | None = Query(None, ge=0)) -> Response:
        session = store.get(game_id)
        with session.lock:
            game = session.replayed(step) if step is not None else session.game.clone()
        # the live board is clickable where an action of a person acts on a piece (a replay is not)
        actions = None if step is not None or game.is_terminal() else game.legal_actions()
        module = f"{__package__}.render"
        try:
            render = importlib.import_module(module)  # lazily: the page works without the board picture
        except ImportError as exc:
            missing = "interpreter/ui/render.py" if getattr(exc, "name", None) in (module, None) else exc.name
            raise HTTPException(501, f"the board picture is not available: {missing} is missing "
                                     f"({type(exc).__name__}: {exc}); the page shows the state as text") from None
        render_svg = getattr(render, "render_svg", None)
        if render_svg is None:
            raise HTTPException(501, "the board picture is not available: interpreter.ui.render has no render_svg")
        try:
            svg = render_svg(game, actions) if actions else render_svg(game)
        except Exception as exc:  # noqa: BLE001 - a drawing bug must not take the game down
            raise HTTPException(500, f"drawing the board failed ({type(exc).__name__}: {exc})") from None
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-store"})

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app


WILDCARD_HOSTS = ("0.0.0.0", "::", "")  # every interface: not a name a request is addressed to


def serve(host: str = "127.0.0.1", port: int = 8000, save_dir: Path | str = Path("caput-saves"), allow_hosts=()) -> None:
    """Run the server until interrupted (127.0.0.1 only unless another host is given). It answers requests
    addressed to a loopback name, to ``host`` when that is another name to serve on, and to ``allow_hosts``."""
    import uvicorn

    hosts = tuple(allow_hosts) + (() if host in WILDCARD_HOSTS else (host,))
    if host in WILDCARD_HOSTS and not allow_hosts:
        print(f"caput: listening on every interface ({host or 'all'}), but answering only requests addressed to "
              f"{', '.join(LOOPBACK_NAMES)}; name this machine with --allow-host NAME to play from elsewhere")
    uvicorn.run(create_app(Path(save_dir), hosts=hosts), host=host, port=port, log_level="info")
