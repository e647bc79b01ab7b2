"""The game API: a game of a ruleset for a player count, its turns as a menu of legal actions. One
``Game`` plays every pack: its flow runs on core_flow.py's sequence points (the next seat, an
automatic seat's turn, the era change, the end of the game and final scoring), and its turns are
either menus of content entries (core_game.py) or offers of the mechanisms library (the rest of
this docstring: a free-order turn of such offers).

The engine behind the offers: rules.py (the compiled rules of a player count), setup.py (the
starting state), offers.py (what the turn's offers are made of), legal.py (which of them can be
carried out now), turn.py (applying an action, the end of a turn).

OpenSpiel-shaped API: ``new_game`` -> ``Game`` with ``current_player``, ``legal_actions``
(sorted strings in the notation below), ``apply`` (a transaction: an illegal action raises
``IllegalActionError`` and changes nothing), ``is_terminal``, ``scores``, ``clone``,
``to_json``/``from_json`` and ``observation``. Chance comes from a seeded RNG kept in the state.

Notation, one line per action:
  take <tile>        take an action tile from the crane (its cost paid first)
  act <action>       perform an action of the taken tile as the main action
  bonus              use the taken tile's wheel bonus now
  refresh <kind> <i>,<j> pay <n>
                     refresh a row (once per turn: its entry's `limit: 1`): positions i and j, payment option n
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

import dataclasses
import json
import random
from fractions import Fraction

from interpreter.errors import IllegalActionError, RulesError, RunawayError
from interpreter.runtime import chance, core_flow, simultaneous
from interpreter.runtime import zones as Z
from interpreter.runtime.core_game import apply_action, initial_core_state, menu_actions, menu_phrases, menu_words
from interpreter.runtime.core_rules import CoreRules
from interpreter.runtime.game_api import GameAPI
from interpreter.runtime.legal import LegalActions
from interpreter.runtime.rules import rules_for as offer_rules_for
from interpreter.runtime.setup import initial_state
from interpreter.runtime.state import GameState
from interpreter.runtime.turn import Turn


_offer_actions = LegalActions._legal_actions  # a global read is specialized; a class's attribute is not (Python 3.11)


class Game(LegalActions, GameAPI):
    def __init__(self, rules, state: GameState):
        GameAPI.__init__(self, rules, state)
        # read once per game: Python 3.11 does not specialize reading a cached property (rules.uses_offers)
        self._offers = rules.uses_offers

    # ------------------------------------------------------------ API
    def is_terminal(self) -> bool:
        return bool(self.state.table.get(core_flow.OVER))

    def _legal_actions(self) -> list[str]:
        if self._offers:
            return _offer_actions(self)
        return [] if self.is_terminal() else menu_actions(self)

    def _applied(self, action: str, candidate: bool = False) -> GameState:
        """A copy of the state with the action applied; raises IllegalActionError if the rules refuse it
        (``candidate``: a menu game's action taken from the entries' candidates now, core_game.apply_action)."""
        work = self.state.clone()
        try:
            if self._offers:
                Turn(self.rules, work).apply(action)
            else:
                apply_action(self.rules, work, action, candidate=candidate)
        except RunawayError:
            raise  # content that loops is no illegal choice
        except RulesError as exc:
            raise IllegalActionError(action, str(exc)) from None
        return work

    def _why_not(self, action: str, legal: list[str]) -> str:
        """The rules' own reason when trying the action fails, else the list of what is legal."""
        try:
            self._applied(action)
        except IllegalActionError as exc:
            return f"{exc.reason}; legal now: " + ", ".join(legal[:12])
        except (RulesError, ValueError, KeyError, IndexError, TypeError):
            pass  # content that loops, or words the notation cannot read
        return "not among the legal actions now: " + ", ".join(legal[:12])

    def scores(self) -> list[dict]:
        """Every player's score and its breakdown by source (seats from 1; automatic seats have none)."""
        return [{"seat": p.seat + 1, "score": p.score, "breakdown": dict(sorted(p.breakdown.items()))}
                for p in self.state.players if p.seat not in self.rules.automatic_seats]

    def scores_if_over(self, between_steps: float = 0.0) -> list[float]:
        """Every player's score (seats from 0, automatic seats too) if the game ended now: the final scoring
        run on a copy, each choice for the most points (core_flow.scores_if_over). What bots value a
        position by; the game is unchanged. ``between_steps`` (0 to 1) reads stepped tables and track values
        that share of the way toward their next step (runtime/between_steps.py): a forecast for bots."""
        return core_flow.scores_if_over(self.rules, self.state, between_steps)

    def solo_verdict(self) -> dict | None:
        """In a solo game of a pack with a solo file: the score against its target and its title
        ladder (e.g. R-SOLO-5)."""
        solo = self.rules.ruleset.single("solo")
        if self.rules.players != 1 or solo is None:
            return None
        score = self.scores()[0]["score"]
        title = max((r for r in solo.ladder if r.min <= score), key=lambda r: r.min, default=None)
        return {"score": score, "good_score": solo.good_score, "good": score > solo.good_score,
                "title": title.title if title else None}

    def winner(self) -> int | None:
        """Seat (1-based) of the winner once the game is over; None before, in solo (e.g. R-TIE-3), or
        when tied seats share the win (``ties: shared``)."""
        if not self.is_terminal() or self.rules.players < 2:
            return None
        winners = self.winners()
        return winners[0] if len(winners) == 1 else None  # shared ties: no single winner

    def winners(self) -> list[int]:
        """Every seat (1-based) that won: the most points, then the flow's `tie_break` resource, then
        `ties` (e.g. R-TIE-1, R-TIE-2: the latest seat)."""
        model = self.rules.model
        players = [p for p in self.state.players if p.seat not in self.rules.automatic_seats]  # the first seats
        return winners_of([(p.score, p.holdings.get(model.tie_break, 0) if model.tie_break else 0) for p in players],
                          model.ties)

    def chance_outcomes(self) -> dict[str, list[tuple[int, Fraction]]]:
        """Every declared die's outcomes with their exact probabilities (OpenSpiel's chance nodes), so a
        search may sample or enumerate a roll instead of trusting the game's generator."""
        return {die_id: list(chance.distribution(die)) for die_id, die in self.rules.tables.dice.items()}

    def determinized(self, seat: int, rng: random.Random) -> "Game":
        """A copy in which every zone ``seat`` may not see (a face-down stack, another's hand) is
        reshuffled: what the seat may believe the game is, for search that must not read hidden
        information (each is sorted first, so that the copy depends on what they hold and ``rng``,
        never on their real order)."""
        g = self.clone()
        zones = g.state.zones
        for zone_key in self.rules.zones_hidden_from(seat, tuple(zones)):
            items = sorted(Z.records(zones[zone_key]))
            chance.shuffle(items, rng)
            zones[zone_key] = tuple(items)  # the copy's own dict (clone), the contents replaced
        return g

    def action_words(self) -> tuple[str, ...]:
        """The words an action may start with: the menu's verbs and the decisions'."""
        if not self.rules.uses_offers:
            return menu_words(self.rules)
        return tuple(sorted({verb.split()[0] for verb in self.rules.verb_of.values()} | set(self.rules.decision_verbs)))

    def action_phrases(self) -> dict[str, str]:
        """Verb -> how a log or menu says its actions (notation.describe)."""
        return self.rules.phrases if self.rules.uses_offers else menu_phrases(self.rules)

    def is_dummy(self, seat: int) -> bool:
        return seat in self.rules.automatic_seats

    def to_json(self) -> str:
        return json.dumps({"pack": self.rules.ruleset.pack_id, "players": self.rules.players,
                           "variants": list(self.rules.ruleset.variants), "state": json.loads(self.state.to_json())},
                          sort_keys=True)

    @staticmethod
    def from_json(ruleset, text: str) -> "Game":
        data = json.loads(text)
        return Game(rules_for(ruleset, data["players"]), GameState.from_json(json.dumps(data["state"])))

    def observation(self, player: int) -> dict:
        """What seat ``player`` (0-based; -1 for a spectator) may see of the game: the one view of it for
        bots, the terminal and the web server, the same keys for every pack (a part the pack does not
        use is empty). JSON-ready (dicts with string keys, lists, strings, numbers, booleans, None; a
        fresh copy the caller may keep or change):

        - ``player``: the seat it is for; ``to_act``: the seat that acts next (-1 when the game is over);
          ``current``: the seat whose turn it is; ``turn``: the turn's number; ``over``: the game is over.
        - ``flow``: the round, the phase, the round's first seat, the seats that passed this phase and
          the turns taken.
        - ``table``: the shared boards as the state keeps them (e.g. the offer display, the rows, the map),
          without the seed of the game's chance (it would tell the order of every stack) or the
          choices of a simultaneous phase not yet applied.
        - ``turn_info``: what this turn has done so far, with ``later`` as the labels of the effects
          waiting to be resolved.
        - ``players``: every seat in seat order, all public: ``seat``, ``dummy`` (an automatic seat),
          ``score``, ``breakdown``, ``holdings``, ``tracks``, ``grids``, ``track_tokens``, ``owned``,
          ``acquired``, ``milestones``, ``pieces_free``, ``permits``, ``area`` and ``used``.
        - ``zones``: zone key -> its contents (a list, top first; a slotted zone's empty slots are None)
          where the seat may see them, else ``{"size": n}`` (a hidden zone, e.g. a face-down stack, and
          another player's own zone show only their size, never their order or contents); ``spaces``:
          each space's pieces as [owner, piece]; ``dice``: what each die showed last; ``shared``: the
          table's count of each shared resource; ``marks``: record -> the counts it keeps (marks and
          resources lying on it).
        - ``decision``: None, or the pending decision ``{"player", "kind", "count", "options"}``; the options
          of a draw from a face-down stack are None for every seat but the one keeping from it.
        - ``legal``: the legal actions when ``player`` acts next, else [].
        - ``log``: the actions played so far (another seat's choice not yet applied reads `(hidden choice)`).
        """
        s, face_up, cursor = self.state, self.rules.face_up, self.state.flow
        decision = None
        d = s.decision
        if d is not None:
            hidden = d.kind == "keep" and d.player != player and d.data.get("stack") not in face_up
            decision = {"player": d.player, "kind": d.kind, "count": len(d.options),
                        "options": None if hidden else list(d.options)}
        turn_info = {k: v for k, v in s.turn_info.items() if k != "later"}
        turn_info["later"] = [e.get("label") for e in s.turn_info.get("later", ())]
        view = {
            "player": player, "to_act": self.current_player, "current": s.current, "turn": s.turn,
            "over": self.is_terminal(),
            "flow": None if cursor is None else {
                "round": cursor.round, "phase": self.rules.model.phases[cursor.phase].id,
                "first_seat": cursor.first_seat, "passed": list(cursor.passed), "turn": cursor.turn},
            "table": {k: v for k, v in s.table.items() if k not in _PRIVATE_TABLE},
            "turn_info": turn_info,
            "players": [{**dataclasses.asdict(p), "dummy": self.is_dummy(p.seat)} for p in s.players],
            "zones": Z.observe(self.rules.tables.zones, s.zones, None if player < 0 else player),
            "spaces": {sid: [[o.owner, o.piece] for o in occ] for sid, occ in s.spaces.items()},
            "dice": dict(s.dice),
            "shared": dict(s.shared),
            "marks": {rid: dict(kept) for rid, kept in s.marks.items()},
            "decision": decision,
            "legal": self.legal_actions() if player >= 0 and player == self.current_player else [],
            "log": simultaneous.visible_log(s, player),
        }
        return json.loads(json.dumps(view))  # JSON-ready, and nothing shared with the state


