"""A local web server to play caput in a browser: a JSON API over the engine, and a plain page.

``create_app(save_dir)`` builds the FastAPI application; ``serve(...)`` runs it with uvicorn on
127.0.0.1 unless told otherwise. Several games live in memory at once, each under a random id.

API (every body and answer is JSON; a game is answered with its *view*, see
``interpreter.ui.game_view``):

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

The parts: ``sessions`` (the games in memory, variants, rulesets, saves), ``game_view`` (the JSON of a game),
``host_check`` (which Host headers are answered); this module holds the request bodies, the routes and ``serve``.
"""

from __future__ import annotations

import importlib
import random
import secrets
import time
from pathlib import Path
from typing import Literal

from fastapi import FastAPI, HTTPException, Query
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from interpreter.errors import IllegalActionError, RulesError
from interpreter.play import savefile
from interpreter.runtime.game import Game, new_game
from interpreter.runtime.notation import normalise
from interpreter.ui.game_view import game_view
from interpreter.ui.host_check import LOOPBACK_NAMES, HostCheck
from interpreter.ui import sessions
from interpreter.ui.sessions import SAVE_NAME, SEAT_KINDS

WEB_DIR = Path(__file__).resolve().parent / "web"

SeatKind = Literal["human", "random", "greedy", "planner", "best", "mcts", "dummy"]


# --------------------------------------------------------------------------- request bodies


class NewGameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    players: int = Field(2, ge=1, le=4, description="number of players (1 = solo against the rulebook dummy)")
    seats: list[SeatKind] | None = Field(None, description="who plays each seat; default: seat 1 human, the others greedy")
    variants: list[str] = Field(default_factory=list, max_length=32, description="names of the pack's variants")
    seed: int | None = Field(None, ge=0, le=2**63 - 1, description="seed of the game (default: a random one)")
    stepwise: bool = Field(False, description="the bots move one at a time, each on POST .../bot (so a page shows "
                                              "every move); else they move at once until a person is to act")


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
    stepwise: bool = False  # as for a new game


# --------------------------------------------------------------------------- the application


