"""Bots that play through the public engine API only (legal_actions, apply/child, clone, observation).

- ``random``: a uniformly random legal action.
- ``greedy``: one-ply lookahead; every legal action is tried and the resulting position is judged
  by a linear evaluation whose weights are content (``bots.yaml``). The actions are tried on a
  determinized copy (``Game.determinized``), so what an action draws from a face-down stack is a guess.
- ``mcts``: UCT over a determinized game: before each iteration the face-down stacks the bot
  cannot see are reshuffled, so the search never reads hidden information; playouts are random
  and cut after a fixed number of turns, where the evaluation scores the position.
- ``dummy``: the rulebook's solo dummy policy (R-SOLO-2): the action tile farthest ahead, then
  nothing but the cheapest way through the turn.
- ``planner``: a search over the steps of the bot's whole turn, and its next turns (planner.py).
- ``best``: the bot a pack's bots file names as its strongest.

An evaluation may count what final scoring would add if the game ended now (``final``), with its stepped
tables read part of the way toward their next step while the game has time to reach it (``steps``), and
weights that count in proportion to the share of the game left (``early``): what holdings are still worth doing,
the way toward the next reward printed on a track (``rewards_ahead``, the reward priced by the weights), and
the bonus each action gives every time it is performed (``bonuses``, the record on top of the action's hex),
and what a piece placed on a record will gain when the record's program runs (``occupying``).

A bot is an object with ``name`` and ``choose(game, rng) -> action``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from interpreter.content.bot_specs import BOT_NAMES, SpecError, parse_spec
from interpreter.mechanisms import wheel
from interpreter.play.effect_value import effect_value
from interpreter.errors import IllegalActionError
from interpreter.runtime import flow as F
from interpreter.runtime import zones as Z
from interpreter.runtime.game import Game
from interpreter.runtime.natives.common import top_of


# --------------------------------------------------------------------------- evaluation

WEIGHT_GROUPS = ("holdings", "tracks", "track_values", "grids", "owned", "pieces_free", "zones", "records")


@dataclass(frozen=True)
class Evaluation:
    points: float
    holdings: dict[str, float]
    tracks: dict[str, float]
    grids: dict[str, float]
    owned: dict[str, float]
    pieces_free: dict[str, float]
    opponents: float
    starts: dict[str, int] = field(default_factory=dict)  # track -> first position, so value counts advances
    zones: dict[str, float] = field(default_factory=dict)  # zone -> value of each of the player's records in it
    track_values: dict[str, float] = field(default_factory=dict)  # track -> value of a unit of its printed value
    final: float = 0.0  # weight of what final scoring would add if the game ended now
    early: dict[str, dict[str, float]] = field(default_factory=dict)  # group -> weights added times the share left
    rounds: int | None = None  # rounds expected, for a flow that ends on a condition
    printed: dict[str, dict[int, int]] = field(default_factory=dict)  # track -> space -> its printed value
    steps: float = 0.0  # with `final`: the share of the way toward the next step of a stepped table counted, times the game left
    rewards_ahead: float = 0.0  # weight of the way toward a track's next reward (space on_reach), times the game left
    track_rewards: dict[str, tuple[tuple[int, object], ...]] = field(default_factory=dict)  # track -> (space, its on_reach program)
    bonuses: float = 0.0  # weight of the bonuses the actions carry (the tops of their hexes), times the game left
    bonus_prices: dict[str, float] = field(default_factory=dict)  # resource -> its price in a bonus, for its holdings weight
    bonus_programs: dict[str, object] = field(default_factory=dict)  # record -> its `bonus` program
    action_places: tuple[str, ...] = ()  # the keys of the actions' hexes in a player's area
    records: dict[str, float] = field(default_factory=dict)  # record id -> value of owning it
    record_kinds: dict[str, str] = field(default_factory=dict)  # weighed record id -> its kind (where it is owned)
    occupying: float = 0.0  # weight of what the player's pieces on records' spaces will gain by their program
    occupying_program: str | None = None  # the name of the records' program that pays their occupant
    occupying_programs: dict[str, object] = field(default_factory=dict)  # record -> that program

    def __post_init__(self):
        # the weights as tuples, in the dicts' order (the sum is the same float): the value is taken of
        # every player after every action a bot weighs
        object.__setattr__(self, "_terms", self._terms_of({g: getattr(self, g) for g in WEIGHT_GROUPS}))
        early = {g: w for g, w in self.early.items() if w}
        object.__setattr__(self, "_early_terms", self._terms_of(early) if early else None)
        zones = dict(self.zones)
        for k, w in early.get("zones", {}).items():
            zones.setdefault(k, 0.0)
        object.__setattr__(self, "_zone_ids", tuple(zones))
        object.__setattr__(self, "_ahead", self._rewards_ahead() if self.rewards_ahead else ())
        object.__setattr__(self, "_bonus_worth", self._bonus_worth_of() if self.bonuses else {})
        object.__setattr__(self, "_occupied_worth", self._occupied_worth_of() if self.occupying else {})

    def _occupied_worth_of(self) -> dict[str, tuple[float, float]]:
        """Record -> what its occupant gains when its program runs (effect_value.py), by the plain weights
        and by the early ones. Made again whenever the weights change (dataclasses.replace)."""
        return self._priced_each(self.occupying_programs)

    def _priced_each(self, programs: dict[str, object], holdings: dict | None = None,
                     later: dict | None = None) -> dict[str, tuple[float, float]]:
        """Record -> its program priced (``_priced``), for the records whose program is worth something."""
        worth = {}
        for rid, program in programs.items():
            value = self._priced(program, holdings, later)
            if value != (0.0, 0.0):
                worth[rid] = value
        return worth

    def _bonus_worth_of(self) -> dict[str, tuple[float, float]]:
        """Record -> what its bonus gains once, valued by the plain weights and by the early ones
        (effect_value.py), a resource of `bonus_prices` at that price instead of its weights. Made again
        whenever the weights change (dataclasses.replace)."""
        prices = self.bonus_prices
        plain = {**self.holdings, **prices}
        later = {r: w for r, w in self.early.get("holdings", {}).items() if r not in prices}
        return self._priced_each(self.bonus_programs, plain, later)

    def _priced(self, program, holdings: dict | None = None, later: dict | None = None) -> tuple[float, float]:
        """What an effect gains once (effect_value.py), by the plain weights and by the early ones (their
        holdings weights replaced by ``holdings`` and ``later`` when given)."""
        early = self.early
        return (effect_value(program, self.points, self.holdings if holdings is None else holdings, self.tracks),
                effect_value(program, 0.0, early.get("holdings", {}) if later is None else later,
                             early.get("tracks", {})))

    def _rewards_ahead(self) -> tuple[tuple[str, dict[int, tuple[float, float]]], ...]:
        """Track -> marker position -> the part of the next reward ahead it has covered, valued by the plain
        weights and by the early ones (effect_value.py): 2 of the 4 spaces from one reward to the next are
        half of that next reward. Made again whenever the weights change (dataclasses.replace)."""
        out = []
        for track, rewards in self.track_rewards.items():
            start = self.starts.get(track, 0)
            worth: dict[int, tuple[float, float]] = {}
            for space, program in rewards:
                if space > start:
                    plain, later = self._priced(program)
                    p0, e0 = worth.get(space, (0.0, 0.0))
                    worth[space] = (p0 + plain, e0 + later)
            spaces = sorted(s for s, w in worth.items() if w != (0.0, 0.0))
            table, behind = {}, start
            for space in spaces:
                for pos in range(behind + 1, space):  # on the reward behind (or the start) the way is not begun
                    share = (pos - behind) / (space - behind)
                    table[pos] = (share * worth[space][0], share * worth[space][1])
                behind = space
            if table:
                out.append((track, table))
        return tuple(out)

    def _terms_of(self, groups: dict[str, dict[str, float]]) -> tuple:
        return (tuple(groups.get("holdings", {}).items()),
                tuple((t, w, self.starts.get(t, 0)) for t, w in groups.get("tracks", {}).items()),
                tuple(groups.get("grids", {}).items()), tuple(groups.get("owned", {}).items()),
                tuple(groups.get("pieces_free", {}).items()),
                tuple((t, w, self.printed.get(t, {})) for t, w in groups.get("track_values", {}).items()),
                tuple((r, self.record_kinds.get(r, ""), w) for r, w in groups.get("records", {}).items()))

    @staticmethod
    def _linear(p, terms, v: float) -> float:
        """``v`` plus the terms' values for the player (added in this order: the same float every time)."""
        holding_terms, track_terms, grid_terms, owned_terms, piece_terms, value_terms, record_terms = terms
        holdings, tracks, grids, owned, free = p.holdings, p.tracks, p.grids, p.owned, p.pieces_free
        for r, w in holding_terms:
            v += w * holdings.get(r, 0)
        for t, w, start in track_terms:
            v += w * (tracks.get(t, 0) - start)
        for g, w in grid_terms:
            v += w * (grids.get(g, [1, 1])[0] - 1)
        for k, w in owned_terms:
            v += w * len(owned.get(k, ()))
        for piece, w in piece_terms:
            v += w * free.get(piece, 0)
        for t, w, printed in value_terms:
            v += w * (printed.get(tracks.get(t, 0)) or 0)
        for r, kind, w in record_terms:
            if r in owned.get(kind, ()):
                v += w
        return v

    def of_player(self, p, left: float = 0.0) -> float:
        """The player's value apart from the zones and final scoring, ``left`` of the game still to play."""
        v = self._linear(p, self._terms, self.points * p.score)
        if self._early_terms is not None and left:
            v += left * self._linear(p, self._early_terms, 0.0)
        if self._ahead and left:
            tracks = p.tracks
            for track, table in self._ahead:
                hit = table.get(tracks.get(track, 0))
                if hit is not None:
                    v += self.rewards_ahead * left * (hit[0] + left * hit[1])
        if self._bonus_worth and left:
            v += self.bonuses * left * self._standing_bonuses(p, left)
        return v

    def _standing_bonuses(self, p, left: float) -> float:
        """What the bonuses of the player's actions gain once each: the record on top of each action's
        hex gives its bonus every time that action is performed (natives/performing.py)."""
        worth = 0.0
        for place in self.action_places:
            top = top_of(p, place)
            if top:
                hit = self._bonus_worth.get(top[0])
                if hit is not None:
                    worth += hit[0] + left * hit[1]
        return worth

    def share_left(self, game: Game) -> float:
        """The share of the game still to play (flow.share_left), for the early weights."""
        return F.share_left(game.rules.flow, game.state.flow, self.rounds)

    def __call__(self, game: Game, seat: int, memo: dict | None = None) -> float:
        """The seat's value less `opponents` times the best other seat's (dummy seats do not count).
        ``memo`` remembers players' values by object: copies of a state share the players an action
        did not change, so the positions after each action of one turn mostly reuse them."""
        automatic = game.rules.automatic_seats
        left = (self.share_left(game) if self._early_terms is not None or self.steps or self._ahead or self._bonus_worth
                or self._occupied_worth else 0.0)
        in_zones = self._in_zones(game, left) if self._zone_ids else None
        if self._occupied_worth:
            in_zones = self._occupied(game, left, in_zones)
        finals = game.scores_if_over(min(1.0, self.steps * left)) if self.final else None
        own, others = 0.0, []
        for i, p in enumerate(game.state.players):
            if i != seat and i in automatic:
                continue
            if memo is None:
                v = self.of_player(p, left)
            else:
                hit = memo.get((id(p), left))
                if hit is None:
                    hit = memo[(id(p), left)] = (p, self.of_player(p, left))  # the player is kept: its id stays its own
                v = hit[1]
            if in_zones is not None:
                v += in_zones[i]
            if finals is not None:
                v += self.final * (finals[i] - p.score)
            if i == seat:
                own = v
            else:
                others.append(v)
        return own - self.opponents * (max(others) if others else 0.0)

    def _occupied(self, game: Game, left: float, into: list[float] | None) -> list[float]:
        """``into`` (or zeros) plus each seat's worth of its pieces on records' spaces: what each record's
        program will gain its occupant. The pieces go home once it has run, and what it gained is held."""
        out = list(into) if into is not None else [0.0] * len(game.state.players)
        worth = self._occupied_worth
        for sid, occupants in game.state.spaces.items():
            hit = worth.get(sid)
            if hit is not None:
                for piece in occupants:
                    if piece.owner < len(out):
                        out[piece.owner] += self.occupying * (hit[0] + left * hit[1])
        return out

    def _in_zones(self, game: Game, left: float) -> list[float]:
        """Each seat's value of its records in the weighted zones: its own zone of a zone per player, the
        records it owns in a shared one. Zones change apart from the players, so it is read each time."""
        state, specs = game.state, game.rules.tables.zones
        out = [0.0] * len(state.players)
        early = self.early.get("zones", {})
        for zone in self._zone_ids:
            w = self.zones.get(zone, 0.0) + left * early.get(zone, 0.0)
            spec = specs[zone]
            if spec.per_player:
                for i in range(len(out)):
                    out[i] += w * Z.count(state.zones.get(Z.key(spec, i), ()))
            else:
                owners = state.owners
                for rid in Z.records(state.zones.get(zone, ())):
                    seat = owners.get(rid)
                    if seat is not None and seat < len(out):
                        out[seat] += w
        return out


