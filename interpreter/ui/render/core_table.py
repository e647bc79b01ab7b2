"""The table of a game on the generic core, drawn from what its observation shows: where the flow stands and
the dice; the table's counters; each shared zone as a row of cards (a face-down zone as a stack with its
count); the spaces no card carries, with the pieces on them; each seat's panel (points, holdings, free
pieces, its own zones).

Every card is a group ``record-<id>`` carrying ``data-tile`` (the record, for a tooltip), every space a group
``space-<id>``; a card that is also a space shows the pieces on it. Names are the content's (labels.Labels).
"""

from __future__ import annotations

from dataclasses import dataclass

import drawsvg as dw

from interpreter.content.labels import Labels
from interpreter.content.model.table import TablePart
from interpreter.ui.render.layout import Size, Widget, draw_parts
from interpreter.ui.render.draw import INK, SOFT, block, colour_of, label, lighten, seat_colour
from interpreter.ui.render.text import wrap

W, M = 1600, 16
DEFAULT_LAYOUT = [TablePart(widget="sections"), TablePart(widget="seats")]
CARD_W, CARD_H, GAP = 138, 70, 8
SHOWN = 20  # cards of one zone drawn at most; the rest are counted


def _card(g, x, y, rid: str, labels: Labels, marks: dict, occupants: list, base: str) -> None:
    card = dw.Group(id=f"record-{rid}", class_="card", data_tile=base)
    card.append(dw.Rectangle(x, y, CARD_W, CARD_H, rx=6, fill="#fffdf7", stroke="#8a7a5a", stroke_width=1.2))
    lines = wrap(labels.name(base), CARD_W - 12, 11, 2)
    card.append(block(x + CARD_W / 2, y + 20, lines, 11, INK, weight="bold", all_weight=True))
    kept = ", ".join(f"{n} {labels.name(k, False)}" for k, n in sorted(marks.items()) if n)
    if kept:
        card.append(label(x + CARD_W / 2, y + CARD_H - 22, kept, 9.5, fill=SOFT))
    _pieces(card, x + 12, y + CARD_H - 10, occupants)
    g.append(card)


def _pieces(g, x, y, occupants: list) -> None:
    """Pieces on a card or space: a disc of the owner's seat colour, ringed by the piece's colour if it has one."""
    for k, (seat, piece) in enumerate(occupants):
        cx = x + k * 17
        ring = colour_of(piece, "")
        g.append(dw.Circle(cx, y, 7, fill=seat_colour(seat), stroke=ring or "#333333", stroke_width=2.5 if ring else 1))


def _place(g, x, y, rid: str | None, labels: Labels, marks: dict, spaces: dict) -> None:
    """A card at (x, y), or the empty slot of an ordered zone (``rid`` None)."""
    if rid is None:
        g.append(dw.Rectangle(x, y, CARD_W, CARD_H, rx=6, fill="none", stroke="#b8ad95", stroke_dasharray="4,3"))
    else:
        _card(g, x, y, rid, labels, marks.get(rid, {}), spaces.get(rid, []), rid.split("~", 1)[0])


def _stack(g, x, y, text: str) -> None:
    """A face-down stack at (x, y), saying how many it holds."""
    g.append(dw.Rectangle(x, y, CARD_W, CARD_H, rx=6, fill="#8a7a5a", stroke="#5a4a2a"))
    g.append(label(x + CARD_W / 2, y + CARD_H / 2 + 4, text, 12, fill="white", weight="bold"))


