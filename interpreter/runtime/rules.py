"""The rules of a ruleset for one player count, compiled once and shared by every game of it."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from interpreter.dsl import steps as S
from interpreter.runtime.fallible import Fallibility
from interpreter.runtime.core_flow import GuardedMachine, flow_natives
from interpreter.runtime.core_rules import CoreRules
from interpreter.runtime.machine import Machine
from interpreter.runtime import natives as mechanisms
from interpreter.mechanisms import wheel
from interpreter.runtime import menu as M
from interpreter.runtime.offers import Offers
from interpreter.runtime.setup import StackPlan, deal_stacks, plan_stacks

# Statements the effect machine runs without help from board mechanisms.
_MACHINE_OPS = {"gain", "pay", "score", "advance", "produce", "block", "choose", "may", "may_pay", "if", "repeat",
                "grant", "draw", "use", *mechanisms.OPS}


def _ops(steps) -> set[str]:
    return {step.op for step in S.walk(steps)}


@dataclass(frozen=True, slots=True)
class OfferEntry:
    """An entry of the flow's turn menu that names a turn offer: its verb, the offer, and the program
    key of its condition (None: always)."""

    verb: str
    offer: str
    condition: str | None
    name: str | None = None  # how a log or menu says it (then the argument); None: the offer's own words
    limit: M.MenuEntry | None = None  # with a `limit:`, the entry as menu.py counts it; None: no limit


@dataclass(frozen=True)
class Rules(CoreRules):
    """The rules of a pack whose turns are offers of the mechanisms library, for one player count:
    the core's (its flow runs on core_flow.py's sequence points) and the mechanisms' tables."""

    EAGER: ClassVar[tuple[str, ...]] = (*CoreRules.EAGER, "wheel_key", "setup", "geometry", "decision_verbs",
                                        "turn_dispatch", "offer_makers", "offers", "carry", "claim_right")

    def _make_machine(self) -> Machine:
        return GuardedMachine(self.tables, dict(mechanisms.OPS), {**mechanisms.NATIVES, **flow_natives(self)})

    def _make_geometry(self) -> wheel.WheelGeometry:
        return wheel.build_geometry(self.ruleset.single("wheel"))

    def _make_wheel_key(self) -> str:
        """The state's table of the wheel: the wheel file's id (also the source of the points it gives)."""
        return self.ruleset.single("wheel").id

    def _make_setup(self):
        return self.ruleset.single("setup")

    def _make_carry(self) -> tuple[tuple[str, ...], int]:
        """(the resources of the carry group, how many of them a player may keep at the end of a turn),
        read from the setup model once (a pydantic model is not read while games run)."""
        return tuple(self.tables.groups.get(self.setup.carry_group, ())), self.setup.carry_limit

    def _make_claim_right(self) -> str | None:
        """The resource that lets a player claim (None: no claims)."""
        return self.setup.claim_right

    def play_automatic_turn(self, state, seat: int) -> None:
        from interpreter.runtime.turn import automatic_turn

        automatic_turn(self.model.automatic_turn)(self, state)

    def change_era(self, state) -> None:
        from interpreter.runtime.turn import change_era

        change_era(self, state)

    @cached_property
    def turn_menu(self) -> tuple[OfferEntry, ...]:
        """The turn offers of the flow's menu, in the order of their verbs: each makes its actions in
        order, so that one after the other they make a sorted list (flow checks forbid a verb that
        starts another)."""
        menu = self.turn_menu_model
        keys = self.tables.programs
        out = []
        for e in menu.entries:
            key = f"flow/menus/{menu.id}/entries/{e.id}/condition"
            limit = M.MenuEntry(e.word, limit=e.limit, per=e.per) if e.limit is not None else None
            out.append(OfferEntry(e.word, e.offers, key if e.condition is not None and key in keys else None, e.name, limit))
        return tuple(sorted(out, key=lambda e: e.verb))

    @cached_property
    def turn_menu_model(self):
        """The flow's menu of turn offers: the menu of its one phase of turns (flow checks)."""
        phase = next(p for p in self.model.phases if p.kind == "turns")
        return next(m for m in self.model.menus if m.id == phase.menu)

    @cached_property
    def turn_end_steps(self) -> tuple[str, ...]:
        """The steps of the end of a turn, in the order the entry offering `end_turn` lists them."""
        return tuple(next((e.steps for e in self.turn_menu_model.entries if e.offers == "end_turn"), ()))

    @cached_property
    def phrases(self) -> dict[str, str]:
        """Verb -> how a log or menu says its actions (`{arg}`: the argument in words): the turn
        menu's, and laying a tile on the slot row."""
        from interpreter.content.turn_offers import TURN_OFFERS

        out = {e.verb: (e.name + " {arg}" if e.name else TURN_OFFERS[e.offer][2]) for e in self.turn_menu}
        row, verb = self.ruleset.single("slot_row"), self.tables.layout.slot_verb
        if verb:
            out[verb] = f"lay the tile as the {row.name or row.id} {verb} {{arg}}"
        return out

    def _make_decision_verbs(self) -> dict:
        """A decision's verb -> how Turn answers it (turn.py)."""
        from interpreter.runtime.turn import decision_verbs

        return decision_verbs(self.tables.layout.slot_verb)

    @cached_property
    def named_decisions(self) -> tuple[str, ...]:
        """The decisions answered by naming the option, not by its number (legal.py)."""
        return tuple(v for v in self.decision_verbs if v != "choose")

    @cached_property
    def verb_of(self) -> dict[str, str]:
        """Turn offer -> the verb the pack gives it."""
        return {e.offer: e.verb for e in self.turn_menu}

    def _make_turn_dispatch(self) -> dict[str, tuple]:
        """The first word of an action -> (verb, how Turn applies it, condition key, limit) of the
        entries whose verb starts with it (turn.py)."""
        from interpreter.runtime.turn import offer_applier

        out: dict[str, tuple] = {}
        for e in self.turn_menu:
            word = e.verb.partition(" ")[0]
            out[word] = (*out.get(word, ()), (e.verb, offer_applier(e.offer), e.condition, e.limit))
        return out

    def _make_offer_makers(self) -> tuple:
        """(what makes its actions, verb, condition key, the turn record's keys it needs and that block
        it, its per-turn limit as (the turn record's count of its picks, times) or None, its limit per
        round or game or None) of each entry of the turn menu, in the order of the verbs (legal.py)."""
        from interpreter.runtime.legal import offer_maker

        out = []
        for e in self.turn_menu:
            make, needs, blocks = offer_maker(e.offer)
            per_turn = (M.picks_key(e.verb), e.limit.limit) if e.limit is not None and e.limit.per == "turn" else None
            out.append((make, e.verb, e.condition, needs, blocks, per_turn, e.limit if per_turn is None else None))
        return tuple(out)

    @cached_property
    def tile_actions(self) -> dict[str, tuple[str, ...]]:
        model = self.ruleset.single("wheel")
        return {t.id: tuple(getattr(t, model.side).actions) for t in model.tiles}

    @cached_property
    def face_up(self) -> frozenset[str]:
        """The stacks (shared zones) everyone sees, whose draws to keep show their records to every seat."""
        return frozenset(z.id for z in self.tables.zones.values() if z.visibility == "public" and z.pile)

    @cached_property
    def fallibility(self) -> Fallibility:
        stacks = deal_stacks(self, random.Random(0))  # what each zone may hold; the order does not matter
        return Fallibility(self.tables, {sid: set(ids) for sid, ids in stacks.items()})

    @cached_property
    def stack_plan(self) -> StackPlan:
        return plan_stacks(self)

    @cached_property
    def deal_order(self) -> dict[str, int]:
        """Zone key -> its place in the order setup fills the zones (the state's order at the start)."""
        return {key: i for i, key in enumerate([*self.stack_plan.zones, *self.stack_plan.row_stacks])}

    def _make_offers(self) -> Offers:
        return Offers.build(self)

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
