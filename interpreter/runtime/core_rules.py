"""The compiled rules of a pack on the generic core (a pack with a `flow` file), for one player count:
its flow, its menus with the program keys of each entry, its spaces, and the effect machine that
runs them. Built once and shared by every game of that player count (docs/core.md §5–6)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import ClassVar

from interpreter.errors import RulesError
from interpreter.runtime import flow as F
from interpreter.runtime import menu as M
from interpreter.runtime import spaces as SP
from interpreter.runtime import zones as Z
from interpreter.runtime.machine import Machine, Tables, build_tables
from interpreter.runtime.state import combined_dict


@dataclass(frozen=True, slots=True)
class Entry:
    """A menu entry with the program keys of its fields and what its argument is."""

    spec: M.MenuEntry
    id: str
    source: str | None  # a zone id, "spaces", a record kind, or None
    piece: str | None
    condition: str | None
    cost: str | None
    payments: tuple[str, ...]
    effect: str | None
    boost: str | None = None  # what adding 1 to the placed piece's value costs (placing.py)


@dataclass(frozen=True, slots=True)
class PhasePrograms:
    run: str | None
    on_begin: str | None
    on_end: str | None
    menu: str | None


@dataclass(frozen=True, slots=True)
class SpacePrograms:
    requires: str | None
    cost: str | None
    effect: str | None
    occupied_cost: str | None = None  # paid besides `cost` when the space's group already holds a piece
    value_bonus: str | None = None  # added to the value of a piece put on it (placing.py)
    min_value: int | None = None  # the least value a piece put on it must have
    enter_when_full: str | None = None  # a condition: while it holds, the capacity does not bind the acting player


def _key(keys: set[str], *path: str) -> str | None:
    key = "/".join(path)
    return key if key in keys else None


@dataclass(frozen=True)
class CoreRules:
    ruleset: object
    players: int

    # The derived values read in every action are plain attributes, made when the rules are made, each by
    # its `_make_<name>` method, in this order: Python 3.11 does not specialize reading a cached
    # property, and these are read a few times per action. The others are cached properties.
    EAGER: ClassVar[tuple[str, ...]] = ("tables", "machine")

    def __post_init__(self) -> None:
        for name in self.EAGER:
            object.__setattr__(self, name, getattr(self, "_make_" + name)())
        combined_dict(self)

    @cached_property
    def face_up(self) -> frozenset:
        """Face-up stacks; none on the core: what players see is the zones' visibility."""
        return frozenset()

    def zones_hidden_from(self, seat: int, keys: tuple[str, ...]) -> tuple[str, ...]:
        """The zones of a state (``keys``, its zone keys) whose records ``seat`` may not see, slotted
        zones aside: what a determinized copy reshuffles (Game.determinized), in the order it does so,
        whatever order the state's dict has (a saved and loaded state's is sorted): a pack of turn
        offers in the order its setup deals them (setup.plan_stacks), the others by key. Worked out
        once per seat and set of zones: a search asks at every determinization."""
        memo = self._hidden_zones_memo
        hit = memo.get((seat, keys))
        if hit is None:
            specs, dealt = self.tables.zones, self.deal_order if self.uses_offers else {}
            hidden = [k for k in keys if not (spec := specs[k.partition("@")[0]]).slots and not Z.visible(spec, k, seat)]
            hit = memo[(seat, keys)] = tuple(sorted(hidden, key=lambda k: (dealt.get(k, len(dealt)), k)))
        return hit

    @cached_property
    def _hidden_zones_memo(self) -> dict:
        return {}

    @cached_property
    def model(self):
        return self.ruleset.single("flow")

    def _make_tables(self) -> Tables:
        memo = self.ruleset.memo
        if "tables" not in memo:
            memo["tables"] = build_tables(self.ruleset)
        return memo["tables"]

    def _make_machine(self) -> Machine:
        # the flow's steps are frames of this machine (core_flow.py reads these rules in turn)
        from interpreter.runtime.core_flow import GuardedMachine, flow_natives

        from interpreter.runtime import visiting

        return GuardedMachine(self.tables, {"visit": visiting.op_visit(self)}, {**flow_natives(self), **visiting.natives(self)})

    @cached_property
    def flow(self) -> F.FlowSpec:
        m = self.model
        return F.FlowSpec(tuple(F.PhaseSpec(p.id, p.kind, p.order, p.until, p.turns_each, tuple(p.rounds))
                                for p in m.phases), m.rounds, m.first_seat_moves)

    @cached_property
    def uses_offers(self) -> bool:
        """Whether the flow's turns are offers of the mechanisms library (rules.py plays them)."""
        from interpreter.content.flow_checks import uses_offers

        return uses_offers(self.model)

    @cached_property
    def seats(self) -> int:
        """Seats at the table: the flow's seating for this player count, else one per player."""
        seating = next((s for s in self.model.seatings if s.players == self.players), None)
        return seating.seats if seating else self.players

    @cached_property
    def automatic_seats(self) -> frozenset[int]:
        """Seats (0-based) past the players': nobody's, they take the flow's `automatic_turn` and score nothing."""
        return frozenset(range(self.players, self.seats))

    @cached_property
    def total_turns(self) -> int | None:
        """Turns in the whole game, every seat's counted, when the flow fixes them (a number of rounds
        and no phase that runs until every seat passed); else None."""
        spec = self.flow
        if spec.rounds is None or any(p.until == "all_passed" for p in spec.phases):
            return None
        return sum(p.turns_each * self.seats for r in range(1, spec.rounds + 1) for p in spec.phases
                   if p.kind != "automatic" and (not p.rounds or r in p.rounds))

    @cached_property
    def era_change_turn(self) -> int | None:
        """The era changes once this many turns have been taken (every seat's counted); None: never."""
        return next((e.after_turn for e in self.model.era_changes if e.players == self.players), None)

    def play_automatic_turn(self, state, seat: int) -> None:
        """An automatic seat's turn: the mechanisms library's (rules.py); the core has none of its own."""
        raise RulesError(f"seat {seat + 1} is automatic, but the pack's rules give it no turn")

    def change_era(self, state) -> None:
        """What the era change does: the mechanisms library's (rules.py); nothing on the core alone."""

    @cached_property
    def keys(self) -> set[str]:
        return set(self.tables.programs.keys()) if hasattr(self.tables.programs, "keys") else set()

    @cached_property
    def phases(self) -> tuple[PhasePrograms, ...]:
        k = self.keys
        return tuple(PhasePrograms(_key(k, "flow", "phases", p.id, "run"), _key(k, "flow", "phases", p.id, "on_begin"),
                                   _key(k, "flow", "phases", p.id, "on_end"), p.menu) for p in self.model.phases)

    @cached_property
    def menus(self) -> dict[str, tuple[Entry, ...]]:
        k, out = self.keys, {}
        for menu in self.model.menus:
            entries = []
            for e in menu.entries:
                base = ("flow", "menus", menu.id, "entries", e.id)
                spec = M.MenuEntry(e.word, e.from_, len(e.payments), e.limit, e.per, tuple(e.needs),
                                   tuple(e.not_while), e.ends_turn, e.passes, e.boost is not None)
                entries.append(Entry(spec, e.id, e.from_, e.piece, _key(k, *base, "condition"), _key(k, *base, "cost"),
                                     tuple(_key(k, *base, "payments", str(i)) for i in range(len(e.payments))),
                                     _key(k, *base, "effect"), _key(k, *base, "boost")))
            out[menu.id] = tuple(entries)
        return out

    @cached_property
    def verbs(self) -> dict[str, dict[str, M.MenuEntry]]:
        return {mid: M.check_menu(e.spec for e in entries) for mid, entries in self.menus.items()}

    @cached_property
    def entry_of(self) -> dict[tuple[str, str], Entry]:
        return {(mid, e.spec.verb): e for mid, entries in self.menus.items() for e in entries}

    @cached_property
    def spaces(self) -> dict[str, SP.SpaceSpec]:
        """The spaces declared by name (not those on the records of a zone)."""
        return SP.specs_by_id(SP.SpaceSpec(s.id, s.capacity, s.occupancy, s.group, *_release_of(s.release))
                              for s in self.model.spaces if s.on is None)

    @cached_property
    def zone_spaces(self) -> tuple[tuple[str, SP.SpaceSpec, str], ...]:
        """(zone, spec, declared id) of the spaces on every record of a zone."""
        return tuple((s.on, SP.SpaceSpec(s.id, s.capacity, s.occupancy, s.group, *_release_of(s.release)), s.id)
                     for s in self.model.spaces if s.on is not None)

    def current_spaces(self, state) -> dict[str, SP.SpaceSpec]:
        """Every space now: those declared by name, and one per record of each zone with spaces on it
        (named by the record); a record that left its zone keeps its space while pieces are on it."""
        if not self.zone_spaces:
            return self.spaces
        out, specs = dict(self.spaces), self._record_specs
        for zone, spec, _ in self.zone_spaces:
            for rid in state.zones.get(zone, ()):
                if rid is not None:
                    hit = specs.get((zone, rid))
                    if hit is None:
                        hit = specs[(zone, rid)] = replace(spec, id=rid)
                    out[rid] = hit
        for sid, occupants in state.spaces.items():
            if occupants and sid not in out:  # emptied, a left record's space is gone (its record is no space)
                zone, spec, _ = self._left_zone_space(sid)
                hit = specs.get((zone, sid))
                if hit is None:
                    hit = specs[(zone, sid)] = replace(spec, id=sid)
                out[sid] = hit
        return out

    @cached_property
    def _record_specs(self) -> dict:
        """(zone, record) -> the spec of the space on the record (made once: `current_spaces` runs for every
        action tried)."""
        return {}

    def _zone_space_of(self, state, rid: str) -> tuple[str, SP.SpaceSpec, str]:
        """The zone space a record's space is: that of the zone holding it, else (it left, with pieces on
        it) that of the zone holding records of its kind, else the first."""
        for zs in self.zone_spaces:
            if rid in state.zones.get(zs[0], ()):
                return zs
        return self._left_zone_space(rid)

    def _left_zone_space(self, rid: str) -> tuple[str, SP.SpaceSpec, str]:
        """The zone space of a record that left its zone: that of the zone holding records of its kind, else
        the first."""
        kind = self.tables.kind_of.get(rid)
        zones = self.tables.zones
        return next((zs for zs in self.zone_spaces if zones[zs[0]].holds == kind), self.zone_spaces[0])

    def programs_of_space(self, state, space: str) -> "SpacePrograms":
        hit = self.space_programs.get(space)
        if hit is not None:
            return hit
        return self.space_programs[self._zone_space_of(state, space)[2]]

    @cached_property
    def space_programs(self) -> dict[str, SpacePrograms]:
        k = self.keys
        return {s.id: SpacePrograms(*(_key(k, "flow", "spaces", s.id, f) for f in ("requires", "cost", "effect", "occupied_cost",
                                                                              "value_bonus")), s.min_value,
                                    _key(k, "flow", "spaces", s.id, "enter_when_full"))
                for s in self.model.spaces}

    @cached_property
    def setup_key(self) -> str | None:
        return _key(self.keys, "flow", "setup")

    @cached_property
    def end_key(self) -> str | None:
        return _key(self.keys, "flow", "end")

    @cached_property
    def final_steps(self) -> tuple[tuple[str, str], ...]:
        """(program key, source) of the scoring file's final steps, in order."""
        scoring = self.ruleset.single("scoring")
        return tuple((f"scoring/final/{s.id}/effect", s.id) for s in (scoring.final if scoring else ()))

    @cached_property
    def start_zones(self) -> dict[str, tuple[str, ...]]:
        """Shared zones that start holding every record of their kind, in content order."""
        pack = self.ruleset.single("pack")
        return {z.id: self.tables.ids_of(z.holds) for z in pack.zones
                if getattr(z, "start", "empty") == "all" and z.holds and z.per == "shared"}


def _release_of(release: str) -> tuple[str, str | None]:
    """A space's `release:` as (flow point, phase): `round_end`, `phase_end`, `never`, or a phase's id (the end
    of that phase)."""
    return (release, None) if release in SP.RELEASES else ("phase_end", release)


def core_rules_for(ruleset, players: int) -> CoreRules:
    key = ("core_rules", players)
    rules = ruleset.memo.get(key)
    if rules is None:
        rules = ruleset.memo[key] = CoreRules(ruleset, players)
    return rules
