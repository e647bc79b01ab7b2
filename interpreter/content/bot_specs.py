"""How a bot is named on the command line, in a save file and in a bots file's `best`: its name, then
options after colons. Parsed here, apart from the bots, so that content checks can read a spec.

  random                      a uniformly random legal action
  greedy[:EVALUATION]         one move ahead, judged by an evaluation of the bots file
  planner[:EVALUATION[:WIDTH[:TURNS[:FRONTIER[:AHEAD[:GUESSES[:END[:CHECKS]]]]]]]]  the player's whole turn searched (WIDTH
                              sequences kept at each step), and TURNS of its turns ahead; FRONTIER: which
                              sequences are kept, `top` (the best by value, the default) or `first_actions`
                              (the best of each way the turn begins, then the second of each, ...);
                              AHEAD: how many ends of turn are played on into the turns ahead, and how
                              wide those turns are searched (WIDTH by default); GUESSES: how many
                              guesses of the hidden stacks are searched, each first action valued by
                              its mean over them (1 by default); END: within that many of its turns of
                              the game's end, it searches all its turns left, AHEAD wide (0 by default);
                              CHECKS: with one guess, its best ways to begin the turn (the best of each
                              verb, then the next best) are valued again on that many new guesses, the
                              rest of the turn searched WIDTH/2 wide, and the best on average is played
                              (0 by default: none; not within END of the game's end)
  mcts[:ITERATIONS]           Monte Carlo tree search
  dummy                       the pack's automatic seat policy (the crane's farthest tile)
  best                        the pack's strongest configuration, named by its bots file
"""

from __future__ import annotations

from dataclasses import dataclass

BOT_NAMES = ("random", "greedy", "planner", "mcts", "dummy", "best")
FRONTIERS = ("top", "first_actions")


class SpecError(ValueError):
    """A bot spec that names no bot or gives it options it does not take."""


@dataclass(frozen=True)
class BotSpec:
    name: str
    evaluation: str | None = None  # greedy, planner
    number: int | None = None  # mcts: iterations; planner: width
    turns: int | None = None  # planner: its turns searched
    frontier: str | None = None  # planner: which sequences its turn search keeps (FRONTIERS)
    ahead: int | None = None  # planner: the ends of turn played on into its turns ahead, and their search's width
    guesses: int | None = None  # planner: determinizations searched, each first action valued by its mean
    end: int | None = None  # planner: within this many of its turns of the game's end, it searches to the end
    checks: int | None = None  # planner: new guesses its best ways to begin the turn are valued again on


def parse_spec(spec: str) -> BotSpec:
    name, *options = spec.strip().split(":")
    if name not in BOT_NAMES:
        raise SpecError(f"unknown bot '{spec}'; known: {', '.join(BOT_NAMES)}")
    takes = {"greedy": 1, "planner": 8, "mcts": 1}.get(name, 0)
    if len(options) > takes:
        raise SpecError(f"bot '{spec}': {name} takes {takes or 'no'} option{'s' if takes != 1 else ''} after a colon")
    if name == "mcts":
        return BotSpec(name, number=_number(spec, options[0])) if options and options[0] else BotSpec(name)
    evaluation = options[0] if options and options[0] else None
    number = _number(spec, options[1]) if len(options) > 1 and options[1] else None
    turns = _number(spec, options[2]) if len(options) > 2 and options[2] else None
    frontier = options[3] if len(options) > 3 and options[3] else None
    if frontier is not None and frontier not in FRONTIERS:
        raise SpecError(f"bot '{spec}': '{frontier}' is not a frontier; known: {', '.join(FRONTIERS)}")
    ahead = _number(spec, options[4]) if len(options) > 4 and options[4] else None
    guesses = _number(spec, options[5]) if len(options) > 5 and options[5] else None
    end = _number(spec, options[6]) if len(options) > 6 and options[6] else None
    checks = _number(spec, options[7]) if len(options) > 7 and options[7] else None
    return BotSpec(name, evaluation, number, turns, frontier, ahead, guesses, end, checks)


def _number(spec: str, text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise SpecError(f"bot '{spec}': '{text}' is not a positive whole number")
    return int(text)
