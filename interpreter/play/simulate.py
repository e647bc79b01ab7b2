"""Many games played by bots: one record per game, run serially, on a local process pool or on a
Dask cluster, with identical results for identical seeds wherever they run.

A game is described by a ``GameSpec`` (pack, variants, players, the bot of each seat, seed); the
record it produces is plain JSON-ready data (scores with breakdowns, winner, turns, actions, the
actions, tiles and wheel tiles taken, and the content programs that ran). Bots get their own
random generator seeded from the game's seed and their seat, so the game is a pure function of
its spec. The one exception is ``timing``: the CPU seconds each seat's bot spent choosing (in all, and
its slowest move), which the machine decides; ``without_timing`` gives the rest.
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Callable, Iterable

from interpreter.play.bots import make_bot
from interpreter.runtime.game import new_game


@dataclass(frozen=True)
class GameSpec:
    players: int
    bots: tuple[str, ...]  # one per player seat (a solo game's dummy plays by itself)
    seed: int
    variants: tuple[str, ...] = ()
    pack: str | None = None


_RULESETS: dict = {}


def _ruleset(pack, variants):
    from interpreter.content.ruleset import load_ruleset

    key = (pack, tuple(variants))
    if key not in _RULESETS:
        _RULESETS[key] = load_ruleset(pack, tuple(variants))
    return _RULESETS[key]


def check_bots_made(specs: Iterable[GameSpec]) -> None:
    """Each distinct bot of the specs made once on its game's rules, so that one the pack cannot make (an
    evaluation its bots file lacks) is a ValueError with its message before any game is played, not a
    failure inside a worker."""
    seen = set()
    for spec in specs:
        for bot in set(spec.bots):
            key = (spec.pack, spec.variants, spec.players, bot)
            if key not in seen:
                seen.add(key)
                make_bot(bot, new_game(_ruleset(spec.pack, spec.variants), spec.players, seed=spec.seed).rules)


def play_game(spec: GameSpec) -> dict:
    """Play one game to its end and return its record."""
    rs = _ruleset(spec.pack, spec.variants)
    game = new_game(rs, spec.players, seed=spec.seed)
    if len(spec.bots) != spec.players:
        raise ValueError(f"{spec.players} players need {spec.players} bots, got {len(spec.bots)}")
    bots = [make_bot(b, game.rules) for b in spec.bots]
    rngs = [random.Random(spec.seed * 1009 + seat) for seat in range(len(bots))]
    machine = game.rules.machine
    fired: set[str] = set()
    # seat -> source -> resource -> net amount: what each record's programs gained and paid its owner
    gains: list[dict[str, dict[str, int]]] = [{} for _ in game.state.players]
    seconds, moves, slowest = [0.0] * len(bots), [0] * len(bots), [0.0] * len(bots)
    while not game.is_terminal():
        seat = game.current_player
        start = time.process_time()
        action = bots[seat].choose(game, rngs[seat])
        spent = time.process_time() - start
        seconds[seat] += spent
        moves[seat] += 1
        slowest[seat] = max(slowest[seat], spent)
        # traced while the move is played only: a bot's search runs programs of moves it does not make
        machine.trace = fired
        try:
            entries = game.apply_recorded(action)  # the step's payments and gains, not those of copies it tried
        finally:
            machine.trace = None
        for e in entries:
            by_source = gains[e.seat].setdefault(e.source, {})
            by_source[e.resource] = by_source.get(e.resource, 0) + e.amount
    log = game.state.log
    scores = game.scores()
    if not game.rules.uses_offers:  # a pack on the generic core: its menu's actions, and the records they named
        performed = Counter(a for a in log if not a.startswith("choose "))
        picked = Counter(a.split()[1] for a in log if len(a.split()) > 1 and a.split()[1] in game.rules.tables.kind_of)
        wheel: Counter = Counter()
    else:
        performed = Counter(a for a in log if a.startswith(("act ", "extra ")))
        picked = Counter(a.split()[1] for a in log if a.startswith("pick "))
        wheel = Counter(a.split()[1] for a in log if a.startswith("take "))
    return {
        "seed": spec.seed,
        "players": spec.players,
        "variants": list(spec.variants),
        "bots": list(spec.bots),
        "scores": [s["score"] for s in scores],
        "breakdown": [s["breakdown"] for s in scores],
        "winner": game.winner(),
        "turns": game.state.turn,
        "actions": len(log),
        "verbs": dict(Counter(a.split(" ", 1)[0] for a in log)),
        "performed": dict(performed),
        "tiles": dict(picked),
        "wheel": dict(wheel),
        "fired": sorted(fired),
        "gains": gains,
        "acquired": [dict(p.acquired) for p in game.state.players],
        "solo": game.solo_verdict(),
        "timing": {"seconds": seconds, "moves": moves, "slowest": slowest},
    }


def without_timing(record: dict) -> dict:
    """A game's record without what the machine decides (the bots' CPU time): equal for equal specs."""
    return {k: v for k, v in record.items() if k != "timing"}


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def run_games(specs: Iterable[GameSpec], workers: int | None = None, scheduler: str | None = None,
              progress: Callable[[int], None] | None = None) -> list[dict]:
    """Records of the games, in the order of ``specs``: serially (workers=1), on a local process pool
    (the default: every core) or on the Dask cluster at ``scheduler`` (tcp://host:port)."""
    specs = list(specs)
    tick = progress or (lambda n: None)
    if scheduler:
        return _run_dask(specs, scheduler, tick)
    workers = workers or default_workers()
    if workers == 1 or len(specs) <= 1:
        out = []
        for spec in specs:
            out.append(play_game(spec))
            tick(1)
        return out
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers) as pool:
        out = []
        for record in pool.map(play_game, specs, chunksize=max(1, min(8, len(specs) // (workers * 4) or 1))):
            out.append(record)
            tick(1)
        return out


def _run_dask(specs: list[GameSpec], scheduler: str, tick) -> list[dict]:
    try:
        from distributed import Client, as_completed
    except ImportError:  # pragma: no cover - depends on the installation
        raise RuntimeError("running on a cluster needs dask.distributed: pip install 'caput[cluster]'") from None
    with Client(scheduler) as client:
        futures = client.map(play_game, specs, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        out: list[dict | None] = [None] * len(specs)
        for fut in as_completed(futures):
            out[index[fut.key]] = fut.result()
            tick(1)
        return out  # type: ignore[return-value]


def specs_for(players: int, games: int, bots: list[str], seed: int, variants=(), pack=None) -> list[GameSpec]:
    """Game specs with seeds seed, seed+1, ...; bots are given per seat (one name fills every seat)."""
    if len(bots) == 1:
        bots = bots * players
    if len(bots) != players:
        raise ValueError(f"give one bot, or one per seat ({players}); got {len(bots)}")
    return [GameSpec(players, tuple(bots), seed + i, tuple(str(v) for v in variants), pack) for i in range(games)]


def spec_dict(spec: GameSpec) -> dict:
    return asdict(spec)
