"""Which compiled statements can fail: a static pass over a ruleset's programs, made once.

The engine offers only what can be carried out (OPEN-28) and proves it by trying an action on a
copy of the state, through the choices it leads to. Most statements cannot fail in any state:
an action, or an option of a choice, made only of those needs no try. This pass finds them.

A statement *can fail* when the machine may refuse it (a payment that cannot be made, an advance
past a track's end, a build with no tile to take, a move up, a record drawn or used) or when it
sets off something that can fail. What a statement sets off: the triggers of events (any change
may fire one), the one-time rewards of milestones (after a gain), a track's reach effects, the
squares and tiers a marker lands on. The pass assumes triggers and milestone rewards cannot fail,
checks every one of them under that assumption, and trusts nothing if one can (a chain of
triggers is finite, so the assumption holds by induction on its length).

A choice can fail only when every option can; an optional statement (`may`, `may pay`, an open
`repeat`) never fails: declining finishes it. `later:` bodies and a permit's `or` fallback run in
actions of their own (`resolve`, the end of the turn), which the engine offers as they come.
Anything the pass does not know can fail, so an unknown statement costs a try, never a wrong offer.
"""

from __future__ import annotations

from interpreter.dsl import steps as S
from interpreter.runtime.effects import ADVANCE
from interpreter.runtime.machine import block_at, constant_amounts
from interpreter.runtime.tables import Tables
from interpreter.runtime.natives import BONUS, BUILD, EMIT, PERFORM, SLOT, free_place
from interpreter.runtime.state import Frame, GameState

_DECISION_OF = {S.Choose: "choose", S.May: "may", S.MayPay: "may_pay", S.Repeat: "repeat", S.Draw: "keep",
                S.ChooseRecord: "choose"}


def all_steps(tables: Tables):
    """Every compiled statement of every program, nested ones included."""
    todo = []
    for prog in tables.programs.values():
        if hasattr(prog, "steps") and hasattr(prog, "triggers"):
            todo.append(prog.steps)
            todo.extend(t.body for t in prog.triggers)
    while todo:
        for step in todo.pop():
            yield step
            todo.extend(step.blocks())


