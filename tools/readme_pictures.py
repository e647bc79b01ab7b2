"""The README's pictures of each bundled pack's table: a 2-player game of the greedy bot, part way through,
drawn by `interpreter.ui.render` and scaled down to a small PNG under docs/images/.

Usage: python tools/readme_pictures.py [--width 1100]
A tool, not a test: run it after a change to the drawing, look at the pictures, commit them.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.content.ruleset import load_ruleset  # noqa: E402
from interpreter.play.bots import make_bot  # noqa: E402
from interpreter.runtime.game import new_game  # noqa: E402
from interpreter.ui.render import render_png  # noqa: E402

PACKS = {"praga": 0.5, "caylus_magna_carta": 0.5, "lorenzo_il_magnifico": 0.4}  # pack -> share of the game played


def picture(pack: str, share: float, width: int) -> Path:
    from PIL import Image  # matplotlib's own dependency

    rs = load_ruleset(str(ROOT / "content" / pack), ())
    full = new_game(rs, 2, seed=7)
    bot, rng = make_bot("greedy", full.rules), random.Random(7)
    steps = 0
    while not full.is_terminal():  # the length of a whole game first, then the same game to its share
        full.apply(bot.choose(full, rng))
        steps += 1
    game, rng = new_game(rs, 2, seed=7), random.Random(7)
    for _ in range(int(steps * share)):
        game.apply(bot.choose(game, rng))
    image = Image.open(io.BytesIO(render_png(game)))
    image = image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)
    out = ROOT / "docs" / "images" / f"{pack}.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    image.convert("RGB").quantize(colors=128, dither=Image.Dither.NONE).save(out, optimize=True)  # a small file
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--width", type=int, default=1100)
    args = ap.parse_args()
    for pack, share in PACKS.items():
        path = picture(pack, share, args.width)
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
