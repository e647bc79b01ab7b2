"""Board mechanisms for the effect machine: performing actions, building tiles from rows onto the
personal area or the shared map, moving markers on grids, placing pieces, deferred (`later`)
effects, laying bridge planks and resolving enclosed areas.

A mechanism that needs choices runs as a *native frame*: a frame whose key starts with "@" and
whose local data lives in ``frame.event``. A native's ``step`` advances it (setting a decision,
pushing program frames, or popping itself); its ``answer`` takes the decision's answer. So a half-
done mechanism clones and serialises with the state like any program.

State kept here: ``PlayerState.area`` (hex "q,r" -> stack of [tile, rotation], top last),
``PlayerState.used`` (connection ends that paid, R-CONN-1), ``table["city"]`` (site -> tile,
owner, rotation, piece), ``table["where"]`` (tile -> site), ``table["resolved"]`` (enclosed areas
already resolved), ``table["bridge"]`` (plank -> tile), and per turn ``turn_info["tops"]`` /
``turn_info["owed"]`` (upgrade bonuses, R-ACT-3/4) and ``turn_info["later"]`` (deferred effects).
"""

from __future__ import annotations

from interpreter.runtime.mechanisms import hex_area as A
from interpreter.runtime.mechanisms import hex_map as C
from interpreter.runtime.mechanisms import market_rows as rows
from interpreter.content.bounds import STEP_BUDGET, runaway
from interpreter.dsl import steps as S
from interpreter.dsl.printer import to_text
from interpreter.errors import RulesError
from interpreter.runtime.state import Decision, Frame, GameState

PERFORM, BUILD, MOVE, PLAZA, PLANK, BONUS, PICK_HALF = ("@perform", "@build", "@move", "@plaza", "@plank",
                                                        "@bonus", "@half")


# --------------------------------------------------------------------------- helpers

def _amounts(m, state, frame, key, less: dict | None = None) -> list[tuple[str, int]]:
    """Evaluate a compiled amounts key, less a discount (never below zero)."""
    amounts = m.tables.programs[key]
    values = m.constant(amounts)
    if values is None:
        view = m._view(state, frame)
        values = [(r, fn(view, None)) for r, fn in amounts]
    if not less:
        return [(r, n) for r, n in values if n > 0]
    return [(r, n - less.get(r, 0)) for r, n in values if n - less.get(r, 0) > 0]


def can_afford(player, amounts) -> bool:
    need: dict[str, int] = {}
    for r, n in amounts:
        need[r] = need.get(r, 0) + n
    return all(player.holdings.get(r, 0) >= n for r, n in need.items())


def pay(player, amounts, what: str) -> None:
    if not can_afford(player, amounts):
        raise RulesError(f"player {player.seat + 1} cannot pay {_text(amounts)} for {what}")
    for r, n in amounts:
        player.holdings[r] -= n


def _text(amounts) -> str:
    return ", ".join(f"{n} {r}" for r, n in amounts) or "nothing"


def _push(state: GameState, frames: list[Frame]) -> None:
    """Push frames so that they run in list order."""
    state.frames.extend(reversed(frames))


def _prog(m, key, player, source, this=None, event=None) -> Frame:
    return Frame(key, [], 0, player, source, list(this) if this else None, event)


def top_of(player, hex_key: str):
    stack = player.area.get(hex_key)
    return tuple(stack[-1]) if stack else None


def _mods(m, state, frame, mods) -> dict:
    """Modifiers of `perform`/`build`/`move` as plain data: a discount, `free`, permits."""
    out: dict = {}
    if not mods:
        return out
    view = m._view(state, frame)
    for mod in mods:
        kind = type(mod)
        if kind is S.Free:
            out["free"] = True
        elif kind is S.Discount:
            d = out.setdefault("discount", {})
            for r, fn in mod.amounts:
                d[r] = d.get(r, 0) + fn(view, None)
        elif kind is S.With:
            out.setdefault("with", []).append(mod.permit)
    return out


