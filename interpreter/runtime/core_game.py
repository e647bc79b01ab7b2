"""A game of a pack on the generic core: the Game API over a flow, menus, zones and spaces.

The same API as game.py's Game (OpenSpiel-shaped): ``current_player``, ``legal_actions`` (sorted
strings), ``apply`` (a transaction: an illegal action raises ``IllegalActionError`` and changes
nothing), ``is_terminal``, ``scores``, ``winner``, ``clone``, ``child``, ``determinized``,
``to_json``/``from_json`` and ``observation``.

Notation: a turn's actions are the entries of the phase's menu, ``verb [argument] [pay n]``
(menu.py): ``place market`` (a piece on a space), ``buy card_3`` (a record of a zone or kind),
``buy extra 2`` (payment option 2), ``pass``. A pending decision inside an effect is answered by
``choose <n>`` (1-based). An entry is offered only when its limit, needs and condition allow it,
its cost can be paid and its effect can be carried out (tried on a copy). A seat offered nothing
in its turn ends it (passes, in a phase that runs until every seat passed): no content can stall
a game.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

from interpreter.errors import IllegalActionError, RulesError, RunawayError
from interpreter.runtime import chance, copies, core_flow, placing, simultaneous
from interpreter.runtime import menu as M
from interpreter.runtime import spaces as SP
from interpreter.runtime import zones as Z
from interpreter.runtime.core_rules import CoreRules, Entry, core_rules_for
from interpreter.runtime.game_api import GameAPI
from interpreter.runtime.state import Frame, GameState, PlayerState
from interpreter.runtime.view import View

AUTO_END_LIMIT = 10_000  # turns ended for seats offered nothing, in a row, before the content is called stuck


class CoreGame(GameAPI):
    # ------------------------------------------------------------ API
    def is_terminal(self) -> bool:
        return bool(self.state.table.get(core_flow.OVER))

    def is_dummy(self, seat: int) -> bool:
        return False

    def action_words(self) -> tuple[str, ...]:
        """The words an action may start with: the menus' verbs and `choose`."""
        verbs = {entry.spec.verb.split()[0] for entries in self.rules.menus.values() for entry in entries}
        return tuple(sorted(verbs | {"choose"}))

    def action_phrases(self) -> dict[str, str]:
        """Verb -> how a log or menu says its actions: an entry's `name:` then its argument."""
        return {e.word: e.name + " {arg}" for menu in self.rules.model.menus for e in menu.entries if e.name}

    def scores(self) -> list[dict]:
        return [{"seat": p.seat + 1, "score": p.score, "breakdown": dict(sorted(p.breakdown.items()))}
                for p in self.state.players]

    def solo_verdict(self) -> None:
        return None

    def winner(self) -> int | None:
        """Seat (1-based) of the winner once the game is over; None before, in solo, or when tied
        seats share the win (``ties: shared``)."""
        if not self.is_terminal() or len(self.state.players) < 2:
            return None
        winners = self.winners()
        return winners[0] if len(winners) == 1 else None

    def winners(self) -> list[int]:
        """Every seat (1-based) that won: the most points, then the flow's `tie_break` resource, then `ties`."""
        model = self.rules.model
        def key(p: PlayerState):
            return (p.score, p.holdings.get(model.tie_break, 0) if model.tie_break else 0)
        best = max(key(p) for p in self.state.players)
        tied = [p.seat + 1 for p in self.state.players if key(p) == best]
        if model.ties == "last_seat":
            return tied[-1:]
        if model.ties == "first_seat":
            return tied[:1]
        return tied

    def chance_outcomes(self) -> dict[str, list[tuple[int, Fraction]]]:
        """Every declared die's outcomes with their exact probabilities (OpenSpiel's chance nodes), so a
        search may sample or enumerate a roll instead of trusting the game's generator."""
        return {die_id: list(chance.distribution(die)) for die_id, die in self.rules.tables.dice.items()}

    def determinized(self, seat: int, rng: random.Random) -> "CoreGame":
        """A copy in which every zone ``seat`` may not see is reshuffled (sorted first, so that the copy
        depends on what the zones hold and ``rng``, never on their real order)."""
        g = self.clone()
        specs = self.rules.tables.zones
        for zone_key, contents in sorted(g.state.zones.items()):
            spec = specs[zone_key.partition("@")[0]]
            if spec.slots or Z.visible(spec, zone_key, seat):
                continue
            items = sorted(Z.records(contents))
            rng.shuffle(items)
            g.state.zones = {**g.state.zones, zone_key: tuple(items)}
        return g

    def to_json(self) -> str:
        return json.dumps({"pack": self.rules.ruleset.pack_id, "players": self.rules.players,
                           "variants": list(self.rules.ruleset.variants), "state": json.loads(self.state.to_json())},
                          sort_keys=True)

    @staticmethod
    def from_json(ruleset, text: str) -> "CoreGame":
        data = json.loads(text)
        return CoreGame(core_rules_for(ruleset, data["players"]), GameState.from_json(json.dumps(data["state"])))

    def observation(self, player: int) -> dict:
        """What seat ``player`` (0-based; -1 for a spectator) may see: zones by their visibility (a zone
        it may not see shows only its size), every player's public holdings, the spaces, the dice, where
        the flow stands, the pending decision, its legal actions when it acts next, and the log."""
        s, cursor = self.state, self.state.flow
        d = s.decision
        view = {
            "player": player, "to_act": self.current_player, "current": s.current, "over": self.is_terminal(),
            "flow": None if cursor is None else {
                "round": cursor.round, "phase": self.rules.model.phases[cursor.phase].id,
                "first_seat": cursor.first_seat, "passed": list(cursor.passed), "turn": cursor.turn},
            "players": [{"seat": p.seat, "score": p.score, "breakdown": dict(p.breakdown), "holdings": dict(p.holdings),
                         "pieces_free": dict(p.pieces_free)} for p in s.players],
            "zones": Z.observe(self.rules.tables.zones, s.zones, None if player < 0 else player),
            "spaces": {sid: [[o.owner, o.piece] for o in occ] for sid, occ in s.spaces.items()},
            "dice": dict(s.dice),
            "decision": None if d is None else {"player": d.player, "kind": d.kind, "count": len(d.options),
                                                "options": list(d.options)},
            "legal": self.legal_actions() if player >= 0 and player == self.current_player else [],
            "log": simultaneous.visible_log(s, player),
        }
        return json.loads(json.dumps(view))

    # ------------------------------------------------------------ legal actions
    def _legal_actions(self) -> list[str]:
        s = self.state
        if self.is_terminal():
            return []
        if s.decision is not None:
            return [f"choose {i + 1}" for i in range(len(s.decision.options))]
        offered: dict[str, list[str]] = {}
        for entry in self._entries():
            for action in candidates(self.rules, s, entry):
                try:
                    self._tried[action] = self._applied(action)
                except IllegalActionError:
                    continue
                offered.setdefault(entry.spec.verb, []).append(action)
        verbs = set(offered)
        by_verb = {e.spec.verb: e.spec for e in self._entries()}
        return sorted(a for verb, actions in offered.items() if not M.hidden(by_verb[verb], verbs) for a in actions)

    def _entries(self) -> tuple[Entry, ...]:
        cursor = self.state.flow
        if cursor is None or cursor.seat is None:
            return ()
        menu = self.rules.phases[cursor.phase].menu
        return self.rules.menus.get(menu, ()) if menu else ()

    def _applied(self, action: str) -> GameState:
        work = self.state.clone()
        try:
            apply_action(self.rules, work, action)
        except RunawayError:
            raise
        except RulesError as exc:
            raise IllegalActionError(action, str(exc)) from None
        return work


