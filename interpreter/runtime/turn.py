"""One action applied to a working copy of a game's state: each verb of the notation (see game.py) and
the end of a turn, after which the flow moves on (core_flow.py); an automatic seat's turn and the era
change, which the flow runs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.dsl import steps as S
from interpreter.errors import RulesError, RunawayError
from interpreter.runtime import core_flow, ledger, zone_effects
from interpreter.runtime import menu as M
from interpreter.mechanisms import market_rows as rows
from interpreter.runtime import natives as mechanisms
from interpreter.mechanisms import wheel
from interpreter.runtime.state import Frame, GameState, PlayerState
from interpreter.runtime.view import View

if TYPE_CHECKING:
    from interpreter.runtime.rules import Rules

WHEEL_BONUS = "wheel_bonus"  # the source the taken tile's wheel bonus scores under


def acting_frame(player: int) -> Frame:
    """A frame that only names the acting player, for paying and reading outside a program."""
    return Frame("", [], 0, player, "")


def condition_holds(rules: Rules, state: GameState, key: str) -> bool:
    """Whether a menu entry's condition holds for the player whose turn it is."""
    view = View(rules.tables, state, state.current, acting_frame(state.current))
    return bool(rules.tables.programs[key](view, None))


def bonus_can_run(rules: Rules, state: GameState, key: str, tried: bool = False) -> bool:
    """Whether the wheel bonus can be started now; ``tried``: and carried out to its end or a decision
    (tried on a copy unless surely fine). One that cannot lapses unused at the end of the turn."""
    if mechanisms.cannot_start(rules.machine, state, state.current, key):
        return False
    if not tried or rules.fallibility.sure(state, state.current, rules.tables.programs[key].steps):
        return True
    work = state.clone()
    try:
        Turn(rules, work)._run_bonus()
    except RunawayError:
        raise
    except RulesError:
        return False
    return True


