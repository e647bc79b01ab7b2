"""The legal actions of a game's state: the turn's offers (offers.py) kept to what can be carried out
(OPEN-28), judged without a try where the programs tell, else tried on copies of the state."""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.dsl import steps as S
from interpreter.errors import IllegalActionError, RulesError, RunawayError
from interpreter.runtime import menu as M
from interpreter.runtime.machine import View
from interpreter.runtime import natives as mechanisms
from interpreter.mechanisms import wheel
from interpreter.runtime.state import GameState, PlayerState, _copy_player
from interpreter.runtime.turn import Turn, acting_frame, bonus_can_run, condition_holds

if TYPE_CHECKING:
    from interpreter.runtime.rules import Rules


class LegalActions:
    """The part of ``Game`` that works out the legal actions of its state (``rules``, ``state``, ``_tried``
    and ``_legal_now`` are the game's)."""

    def _legal_actions(self) -> list[str]:
        if self.state.table.get("over"):
            return []
        s, info = self.state, self.state.turn_info
        if s.decision is not None:
            d = s.decision
            if d.kind in self.rules.named_decisions:  # placements are generated legal; picks and slots are few, so try them
                acts = [f"{d.kind} {o}" for o in d.options]
                if d.kind == "place" or (d.kind == self.rules.tables.layout.slot_verb and self.rules.fallibility.slots_sure(s)):
                    return sorted(acts)
                sure = _sure_picks(self.rules, s)
                return sorted(a for o, a in zip(d.options, acts) if o in sure or self._completes(a))
            sure = self.rules.fallibility.answers(s)  # answers that cannot fail need no try
            return [f"choose {i + 1}" for i in range(len(d.options)) if sure[i] or self._completes(f"choose {i + 1}")]
        if info.get("discarding"):
            verb = self.rules.verb_of["discard_over_limit"]
            return sorted(f"{verb} {r}" for r in self._carry_group() if self._player.holdings.get(r, 0) > 0)
        return self._turn_actions()

    def _turn_actions(self, makers: tuple | list | None = None) -> list[str]:
        """What the player whose turn it is may do with no decision pending (R-TURN-*), sorted: the
        entries of the flow's turn menu (``makers``: some of its Rules.offer_makers) in the order of
        their verbs, each making its actions in order, so no sort of the whole list is needed."""
        turn = _TurnView(self)
        info = turn.info
        out: list[str] = []
        for make, verb, condition, needs, blocks, per_turn, limit in self.rules.offer_makers if makers is None else makers:
            if (needs is not None and not info.get(needs)) or (blocks is not None and info.get(blocks)):
                continue  # the offer's own first test, without the call
            if per_turn is not None and info.get(per_turn[0], 0) >= per_turn[1]:
                continue  # the entry's `limit:` per turn, counted in the turn record
            if condition is not None and not condition_holds(self.rules, self.state, condition):
                continue
            if limit is not None and not M.allowed(limit, self.state.menu or M.MenuLog(), self.state.current):
                continue
            made = make(turn, verb)
            if made:
                out += made
        return out

    def _performable_tiles(self, takes: list[tuple[int, str]]) -> list[str]:
        """R-TURN-6, OPEN-28: the main action must be performed, so of the tiles the player can pay for,
        those offering an action that can be performed once taken; when none does, all of them (the turn
        then ends without a main action)."""
        verdicts: dict = {}  # (price paid, action) -> performable after the take, when known without a try
        afters: dict = {}  # price paid -> the player with it paid (_payer)
        always = self.rules.offers.always_performable_tiles  # as _tile_performable judges them, without the call
        tiles = [tile for pos, tile in takes if tile in always or self._tile_performable(pos, tile, verdicts, afters)]
        return tiles or [tile for _, tile in takes]

    def _tile_performable(self, pos: int, tile: str, verdicts: dict, afters: dict) -> bool:
        actions = self.rules.offers.tile_actions_cheap_first.get(tile, ())
        if not self.rules.offers.always_performable.isdisjoint(actions):
            return True
        paid = self._take_payment(pos, tile)
        known = False
        if paid is not None:
            # A take that only pays a constant price (and scores points nobody listens to) leaves the player
            # as this state with the price paid; the crane and the turn's record of the tile are not read by
            # the judgements. A try performs the action, so it needs the tile really taken.
            known = True
            for a in actions:  # builds last: the others are judged cheaply
                verdict = verdicts.get((paid, a), _UNJUDGED)
                if verdict is _UNJUDGED:
                    payer = afters.get(paid) or afters.setdefault(paid, self._payer(paid))
                    verdict = verdicts[(paid, a)] = self._verdict_as(payer, a)
                if verdict:
                    return True
                known = known and verdict is not None
        taken = self._taken(tile)
        if taken is None:
            return False
        if not known and (taken.state.decision is not None or any(taken._can_perform(a, True) for a in actions)):
            return True
        # using the tile's wheel bonus first may make an action performable (the resource a build lacks)
        verbs = self.rules.verb_of
        if not taken.state.turn_info.get("bonus_key") or "offer_bonus" not in verbs or not _offered(taken, "offer_bonus"):
            return False
        try:
            bonus = taken.child(verbs["offer_bonus"])
        except IllegalActionError:
            return False
        if bonus.state.decision is not None:
            act = verbs.get("main_action", "") + " "
            return any(a.startswith(act) for a in _completions(bonus))
        return any(bonus._can_perform(a, True) for a in actions)

    def _take_payment(self, pos: int, tile: str) -> tuple | None:
        """What taking the tile at a crane position changes for its taker when that is only a constant price
        (((resource, n), ...), () when free); None when it may set off more (points someone listens to)."""
        geometry, machine, s = self.rules.geometry, self.rules.machine, self.state
        if (geometry.points[pos] or tile in s.table[self.rules.wheel_key]["flagged"]) and machine.listens(s, s.current, "action_tile_scored"):
            return None
        key = geometry.cost_keys[pos]
        return machine.constant(self.rules.tables.programs[key]) if key else ()

    def _payer(self, paid: tuple) -> PlayerState | None:
        """The player whose turn it is once a constant price is paid (None when free), for the verdicts of
        ``_verdict_as`` alone: a copy of the player, never part of a state."""
        if not paid:
            return None
        s = self.state
        player = _copy_player(s.players[s.current])
        holdings = player.holdings
        for r, n in paid:
            holdings[r] = holdings.get(r, 0) - n
        return player

    def _verdict_as(self, payer: PlayerState | None, action: str) -> bool | None:
        """``_perform_verdict`` of a main action as if the player whose turn it is were ``payer`` (None: as
        they are). The verdicts only read the state, so the payer stands in this state's list of players
        for the call and the player is put back after it (a copy of the whole state for each price paid
        cost more than the verdicts it served); should a verdict write, the state copies the payer first."""
        if payer is None:
            return self._perform_verdict(action, True)
        s = self.state
        players, seat, bit = s.players, s.current, 1 << s.current
        player, own = players[seat], s._own & bit
        players[seat] = payer
        s._own &= ~bit
        try:
            return self._perform_verdict(action, True)
        finally:
            players[seat] = player
            s._own = s._own & ~bit | own  # the others' bits as the call left them (a copy made meanwhile clears them)

    def _taken(self, tile: str) -> "LegalActions | None":
        """The game after taking a tile, kept for ``apply``; None when the rules refuse the take."""
        action = f"{self.rules.verb_of['take_offer']} {tile}"
        work = self._tried.get(action)
        if work is None:
            work = self.state.clone()
            try:
                Turn(self.rules, work).apply(action)
            except RunawayError:
                raise  # content that loops is reported, not hidden as a refused take
            except RulesError:
                return None
            self._tried[action] = work
        return type(self)(self.rules, work)  # only read, or copied before a try

    def _can_perform(self, action: str, main: bool) -> bool:
        """Whether an action can be performed now, without a try when the program tells (see
        ``_perform_verdict``); else a try on a copy."""
        verdict = self._perform_verdict(action, main)
        if verdict is not None:
            return verdict
        return self._completes(f"{self.rules.verb_of['main_action' if main else 'extra_action']} {action}")

    def _perform_verdict(self, action: str, main: bool) -> bool | None:
        """Whether an action can be performed now, when that is known without a try: a build by its row
        (no tile to take, or a tile surely placed), another program by a cheap exact rejection of a first
        statement that cannot be made, then by what cannot fail (see fallible.py); None when unknown."""
        rules = self.rules
        offers = rules.offers
        if action in offers.always_performable:
            return True
        key, sure, builds = offers.actions[action]
        event = {"action": action, "main": main, "discount": {}, "with": []}
        s = self.state
        machine = rules.machine
        if builds:
            outlook = mechanisms.build_outlook(machine, rules.fallibility, s, s.current, key, event)
            if outlook is not None:
                return outlook
        elif mechanisms.cannot_start(machine, s, s.current, key, event):
            return False
        elif sure or rules.fallibility.sure(s, s.current, rules.tables.programs[key].steps):
            return True
        return None

    def _bonus_payable(self, key: str) -> bool:
        """A bonus that opens with an optional payment is offered only once it can be paid
        (using it earlier would skip the payment and use the bonus up)."""
        steps = self.rules.tables.programs[key].steps
        if steps and type(steps[0]) is S.MayPay:
            view = self.rules.machine._view(self.state, acting_frame(self.state.current))
            if not self.rules.machine._can_pay(view, steps[0].cost):
                return False
        # a bonus that cannot be carried out (a payment nobody can make) is not offered (OPEN-28)
        return bonus_can_run(self.rules, self.state, key) and (
            self.rules.fallibility.sure(self.state, self.state.current, steps)
            or self._completes(self.rules.verb_of["offer_bonus"]))

    def _completes(self, action: str) -> bool:
        """Offer only what can be carried out (OPEN-28): try it on a copy of the state, and through the
        choices it leads to until one way of finishing it is found (a tile whose reward cannot be
        taken is no choice). The search stops trusting the rest after a fixed number of tries."""
        return _finishes(self.rules, self.state, action, [_SEARCH_BUDGET], self._tried)

    # ------------------------------------------------------------ helpers
    @property
    def _player(self) -> PlayerState:
        return self.state.players[self.state.current]

    def _carry_group(self) -> tuple[str, ...]:
        return self.rules.carry[0]