# --------------------------------------------------------------------------- statements

def op_perform(m, state, frame, step: S.Perform) -> None:
    action = step.action
    ctx = _mods(m, state, frame, step.modifiers)
    if action is None:  # `perform any`: the player chooses the action
        state.frames.append(Frame(PERFORM, [], 0, frame.player, frame.source, None,
                                  {"action": None, "main": False, **ctx, "phase": "choose"}))
        return
    state.frames.append(start_performance(frame.player, action, main=False, ctx=ctx))


def start_performance(player: int, action: str, main: bool, ctx: dict | None = None) -> Frame:
    return Frame(PERFORM, [], 0, player, f"action:{action}", None, {"action": action, "main": main, **(ctx or {}),
                                                                      "phase": "start"})


def op_build(m, state, frame, step: S.Build) -> None:
    state.frames.append(_build_frame(m, state, frame, step))


def _build_frame(m, state, frame, step: S.Build) -> Frame:
    kind = step.kind
    ctx = frame.event if frame.event and "action" in frame.event else {}  # the performance this build is part of
    extra = _mods(m, state, frame, step.modifiers)
    discount = dict(ctx.get("discount") or {})
    for r, n in extra.get("discount", {}).items():
        discount[r] = discount.get(r, 0) + n
    return Frame(BUILD, [], 0, frame.player, frame.source, None,
                 {"kind": kind, "main": bool(ctx.get("main")), "discount": discount,
                  "with": list(ctx.get("with", [])) + extra.get("with", []), "phase": "pick"})


def op_move(m, state, frame, step: S.Move) -> None:
    grid, direction, steps_fn = step.grid, step.direction, step.steps
    n = steps_fn(m._view(state, frame), None) if steps_fn else 1
    if n > STEP_BUDGET:  # a count read from the game: more moves than one action may run (bounds.py)
        raise runaway(state, m.tables.spans)
    ctx = _mods(m, state, frame, step.modifiers)
    for _ in range(n):
        state.frames.append(Frame(MOVE, [], 0, frame.player, frame.source, None, {"grid": grid, "dir": direction, **ctx}))


def op_place(m, state, frame, step: S.Place) -> None:
    """`place PIECE on this`: a free piece of the player goes on the record (a claim, R-BUILD-6)."""
    piece = step.piece
    player = state.player(frame.player)
    if not frame.this or player.pieces_free.get(piece, 0) <= 0:
        return  # without a free piece the tile is still built, with no claim
    site = state.table.get("where", {}).get(frame.this[1])
    if site is None:
        return
    player.pieces_free[piece] -= 1
    city = state.table["city"]
    state.table["city"] = {**city, site: {**city[site], "piece": [piece, frame.player]}}


def op_later(m, state, frame, step: S.Later) -> None:
    """`later: X` — the active player resolves X at any moment of this turn (R-TIME-1); at once otherwise."""
    addr = frame.addr + [frame.pc - 1, 0]
    entry = {"key": frame.key, "addr": addr, "trigger": frame.trigger, "player": frame.player, "source": frame.source,
             "this": frame.this, "event": frame.event, "label": later_label(frame.key)}
    if frame.player == state.current and not state.table.get("scoring"):
        _defer(state, entry)
    else:
        state.frames.append(later_frame(entry))


def later_label(key: str) -> str:
    parts = key.split("/")
    return parts[-2] if len(parts) >= 2 else key


def later_frame(e: dict) -> Frame:
    return Frame(e["key"], list(e["addr"]), 0, e["player"], e["source"], e["this"], e["event"], e["trigger"])


# --------------------------------------------------------------------------- performing an action