# ---------------------------------------------------------------- the rules of one action

def candidates(rules: CoreRules, state: GameState, entry: Entry) -> list[str]:
    """The actions of an entry whose limit, needs, condition and cost allow them now (before trying
    the effect): one per argument and payment option."""
    log = state.menu or M.MenuLog()
    if not M.allowed(entry.spec, log, state.current):
        return []
    seat = state.current
    out = []
    for argument in arguments(rules, state, entry, seat):
        frame = Frame("", [], 0, seat, entry.id, this_of(rules, entry, argument))
        view = View(rules.tables, state, seat, frame)
        if entry.condition and not rules.tables.programs[entry.condition](view, None):
            continue
        if entry.cost and not rules.machine._can_pay(view, rules.tables.programs[entry.cost]):
            continue
        payments = [None] if not entry.payments else [
            i + 1 for i, key in enumerate(entry.payments) if rules.machine._can_pay(view, rules.tables.programs[key])]
        out += [M.notation(entry.spec, argument, n, b) for n in payments for b in placing.boosts(rules, state, entry, seat)]
    return out


def arguments(rules: CoreRules, state: GameState, entry: Entry, seat: int) -> list[str | None]:
    source = entry.source
    if source is None:
        return [None]
    if source == "spaces":
        if state.players[seat].pieces_free.get(entry.piece, 0) < 1:
            return []
        placement = placing.placement(rules, seat, entry.piece)
        return SP.open_spaces(rules.current_spaces(state), state.spaces, placement)
    spec = rules.tables.zones.get(source)
    if spec is not None:
        return list(dict.fromkeys(Z.records(state.zones.get(Z.key(spec, seat if spec.per_player else None), ()))))
    return list(rules.tables.ids_of(source))