def _programs_named(rules, field: str) -> dict[str, object]:
    """Record id -> its program in the effect field ``field``, for every record that has one."""
    asts = rules.tables.asts
    return {rid: asts[key] for (kind, rid, f), key in rules.tables.keys.items() if f == field}


def load_evaluation(rules, which: str | None = None) -> Evaluation:
    """The evaluation named in the pack's bots file (its default for `greedy` when not named)."""
    bots = rules.ruleset.single("bots")
    starts = {t: pos[0] for t, pos in ((tid, tt.positions) for tid, tt in rules.tables.tracks.items())}
    printed = {tid: {n: v for n, v in tt.values.items() if v is not None} for tid, tt in rules.tables.tracks.items()}
    tracks = rules.ruleset.single("tracks")
    for tr in tracks.tracks if tracks else ():
        starts[tr.id] = tr.start
    if bots is None:  # a pack without bot settings: points only
        return Evaluation(1.0, {}, {}, {}, {}, {}, 1.0, starts, printed=printed)
    name = which or bots.greedy
    e = next((x for x in bots.evaluations if x.id == name), None)
    if e is None:
        raise ValueError(f"no evaluation '{name}' in the bots file; known: {', '.join(x.id for x in bots.evaluations)}")
    early = {g: dict(getattr(e.early, g)) for g in WEIGHT_GROUPS if getattr(e.early, g)}
    rewards = {}
    if e.rewards_ahead:
        asts = rules.tables.asts
        rewards = {tid: tuple((space, asts[key]) for space, keys in sorted(tt.on_reach.items()) for key in keys)
                   for tid, tt in rules.tables.tracks.items() if tt.on_reach}
    programs, places = {}, ()
    if e.bonuses:
        programs = _programs_named(rules, "bonus")
        places = tuple(rules.machine.layout.action_hex_keys.values())
    occupied = {}
    if e.occupying:
        occupied = _programs_named(rules, e.occupying_program)
        if not occupied:
            raise ValueError(f"evaluation '{name}': occupying_program '{e.occupying_program}' is the program of no record")
    return Evaluation(e.points, dict(e.holdings), dict(e.tracks), dict(e.grids), dict(e.owned), dict(e.pieces_free),
                      e.opponents, starts, dict(e.zones), dict(e.track_values), e.final, early, e.rounds, printed,
                      e.steps, e.rewards_ahead, rewards, e.bonuses, dict(e.bonus_prices), programs, places,
                      dict(e.records), {r: rules.tables.kind_of[r] for r in (*e.records, *e.early.records)},
                      e.occupying, e.occupying_program, occupied)


