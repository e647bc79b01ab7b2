"""Building a tile: picking it from a row and placing it on the personal area or a site of the shared map."""

from __future__ import annotations

from interpreter.dsl import steps as S
from interpreter.errors import RulesError
from interpreter.mechanisms import hex_area as A
from interpreter.mechanisms import hex_map as C
from interpreter.mechanisms import market_rows as rows
from interpreter.runtime import zone_effects
from interpreter.runtime.state import Decision, Frame, GameState, without
from interpreter.runtime.natives.common import AREA, BUILD, EMIT, _amounts, _prog, _push, can_afford, pay
from interpreter.runtime.natives.performing import _build_frame, _claimable, _note_top

# --------------------------------------------------------------------------- building a tile

def build_step(m, state, frame) -> None:
    ev = frame.event
    if ev["phase"] == "pick":
        options = pick_options(m, state, frame)
        if not options:
            raise RulesError(f"no {ev['kind']} tile can be taken and placed now")
        state.decision = Decision(frame.player, "pick", options, {})
    else:
        options = place_options(m, state, frame.player, ev["kind"], ev["tile"], ev.get("discount"))
        if not options:
            raise RulesError(f"{ev['tile']} cannot be placed anywhere")
        state.decision = Decision(frame.player, "place", options, {})


def _cost(m, state, frame, kind, tile) -> list[tuple[str, int]]:
    key = m.tables.keys.get((kind, tile, "cost"))
    return _amounts(m, state, frame, key, frame.event.get("discount")) if key else []


def _may_special(m, state, player, ev) -> bool:
    permit = m.layout.row_permit.get(ev["kind"])
    if permit is None:
        return True
    if permit in m.layout.main_only and not ev["main"]:
        return False  # R-ROW-3, R-ACT-6
    return permit in player.permits or permit in ev.get("with", []) or _bonus_grants(m, state, permit)


def _bonus_grants(m, state, permit) -> bool:
    """The turn's wheel bonus, still unused, is the right itself (it is used by taking the tile)."""
    info = state.turn_info
    key = info.get("bonus_key")
    if not key or info.get("bonus_used"):
        return False
    steps = m.tables.programs[key].steps
    return bool(steps) and type(steps[0]) is S.Grant and steps[0].permit == permit


def pick_options(m, state, frame) -> list[str]:
    ev, player = frame.event, state.players[frame.player]
    row = m.layout.rows.get(ev["kind"])
    line, regular = (state.zones[row.zone], row.regular) if row else ((), 0)
    tiles = [t for t in line[:regular] if t]
    if _may_special(m, state, player, ev):
        tiles += [t for t in line[regular:] if t]
    # whether the tile can then be placed is known only after its reward (which may pay a site's
    # premium); the engine offers only picks that can be finished (OPEN-28)
    kind, holdings, less = ev["kind"], player.holdings, ev.get("discount")
    known = m._record_prices  # m.record_price's memo, read here first: this loop runs for every build judged
    out = []
    for t in tiles:
        price = known.get((kind, t), False)
        if price is False:
            price = m.record_price(kind, t)
        if price is None:  # a cost that reads the game
            if can_afford(player, _cost(m, state, frame, kind, t)):
                out.append(t)
            continue
        for r, n in price:  # a constant price names each resource once (dsl/compile.py)
            if holdings.get(r, 0) < (n - less.get(r, 0) if less else n):
                break
        else:
            out.append(t)
    return out


def sure_picks(m, fall, state, frame, tiles):
    """The tiles whose pick surely reaches its placement (the engine's completeness check stops there):
    the tile's reward cannot fail and it has a place free of any premium, so what the reward gives
    cannot matter. A generator: callers that need one stop at the first."""
    if not fall.hooks_safe:
        return
    kind, keys = frame.event["kind"], m.tables.keys
    info = m.layout.kinds.get(kind)
    if info is None or info.placed_on is None:
        return
    anywhere = None  # on the ring or a site the place does not depend on the tile
    for tile in tiles:
        reward = keys.get((kind, tile, "reward"))
        if reward is not None and not fall.program_safe(reward):
            continue
        if info.placed_on == "action_hex":
            if m.layout.area.action_hex.get(m.tables.records[(kind, tile)].action) is not None:
                yield tile
            continue
        if anywhere is None:
            anywhere = free_place(m.layout, state, frame.player, info.placed_on)
        if anywhere:
            yield tile