_UNJUDGED = object()  # a verdict not worked out yet
_SEARCH_BUDGET = 40  # tries per completeness check before the remaining choices are trusted


def _finishes(rules: Rules, state: GameState, action: str, budget: list[int], keep: dict | None = None) -> bool:
    work = state.clone()
    try:
        Turn(rules, work).apply(action)
    except RunawayError:
        raise  # content that loops is no illegal choice: let it be seen
    except RulesError:
        return False
    if keep is not None:
        keep[action] = work  # the deeper tries below copy it and leave it as it is
    budget[0] -= 1
    d = work.decision
    if d is None or budget[0] <= 0 or (d.kind == "place" and d.options):
        return True  # placements are generated legal (as legal_actions trusts them)
    if any(rules.fallibility.answers(work)) if d.kind not in rules.named_decisions else (d.kind == "pick" and _sure_picks(rules, work)):
        return True  # an answer that cannot fail finishes it
    answers = [f"{d.kind} {o}" for o in d.options] if d.kind in rules.named_decisions else [f"choose {i + 1}" for i in range(len(d.options))]
    return any(_finishes(rules, work, a, budget) for a in answers)


def _completions(game: LegalActions) -> list[str]:
    """The legal actions once a pending decision is answered, each way it can be (for a bonus's choice)."""
    out = []
    for answer in game.legal_actions():
        after = game.child(answer)
        out += after.legal_actions() if after.state.decision is None else _completions(after)
    return out