def this_of(rules: CoreRules, entry: Entry, argument: str | None) -> list[str] | None:
    """The record an entry's argument names (a space on a record is that record), else None."""
    if argument is None:
        return None
    kind = rules.tables.kind_of.get(argument)
    return [kind, argument] if kind else None


def apply_action(rules: CoreRules, state: GameState, action: str, settle: bool = True, commit: bool = True) -> None:
    """Apply one action to a working copy of the state (the caller checked it is offered, or wants
    the rules' refusal as a RulesError); ``settle``: then end the turns of seats offered nothing;
    ``commit``: in a simultaneous phase the action is only chosen (simultaneous.py)."""
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
    if action not in candidates(rules, state, entry):
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
    placed = SP.place(rules.current_spaces(state), state.spaces, space, placing.placement(rules, seat, entry.piece))
    state.spaces = {**state.spaces, space: placed}
    player = state.player(seat)
    player.pieces_free[entry.piece] -= 1
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
    cursor = state.flow
    menu = rules.phases[cursor.phase].menu
    for entry in rules.menus.get(menu, ()) if menu else ():
        for action in candidates(rules, state, entry):
            try:
                apply_action(rules, state.clone(), action, settle=False)  # the action itself can be carried out
            except RunawayError:
                raise
            except RulesError:
                continue
            return True
    return False


def new_core_game(ruleset, players: int, seed: int = 0) -> CoreGame:
    """A game of a pack on the generic core: empty zones (or full, for a zone that starts with every
    record of its kind), every player's pieces, then the setup program and the flow's first turn."""
    rules = core_rules_for(ruleset, players)
    pack = ruleset.single("pack")
    state = GameState(players=[PlayerState(seat, holdings={r.id: 0 for r in pack.resources},
                                           pieces_free={p.id: p.per_player for p in pack.pieces})
                               for seat in range(players)])
    state.zones = Z.empty(rules.tables.zones.values(), players)
    state.zones.update(rules.start_zones)
    copies.deal(rules, state)  # zones that start with each player's copies of a kind
    state.rng = chance.saved_state(random.Random(seed))
    state.table = {"seed": seed}
    core_flow.begin(rules, state)
    _settle(rules, state)
    return CoreGame(rules, state)

