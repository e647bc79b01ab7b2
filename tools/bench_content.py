"""Benchmark the content pipeline: how long loading, parsing and compiling a pack takes.

Usage: python tools/bench_content.py [PACK] [--runs N]

Prints cold-process time (a fresh interpreter running `caput validate`), warm
load_ruleset time, per-phase shares, and DSL parse throughput. Figures vary with
the machine; compare ratios between runs on the same machine.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.content import source  # noqa: E402
from interpreter.dsl.parse import parse  # noqa: E402
from interpreter.content.ruleset import load_ruleset  # noqa: E402


def timed(fn, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("pack", nargs="?", default=str(ROOT / "content" / "praga"))
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()

    cold = timed(lambda: subprocess.run([sys.executable, "-m", "interpreter", "validate", args.pack],
                                        cwd=ROOT, check=True, capture_output=True), max(3, args.runs // 3))
    load_ruleset(args.pack)  # warm caches (grammar tables, imports)
    warm = timed(lambda: load_ruleset(args.pack), args.runs)

    def uncached():
        source._TREE_CACHE.clear()
        load_ruleset(args.pack)

    reparse = timed(uncached, args.runs)
    rs = load_ruleset(args.pack)
    texts = [(f.text, f.start) for f in rs.fields]
    parse_runs = timed(lambda: [parse(t, s) for t, s in texts], args.runs)

    def row(name, values, unit="ms", scale=1000.0):
        print(f"{name:<38} {statistics.median(values) * scale:>9.1f} {unit}   (min {min(values) * scale:.1f})")

    print(f"pack: {args.pack}   records with DSL: {len(texts)} texts   runs: {args.runs}")
    row("cold process: caput validate", cold)
    row("warm load_ruleset, YAML trees cached", warm)
    row("warm load_ruleset, YAML re-parsed", reparse)
    row(f"parse {len(texts)} DSL texts", parse_runs)
    per_text = statistics.median(parse_runs) / max(1, len(texts))
    print(f"{'DSL parse throughput':<38} {1 / per_text:>9.0f} texts/s")


if __name__ == "__main__":
    main()
