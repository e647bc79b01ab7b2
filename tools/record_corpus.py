"""Record the behaviour corpus in tests/corpus/: bot games whose legal actions, moves and scores
tests/test_behaviour_corpus.py replays, so a change to the interpreter can show that it plays identically.

Each file is one game: a header (pack, variants, players, bots, seed), then one line per step
``<seat> <count> <digest> <action>`` -- the seat to move, the number of legal actions, the first 10
hex digits of sha1 over the sorted legal actions joined by newlines, and the action the bot applied
-- and at the end the scores with their breakdowns, the winner, the turns and the solo verdict.
A few games also list every legal action at every step (lines ``  = <action>`` after the step).

Regenerate only when behaviour is meant to change (never to make a refactor pass):

    python tools/record_corpus.py [--out tests/corpus]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import default_pack, load_ruleset, make_bot, new_game  # noqa: E402

VARIANT_SETS = {  # as in tests/test_random_games.py: every official variant, in compatible sets
    "base": (),
    "variants_a": ("crane_b", "kings_road_tiles", "hunger_wall_tiers_a", "cathedral_tiers_a"),
    "variants_b": ("kings_road_tiles_ii_b", "hunger_wall_tiers_b", "cathedral_tiers_b"),
}
PLAYERS = (1, 2, 3, 4)
BOTS = ("random", "greedy")
SEEDS_PER_GAME = 2
FULL = {("base", "random", 1), ("base", "random", 2), ("base", "random", 4)}  # first seed: full legal lists
FORMAT = "step lines: <seat> <count> <digest> <action>; digest = sha1('\\n'.join(sorted(legal)))[:10]; " \
         "'  = <action>' lines list every legal action; then score/winner/turns/solo lines"


def digest(legal: list[str]) -> str:
    return hashlib.sha1("\n".join(sorted(legal)).encode()).hexdigest()[:10]


def compact(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def games():
    """(file name, variant set, players, bot, seed, full lists?) of every corpus game; seeds 1..48, each once."""
    seed = 0
    for vset in VARIANT_SETS:
        for players in PLAYERS:
            for bot in BOTS:
                for k in range(SEEDS_PER_GAME):
                    seed += 1
                    full = k == 0 and (vset, bot, players) in FULL
                    yield f"{vset}-p{players}-{bot}-s{seed}", vset, players, bot, seed, full


def record(rs, vset: str, players: int, bot: str, seed: int, full: bool) -> tuple[str, int]:
    """The corpus text of one game, played like interpreter/simulate.py's play_game, and its steps."""
    game = new_game(rs, players, seed=seed)
    bots = [make_bot(bot, game.rules) for _ in range(players)]  # a solo game's dummy plays by itself
    rngs = [random.Random(seed * 1009 + seat) for seat in range(players)]
    lines = [f"# pack: {rs.pack_id}", f"# variant_set: {vset}", f"# variants: {compact(list(VARIANT_SETS[vset]))}",
             f"# players: {players}", f"# bots: {compact([bot] * players)}", f"# seed: {seed}",
             f"# full: {'yes' if full else 'no'}", f"# format: {FORMAT}"]
    steps = 0
    while not game.is_terminal():
        seat = game.current_player
        legal = sorted(game.legal_actions())
        action = bots[seat].choose(game, rngs[seat])
        lines.append(f"{seat} {len(legal)} {digest(legal)} {action}")
        if full:
            lines.extend(f"  = {a}" for a in legal)
        game.apply(action)
        steps += 1
    for s in game.scores():
        lines.append(f"score {compact(s)}")
    lines.append(f"winner {compact(game.winner())}")
    lines.append(f"turns {game.state.turn}")
    lines.append(f"solo {compact(game.solo_verdict())}")
    return "\n".join(lines) + "\n", steps


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "tests" / "corpus")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    rulesets = {name: load_ruleset(default_pack(), variants) for name, variants in VARIANT_SETS.items()}
    for old in args.out.glob("*.txt"):
        old.unlink()
    total_steps = total_bytes = count = 0
    for name, vset, players, bot, seed, full in games():
        text, steps = record(rulesets[vset], vset, players, bot, seed, full)
        (args.out / f"{name}.txt").write_text(text)
        total_steps += steps
        total_bytes += len(text.encode())
        count += 1
    print(f"{count} games, {total_steps} steps, {total_bytes} bytes in {args.out} "
          f"({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
