"""The game engine: setup, the free-order turn as a menu of legal actions, end of turn, final scoring.

OpenSpiel-shaped API: ``new_game`` -> ``Game`` with ``current_player``, ``legal_actions``
(sorted strings in the notation below), ``apply`` (a transaction: an illegal action raises
``IllegalActionError`` and changes nothing), ``is_terminal``, ``scores``, ``clone``,
``to_json``/``from_json`` and ``observation``. Chance comes from a seeded RNG kept in the state.

Notation, one line per action:
  take <tile>        take an action tile from the crane (its cost paid first)
  act <action>       perform an action of the taken tile as the main action
  bonus              use the taken tile's wheel bonus now
  refresh <kind> <i>,<j> pay <n>
                     refresh a row (once per turn): positions i and j, payment option n
  buy extra <n>      buy the extra action with payment option n (1-based)
  extra <action>     perform the bought extra action
  seal <seal>        claim a seal with a seal right
  use <record>       use a single-use record you own (e.g. a level III or IV technology)
  choose <n>         answer the pending decision with option n (1-based)
  pick <tile>        take a tile from its row (after an action that builds)
  place <tile> at <where> rot <r>
                     place the picked tile: "q,r" on the player's area or a map site id
  plank <plank>      lay a kept tile on an empty plank space
  resolve <item>     resolve now an effect that may wait until the end of the turn (`later:`)
  do <action>        an any-time action of the setup (e.g. buying a move on a grid)
  discard <resource> discard one item of the carry group at the end of the turn
  end                end the turn

Board statements (`build`, `move`, `perform`, `place`, `later`) run as mechanisms.py's native
frames; an action is offered only if some way of carrying it out exists (OPEN-28).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from functools import cached_property

from interpreter.runtime.mechanisms import wheel as crane
from interpreter.dsl import steps as S
from interpreter.runtime import maximise
from interpreter.runtime.mechanisms import natives as mechanisms
from interpreter.runtime.mechanisms import market_rows as rows
from interpreter.runtime import schedule
from interpreter.runtime.machine import Machine
from interpreter.runtime.tables import Tables, build_tables
from interpreter.runtime.view import View
from interpreter.errors import IllegalActionError, RulesError, RunawayError
from interpreter.runtime.fallible import Fallibility
from interpreter.runtime.prices import PriceBook
from interpreter.runtime.state import Frame, GameState, PlayerState

WHEEL_BONUS = "wheel_bonus"  # the source the taken tile's wheel bonus scores under

# Statements the effect machine runs without help from board mechanisms.
_MACHINE_OPS = {"gain", "pay", "score", "advance", "produce", "block", "choose", "may", "may_pay", "if", "repeat",
                "grant", "draw", "use", *mechanisms.OPS}


def _ops(steps) -> set[str]:
    return {step.op for step in S.walk(steps)}


@dataclass(frozen=True)
class Rules:
    """Everything the engine needs for one player count, compiled once from a Ruleset."""

    ruleset: object
    players: int

    @cached_property
    def tables(self) -> Tables:
        memo = self.ruleset.memo
        if "tables" not in memo:  # the same for every player count
            memo["tables"] = build_tables(self.ruleset)
        return memo["tables"]

    @cached_property
    def machine(self) -> Machine:
        return Machine(self.tables, dict(mechanisms.OPS), dict(mechanisms.NATIVES))

    @cached_property
    def geometry(self) -> crane.CraneGeometry:
        return crane.build_geometry(self.ruleset.single("crane"))

    @cached_property
    def setup(self):
        return self.ruleset.single("setup")

    @cached_property
    def schedule(self) -> schedule.Schedule:
        return schedule.build_schedule(self.setup, self.players)

    @cached_property
    def tile_actions(self) -> dict[str, tuple[str, ...]]:
        model = self.ruleset.single("crane")
        return {t.id: tuple(getattr(t, model.side).actions) for t in model.tiles}

    @cached_property
    def dummy_seats(self) -> tuple[bool, ...]:
        """Per seat index: played by the rulebook's automatic dummy (R-SOLO-2)."""
        return tuple(schedule.is_dummy_seat(self.schedule, seat + 1) for seat in range(self.schedule.seats))

    @cached_property
    def face_up(self) -> frozenset[str]:
        return frozenset(s.id for s in self.ruleset.single("pack").stacks if s.face == "up")

    @cached_property
    def fallibility(self) -> Fallibility:
        stacks = deal_stacks(self, random.Random(0))  # what each stack may hold; the order does not matter
        return Fallibility(self.tables, {sid: set(ids) for sid, ids in stacks.items()})

    @cached_property
    def stack_plan(self) -> "_StackPlan":
        return _stack_plan(self)

    @cached_property
    def offers(self) -> "_Offers":
        return _Offers.build(self)

    def action_key(self, action: str) -> str:
        return f"pack/actions/{action}/effect"

    def runnable(self, key: str) -> bool:
        return _ops(self.tables.programs[key].steps) <= _MACHINE_OPS

    @cached_property
    def playable_actions(self) -> tuple[str, ...]:
        return tuple(a.id for a in self.ruleset.single("pack").actions if self.runnable(self.action_key(a.id)))


def rules_for(ruleset, players: int) -> Rules:
    """The compiled rules of a ruleset for a player count, built once and shared by every game of it
    (the tables are read-only while games run)."""
    key = ("rules", players)
    rules = ruleset.memo.get(key)
    if rules is None:
        rules = ruleset.memo[key] = Rules(ruleset, players)
    return rules