# --------------------------------------------------------------------------- bots

class RandomBot:
    name = "random"

    def choose(self, game: Game, rng: random.Random) -> str:
        return rng.choice(game.legal_actions())


class GreedyBot:
    name = "greedy"
    # In a game whose turns are menus of content entries, an action that stops at a choice of the same
    # player (an "any cube" to pay, a card to pick) is judged by its best way through, up to this many
    # choices deep, instead of halfway: otherwise such an action never looks worth taking.
    THROUGH_CHOICES = 3

    def __init__(self, evaluation: Evaluation, through_choices: int | None = None):
        self.evaluate = evaluation
        if through_choices is not None:
            self.THROUGH_CHOICES = through_choices

    def choose(self, game: Game, rng: random.Random) -> str:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        # The actions are tried on a copy whose face-down stacks are reshuffled: an action that draws
        # (a take, a refill of a row) must not be judged by what really lies on top of a stack.
        return self.move_in(game.determinized(game.current_player, rng), rng)

    def move_in(self, world: Game, rng: random.Random) -> str:
        """The best move, one move ahead, of the seat to act in ``world`` (a copy the caller has
        determinized already); ties are broken by ``rng``."""
        seat = world.current_player
        best, best_value, memo = [], -math.inf, {}
        for action in world.legal_actions():
            try:
                after = world.child(action)
            except IllegalActionError:
                after = world  # it cannot be carried out in this guess of the stacks: judged as no change
            value = self._value(after, seat, memo, self.THROUGH_CHOICES if not world.rules.uses_offers else 0)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return rng.choice(best)

    def _value(self, game: Game, seat: int, memo: dict, depth: int) -> float:
        """The evaluation of a position, or, while it waits for a choice of ``seat`` and ``depth`` allows, of
        the best way through that choice."""
        if depth <= 0 or game.state.decision is None or game.current_player != seat:
            return self.evaluate(game, seat, memo)
        values = []
        for answer in game.legal_actions():
            try:
                values.append(self._value(game.child(answer), seat, memo, depth - 1))
            except IllegalActionError:
                continue
        return max(values) if values else self.evaluate(game, seat, memo)