def build_outlook(m, fall, state, seat, key, event) -> bool | None:
    """For a program that opens with a build: False when no tile can be picked (the build fails at once),
    True when some pick surely reaches its placement (``sure_picks``), None when only a try can tell."""
    step = m.tables.programs[key].steps[0]
    if step.modifiers or not event or "action" not in event:
        frame = _build_frame(m, state, Frame(key, [], 0, seat, "", None, event), step)
    else:  # the frame _build_frame makes for a build without modifiers in a performance, made at once
        frame = Frame(BUILD, [], 0, seat, "", None,
                      {"kind": step.kind, "main": bool(event.get("main")), "discount": dict(event.get("discount") or {}),
                       "with": list(event.get("with", [])), "phase": "pick"})
    tiles = pick_options(m, state, frame)
    if not tiles:
        return False
    return True if next(sure_picks(m, fall, state, frame, tiles), None) is not None else None


def free_place(layout, state, seat, placed_on: str) -> bool:
    """A place for a new tile that carries no premium: a free ring hex of the personal area, or a
    legal site of the shared map without a premium."""
    if placed_on == "ring":
        area = state.players[seat].area
        return any(h not in area for h in layout.ring_keys)
    built = state.table.get(layout.map_key, {})
    return any(site not in built for site in layout.plain_sites)  # an empty site is a legal one (hex_map.legal_sites)


def _discount_left(m, state, frame, kind, tile) -> dict:
    """What a cost reduction leaves after the tile's cost, for the site's premium (T-IV-1: the whole action)."""
    left = dict(frame.event.get("discount") or {})
    key = m.tables.keys.get((kind, tile, "cost"))
    if key:
        view = m._view(state, frame)
        for r, fn in m.tables.programs[key]:
            if r in left:
                left[r] = max(0, left[r] - fn(view, None))
    return left


def _rotations(features: tuple[tuple[str, ...], ...]) -> list[int]:
    """Rotations that give distinct faces (a tile with no features has one)."""
    seen, out = set(), []
    for r in range(6):
        face = tuple(tuple(f[(s - r) % 6] for s in range(6)) for f in features)
        if face not in seen:
            seen.add(face)
            out.append(r)
    return out


def place_options(m, state, seat, kind, tile, discount=None) -> list[str]:
    """The label of every legal placement (``_place_label``); a site's premium must be payable (less `discount`)."""
    info = m.layout.kinds.get(kind)
    if info is None or info.placed_on is None:
        raise RulesError(f"tiles of kind '{kind}' have no place to go")
    rec = m.tables.records[(kind, tile)]
    player = state.players[seat]
    if info.placed_on == "action_hex":
        h = m.layout.area.action_hex.get(rec.action)
        where = [A.key(h)] if h is not None else []
    elif info.placed_on == "ring":
        where = [h for h in m.layout.ring_keys if h not in player.area]
    else:
        where = []
        for site in C.legal_sites(m.layout.hex_map, set(state.table.get(m.layout.map_key, {}))):
            cost_key, _ = m.layout.premium.get(site, (None, 0))
            if cost_key and not can_afford(player, _amounts(m, state, Frame("", [], 0, seat, ""), cost_key, discount)):
                continue
            where.append(site)
    return [label for w in where for label in _labels_at(m, rec, kind, tile, w)]


def _labels_at(m, rec, kind: str, tile: str, where: str) -> tuple[str, ...]:
    """The placement labels of a tile on one place, one per rotation giving a distinct face; the same in
    every game of the ruleset, so made once (a site of the shared map may take a tile in 6 rotations)."""
    def labels():
        rots = m.tables.once(("rotations", kind, tile), lambda: _rotations((tuple(rec.edges), tuple(rec.corners))))
        return tuple(_place_label(tile, where, r) for r in rots)

    return m.tables.once(("place", kind, tile, where), labels)


def _place_label(tile: str, where: str, rot: int) -> str:
    return f"{tile} at {where} rot {rot}"


def _placement(label: str) -> tuple[str, int]:
    """(where, rotation) back from a label of ``_place_label`` (ids hold no spaces)."""
    _tile, at, where, rot_word, rot = label.rsplit(" ", 4)
    assert at == "at" and rot_word == "rot", label
    return where, int(rot)


