"""The JSON view of a game the server answers with: seats, the table, the decision, the legal actions of a
human to act, the log, undo, the final scores and the replay position.

The view never shows the contents of face-down stacks, nor the options of a `keep` decision that is not a
human's.
"""

from __future__ import annotations

from interpreter.content.labels import Labels, is_record
from interpreter.errors import RulesError
from interpreter.runtime.game import Game
from interpreter.mechanisms import market_rows, wheel
from interpreter.ui.kinds import MAP_KIND, SLOTS_KIND, WHEEL_KIND, laid_on_slots, table_key
from interpreter.ui.log_text import words_for
from interpreter.ui.sessions import Session
from interpreter.runtime.unavailable import unavailable

# The view names the parts of the table by the state's own keys (the content kinds they come from).


def _legal(game: Game, obs: dict) -> list[dict]:
    """The legal actions the observation shows: each in words, and the record it names (for a tooltip)."""
    options = obs["decision"]["options"] if obs["decision"] is not None else None
    phrases, name = game.action_phrases(), Labels.of(game.rules.ruleset).name
    return [{"action": a, "text": words_for(a, options, phrases, name), "record": _record_of(game.rules, a, options)}
            for a in obs["legal"]]


def _unavailable(game: Game, legal: list[dict]) -> list[dict]:
    """The entries of the menu offering nothing to the person to act, each with why (none while nobody is)."""
    return [{"name": u.name, "reason": u.reason} for u in unavailable(game, [a["action"] for a in legal])] if legal else []


def _record_of(rules, action: str, options) -> str | None:
    """The record an action names (a tile taken, a card picked), or a choice's option names, for a tooltip."""
    words = action.split(" ")
    if words[0] == "choose" and options and words[-1].isdigit() and 0 < int(words[-1]) <= len(options):
        words = str(options[int(words[-1]) - 1]).split(" ")
    for w in words[1:] + words[:1]:
        base = w.split("~", 1)[0]  # a copy of a record (`<id>~2`) is that record
        if is_record(rules.ruleset, base):
            return base
    return None


def _log(session: Session, steps) -> list[dict]:
    """The log's steps: who took each, its notation, and what it did in words (as noted when it was played;
    a step of a loaded game is said without its decision's options)."""
    name = Labels.of(session.game.rules.ruleset).name
    out = []
    for i, action in enumerate(steps):
        seat = session.actors[i] if i < len(session.actors) else None
        note = session.notes[i] if i < len(session.notes) else None
        out.append({"step": i + 1, "seat": None if seat is None else seat + 1, "action": action,
                    "text": note or words_for(action, None, session.game.action_phrases(), name)})
    return out


def _names(rules, obs: dict) -> dict[str, str]:
    """The display name of every id the page may show: records, declared things, the sources of points."""
    return Labels.of(rules.ruleset).shown({k for p in obs["players"] for k in p["breakdown"]})