class DummyBot:
    """The rulebook solo dummy as a seat policy: the tile farthest ahead on the wheel, nothing else."""

    name = "dummy"

    def choose(self, game: Game, rng: random.Random) -> str:
        legal = game.legal_actions()
        takes = [a for a in legal if a.startswith("take ")]
        if takes:
            key = game.rules.ruleset.single("wheel").id
            wanted = f"take {wheel.dummy_choice(wheel.from_json(game.observation(game.current_player)['table'][key]))}"
            return wanted if wanted in takes else takes[0]
        for quiet in ("end", "choose 1"):
            if quiet in legal:
                return quiet
        return sorted(legal, key=lambda a: (not a.startswith(("act ", "discard ", "choose ")), a))[0]


@dataclass
class _Node:
    player: int
    visits: int = 0
    value: float = 0.0  # summed from the point of view of `player` (who chooses here)
    children: dict[str, "_Node"] = field(default_factory=dict)


class MCTSBot:
    """UCT with determinization and evaluated, shortened random playouts."""

    name = "mcts"

    def __init__(self, evaluation: Evaluation, iterations: int = 100, playout_actions: int = 12, c: float = 1.2):
        self.evaluate, self.iterations, self.playout_actions, self.c = evaluation, iterations, playout_actions, c

    def choose(self, game: Game, rng: random.Random) -> str:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = game.current_player
        root = _Node(me)
        for _ in range(self.iterations):
            g = game.determinized(me, rng)
            path, node = [root], root
            # selection and expansion; in this determinization some known moves may not exist
            while not g.is_terminal():
                legal_here = g.legal_actions()
                untried = [a for a in legal_here if a not in node.children]
                if untried:
                    action = rng.choice(untried)
                    g = g.child(action)
                    child = _Node(g.current_player)
                    node.children[action] = child
                    path.append(child)
                    break
                action = max(legal_here, key=lambda a: self._ucb(node, node.children[a]))
                g = g.child(action)
                node = node.children[action]
                path.append(node)
            # playout
            for _ in range(self.playout_actions):
                if g.is_terminal():
                    break
                g = g.child(rng.choice(g.legal_actions()))
            scale = 20.0  # squashes evaluation differences into (0, 1)
            values = {seat: 1 / (1 + math.exp(-self.evaluate(g, seat) / scale)) for seat in {n.player for n in path}
                      if seat >= 0}
            # back-propagation: each node keeps the value of the player who moved into it
            for parent, child in zip(path, path[1:]):
                child.visits += 1
                child.value += values.get(parent.player, 0.5)
            root.visits += 1
        return max(root.children, key=lambda a: (root.children[a].visits, root.children[a].value))

    def _ucb(self, parent: _Node, child: _Node) -> float:
        if child.visits == 0:
            return math.inf
        return child.value / child.visits + self.c * math.sqrt(math.log(parent.visits + 1) / child.visits)