class Game:
    def __init__(self, rules: Rules, state: GameState):
        self.rules, self.state = rules, state
        self._legal: tuple[GameState, int, list[str]] | None = None  # legal actions of the current state
        self._tried: dict[str, GameState] = {}  # action -> the state it led to while checking it (reused by apply)

    def invalidate(self) -> None:
        """Forget cached legal actions; call after editing ``state`` by hand (scenario setups do)."""
        self._legal = None
        self._tried = {}

    # ------------------------------------------------------------ API
    @property
    def current_player(self) -> int:
        """Seat index (0-based) of the player who acts next; -1 when the game is over."""
        if self.is_terminal():
            return -1
        if self.state.decision is not None:
            return self.state.decision.player
        return self.state.current

    def is_terminal(self) -> bool:
        return bool(self.state.table.get("over"))

    def legal_actions(self) -> list[str]:
        return list(self._legal_now())  # the caller's own list

    def _legal_now(self) -> list[str]:
        """The legal actions of the current state, worked out once (not to be changed)."""
        cached = self._legal
        if cached is not None and cached[0] is self.state and cached[1] == len(self.state.log):
            return cached[2]
        self._tried = {}
        legal = self._legal_actions()
        self._legal = (self.state, len(self.state.log), legal)
        return legal

    def _legal_actions(self) -> list[str]:
        if self.state.table.get("over"):
            return []
        s, info = self.state, self.state.turn_info
        if s.decision is not None:
            d = s.decision
            if d.kind in _NAMED:  # placements are generated legal; picks and planks are few, so try them
                acts = [f"{d.kind} {o}" for o in d.options]
                if d.kind == "place" or (d.kind == "plank" and self.rules.fallibility.planks_sure(s)):
                    return sorted(acts)
                sure = _sure_picks(self.rules, s)
                return sorted(a for o, a in zip(d.options, acts) if o in sure or self._completes(a))
            sure = self.rules.fallibility.answers(s)  # answers that cannot fail need no try
            return [a for i, a in enumerate(f"choose {i + 1}" for i in range(len(d.options))) if sure[i] or self._completes(a)]
        if info.get("discarding"):
            return sorted(f"discard {r}" for r in self._carry_group() if self._player.holdings.get(r, 0) > 0)
        return self._turn_actions()

    def _turn_actions(self) -> list[str]:
        """What the player whose turn it is may do with no decision pending (R-TURN-*), sorted: the groups
        are made in the order of their first words (act, bonus, buy, do, end, extra, refresh, resolve, seal,
        take, use), each in order, so no sort of the whole list is needed."""
        s, info, rules, plans = self.state, self.state.turn_info, self.rules, self.rules.offers
        machine = rules.machine
        player = s.players[s.current]
        paid = plans.book.payable(player.holdings)  # the constant prices, all at once
        view = None

        def pays(price) -> bool:  # price: None (free) or (bit of a constant price, or None; compiled amounts)
            nonlocal view
            if price is None:
                return True
            if price[0] is not None:
                return paid >> price[0] & 1
            if view is None:
                view = View(rules.tables, s, s.current, _frame(s.current))
            return machine._can_pay(view, price[1])

        out: list[str] = []
        taken = info.get("tile")
        main_open = taken is not None and not info.get("main_done")
        if main_open:
            out += [f"act {a}" for a in plans.tile_actions.get(taken, ()) if self._can_perform(a, True)]
        acts = len(out)
        if taken is not None and info.get("bonus_key") and not info.get("bonus_used") and self._bonus_payable(info["bonus_key"]):
            out.append("bonus")  # an optional purchase waits until it can be paid (EX-1)
        if not info.get("extra_bought"):
            out += [label for label, cost in plans.extra_costs if pays(cost)]
        for name, key, sure, entry in plans.anytime:
            if entry is not None and not paid >> entry & 1:
                continue  # its first statement's own price cannot be paid
            if not mechanisms.cannot_start(machine, s, s.current, key) and (sure or self._completes(f"do {name}")):
                out.append(f"do {name}")
        if taken is not None and not (main_open and acts):
            out.append("end")
        if info.get("extra_bought") and not info.get("extra_done"):
            out += [f"extra {a}" for a in plans.playable if self._can_perform(a, False)]
        if not info.get("refreshed"):
            table_rows = s.table["rows"]
            for kind, costs in plans.refresh_costs:
                options = tuple([n for n, cost in costs if pays(cost)])
                if options:
                    out += plans.refreshes(table_rows, kind, options)
        later = info.get("later")
        if later:
            out += sorted({f"resolve {e['label']}" for e in later})
        right = rules.setup.seal_right
        if right is not None and player.holdings.get(right, 0) >= 1:
            claimed = set(s.table.get("claimed", {}).values())
            out += [f"seal {rid}" for rid, cost in plans.seals if rid not in claimed and pays(cost)]
        if taken is None:
            takes = []
            for pos, tile in crane.tiles_in_order(s.table["crane"]):
                price = plans.take_costs[pos]
                if price is None or (paid >> price[0] & 1 if price[0] is not None else pays(price)):
                    takes.append((pos, tile))
            out += sorted("take " + tile for tile in self._performable_tiles(takes))
        owned, uses = player.owned, []
        for kind in plans.one_shot_kinds:  # any owned record marked single-use, whatever its kind
            for rid in owned.get(kind, ()):
                use = plans.one_shot.get(rid)
                if use and (use[1] or self._completes(f"use {rid}")):
                    uses.append(f"use {rid}")
        if uses:
            out += sorted(uses)
        return out

    def _performable_tiles(self, takes: list[tuple[int, str]]) -> list[str]:
        """R-TURN-6, OPEN-28: the main action must be performed, so of the tiles the player can pay for,
        those offering an action that can be performed once taken; when none does, all of them (the turn
        then ends without a main action)."""
        verdicts: dict = {}  # (price paid, action) -> performable after the take, when known without a try
        afters: dict = {}  # price paid -> this game with it paid
        tiles = [tile for pos, tile in takes if self._tile_performable(pos, tile, verdicts, afters)]
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
                    after = afters.get(paid) or afters.setdefault(paid, self._after_payment(paid))
                    verdict = verdicts[(paid, a)] = after._perform_verdict(a, True)
                if verdict:
                    return True
                known = known and verdict is not None
        taken = self._taken(tile)
        if taken is None:
            return False
        if not known and (taken.state.decision is not None or any(taken._can_perform(a, True) for a in actions)):
            return True
        # using the tile's wheel bonus first may make an action performable (the resource a build lacks)
        if not taken.state.turn_info.get("bonus_key") or "bonus" not in taken._legal_now():
            return False
        try:
            bonus = taken.child("bonus")
        except IllegalActionError:
            return False
        if bonus.state.decision is not None:
            return any(a.startswith("act ") for a in _completions(bonus))
        return any(bonus._can_perform(a, True) for a in actions)

    def _take_payment(self, pos: int, tile: str) -> tuple | None:
        """What taking the tile at a crane position changes for its taker when that is only a constant price
        (((resource, n), ...), () when free); None when it may set off more (points someone listens to)."""
        geometry, machine, s = self.rules.geometry, self.rules.machine, self.state
        if (geometry.points[pos] or tile in s.table["crane"]["flagged"]) and machine.listens(s, s.current, "action_tile_scored"):
            return None
        key = geometry.cost_keys[pos]
        return machine.constant(self.rules.tables.programs[key]) if key else ()

    def _after_payment(self, paid: tuple) -> "Game":
        if not paid:
            return self
        work = self.state.clone()
        holdings = work.player(work.current).holdings
        for r, n in paid:
            holdings[r] = holdings.get(r, 0) - n
        return Game(self.rules, work)

    def _taken(self, tile: str) -> "Game | None":
        """The game after taking a tile, kept for ``apply``; None when the rules refuse the take."""
        action = "take " + tile
        work = self._tried.get(action)
        if work is None:
            work = self.state.clone()
            try:
                _Turn(self.rules, work).apply(action)
            except RunawayError:
                raise  # content that loops is reported, not hidden as a refused take
            except RulesError:
                return None
            self._tried[action] = work
        return Game(self.rules, work)  # only read, or copied before a try

    def _can_perform(self, action: str, main: bool) -> bool:
        """Whether an action can be performed now, without a try when the program tells (see
        ``_perform_verdict``); else a try on a copy."""
        verdict = self._perform_verdict(action, main)
        if verdict is not None:
            return verdict
        return self._completes(f"{'act' if main else 'extra'} {action}")

    def _perform_verdict(self, action: str, main: bool) -> bool | None:
        """Whether an action can be performed now, when that is known without a try: a build by its row
        (no tile to take, or a tile surely placed), another program by a cheap exact rejection of a first
        statement that cannot be made, then by what cannot fail (see fallible.py); None when unknown."""
        if action in self.rules.offers.always_performable:
            return True
        key, sure, builds = self.rules.offers.actions[action]
        event = {"action": action, "main": main, "discount": {}, "with": []}
        s = self.state
        machine, fall = self.rules.machine, self.rules.fallibility
        if builds:
            outlook = mechanisms.build_outlook(machine, fall, s, s.current, key, event)
            if outlook is not None:
                return outlook
        elif mechanisms.cannot_start(machine, s, s.current, key, event):
            return False
        elif sure or fall.sure(s, s.current, self.rules.tables.programs[key].steps):
            return True
        return None

    def _bonus_payable(self, key: str) -> bool:
        """A bonus that opens with an optional payment is offered only once it can be paid
        (using it earlier would skip the payment and use the bonus up)."""
        steps = self.rules.tables.programs[key].steps
        if steps and type(steps[0]) is S.MayPay:
            view = self.rules.machine._view(self.state, _frame(self.state.current))
            if not self.rules.machine._can_pay(view, steps[0].cost):
                return False
        # a bonus that cannot be carried out (a payment nobody can make) is not offered (OPEN-28)
        return _bonus_can_run(self.rules, self.state, key) and (
            self.rules.fallibility.sure(self.state, self.state.current, steps) or self._completes("bonus"))

    def _completes(self, action: str) -> bool:
        """Offer only what can be carried out (OPEN-28): try it on a copy of the state, and through the
        choices it leads to until one way of finishing it is found (a tile whose reward cannot be
        taken is no choice). The search stops trusting the rest after a fixed number of tries."""
        return _finishes(self.rules, self.state, action, [_SEARCH_BUDGET], self._tried)

    def apply(self, action: str) -> None:
        """Apply one action as a transaction: on any rules violation nothing changes."""
        legal = self._legal_now()
        if action not in legal:
            raise IllegalActionError(action, self._why_not(action, legal))
        work = self._tried.pop(action, None) or self._applied(action)  # checked ones were applied to a copy
        work.log.append(action)
        self.state = work
        self._tried = {}

    def _applied(self, action: str) -> GameState:
        """A copy of the state with the action applied; raises IllegalActionError if the rules refuse it."""
        work = self.state.clone()
        try:
            _Turn(self.rules, work).apply(action)
        except RunawayError:
            raise  # content that loops is no illegal choice
        except RulesError as exc:
            raise IllegalActionError(action, str(exc)) from None
        return work

    def _why_not(self, action: str, legal: list[str]) -> str:
        """The rules' own reason when trying the action fails, else the list of what is legal."""
        try:
            _Turn(self.rules, self.state.clone()).apply(action)
        except (RulesError, ValueError, KeyError, IndexError, TypeError) as exc:
            if isinstance(exc, RulesError):
                return f"{exc}; legal now: " + ", ".join(legal[:12])
        return "not among the legal actions now: " + ", ".join(legal[:12])

    def scores(self) -> list[dict]:
        return [{"seat": p.seat + 1, "score": p.score, "breakdown": dict(sorted(p.breakdown.items()))}
                for p in self.state.players if not schedule.is_dummy_seat(self.rules.schedule, p.seat + 1)]

    def solo_verdict(self) -> dict | None:
        """In a solo game: the score against the rulebook's target and its title ladder (R-SOLO-5)."""
        solo = self.rules.ruleset.single("solo")
        if self.rules.players != 1 or solo is None:
            return None
        score = self.scores()[0]["score"]
        title = max((r for r in solo.ladder if r.min <= score), key=lambda r: r.min, default=None)
        return {"score": score, "good_score": solo.good_score, "good": score > solo.good_score,
                "title": title.title if title else None}

    def winner(self) -> int | None:
        """Seat (1-based) of the winner once the game is over; None in solo (R-TIE-3) or before the end."""
        if not self.is_terminal():
            return None
        return winner_of([s["score"] for s in self.scores()])

    def clone(self) -> "Game":
        return Game(self.rules, self.state.clone())

    def child(self, action: str) -> "Game":
        """The game after an action taken from ``legal_actions()``, leaving this one as it is. For search:
        it skips re-checking that the action is legal (an action that fails still raises)."""
        work = self._applied(action)
        work.log.append(action)
        return Game(self.rules, work)

    def determinized(self, seat: int, rng: random.Random) -> "Game":
        """A copy in which every face-down stack is reshuffled: what ``seat`` may believe the game is,
        for search that must not read hidden information."""
        g = self.clone()
        face_up = self.rules.face_up
        stacks = g.state.stacks
        for sid in stacks:
            if sid not in face_up:
                stacks[sid] = stack = list(stacks[sid])  # a new list: the stacks are shared with this game's
                rng.shuffle(stack)
        return g

    def is_dummy(self, seat: int) -> bool:
        flags = self.rules.dummy_seats
        return flags[seat] if 0 <= seat < len(flags) else seat >= len(flags)

    def to_json(self) -> str:
        return json.dumps({"pack": self.rules.ruleset.pack_id, "players": self.rules.players,
                           "variants": list(self.rules.ruleset.variants), "state": json.loads(self.state.to_json())},
                          sort_keys=True)

    @staticmethod
    def from_json(ruleset, text: str) -> "Game":
        data = json.loads(text)
        return Game(rules_for(ruleset, data["players"]), GameState.from_json(json.dumps(data["state"])))

    def observation(self, player: int) -> dict:
        """What a player may see: face-down stacks show only their size; the RNG is hidden."""
        data = json.loads(self.state.to_json())
        face_up = {s.id for s in self.rules.ruleset.single("pack").stacks if s.face == "up"}
        data["stacks"] = {k: (v if k in face_up else len(v)) for k, v in data["stacks"].items()}
        data.pop("rng", None)
        d = data.get("decision")
        if d and d["player"] != player and d["kind"] == "keep":
            data["decision"] = {"player": d["player"], "kind": d["kind"], "options": len(d["options"])}
        return data

    # ------------------------------------------------------------ helpers
    @property
    def _player(self) -> PlayerState:
        return self.state.players[self.state.current]

    def _carry_group(self) -> tuple[str, ...]:
        return self.rules.tables.groups.get(self.rules.setup.carry_group, ())