def perform_step(m, state, frame) -> None:
    ev = frame.event
    player = state.players[frame.player]
    if ev["phase"] == "choose":
        state.decision = Decision(frame.player, "choose", list(m.layout.actions), {})
        return
    action = ev["action"]
    if ev["phase"] == "start":
        _note_top(m, state, player, action)
        ev["phase"] = "done"
        ctx = {"action": action, "main": ev["main"], "discount": ev.get("discount", {}), "with": ev.get("with", [])}
        state.frames.append(Frame(f"pack/actions/{action}/effect", [], 0, frame.player, f"action:{action}", None, ctx))
        return
    state.frames.pop()
    m.emit(state, frame.player, "action_performed", {"action": action})
    _upgrade_bonus(m, state, frame.player, action)


def perform_answer(m, state, frame, index, d) -> None:
    frame.event["action"] = d.options[index]
    frame.event["phase"] = "start"
    frame.source = f"action:{frame.event['action']}"


def _note_top(m, state, player, action) -> None:
    """Remember every tile that was the top upgrade of an action's hex this turn (R-ACT-4)."""
    at = m.layout.action_hex_keys.get(action)
    if at is None:
        return
    top = top_of(player, at)
    tops = state.turn_info.get("tops", {})
    seen = tops.get(action)
    if seen is None or (top and top[0] not in seen):
        seen = list(seen or ())
        if top and top[0] not in seen:
            seen.append(top[0])
        state.turn_info["tops"] = {**tops, action: seen}


def _upgrade_bonus(m, state, seat: int, action: str) -> None:
    """One upgrade bonus per performance (R-ACT-3), claimed at any moment of the turn from any tile that
    was the top of that hex this turn (R-ACT-4): a deferred item, resolved at the end of the turn if
    not before. With no upgrade yet it is owed, and becomes claimable if the hex is upgraded this turn."""
    _note_top(m, state, state.players[seat], action)
    if state.turn_info.get("tops", {}).get(action):
        _claimable(state, seat, action)
    else:
        owed = state.turn_info.get("owed", {})
        state.turn_info["owed"] = {**owed, action: owed.get(action, 0) + 1}


def _claimable(state, seat, action) -> None:
    entry = {"key": BONUS, "addr": [], "trigger": None, "player": seat, "source": f"action:{action}", "this": None,
             "event": {"action": action}, "label": f"bonus:{action}"}
    if seat == state.current and not state.table.get("scoring"):
        _defer(state, entry)
    else:
        state.frames.append(later_frame(entry))


def _defer(state, entry: dict) -> None:
    # turn_info's values are replaced, never changed in place: copies of the state share them
    state.turn_info["later"] = [*state.turn_info.get("later", ()), entry]


def _bonus_frame(m, seat, tile) -> Frame:
    kind = m.tables.kind_of[tile]
    return _prog(m, m.tables.keys[(kind, tile, "bonus")], seat, tile, (kind, tile))


def bonus_step(m, state, frame) -> None:
    tops = state.turn_info.get("tops", {}).get(frame.event["action"], [])
    if len(tops) == 1:
        state.frames.pop()
        _push(state, [_bonus_frame(m, frame.player, tops[0])])
    else:  # re-upgraded this turn: the old or the new bonus, never both
        state.decision = Decision(frame.player, "choose", list(tops), {})