class Fallibility:
    """Answers "can this fail?" for compiled blocks, programs and the frames of a running state."""

    def __init__(self, tables: Tables, stacks: dict[str, set[str]], trusting: bool = True):
        """``stacks``: stack id -> the records it may hold (for the tokens a draw keeps on a track).
        ``trusting=False`` judges that anything can fail, so the engine tries every candidate (tests
        compare the two)."""
        self.t = tables
        self._steps: dict[int, tuple] = {}  # id of a compiled step -> (the step, whether it cannot fail)
        self._programs: dict[str, bool] = {}  # program key -> safe
        self._judging: list[str] = []  # programs being judged, assumed safe meanwhile
        self._splits: dict[int, tuple] = {}  # id of a block -> (the block, what _split says of it), for sure
        self._tails: dict[tuple, tuple] = {}  # (id of a block, start) -> (the block, the rest from start is safe)
        on_tracks = {rid for step in all_steps(tables) if type(step) is S.Draw and step.to
                     for rid in stacks.get(step.stack, ())}
        self._stacks = stacks
        self._bonuses = [k for rid in sorted(on_tracks) if (k := tables.keys.get((tables.kind_of[rid], rid, "bonus")))]
        self._hooks = True  # assumed while the hooks themselves are checked
        hooks = [self.t.programs[key].triggers[ti].body for key, ti in self._trigger_refs()]
        hooks += [self.t.programs[reward].steps for _, _, _, reward, _ in self.t.milestones]
        verdict = all(self.safe(b) for b in hooks)
        self._steps.clear()  # judged under the assumption: forget, and judge again with the verdict
        self._programs.clear()
        self._hooks = verdict and trusting
        # Judge everything now: the verdicts are then only read, by every game of the ruleset (the
        # server runs games on several threads).
        for key, prog in tables.programs.items():
            if hasattr(prog, "steps") and hasattr(prog, "triggers"):
                self.program_safe(key)
        for step in all_steps(tables):
            self._step_safe(step)

    @property
    def hooks_safe(self) -> bool:
        """Whether every trigger body and milestone reward finishes whatever the state; when not, the
        pass trusts nothing."""
        return self._hooks

    def _trigger_refs(self):
        for refs in self.t.triggers.values():
            yield from refs
        for key, ti, _source in self.t.global_triggers:
            yield key, ti

    # ------------------------------------------------------------ blocks
    def safe(self, steps) -> bool:
        """True when the block finishes whatever the state (some way of answering its choices)."""
        return self._hooks and all(self._step_safe(s) for s in steps)

    def program_safe(self, key: str | None) -> bool:
        """A program another one sets off (a landing, a reach effect, ...). Programs may set each other
        off in a cycle (a square whose effect moves the marker again); a program is assumed safe while
        it is being judged, which holds because every chain of effects that runs is finite. When the
        assumption turns out wrong, what was judged while it stood is judged again."""
        if key is None:
            return True
        known = self._programs.get(key)
        if known is not None:
            return known
        self._programs[key] = True
        self._judging.append(key)
        verdict = self.safe(self.t.programs[key].steps)
        self._judging.pop()
        if not verdict:
            self._steps.clear()
            self._programs = {k: v for k, v in self._programs.items() if v is False or k in self._judging}
        self._programs[key] = verdict
        return verdict

    def _step_safe(self, step) -> bool:
        known = self._steps.get(id(step))
        if known is None:
            known = (step, self._judge(step))  # the step is kept so that its id is never reused
            self._steps[id(step)] = known
        return known[1]

    def _judge(self, step) -> bool:
        # anything this pass does not know can fail: an unknown statement costs a try, never a wrong offer
        return _JUDGE.get(type(step), _fails)(self, step)

    def _keep_safe(self, stack: str) -> bool:
        """Keeping any record the stack may hold cannot fail. A record of a slot stack is first laid on a
        free slot (while the row is open), which cannot fail when no slot's bonuses can."""
        if stack in self.t.layout.slot_stacks and not self._slots_safe():
            return False
        field = self.t.stack_keep.get(stack)
        return field is None or all(self.program_safe(self.t.keys.get((self.t.kind_of[r], r, field)))
                                    for r in self._stacks.get(stack, ()))

    def _slots_safe(self) -> bool:
        """Every slot's covered bonuses cannot fail, so laying a tile on any free slot finishes."""
        return all(self.program_safe(k) for _, keys in self.t.layout.slots for k in keys)

    def _advance_safe(self, track_id: str) -> bool:
        track = self.t.tracks[track_id]
        return not track.enter_cost and track.beyond_top is not None and self._reached_safe(track_id)

    def _reached_safe(self, track_id: str) -> bool:
        track = self.t.tracks[track_id]
        return all(self.program_safe(k) for keys in track.on_reach.values() for k in keys) and \
            self.program_safe(track.beyond_top)

    def _landing_safe(self, grid_id: str) -> bool:
        grid = self.t.layout.grids[grid_id]
        return all(map(self.program_safe, grid.squares.values())) and all(map(self.program_safe, grid.tier_enter.values()))

    # ------------------------------------------------------------ programs whose first statement was checked
    def safe_once_started(self, key: str) -> bool:
        """True when the program finishes once its first statement has been found possible now
        (``mechanisms.cannot_start`` checks a payment, a move up and a single advance exactly)."""
        steps = self.t.programs[key].steps
        if not self._hooks:
            return False
        if not steps:
            return True
        first = steps[0]
        kind = type(first)
        if kind is S.Pay:
            started = True
        elif kind is S.Move and first.steps is None:
            started = self._landing_safe(first.grid)
        elif kind is S.Advance and first.times is None:
            started = self._reached_safe(first.track)
        else:
            started = self._step_safe(first)
        return started and self.safe(steps[1:])

    # ------------------------------------------------------------ blocks in the state at hand
    def sure(self, state: GameState, seat: int, steps) -> bool:
        """True when the block, run now for ``seat``, surely finishes: statements that cannot fail, then
        at most one whose success the state decides (an advance while its track has room and the spaces
        it reaches cannot fail nor cost more than the player holds; a production whose bonuses are such
        advances; a choice with such an option), then statements that cannot fail.

        Why the state at hand decides it: along the way that finishes the first part (decline what is
        optional, take an option that cannot fail) holdings only grow and the only markers that move
        are on tracks whose every advance cannot fail; so the track the judged statement advances
        stands where it stands now, and what can be paid now can be paid then."""
        if not self._hooks:
            return False
        split = self._splits.get(id(steps))
        if split is None or split[0] is not steps:
            split = self._splits[id(steps)] = (steps, *self._split(steps))  # kept with the block: its id stays its own
        _, step, rest_safe = split
        return step is None or (self._step_sure(state, seat, step) and rest_safe)

    def _split(self, steps) -> tuple:
        """(the first statement of a block that can fail, or None; whether every statement after it cannot
        fail): what ``sure`` asks of the content, the same in every game, so worked out once per block."""
        for i, step in enumerate(steps):
            if not self._step_safe(step):
                return step, self.safe(steps[i + 1:])
        return None, True

    def _step_sure(self, state: GameState, seat: int, step) -> bool:
        kind = type(step)
        if kind is S.Choose:
            return any(self.sure(state, seat, b) for b in step.options)
        if kind is S.Block:
            return self.sure(state, seat, step.body)
        if kind is S.Advance and step.times is None:
            return self._advances_sure(state, seat, {step.track: 1})
        if kind is S.Produce:
            track = self.t.tracks[step.track]
            player = state.players[seat]
            pos = player.tracks.get(track.id, track.positions[0])
            keys = [k for n, k in track.production if n < pos]
            keys += [self.t.keys[(self.t.kind_of[r], r, "bonus")] for r in player.track_tokens.get(track.id, ())]
            advances: dict[str, int] = {}
            for key in keys:
                if self.program_safe(key):
                    continue
                steps = self.t.programs[key].steps  # only a plain advance is judged here
                if len(steps) != 1 or type(steps[0]) is not S.Advance or steps[0].times is not None:
                    return False
                advances[steps[0].track] = advances.get(steps[0].track, 0) + 1
            return self._advances_sure(state, seat, advances)
        return False

    def _advances_sure(self, state: GameState, seat: int, advances: dict[str, int]) -> bool:
        """``n`` single advances on each track can all be made now: the spaces they reach (or the way
        past the end) cannot fail, and their entry costs, fixed amounts, can be paid together from what
        the player holds now (on the way there holdings only grow)."""
        player = state.players[seat]
        need: dict[str, int] = {}
        for track_id, n in advances.items():
            track = self.t.tracks[track_id]
            i = track.positions.index(player.tracks.get(track_id, track.positions[0]))
            for _ in range(n):
                if i == len(track.positions) - 1:  # at the end: the way past it, if any
                    if track.beyond_top is None or not self.program_safe(track.beyond_top):
                        return False
                    continue
                i += 1
                space = track.positions[i]
                if not all(map(self.program_safe, track.on_reach.get(space, ()))):
                    return False
                cost = track.enter_cost.get(space)
                if cost is not None:
                    values = constant_amounts(self.t.programs[cost])
                    if values is None:
                        return False
                    for r, v in values:
                        need[r] = need.get(r, 0) + v
        return all(player.holdings.get(r, 0) >= v for r, v in need.items())

    # ------------------------------------------------------------ a running state
    def rest_safe(self, state: GameState, start: int | None = None) -> bool:
        """True when the frames of the stack finish whatever happens and nothing after them can fail (when
        the turn is ending: what the end still runs). The top frame is judged from step ``start`` (default:
        where it stands)."""
        if not self._hooks:
            return False
        frames = state.frames
        for i in range(len(frames) - 1, -1, -1):
            frame = frames[i]
            if not self._frame_safe(state, frame, frame.pc if start is None or i < len(frames) - 1 else start):
                return False
        return not state.turn_info.get("ending") or self._ending_safe(state)

    def _ending_safe(self, state: GameState) -> bool:
        """What an ending turn still runs once the frames are done (the engine's end of the turn): the
        deferred items nobody resolved and the `or` fallbacks of the permits that lapse. The turn of the
        crane and the final scoring that follow are trusted, as the `end` action itself trusts them."""
        info = state.turn_info
        if info.get("bonus_key") and not info.get("bonus_used"):
            return False
        programs = self.t.programs
        for e in info.get("later", ()):
            if e["key"] == BONUS:
                if not self._bonus_safe(state, e["event"]["action"]):
                    return False
            elif e["key"][:1] == "@" or not self.safe(block_at(programs[e["key"]], e["addr"], e["trigger"])):
                return False
        if not info.get("permits_expired"):
            return all(self.safe(block_at(programs[e["key"]], e["addr"], e["trigger"]))
                       for e in state.expiring if e["player"] == state.current)
        return True

    def _bonus_safe(self, state: GameState, action: str) -> bool:
        """An upgrade bonus: the bonus of the hex's top tile, or a choice between this turn's tops."""
        keys, kind_of = self.t.keys, self.t.kind_of
        tops = state.turn_info.get("tops", {}).get(action, ())
        return any(self.program_safe(keys.get((kind_of[t], t, "bonus"))) for t in tops)

    def _frame_safe(self, state: GameState, frame: Frame, start: int) -> bool:
        key = frame.key
        if key[:1] == "@":
            if key == ADVANCE:
                return self._advance_safe(frame.this[0])
            if key == EMIT:
                return True  # the triggers it fires are hooks, safe when anything is judged
            if key == BONUS:
                return self._bonus_safe(state, frame.event["action"])
            if key == BUILD and frame.event.get("phase") == "place":
                return self._place_sure(state, frame)
            # a performance that only has its event and upgrade bonus left (deferred for the active player)
            return (key == PERFORM and frame.event.get("phase") == "done" and frame.player == state.current
                    and not state.table.get("scoring"))
        block = block_at(self.t.programs[key], frame.addr, frame.trigger)
        if frame.remaining:
            start = 0  # more rounds of a counted repeat: the whole block
        tail = self._tails.get((id(block), start))  # whether the block from `start` on cannot fail: content only
        if tail is None or tail[0] is not block:
            tail = self._tails[(id(block), start)] = (block, self.safe(block[start:]))  # kept: the id stays its own
        return tail[1]

    def _place_sure(self, state: GameState, frame: Frame) -> bool:
        """A picked tile waiting for its placement surely has one: on its action's hex, or a place free
        of any premium (placements are offered only where they can be made, and once one is made the
        engine trusts the rest of the build, as its completeness search does)."""
        kind, tile = frame.event["kind"], frame.event["tile"]
        layout = self.t.layout
        info = layout.kinds.get(kind)
        if info is None or info.placed_on is None:
            return False
        if info.placed_on == "action_hex":
            return layout.area.action_hex.get(self.t.records[(kind, tile)].action) is not None
        return free_place(layout, state, frame.player, info.placed_on)

    def slots_sure(self, state: GameState) -> bool:
        """For a pending slot decision: every free slot finishes, when no slot's bonuses can fail and
        what waits below the slot frame (the laid tile's own effect, ...) cannot fail either."""
        frames = state.frames
        if not self._hooks or not frames or frames[-1].key != SLOT or not self._slots_safe():
            return False
        for i in range(len(frames) - 2, -1, -1):
            if not self._frame_safe(state, frames[i], frames[i].pc):
                return False
        return not state.turn_info.get("ending") or self._ending_safe(state)

    def answers(self, state: GameState) -> list[bool]:
        """For the pending decision of a program statement: which answers surely finish (the chosen
        block and everything after it cannot fail). Decisions of board mechanisms are not judged."""
        d, frames = state.decision, state.frames
        no = [False] * len(d.options)
        if not frames or frames[-1].key[:1] == "@" or not self._hooks:
            return no
        frame = frames[-1]
        step = block_at(self.t.programs[frame.key], frame.addr, frame.trigger)[frame.pc]
        kind = type(step)
        if _DECISION_OF.get(kind) != d.kind:
            return no
        after = self.rest_safe(state, start=frame.pc + 1)
        seat = frame.player
        if kind is S.Choose:
            return [after and self.sure(state, seat, b) for b in step.options]
        if kind is S.ChooseRecord:  # each record picked runs the same body
            return [after and self.safe(step.body)] * len(d.options)
        if kind in S.OPTIONAL:
            return [after and self.sure(state, seat, step.body), after]
        if kind is S.Repeat and step.times is None and len(step.body) == 1 and type(step.body[0]) in S.OPTIONAL:
            inner = step.body[0]  # one more round runs the optional statement's block, then asks again
            again = self.safe(inner.body) and self.rest_safe(state, start=frame.pc)
            return [again, after]
        if kind is S.Draw and d.data["keep"] == 1 and (d.data["stack"] not in self.t.layout.slot_stacks or self._slots_safe()):
            field = self.t.stack_keep.get(d.data["stack"])  # what a kept record runs (the others go back)
            return [after and (field is None or self.program_safe(self.t.keys.get((self.t.kind_of[r], r, field))))
                    for r in d.options]
        return no