class Turn:
    """Applies one action to a working copy of the state."""

    def __init__(self, rules: Rules, state: GameState):
        self.r, self.s = rules, state
        self.m = rules.machine

    @property
    def p(self) -> PlayerState:
        return self.s.player(self.s.current)

    def apply(self, action: str) -> None:
        word, _, rest = action.partition(" ")
        how = self.r.decision_verbs.get(word)
        if how is not None:
            how(self, rest, action)
            return
        for verb, how, condition, limit in self.r.turn_dispatch.get(word, ()):
            if verb == word:  # a one-word verb (the common case)
                arg = rest
            elif action == verb or action.startswith(verb + " "):
                arg = action[len(verb) + 1:]
            else:
                continue
            if condition is not None and not condition_holds(self.r, self.s, condition):
                raise RulesError(f"`{verb}` is not offered now: its condition does not hold")
            if limit is not None:
                if limit.per == "turn":  # counted in the turn record, which goes with the turn (menu.picks_key)
                    info, key = self.s.turn_info, M.picks_key(verb)
                    if info.get(key, 0) >= limit.limit:
                        raise RulesError(f"`{verb}` may be picked {limit.limit} time(s) per turn")
                    info[key] = info.get(key, 0) + 1
                else:
                    log = self.s.menu or M.MenuLog()
                    if not M.allowed(limit, log, self.s.current):
                        raise RulesError(f"`{verb}` may be picked {limit.limit} time(s) per {limit.per}")
                    self.s.menu = M.record(log, limit, self.s.current)
            how(self, arg, action)
            return
        raise RulesError(f"unknown action {action!r}")

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

    def _main_action(self, arg: str, action: str) -> None:
        self._perform(arg, True)

    def _extra_action(self, arg: str, action: str) -> None:
        self._perform(arg, False)

    def _perform(self, arg: str, main: bool) -> None:
        info = self.s.turn_info
        if main and info.get("tile") is None:
            raise RulesError("take an action tile first")
        if main and arg not in self.r.tile_actions.get(info["tile"], ()):
            raise RulesError(f"the action tile {info['tile']} does not show {arg}")
        if main:
            info["main_done"] = True
        else:
            info["extras"] = info.get("extras", 0) - 1  # one bought extra action taken
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

    def _buy(self, n: str, action: str) -> None:
        if not n.isdigit() or not 1 <= int(n) <= len(self.r.setup.extra_action_costs):
            raise RulesError(f"unknown action {action!r}")
        self.m._pay(self.s, acting_frame(self.s.current), self.r.tables.programs[f"setup/extra_action_costs/{int(n) - 1}"])
        self.s.turn_info["extras"] = self.s.turn_info.get("extras", 0) + 1  # how often a turn: the entry's `limit:`

    def _refresh(self, arg: str, action: str) -> None:
        kind, pair, _, pay = arg.split()
        price = self.r.offers.refresh_price.get((kind, pay))
        if price is None:
            raise RulesError(f"no refresh of a {kind} row for price {pay}")
        if price:
            self.m._pay(self.s, acting_frame(self.s.current), price[1])
        a, b = map(int, pair.split(","))
        rows.refresh(self.s.zones, self.r.tables.layout.rows[kind], (a, b), self.s.table.get("era", 1))

    def _claim(self, arg: str, action: str) -> None:
        kind = self.r.setup.claim_kind
        key = self.r.tables.keys.get((kind, arg, "cost"))
        if key:
            self.m._pay(self.s, acting_frame(self.s.current), self.r.tables.programs[key])
        self.p.holdings[self.r.claim_right] -= 1
        ledger.note(self.s, self.s.current, self.r.claim_right, -1, arg)
        zone_effects.gain(self.r.tables, self.s, self.s.current, kind, arg)
        self.s.table["claimed"] = {**self.s.table.get("claimed", {}), f"{self.s.current}:{arg}": arg}

    def _use(self, arg: str, action: str) -> None:
        kind = self.r.tables.kind_of[arg]
        zone_effects.give_up(self.r.tables, self.s, self.s.current, kind, arg)  # used up (R-TECH-5)
        self._run(self.r.tables.keys[(kind, arg, "effect")], arg, (kind, arg))

    def _discard(self, arg: str, action: str) -> None:
        self.p.holdings[arg] -= 1
        ledger.note(self.s, self.s.current, arg, -1, "")
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
        state, info = wheel.take(g, wheel.from_json(self.s.table[self.r.wheel_key]), tile)
        if info.cost_key:
            self.m._pay(self.s, acting_frame(self.s.current), self.r.tables.programs[info.cost_key])
        points = info.points + info.flag_points
        if points:
            if info.points:
                self.p.add_points(info.points, f"{self.r.wheel_key}:position")
            if info.flag_points:
                self.p.add_points(info.flag_points, f"{self.r.wheel_key}:overflow")
            self.m.emit(self.s, self.s.current, "action_tile_scored", {"points": points})
        self.s.table[self.r.wheel_key] = wheel.to_json(state)
        self.s.turn_info.update({"tile": tile, "bonus_key": info.bonus_key})
        self.m.run(self.s)

    def _end_turn(self) -> None:
        """The end of the turn: the steps the content lists (turn_end_steps), each done once; one that
        waits for a decision or a discard stops here, and the end of the turn goes on from it when
        that is answered. Then the flow moves on (core_flow.py): the era change, the next seat's turn
        (an automatic seat's played there), or the end of the game and final scoring."""
        self.s.turn_info["ending"] = True
        for step in self.r.turn_end_steps:
            if _END_STEPS[step](self):
                return
        core_flow.end_turn(self.r, self.m, self.s)

    # The steps of the end of a turn (content/turn_offers.py TURN_END_STEPS): each returns whether it
    # waits (a decision, a frame, a discard); done, it does nothing when called again.
    def _waits(self) -> bool:
        return bool(self.s.decision or self.s.frames)

    def _apply_unused_bonus(self) -> bool:
        """An unused wheel bonus: free gains and rights apply now; optional purchases lapse (OPEN-29)."""
        info = self.s.turn_info
        if info.get("bonus_key") and not info.get("bonus_used"):
            info["bonus_used"] = True
            steps = self.r.tables.programs[info["bonus_key"]].steps
            if steps and type(steps[0]) not in S.OPTIONAL and bonus_can_run(self.r, self.s, info["bonus_key"], True):
                self._run_bonus()
                return self._waits()
        return False

    def _resolve_waiting_effects(self) -> bool:
        """Deferred effects nobody resolved are resolved now (R-TIME-5, OPEN-30)."""
        info = self.s.turn_info
        while info.get("later"):
            entries = info.pop("later")
            self.s.frames.extend(mechanisms.later_frame(e) for e in reversed(entries))
            self.m.run(self.s)
            if self._waits():
                return True
        return False

    def _expire_permits(self) -> bool:
        """Unused rights expire, e.g. an unused special-tile right scores (R-ROW-4); points a lapsed
        wheel right scored count as the taken tile's."""
        info = self.s.turn_info
        if not info.get("permits_expired"):
            info["permits_expired"] = True
            info["wheel_points"] = self._wheel_points()
            self.m.expire_permits(self.s, self.s.current)
            self.m.run(self.s)
            if self._waits():
                return True
        if "wheel_points" in info:  # a lapsed wheel right that scored (its `or` fallback)
            self._emit_tile_points(self._wheel_points() - info.pop("wheel_points"))
            self.m.run(self.s)
            return self._waits()
        return False

    def _enforce_carry_limit(self) -> bool:
        """Over the carry limit the player chooses what to keep (R-WIN-3), one discard at a time."""
        p = self.s.players[self.s.current]  # read after the effects above (a shared player is replaced when written)
        group, limit = self.r.carry
        if sum(p.holdings.get(r, 0) for r in group) > limit:
            self.s.turn_info["discarding"] = True
            return True
        return False

    def _turn_wheel(self) -> bool:
        """The wheel turns and the taken tile goes back on it (R-CRANE-*)."""
        cs = wheel.end_of_turn(self.r.geometry, wheel.from_json(self.s.table[self.r.wheel_key]), self.s.turn_info["tile"])
        self.s.table[self.r.wheel_key] = wheel.to_json(cs)
        return False


