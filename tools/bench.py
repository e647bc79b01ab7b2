"""Benchmark the engine: how fast games play, how dear a search step, a load and a state copy are.

Usage: python tools/bench.py [--games N] [--quick] [--peer catanatron [--rounds R]] [--json]

Prints one table, every figure measured in this run (the bundled pack, fixed seeds, so runs on one
machine are comparable; figures vary with the machine, so compare ratios rather than absolutes):

- random, 1 to 4 players: G games each (--games G, default 20, --quick 3) of random bots from
  ``new_game`` to the end, seeds 1..G. games/s and actions/s count the whole game, setup included; actions/game
  is the mean number of actions applied. In a solo game the dummy seat plays the rulebook dummy
  policy (``dummy`` bot), as it does in the game; its actions count too.
- greedy 2 players: games/s of two one-ply greedy bots (each action tries every legal action).
- mcts 2 players: iterations/s of ``MCTSBot.choose`` with a fixed iteration budget on a few
  mid-game 2-player positions (total iterations / total time).
- load cold: a fresh interpreter running ``from interpreter.content.ruleset import load_ruleset;
  load_ruleset()`` (interpreter start-up and imports included), median of 3.
- load warm: ``load_ruleset()`` again in this process (YAML trees and grammar cached), median of 5.
- state clone: microseconds per ``GameState.clone`` of a mid-game 4-player state, median of several
  batches. A copy shares the players, the boards and the stacks with its original until one side
  changes them, so the row below it times a copy plus the first change of the acting player (what
  an action always pays).
- state size: bytes a mid-game 4-player state adds, measured with tracemalloc over many clones
  (what the copies share with the original is not counted again: this is the cost of one more
  state in a search tree before it changes), and the length of its ``to_json()`` as a second,
  machine-independent figure.
- with ``--peer catanatron`` (needs ``pip install catanatron``; not a dependency of caput): random
  4-player Catan games with catanatron's ``RandomPlayer`` (seeds 1..G, its own turn limit),
  measured like the caput 4-player row, actions being ``Game.play_tick()`` calls. The player picks
  from the legal actions in a canonical order so a seed gives the same game in every process (the
  sorting is timed apart and not counted). The figures sit next to caput's random 4-player row,
  with the ratio caput/catanatron. The games differ (random Catan games are longer and their
  actions cheaper), so actions/s is the figure to compare.
  The two are timed in R interleaved rounds (--rounds R, default 3; caput, peer, caput, peer, ...),
  and each side's row is its fastest round, as timeit takes the least disturbed of its repeats: on
  a shared machine other work slows single rounds by 10-20%. Every round is printed below the table
  and kept in the JSON (``rounds``), so the spread is in view, with each round's ratio to the peer's
  round after it and their median (``paired_ratios``, ``median_paired_ratio``): a slow spell of the
  machine slows both rounds of a pair, so the median of the pairs is the steadier comparison.

``--json`` prints the figures as JSON instead of the table. This is a benchmark, not a test:
nothing here asserts on timings.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.play.bots import make_bot  # noqa: E402
from interpreter.runtime.game import Game, new_game  # noqa: E402
from interpreter.content.ruleset import load_ruleset  # noqa: E402

from bench_content import timed  # noqa: E402  (tools/ is on the path when run as a script)

PEERS = ("catanatron",)
LOAD_SNIPPET = "from interpreter.content.ruleset import load_ruleset; load_ruleset()"




# --------------------------------------------------------------------------- caput

def play(rs, players: int, seed: int, spec: str) -> int:
    """One game from setup to the end with `spec` bots on every seat (the dummy policy on dummy seats)."""
    game = new_game(rs, players, seed)
    bot, dummy = make_bot(spec, game.rules), make_bot("dummy", game.rules)
    rng = random.Random(seed)
    actions = 0
    while not game.is_terminal():
        seat_bot = dummy if game.is_dummy(game.current_player) else bot
        game.apply(seat_bot.choose(game, rng))
        actions += 1
    return actions


def bench_games(rs, players: int, games: int, spec: str) -> dict:
    actions = 0
    t = time.perf_counter()
    for seed in range(1, games + 1):
        actions += play(rs, players, seed, spec)
    elapsed = time.perf_counter() - t
    return {"games": games, "seconds": elapsed, "games_per_s": games / elapsed, "actions_per_s": actions / elapsed,
            "actions_per_game": actions / games}


def mid_game(rs, players: int, seed: int, fraction: float = 0.5) -> Game:
    """A random game stopped once `fraction` of its turns are played, at a point with a real choice."""
    game = new_game(rs, players, seed)
    bot, rng = make_bot("random", game.rules), random.Random(seed)
    stop = fraction * game.rules.total_turns
    while not game.is_terminal() and (game.state.turn <= stop or len(game.legal_actions()) < 2):
        game.apply(bot.choose(game, rng))
    return game


def bench_mcts(rs, positions: int, iterations: int) -> dict:
    fractions = [0.3 + 0.4 * i / max(1, positions - 1) for i in range(positions)]
    games = [mid_game(rs, 2, seed, f) for seed, f in enumerate(fractions, 1)]
    bot = make_bot(f"mcts:{iterations}", games[0].rules)
    elapsed = 0.0
    for seed, game in enumerate(games, 1):
        rng = random.Random(seed)
        t = time.perf_counter()
        bot.choose(game, rng)
        elapsed += time.perf_counter() - t
    return {"players": 2, "positions": positions, "iterations": bot.iterations, "seconds": elapsed,
            "iterations_per_s": positions * bot.iterations / elapsed}


def bench_load(cold_runs: int = 3, warm_runs: int = 5) -> dict:
    cold = timed(lambda: subprocess.run([sys.executable, "-c", LOAD_SNIPPET], cwd=ROOT, check=True,
                                        capture_output=True), cold_runs)
    load_ruleset()  # warm caches (grammar tables, imports, YAML trees)
    warm = timed(load_ruleset, warm_runs)
    return {"cold_ms": statistics.median(cold) * 1000, "warm_ms": statistics.median(warm) * 1000,
            "cold_runs": cold_runs, "warm_runs": warm_runs}


def bench_clone(state, batches: int, per_batch: int) -> dict:
    def batch():
        for _ in range(per_batch):
            state.clone()  # dropped at once: keeping them would time the garbage collector too

    def batch_written():
        for _ in range(per_batch):
            state.clone().player(state.current)  # the acting player copied for writing

    runs, written = timed(batch, batches), timed(batch_written, batches)
    return {"us": statistics.median(runs) / per_batch * 1e6, "written_us": statistics.median(written) / per_batch * 1e6,
            "batches": batches, "per_batch": per_batch}


def bench_size(state, copies: int) -> dict:
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = [state.clone() for _ in range(copies)]
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del kept
    return {"bytes": (after - before) / copies, "json_bytes": len(state.to_json()), "copies": copies}


# --------------------------------------------------------------------------- peer

def peer_available(name: str) -> bool:
    try:
        __import__(name)
    except ImportError:
        return False
    return True


def bench_catanatron(games: int) -> dict:
    from catanatron import Color, Game as CatanGame, RandomPlayer
    from catanatron.game import TURNS_LIMIT

    # catanatron builds some action lists from sets of tuples holding None, whose hash is its address
    # before Python 3.12: the order, and so a seeded RandomPlayer's games, would change from process to
    # process. The player therefore decides over the actions in a canonical order; the sorting is
    # timed on its own and left out of the figures.
    sorting = 0.0

    def canonical(player, game, actions):
        nonlocal sorting
        t0 = time.perf_counter()
        ordered = sorted(actions, key=repr)
        sorting += time.perf_counter() - t0
        return player.decide(game, ordered)

    colors = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)
    actions = 0
    t = time.perf_counter()
    for seed in range(1, games + 1):  # catanatron treats seed 0 as "no seed"
        game = CatanGame([RandomPlayer(c) for c in colors], seed=seed)
        while game.winning_color() is None and game.state.num_turns < TURNS_LIMIT:  # Game.play, without its copies
            game.play_tick(decide_fn=canonical)
            actions += 1
    elapsed = time.perf_counter() - t - sorting
    return {"games": games, "seconds": elapsed, "games_per_s": games / elapsed, "actions_per_s": actions / elapsed,
            "actions_per_game": actions / games, "sorting_seconds": sorting,
            "version": importlib.metadata.version("catanatron")}


# --------------------------------------------------------------------------- report

def run(args) -> dict:
    games = args.games or (3 if args.quick else 20)
    quick = args.quick
    out: dict = {"meta": {"games": games, "quick": quick, "python": platform.python_version(),
                          "machine": platform.machine(), "seeds": f"1..{games}"}}
    started = time.perf_counter()
    out["load"] = bench_load()
    rs = load_ruleset()
    out["random"] = {str(n): bench_games(rs, n, games, "random") for n in (1, 2, 3, 4)}
    out["greedy"] = {"2": bench_games(rs, 2, games, "greedy")}
    out["mcts"] = bench_mcts(rs, positions=2 if quick else 3, iterations=30 if quick else 100)
    state = mid_game(rs, 4, seed=1).state
    out["clone"] = bench_clone(state, batches=5 if quick else 9, per_batch=200 if quick else 1000)
    out["state"] = bench_size(state, copies=200 if quick else 1000)
    out["state"]["turn"], out["state"]["log"] = state.turn, len(state.log)
    if args.peer:
        if peer_available(args.peer):
            mine_rounds, their_rounds = [out["random"]["4"]], []
            for r in range(args.rounds):
                if r:
                    mine_rounds.append(bench_games(rs, 4, games, "random"))
                their_rounds.append(bench_catanatron(games))
            fastest = lambda rounds: max(rounds, key=lambda g: g["actions_per_s"])  # noqa: E731
            out["random"]["4"] = mine = {**fastest(mine_rounds), "rounds": [g["actions_per_s"] for g in mine_rounds]}
            theirs = {**fastest(their_rounds), "rounds": [g["actions_per_s"] for g in their_rounds]}
            out["peer"] = {"name": args.peer, "installed": True, "random_4p": theirs}
            out["peer"]["ratio"] = {k: mine[k] / theirs[k] for k in ("games_per_s", "actions_per_s", "actions_per_game")}
            # each round of caput against the peer's round after it: the figure that load moves least
            paired = [a / b for a, b in zip(mine["rounds"], theirs["rounds"])]
            out["peer"]["paired_ratios"], out["peer"]["median_paired_ratio"] = paired, statistics.median(paired)
        else:
            out["peer"] = {"name": args.peer, "installed": False, "install": f"pip install {args.peer}"}
    out["meta"]["seconds"] = time.perf_counter() - started
    return out


def fmt(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def print_table(r: dict) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    peer = r.get("peer")
    side = peer is not None and peer["installed"]
    title = (f"caput engine benchmark: {r['meta']['games']} games per row, seeds {r['meta']['seeds']}, "
             f"Python {r['meta']['python']}")
    table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left")
    table.add_column("figure")
    table.add_column("caput", justify="right")
    table.add_column("unit")
    if side:
        table.add_column(f"catanatron {peer['random_4p']['version']}", justify="right")
        table.add_column("caput/catanatron", justify="right")

    def row(name, value, unit, key=None, fourp=False):
        cells = [name, fmt(value), unit]
        if side:
            if fourp:
                cells += [fmt(peer["random_4p"][key]), f"{peer['ratio'][key]:.2f}x"]
            else:
                cells += ["", ""]
        table.add_row(*cells)

    for n, g in r["random"].items():
        who = "1 player + dummy" if n == "1" else f"{n} players"
        fourp = n == "4"
        if fourp and side:
            who += f", fastest of {len(g['rounds'])} rounds"
        row(f"random, {who}", g["games_per_s"], "games/s", "games_per_s", fourp)
        row("", g["actions_per_s"], "actions/s", "actions_per_s", fourp)
        row("", g["actions_per_game"], "actions/game", "actions_per_game", fourp)
    row("greedy, 2 players", r["greedy"]["2"]["games_per_s"], "games/s")
    m = r["mcts"]
    row(f"mcts, 2 players ({m['positions']} positions x {m['iterations']} it.)", m["iterations_per_s"], "iterations/s")
    row("content load, cold process (median of 3)", r["load"]["cold_ms"], "ms")
    row("content load, warm in-process (median of 5)", r["load"]["warm_ms"], "ms")
    s = r["state"]
    row(f"state clone, 4 players mid-game (turn {s['turn']})", r["clone"]["us"], "µs/clone")
    row("state clone + the acting player written", r["clone"]["written_us"], "µs/clone")
    row("state size, tracemalloc over clones", s["bytes"], "bytes")
    row("state size, len(to_json())", s["json_bytes"], "bytes")
    # wide enough that no cell wraps when the output is piped (rich assumes 80 columns then)
    console = Console(highlight=False, width=max(140, shutil.get_terminal_size().columns))
    console.print(table)
    if peer is not None and not peer["installed"]:
        console.print(f"peer {peer['name']}: not installed; install it with `{peer['install']}` "
                      "(into this venv) to compare", markup=False)
    if side:
        spread = lambda rounds: ", ".join(f"{x:,.0f}" for x in rounds)  # noqa: E731
        console.print(f"random 4 players, actions/s by round (interleaved): caput {spread(r['random']['4']['rounds'])}; "
                      f"{peer['name']} {spread(peer['random_4p']['rounds'])}", markup=False)
        if "paired_ratios" in peer:
            console.print(f"caput/{peer['name']} actions/s, round by round: "
                          + ", ".join(f"{x:.3f}" for x in peer["paired_ratios"])
                          + f"; median {peer['median_paired_ratio']:.3f}", markup=False)
    console.print(f"total {r['meta']['seconds']:.1f} s", markup=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=None, help="games per row (default 20; 3 with --quick)")
    ap.add_argument("--quick", action="store_true", help="3 games per row and smaller search, clone and size runs")
    ap.add_argument("--peer", choices=PEERS, help="also time random 4-player games of another engine")
    ap.add_argument("--rounds", type=int, default=3,
                    help="with --peer: interleaved rounds of both engines' 4-player games; each side's fastest is shown")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON instead of a table")
    args = ap.parse_args()
    if args.games is not None and args.games < 1:
        ap.error("--games must be at least 1")
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    result = run(args)
    if args.json:
        peer = result.get("peer")
        if peer is not None and not peer["installed"]:
            print(f"peer {peer['name']} is not installed: {peer['install']}", file=sys.stderr)
        print(json.dumps(result, indent=2, sort_keys=True))
    else:
        print_table(result)


if __name__ == "__main__":
    main()