@dataclass(frozen=True)
class _Offers:
    """What the turn's actions are made of, looked up once per ruleset and player count: the compiled
    costs of taking a tile, refreshing a row, buying the extra action and claiming a seal; each action's
    program and whether it can be performed without a try; the single-use records; the any-time actions.
    The groups the turn's offers are made from are kept sorted (tile actions, extra costs by label, seals,
    any-time actions by name, refresh actions), so that _turn_actions lists them in order without a sort."""

    # A price is None when free, else (its bit in `book` when constant, else None; the compiled amounts).
    book: PriceBook
    take_costs: tuple  # crane position -> price
    refresh_costs: tuple  # (row kind, ((n, price), ...)), in the order of the kinds' names
    extra_costs: tuple  # ("buy extra n", price)
    refresh_price: dict  # (row kind, "n" as in the action) -> price, or () when free
    seals: tuple  # (seal id, price)
    tile_actions: dict  # action tile -> the playable actions it shows
    tile_actions_cheap_first: dict  # the same, builds last (they are the dearest to judge)
    always_performable: frozenset  # actions whose first statement always starts and that then surely finish
    actions: dict  # action -> (program key, sure to finish once its first statement can be made, opens with a build)
    one_shot: dict  # single-use record id -> (its effect's program key, sure to finish)
    one_shot_kinds: tuple  # the record kinds that have single-use records
    # (name, program key, sure to finish once started, bit of the constant price its first statement
    # needs in any case (a payment, an up move's own price) or None)
    anytime: tuple
    playable: tuple  # the actions a program can perform (Rules.playable_actions), sorted
    # (id of a row, pays) -> (the row, actions); (kind, which positions hold a tile, pays) -> actions
    _refreshes: dict = field(default_factory=dict, compare=False)

    def refreshes(self, table_rows: dict, kind: str, pays: tuple) -> list[str]:
        """The refresh actions of a row (its tiles decide the pairs), sorted. Remembered by the row itself:
        a row is replaced when it changes, and the memo holds the row, so its id is not reused meanwhile."""
        row = table_rows[kind]
        hit = self._refreshes.get((id(row), pays))
        if hit is None or hit[0] is not row:
            if len(self._refreshes) > 4096:
                self._refreshes.clear()
            # the actions depend only on which positions hold a tile
            shape = (kind, tuple([t is not None for t in row["regular"]]), tuple([t is not None for t in row["special"]]), pays)
            out = self._refreshes.get(shape)
            if out is None:
                out = self._refreshes[shape] = sorted(
                    f"refresh {kind} {a},{b} pay {n}" for a, b in rows.refresh_choices(table_rows, kind) for n in pays)
            hit = self._refreshes[(id(row), pays)] = (row, out)
        return hit[1]

    @staticmethod
    def build(rules: Rules) -> "_Offers":
        t, fall, setup, playable = rules.tables, rules.fallibility, rules.setup, set(rules.playable_actions)
        progs, book = t.programs, PriceBook()

        def price(key: str | None):
            return None if key is None else (book.bit(progs[key]), progs[key])

        take = tuple(price(k) for k in rules.geometry.cost_keys)
        refresh = tuple(sorted(((row.kind, tuple((n + 1, price(f"setup/rows/{ri}/refresh_cost/{n}"))
                                                 for n in range(len(row.refresh_cost))))
                                for ri, row in enumerate(setup.rows)), key=lambda e: e[0]))
        extra = tuple(sorted(((f"buy extra {i + 1}", price(f"setup/extra_action_costs/{i}"))
                              for i in range(len(setup.extra_action_costs))), key=lambda e: e[0]))
        seals = tuple(sorted((rid, price(t.keys.get(("seal", rid, "cost")))) for (kind, rid) in t.records if kind == "seal"))
        tiles = {tile: tuple(sorted(a for a in acts if a in playable)) for tile, acts in rules.tile_actions.items()}
        actions = {a: (k, fall.safe_once_started(k), bool(progs[k].steps) and type(progs[k].steps[0]) is S.Build)
                   for a in rules.playable_actions for k in [rules.action_key(a)]}
        one_shot = {rid: (key, fall.safe(progs[key].steps)) for (kind, rid), rec in t.records.items()
                    if getattr(rec, "use", None) == "one_shot" and (key := t.keys.get((kind, rid, "effect")))
                    and rules.runnable(key)}
        one_shot_kinds = tuple(sorted({t.kind_of[rid] for rid in one_shot}))
        anytime = tuple((name, key, fall.safe_once_started(key), _entry_price(t, book, key))
                        for name, key in sorted(t.layout.anytime.items()))
        refresh_price = {(kind, str(n)): price or () for kind, costs in refresh for n, price in costs}
        cheap_first = {tile: tuple(sorted(acts, key=lambda a: actions[a][2])) for tile, acts in tiles.items()}
        # mechanisms.cannot_start judges only these first statements; any other always starts
        always = frozenset(a for a, (k, sure, _) in actions.items()
                           if sure and progs[k].steps and type(progs[k].steps[0]) not in mechanisms.STARTS_THAT_CAN_FAIL)
        return _Offers(book, take, refresh, extra, refresh_price, seals, tiles, cheap_first, always, actions, one_shot,
                       one_shot_kinds, anytime, tuple(sorted(rules.playable_actions)))