def bonus_answer(m, state, frame, index, d) -> None:
    state.frames.pop()
    _push(state, [_bonus_frame(m, frame.player, d.options[index])])


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
    row = state.table["rows"].get(ev["kind"], {})
    tiles = [t for t in row.get("regular", []) if t]
    if _may_special(m, state, player, ev):
        tiles += [t for t in row.get("special", []) if t]
    # whether the tile can then be placed is known only after its reward (which may pay a site's
    # premium); the engine offers only picks that can be finished (OPEN-28)
    kind, holdings, less = ev["kind"], player.holdings, ev.get("discount")
    out = []
    for t in tiles:
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
    frame = _build_frame(m, state, Frame(key, [], 0, seat, "", None, event), step)
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
    city = state.table.get("city", {})
    return any(site not in city for site in layout.plain_sites)  # an empty site is a legal one (city.legal_sites)


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
        for site in C.legal_sites(m.layout.city, set(state.table.get("city", {}))):
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
        row = state.table["rows"][kind]
        if tile in row.get("special", []):
            permit = m.layout.row_permit.get(kind)
            if permit and permit in player.permits:
                player.permits.remove(permit)  # the right is used up; no points instead (R-ROW-4)
            elif permit and _bonus_grants(m, state, permit):
                state.turn_info["bonus_used"] = True  # the wheel bonus is used as the access
        pay(player, _cost(m, state, frame, kind, tile), tile)
        state.table["rows"] = rows.take(state.table["rows"], state.stacks, kind, tile, state.table.get("era", 1))
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
    player.owned[kind] = [*player.owned.get(kind, ()), tile]
    player.acquired[f"{kind}:{tile}"] = state.turn
    queue: list[Frame] = []
    if info.placed_on == "site":
        state.table["city"] = {**state.table.get("city", {}), where: {"tile": tile, "owner": seat, "rot": rot}}
        state.table["where"] = {**state.table.get("where", {}), tile: where}
        cost_key, points = m.layout.premium.get(where, (None, 0))
        if cost_key:
            pay(player, _amounts(m, state, Frame("", [], 0, seat, ""), cost_key, discount), where)
        if points:
            player.add_points(points, f"site:{where}")
        placed = {h: (tuple(m.tables.records[(m.tables.kind_of[e["tile"]], e["tile"])].corners), e.get("rot", 0))
                  for h, e in state.table["city"].items() if h != where}
        matches = {c: C.corner_matches(m.layout.city, where, rot, tuple(rec.corners), c, placed) for c in sorted(info.colours)}
    else:
        if info.placed_on == "action_hex":
            _note_top(m, state, player, rec.action)  # the covered tile was the top this turn too (R-ACT-4)
        player.area[where] = [*player.area.get(where, ()), [tile, rot]]
        tops = {A.parse_key(h): tuple(s[-1]) for h, s in player.area.items() if h != where}
        edges = lambda t: tuple(m.tables.records[(m.tables.kind_of[t], t)].edges)  # noqa: E731
        corners = lambda t: tuple(m.tables.records[(m.tables.kind_of[t], t)].corners)  # noqa: E731
        conn = A.connect(m.layout.area, A.parse_key(where), tile, rot, tops, edges, corners, set(m.layout.symbols),
                         set(info.colours), set(player.used))
        player.used.extend(conn.used)
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
        plaza = m.layout.city.plaza_of.get(where)
        if plaza and plaza not in state.table.get("resolved", []) and C.enclosed(m.layout.city, plaza, set(state.table["city"])):
            queue.append(Frame(PLAZA, [], 0, seat, f"plaza:{plaza}", None, {"plaza": plaza}))
    _push(state, queue)


# --------------------------------------------------------------------------- queued events

EMIT = "@emit"


def emit_step(m, state, frame) -> None:
    state.frames.pop()
    m.emit(state, frame.player, frame.event["event"], frame.event["params"])


# --------------------------------------------------------------------------- grids

_STEP = {"up": (1, 0), "down": (-1, 0), "left": (0, -1), "right": (0, 1)}


def _move_plan(m, state, seat, grid_id, word, ctx) -> tuple[str, tuple[int, int] | None, list]:
    """(direction, the square reached or None, what it costs) of one move (R-PROJ-3/4, OPEN-15, OPEN-16)."""
    grid = m.layout.grids[grid_id]
    row, col = state.players[seat].grids[grid.id]
    direction = grid.sideways if word == "sideways" else word
    dr, dc = _STEP[direction]
    nrow, ncol = row + dr, col + dc
    if not (1 <= nrow <= len(grid.cols) and ncol in grid.cols[nrow - 1]):
        return direction, None, []
    cost: list = []
    if direction == "up" and not ctx.get("free"):
        fake = Frame("", [], 0, seat, "")
        cost = _amounts(m, state, fake, grid.up_cost, ctx.get("discount")) if grid.up_cost else []
        entered = grid.tier[nrow - 1]
        if entered != grid.tier[row - 1] and entered in grid.tier_cost:
            cost += _amounts(m, state, fake, grid.tier_cost[entered])
    return direction, (nrow, ncol), cost