BOTS = BOT_NAMES


def make_bot(spec: str, rules):
    """A bot from its spec (content/bot_specs.py): `mcts:400` (iterations), `greedy:default` (evaluation),
    `planner:tuned:8:2:first_actions:4:3:2:3` (evaluation, beam width, turns, frontier, ahead, guesses, end, checks), `best` (the pack's strongest,
    from its bots file)."""
    from interpreter.play.planner import PlannerBot

    try:
        parsed = parse_spec(spec)
    except SpecError as exc:
        raise ValueError(str(exc)) from None
    bots = rules.ruleset.single("bots")
    if parsed.name == "best":
        return make_bot((bots.best if bots and bots.best else "planner"), rules)
    if parsed.name == "random":
        return RandomBot()
    if parsed.name == "greedy":
        return GreedyBot(load_evaluation(rules, parsed.evaluation))
    if parsed.name == "planner":
        evaluation = parsed.evaluation or (bots.planner if bots else None)
        return PlannerBot(load_evaluation(rules, evaluation), width=parsed.number or 6, turns=parsed.turns or 1,
                          frontier=parsed.frontier or "top", ahead=parsed.ahead, guesses=parsed.guesses or 1,
                          end=parsed.end or 0, checks=parsed.checks or 0)
    if parsed.name == "mcts":
        return MCTSBot(load_evaluation(rules, bots.mcts if bots else None), iterations=parsed.number or 100)
    return DummyBot()