def _entry_price(t: Tables, book: PriceBook, key: str) -> int | None:
    """The bit of a constant price a program's first statement needs whatever the state: a payment, or
    an up move's own price (a move with modifiers may be discounted, so it has none)."""
    steps = t.programs[key].steps
    if not steps:
        return None
    first = steps[0]
    if type(first) is S.Pay:
        return book.bit(first.amounts)
    if type(first) is S.Move and first.direction == "up" and first.steps is None and not first.modifiers:
        up = t.layout.grids[first.grid].up_cost
        return book.bit(t.programs[up]) if up else None
    return None


_NAMED = ("pick", "place", "plank")  # decisions answered by naming the option, not by its number
_UNJUDGED = object()  # a verdict not worked out yet
_SEARCH_BUDGET = 40  # tries per completeness check before the remaining choices are trusted


def _finishes(rules: Rules, state: GameState, action: str, budget: list[int], keep: dict | None = None) -> bool:
    work = state.clone()
    try:
        _Turn(rules, work).apply(action)
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
    if any(rules.fallibility.answers(work)) if d.kind not in _NAMED else (d.kind == "pick" and _sure_picks(rules, work)):
        return True  # an answer that cannot fail finishes it
    answers = [f"{d.kind} {o}" for o in d.options] if d.kind in _NAMED else [f"choose {i + 1}" for i in range(len(d.options))]
    return any(_finishes(rules, work, a, budget) for a in answers)