def game_view(session: Session, game: Game, replay_step: int | None = None) -> dict:
    if not game.rules.uses_offers:
        return core_game_view(session, game, replay_step)
    s, rules = game.state, game.rules
    over = game.is_terminal()
    cp = game.current_player
    human_now = not over and cp >= 0 and session.kinds[cp] == "human"
    live = replay_step is None

    # what may be seen goes through the observation: of the human to act (hotseat: the screen is theirs),
    # else of nobody in particular (a bot's draw to keep from a face-down stack stays hidden)
    obs = game.observation(cp if human_now else -1)
    seats = []
    for p in obs["players"]:
        seats.append({
            "seat": p["seat"] + 1, "kind": session.kinds[p["seat"]], "dummy": p["dummy"],
            "current": p["seat"] == cp, "score": p["score"], "breakdown": dict(sorted(p["breakdown"].items())),
            "holdings": dict(sorted(p["holdings"].items())), "tracks": dict(sorted(p["tracks"].items())),
            "grids": dict(sorted(p["grids"].items())), "owned": {k: list(v) for k, v in sorted(p["owned"].items())},
            "track_tokens": {k: list(v) for k, v in sorted(p["track_tokens"].items())},
            "pieces_free": dict(sorted(p["pieces_free"].items())),
            "area": {h: stack[-1][0] for h, stack in sorted(p["area"].items()) if stack},
        })

    shared = obs["table"]
    pile_ids = {z.id for z in rules.tables.zones.values() if z.pile}
    wheel_key = table_key(rules.ruleset, WHEEL_KIND)
    map_key, areas_key = table_key(rules.ruleset, MAP_KIND), rules.tables.layout.areas_key
    cs = wheel.from_json(shared[wheel_key]) if wheel_key in shared else None
    wheel_view = []
    if cs is not None:
        zones = rules.geometry.zones
        wheel_view = [{"position": pos, "tile": tile, "zone": zones[pos] if pos < len(zones) else None,
                       "flagged": tile in cs.flagged} for pos, tile in wheel.tiles_by_position(cs)]
    table = {
        wheel_key: wheel_view,
        # the market rows as the page draws them (the slotted zones split by quality)
        "rows": {kind: market_rows.positions(spec, obs["zones"][spec.zone]) for kind, spec in rules.tables.layout.rows.items()},
        map_key: {site: {"tile": e.get("tile"), "owner": None if e.get("owner") is None else e["owner"] + 1}
                  for site, e in sorted(shared.get(map_key, {}).items())},
        **({areas_key: shared.get(areas_key, {})} if areas_key else {}),
        table_key(rules.ruleset, SLOTS_KIND): laid_on_slots(rules, obs["zones"]),
        # the shared zones without slots (stacks, pools, decks): face-up ones with their records
        "stacks": {zid: ({"face": "up", "size": len(v), "items": v} if isinstance(v, list) else {"face": "down", **v})
                   for zid, v in sorted(obs["zones"].items()) if zid in pile_ids},
        "later": obs["turn_info"]["later"],
        "taken_tile": obs["turn_info"].get("tile"),
    }

    decision = None
    d = obs["decision"]
    if d is not None:
        decision = {"seat": d["player"] + 1, "kind": d["kind"], "count": d["count"], "options": d["options"]}

    legal = _legal(game, obs) if live and human_now else []

    log = _log(session, s.log)

    final = None
    if over:
        final = {"scores": game.scores(), "winner": game.winner(), "solo": game.solo_verdict()}

    blocker = session.undo_blocker() if live else "a replay view cannot be undone"
    total = len(session.game.state.log)
    turn_round = s.flow.round if s.flow is not None else None
    return {
        "id": session.id,
        "pack": rules.ruleset.pack_id,
        "names": _names(rules, obs),
        "players": rules.players,
        "variants": list(session.variants),
        "seed": s.table.get("seed"),
        "turn": s.turn,
        "total_turns": rules.total_turns,
        "round": turn_round,
        "era": s.table.get("era", 1),
        "current_seat": None if over else cp + 1,
        "to_act": None if over else ("human" if human_now else session.kinds[cp]),
        "over": over,
        "seats": seats,
        "table": table,
        "decision": decision,
        "legal": legal,
        "unavailable": _unavailable(game, legal),
        "log": log,
        "undo": {"possible": blocker is None, "reason": blocker},
        "final": final,
        "replay": None if live else {"step": replay_step, "total": total},
        "steps": total,
    }


def core_game_view(session: Session, game, replay_step: int | None = None) -> dict:
    """The view of a game on the generic core: the same frame as ``game_view``, with the table as its
    zones (as the observation shows them), spaces and dice, and the round and phase."""
    s, rules, cursor = game.state, game.rules, game.state.flow
    over = game.is_terminal()
    cp = game.current_player
    human_now = not over and cp >= 0 and session.kinds[cp] == "human"
    live = replay_step is None
    obs = game.observation(cp if human_now else -1)
    seats = [{"seat": p["seat"] + 1, "kind": session.kinds[p["seat"]], "dummy": False, "current": p["seat"] == cp,
              "score": p["score"], "breakdown": dict(sorted(p["breakdown"].items())),
              "holdings": dict(sorted(p["holdings"].items())), "pieces_free": dict(sorted(p["pieces_free"].items())),
              "tracks": {}, "grids": {}, "owned": {}, "track_tokens": {}, "area": {}} for p in obs["players"]]
    d = obs["decision"]
    decision = None if d is None else {"seat": d["player"] + 1, "kind": d["kind"], "count": d["count"], "options": d["options"]}
    legal = _legal(game, obs) if live and human_now else []
    log = _log(session, s.log)
    final = {"scores": game.scores(), "winner": game.winner(), "solo": None} if over else None
    blocker = session.undo_blocker() if live else "a replay view cannot be undone"
    total = len(session.game.state.log)
    return {
        "id": session.id, "pack": rules.ruleset.pack_id, "names": _names(rules, obs), "players": rules.players, "variants": list(session.variants),
        # no cursor while the setup still waits on a choice
        "seed": s.table.get("seed"), "turn": cursor.turn if cursor else 0, "total_turns": rules.total_turns,
        "round": cursor.round if cursor else None, "phase": obs["flow"]["phase"] if obs["flow"] else "setup", "era": None,
        "current_seat": None if over else cp + 1,
        "to_act": None if over else ("human" if human_now else session.kinds[cp]),
        "over": over, "seats": seats,
        "table": {"zones": obs["zones"], "spaces": obs["spaces"], "dice": obs["dice"], "later": [], "taken_tile": None},
        "decision": decision, "legal": legal, "log": log,
        "unavailable": _unavailable(game, legal),
        "undo": {"possible": blocker is None, "reason": blocker}, "final": final,
        "replay": None if live else {"step": replay_step, "total": total}, "steps": total,
    }
