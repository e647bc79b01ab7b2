"""Events and triggers: which owned records (and global effects) listen to an event, and queueing the
bodies of the triggers an event fires (a part of the effect machine, runtime/machine.py)."""

from __future__ import annotations

from interpreter.runtime.state import Frame, GameState
from interpreter.runtime.view import View

_NOBODY: tuple = (frozenset(), frozenset())  # no record listens to an event


class Events:
    """The machine's events (mixed into ``Machine``; reads ``self.tables``)."""

    def _find_listeners(self) -> dict[str, tuple[frozenset, frozenset]]:
        """event -> (the kinds, the (kind, id) of the records with a trigger on it): the machine's
        ``_listeners``, set once when it is made (a plain attribute: read at every event)."""
        records: dict[str, set] = {}
        for rec, refs in self.tables.triggers.items():
            for key, ti in refs:
                records.setdefault(self.tables.programs[key].triggers[ti].event, set()).add(rec)
        return {ev: (frozenset(k for k, _ in recs), frozenset(recs)) for ev, recs in records.items()}

    def emit(self, state: GameState, player_index: int, event: str, params: dict) -> None:
        """Queue the bodies of the triggers this event fires for the player's owned records."""
        kinds, listening = self._listeners.get(event, _NOBODY)
        player = state.players[player_index]  # read only
        for kind, ids in (player.owned.items() if kinds else ()):  # in the order owned, as triggers queue
            if kind not in kinds:
                continue  # e.g. tiles: no record of the kind listens to this event
            for rid in ids:
                if (kind, rid) not in listening:
                    continue
                for key, ti in self.tables.triggers.get((kind, rid), ()):
                    trig = self.tables.programs[key].triggers[ti]
                    if trig.event != event or not self._active(state, player_index, kind, rid, key, ti, trig, params):
                        continue
                    if trig.once_per:
                        state.flags += (f"{trig.once_per}:{player_index}:{key}:{ti}",)
                    state.frames.append(Frame(key, [], 0, player_index, rid, [kind, rid], dict(params), ti))
        for key, ti, source in self.tables.global_triggers:
            trig = self.tables.programs[key].triggers[ti]
            if trig.event == event and self._active(state, player_index, "", source, key, ti, trig, params):
                if trig.once_per:
                    state.flags += (f"{trig.once_per}:{player_index}:{key}:{ti}",)
                state.frames.append(Frame(key, [], 0, player_index, source, None, dict(params), ti))

    def listens(self, state: GameState, player_index: int, event: str) -> bool:
        """Whether an event may set off a trigger for the player (an owned record or a global one listens)."""
        kinds, listening = self._listeners.get(event, _NOBODY)
        if any(self.tables.programs[key].triggers[ti].event == event for key, ti, _ in self.tables.global_triggers):
            return True
        owned = state.players[player_index].owned
        return any((kind, rid) in listening for kind in kinds for rid in owned.get(kind, ()))

    def _active(self, state, player_index, kind, rid, key, ti, trig, params) -> bool:
        if trig.arg is not None and params.get(self.tables.event_keys.get(trig.event)) != trig.arg:
            return False
        # a permanent ability acts from the turn after it was gained (R-TECH-4)
        if trig.from_next and state.players[player_index].acquired.get(f"{kind}:{rid}", 0) >= state.turn:
            return False
        if trig.once_per and f"{trig.once_per}:{player_index}:{key}:{ti}" in state.flags:
            return False
        view = View(self.tables, state, player_index, Frame(key, [], 0, player_index, rid, [kind, rid], params, ti))
        return all(c(view, None) for c in (*trig.conditions, *trig.while_))
