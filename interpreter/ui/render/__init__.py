"""Draw the whole table of a game as SVG (drawsvg) or PNG (cairosvg): `caput render STATE.json -o FILE`.

Everything drawn is read from content and state; nothing about the board's shape is written here.
The shared map, the personal action board and its ring come from axial coordinates in content
(pointy-top, sides 0..5 clockwise from east, corner k between side k and side k+1, see board.py);
the wheel, the rows, the grids, the tracks, the plank spaces and the claimable records from their content
files and the state's ``table``. Effect texts are shown shortened (``short``), so a tile stays legible.

Elements that tests and tools count carry stable classes and ids:
``map-hex`` (one per content hex, id ``hex-<hex id>``), ``building`` (one per entry of
``table[<map id>]``), ``grid-marker`` (one per player per grid), ``player-board`` (one per seat) and
``area-tile`` (one per tile in a player's area, covered ones included; ``data-depth`` is 0 for the
bottom tile of a stack and the top tile has ``data-top="1"``).

The parts: ``text`` (shortening and wrapping), ``draw`` (colours, text lines, hex geometry), ``pieces``
(the game being drawn and the tile, section and pawn pieces), ``shared_map``, ``wheel``, ``tracks``,
``supply`` (rows, grids, claims, plank spaces, stacks), ``panel`` (a player's panel) and ``table`` (the
whole picture).
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from interpreter.mechanisms import market_rows
from interpreter.ui.kinds import WHEEL_KIND, claim_kind, table_key
from interpreter.ui.render.core_table import draw_core_table
from interpreter.ui.render.table import draw_table
from interpreter.ui.render.text import short, wrap

__all__ = ["load_game", "render_png", "render_svg", "short", "wrap"]


def load_game(path, pack=None):
    """A saved game (the JSON of ``Game.to_json()``), rebuilt on the pack it was played with.

    ``pack`` is the content pack path (None: the default pack); the saved variants are applied.
    """
    from interpreter.runtime.game import Game
    from interpreter.content.ruleset import load_ruleset

    text = Path(path).read_text(encoding="utf-8")
    data = json.loads(text)
    ruleset = load_ruleset(pack, tuple(data.get("variants") or ()))
    return Game.from_json(ruleset, text)


def render_svg(game, actions: list[str] | None = None) -> str:
    """The whole table of ``game`` as SVG text. With ``actions`` (the legal ones), the pieces they act on
    carry a ``data-action`` attribute so a page can play by clicking the board: a wheel tile (take), a row
    tile (pick), a map site or a hex of the acting seat's own board (place, first rotation), a plank space and
    a claimable record."""
    if not game.rules.uses_offers:  # a pack on the generic core: its zones, spaces and seats
        svg = draw_core_table(game).as_svg()
        return _clickable_core(svg, actions) if actions else svg
    svg = draw_table(game).as_svg()
    return _clickable(svg, game, actions) if actions else svg


def _clickable_core(svg: str, actions: list[str]) -> str:
    """A card or a space the legal actions name: the one action naming it (``data-action``), or the word they
    share when several do (``data-choices``: the page lists them)."""
    naming: dict[str, list[str]] = {}
    for a in actions:
        for word in a.split(" ")[1:]:
            for ident in (f"record-{word}", f"space-{word}"):
                if f'id="{ident}"' in svg and a not in naming.setdefault(ident, []):
                    naming[ident].append(a)
    for ident, named in naming.items():
        word = ident.split("-", 1)[1]
        attr = (f'data-action="{escape(named[0], quote=True)}"' if len(named) == 1
                else f'data-choices="{escape(word, quote=True)}"')
        svg = svg.replace(f'id="{ident}"', f'id="{ident}" {attr}', 1)
    return svg




def _clickable(svg: str, game, actions: list[str]) -> str:
    legal = set(actions)
    marks: dict[str, str] = {}
    wheel_key = table_key(game.rules.ruleset, WHEEL_KIND)
    # action verbs whose argument names the id of the element they act on (`<verb>-<argument>`)
    verb_ids = {game.rules.tables.layout.slot_verb, claim_kind(game.rules.ruleset)} - {None}
    for a in actions:
        verb, _, arg = a.partition(" ")
        if verb == "take":
            marks.setdefault(f"{wheel_key}-tile-{arg}", a)
        elif verb in verb_ids:
            marks.setdefault(f"{verb}-{arg}", a)
        elif verb == "place" and " at " in arg:
            where = arg.split(" at ")[1].split(" rot ")[0]
            marks.setdefault(f"hex-{where}", a)  # a site of the shared map
            if "," in where:  # a hex of the acting seat's own board: the empty cell, or the top tile there
                q, r = where.split(",", 1)
                seat = game.current_player
                marks.setdefault(f"cell-{seat}-{q}_{r}", a)
                stack = game.state.players[seat].area.get(where, ())
                if stack:
                    marks.setdefault(f"area-{seat}-{q}_{r}-{len(stack) - 1}", a)
    for kind, spec in game.rules.tables.layout.rows.items():
        for quality, line in market_rows.positions(spec, game.state.zones[spec.zone]).items():
            for k, tile in enumerate(line):
                if tile and f"pick {tile}" in legal:
                    marks[f"row-{kind}-{quality}-{k}"] = f"pick {tile}"
    for ident, action in marks.items():
        svg = svg.replace(f'id="{ident}"', f'id="{ident}" data-action="{escape(action, quote=True)}"', 1)
    return svg


def render_png(game, scale: float = 1.0) -> bytes:
    """The whole table as PNG bytes (cairosvg; needs the system cairo library)."""
    import cairosvg

    return cairosvg.svg2png(bytestring=render_svg(game).encode("utf-8"), scale=scale)