# what the table keeps that no seat may read: the seed (the order of every stack), pending simultaneous choices
_PRIVATE_TABLE = frozenset({"seed", simultaneous.PENDING})


def winners_of(keys: list, ties: str) -> list[int]:
    """The seats (from 1, in seat order) that win with these keys (the points, then what breaks a tie):
    the best key, then `ties` among the seats that share it: all of them, the latest or the earliest."""
    best = max(keys)
    tied = [i for i, k in enumerate(keys, 1) if k == best]
    if ties == "last_seat":
        return tied[-1:]
    if ties == "first_seat":
        return tied[:1]
    return tied


def winner_of(scores: list[int], ties: str = "last_seat") -> int | None:
    """The one winning seat (from 1) of these points, None in solo or when tied seats share the win;
    by default among tied players the one latest in seat order wins (e.g. R-TIE-1, R-TIE-2)."""
    if len(scores) < 2:
        return None
    winners = winners_of(scores, ties)
    return winners[0] if len(winners) == 1 else None


def runs_on_core(ruleset) -> bool:
    """Whether the pack's turns are menus of content entries (core_game.py), not offers of the
    mechanisms library (a flow whose entries name `offers:`)."""
    from interpreter.content.flow_checks import uses_offers

    flow = ruleset.single("flow")
    return flow is not None and not uses_offers(flow)


def rules_for(ruleset, players: int) -> CoreRules:
    """The compiled rules of a pack for a player count, built once and shared by every game of it:
    the core's, extended by the mechanisms library's for a pack whose turns are its offers."""
    if runs_on_core(ruleset):
        from interpreter.runtime.core_rules import core_rules_for

        return core_rules_for(ruleset, players)
    return offer_rules_for(ruleset, players)


def new_game(ruleset, players: int, seed: int = 0) -> Game:
    """A game for 1..N players of an assembled ruleset, set up from content (e.g. R-SETUP-*) with a
    seeded RNG.

    Variants are the content layer's: ``load_ruleset(path, variants)`` applies them before this.
    """
    pack = ruleset.single("pack")
    if not pack.players.min <= players <= pack.players.max:
        raise RulesError(f"this pack is for {pack.players.min}..{pack.players.max} players")
    rules = rules_for(ruleset, players)
    state = initial_state(rules, seed) if rules.uses_offers else initial_core_state(rules, seed)
    return Game(rules, state)