def _offered(game: LegalActions, offer: str) -> bool:
    """Whether a turn offer's bare verb (a bonus, the end of the turn) is among the game's legal actions:
    with no decision pending nor a discard waiting, ``_turn_actions`` makes that offer's entry of the
    turn menu alone (the other entries cannot make that action: no verb starts another); else the
    legal actions are worked out."""
    s, rules = game.state, game.rules
    info = s.turn_info
    if s.table.get("over") or s.decision is not None or info.get("discarding"):
        return rules.verb_of[offer] in game._legal_now()
    make = _OFFER_ACTIONS[offer]
    return rules.verb_of[offer] in game._turn_actions([m for m in rules.offer_makers if m[0] is make])


def _sure_picks(rules: Rules, state: GameState) -> set[str]:
    """The tiles of a pending pick that surely reach their placement (mechanisms.sure_picks)."""
    frame = state.frames[-1] if state.frames else None
    if frame is None or frame.key != mechanisms.BUILD or frame.event.get("phase") != "pick":
        return set()
    return set(mechanisms.sure_picks(rules.machine, rules.fallibility, state, frame, state.decision.options))


class _TurnView:
    """What the turn's offers share while the legal actions of one state are made: the game, its
    state, rules and turn record, the constant prices the player can pay (all at once), and the main
    actions once worked out."""

    __slots__ = ("game", "state", "rules", "plans", "info", "paid", "_view", "_main")

    def __init__(self, game: LegalActions):
        self.game, self.state, self.rules = game, game.state, game.rules
        self.plans, self.info = game.rules.offers, game.state.turn_info
        self.paid = self.plans.book.payable(game.state.players[game.state.current].holdings)
        self._view = None
        self._main = None

    def pays(self, price) -> bool:
        """price: None (free) or (the bit of a constant price, or None; the compiled amounts). (The
        offers below test a free or constant price inline, as this does, and call it for the rest.)"""
        if price is None:
            return True
        if price[0] is not None:
            return self.paid >> price[0] & 1
        if self._view is None:
            s = self.state
            self._view = View(self.rules.tables, s, s.current, acting_frame(s.current))
        return self.rules.machine._can_pay(self._view, price[1])

    def main_actions(self) -> list[str]:
        """The actions of the taken tile that can be performed as the main action now (none before a
        take or once it is done)."""
        if self._main is None:
            taken = self.info.get("tile")
            if taken is None or self.info.get("main_done"):
                self._main = []
            else:
                always, can = self.plans.always_performable, self.game._can_perform  # as _can_perform judges them, without the call
                self._main = [a for a in self.plans.tile_actions.get(taken, ()) if a in always or can(a, True)]
        return self._main