def _completions(game: Game) -> list[str]:
    """The legal actions once a pending decision is answered, each way it can be (for a bonus's choice)."""
    out = []
    for answer in game.legal_actions():
        after = game.child(answer)
        out += after.legal_actions() if after.state.decision is None else _completions(after)
    return out


def _sure_picks(rules: Rules, state: GameState) -> set[str]:
    """The tiles of a pending pick that surely reach their placement (mechanisms.sure_picks)."""
    frame = state.frames[-1] if state.frames else None
    if frame is None or frame.key != mechanisms.BUILD or frame.event.get("phase") != "pick":
        return set()
    return set(mechanisms.sure_picks(rules.machine, rules.fallibility, state, frame, state.decision.options))


def winner_of(scores: list[int]) -> int | None:
    """Most points wins; among tied players the one latest in seat order (R-TIE-1, R-TIE-2). Seats from 1."""
    if len(scores) < 2:
        return None
    best = max(scores)
    return max(i for i, s in enumerate(scores, 1) if s == best)


def _frame(player: int) -> Frame:
    """A frame that only names the acting player, for paying and reading outside a program."""
    return Frame("", [], 0, player, "")


def _bonus_can_run(rules: Rules, state: GameState, key: str, tried: bool = False) -> bool:
    """Whether the wheel bonus can be started now; ``tried``: and carried out to its end or a decision
    (tried on a copy unless surely fine). One that cannot lapses unused at the end of the turn."""
    if mechanisms.cannot_start(rules.machine, state, state.current, key):
        return False
    if not tried or rules.fallibility.sure(state, state.current, rules.tables.programs[key].steps):
        return True
    work = state.clone()
    try:
        _Turn(rules, work)._run_bonus()
    except RunawayError:
        raise
    except RulesError:
        return False
    return True


