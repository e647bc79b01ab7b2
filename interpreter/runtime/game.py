"""The game API: a game of a ruleset for a player count, its free-order turn as a menu of legal actions.

The engine behind it: rules.py (the compiled rules of a player count), setup.py (the starting state),
offers.py (what the turn's offers are made of), legal.py (which of them can be carried out now),
turn.py (applying an action, the end of a turn) and core_flow.py (what follows a turn: the next seat,
the era change, an automatic seat's turn, the end of the game and final scoring).

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

import dataclasses
import json
import random

from interpreter.errors import IllegalActionError, RulesError, RunawayError
from interpreter.runtime.game_api import GameAPI
from interpreter.runtime.legal import LegalActions
from interpreter.runtime.rules import Rules, rules_for
from interpreter.runtime.setup import initial_state
from interpreter.runtime.state import GameState
from interpreter.runtime.turn import Turn


class Game(LegalActions, GameAPI):
    # ------------------------------------------------------------ API
    def is_terminal(self) -> bool:
        return bool(self.state.table.get("over"))

    def _applied(self, action: str) -> GameState:
        """A copy of the state with the action applied; raises IllegalActionError if the rules refuse it."""
        work = self.state.clone()
        try:
            Turn(self.rules, work).apply(action)
        except RunawayError:
            raise  # content that loops is no illegal choice
        except RulesError as exc:
            raise IllegalActionError(action, str(exc)) from None
        return work

    def _why_not(self, action: str, legal: list[str]) -> str:
        """The rules' own reason when trying the action fails, else the list of what is legal."""
        try:
            Turn(self.rules, self.state.clone()).apply(action)
        except (RulesError, ValueError, KeyError, IndexError, TypeError) as exc:
            if isinstance(exc, RulesError):
                return f"{exc}; legal now: " + ", ".join(legal[:12])
        return "not among the legal actions now: " + ", ".join(legal[:12])

    def scores(self) -> list[dict]:
        return [{"seat": p.seat + 1, "score": p.score, "breakdown": dict(sorted(p.breakdown.items()))}
                for p in self.state.players if p.seat not in self.rules.automatic_seats]

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

    def determinized(self, seat: int, rng: random.Random) -> "Game":
        """A copy in which every face-down stack is reshuffled: what ``seat`` may believe the game is,
        for search that must not read hidden information (the copy is the same whatever order the
        face-down stacks have: only their contents and ``rng`` decide it)."""
        g = self.clone()
        face_up = self.rules.face_up
        stacks = g.state.stacks
        for sid in stacks:
            if sid not in face_up:
                # a new list (the stacks are shared with this game's), sorted first so that the copy
                # depends on what the stack holds and the RNG, never on the order it really has
                stack = sorted(stacks[sid])
                rng.shuffle(stack)
                stacks[sid] = tuple(stack)
        return g

    def action_words(self) -> tuple[str, ...]:
        """The words an action may start with: the menu's verbs and the decisions'."""
        return tuple(sorted({verb.split()[0] for verb in self.rules.verb_of.values()} | set(self.rules.decision_verbs)))

    def action_phrases(self) -> dict[str, str]:
        """Verb -> how a log or menu says its actions (notation.describe)."""
        return self.rules.phrases

    def is_dummy(self, seat: int) -> bool:
        return seat in self.rules.automatic_seats

    def to_json(self) -> str:
        return json.dumps({"pack": self.rules.ruleset.pack_id, "players": self.rules.players,
                           "variants": list(self.rules.ruleset.variants), "state": json.loads(self.state.to_json())},
                          sort_keys=True)

    @staticmethod
    def from_json(ruleset, text: str) -> "Game":
        if runs_on_core(ruleset):
            from interpreter.runtime.core_game import CoreGame

            return CoreGame.from_json(ruleset, text)
        data = json.loads(text)
        return Game(rules_for(ruleset, data["players"]), GameState.from_json(json.dumps(data["state"])))

    def observation(self, player: int) -> dict:
        """What seat ``player`` (0-based; -1 for a spectator) may see of the game: the one view of it for
        bots, the terminal and the web server. JSON-ready (dicts with string keys, lists, strings, numbers,
        booleans, None; a fresh copy the caller may keep or change):

        - ``player``: the seat it is for; ``to_act``: the seat that acts next (-1 when the game is over);
          ``current``: the seat whose turn it is; ``turn``: the turn's number; ``over``: the game is over.
        - ``table``: the shared boards as the state keeps them (e.g. the offer display, the rows, the map),
          without the seed of the game's chance (it would tell the order of every stack).
        - ``turn_info``: what this turn has done so far, with ``later`` as the labels of the effects
          waiting to be resolved.
        - ``players``: every seat in seat order, all public: ``seat``, ``dummy``, ``score``, ``breakdown``,
          ``holdings``, ``tracks``, ``grids``, ``track_tokens``, ``owned``, ``acquired``, ``milestones``,
          ``pieces_free``, ``permits``, ``area`` (each space's pieces, top last) and ``used``.
        - ``stacks``: stack id -> ``{"face": "up", "size": n, "items": [...]}`` for a face-up stack, or
          ``{"face": "down", "size": n}``: a face-down stack shows only its size, never its order or contents.
        - ``decision``: None, or the pending decision ``{"player", "kind", "count", "options"}``; the options
          of a draw from a face-down stack are None for every seat but the one keeping from it.
        - ``legal``: the legal actions when ``player`` acts next, else [].
        - ``log``: the actions played so far.
        """
        s, face_up = self.state, self.rules.face_up
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
            "table": {k: v for k, v in s.table.items() if k != "seed"},
            "turn_info": turn_info,
            "players": [{**dataclasses.asdict(p), "dummy": self.is_dummy(p.seat)} for p in s.players],
            "stacks": {sid: ({"face": "up", "size": len(v), "items": list(v)} if sid in face_up
                             else {"face": "down", "size": len(v)}) for sid, v in sorted(s.stacks.items())},
            "decision": decision,
            "legal": self.legal_actions() if player >= 0 and player == self.current_player else [],
            "log": list(s.log),
        }
        return json.loads(json.dumps(view))  # JSON-ready, and nothing shared with the state

def winner_of(scores: list[int]) -> int | None:
    """Most points wins; among tied players the one latest in seat order (R-TIE-1, R-TIE-2). Seats from 1."""
    if len(scores) < 2:
        return None
    best = max(scores)
    return max(i for i, s in enumerate(scores, 1) if s == best)


def runs_on_core(ruleset) -> bool:
    """Whether the generic core's driver plays the pack: its flow's menus are content entries. A flow
    whose turns are offers of the mechanisms library (`offers:`) is played by this module's driver."""
    from interpreter.content.flow_checks import uses_offers

    flow = ruleset.single("flow")
    return flow is not None and not uses_offers(flow)


def new_game(ruleset, players: int, seed: int = 0) -> Game:
    """A game for 1..N players of an assembled ruleset, set up from content (R-SETUP-*) with a seeded RNG.

    Variants are the content layer's: ``load_ruleset(path, variants)`` applies them before this.
    """
    pack = ruleset.single("pack")
    if not pack.players.min <= players <= pack.players.max:
        raise RulesError(f"this pack is for {pack.players.min}..{pack.players.max} players")
    if runs_on_core(ruleset):
        from interpreter.runtime.core_game import new_core_game

        return new_core_game(ruleset, players, seed)
    rules = rules_for(ruleset, players)
    return Game(rules, initial_state(rules, seed))
