"""How many game words each interpreter module still uses (see tests/test_generic_interpreter.py).

    python tools/genericity_census.py            # the counts and the most used words per module
    python tools/genericity_census.py --write    # record them as tests/generic_baseline.txt
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import test_generic_interpreter as census  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="write tests/generic_baseline.txt")
    args = ap.parse_args()
    found = census.uses(census.component_words())
    total = sum(len(v) for v in found.values())
    for module, hits in sorted(found.items(), key=lambda kv: -len(kv[1])):
        top = Counter(h.split(": ", 1)[1].split(" in ")[0] for h in hits).most_common(5)
        print(f"{len(hits):5} {module}  " + ", ".join(f"{w} {n}" for w, n in top))
    print(f"{total:5} in {len(found)} modules")
    if args.write:
        lines = ["# Game words each interpreter module still uses; only ever lowered (tests/test_generic_interpreter.py)."]
        lines += [f"{len(h)} {m}" for m, h in sorted(found.items())]
        census.BASELINE.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
