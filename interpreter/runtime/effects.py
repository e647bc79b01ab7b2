"""What the effect machine's statements do to the game: resources (caps, payments, one-time milestones),
tracks (advances, reach effects, entry costs, production), records' effects run by `use`, stacks
(`draw` and keeping), permits lapsing at the end of a turn (a part of runtime/machine.py)."""

from __future__ import annotations

from interpreter.content.bounds import STEP_BUDGET, runaway
from interpreter.errors import RulesError
from interpreter.runtime import held, ledger, zone_effects, zones as Z
from interpreter.runtime.state import Decision, Frame, GameState, without
from interpreter.runtime.view import View

ADVANCE = "@advance"  # the key of a queued single track advance (a frame, so it survives cloning)


def substituted(holdings: dict, values, substitutes: dict) -> list | None:
    """What a player who lacks some of ``values`` ((resource, n), ...) pays instead, the resources declared
    to stand in for the missing ones (``substitutes``: resource -> those, in order) paying the rest one for
    one, after what the payment asks of them itself; None when even they cannot make it."""
    paid = {r: n for r, n in values if n > 0}
    shorts = {r: n - holdings.get(r, 0) for r, n in paid.items() if n > holdings.get(r, 0)}
    for r, short in shorts.items():
        paid[r] -= short  # all the player holds of it
    for r, short in shorts.items():
        for s in substitutes.get(r, ()):
            use = min(short, holdings.get(s, 0) - paid.get(s, 0))
            if use > 0:
                paid[s] = paid.get(s, 0) + use
                short -= use
        if short > 0:
            return None
    return [(r, n) for r, n in paid.items() if n > 0]