class _Turn:
    """Applies one action to a working copy of the state."""

    def __init__(self, rules: Rules, state: GameState):
        self.r, self.s = rules, state
        self.m = rules.machine

    @property
    def p(self) -> PlayerState:
        return self.s.player(self.s.current)

    def apply(self, action: str) -> None:
        verb, _, arg = action.partition(" ")
        how = _VERBS.get(verb)
        if how is None:
            raise RulesError(f"unknown action {action!r}")
        how(self, arg, action)

    def _choose(self, arg: str, action: str) -> None:
        self.m.answer(self.s, int(arg) - 1)
        self._settle()  # a decision may have been the last thing an ending turn waited for

    def _named(self, arg: str, action: str) -> None:
        d = self.s.decision
        if d is None or d.kind != action.partition(" ")[0] or arg not in d.options:
            raise RulesError(f"no pending choice offers `{action}`")
        self.m.answer(self.s, d.options.index(arg))
        self._settle()

    def _take_verb(self, arg: str, action: str) -> None:
        self._take(arg)

    def _perform(self, arg: str, action: str) -> None:
        info, main = self.s.turn_info, action.startswith("act ")
        if main and info.get("tile") is None:
            raise RulesError("take an action tile first")
        if main and arg not in self.r.tile_actions.get(info["tile"], ()):
            raise RulesError(f"the action tile {info['tile']} does not show {arg}")
        info["main_done" if main else "extra_done"] = True
        self.s.frames.append(mechanisms.start_performance(self.s.current, arg, main=main))
        self.m.run(self.s)

    def _resolve(self, arg: str, action: str) -> None:
        info = self.s.turn_info
        entries = info.get("later", [])
        at = next((i for i, e in enumerate(entries) if e["label"] == arg), None)
        if at is None:
            raise RulesError(f"nothing named {arg} waits to be resolved")
        entry = entries[at]
        info["later"] = entries[:at] + entries[at + 1:]  # a new list: copies of the state share the old one
        self.s.frames.append(mechanisms.later_frame(entry))
        self.m.run(self.s)

    def _do(self, arg: str, action: str) -> None:
        key = self.r.tables.layout.anytime.get(arg)
        if key is None:
            raise RulesError(f"unknown action {action!r}")
        self._run(key, arg)

    def _bonus(self, arg: str, action: str) -> None:
        if arg:
            raise RulesError(f"unknown action {action!r}")
        self.s.turn_info["bonus_used"] = True
        self._run_bonus()

    def _buy(self, arg: str, action: str) -> None:
        what, _, n = arg.partition(" ")
        if what != "extra" or not n.isdigit():
            raise RulesError(f"unknown action {action!r}")
        self.m._pay(self.s, _frame(self.s.current), self.r.tables.programs[f"setup/extra_action_costs/{int(n) - 1}"])
        self.s.turn_info["extra_bought"] = True

    def _refresh(self, arg: str, action: str) -> None:
        kind, pair, _, pay = arg.split()
        price = self.r.offers.refresh_price.get((kind, pay))
        if price is None:
            raise RulesError(f"no refresh of a {kind} row for price {pay}")
        if price:
            self.m._pay(self.s, _frame(self.s.current), price[1])
        a, b = (int(x) for x in pair.split(","))
        self.s.table["rows"] = rows.refresh(self.s.table["rows"], self.s.stacks, kind, (a, b), self.s.table.get("era", 1))
        self.s.turn_info["refreshed"] = True

    def _seal(self, arg: str, action: str) -> None:
        key = self.r.tables.keys.get(("seal", arg, "cost"))
        if key:
            self.m._pay(self.s, _frame(self.s.current), self.r.tables.programs[key])
        self.p.holdings[self.r.setup.seal_right] -= 1
        self.p.owned["seal"] = [*self.p.owned.get("seal", ()), arg]
        self.s.table["claimed"] = {**self.s.table.get("claimed", {}), f"{self.s.current}:{arg}": arg}

    def _use(self, arg: str, action: str) -> None:
        kind = self.r.tables.kind_of[arg]
        ids = list(self.p.owned[kind])  # a new list: copies of the state share the old one
        ids.remove(arg)  # used up (R-TECH-5)
        self.p.owned[kind] = ids
        self._run(self.r.tables.keys[(kind, arg, "effect")], arg, (kind, arg))

    def _discard(self, arg: str, action: str) -> None:
        self.p.holdings[arg] -= 1
        self._end_turn()

    def _end(self, arg: str, action: str) -> None:
        if arg:
            raise RulesError(f"unknown action {action!r}")
        self._end_turn()

    # ------------------------------------------------------------ pieces of a turn
    def _run(self, key: str, source: str, this=None) -> None:
        self.m.start(self.s, key, self.s.current, source, this)
        self.m.run(self.s)

    def _run_bonus(self) -> None:
        """Run the wheel bonus; what it gives fires `wheel_bonus_gained` per resource (T-I-1)."""
        before = dict(self.s.players[self.s.current].holdings)  # read only: no copy of a shared player
        points = self._wheel_points()
        self._run(self.s.turn_info["bonus_key"], WHEEL_BONUS)
        if self.s.decision is None:
            for r, n in sorted(self.s.players[self.s.current].holdings.items()):
                if n > before.get(r, 0):
                    self.m.emit(self.s, self.s.current, "wheel_bonus_gained", {"resource": r, "amount": n - before.get(r, 0)})
            self._emit_tile_points(self._wheel_points() - points)
            self.m.run(self.s)

    def _wheel_points(self) -> int:
        return self.s.players[self.s.current].breakdown.get(WHEEL_BONUS, 0)

    def _emit_tile_points(self, points: int) -> None:
        """Points the taken tile's wheel bonus scored count as points from taking the tile (T-I-4)."""
        if points > 0:
            self.m.emit(self.s, self.s.current, "action_tile_scored", {"points": points})

    def _settle(self) -> None:
        """After a decision or an effect: continue an end of turn that was waiting for it."""
        if self.s.decision is None and not self.s.frames and self.s.turn_info.get("ending"):
            self._end_turn()

    def _take(self, tile: str) -> None:
        g = self.r.geometry
        state, info = crane.take(g, crane.from_json(self.s.table["crane"]), tile)
        if info.cost_key:
            self.m._pay(self.s, _frame(self.s.current), self.r.tables.programs[info.cost_key])
        points = info.points + info.flag_points
        if points:
            if info.points:
                self.p.add_points(info.points, "crane:position")
            if info.flag_points:
                self.p.add_points(info.flag_points, "crane:overflow")
            self.m.emit(self.s, self.s.current, "action_tile_scored", {"points": points})
        self.s.table["crane"] = crane.to_json(state)
        self.s.turn_info.update({"tile": tile, "bonus_key": info.bonus_key})
        self.m.run(self.s)

    def _end_turn(self) -> None:
        info = self.s.turn_info
        info["ending"] = True
        if info.get("bonus_key") and not info.get("bonus_used"):
            # An unused wheel bonus: free gains and rights apply now; optional purchases lapse (OPEN-29).
            info["bonus_used"] = True
            steps = self.r.tables.programs[info["bonus_key"]].steps
            if steps and type(steps[0]) not in S.OPTIONAL and _bonus_can_run(self.r, self.s, info["bonus_key"], True):
                self._run_bonus()
                if self.s.decision or self.s.frames:
                    return
        while info.get("later"):  # deferred effects nobody resolved are resolved now (R-TIME-5, OPEN-30)
            entries = info.pop("later")
            self.s.frames.extend(mechanisms.later_frame(e) for e in reversed(entries))
            self.m.run(self.s)
            if self.s.decision or self.s.frames:
                return
        if not info.get("permits_expired"):
            info["permits_expired"] = True
            info["wheel_points"] = self._wheel_points()
            self.m.expire_permits(self.s, self.s.current)  # e.g. an unused special-tile right scores (R-ROW-4)
            self.m.run(self.s)
            if self.s.decision or self.s.frames:
                return
        if "wheel_points" in info:  # a lapsed wheel right that scored (its `or` fallback)
            self._emit_tile_points(self._wheel_points() - info.pop("wheel_points"))
            self.m.run(self.s)
            if self.s.decision or self.s.frames:
                return
        p = self.s.players[self.s.current]  # read after the effects above (a shared player is replaced when written)
        carry = sum(p.holdings.get(r, 0) for r in self.r.tables.groups.get(self.r.setup.carry_group, ()))
        if carry > self.r.setup.carry_limit:
            info["discarding"] = True  # R-WIN-3: the player chooses what to keep
            return
        cs = crane.end_of_turn(self.r.geometry, crane.from_json(self.s.table["crane"]), info["tile"])
        self.s.table["crane"] = crane.to_json(cs)
        self._next_turn()

    def _next_turn(self) -> None:
        sched = self.r.schedule
        while True:
            turn = self.s.turn
            if schedule.is_era_change(sched, turn):
                # the first era's rows and stacks leave the game; the next era's are dealt (R-ERA-2)
                old = self.s.table.get("era", 1)
                self.s.table["era"] = old + 1
                for row in self.r.setup.rows:
                    for q in rows.QUALITIES:
                        self.s.stacks.pop(rows.stack_key(row.kind, old, q), None)
                self.s.table["rows"] = rows.deal(self.s.stacks, self.r.setup.rows, old + 1)
            self.s.flags = [f for f in self.s.flags if not f.startswith("turn:")]
            self.s.turn_info = {}
            if schedule.is_last_turn(sched, turn):
                self._final_scoring()
                return
            self.s.turn = turn + 1
            seat = schedule.seat_of(sched, self.s.turn) - 1
            self.s.current = seat
            if not schedule.is_dummy_seat(sched, seat + 1):
                return
            # an automatic seat takes the tile farthest ahead and returns it (R-SOLO-2)
            cs = crane.from_json(self.s.table["crane"])
            tile = crane.dummy_choice(cs)
            cs, _ = crane.take(self.r.geometry, cs, tile)
            self.s.table["crane"] = crane.to_json(crane.end_of_turn(self.r.geometry, cs, tile))

    def _final_scoring(self) -> None:
        """R-SCORE-1..8 from content: every player completes a step before the next; each step's
        decisions (optional conversions) are answered for the most points (OPEN-42's automatic default)."""
        self.s.table["scoring"] = True
        for step in self.r.ruleset.single("scoring").final:
            key = f"scoring/final/{step.id}/effect"
            for seat, player in enumerate(self.s.players):
                if schedule.is_dummy_seat(self.r.schedule, seat + 1):
                    continue
                self.m.start(self.s, key, seat, step.id)
                self.m.run(self.s)
                maximise.answer_best(self.m, self.s)
        self.s.table["over"] = True