STARTS_THAT_CAN_FAIL = frozenset({S.Move, S.Pay, S.Advance, S.Build})  # the first statements cannot_start judges


def cannot_start(m, state, seat, key, event: dict | None = None) -> bool:
    """True when a program's first statement surely fails now (a payment, a move up or a single advance
    the player cannot make, a build with no tile to take): an exact, cheap rejection before the program
    is tried on a copy of the state. ``event``: the performance the program would run in (build rights)."""
    steps = m.tables.programs[key].steps
    if not steps:
        return False
    step = steps[0]
    kind = type(step)
    if kind is S.Move and step.steps is None:
        grid = m.layout.grids[step.grid]
        if step.direction == "up" and not step.modifiers and grid.up_cost:  # the move's own price, before its square is found
            price = m.constant(m.tables.programs[grid.up_cost])
            holdings = state.players[seat].holdings
            if price is not None:
                for r, n in price:
                    if holdings.get(r, 0) < n:
                        return True
        mods = _mods(m, state, Frame(key, [], 0, seat, "", None, event), step.modifiers) if step.modifiers else {}
        direction, target, cost = _move_plan(m, state, seat, step.grid, step.direction, mods)
        return direction == "up" and (target is None or not can_afford(state.players[seat], cost))
    if kind is S.Pay:
        return not m._can_pay(m._view(state, Frame(key, [], 0, seat, "", None, event)), step.amounts)
    if kind is S.Advance and step.times is None:
        return not m.can_advance(state, seat, step.track)
    if kind is S.Build:
        return not pick_options(m, state, _build_frame(m, state, Frame(key, [], 0, seat, "", None, event), step))
    return False


def move_step(m, state, frame) -> None:
    """One move of a marker on a grid, paying first (R-PROJ-3..5, OPEN-15, OPEN-16)."""
    state.frames.pop()
    ev = frame.event
    grid = m.layout.grids[ev["grid"]]
    player = state.player(frame.player)
    row, _ = player.grids[grid.id]
    direction, target, cost = _move_plan(m, state, frame.player, grid.id, ev["dir"], ev)
    if target is None:
        if direction == "up":
            raise RulesError(f"there is no square above on {grid.id}")
        return  # a sideways move with no square in its direction is lost
    if cost:
        pay(player, cost, f"a move up on {grid.id}")
    nrow, ncol = target
    player.grids[grid.id] = [nrow, ncol]
    queue = []
    key = grid.squares.get((nrow, ncol))
    if key:
        queue.append(_prog(m, key, frame.player, f"{grid.id}:square"))
    tier = grid.tier[nrow - 1]
    if tier != grid.tier[row - 1] and tier in grid.tier_enter:
        queue.append(_prog(m, grid.tier_enter[tier], frame.player, f"{grid.id}:tier"))
    queue.append(Frame(EMIT, [], 0, frame.player, "", None,
                       {"event": "marker_moved", "params": {"grid": grid.id, "direction": ev["dir"]}}))
    _push(state, queue)


# --------------------------------------------------------------------------- enclosed areas

