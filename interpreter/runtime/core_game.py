"""The turn of a pack on the generic core: its phases' menus of content entries (game.py's Game
plays them; a pack whose turns are offers of the mechanisms library is played by legal.py and turn.py).

Notation: a turn's actions are the entries of the phase's menu, ``verb [argument] [pay n]``
(menu.py): ``place market`` (a piece on a space), ``buy card_3`` (a record of a zone or kind),
``buy extra 2`` (payment option 2), ``pass``. A pending decision inside an effect is answered by
``choose <n>`` (1-based). An entry is offered only when its limit, needs and condition allow it,
its cost can be paid and its effect can be carried out (tried on a copy). A seat offered nothing
in its turn ends it (passes, in a phase that runs until every seat passed): no content can stall
a game.
"""

from __future__ import annotations

import random
from typing import Iterable, Iterator

from interpreter.errors import IllegalActionError, RulesError, RunawayError
from interpreter.runtime import chance, copies, core_flow, placing, simultaneous
from interpreter.runtime import menu as M
from interpreter.runtime import spaces as SP
from interpreter.runtime import zones as Z
from interpreter.runtime.core_rules import CoreRules, Entry
from interpreter.runtime.state import Frame, GameState, PlayerState
from interpreter.runtime.view import View

AUTO_END_LIMIT = 10_000  # turns ended for seats offered nothing, in a row, before the content is called stuck
SEARCH_BUDGET = 40  # answers tried per action when looking for a way to finish it, before the rest is trusted


def menu_actions(game) -> list[str]:
    """The legal actions of a game whose turns are menus of content entries (game.py's Game asks):
    the answers of a pending decision that can be carried out, else the actions of the phase's menu
    that can be carried out to their end, through the decisions they lead to (each tried on a copy,
    kept for ``apply``)."""
    s, rules = game.state, game.rules
    if s.decision is not None:
        return decision_answers(rules, s, game._tried)
    offered: dict[str, list[str]] = {}
    entries = menu_entries(rules, s)
    for entry in entries:
        for action in candidates(rules, s, entry):
            try:
                work = game._applied(action, candidate=True)
            except IllegalActionError:
                continue
            if not finishes(rules, work, [SEARCH_BUDGET], s.flow):
                continue
            game._tried[action] = work
            offered.setdefault(entry.spec.verb, []).append(action)
    verbs = set(offered)
    by_verb = {e.spec.verb: e.spec for e in entries}
    return sorted(a for verb, actions in offered.items() if not M.hidden(by_verb[verb], verbs) for a in actions)


def decision_answers(rules: CoreRules, state: GameState, tried: dict | None = None) -> list[str]:
    """The answers of the pending decision that can be carried out (through the decisions they lead
    to), each tried on a copy (kept in ``tried`` for ``apply``). An answer that would stop a flow
    program where it cannot go on (core_flow.GuardedMachine) is none of them; when no answer can be
    carried out, every one is offered: the program stops there whichever is picked."""
    every = [f"choose {i + 1}" for i in range(len(state.decision.options))]
    out = []
    for answer in every:
        work = _tried_on_copy(rules, state, answer)  # settled as `apply` leaves it: kept for it
        if work is not None and finishes(rules, work, [SEARCH_BUDGET], state.flow):
            out.append(answer)
            if tried is not None:
                tried[answer] = work
    return out or every


def _tried_on_copy(rules: CoreRules, state: GameState, action: str, settle: bool = True) -> GameState | None:
    """A copy of the state with the action (or answer) applied (and, with ``settle``, the turns of seats
    offered nothing ended, as ``apply`` does), or None when the rules refuse it or it stops a flow program."""
    work = state.clone()
    try:
        apply_action(rules, work, action, settle=settle)
    except RunawayError:
        raise
    except RulesError:
        return None
    if len(work.table.get(core_flow.STOPPED, ())) > len(state.table.get(core_flow.STOPPED, ())):
        return None
    return work


def finishes(rules: CoreRules, state: GameState, budget: list[int], cursor) -> bool:
    """Whether some way of answering the state's pending decision (and those it leads to) can be carried
    out: answers tried on copies, the first that finishes ending the search; once ``budget`` tries are
    spent, the rest is trusted. Only the decisions of the action or answer being judged count: once the
    flow has moved on from ``cursor`` (the turn ended, a phase began), what later programs ask is theirs."""
    d = state.decision
    if d is None or budget[0] <= 0 or state.flow is not cursor:
        return True
    for i in range(len(d.options)):
        budget[0] -= 1
        work = _tried_on_copy(rules, state, f"choose {i + 1}", settle=False)
        if work is not None and finishes(rules, work, budget, cursor):
            return True
        if budget[0] <= 0:
            return True
    return False


def menu_words(rules: CoreRules) -> tuple[str, ...]:
    """The words an action may start with: the menus' verbs and `choose`."""
    verbs = {entry.spec.verb.split()[0] for entries in rules.menus.values() for entry in entries}
    return tuple(sorted(verbs | {"choose"}))