class Effects:
    """The machine's effects on the game (mixed into ``Machine``)."""

    def expire_permits(self, state: GameState, player_index: int) -> None:
        """End of turn: every permit still unused runs its `or` fallback; all permits lapse (R-ROW-4)."""
        lapsing = [e for e in state.expiring if e["player"] == player_index]
        if not lapsing and not state.players[player_index].permits:
            return  # nothing lapses: the player is not copied
        player = state.player(player_index)
        for e in reversed(lapsing):
            if e["permit"] in player.permits:
                player.permits = without(player.permits, e["permit"])
                state.frames.append(Frame(e["key"], list(e["addr"]), 0, player_index, e["source"], None, None, e["trigger"]))
        state.expiring = tuple(e for e in state.expiring if e["player"] != player_index)
        player.permits = ()

    # ------------------------------------------------------------ resources
    def _can_pay(self, view: View, amounts) -> bool:
        holdings = view.p.holdings  # compiled amounts name each resource once (dsl/compile.py)
        for r, fn in amounts:
            if holdings.get(r, 0) < fn(view, None):
                # short: a resource that stands in for others may still make the payment
                return bool(self.tables.substitutes) and substituted(
                    holdings, [(r, fn(view, None)) for r, fn in amounts], self.tables.substitutes) is not None
        return True

    def _pay(self, state, frame, amounts) -> None:
        values = self.constant(amounts)
        if values is None:
            view = self._view(state, frame)
            # a computed amount below zero is nothing, as in a gain (a constant one is refused: E319)
            values = [(r, n) for r, n in ((r, fn(view, None)) for r, fn in amounts) if n > 0]
        holdings = state.players[frame.player].holdings
        if any(holdings.get(r, 0) < n for r, n in values):  # compiled amounts name each resource once
            paid = substituted(holdings, values, self.tables.substitutes) if self.tables.substitutes else None
            if paid is None:
                raise RulesError(f"player {frame.player + 1} cannot pay {list(values)}")
            values = paid
        holdings = state.player(frame.player).holdings  # self._player, one call less (as in _gain)
        for r, n in values:
            holdings[r] = holdings.get(r, 0) - n
            ledger.note(state, frame.player, r, -n, frame.source)

    def _gain(self, state, frame, gains) -> None:
        if self._gains_adjusted:  # multiplied, reduced, or held until an `all at once` body ends (held.py)
            gains = held.adjusted(self, state, frame, gains)
            if gains is None:
                return
        self._receive(state, frame, gains)

    def _receive(self, state, frame, gains) -> None:
        player = state.player(frame.player)
        holdings, caps, seat = player.holdings, self.tables.caps, frame.player
        for r, n in gains:
            if n <= 0:
                continue
            cap = caps.get(r)
            before = holdings.get(r, 0)
            holdings[r] = before + n if cap is None else min(cap, before + n)
            ledger.note(state, seat, r, holdings[r] - before, frame.source)
            self.emit(state, seat, "resource_gained", {"resource": r, "amount": n})
        self._milestones(state, seat)

    def _milestones(self, state, player_index: int) -> None:
        """One-time bonuses reached after a gain (a capped gain counts, R-WEALTH-3)."""
        taken = state.players[player_index].milestones
        if len(taken) >= len(self.tables.milestones):
            return  # every bonus taken (the list holds milestone ids only)
        view = View(self.tables, state, player_index)
        for kind, mid, cond_key, reward_key, piece in self.tables.milestones:
            if mid not in taken and self.tables.programs[cond_key](view, None):
                player = state.player(player_index)
                player.milestones = (*player.milestones, mid)
                taken = player.milestones
                if piece:
                    player.pieces_free = player.pieces_free.with_entry(piece, player.pieces_free.get(piece, 0) + 1)
                self.start(state, reward_key, player_index, mid, (kind, mid))

    # ------------------------------------------------------------ tracks
    def _advance_times(self, state, frame, track_id, times) -> None:
        # Queue the single advances as frames of their own so that each one's reach effect
        # resolves before the next advance ("advance N times" = N single advances, R-DOC-6).
        if times > STEP_BUDGET:  # a count read from the game: more advances than one action may run
            raise runaway(state, self.tables.spans)
        for _ in range(times):
            state.frames.append(Frame(ADVANCE, [], 0, frame.player, frame.source, [track_id], None))

    def can_advance(self, state: GameState, player_index: int, track_id: str) -> bool:
        """Whether one advance can be made now (what ``advance`` refuses, checked without making it)."""
        track = self.tables.tracks[track_id]
        player = state.players[player_index]
        pos = player.tracks.get(track_id, track.positions[0])
        if pos == track.positions[-1]:
            return track.beyond_top is not None
        cost = track.enter_cost.get(track.positions[track.positions.index(pos) + 1])
        if cost is None:
            return True
        values = self.constant(self.tables.programs[cost])
        if values is not None:  # a constant price (the usual one) is read without a view
            holdings = player.holdings
            for r, n in values:
                if holdings.get(r, 0) < n:
                    return False
            return True
        fake = Frame(cost, [], 0, player_index, "")
        return self._can_pay(View(self.tables, state, player_index, fake), self.tables.programs[cost])

    def advance(self, state: GameState, player_index: int, track_id: str, source: str) -> None:
        player = state.player(player_index)
        track = self.tables.tracks[track_id]
        pos = player.tracks.get(track_id, track.positions[0])
        if pos == track.positions[-1]:
            if track.beyond_top is None:  # nothing past the end: the advance cannot be made (OPEN-26, R-ROAD-8)
                raise RulesError(f"the {track_id} marker is at the end of its track")
            self.start(state, track.beyond_top, player_index, source)
            return
        nxt = track.positions[track.positions.index(pos) + 1]
        cost = track.enter_cost.get(nxt)
        if cost is not None:
            fake = Frame(cost, [], 0, player_index, source)
            self._pay(state, fake, self.tables.programs[cost])
        player.tracks[track_id] = nxt
        self.emit(state, player_index, "track_advanced", {"track": track_id})
        for key in reversed(track.on_reach.get(nxt, ())):
            self.start(state, key, player_index, f"{track_id}:{nxt}")

    def _produce(self, state, frame, track_id) -> None:
        track = self.tables.tracks[track_id]
        player = self._player(state, frame)
        pos = player.tracks.get(track_id, track.positions[0])
        # bonuses left of the marker, then the tokens kept on the track; queued in reverse so they run in order
        queued = [(key, f"{track_id}:{n}", None) for n, key in track.production if n < pos]
        queued += [(self.tables.keys[(self.tables.kind_of[t], t, "bonus")], t, (self.tables.kind_of[t], t))
                   for t in player.track_tokens.get(track_id, ())]
        for key, source, this in reversed(queued):
            self.start(state, key, frame.player, source, this)
        if track.produces:
            self._gain(state, frame, [(track.produces, track.values.get(pos, 0))])

    # ------------------------------------------------------------ using other records' effects
    def _use(self, state, frame, step, view) -> None:
        """`use F of each K` runs F of the player's K records; `all`: every K record passing `where`;
        `any`: one the player chooses. Records' effects run in order, as the record's own."""
        fields, quant, kind, pred = step.fields, step.quant, step.kind, step.where
        if quant == "each":
            ids = list(self._player(state, frame).owned.get(kind, ()))
        elif kind == self.layout.area_kind:  # only the area tiles dealt onto the map; the rest are in the box
            dealt = set(state.table.get(self.layout.areas_key, {}).values())
            ids = [rid for rid in self.tables.ids_of(kind) if rid in dealt]
        else:
            ids = self.tables.ids_of(kind)
        ids = [rid for rid in ids if pred is None or pred(view, (kind, rid))]
        if quant == "any":
            if not ids:
                frame.pc += 1
                return
            self._decide(state, frame, "use", ids, fields=list(fields), record_kind=kind)
            return
        frame.pc += 1
        self._run_fields(state, frame, kind, ids, fields)

    def _run_fields(self, state, frame, kind, ids, fields) -> None:
        queued = [(self.tables.keys[(kind, rid, f)], rid) for rid in ids for f in fields if (kind, rid, f) in self.tables.keys]
        for key, rid in reversed(queued):
            self.start(state, key, frame.player, rid, (kind, rid))

    # ------------------------------------------------------------ stacks
    def _draw(self, state, frame, step, view) -> None:
        count_fn, stack_id, keep_fn, to = step.count, step.stack, step.keep, step.to
        stack = state.zones.get(stack_id, ())
        n = len(stack) if count_fn is None else min(len(stack), count_fn(view, None))
        keep = min(keep_fn(view, None), n)
        if keep <= 0:  # an empty stack gives nothing (OPEN-25)
            frame.pc += 1
            return
        drawn = stack[:n]
        state.zones[stack_id] = stack[n:]  # contents are replaced, never changed in place (copies share them)
        self._decide(state, frame, "keep", list(drawn), stack=stack_id, drawn=list(drawn), keep=keep, to=to)

    def _keep(self, state, frame, step, d: Decision, index: int) -> None:
        drawn = list(d.data["drawn"])
        kept = drawn.pop(index)
        player = self._player(state, frame)
        kind = self.tables.kind_of[kept]
        complete = self.layout.slot_key is not None and Z.count(state.zones[self.layout.slot_key]) >= self.layout.complete_at
        if d.data["to"]:
            player.track_tokens = player.track_tokens.with_entry(d.data["to"], [*player.track_tokens.get(d.data["to"], ()), kept])
        elif complete and d.data["stack"] in self.layout.discard_when_complete:
            pass  # its effect applies, then it is discarded (R-ROAD-5, DIFF-6)
        else:
            zone_effects.gain(self.tables, state, frame.player, kind, kept)
        left = d.data["keep"] - 1
        if left > 0 and drawn:
            frame.pc -= 1
            self._decide(state, frame, "keep", drawn, stack=d.data["stack"], drawn=drawn, keep=left, to=d.data["to"])
        else:
            state.zones[d.data["stack"]] = (*state.zones[d.data["stack"]], *drawn)  # the others go to the bottom, in order
        field_name = self.tables.stack_keep.get(d.data["stack"])
        key = self.tables.keys.get((kind, kept, field_name)) if field_name else None
        if key:
            self.start(state, key, frame.player, kept, (kind, kept))
        if d.data["stack"] in self.layout.slot_stacks and not complete:
            # laid on a slot first: the covered bonuses, then the tile's own (R-ROAD-5, R-ROAD-7)
            state.frames.append(Frame("@slot", [], 0, frame.player, kept, [kind, kept], {"tile": kept}))
