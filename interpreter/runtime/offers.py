"""What the turn's offers are made of, compiled once per ruleset and player count: prices of taking,
refreshing, buying the extra action and claiming; each action's program and what is known of it without a try."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from interpreter.dsl import steps as S
from interpreter.runtime.machine import Tables
from interpreter.mechanisms import market_rows as rows
from interpreter.mechanisms.market_rows import RowSpec
from interpreter.runtime import natives as mechanisms
from interpreter.runtime.prices import PriceBook

if TYPE_CHECKING:
    from interpreter.runtime.rules import Rules


@dataclass(frozen=True)
class Offers:
    """What the turn's actions are made of, looked up once per ruleset and player count: the compiled
    costs of taking a tile, refreshing a row, buying the extra action and claiming a seal; each action's
    program and whether it can be performed without a try; the single-use records; the any-time actions.
    The groups the turn's offers are made from are kept sorted (tile actions, extra costs by label, seals,
    any-time actions by name, refresh actions), so that _turn_actions lists them in order without a sort."""

    # A price is None when free, else (its bit in `book` when constant, else None; the compiled amounts).
    book: PriceBook
    take_costs: tuple  # wheel position -> price
    refresh_costs: tuple  # (row kind, ((n, price), ...)), in the order of the kinds' names
    extra_costs: tuple  # ("n", price): payment option n of the extra action, in the order of the labels
    refresh_price: dict  # (row kind, "n" as in the action) -> price, or () when free
    claims: tuple  # (id of a record of the claimable kind, price)
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
    # (id of a row's contents, kind, pays, verb) -> (the contents, actions);
    # (kind, which positions hold a tile, pays, verb) -> actions
    _refreshes: dict = field(default_factory=dict, compare=False)
    # the action tiles that show an always performable action: taking one needs no judgement (R-TURN-6)
    always_performable_tiles: frozenset = frozenset()

    def refreshes(self, zones: dict, row: RowSpec, pays: tuple, verb: str) -> list[str]:
        """The refresh actions of a row (its tiles decide the pairs), sorted, with the menu's verb.
        Remembered by the row's contents: a tuple, replaced when the row changes; the memo holds it,
        so its id is not reused meanwhile."""
        line = zones[row.zone]
        hit = self._refreshes.get((id(line), row.kind, pays, verb))
        if hit is None or hit[0] is not line:
            if len(self._refreshes) > 4096:
                self._refreshes.clear()
            # the actions depend only on which positions hold a tile
            shape = (row.kind, tuple([t is not None for t in line]), pays, verb)
            out = self._refreshes.get(shape)
            if out is None:
                out = self._refreshes[shape] = sorted(
                    f"{verb} {row.kind} {a},{b} pay {n}" for a, b in rows.refresh_choices(row, line) for n in pays)
            hit = self._refreshes[(id(line), row.kind, pays, verb)] = (line, out)
        return hit[1]

    @staticmethod
    def build(rules: Rules) -> "Offers":
        t, fall, setup, playable = rules.tables, rules.fallibility, rules.setup, set(rules.playable_actions)
        progs, book = t.programs, PriceBook()

        def price(key: str | None):
            return None if key is None else (book.bit(progs[key]), progs[key])

        take = tuple(price(k) for k in rules.geometry.cost_keys)
        refresh = tuple(sorted(((row.kind, tuple((n + 1, price(f"setup/rows/{ri}/refresh_cost/{n}"))
                                                 for n in range(len(row.refresh_cost))))
                                for ri, row in enumerate(setup.rows)), key=lambda e: e[0]))
        extra = tuple(sorted(((str(i + 1), price(f"setup/extra_action_costs/{i}"))
                              for i in range(len(setup.extra_action_costs))), key=lambda e: e[0]))
        claim = setup.claim_kind
        claims = tuple(sorted((rid, price(t.keys.get((claim, rid, "cost")))) for (kind, rid) in t.records if kind == claim))
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
        return Offers(book, take, refresh, extra, refresh_price, claims, tiles, cheap_first, always, actions, one_shot,
                       one_shot_kinds, anytime, tuple(sorted(rules.playable_actions)),
                       always_performable_tiles=frozenset(t for t, acts in tiles.items() if not always.isdisjoint(acts)))


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