_VERBS = {  # an action's first word -> how _Turn applies it (every action is legal-checked before)
    "choose": _Turn._choose, "pick": _Turn._named, "place": _Turn._named, "plank": _Turn._named,
    "take": _Turn._take_verb, "act": _Turn._perform, "extra": _Turn._perform, "resolve": _Turn._resolve,
    "do": _Turn._do, "bonus": _Turn._bonus, "buy": _Turn._buy, "refresh": _Turn._refresh, "seal": _Turn._seal,
    "use": _Turn._use, "discard": _Turn._discard, "end": _Turn._end,
}

# --------------------------------------------------------------------------- setup


def new_game(ruleset, players: int, seed: int = 0, variants=()) -> Game:
    """A game for 1..N players, set up from content (R-SETUP-*) with a seeded RNG.

    ``variants`` are overlay files applied on top of the ruleset's own (the pack is reloaded).
    """
    if variants:
        from interpreter.content.ruleset import load_ruleset

        ruleset = load_ruleset(ruleset.root, (*ruleset.variants, *variants))
    pack = ruleset.single("pack")
    if not pack.players.min <= players <= pack.players.max:
        raise RulesError(f"this pack is for {pack.players.min}..{pack.players.max} players")
    rules = rules_for(ruleset, players)
    rng = random.Random(seed)
    sched = rules.schedule
    tables = rules.tables
    state = GameState(players=[])
    for seat in range(sched.seats):
        p = PlayerState(seat, pieces_free=dict(rules.setup.free_pieces))
        state.players.append(p)
    for seat, p in enumerate(state.players):
        view = View(tables, state, seat)
        p.holdings = {rid: fn(view, None) for rid, fn in tables.programs["setup/start_holdings"]}
        p.tracks = {tid: t.positions[0] for tid, t in tables.tracks.items()}
        for t in ruleset.single("tracks").tracks:
            p.tracks[t.id] = t.start
        p.grids = {gid: list(g.start) for gid, g in tables.grids.items()}
    stacks = deal_stacks(rules, rng)
    state.stacks = stacks
    state.table["rows"] = rows.deal(stacks, rules.setup.rows, 1)
    _setup_city(ruleset, state, players, rng)
    crane_model = ruleset.single("crane")
    state.table.update({"crane": crane.to_json(crane.setup(rules.geometry, players, crane_model.first_game_order)),
                        "era": 1, "seed": seed})
    state.rng = _rng_state(rng)
    return Game(rules, state)


