"""Tracks: the pawn track with effects on its spaces, and each player's own tracks in their panel."""

from __future__ import annotations

import drawsvg as dw

from interpreter.ui.kinds import ROUTE_KIND
from interpreter.ui.kinds import MAP_KIND
from interpreter.ui.render.draw import GAIN, INK, SOFT, label, route_fill
from interpreter.ui.render.text import short, wrap



def draw_route(t, d, x0, y0, w):
    """The pawn track with the effects of its spaces and the seats on them; returns the height it used."""
    route = t.rs.single(ROUTE_KIND)
    if route is None:
        return 0
    faces = {face.replaces: face for face in route.replacement_tiles if face.id in route.replacement_tiles_in_use}
    h = 92
    t.section(d, x0, y0, w, h, t.track_name(route.track))
    g = dw.Group(id=route.track.replace("_", "-"))
    n = len(route.spaces)
    cw = (w - 150) / n
    for i, sp in enumerate(route.spaces):
        x = x0 + 140 + i * cw
        g.append(dw.Rectangle(x, y0 + 8, cw - 6, h - 16, rx=5, fill=route_fill(t.rs.single(MAP_KIND)), fill_opacity=0.35,
                              stroke="#8a6a3c"))
        head = sp.label + (f" (enter: {short(sp.enter_cost)})" if sp.enter_cost else "")
        g.append(label(x + 5, y0 + 22, head, 11, "start", weight="bold"))
        texts = [short(faces[e.id].effect if e.id in faces else e.effect) for e in sp.effects]
        lines = [ln for text in texts for ln in wrap(text, cw - 14, 9, 2)]
        for j, ln in enumerate(lines[:4]):
            g.append(label(x + 5, y0 + 36 + j * 10.5, ln, 9, "start", fill=GAIN))
        here = [p.seat for p in t.s.players if p.tracks.get(route.track) == sp.n]
        t.pawns(g, x + cw - 16 - (len(here) - 1) * 7, y0 + 19, here, 6)
    d.append(g)
    return h


def player_track_rows(t) -> list[tuple[str, str, list[tuple[int, str, int | None]]]]:
    """Every track a player has a marker on, as (track id, name, spaces (number, label, value)): the tracks
    file's tracks, then the pawn track."""
    tracks = t.rs.single("tracks")
    rows = [(tr.id, tr.name or tr.id, [(sp.n, sp.label or str(sp.n), sp.value) for sp in tr.spaces])
            for tr in (tracks.tracks if tracks else ())]
    route = t.rs.single(ROUTE_KIND)
    if route:
        rows.append((route.track, t.track_name(route.track), [(sp.n, sp.label, None) for sp in route.spaces]))
    return rows


def player_tracks_height(rows) -> int:
    return 24 + 34 * len(rows)


def draw_player_tracks(g, x0, ty, w, p, colour, rows) -> None:
    """The rows of a player's panel from ty down: each track with player p's marker (in their colour)."""
    g.append(label(x0 + 12, ty + 14, "tracks", 11, "start", weight="bold"))
    for i, (tid, name, spaces) in enumerate(rows):
        y = ty + 22 + i * 34
        g.append(label(x0 + 12, y + 19, name, 10.5, "start"))
        cw = min(40, (w - 120) / max(len(spaces), 1))
        at = p.tracks.get(tid)
        for j, (n, lab, value) in enumerate(spaces):
            x = x0 + 108 + j * cw
            here = n == at
            g.append(dw.Rectangle(x, y + 2, cw - 3, 28, rx=3, fill=colour if here else "white",
                                  stroke="#888888", stroke_width=0.8, class_="track-space" + (" marker" if here else "")))
            g.append(label(x + (cw - 3) / 2, y + 14, lab, 10, fill="white" if here else INK, weight="bold"))
            if value:
                g.append(label(x + (cw - 3) / 2, y + 26, f"{value}", 8.5, fill="white" if here else SOFT))
