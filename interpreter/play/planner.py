"""The planner: a bot that searches the steps of its whole turn, not one click, and may look a few of
its turns ahead.

A turn is often several decisions of one player (take a tile, then its action, then a bonus and an
extra action; place a worker, then pay and pick). One move ahead, the first step looks worth nothing
until the later ones are made. The planner runs a beam search over the rest of its turn: from the
position it must act in, every legal action is tried, the positions that still wait on the same player
in the same turn are kept if they are among the ``width`` best by the evaluation, and expanded again;
a sequence ends when the turn is over (another seat acts, the turn counter moves, the game ends).
Which open sequences are kept is the ``frontier``: ``top``, the ``width`` best by value, or
``first_actions``, going round the ways the turn begins (the best sequence of each first action, then
the second of each, ...), so that the variants of one beginning (one tile taken and placed six ways) do
not crowd every other beginning out after its first step.

With ``turns`` above 1 the ``ahead`` best ends of turn (``width`` unless given) are played on: the other
seats' turns by a fast policy (the greedy bot's move, one move ahead by the same evaluation from their
side), then the planner's next turn by the same beam search, ``ahead`` wide; of the ends of that turn the
``ahead`` best are kept and played on again, ``turns`` of the planner's turns in all (a beam over turns).
These are kept by value alone whatever the frontier: going round the ways to act now there too fills the
beam with poor beginnings, and one of them wins whenever one guess of the hidden stacks makes its next
turn look best (the winner's curse of a single sample; in the bundled solo game, two turns ahead with
``ahead`` 6, it took 9.6 tiles a game instead of 11.6 and lost 24 points a game over 50 games). The first
action of the plan the best last end comes from is played. A smaller ``ahead`` than ``width`` buys the
turns ahead at a fraction of their cost. At the next decision of the same turn the search runs again from
there, so what a step revealed (a tile drawn to refill a row) is taken into account; searching again even
when nothing was revealed is also a wider search along the line chosen (following the first plan's later
steps instead cost the bundled solo game 18 points a game over 10 games, for 2.5 times less time).

With ``end`` above 0, within that many of its turns of the game's end the planner searches all its turns
left (the later ones ``ahead`` wide), so that the last turns are chosen by the scores the game ends with:
until then an end of turn is valued by the evaluation, whose weights are tuned for the whole game (a point
of final scoring weighs more than a point scored, a resource held weighs its use in the turns left). How
many turns are left is estimated from the turns played so far and the share of the game they took
(``own_turns_left``); nothing is measured at the first turn. In the bundled solo game ``end`` 3 (``ahead``
4) gained +4.2, +1.0 and +1.5 points a game on three sets of 50 deals, paired by deal; on the first set 2,
4 and 5 gained +0.9, +1.1 and +1.3 (5 for twice the time), and 3 with ``ahead`` 8 no more than with 4.

With ``checks`` above 0 (and one guess), the best ways to begin the turn the search found (the best of each
verb, then the next best, ``CHECK_CANDIDATES`` in all) are valued again on that many new guesses of the hidden
stacks, the rest of the turn searched from each as wide as the turn's own search, and the one best on average
is played: the search of one guess favours the beginnings its own draws flatter (the winner's curse), and a
new guess does not share that luck. Every beginning is valued on the same new guesses, so that what they are
compared on is not one guess's luck either; two guesses that value every beginning alike (no hidden card
touches the turn) end the checks. Searched half as wide, the checks changed the plan of such turns too, for a
narrower search undervalues the beginnings whose best sequences are long: in the bundled solo game they lost
2.5 and 6.5 points a game on seeds 1000-1049 (with 5,000 and 6,000 positions at most), paired by deal with the
planner that does not check; as wide, they gain +3.3 there (README). Not within ``end`` of the game's end,
where the search runs to the end of the game.
After each guess only the better half of the beginnings are valued on the next (successive halving): in the
bundled solo game, with 90,000 steps a decision, that gained +0.7 [-9.6, +11.1] on seeds 1000-1049 over the
checks of every beginning on every guess with 120,000, which lose -8.3 [-16.9, +0.2] with 90,000.
A decision of a planner with ``checks`` or ``end`` stops at ``SEARCH_WORK`` steps of the rules' machine
(work_done: a count of work, not a clock, so that a game plays the same on every machine): past them the turn's
own search expands no more positions and its open sequences end where they stand, and the checks and the turns
that ``end`` adds are given up. A planner with neither searches as its spec asks, and the turns a spec asks
for and the searches of ``guesses`` above 1 are not bounded.

Positions are valued by an evaluation of the bots file (bots.Evaluation), usually one that counts what
final scoring would add now (`final`) and what holdings are worth for the turns left (`early`).
Actions are tried on a determinized copy (Game.determinized), so hidden stacks are never read.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from interpreter.content.bot_specs import FRONTIERS
from interpreter.errors import IllegalActionError
from interpreter.play.bots import GreedyBot
from interpreter.runtime.game import Game


@dataclass(frozen=True)
class Plan:
    value: float
    actions: tuple[str, ...]  # the planner's actions for the rest of this turn
    end: Game  # the position after them


@dataclass(frozen=True)
class Beam:
    value: float
    root: int  # the index of the plan of the first turn this position comes from
    end: Game  # the position at the end of one of the planner's later turns


class PlannerBot:
    name = "planner"
    MAX_STEPS = 24  # decisions in one turn searched at most; a sequence still open then is valued as it stands
    MAX_OTHER_MOVES = 200  # other seats' decisions played between two of the planner's turns at most
    CHECK_CANDIDATES = 4  # ways to begin the turn valued again on new guesses (``checks``), more when more verbs
    # the machine steps (work_done) one decision of a planner with checks or ``end`` may take: its turn's search,
    # the checks and the turns searched to the end stop there; the spec's ``turns`` do not. A step costs 7 to 11
    # microseconds on the development machine with all that goes with it (about 26 steps a position valued in
    # the bundled solo game), so this is 0.6 to 1.0 s of CPU at most; a count, not a clock, so that a game plays
    # the same anywhere
    SEARCH_WORK = 90_000

    def __init__(self, evaluation, width: int = 6, turns: int = 1, frontier: str = "top", ahead: int | None = None,
                 guesses: int = 1, end: int = 0, checks: int = 0):
        if frontier not in FRONTIERS:
            raise ValueError(f"frontier: {frontier!r} is not one of {', '.join(FRONTIERS)}")
        if guesses < 1:
            raise ValueError(f"guesses: {guesses} is not a positive whole number")
        if end < 0:
            raise ValueError(f"end: {end} is not a whole number of turns")
        if checks < 0:
            raise ValueError(f"checks: {checks} is not a whole number of guesses")
        self.evaluate, self.width, self.turns, self.frontier = evaluation, width, turns, frontier
        self.guesses = guesses  # determinizations searched at each decision; their values of each first action averaged
        self.end = end  # within this many of its turns of the game's end, it searches to the end
        self.checks = checks  # new guesses its best ways to begin the turn are valued on again (one guess searched)
        self._work_begun = 0  # work_done when the current decision began
        self.ahead = ahead or width  # the beam over turns: ends played on, and the width of the later turns' search
        # the other seats between two of its turns: greedy, one move ahead by the same evaluation from their
        # side, not through their choices (the fast policy; the world is determinized already)
        self.others = GreedyBot(evaluation, through_choices=0)

    def choose(self, game: Game, rng: random.Random) -> str:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self.plan(game, rng)[0]

    def plan(self, game: Game, rng: random.Random) -> list[str]:
        """The best sequence of actions found for the rest of the acting player's turn (at least one)."""
        seat = game.current_player
        turns = self.turns_searched(game)
        if self.guesses > 1:
            return self._plan_over_guesses(game, seat, rng, turns)
        self._work_begun = self.work_done(game)  # the decision's work counts from here, this turn's search included
        world = game.determinized(seat, rng)
        # a planner that adds work of its own (checks, the turns to the end) keeps the whole decision within
        # SEARCH_WORK; one that does neither searches its turn as wide as its spec says
        budget_end = self._work_begun + self.SEARCH_WORK if self.checks or self.end else None
        plans = self.turn_ends(world, seat, rng, budget_end=budget_end)
        if not plans:  # no sequence could be carried out in this guess: any legal action
            return [rng.choice(game.legal_actions())]
        if self.checks and turns == 1 and self._turns_left_to_end(game) is None:
            return list(self._checked(game, plans, seat, rng).actions)
        return list(plans[self._best_over_turns(plans, seat, rng, turns)].actions)

    def turns_searched(self, game: Game) -> int:
        """Its turns searched from here: ``turns``, or, within ``end`` of its turns of the game's end, all
        of those left, so that the last turns are chosen by the final scores the game ends with rather than
        by the evaluation of a position that still has turns to play."""
        left = self._turns_left_to_end(game)
        return self.turns if left is None else max(self.turns, left)

    def _turns_left_to_end(self, game: Game) -> int | None:
        """Its turns left, its current one included, when they are within ``end``; else None (and always
        in a flow that ends on a condition with no length expected: the end cannot be told there)."""
        if not self.end or not (game.rules.flow.rounds or self.evaluate.rounds):
            return None
        left = own_turns_left(game, self.evaluate.share_left(game))
        return left if left is not None and left <= self.end else None

    def _checked(self, game: Game, plans: list[Plan], seat: int, rng: random.Random) -> Plan:
        """The plan of the way to begin the turn that is best on average over ``checks`` new guesses of the
        hidden stacks, among the best few of one guess's search (``plans``, best first).

        One guess's search picks the beginning its luck favours: a row refreshed in the guess draws the tile
        the turn then takes, and of many such beginnings, each with a draw of its own, the luckiest wins while
        the draw to come is anyone's (the winner's curse). So the best way to begin of each verb (take,
        refresh, buy, ...) and the next best, ``CHECK_CANDIDATES`` in all, are valued again on ``checks`` new
        guesses, the rest of the turn searched from there; their totals are compared, not the first guess's
        values, which chose them. After each guess the better half of them (2 at least) go on to the next, so
        that the work goes to the beginnings the choice is between (successive halving). The candidates are
        valued on the same new guesses (common random numbers): a guess that deals well lifts them all, and
        what is compared is what the beginnings make of one deal. Two guesses that value every candidate alike
        say the hidden stacks do not touch this turn: no third is drawn. A new guess is begun only if the work
        it is expected to take (the last guess's for as many candidates, or for the first, the turn's search
        for each candidate) keeps the decision within ``SEARCH_WORK`` (work_done); one that reaches it is given
        up and not counted. The first plan is played when no guess was counted."""
        best_of: dict[str, Plan] = {}
        for p in plans:  # best first: each beginning's best plan
            best_of.setdefault(p.actions[0], p)
        if len(best_of) == 1:
            return plans[0]
        candidates = check_candidates(list(best_of), self.CHECK_CANDIDATES)
        totals = dict.fromkeys(candidates, 0.0)
        done = self.work_done(game)
        expected = (done - self._work_begun) * len(candidates)  # each candidate's search about as much as the turn's
        guesses, last = 0, None
        for _ in range(self.checks):
            if done - self._work_begun + expected > self.SEARCH_WORK:
                break
            world = game.determinized(seat, rng)  # one new guess for every candidate: their differences are not its luck
            try:
                values = [self._value_in_guess(world, best_of[first], seat, rng) for first in candidates]
            except _OutOfWork:  # it took more than expected: it is not counted, and none is begun after it
                break
            for first, value in zip(candidates, values):
                totals[first] += value
            guesses += 1
            now = self.work_done(game)
            expected, done = now - done, now
            if values == last:  # two guesses alike: the hidden stacks do not touch this turn, a third would repeat them
                break
            if len(candidates) > 2:  # the better half goes on to the next guess: the work goes where the choice is
                kept = set(sorted(candidates, key=lambda c: -totals[c])[: max(2, (len(candidates) + 1) // 2)])
                expected = expected * len(kept) // len(candidates)
                values = [v for c, v in zip(candidates, values) if c in kept]
                candidates = [c for c in candidates if c in kept]
            last = values
        if not guesses:
            return plans[0]
        return best_of[max(candidates, key=totals.__getitem__)]  # the first of equals: the best of the first guess

    @staticmethod
    def work_done(game: Game) -> int:
        """The steps the rules' effect machine has run so far, in any position: the meter of a decision's work.
        A position valued costs about its steps (running the action, and final scoring for the evaluation),
        and one whose final scoring searches a choice many times those of most; a count, not a clock, so that
        a game plays the same on every machine."""
        return game.rules.machine.steps_run

    def _value_in_guess(self, world: Game, plan: Plan, seat: int, rng: random.Random) -> float:
        """The best end of turn the search reaches after the plan's first action in ``world``, a new guess
        of the hidden stacks, searched as wide as the turn's search (a narrower one undervalues the beginnings
        whose best sequences are long, and changed the plan of turns no hidden card touches); _OutOfWork once
        the decision's work reaches ``SEARCH_WORK``."""
        try:
            after = world.child(plan.actions[0])
        except IllegalActionError:  # it cannot be carried out in this guess: the first guess's value stands
            return plan.value
        if _turn_over(after, world.state.turn, seat):
            return self.evaluate(after, seat)
        ends = self.turn_ends(after, seat, rng, until=self._work_begun + self.SEARCH_WORK)
        return ends[0].value if ends else self.evaluate(after, seat)

    def _plan_over_guesses(self, game: Game, seat: int, rng: random.Random, turns: int) -> list[str]:
        """The plan whose first action is best on average over ``guesses`` determinizations.

        Each guess of the hidden stacks is searched as one would be (its turn, and its turns ahead), and
        each first action is valued by the best end it leads to in that guess. The first action with the
        best mean over the guesses is played, with the plan of the first guess that reached it. A plan
        valued in one guess is valued partly by that guess's luck (the tile drawn to refill a row, the
        technologies drawn): one guess picks the action its luck favours, the mean of several the one
        that is good whatever is drawn. A first action some guess did not reach (its sequences not kept)
        is compared only with those reached as often."""
        values: dict[str, list[float]] = {}
        first_plan: dict[str, tuple[str, ...]] = {}
        for _ in range(self.guesses):
            world = game.determinized(seat, rng)
            plans = self.turn_ends(world, seat, rng)
            best: dict[str, float] = {}
            for index, value in self._values_over_turns(plans, seat, rng, turns).items():
                actions = plans[index].actions
                if actions[0] not in best or value > best[actions[0]]:
                    best[actions[0]] = value
                first_plan.setdefault(actions[0], actions)
            for action, value in best.items():
                values.setdefault(action, []).append(value)
        if not values:  # no sequence could be carried out in any guess: any legal action
            return [rng.choice(game.legal_actions())]
        most = max(len(v) for v in values.values())
        chosen = max((a for a, v in values.items() if len(v) == most), key=lambda a: sum(values[a]) / most)
        return list(first_plan[chosen])

    def _values_over_turns(self, plans: list[Plan], seat: int, rng: random.Random, turns: int,
                           until: int | None = None) -> dict[int, float]:
        """Plan index -> the value of the best end it leads to ``turns`` of the planner's turns ahead
        (its own end's value with ``turns`` 1); plans whose futures all fell out of the beam are left out.
        With ``until``, _OutOfWork once work_done reaches it."""
        if turns == 1:
            return {i: p.value for i, p in enumerate(plans)}
        beam = [Beam(p.value, i, p.end) for i, p in enumerate(plans[: self.ahead])]
        for _ in range(turns - 1):
            reached = [step for b in beam for step in self.next_turn_ends(b, seat, rng, until)]  # one or more each
            reached.sort(key=lambda b: -b.value)  # stable: ties keep the order of the plans they come from
            beam = reached[: self.ahead]
        out: dict[int, float] = {}  # in the beam's order, best first
        for b in beam:
            if b.root not in out or b.value > out[b.root]:
                out[b.root] = b.value
        return out

    def _best_over_turns(self, plans: list[Plan], seat: int, rng: random.Random, turns: int) -> int:
        """The index of the plan of this turn whose future is best, ``turns`` of the planner's turns ahead.

        A beam over turns: the ``ahead`` best ends of this turn are played on (the other seats, then the
        planner's next turn by the same beam search); of all the ends of that next turn, the ``ahead`` best
        are kept, whichever plan of this turn they come from, and played on again. The plan the best end of
        the last turn comes from is chosen. The cost grows with ``turns`` times ``ahead``, not ``ahead`` to
        the power ``turns``. The turns past the planner's own ``turns`` (those ``end`` adds) are given up once
        the decision's work reaches ``SEARCH_WORK``, and its own ``turns`` searched instead: what a bot's spec
        asks for is searched in full, what the planner adds on its own is bounded."""
        if turns == 1:
            return 0  # the plans are best first
        try:
            until = self._work_begun + self.SEARCH_WORK if turns > self.turns else None
            values = self._values_over_turns(plans, seat, rng, turns, until)
        except _OutOfWork:
            return self._best_over_turns(plans, seat, rng, self.turns)
        return max(values, key=values.__getitem__)  # the first of equals: the order of the beam, best first

    def next_turn_ends(self, at: Beam, seat: int, rng: random.Random, until: int | None = None) -> list[Beam]:
        """The ends of the planner's next turn from ``at`` (the other seats play on first), best first; the
        position itself once the game is over or no next turn of the planner can be reached. The beam over
        turns here and the ceiling of a solo game (ceiling.py) are made of these steps. With ``until``, the
        turn's search raises _OutOfWork once work_done reaches it."""
        game = at.end
        for _ in range(self.MAX_OTHER_MOVES):
            if game.is_terminal() or game.current_player == seat:
                break
            try:
                game = game.child(self.others.move_in(game, rng))
            except IllegalActionError:  # no move of theirs can be carried out in this guess
                return [Beam(self.evaluate(game, seat), at.root, game)]
        if game.is_terminal() or game.current_player != seat:
            return [Beam(self.evaluate(game, seat), at.root, game)]
        plans = self.turn_ends(game, seat, rng, self.ahead, until)
        if not plans:
            return [Beam(self.evaluate(game, seat), at.root, game)]
        return [Beam(p.value, at.root, p.end) for p in plans[: self.ahead]]

    def turn_ends(self, world: Game, seat: int, rng: random.Random, width: int | None = None,
                  until: int | None = None, budget_end: int | None = None) -> list[Plan]:
        """The ends of turn the beam search reaches from ``world`` (the seat to act), best first, ``width``
        sequences kept at each step (the planner's own unless given). With ``until``, it raises _OutOfWork
        rather than expand a position once work_done has reached it; with ``budget_end``, it expands no position
        past the first once work_done has reached that, and the sequences still open end where they stand,
        valued as they were when reached (as when the turn is longer than MAX_STEPS)."""
        width = width or self.width
        turn = world.state.turn
        frontier: list[tuple[tuple[str, ...], Game, float]] = [((), world, 0.0)]  # sequence, position, value
        ends: list[tuple[float, float, Plan]] = []
        for _ in range(self.MAX_STEPS):
            open_: list[tuple[float, float, tuple[str, ...], Game]] = []
            for n, (path, g, _) in enumerate(frontier):
                if until is not None and self.work_done(g) >= until:
                    raise _OutOfWork
                if budget_end is not None and path and self.work_done(g) >= budget_end:
                    # out of work: those not expanded, and those just reached, end where they stand
                    ends += [(-value, rng.random(), Plan(value, p, at)) for p, at, value in frontier[n:]]
                    ends += [(o[0], o[1], Plan(-o[0], o[2], o[3])) for o in open_]
                    open_ = []
                    break
                for action in g.legal_actions():
                    try:
                        after = g.child(action)
                    except IllegalActionError:
                        continue  # it cannot be carried out in this guess of the hidden stacks
                    value = self.evaluate(after, seat)
                    sequence = path + (action,)
                    if _turn_over(after, turn, seat):
                        ends.append((-value, rng.random(), Plan(value, sequence, after)))
                    else:
                        open_.append((-value, rng.random(), sequence, after))
            if not open_:
                break
            open_.sort(key=lambda o: (o[0], o[1]))  # best first, ties in a random order
            kept = open_[:width] if self.frontier == "top" else _round_first_actions(open_, width)
            frontier = [(sequence, after, -negative) for negative, _, sequence, after in kept]
        else:
            for path, g, value in frontier:  # the turn is longer than the search: valued where it stands
                ends.append((-value, rng.random(), Plan(value, path, g)))
        ends.sort(key=lambda e: (e[0], e[1]))
        return [plan for _, _, plan in ends]


class _OutOfWork(Exception):
    """A search for the checks or the turns to the end reached the decision's work (PlannerBot.SEARCH_WORK)."""


def _turn_over(after: Game, turn: int, seat: int) -> bool:
    """Whether the seat's turn that was ``turn`` has ended at ``after``: another seat acts, the turn
    counter moved, or the game is over."""
    return after.is_terminal() or after.state.turn != turn or after.current_player != seat


def check_candidates(firsts: list[str], limit: int) -> list[str]:
    """The ways to begin the turn valued again (``firsts`` best first): the best of each verb (an action's
    first word: take, refresh, buy, ...), so that no kind of move is left out because variants of another
    fill the list, then the next best, ``limit`` in all (more when there are more verbs); best first."""
    chosen, verbs = [], set()
    for action in firsts:
        verb = action.split(" ", 1)[0]
        if verb not in verbs:
            verbs.add(verb)
            chosen.append(action)
    for action in firsts:
        if len(chosen) >= limit:
            break
        if action not in chosen:
            chosen.append(action)
    return sorted(chosen, key=firsts.index)


def own_turns_left(game: Game, share_left: float) -> int | None:
    """About how many turns the acting seat has left, its current one included: the turns played so far
    over the share of the game they took, times the share left, a seat's part of them (every seat taking
    turns in its order). None at the first turn, where nothing was played to measure by."""
    played = game.state.turn - 1
    if played < 1 or share_left >= 1.0:
        return None
    return round(played * share_left / (1.0 - share_left) / len(game.state.players))


def _round_first_actions(ranked: list, width: int) -> list:
    """The ``width`` sequences kept by going round the ways the turn begins: the best sequence of each
    first action, then the second best of each, and so on, best first within a round; returned best first.
    Kept by value alone, the frontier fills with variants of one beginning (one tile taken, placed six
    ways), and the other beginnings are never looked at past their first step."""
    by_first: dict[str, list] = {}
    for entry in ranked:  # best first: each list stays best first
        by_first.setdefault(entry[2][0], []).append(entry)
    kept: list = []
    depth = 0
    while len(kept) < width:
        round_ = [entries[depth] for entries in by_first.values() if depth < len(entries)]
        if not round_:
            break
        kept += round_[: width - len(kept)]
        depth += 1
    kept.sort(key=lambda o: (o[0], o[1]))
    return kept