def deal_stacks(rules: Rules, rng: random.Random) -> dict[str, list[str]]:
    """Every record that names a stack, shuffled; pools of tokens by player count; the rows' stacks."""
    plan = rules.stack_plan
    stacks = {k: list(v) for k, v in plan.stacks.items()}
    for sid in sorted(stacks):
        if sid not in plan.face_up:
            rng.shuffle(stacks[sid])
    for sid, source_id, size in plan.dealt:  # e.g. half of a shuffled set set aside elsewhere (R-SETUP-4)
        source = stacks.setdefault(source_id, [])
        stacks[sid], stacks[source_id] = source[:size], source[size:]
    stacks.update(rows.shuffled(plan.row_stacks, rng))
    return stacks


@dataclass(frozen=True)
class _StackPlan:
    """The stacks before shuffling, the same for every game of a ruleset and player count."""

    stacks: dict  # stack id -> record ids in id order
    face_up: frozenset
    dealt: tuple  # (stack id, dealt from, size)
    row_stacks: dict  # the rows' (era, quality) stacks in id order


def _stack_plan(rules: Rules) -> _StackPlan:
    ruleset, tables, pack = rules.ruleset, rules.tables, rules.ruleset.single("pack")
    stacks: dict[str, list[str]] = {}
    for (kind, rid), rec in sorted(tables.records.items()):
        stack = getattr(rec, "stack", None)
        if stack:
            stacks.setdefault(stack, []).append(rid)
    tokens = ruleset.single("production_tokens")
    if tokens:
        stacks[tokens.pool] = [t.id for t in tokens.tokens if t.from_players <= rules.players]
    return _StackPlan({k: tuple(v) for k, v in stacks.items()}, frozenset(s.id for s in pack.stacks if s.face == "up"),
                      tuple((s.id, s.dealt_from, s.size) for s in pack.stacks if s.dealt_from),
                      rows.sort_stacks(tables.records, rules.setup.rows))


def _setup_city(ruleset, state: GameState, players: int, rng: random.Random) -> None:
    """Plaza tiles on the plaza hexes in play; neutral tiles on the pre-filled sites (R-SETUP-7, R-SETUP-13)."""
    city = ruleset.single("city")
    if city is None:
        return
    solo = ruleset.single("solo")
    count = solo.setup_as if players == 1 and solo is not None else players
    plazas = [p.id for p in ruleset.records(city.area_tiles)]
    rng.shuffle(plazas)
    in_play = [h.id for h in city.hexes if h.type == "plaza" and (not h.marks or count in h.marks)]
    state.table["plazas"] = dict(zip(in_play, plazas))  # unused plaza tiles go back to the box
    key = rows.stack_key(city.site_kind, 1, "regular")
    stack = list(state.stacks.get(key, []))
    state.table["city"] = {h.id: {"tile": stack.pop(0), "owner": None, "rot": 0}
                           for h in city.hexes if h.type == "site" and count in h.pre_filled and stack}
    if key in state.stacks:
        state.stacks[key] = stack
    state.table["where"] = {e["tile"]: site for site, e in state.table["city"].items()}


def _rng_state(rng: random.Random) -> list:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]
