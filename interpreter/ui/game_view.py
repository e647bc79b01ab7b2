"""The JSON view of a game the server answers with: seats, the table, the decision, the legal actions of a
human to act, the log, undo, the final scores and the replay position.

The view never shows the contents of face-down stacks, nor the options of a `keep` decision that is not a
human's.
"""

from __future__ import annotations

from interpreter.errors import RulesError
from interpreter.runtime import schedule
from interpreter.runtime.game import Game
from interpreter.runtime.mechanisms import wheel
from interpreter.runtime.notation import describe
from interpreter.ui.kinds import AREAS_KEY, MAP_KIND, PLANKS_KIND, WHEEL_KIND
from interpreter.ui.sessions import Session

# The view names the parts of the table by the state's own keys (the content kinds they come from).


def _describe(action: str, options) -> str:
    try:
        return describe(action, options)
    except (ValueError, IndexError, TypeError):
        return action


def game_view(session: Session, game: Game, replay_step: int | None = None) -> dict:
    s, rules = game.state, game.rules
    sched = rules.schedule
    over = game.is_terminal()
    cp = game.current_player
    face_up = rules.face_up
    human_now = not over and cp >= 0 and session.kinds[cp] == "human"
    live = replay_step is None

    seats = []
    for p in s.players:
        seats.append({
            "seat": p.seat + 1, "kind": session.kinds[p.seat], "dummy": game.is_dummy(p.seat),
            "current": p.seat == cp, "score": p.score, "breakdown": dict(sorted(p.breakdown.items())),
            "holdings": dict(sorted(p.holdings.items())), "tracks": dict(sorted(p.tracks.items())),
            "grids": dict(sorted(p.grids.items())), "owned": {k: list(v) for k, v in sorted(p.owned.items())},
            "track_tokens": {k: list(v) for k, v in sorted(p.track_tokens.items())},
            "pieces_free": dict(sorted(p.pieces_free.items())),
            "area": {h: stack[-1][0] for h, stack in sorted(p.area.items()) if stack},
        })

    cs = wheel.from_json(s.table[WHEEL_KIND]) if WHEEL_KIND in s.table else None
    wheel_view = []
    if cs is not None:
        zones = rules.geometry.zones
        wheel_view = [{"position": pos, "tile": tile, "zone": zones[pos] if pos < len(zones) else None,
                       "flagged": tile in cs.flagged} for pos, tile in wheel.tiles_by_position(cs)]
    stacks = {sid: ({"face": "up", "size": len(v), "items": list(v)} if sid in face_up
                    else {"face": "down", "size": len(v)}) for sid, v in sorted(s.stacks.items())}
    table = {
        WHEEL_KIND: wheel_view,
        "rows": s.table.get("rows", {}),
        MAP_KIND: {site: {"tile": e.get("tile"), "owner": None if e.get("owner") is None else e["owner"] + 1}
                   for site, e in sorted(s.table.get(MAP_KIND, {}).items())},
        AREAS_KEY: s.table.get(AREAS_KEY, {}),
        PLANKS_KIND: s.table.get(PLANKS_KIND, {}),
        "stacks": stacks,
        "later": [e.get("label") for e in s.turn_info.get("later", ())],
        "taken_tile": s.turn_info.get("tile"),
    }

    decision = None
    d = s.decision
    if d is not None:
        visible = d.kind != "keep" or d.data.get("stack") in face_up or session.kinds[d.player] == "human"
        decision = {"seat": d.player + 1, "kind": d.kind, "count": len(d.options),
                    "options": list(d.options) if visible else None}

    legal = []
    if live and human_now:
        options = d.options if d is not None else None
        legal = [{"action": a, "text": _describe(a, options)} for a in game.legal_actions()]

    log = []
    for i, action in enumerate(s.log):
        seat = session.actors[i] if i < len(session.actors) else None
        log.append({"step": i + 1, "seat": None if seat is None else seat + 1, "action": action})

    final = None
    if over:
        final = {"scores": game.scores(), "winner": game.winner(), "solo": game.solo_verdict()}

    blocker = session.undo_blocker() if live else "a replay view cannot be undone"
    total = len(session.game.state.log)
    try:
        turn_round = schedule.round_of(sched, s.turn)
    except RulesError:
        turn_round = None
    return {
        "id": session.id,
        "pack": rules.ruleset.pack_id,
        "players": rules.players,
        "variants": list(session.variants),
        "seed": s.table.get("seed"),
        "turn": s.turn,
        "total_turns": schedule.total_turns(sched),
        "round": turn_round,
        "era": s.table.get("era", 1),
        "current_seat": None if over else cp + 1,
        "to_act": None if over else ("human" if human_now else session.kinds[cp]),
        "over": over,
        "seats": seats,
        "table": table,
        "decision": decision,
        "legal": legal,
        "log": log,
        "undo": {"possible": blocker is None, "reason": blocker},
        "final": final,
        "replay": None if live else {"step": replay_step, "total": total},
        "steps": total,
    }
