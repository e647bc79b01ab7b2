"""The effect machine: runs compiled programs over a GameState, stopping at decision points.

Programs run as frames on a stack (``GameState.frames``); a frame names its
compiled block by the program's key and an address, so the whole machine
state is plain data that clones and serialises with the game. A step that
needs a choice (an option of ``choose``, a ``may``, a ``may pay``, another
round of an open ``repeat``, which drawn record to keep) sets
``GameState.decision`` and stops; ``answer`` continues.

The machine implements the DSL's generic statements over declared names:
resources with caps and one-time milestones, tracks with values, production
bonuses, reach effects, entry costs and a beyond-the-top effect, stacks,
permits, events and the triggers of owned records. Statements that act on
boards (``move``, ``perform``, ``build``, ``place``, ``later``) are handed to
the engine through ``mechanisms`` (op -> f(machine, state, frame, step)).

The parts: tables.py (what the machine reads from a ruleset), view.py (what
compiled expressions read), executors.py (one executor per statement kind and
how a decision takes its answer), effects.py (resources, tracks, stacks,
permits), events.py (triggers); this module runs the frames.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from interpreter.content.bounds import STEP_BUDGET, runaway
from interpreter.dsl import ast as A
from interpreter.dsl.printer import to_text
from interpreter.dsl.steps import OF_NODE, STATEMENTS
from interpreter.errors import RulesError
from interpreter.runtime.effects import ADVANCE, Effects
from interpreter.runtime.events import Events
from interpreter.runtime.executors import ANSWERS, EXECUTORS, GENERIC_NATIVES, mechanism
from interpreter.runtime import held
from interpreter.runtime.layout import Layout
from interpreter.runtime.state import Decision, Frame, GameState, PlayerState
from interpreter.runtime.tables import GridTable, Tables, TrackTable, build_tables
from interpreter.runtime.view import View

# names other modules import from here (kept for them; they live in the modules above)
__all__ = ["ADVANCE", "GridTable", "Machine", "Tables", "TrackTable", "View", "block_at", "build_tables",
           "constant_amounts"]


def constant_amounts(amounts) -> tuple | None:
    """((resource, n), ...) when no value of compiled amounts depends on the game, else None: a compiled
    expression that reads the game fails when it is given no game to read."""
    try:
        return tuple((r, fn(None, None)) for r, fn in amounts)
    except (AttributeError, TypeError):
        return None


def block_at(program, addr, trigger: int | None = None) -> tuple:
    """The block a frame's address names: (step index, sub-block index) pairs from the program's steps
    (or a trigger's body) down."""
    block = program.steps if trigger is None else program.triggers[trigger].body
    for i in range(0, len(addr), 2):
        block = block[addr[i]].blocks()[addr[i + 1]]
    return block


def _ast_block_at(tree: A.Program, addr, trigger: int | None) -> list:
    """The AST statements parallel to ``block_at`` (for readable option labels)."""
    if trigger is None:
        stmts = [i for i in tree.items if not isinstance(i, A.Trigger)]
    else:
        body = [i for i in tree.items if isinstance(i, A.Trigger)][trigger].body
        stmts = list(body.body) if isinstance(body, A.Block) else [body]
    for i in range(0, len(addr), 2):
        node, k = stmts[addr[i]], addr[i + 1]
        sub = OF_NODE[type(node)].node_blocks(node)[k]
        stmts = list(sub.body) if isinstance(sub, A.Block) else [sub]
    return stmts


def _needs_engine(m, state, frame, step) -> None:
    raise RulesError(f"`{step.op}` acts on the game's boards and needs the engine")


@dataclass
class Machine(Effects, Events):
    tables: Tables
    mechanisms: dict[str, Callable] = field(default_factory=dict)  # op -> board mechanism (runtime/natives/)
    natives: dict[str, tuple] = field(default_factory=dict)  # "@name" -> (step, answer) of native frames
    trace: set[str] | None = None  # when a set, the keys of the programs that ran are added (simulation reports)
    # every step this machine has run, in every state: a meter of work that is the same on every machine, which
    # a bot's search reads to bound itself (a clock would make a game play differently from one run to the next)
    steps_run: int = field(default=0, repr=False, compare=False)
    _constants: dict = field(default_factory=dict, repr=False)  # id(amounts) -> (amounts, values or None)
    _label_memo: dict = field(default_factory=dict, repr=False)  # (key, addr, trigger, pc) -> option labels
    _record_prices: dict = field(default_factory=dict, repr=False)  # (kind, id) -> constant cost, (), or None
    _exec: dict = field(init=False, repr=False)  # step class -> executor, for every kind of steps.STATEMENTS
    # the tables' layout, read by the board mechanisms many times per action: an attribute, not a property
    # (Tables is frozen, so it stays the tables' own)
    layout: Layout = field(init=False, repr=False, compare=False)
    _listeners: dict = field(init=False, repr=False, compare=False)  # event -> who listens (Events._find_listeners)
    _gains_adjusted: bool = field(init=False, repr=False, compare=False)  # gains multiplied, reduced or held (held.py)

    def __post_init__(self) -> None:
        self.layout = self.tables.layout
        self.natives = {**GENERIC_NATIVES, **self.natives}  # the statements' own native frames, for every pack
        self._gains_adjusted = held.uses_held_gains(self.tables)
        self._listeners = self._find_listeners()
        # a board mechanism the engine gives runs its statement; the machine runs the rest itself
        self._exec = {kind: mechanism(self.mechanisms[op]) if op in self.mechanisms else EXECUTORS.get(kind, _needs_engine)
                      for op, kind in STATEMENTS.items()}

    def record_price(self, kind: str, rid: str) -> tuple | None:
        """A record's `cost` as constant ((resource, n), ...), () when it has none, None when it reads the game."""
        hit = self._record_prices.get((kind, rid), False)
        if hit is False:
            key = self.tables.keys.get((kind, rid, "cost"))
            hit = self._record_prices[(kind, rid)] = self.constant(self.tables.programs[key]) if key else ()
        return hit

    def constant(self, amounts) -> tuple | None:
        """((resource, n), ...) when no value depends on the game, else None. Probed once per compiled
        amounts: a compiled expression that reads the game fails when given no game to read."""
        hit = self._constants.get(id(amounts))
        if hit is None:
            hit = self._constants[id(amounts)] = (amounts, constant_amounts(amounts))  # kept: the id stays theirs
        return hit[1]

    # ------------------------------------------------------------ entry points
    def start(self, state: GameState, key: str, player: int, source: str, this=None, event=None) -> None:
        """Queue a program's steps; call ``run`` to execute them."""
        state.frames.append(Frame(key, [], 0, player, source, list(this) if this else None, event))

    def run(self, state: GameState) -> None:
        """Execute until every frame is done or a decision is needed.

        Within ``STEP_BUDGET`` steps per action (bounds.py): content that loops raises ``RunawayError``
        instead of hanging the game. The steps are counted on the state object, not in its data: an
        action is applied to a fresh copy, which has taken none, and every run during that action counts."""
        frames, programs, natives, trace, execs = state.frames, self.tables.programs, self.natives, self.trace, self._exec
        steps = begun = state._steps
        while frames and state.decision is None:
            steps += 1
            if steps > STEP_BUDGET:
                raise runaway(state, self.tables.spans)
            frame = frames[-1]  # read; state.top_frame() before changing it (it may be shared with a copy)
            key = frame.key
            if key in natives:
                # a frame pushed since the last copy is this state's own: no call to top_frame for it
                natives[key][0](self, state, frame if len(frames) > state._own_frames else state.top_frame())
                continue
            if key == ADVANCE:
                frames.pop()
                self.advance(state, frame.player, frame.this[0], frame.source)
                continue
            addr, pc = frame.addr, frame.pc
            if trace is not None and pc == 0 and not addr:
                trace.add(key)
            prog = programs[key]
            block = prog.steps if not addr and frame.trigger is None else block_at(prog, addr, frame.trigger)
            if pc >= len(block):
                frames.pop()
                if frame.remaining:  # a counted repeat: run the body again
                    frames.append(Frame(key, list(addr), 0, frame.player, frame.source, frame.this,
                                        frame.event, frame.trigger, frame.remaining - 1))
                continue
            execs[type(block[pc])](self, state, frame if len(frames) > state._own_frames else state.top_frame(), block[pc])
        state._steps = steps
        self.steps_run += steps - begun

    def answer(self, state: GameState, index: int) -> None:
        d = state.decision
        if d is None:
            raise RulesError("no decision is pending")
        if not 0 <= index < len(d.options):
            raise RulesError(f"the decision has options 1 to {len(d.options)}, not {index + 1}")
        state.decision = None
        frame = state.top_frame()
        if frame.key[:1] == "@":
            self.natives[frame.key][1](self, state, frame, index, d)
            self.run(state)
            return
        step = block_at(self.tables.programs[frame.key], frame.addr, frame.trigger)[frame.pc]
        frame.pc += 1
        take = ANSWERS.get(type(step))
        if take is not None:
            take(self, state, frame, step, d, index)
        self.run(state)

    # ------------------------------------------------------------ steps
    def _view(self, state, frame) -> View:
        return View(self.tables, state, frame.player, frame)

    def _player(self, state, frame) -> PlayerState:
        return state.player(frame.player)

    def _push_block(self, state, frame, k) -> None:
        state.frames.append(Frame(frame.key, frame.addr + [frame.pc - 1, k], 0, frame.player, frame.source,
                                  frame.this, frame.event, frame.trigger))

    def _decide(self, state, frame, kind, options, **data) -> None:
        state.decision = Decision(frame.player, kind, options, data)

    def _labels(self, frame) -> list[str]:
        """The options of a `choose` as the player reads them, printed once per statement."""
        where = (frame.key, tuple(frame.addr), frame.trigger, frame.pc)
        labels = self._label_memo.get(where)
        if labels is None:
            tree = self.tables.asts.get(frame.key)
            stmts = _ast_block_at(tree, frame.addr, frame.trigger) if isinstance(tree, A.Program) else []
            node = stmts[frame.pc] if frame.pc < len(stmts) else None
            labels = ["; ".join(to_text(s) for s in o.body) for o in node.options] if isinstance(node, A.Choose) else []
            self._label_memo[where] = labels
        return list(labels)  # a decision's options are its own