def _zone_row(g, x, y, width, title: str, seen, labels: Labels, marks: dict, spaces: dict, hidden_note: str) -> float:
    """One zone: its title (when given), then its cards in rows; the height used."""
    head = 22 if title else 0
    if title:
        g.append(label(x, y + 14, title, 13, "start", weight="bold"))
    y += head
    if isinstance(seen, dict) and seen.get("size"):  # face down: a stack and its count
        _stack(g, x, y, f"{seen['size']} {hidden_note}")
        return head + CARD_H + GAP
    if not seen or isinstance(seen, dict):
        g.append(label(x, y + 14, "empty", 11, "start", fill=SOFT))
        return head + 22
    per_row = max(1, int((width + GAP) // (CARD_W + GAP)))
    cards = list(seen[:SHOWN])
    for i, rid in enumerate(cards):
        _place(g, x + (i % per_row) * (CARD_W + GAP), y + (i // per_row) * (CARD_H + GAP), rid, labels, marks, spaces)
    rows = (len(cards) + per_row - 1) // per_row
    height = head + rows * (CARD_H + GAP)
    if len(seen) > SHOWN:
        g.append(label(x, y + rows * (CARD_H + GAP) + 12, f"and {len(seen) - SHOWN} more", 11, "start", fill=SOFT))
        height += 18
    return height


@dataclass(frozen=True)
class Section:
    title: str
    zones: tuple[str, ...]
    spaces: tuple[str, ...]
    widget: str = "rows"
    width: str = "half"


def plan(layout, zones: dict, free_spaces: list[str], labels: Labels) -> list[Section]:
    """The sections drawn: the layout's, with the zones and spaces the game has; then each zone no section
    names, and the spaces no card carries nor a section names."""
    sections, placed, put = [], set(), set()
    for s in layout.sections if layout is not None else ():
        named = tuple(z for z in s.zones if z in zones)
        here = tuple(sp for sp in s.spaces if sp in free_spaces)
        placed |= set(named)
        put |= set(here)
        if named or here:
            sections.append(Section(s.title, named, here, s.widget, s.width))
    sections += [Section(labels.name(z), (z,), ()) for z in zones if z not in placed]
    rest = tuple(sp for sp in free_spaces if sp not in put)
    if rest:
        sections.append(Section("Spaces", (), rest, width="full"))
    return sections


def _section(g, x, y, width, section: Section, obs: dict, labels: Labels) -> float:
    """One section at (x, y): its title, its zones by its widget, then its spaces; the height used."""
    marks, spaces, zones = obs["marks"], obs["spaces"], obs["zones"]
    g.append(label(x, y + 15, section.title, 14, "start", weight="bold"))
    h = 22
    if section.widget == "columns":
        h += _columns(g, x, y + h, section.zones, obs, labels)
    else:
        alone = len(section.zones) == 1  # the section's title says the zone
        for zone in section.zones:
            zg = dw.Group(id=f"zone-{zone}", class_="zone")
            h += _zone_row(zg, x, y + h, width, "" if alone else labels.name(zone), zones[zone], labels, marks,
                           spaces, "face down") + 4
            g.append(zg)
    if section.spaces:
        per_row = max(1, int((width + GAP) // (CARD_W + GAP)))
        for i, space in enumerate(section.spaces):
            x0, y0 = x + (i % per_row) * (CARD_W + GAP), y + h + (i // per_row) * (52 + GAP)
            sg = dw.Group(id=f"space-{space}", class_="space")
            sg.append(dw.Rectangle(x0, y0, CARD_W, 52, rx=5, fill="#f1ede2", stroke="#a59a80"))
            sg.append(block(x0 + CARD_W / 2, y0 + 16, wrap(labels.name(space), CARD_W - 10, 10.5, 2), 10.5, INK))
            _pieces(sg, x0 + 12, y0 + 41, spaces.get(space, []))
            g.append(sg)
        h += ((len(section.spaces) + per_row - 1) // per_row) * (52 + GAP)
    return h


def _columns(g, x, y, zone_ids, obs: dict, labels: Labels) -> float:
    """Zones side by side, each a column of its cards with the first at the bottom; the height used."""
    marks, spaces = obs["marks"], obs["spaces"]
    tallest = max((len(obs["zones"][z]) if isinstance(obs["zones"][z], list) else 1 for z in zone_ids), default=0)
    for k, zone in enumerate(zone_ids):
        seen = obs["zones"][zone]
        zg = dw.Group(id=f"zone-{zone}", class_="zone")
        cx = x + k * (CARD_W + 2 * GAP)
        zg.append(block(cx + CARD_W / 2, y + 10, wrap(labels.name(zone), CARD_W, 11, 1), 11, INK, weight="bold"))
        cards = seen if isinstance(seen, list) else []
        for i, rid in enumerate(cards):
            _place(zg, cx, y + 22 + (tallest - 1 - i) * (CARD_H + GAP), rid, labels, marks, spaces)
        if isinstance(seen, dict) and seen.get("size"):  # face down: a stack and its count
            _stack(zg, cx, y + 22, f"{seen['size']} face down")
        elif not cards:
            zg.append(label(cx + CARD_W / 2, y + 36, "empty", 11, fill=SOFT))
        g.append(zg)
    return 22 + max(tallest, 1) * (CARD_H + GAP)


def draw_core_table(game) -> dw.Drawing:
    """The whole table of a game on the generic core as a drawsvg drawing (what nobody in particular sees)."""
    obs = game.observation(-1)
    labels = Labels.of(game.rules.ruleset)
    pack = game.rules.ruleset.single("pack")
    marks, spaces = obs["marks"], obs["spaces"]
    layout = game.rules.ruleset.single("table")
    hidden = set(layout.hidden) if layout else set()
    shared_zones = {z: v for z, v in obs["zones"].items() if "@" not in z and z not in hidden}
    own_zones = {z: v for z, v in obs["zones"].items() if "@" in z and z.partition("@")[0] not in hidden}
    body = dw.Group(id="table")
    flow = obs["flow"]
    head = [pack.name if pack is not None and pack.name else game.rules.ruleset.pack_id]
    if flow:
        head.append(f"round {flow['round']} · {labels.name(flow['phase'], False)}")
    head.append("game over" if obs["over"] else f"seat {obs['current'] + 1} to play")
    body.append(label(M, 30, "  ·  ".join(head), 20, "start", weight="bold"))
    y = 44
    chips = [f"{labels.name(k)} {v}" for k, v in sorted(obs["shared"].items())]
    chips += [f"{labels.name(d)} die {v}" for d, v in sorted(obs["dice"].items())]
    if chips:
        body.append(label(M, y + 14, "   ".join(chips), 13, "start", fill=SOFT))
        y += 24
    # the spaces drawn apart: every space the flow declares (occupied or not) and any other the state holds
    # pieces on, but those on the records of a zone (drawn on the cards)
    flow_file = game.rules.ruleset.single("flow")
    declared = [sp.id for sp in (flow_file.spaces if flow_file is not None else ()) if sp.on is None]
    on_cards = {rid for seen in obs["zones"].values() if isinstance(seen, list) for rid in seen if rid}
    free = [sp for sp in dict.fromkeys(declared + list(spaces)) if sp not in on_cards]
    width = layout.width if layout is not None and layout.width else W
    sections = plan(layout, shared_zones, free, labels)

    def draw_sections(g, x, y, w, h) -> Size:
        """The sections (content `table`, then every zone and space it does not place) in two columns; a
        full-width section spans both."""
        col_w = (w - M) / 2
        col_y = [y, y]
        for section in sections:
            sg = dw.Group(class_="section")
            if section.width == "full":
                top = max(col_y)
                col_y = [top + _section(sg, x, top, w, section, obs, labels) + 6] * 2
            else:
                c = 0 if col_y[0] <= col_y[1] else 1
                col_y[c] += _section(sg, x + c * (col_w + M), col_y[c], col_w, section, obs, labels) + 6
            g.append(sg)
        return Size(w, max(col_y) - y)

    def draw_seats(g, x, y, w, h) -> Size:
        return Size(w, _seats(g, x, y, w, obs, own_zones, layout, labels))

    parts = layout.layout if layout is not None and layout.layout else DEFAULT_LAYOUT
    height = y + draw_parts(parts, {"sections": Widget(draw_sections), "seats": Widget(draw_seats)}, body, M, y,
                            width - 2 * M) + M
    d = dw.Drawing(width, height)
    d.append(dw.Rectangle(0, 0, width, height, fill="#f3eee3"))
    d.append(body)
    return d


def _seats(g, x, y, width, obs: dict, own_zones: dict, layout, labels: Labels) -> float:
    """Each seat's panel side by side: points, holdings, free pieces, its own zones; the height used."""
    marks, spaces = obs["marks"], obs["spaces"]
    players = obs["players"]
    pw = (width - (len(players) - 1) * M) / max(1, len(players))
    heights = []
    for p in players:
        seat = p["seat"]
        x0 = x + seat * (pw + M)
        pg = dw.Group(id=f"board-{seat}", class_="player-board", data_seat=seat)
        inner = dw.Group()
        h = 40
        held = [f"{labels.name(r)} {n}" for r, n in p["holdings"].items() if n]
        held += [f"free {labels.name(k, False)} {n}" for k, n in p["pieces_free"].items()]
        for line in wrap(" · ".join(held) or "nothing", pw - 20, 12, 4):
            inner.append(label(x0 + 10, y + h + 4, line, 12, "start"))
            h += 17
        h += 6
        order = {z: i for i, z in enumerate(layout.seat_zones if layout else ())}
        for zone, seen in sorted(own_zones.items(), key=lambda kv: order.get(kv[0].partition("@")[0], len(order))):
            name, _, owner = zone.partition("@")
            if int(owner) != seat:
                continue
            h += _zone_row(inner, x0 + 10, y + h, pw - 20, labels.name(name), seen, labels, marks, spaces, "hidden")
        colour = seat_colour(seat)
        pg.append(dw.Rectangle(x0, y, pw, h + 8, rx=8, fill=lighten(colour, 0.9), stroke=colour, stroke_width=3))
        pg.append(dw.Rectangle(x0, y, pw, 30, rx=8, fill=colour))
        title = f"Seat {seat + 1}" + ("  ▶ to play" if not obs["over"] and obs["current"] == seat else "")
        pg.append(label(x0 + 10, y + 21, title, 15, "start", fill="white", weight="bold"))
        pg.append(label(x0 + pw - 10, y + 21, f"{p['score']} points", 15, "end", fill="white", weight="bold"))
        pg.append(inner)
        g.append(pg)
        heights.append(h + 8)
    return max(heights, default=0)