def menu_phrases(rules: CoreRules) -> dict[str, str]:
    """Verb -> how a log or menu says its actions: an entry's `name:` then its argument."""
    return {e.word: e.name + " {arg}" for menu in rules.model.menus for e in menu.entries if e.name}


def menu_entries(rules: CoreRules, state: GameState) -> tuple[Entry, ...]:
    """The entries of the menu of the phase whose turn it is (none between turns or in an automatic phase)."""
    cursor = state.flow
    if cursor is None or cursor.seat is None:
        return ()
    menu = rules.phases[cursor.phase].menu
    return rules.menus.get(menu, ()) if menu else ()


# ---------------------------------------------------------------- the rules of one action

def candidates(rules: CoreRules, state: GameState, entry: Entry) -> Iterator[str]:
    """The actions of an entry whose limit, needs, condition and cost allow them now (before trying
    the effect): one per argument and payment option, in order, each judged when it is asked for (so
    that a caller that needs only the first, or one, judges no more; the state must not change
    meanwhile)."""
    log = state.menu or M.MenuLog()
    if not M.allowed(entry.spec, log, state.current):
        return
    seat = state.current
    boosts = None  # the same for every argument: read once, when one passes
    for argument in _arguments(rules, state, entry, seat):
        frame = Frame("", [], 0, seat, entry.id, this_of(rules, entry, argument))
        view = View(rules.tables, state, seat, frame)
        if entry.condition and not rules.tables.programs[entry.condition](view, None):
            continue
        if entry.cost and not rules.machine._can_pay(view, rules.tables.programs[entry.cost]):
            continue
        payments = [None] if not entry.payments else [
            i + 1 for i, key in enumerate(entry.payments) if rules.machine._can_pay(view, rules.tables.programs[key])]
        if boosts is None:
            boosts = placing.boosts(rules, state, entry, seat)
        for n in payments:
            for b in boosts:
                yield M.notation(entry.spec, argument, n, b)


def arguments(rules: CoreRules, state: GameState, entry: Entry, seat: int) -> list[str | None]:
    """What the entry may name now: a space the seat's piece may go on, a record of its zone or kind
    (None for an entry that names nothing)."""
    return list(_arguments(rules, state, entry, seat))


def _arguments(rules: CoreRules, state: GameState, entry: Entry, seat: int) -> Iterable[str | None]:
    source = entry.source
    if source is None:
        return (None,)
    if source == "spaces":
        if state.players[seat].pieces_free.get(entry.piece, 0) < 1:
            return ()
        placement = placing.placement(rules, seat, entry.piece)
        return SP.iter_open_spaces(rules.current_spaces(state), state.spaces, placement, _enters_full(rules, state, seat))
    spec = rules.tables.zones.get(source)
    if spec is not None:
        return dict.fromkeys(Z.records(state.zones.get(Z.key(spec, seat if spec.per_player else None), ())))
    return rules.tables.ids_of(source)


def _enters_full(rules: CoreRules, state: GameState, seat: int):
    """Whether the seat may put a piece on a full space: the space's `enter_when_full` holds for it."""
    def enters(space: str) -> bool:
        key = rules.programs_of_space(state, space).enter_when_full
        if key is None:
            return False
        kind = rules.tables.kind_of.get(space)
        frame = Frame("", [], 0, seat, space, [kind, space] if kind else None)
        return bool(rules.tables.programs[key](View(rules.tables, state, seat, frame), None))
    return enters


def this_of(rules: CoreRules, entry: Entry, argument: str | None) -> list[str] | None:
    """The record an entry's argument names (a space on a record is that record), else None."""
    if argument is None:
        return None
    kind = rules.tables.kind_of.get(argument)
    return [kind, argument] if kind else None


def apply_action(rules: CoreRules, state: GameState, action: str, settle: bool = True, commit: bool = True,
                 candidate: bool = False) -> None:
    """Apply one action to a working copy of the state (the caller checked it is offered, or wants
    the rules' refusal as a RulesError); ``settle``: then end the turns of seats offered nothing;
    ``commit``: in a simultaneous phase the action is only chosen (simultaneous.py); ``candidate``: the
    caller took the action from ``candidates`` in this state, which need not be worked out again."""
    machine = rules.machine
    if state.decision is not None:
        verb, _, n = action.partition(" ")
        if verb != "choose" or not n.isdigit():
            raise RulesError(f"a decision is pending: answer it with choose 1..{len(state.decision.options)}")
        machine.answer(state, int(n) - 1)
        if settle:
            _settle(rules, state)
        return
    cursor = state.flow
    if cursor is None or cursor.seat is None:
        raise RulesError("nobody is taking a turn now")
    if commit and simultaneous.applies(rules, state):  # the choice waits for the other seats'
        simultaneous.commit(rules, state, action, apply_action)
        if settle:
            _settle(rules, state)
        return
    menu = rules.phases[cursor.phase].menu
    choice = M.parse(rules.verbs.get(menu, {}), action)
    entry = rules.entry_of[(menu, choice.entry.verb)]
    seat = state.current
    if not candidate and action not in candidates(rules, state, entry):
        raise RulesError(f"`{action}` is not allowed now")
    state.menu = M.record(state.menu or M.MenuLog(), entry.spec, seat)
    this = this_of(rules, entry, choice.argument)
    acting = Frame("", [], 0, seat, entry.id, this)
    if entry.spec.ends_turn or entry.spec.passes:
        state.frames.append(core_flow.point("turn_over", seat, passed=entry.spec.passes))
    if entry.effect:
        state.frames.append(Frame(entry.effect, [], 0, seat, entry.id, this))
    if entry.source == "spaces":
        _put_piece(rules, state, entry, choice.argument, seat, choice.boost)
    if entry.cost:
        machine._pay(state, acting, rules.tables.programs[entry.cost])
    if choice.payment is not None:
        machine._pay(state, acting, rules.tables.programs[entry.payments[choice.payment - 1]])
    machine.run(state)
    if settle:
        _settle(rules, state)