# --------------------------------------------------------------------------- what each statement kind risks

def _safe(fall: Fallibility, step) -> bool:
    return True


def _fails(fall: Fallibility, step) -> bool:
    return False


def _produce_safe(fall: Fallibility, step: S.Produce) -> bool:
    track = fall.t.tracks[step.track]
    return all(fall.program_safe(k) for _, k in track.production) and all(map(fall.program_safe, fall._bonuses))


def _room_safe(fall: Fallibility, zone: str) -> bool:
    """Putting records into the zone cannot fail: it has no slots and no capacity (a full zone, an
    occupied slot or a slot that is not free refuses a record)."""
    return fall.t.zones[zone].limit is None


# step class -> whether a statement of that kind cannot fail in any state; one entry per kind of
# steps.STATEMENTS (tests/dsl/test_steps.py), so a new kind is judged on purpose
_JUDGE = {
    S.Gain: _safe,
    S.Score: _safe,
    S.May: _safe,  # declining finishes it
    S.MayPay: _safe,
    S.Grant: _safe,  # its `or` fallback runs at the end of the turn
    S.Later: _safe,  # its body runs in an action of its own
    S.Place: _safe,  # without a free piece, no claim
    S.Block: lambda f, s: f.safe(s.body),
    S.Choose: lambda f, s: any(f.safe(b) for b in s.options),
    S.If: lambda f, s: f.safe(s.then) and f.safe(s.otherwise or ()),
    S.Repeat: lambda f, s: s.times is None or f.safe(s.body),  # an open repeat may stop at once
    S.Advance: lambda f, s: f._advance_safe(s.track),
    S.Produce: _produce_safe,
    S.Move: lambda f, s: s.direction == "sideways" and f._landing_safe(s.grid),  # a sideways move off the grid is lost
    S.Draw: lambda f, s: f._keep_safe(s.stack),  # an empty stack gives nothing
    S.Pay: _fails,  # the player may not hold enough
    S.Build: _fails,  # no tile to take, no place for it
    S.Perform: _fails,
    S.Use: _fails,
    S.ForEach: lambda f, s: f.safe(s.body),  # run for several seats: as sure as its body
    S.AsOwner: lambda f, s: f.safe(s.body),
    S.Roll: _safe,
    # moving records between zones: a full or slotted destination may refuse them; a shuffle cannot fail
    S.ZoneDraw: lambda f, s: _room_safe(f, s.to),  # fewer records than asked move as many as there are
    S.ZoneMove: lambda f, s: _room_safe(f, s.to),  # `this` resolves only in a record's effects, which run with it
    S.Shuffle: _safe,
    S.Refill: lambda f, s: bool(f.t.zones[s.zone].slots) or _room_safe(f, s.zone),  # slots stay empty when the refill runs out
    S.ForEachRecord: lambda f, s: f.safe(s.body),  # the body, run for none or more records: as sure as it
    S.JoinOrder: _safe,  # a seat that joined already keeps its place
    S.Run: _fails,  # the record's program is known only when it runs
    S.AsOccupant: lambda f, s: f.safe(s.body),
    S.ChooseRecord: _fails,  # no record of the zone may pass
    S.Put: _safe,
    S.Take: _safe,  # as many as the record keeps, at most
    S.Require: _fails,  # its condition may not hold
    S.AtOnce: lambda f, s: f.safe(s.body),  # the gains wait; the body's statements are as sure as ever
    S.Visit: _fails,  # no space may take the value, its requirement or cost may fail
    S.Multiply: lambda f, s: f.safe(s.body),  # the factor is read, never refused: as sure as its body
}