def create_app(save_dir: Path, hosts=()) -> FastAPI:
    """The application; it answers requests addressed to a loopback name (localhost, 127.0.0.1, [::1]) and
    to the names in ``hosts`` only (see ``HostCheck``)."""
    save_dir = Path(save_dir)
    save_dir.mkdir(parents=True, exist_ok=True)
    store = sessions.Store()
    app = FastAPI(title="caput", description="Play a content pack in the browser with the caput rules engine.")
    app.state.store = store
    app.state.save_dir = save_dir
    app.add_middleware(HostCheck, hosts=tuple(hosts))

    @app.get("/api/pack")
    def pack() -> dict:
        model = sessions.ruleset(()).single("pack")
        return {"id": model.id, "name": getattr(model, "name", None) or model.id,
                "players": {"min": model.players.min, "max": model.players.max}}

    @app.get("/api/variants")
    def variants() -> list[dict]:
        return [{k: v for k, v in var.items() if k != "path"} for var in sessions.pack_variants().values()]

    @app.get("/api/seat-kinds")
    def seat_kinds() -> list[str]:
        return list(SEAT_KINDS)

    @app.post("/api/games")
    def create_game(body: NewGameIn) -> dict:
        names = sessions.check_variants(body.variants)
        rs = sessions.ruleset(names)
        seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
        try:
            game = new_game(rs, body.players, seed)
        except RulesError as exc:
            raise HTTPException(400, str(exc)) from None
        kinds = sessions.seat_kinds(game, list(body.seats) if body.seats is not None else None)
        session = sessions.Session(secrets.token_urlsafe(9), game, kinds, names, random.Random(seed),
                                   stepwise=body.stepwise)
        with session.lock:
            session.run_bots()
            store.add(session)
            return game_view(session, session.game)

    @app.get("/api/games/{game_id}")
    def get_game(game_id: str) -> dict:
        session = store.get(game_id)
        with session.lock:
            return game_view(session, session.game)

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
            session.history.append(sessions.UndoPoint(g.state.clone(), session.rng.getstate(), len(session.actors)))
            try:
                session.apply(action, g.current_player)
            except IllegalActionError as exc:
                session.history.pop()
                raise HTTPException(400, f"illegal action {action!r}: {exc.reason}") from None
            session.run_bots()
            return game_view(session, session.game)

    @app.post("/api/games/{game_id}/bot")
    def bot_move(game_id: str) -> dict:
        """One move of the bot to act (a stepwise game's bots move only so)."""
        session = store.get(game_id)
        with session.lock:
            g = session.game
            if g.is_terminal():
                raise HTTPException(409, "the game is over")
            if session.human_to_act():
                raise HTTPException(409, f"seat {g.current_player + 1} is a person's; no bot is to act")
            try:
                session.step_bot()
            except (RulesError, IllegalActionError) as exc:  # a bot could not move: the engine's words
                raise HTTPException(500, f"the bot of seat {g.current_player + 1} could not move: {exc}") from None
            return game_view(session, session.game)

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
            session.game = type(session.game)(session.game.rules, point.state.clone())
            session.rng.setstate(point.rng_state)
            del session.actors[point.actors:]
            del session.notes[point.actors:]
            return game_view(session, session.game)

    @app.post("/api/games/{game_id}/save")
    def save(game_id: str, body: SaveIn) -> dict:
        session = store.get(game_id)
        path = sessions.save_path(save_dir, body.name)
        with session.lock:
            text = sessions.save_text(session)
        save_dir.mkdir(parents=True, exist_ok=True)
        replaced = path.exists()
        sessions.write_atomic(path, text)
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
        path = sessions.save_path(save_dir, body.name)
        if not path.is_file():
            raise HTTPException(404, f"no saved game named {body.name!r}")
        try:
            text = savefile.read(path)
            session = sessions.game_from_save(text, list(body.seats) if body.seats is not None else None, body.name)
            session.stepwise = body.stepwise
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
            return game_view(session, session.game)

    @app.get("/api/games/{game_id}/replay/{step}")
    def replay(game_id: str, step: int = PathParam(..., ge=0)) -> dict:
        session = store.get(game_id)
        with session.lock:
            return game_view(session, session.replayed(step), replay_step=step)

    @app.get("/api/games/{game_id}/records/{record_id}")
    def record(game_id: str, record_id: str = PathParam(..., max_length=200)) -> dict:
        """A record of the game's pack in words: its name, kind, effects and costs in English (a tooltip)."""
        from interpreter.content.labels import record_help

        session = store.get(game_id)
        lines = record_help(session.game.rules.ruleset, record_id)
        if lines is None:
            raise HTTPException(404, f"no record {record_id!r} in this game's pack")
        return {"id": record_id, "lines": lines}

    @app.get("/api/games/{game_id}/board.svg")
    def board(game_id: str, step: int | None = Query(None, ge=0),
              preview: str | None = Query(None, max_length=300)) -> Response:
        """The table drawn (after ``step`` actions, for a replay); with ``preview``, as it would be after that
        legal action of a person (a tile shown at a rotation before it is placed), on a copy whose face-down
        stacks are shuffled, so a preview never shows what they hide."""
        session = store.get(game_id)
        with session.lock:
            game = session.replayed(step) if step is not None else session.game.clone()
            if preview is not None:
                if step is not None or not session.human_to_act():
                    raise HTTPException(409, "a preview is of a person's move in the live game")
                action = normalise(preview)
                if action not in game.legal_actions():
                    raise HTTPException(400, f"{action!r} is not a legal action now")
                game = game.determinized(game.current_player, random.Random(len(game.state.log)))
                try:
                    game.apply(action)
                except IllegalActionError as exc:  # it cannot be carried out in this guess of the hidden stacks
                    raise HTTPException(409, f"no preview of {action!r}: {exc.reason}") from None
        # the live board is clickable where an action of a person acts on a piece (a replay, a preview is not)
        actions = None if step is not None or preview is not None or game.is_terminal() else game.legal_actions()
        module = f"{__package__}.render"
        try:
            render = importlib.import_module(module)  # lazily: the page works without the board picture
        except ImportError as exc:
            missing = "interpreter/ui/render/" if getattr(exc, "name", None) in (module, None) else exc.name
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