def _put_piece(rules: CoreRules, state: GameState, entry: Entry, space: str, seat: int, boost: int = 0) -> None:
    """The piece goes on the space (its value and requirement checked, its costs and boost paid); its
    effect runs first of all the action's programs. The space's programs read the piece's value."""
    programs = rules.programs_of_space(state, space)
    this = this_of(rules, entry, space)
    value = placing.value_of(rules, state, seat, entry.piece, space, this, programs, boost)
    acting = Frame("", [], 0, seat, space, this, {placing.PLACED_VALUE: value})
    view = View(rules.tables, state, seat, acting)
    placing.check_value(programs, space, value)
    if programs.requires and not rules.tables.programs[programs.requires](view, None):
        raise RulesError(f"space {space!r} refuses the piece: its requirement does not hold")
    occupied = programs.occupied_cost is not None and SP.group_occupied(rules.current_spaces(state), state.spaces, space)
    placed = SP.place(rules.current_spaces(state), state.spaces, space, placing.placement(rules, seat, entry.piece),
                      _enters_full(rules, state, seat))
    state.spaces = state.spaces.with_entry(space, placed)
    player = state.player(seat)
    player.pieces_free = player.pieces_free.with_entry(entry.piece, player.pieces_free[entry.piece] - 1)
    if programs.cost:
        rules.machine._pay(state, acting, rules.tables.programs[programs.cost])
    if occupied:  # the group already held a piece: its fee too
        rules.machine._pay(state, acting, rules.tables.programs[programs.occupied_cost])
    placing.pay_boost(rules, state, acting, entry, boost)
    if programs.effect:
        state.frames.append(Frame(programs.effect, [], 0, seat, space, this, acting.event))


def _settle(rules: CoreRules, state: GameState) -> None:
    """Once the machine is idle: a seat offered nothing in its turn ends it, until someone can act."""
    for _ in range(AUTO_END_LIMIT):
        cursor = state.flow
        if state.decision is not None or state.frames or state.table.get(core_flow.OVER) or cursor.seat is None:
            return
        if _anything_offered(rules, state):
            return
        passing = rules.flow.phases[cursor.phase].until == "all_passed"
        state.frames += simultaneous.turn_over(rules, state, cursor.seat, passing)
        rules.machine.run(state)
    raise RulesError("no seat can act for too many turns in a row")


def _anything_offered(rules: CoreRules, state: GameState) -> bool:
    """Whether the seat to act is offered an action: one that can be carried out to its end, as
    ``menu_actions`` offers them."""
    cursor = state.flow
    menu = rules.phases[cursor.phase].menu
    for entry in rules.menus.get(menu, ()) if menu else ():
        for action in candidates(rules, state, entry):
            # the action itself can be carried out (one that stops a flow program still counts, unlike an
            # answer: so not _tried_on_copy)
            work = state.clone()
            try:
                apply_action(rules, work, action, settle=False, candidate=True)
            except RunawayError:
                raise
            except RulesError:
                continue
            if finishes(rules, work, [SEARCH_BUDGET], state.flow):
                return True
    return False


def initial_core_state(rules: CoreRules, seed: int = 0) -> GameState:
    """The state a game of a pack on the generic core starts in: empty zones (or full, for a zone that
    starts with every record of its kind), every player's pieces, then the setup program and the
    flow's first turn."""
    pack = rules.ruleset.single("pack")
    state = GameState(players=[PlayerState(seat, holdings={r.id: 0 for r in pack.resources if not r.shared},
                                           pieces_free={p.id: p.per_player for p in pack.pieces})
                               for seat in range(rules.seats)])
    state.zones = Z.empty(rules.tables.zones.values(), rules.seats)
    state.zones.update(rules.start_zones)
    copies.deal(rules, state)  # zones that start with each player's copies of a kind
    state.rng = chance.saved_state(random.Random(seed))
    state.table = {"seed": seed}
    core_flow.begin(rules, state)
    _settle(rules, state)
    return state