# ---------------------------------------------------------------- the turn offers' actions
# Each makes the actions of one entry of the turn menu (content/turn_offers.py), sorted, with the
# entry's verb; Turn (turn.py) carries them out.

def _main_action(t: _TurnView, verb: str) -> list[str]:
    return [f"{verb} {a}" for a in t.main_actions()]


def _offer_bonus(t: _TurnView, verb: str) -> list[str]:
    info = t.info
    if info.get("tile") is not None and info.get("bonus_key") and not info.get("bonus_used") and t.game._bonus_payable(info["bonus_key"]):
        return [verb]  # an optional purchase waits until it can be paid (EX-1)
    return []


def _buy_extra_action(t: _TurnView, verb: str) -> list[str]:
    paid = t.paid  # how often a turn: the entry's `limit:`
    return [f"{verb} {n}" for n, cost in t.plans.extra_costs
            if cost is None or (paid >> cost[0] & 1 if cost[0] is not None else t.pays(cost))]


def _anytime(t: _TurnView, verb: str) -> list[str]:
    out, s, machine, paid = [], t.state, t.rules.machine, t.paid
    for name, key, sure, entry in t.plans.anytime:
        if entry is not None and not paid >> entry & 1:
            continue  # its first statement's own price cannot be paid
        if not mechanisms.cannot_start(machine, s, s.current, key) and (sure or t.game._completes(f"{verb} {name}")):
            out.append(f"{verb} {name}")
    return out