def plaza_step(m, state, frame) -> None:
    """An enclosed plaza resolves: majority gets both halves, other claimants one (R-PLAZA-6/7)."""
    state.frames.pop()
    hex_id = frame.event["plaza"]
    cmap = m.layout.city
    city = state.table["city"] = dict(state.table["city"])  # the claims' cubes come off below
    claims: dict[int, int] = {}
    spend: dict[int, int] = {}
    returned: dict[tuple[str, int], int] = {}
    for site in cmap.sites_of[hex_id]:
        e = city.get(site, {})
        piece = e.get("piece")
        if not piece:
            continue
        city[site] = e = dict(e)
        seat = piece[1]
        claims[seat] = claims.get(seat, 0) + 1
        kind = m.tables.kind_of[e["tile"]]
        key = m.tables.keys.get((kind, e["tile"], "cost"))
        if key:
            spend[seat] = spend.get(seat, 0) + sum(n for _, n in _amounts(m, state, Frame("", [], 0, seat, ""), key))
        returned[(piece[0], seat)] = returned.get((piece[0], seat), 0) + 1
        e.pop("piece")
    state.table["resolved"] = [*state.table.get("resolved", ()), hex_id]
    for (piece, seat), n in returned.items():  # cubes go back to their owners (R-PLAZA-6 step 4)
        state.player(seat).pieces_free[piece] = state.player(seat).pieces_free.get(piece, 0) + n
    tile = state.table.get("plazas", {}).get(hex_id)
    if tile is None:
        return  # an empty plaza hex never gives rewards (R-PLAZA-2)
    best, others = C.majority(claims, spend)
    n = len(state.players)
    order = [(state.current + i) % n for i in range(n)]  # active player first, then seat order (OPEN-47)
    kind = m.layout.area_kind
    queue = []
    for seat in order:
        if seat in best:
            queue += [_prog(m, m.tables.keys[(kind, tile, f)], seat, tile, (kind, tile)) for f in m.layout.area_rewards]
        elif seat in others:
            queue.append(Frame(PICK_HALF, [], 0, seat, tile, [kind, tile], {"tile": tile}))
    _push(state, queue)


def half_step(m, state, frame) -> None:
    tile, kind = frame.event["tile"], m.layout.area_kind
    options = [f"{f}: {to_text(m.tables.asts[m.tables.keys[(kind, tile, f)]])}" for f in m.layout.area_rewards]
    state.decision = Decision(frame.player, "choose", options, {})


def half_answer(m, state, frame, index, d) -> None:
    state.frames.pop()
    tile, kind = frame.event["tile"], m.layout.area_kind
    _push(state, [_prog(m, m.tables.keys[(kind, tile, m.layout.area_rewards[index])], frame.player, tile, (kind, tile))])


# --------------------------------------------------------------------------- bridge planks

def plank_step(m, state, frame) -> None:
    free = [p for p, _ in m.layout.planks if p not in state.table.get("bridge", {})]
    state.decision = Decision(frame.player, "plank", free, {})


def plank_answer(m, state, frame, index, d) -> None:
    """Lay the kept tile on a plank space and gain the bonuses it covers (R-ROAD-5, R-ROAD-7, OPEN-19)."""
    state.frames.pop()
    free = [p for p, _ in m.layout.planks if p not in state.table.get("bridge", {})]
    plank = free[index]
    state.table["bridge"] = {**state.table.get("bridge", {}), plank: frame.event["tile"]}
    keys = dict(m.layout.planks)[plank]
    _push(state, [_prog(m, k, frame.player, f"bridge:{plank}") for k in keys])


def bridge_open(m, state) -> bool:
    return bool(m.layout.planks) and len(state.table.get("bridge", {})) < m.layout.complete_at


NATIVES = {
    PERFORM: (perform_step, perform_answer),
    BUILD: (build_step, build_answer),
    MOVE: (move_step, None),
    PLAZA: (plaza_step, None),
    PLANK: (plank_step, plank_answer),
    BONUS: (bonus_step, bonus_answer),
    PICK_HALF: (half_step, half_answer),
    EMIT: (emit_step, None),
}

OPS = {"perform": op_perform, "build": op_build, "move": op_move, "place": op_place, "later": op_later}