def build_answer(m, state, frame, index, d) -> None:
    ev, player = frame.event, state.player(frame.player)
    kind = ev["kind"]
    if ev["phase"] == "pick":
        tile = d.options[index]
        row = m.layout.rows[kind]
        if rows.is_special(row, state.zones[row.zone], tile):
            permit = m.layout.row_permit.get(kind)
            if permit and permit in player.permits:
                player.permits = without(player.permits, permit)  # the right is used up; no points instead (R-ROW-4)
            elif permit and _bonus_grants(m, state, permit):
                state.turn_info["bonus_used"] = True  # the wheel bonus is used as the access
        pay(state, player, _cost(m, state, frame, kind, tile), tile)
        rows.take(state.zones, row, tile, state.table.get("era", 1))
        ev.update(tile=tile, phase="place", discount=_discount_left(m, state, frame, kind, tile))
        reward = m.tables.keys.get((kind, tile, "reward"))
        if reward:
            state.frames.append(_prog(m, reward, frame.player, tile, (kind, tile)))
        return
    where, rot = _placement(d.options[index])  # the options were made from this very state
    state.frames.pop()
    place_tile(m, state, frame.player, kind, ev["tile"], where, rot, ev.get("discount"))


def place_tile(m, state, seat, kind, tile, where, rot, discount=None) -> None:
    """Put a tile down and queue what that gives, in rule order (R-BUILD-11, R-WALL, R-UPGRADE)."""
    player = state.player(seat)
    info = m.layout.kinds[kind]
    rec = m.tables.records[(kind, tile)]
    this = (kind, tile)
    zone_effects.gain(m.tables, state, seat, kind, tile)
    queue: list[Frame] = []
    if info.placed_on == "site":
        state.table[m.layout.map_key] = {**state.table.get(m.layout.map_key, {}), where: {"tile": tile, "owner": seat, "rot": rot}}
        state.table["where"] = {**state.table.get("where", {}), tile: where}
        cost_key, points = m.layout.premium.get(where, (None, 0))
        if cost_key:
            pay(state, player, _amounts(m, state, Frame("", [], 0, seat, ""), cost_key, discount), where)
        if points:
            player.add_points(points, f"site:{where}")
        shapes = m.tables.shapes()
        placed = {h: (shapes[e["tile"]][1], e.get("rot", 0)) for h, e in state.table[m.layout.map_key].items() if h != where}
        matches = {c: C.corner_matches(m.layout.hex_map, where, rot, shapes[tile][1], c, placed) for c in sorted(info.colours)}
    else:
        if info.placed_on == "action_hex":
            _note_top(m, state, player, rec.action)  # the covered tile was the top this turn too (R-ACT-4)
        player.area = player.area.with_entry(where, [*player.area.get(where, ()), [tile, rot]])
        tops = {A.parse_key(h): tuple(s[-1]) for h, s in player.area.items() if h != where}
        shapes = m.tables.shapes()
        edges = lambda t: shapes[t][0]  # noqa: E731
        corners = lambda t: shapes[t][1]  # noqa: E731
        conn = A.connect(m.layout.area, A.parse_key(where), tile, rot, tops, edges, corners, set(m.layout.symbols),
                         set(info.colours), set(player.used))
        player.used = (*player.used, *conn.used)
        queue += [_prog(m, m.layout.symbols[s], seat, f"adjacency:{s}") for s in conn.symbols]
        matches = {c: 0 for c in info.colours}
        if conn.corners:
            matches[next(iter(sorted(info.colours)))] = conn.corners
    for colour, n in matches.items():
        for _ in range(n):
            if info.corner_reward:
                queue.append(_prog(m, info.corner_reward, seat, f"corner:{colour}", this))
            queue.append(Frame(EMIT, [], 0, seat, "", None, {"event": "corner_token_gained", "params": {"colour": colour}}))
    if info.on_place:
        queue.append(_prog(m, info.on_place, seat, tile, this))
    queue += [_prog(m, key, seat, icon, this) for icon, key in m.layout.icons if icon in m.tables.attr(rec, "icons", ())]
    queue.append(Frame(EMIT, [], 0, seat, "", None, {"event": "tile_placed", "params": {"kind": kind, "tile": list(this)}}))
    if info.placed_on == "action_hex":
        action = rec.action
        tops = state.turn_info.get("tops", {})
        state.turn_info["tops"] = {**tops, action: [*tops.get(action, ()), tile]}
        owed = dict(state.turn_info.get("owed", {}))
        if "owed" in state.turn_info:
            state.turn_info["owed"] = owed
        for _ in range(owed.pop(action, 0)):
            _claimable(state, seat, action)  # the earlier performance's bonus, retroactively (R-ACT-4)
    if info.placed_on == "site":
        area = m.layout.hex_map.area_of.get(where)
        if area and area not in state.table.get("resolved", []) and C.enclosed(m.layout.hex_map, area, set(state.table[m.layout.map_key])):
            queue.append(Frame(AREA, [], 0, seat, f"area:{area}", None, {"area": area}))
    _push(state, queue)