def _end_turn(t: _TurnView, verb: str) -> list[str]:
    info = t.info
    if info.get("tile") is None or (not info.get("main_done") and t.main_actions()):
        return []  # the main action must be performed when it can be (R-TURN-6)
    return [verb]


def _extra_action(t: _TurnView, verb: str) -> list[str]:
    if not t.info.get("extras"):
        return []  # one extra action per extra bought and not yet taken
    return [f"{verb} {a}" for a in t.plans.playable if t.game._can_perform(a, False)]


def _refresh_row(t: _TurnView, verb: str) -> list[str]:
    out, paid, plans, zones, specs = [], t.paid, t.plans, t.state.zones, t.rules.tables.layout.rows
    for kind, costs in plans.refresh_costs:
        options = tuple([n for n, cost in costs
                         if cost is None or (paid >> cost[0] & 1 if cost[0] is not None else t.pays(cost))])
        if options:
            out += plans.refreshes(zones, specs[kind], options, verb)
    return out


def _resolve_waiting(t: _TurnView, verb: str) -> list[str]:
    later = t.info.get("later")
    return sorted({f"{verb} {e['label']}" for e in later}) if later else []


def _claim(t: _TurnView, verb: str) -> list[str]:
    s, right = t.state, t.rules.claim_right
    if right is None or s.players[s.current].holdings.get(right, 0) < 1:
        return []
    claimed = set(s.table.get("claimed", {}).values())
    return [f"{verb} {rid}" for rid, cost in t.plans.claims if rid not in claimed and t.pays(cost)]


def _take_offer(t: _TurnView, verb: str) -> list[str]:
    if t.info.get("tile") is not None:
        return []
    takes, take_costs, paid = [], t.plans.take_costs, t.paid
    for pos, tile in wheel.tiles_in_order(t.state.table[t.rules.wheel_key]):
        price = take_costs[pos]
        if price is None or (paid >> price[0] & 1 if price[0] is not None else t.pays(price)):
            takes.append((pos, tile))
    return sorted([f"{verb} {tile}" for tile in t.game._performable_tiles(takes)])


def _use_once(t: _TurnView, verb: str) -> list[str]:
    plans, s = t.plans, t.state
    if not plans.one_shot_kinds:
        return []
    owned, uses = s.players[s.current].owned, []
    for kind in plans.one_shot_kinds:  # any owned record marked single-use, whatever its kind
        for rid in owned.get(kind, ()):
            use = plans.one_shot.get(rid)
            if use and (use[1] or t.game._completes(f"{verb} {rid}")):
                uses.append(f"{verb} {rid}")
    return sorted(uses) if uses else uses


def _discard_over_limit(t: _TurnView, verb: str) -> list[str]:
    return []  # offered only while the turn's end waits for a discard (LegalActions._legal_actions)


_OFFER_ACTIONS = {
    "take_offer": _take_offer, "main_action": _main_action, "offer_bonus": _offer_bonus,
    "buy_extra_action": _buy_extra_action, "extra_action": _extra_action, "refresh_row": _refresh_row,
    "claim": _claim, "use_once": _use_once, "resolve_waiting": _resolve_waiting, "anytime": _anytime,
    "discard_over_limit": _discard_over_limit, "end_turn": _end_turn,
}


def offer_maker(offer: str) -> tuple:
    """What makes the actions of a turn offer (a name of content/turn_offers.py), and the turn
    record's keys it needs set and that block it (None: no such key): the first test it makes."""
    return (_OFFER_ACTIONS[offer], *_OFFER_GATES.get(offer, (None, None)))


# offer -> (a key of the turn record it offers nothing without, one it offers nothing with)
_OFFER_GATES = {
    "take_offer": (None, "tile"), "main_action": ("tile", "main_done"), "offer_bonus": ("bonus_key", "bonus_used"),
    "extra_action": ("extras", None),  # the extra actions bought and not yet taken (turn.py counts them)
    "resolve_waiting": ("later", None), "end_turn": ("tile", None),
    "discard_over_limit": ("discarding", None),  # offered apart, while the end of the turn waits for it
}