_END_STEPS = {"apply_unused_bonus": Turn._apply_unused_bonus, "resolve_waiting_effects": Turn._resolve_waiting_effects,
              "expire_permits": Turn._expire_permits, "enforce_carry_limit": Turn._enforce_carry_limit,
              "turn_wheel": Turn._turn_wheel}


def _return_farthest_offer(rules: Rules, state: GameState) -> None:
    """An automatic seat takes the tile farthest ahead and returns it (e.g. R-SOLO-2)."""
    key = rules.wheel_key
    cs = wheel.from_json(state.table[key])
    tile = wheel.dummy_choice(cs)
    cs, _ = wheel.take(rules.geometry, cs, tile)
    state.table[key] = wheel.to_json(wheel.end_of_turn(rules.geometry, cs, tile))


def change_era(rules: Rules, state: GameState) -> None:
    """The era changes (R-EOT-4: after the crane, before the game-end check): the first era's rows
    and stacks leave the game and the next era's are dealt (R-ERA-2)."""
    old = state.table.get("era", 1)
    state.table["era"] = old + 1
    market = rules.tables.layout.rows.values()
    for row in market:
        for q in rows.QUALITIES:
            key = rows.stack_zone(row.kind, old, q)
            if key in state.zones:
                state.zones[key] = ()  # its tiles leave the game
    rows.deal(state.zones, market, old + 1)


# What an automatic seat does in its turn (content/turn_offers.py AUTOMATIC_TURNS).
_AUTOMATIC_TURNS = {"return_farthest_offer": _return_farthest_offer}


def automatic_turn(name: str):
    """How an automatic seat plays the turn of that name: f(rules, state)."""
    return _AUTOMATIC_TURNS[name]

# Decisions answered by number (`choose`) or by naming the option (the mechanisms' own decisions).
_DECISION_VERBS = {"choose": Turn._choose, "pick": Turn._named, "place": Turn._named}
DECISION_WORDS = tuple(_DECISION_VERBS)


def decision_verbs(slot_verb: str | None) -> dict:
    """The decisions' verbs -> how Turn answers them: by number (`choose`) or by naming the option
    (a pick, a placement, laying a tile on a slot row, under the row's own verb)."""
    return {**_DECISION_VERBS, **({slot_verb: Turn._named} if slot_verb else {})}

# A turn offer (content/turn_offers.py) -> how Turn applies its action, given the argument after the
# entry's verb (every action is legal-checked before).
_OFFERS = {
    "take_offer": Turn._take_verb, "main_action": Turn._main_action, "offer_bonus": Turn._bonus,
    "buy_extra_action": Turn._buy, "extra_action": Turn._extra_action, "refresh_row": Turn._refresh,
    "claim": Turn._claim, "use_once": Turn._use, "resolve_waiting": Turn._resolve, "anytime": Turn._do,
    "discard_over_limit": Turn._discard, "end_turn": Turn._end,
}


def offer_applier(offer: str):
    """How Turn applies the actions of a turn offer (a name of content/turn_offers.py)."""
    return _OFFERS[offer]
